"""A browser's side of the tournaments' pages over HTTP, for the server tests: a session
cookie, its CSRF token, the create, join and start forms, and the tournament as data."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from server_process import web_client

FAST = {"format": "knockout", "places": "8", "table": "2", "preset": "oklahoma", "target": "10",
        "levels": "easy"}
"""A tournament that plays quickly: computer players, matches to 10."""


class Browser:
    """One browser: its cookie kept, forms sent with its CSRF token from the server's own origin."""

    def __init__(self, base_url: str, cookie: str | None = None) -> None:
        self.base_url = base_url
        self.web = web_client(base_url, headers={"origin": base_url})
        if cookie:
            self.web.cookies.set("okgin_session", cookie)
        page = self.web.get("/t")
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found, page.text
        self.csrf = found.group(1)

    @property
    def cookie(self) -> str:
        return str(self.web.cookies["okgin_session"])

    def post(self, path: str, fields: dict[str, str]) -> httpx.Response:
        return self.web.post(path, data={"csrf": self.csrf, **fields})

    def create(self, fields: dict[str, str]) -> str:
        """Make a tournament; return its code."""
        answer = self.post("/t", fields)
        assert answer.status_code == 303, answer.text
        return answer.headers["location"].removeprefix("/t/")

    def state(self, code: str) -> dict[str, Any]:
        answer = self.web.get(f"/t/{code}/state")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def wait(self, code: str, status: str = "finished", seconds: float = 600.0) -> dict[str, Any]:
        """Poll the tournament until it has ``status`` (a guard against a hang, not a time limit)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            state = self.state(code)
            if state["status"] == status:
                return state
            time.sleep(0.5)
        raise AssertionError(f"tournament {code} still {self.state(code)['status']} after {seconds:.0f} s")
