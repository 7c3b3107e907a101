"""JSON from strangers: parsed with its nesting depth and its integers' length bounded.

Python's own parser answers deep nesting with RecursionError and long integers with a
bare ValueError; here both, and every other fault, become one ``JSONBoundError`` whose
message says what was wrong.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
MAX_DIGITS = 30


class JSONBoundError(ValueError):
    """Text that is not JSON, or JSON nested too deep or holding too long a number."""


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (a linear scan, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _bounded_int(max_digits: int) -> Any:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > max_digits:
            raise JSONBoundError(f"a number of {len(digits)} digits: at most {max_digits}")
        return int(digits)
    return parse


def _no_constant(name: str) -> Any:
    raise JSONBoundError(f"{name} is not a number JSON allows")


def loads(text: str, max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS) -> Any:
    """Parse ``text``. Raises JSONBoundError (only) saying what was wrong.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    """
    depth = _depth(text)
    if depth > max_depth:
        raise JSONBoundError(f"nested {depth} levels deep: at most {max_depth}")
    try:
        return json.loads(text, parse_int=_bounded_int(max_digits), parse_constant=_no_constant)
    except JSONBoundError:
        raise
    except json.JSONDecodeError as error:
        raise JSONBoundError(f"not JSON: {error.msg} at character {error.pos}") from None
    except (ValueError, RecursionError) as error:  # e.g. a float too long; never a traceback
        raise JSONBoundError(f"not JSON: {error}") from None
