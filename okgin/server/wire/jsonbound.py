"""JSON from strangers: parsed with its nesting depth and its integers' length bounded, and
every text in it Unicode.

Python's own parser answers deep nesting with RecursionError and long integers with a
bare ValueError, and reads ``"\\ud800"`` as a lone surrogate, which no database or page can
take (UnicodeEncodeError later, far from the edge); here all of these, and every other fault,
become one ``JSONBoundError`` whose message says what was wrong.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
MAX_DIGITS = 30


class JSONBoundError(ValueError):
    """Text that is not JSON, or JSON nested too deep or holding too long a number."""


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed value (walked without recursion); raises
    JSONBoundError at the first text (a key or a value) that is not Unicode."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_unicode(item)
        if isinstance(item, dict):
            for key in item:
                check_unicode(key)
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item if isinstance(child, (list, dict, str)))
    return deepest


def check_unicode(text: str) -> str:
    """``text`` if it can be encoded (UTF-8); raises JSONBoundError naming a lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = text[error.start]
        raise JSONBoundError(f"text that is not Unicode: a lone surrogate \\u{ord(bad):04x}") from None
    return text


def check_unicode_in(value: Any) -> None:
    """Raise JSONBoundError when any text in ``value`` (parsed JSON) is not Unicode."""
    _depth(value)


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
    try:
        value = json.loads(text, parse_int=_bounded_int(max_digits), parse_constant=_no_constant)
    except JSONBoundError:
        raise
    except RecursionError:  # the C parser gives up near a thousand levels: fast, whatever the text
        raise JSONBoundError(f"nested too deep: at most {max_depth} levels") from None
    except json.JSONDecodeError as error:
        raise JSONBoundError(f"not JSON: {error.msg} at character {error.pos}") from None
    except ValueError as error:  # e.g. a float too long; never a traceback
        raise JSONBoundError(f"not JSON: {error}") from None
    depth = _depth(value)
    if depth > max_depth:
        raise JSONBoundError(f"nested {depth} levels deep: at most {max_depth}")
    return value
