"""The one SQLAlchemy MetaData every table of the store is on (``schema`` gathers them all)."""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData()
