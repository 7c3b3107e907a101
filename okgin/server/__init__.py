"""The web game: an ASGI app serving the page, a WebSocket per seat, and the game store."""

from okgin.server.app import create_app

__all__ = ["create_app"]
