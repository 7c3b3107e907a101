"""The WebSockets' keepalive: uvicorn's sans-I/O WebSocket protocol, pinging only a connection
that was sent nothing for a ping interval.

A proxy in front (deploy/okgin.conf) closes a connection that brings it nothing for 5 s, so that
a hung process's players reconnect to another one; each connection must therefore be sent
something at least every ``ping_interval`` (2 s, ``okgin serve``). uvicorn pings every connection
at that interval whatever else it was sent: with 1,000 people at tables that was 500 pings and
500 pongs a second (22 ms of CPU a second at 500 rooms, docs/performance.md). A frame sent does the
same for the proxy, so a connection that was sent one within the interval is not pinged: its
ping is put off until the interval has passed since that frame. A quiet connection (nobody
moving) is pinged as before, and its pong still proves the page is there (``ws_ping_timeout``).
"""

from __future__ import annotations

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class QuietPings(WebSocketsSansIOProtocol):
    """uvicorn's protocol with each ping put off while frames are being sent."""

    last_sent = float("-inf")
    """The event loop's time of the last frame sent to this connection."""

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.send":
            self.last_sent = self.loop.time()

    def send_keepalive_ping(self) -> None:
        interval = self.ping_interval or 0.0
        quiet = self.loop.time() - self.last_sent
        if quiet < interval:
            self.ping_timer = self.loop.call_later(interval - quiet, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()
