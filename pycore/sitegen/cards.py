"""Recall cards: written once in the pages, shown in place, gathered on the review page, exported for Anki.

A card is a fenced block in a step's Markdown:

    ```card
    Q: Why is the variance of the score exactly d_k?
    A: It is a sum of d_k independent products ...
    ```

In place it becomes a collapsed ``??? question`` block (the answer hidden until revealed);
the review page and the Anki deck are generated from the same parsed cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .markers import fence

FENCE = fence("card")


class CardError(ValueError):
    """A card block that is not a question and an answer."""


@dataclass(frozen=True)
class Card:
    """One question and its answer, with the page it belongs to."""

    question: str
    answer: str
    page: str
    """The Markdown source path, e.g. ``step-4.md``."""


def parse(body: str, page: str) -> Card:
    """``Q:`` on the first line, ``A:`` starting a later line; the answer may run over several lines."""
    match = re.fullmatch(r"\s*Q:\s*(?P<q>.+?)\s*\n\s*A:\s*(?P<a>.+?)\s*", body, re.S)
    if not match:
        raise CardError(f"{page}: a card needs a 'Q:' line followed by an 'A:' line")
    question = " ".join(match.group("q").split())
    if '"' in question:
        raise CardError(f"{page}: use typographic quotes in a card's question, not '\"': {question}")
    return Card(question, " ".join(match.group("a").split()), page)


def collect(markdown: str, page: str) -> list[Card]:
    """Every card in one page, in order."""
    return [parse(m.group("body"), page) for m in FENCE.finditer(markdown)]


def as_markdown(card: Card) -> str:
    """A collapsed question block whose answer shows when the reader opens it."""
    return f'??? question sq-card "{card.question}"\n    {card.answer}\n'


def replace(markdown: str, page: str) -> str:
    """Cards in a page's Markdown turned into collapsed blocks."""
    return FENCE.sub(lambda m: as_markdown(parse(m.group("body"), page)), markdown)


def review(cards: list[Card], titles: dict[str, str], link_prefix: str = "") -> str:
    """Every card, grouped under a link to its page."""
    out: list[str] = []
    current = None
    for card in cards:
        if card.page != current:
            current = card.page
            out.append(f"\n## [{titles.get(card.page, card.page)}]({link_prefix}{card.page})\n")
        out.append(as_markdown(card))
    return "\n".join(out)


def _plain(text: str) -> str:
    """A field as plain text: Markdown *emphasis* marks dropped, tabs and newlines made spaces."""
    return " ".join(re.sub(r"\*([^*]+)\*", r"\1", text).split())


def anki(cards: list[Card]) -> str:
    """One line per card, front and back separated by a tab; math stays in \\( \\) for Anki's MathJax."""
    return "".join(f"{_plain(card.question)}\t{_plain(card.answer)}\n" for card in cards)
