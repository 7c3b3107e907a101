"""The pool in Redis, for servers sharing a broker: one hash of seekers (id to JSON), changed
only by Lua scripts, each of which Redis runs alone, so a claim sees and takes every seeker
of its table at once or none. Calls block (the synchronous client): run them in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from okgin.server.pool.seekers import CLAIMED, SEATED, WAITING, Seeker
from okgin.server.rooms.broker import BrokerError

KEY = "okgin:pool:seekers"

_ADD = """
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local s = cjson.decode(all[i + 1])
  if s.player == ARGV[2] and s.state == 'waiting' then redis.call('HDEL', KEYS[1], all[i]) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""
_BEAT = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local s = cjson.decode(raw)
if s.player ~= ARGV[2] then return false end
if s.state == 'waiting' and s.lease > tonumber(ARGV[3]) then
  s.lease = tonumber(ARGV[4])
  raw = cjson.encode(s)
  redis.call('HSET', KEYS[1], ARGV[1], raw)
end
return raw
"""
_RENEW = """
local all = redis.call('HGETALL', KEYS[1])
local renewed = 0
for i = 1, #all, 2 do
  local s = cjson.decode(all[i + 1])
  if s.player == ARGV[1] and s.state == 'waiting' and s.lease > tonumber(ARGV[2]) then
    s.lease = tonumber(ARGV[3])
    redis.call('HSET', KEYS[1], all[i], cjson.encode(s)); renewed = renewed + 1
  end
end
return renewed
"""
_CANCEL = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local s = cjson.decode(raw)
if s.player ~= ARGV[2] or s.state ~= 'waiting' then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""
_CLAIM = """
local now = tonumber(ARGV[1])
local found = {}
for i = 4, #ARGV, 2 do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if not raw then return 0 end
  local s = cjson.decode(raw)
  if s.state ~= 'waiting' or s.lease <= now then return 0 end
  s.state = 'claimed'; s.claim = ARGV[3]; s.claim_until = tonumber(ARGV[2])
  s.seat = tonumber(ARGV[i + 1]); s.changed = now
  found[#found + 1] = ARGV[i]; found[#found + 1] = cjson.encode(s)
end
redis.call('HSET', KEYS[1], unpack(found))
return 1
"""
_SEAT = """
local found = {}
for i = 3, #ARGV do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if not raw then return 0 end
  local s = cjson.decode(raw)
  if s.state ~= 'claimed' or s.claim ~= ARGV[1] then return 0 end
  s.state = 'seated'; s.room = ARGV[1]; s.changed = tonumber(ARGV[2])
  found[#found + 1] = ARGV[i]; found[#found + 1] = cjson.encode(s)
end
redis.call('HSET', KEYS[1], unpack(found))
return 1
"""
_RELEASE = """
for i = 2, #ARGV do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw then
    local s = cjson.decode(raw)
    if s.state == 'claimed' and s.claim == ARGV[1] then
      s.state = 'waiting'; s.claim = nil; s.claim_until = nil; s.seat = nil
      redis.call('HSET', KEYS[1], ARGV[i], cjson.encode(s))
    end
  end
end
return 1
"""
_PURGE = """
local before = tonumber(ARGV[1])
local gone = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local s = cjson.decode(all[i + 1])
  if (s.state == 'waiting' and s.lease < before) or (s.state == 'seated' and s.changed < before) then
    redis.call('HDEL', KEYS[1], all[i]); gone = gone + 1
  end
end
return gone
"""


class RedisPool:
    """The pool shared by every process through one Redis server."""

    def __init__(self, url: str, key: str = KEY) -> None:
        import redis

        self._redis: Any = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._key = key
        self._scripts = {name: self._redis.register_script(body) for name, body in (
            ("add", _ADD), ("beat", _BEAT), ("renew", _RENEW), ("cancel", _CANCEL), ("claim", _CLAIM),
            ("seat", _SEAT),
            ("release", _RELEASE), ("purge", _PURGE))}

    def _run(self, script: str, *args: str | int | bytes) -> Any:
        from redis.exceptions import RedisError

        try:
            return self._scripts[script](keys=[self._key], args=list(args))
        except (RedisError, OSError) as error:
            raise BrokerError(f"the pool could not be reached: {error}") from None

    def add(self, seeker: Seeker) -> None:
        self._run("add", seeker.id, seeker.player, _json(seeker))

    def get(self, seeker: str) -> Seeker | None:
        from redis.exceptions import RedisError

        try:
            raw = self._redis.hget(self._key, seeker)
        except (RedisError, OSError) as error:
            raise BrokerError(f"the pool could not be reached: {error}") from None
        return _seeker(raw) if raw is not None else None

    def beat(self, seeker: str, player: str, now: float, lease_until: float) -> Seeker | None:
        raw = self._run("beat", seeker, player, repr(now), repr(lease_until))
        return _seeker(raw) if raw else None

    def renew(self, player: str, now: float, lease_until: float) -> int:
        return int(self._run("renew", player, repr(now), repr(lease_until)))

    def cancel(self, seeker: str, player: str) -> bool:
        return bool(self._run("cancel", seeker, player))

    def _all(self) -> list[Seeker]:
        from redis.exceptions import RedisError

        try:
            values = self._redis.hvals(self._key)
        except (RedisError, OSError) as error:
            raise BrokerError(f"the pool could not be reached: {error}") from None
        return [_seeker(raw) for raw in values]

    def waiting(self, now: float) -> list[Seeker]:
        return [s for s in self._all() if s.state == WAITING and s.live(now)]

    def claim(self, room: str, seats: Mapping[str, int], now: float, until: float) -> bool:
        pairs = [part for seeker, seat in sorted(seats.items()) for part in (seeker, seat)]
        return bool(self._run("claim", repr(now), repr(until), room, *pairs))

    def seat(self, room: str, seekers: Sequence[str], now: float) -> bool:
        return bool(self._run("seat", room, repr(now), *seekers))

    def release(self, room: str, seekers: Sequence[str]) -> None:
        self._run("release", room, *seekers)

    def stale(self, now: float) -> list[Seeker]:
        return [s for s in self._all() if s.state == CLAIMED and (s.claim_until or 0.0) < now]

    def purge(self, gone_before: float) -> int:
        return int(self._run("purge", repr(gone_before)))

    def close(self) -> None:
        self._redis.close()


def _json(seeker: Seeker) -> bytes:
    return orjson.dumps(seeker.to_data())


def _seeker(raw: bytes | str) -> Seeker:
    data = orjson.loads(raw)
    if data.get("state") not in (WAITING, CLAIMED, SEATED):
        raise BrokerError(f"a seeker in the pool is unreadable: {raw!r}")
    return Seeker.from_data(data)
