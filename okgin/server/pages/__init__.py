"""HTML pages and their static files: the table, how to play, history, review, replay, statistics."""
