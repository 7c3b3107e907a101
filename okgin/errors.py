"""The one small error hierarchy: every error a player or a record can cause is a ValueError."""


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
