"""Display names that cannot pass for another player's: a name's look-alike key, the same for
names a reader cannot tell apart (docs/moderation.md, "Names").

The key folds what changes a name's look but not who it seems to be: compatibility forms
(fullwidth and mathematical letters, ligatures: NFKC), invisible format characters (zero-width
spaces and joiners), accents, letters of other scripts drawn like Latin ones (Unicode's
confusables, from ``confusable_homoglyphs``' data: Cyrillic "а" for "a"), the ASCII pairs that
read alike (I, l, 1 and |; O and 0), letter case and runs of spaces.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables

_ASCII_ALIKE = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "o", "O": "o"})


@functools.lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """An ASCII letter or digit ``char`` looks like (itself when none)."""
    if char.isascii():
        return char
    for alike in confusables.confusables_data.get(char, []):
        candidate = str(alike["c"]).strip("\u200e")
        if len(candidate) == 1 and candidate.isascii() and candidate.isalnum():
            return candidate
    return char


def name_key(name: str) -> str:
    """The look-alike key of ``name``: two names with one key cannot be told apart by eye."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    kept = "".join(char for char in text if unicodedata.category(char) not in ("Cf", "Mn", "Me"))
    return " ".join("".join(_latin(char) for char in kept).translate(_ASCII_ALIKE).casefold().split())
