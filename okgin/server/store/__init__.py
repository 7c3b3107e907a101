"""The store: one schema kept by Alembic migrations, games as their action logs, and rooms."""
