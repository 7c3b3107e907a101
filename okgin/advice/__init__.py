"""Explained advice for one seat's view: the suggested move and why, every discard, outs, warnings.

Everything here reads only a ``SeatView``; see ``analysis.analyse`` and docs/coach.md.
"""

from __future__ import annotations

from okgin.advice.alerts import Alert
from okgin.advice.analysis import Analysis, analyse
from okgin.advice.discards import DiscardRow
from okgin.advice.outs import NearMeld
from okgin.advice.suggest import Suggestion, suggest
from okgin.advice.worlds import Worlds

__all__ = [
    "Alert", "Analysis", "DiscardRow", "NearMeld", "Suggestion", "Worlds", "analyse", "suggest",
]
