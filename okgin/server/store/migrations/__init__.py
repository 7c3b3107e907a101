"""The store's Alembic migrations: `okgin db upgrade` runs them (``okgin.server.store.migrate``)."""
