"""The coach on the server: its answers over the socket (hint, advice, review) and the statistics table."""
