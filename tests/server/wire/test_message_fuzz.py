"""Every field of every message type, sent as any JSON shape: the message is read, or refused
with an error that says what was wrong (an ``OkginError``, answered with its code), never a
server fault (``TypeError``, ``KeyError``: 'the server could not do that' and a traceback)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from okgin.errors import OkginError
from okgin.server.wire import messages
from okgin.server.wire.codes import code_of

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.sampled_from(["oklahoma", "easy", "normal", "draw", "gg", "scaled"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = [(kind, name) for kind, names in messages.FIELDS.items() for name in (*names, "type", "id")]


def _read(data: dict[str, Any]) -> None:
    try:
        message = messages.parse_message(json.dumps(data)).fields()
    except OkginError as error:
        assert str(error) and code_of(error).value != "internal", error
        return
    assert isinstance(message, messages.MESSAGES)
    assert data["type"] == message.TYPE and message.id == data.get("id")


@pytest.mark.parametrize(("kind", "name"), FIELDS, ids=[f"{k}.{n}" for k, n in FIELDS])
@settings(max_examples=40, deadline=None)
@given(value=JSON)
def test_any_json_in_any_field_is_read_or_refused_clearly(kind: str, name: str, value: Any) -> None:
    _read({"type": kind, name: value})


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(list(messages.FIELDS)), data=st.data())
def test_any_json_in_all_fields_at_once_is_read_or_refused_clearly(kind: str, data: st.DataObject) -> None:
    values = {name: data.draw(JSON) for name in messages.FIELDS[kind]}
    _read({"type": kind, **values})
