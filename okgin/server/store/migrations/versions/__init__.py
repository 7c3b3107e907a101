"""One module per schema revision, oldest first: 0001 (the schema before Alembic), 0002, …"""
