"""Storage: games and rooms in SQL (SQLite or PostgreSQL)."""
