"""HTML pages and the page's static files: the table, how to play, history, health."""
