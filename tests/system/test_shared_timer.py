"""The turn timer's deadline is the room's, not a process's: two processes show the same one,
and a player who reconnects through the other process gets no more time."""

from __future__ import annotations

from scripted_client import Client, run
from server_process import ServerProcess


def test_both_processes_wait_for_the_same_deadline(pair: tuple[ServerProcess, ...]) -> None:
    one, two = pair

    async def go() -> tuple[float, float, float]:
        host = await Client.connect(one.ws_url)
        await host.request({"type": "create", "players": 2, "name": "Ana", "timer": 60})
        while host.room is None or host.token is None:
            await host.receive()
        guest = await Client.connect(two.ws_url)
        entered = await guest.request({"type": "enter", "room": host.room})
        assert entered["type"] == "ack", entered
        sat = await guest.request({"type": "sit", "seat": 1, "name": "Ben"})
        assert sat["type"] == "ack", sat
        started = await host.request({"type": "start", "seed": 2})
        assert started["type"] == "ack", started

        on_one, on_two = await deadline(host), await deadline(guest)
        assert host.state is not None
        mover = host if host.state["view"]["to_act"] == host.seat else guest
        await mover.close()  # the person to act reconnects through the other process
        again = await Client.connect((two if mover is host else one).ws_url)
        await again.request({"type": "enter", "room": host.room, "token": mover.token})
        after = await deadline(again)
        for client in (host, guest, again):
            await client.close()
        return on_one, on_two, after

    on_one, on_two, after = run(go())
    assert on_one is not None
    assert on_one == on_two == after


async def deadline(client: Client) -> float:
    """The deadline of the turn in play, as the client's room frames show it."""
    while client.room_state is None or client.room_state["deadline"] is None or client.state is None:
        await client.receive()
    found: float = client.room_state["deadline"]
    return found
