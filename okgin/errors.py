"""The one small error hierarchy: every error a player or a record can cause is a ValueError."""


def sentence(message: str) -> str:
    """``message`` as a sentence a page shows: a capital first, a full stop last.

    Messages are written in lower case (as Python's are, and clients match them as they are);
    a page that shows one to a player shows it as a sentence.

    >>> sentence("cannot knock: 9 deadwood, the limit is 6")
    'Cannot knock: 9 deadwood, the limit is 6.'
    """
    text = message.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


class OkginError(ValueError):
    """Base of every error okgin raises on bad input; the message is for a player."""


class NotationError(OkginError):
    """Text that is not a card, a list of cards or an action."""


class RulesError(OkginError):
    """A rules value or preset that does not exist or is out of range."""


class IllegalActionError(OkginError):
    """An action that the rules do not allow now; the message says why."""


class RecordError(OkginError):
    """A game record that is malformed or does not replay; the message names the place."""
