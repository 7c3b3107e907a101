"""The server's bot API as one token opens it: JSON requests and newline-delimited streams,
the standard library only (urllib). Any answer that is not the API's raises ``ApiError`` with
one clear line; a 429 waits its ``Retry-After`` and tries again."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from okgin.errors import OkginError

REQUEST_SECONDS = 30.0
STREAM_SECONDS = 60.0
"""A stream sends an empty line after 10 s of silence: one silent this long has gone."""
RATE_LIMIT_TRIES = 20


class ApiError(OkginError):
    """The server refused a request, or answered in a way the API never does."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Api:
    """Requests to ``server`` with ``token``."""

    def __init__(self, server: str, token: str) -> None:
        if not server.startswith(("http://", "https://")):
            raise ApiError(f"--server {server!r} is not a URL: give http://host:port")
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}

    def get(self, path: str) -> dict[str, Any]:
        return self._json(self._open(path, None))

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._json(self._open(path, json.dumps(body or {}).encode()))

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """Each JSON object of the stream at ``path`` (the empty keep-alive lines skipped), until
        the server ends it."""
        answer = self._open(path, None, STREAM_SECONDS)
        with answer:
            try:
                for raw in answer:
                    text = raw.strip()
                    if text:
                        yield _object(text, path)
            except (OSError, urllib.error.URLError) as error:
                raise ApiError(f"the stream {path} broke: {_reason(error)}") from None

    def _open(self, path: str, data: bytes | None, timeout: float = REQUEST_SECONDS) -> Any:
        headers = {**self.headers, **({"Content-Type": "application/json"} if data is not None else {})}
        for _ in range(RATE_LIMIT_TRIES):
            request = urllib.request.Request(self.server + path, data=data, headers=headers,
                                             method="GET" if data is None else "POST")
            try:
                return urllib.request.urlopen(request, timeout=timeout)
            except urllib.error.HTTPError as error:
                with error:
                    if error.code == 429:
                        time.sleep(_seconds(error.headers.get("Retry-After")))
                        continue
                    raise _refusal(error, path) from None
            except (urllib.error.URLError, OSError) as error:
                raise ApiError(f"cannot reach {self.server}: {_reason(error)}") from None
        raise ApiError(f"{path}: still rate limited after {RATE_LIMIT_TRIES} tries", 429, "rate_limited")

    def _json(self, answer: Any) -> dict[str, Any]:
        with answer:
            try:
                text = answer.read()
            except (OSError, urllib.error.URLError) as error:
                raise ApiError(f"{answer.url}: the answer broke off: {_reason(error)}") from None
        return _object(text, answer.url)


def _refusal(error: urllib.error.HTTPError, path: str) -> ApiError:
    """The API's error (``{"error": {"code", "message"}}``) as an ApiError; any other answer
    (a proxy's page, another program) said as not the API."""
    try:
        body = json.loads(error.read())
        code, message = str(body["error"]["code"]), str(body["error"]["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return ApiError(f"{path}: the server answered {error.code} and not as okgin's API does "
                        "(is --server an okgin server?)", error.code)
    if code in ("no_token", "bad_token"):
        message = f"the token was refused ({code}: {message}); make a new one on the bot's profile"
    return ApiError(f"{path}: {message} ({error.code} {code})", error.code, code)


def _object(text: bytes, where: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ApiError(f"{where}: the server sent {text[:60]!r}, not a JSON object "
                       "(is --server an okgin server?)")
    return value


def _seconds(header: str | None) -> float:
    try:
        return min(max(float(header or "1"), 0.1), 30.0)
    except ValueError:
        return 1.0


def _reason(error: BaseException) -> str:
    if isinstance(error, urllib.error.URLError) and not isinstance(error.reason, str):
        error = error.reason
    if isinstance(error, (TimeoutError, socket.timeout)):
        return "no answer in time"
    return str(getattr(error, "strerror", None) or getattr(error, "reason", None) or error)
