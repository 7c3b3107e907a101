"""The coach on the server: its answers over the socket, review, replay and statistics pages."""
