"""A hand's review as a page a player reads: each mistake a small table (the hand as cards,
what was played and what was better, the cost, why), named by hand and turn, with a link into
the replay viewer at that move. Every piece of text is escaped: names are data, never markup."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from okgin.advice.review import Decision, HandReview, action_words, when
from okgin.advice.words import short
from okgin.cards import Card


def _card(card: Card) -> str:
    """A card as a small chip: the short form shown, its name read out."""
    colour = "red" if card.suit.symbol in "♥♦" else "black"
    return (f'<li class="chip {colour}"><span aria-hidden="true">{escape(short(card))}</span>'
            f'<span class="visually-hidden">{escape(card.name)}</span></li>')


def _cards(cards: Sequence[Card], label: str) -> str:
    return f'<ul class="chips" aria-label="{escape(label)}">{"".join(map(_card, cards))}</ul>'


def _mistake(review: HandReview, d: Decision, place: int, names: Sequence[str], game: str) -> str:
    view = d.view
    heading = escape(when(review, d, names))
    top = view.discards[-1] if view.discards else None
    pile = _cards([top], "Top of the discard pile") if top else "empty"
    link = f"/games/{escape(game)}/replay?hand={review.hand}&amp;move={d.move}"
    rows = (
        ("The hand", _cards(view.hand, "The cards held")),
        ("The pile", f"{pile} <span>{view.stock_count} cards in the stock</span>"),
        ("You did", escape(_capital(action_words(d.chosen)))),
        ("Better", escape(_capital(action_words(d.suggested)))),
        ("Cost", f"about {d.cost:.1f} points"),
        ("Why", escape(d.reason)),
    )
    body = "".join(f"<tr><th scope=row>{head}</th><td>{cell}</td></tr>" for head, cell in rows)
    return (f'<section class="mistake" aria-labelledby="mistake-{place}">'
            f'<h2 id="mistake-{place}">{heading}</h2><table class="mistake-table">{body}</table>'
            f'<p class=go><a href="{link}">See this move in the replay</a></p></section>')


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def review_body(review: HandReview, names: Sequence[str], game: str) -> str:
    """The page's body for ``review`` of finished game ``game`` (escaped throughout)."""
    count = len(review.mistakes)
    if not count:
        lead = f"No costly mistakes in your {review.decisions} decisions this hand."
    else:
        costly = "one was" if count == 1 else f"{count} were"
        lead = (f"Of your {review.decisions} decisions this hand, {costly} costly "
                "(the costliest first):")
    parts = [f'<p class="lead">{escape(lead)}</p>']
    parts += [_mistake(review, d, i, names, game) for i, d in enumerate(review.mistakes, start=1)]
    return "".join(parts)
