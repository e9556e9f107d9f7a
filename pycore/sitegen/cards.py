"""Recall cards: written once in the pages, shown in place, gathered on the review page, exported for Anki,
and reviewed on a schedule (FSRS, ``pycore/review.py``) under their ids.

A card is a fenced block in a page's Markdown, its id first:

    ```card
    id: step-4-variance
    Q: Why is the variance of the score exactly d_k?
    A: It is a sum of d_k independent products ...
    ```

The id is the key of the reader's review history for the card on their device: lower-case words joined by
hyphens, unique in the site, and never changed once published (a card keeps its history through a rewording
only if its id stays; a new id starts it afresh). A card without one fails the strict build with an id to use.
In place it becomes a collapsed ``??? question`` block (the answer hidden until revealed) inside a
``data-card`` wrapper that also holds the grading controls (``review-card.html.j2``, hidden until the
page's script shows them); the review page, its embed pages and the Anki deck come from the same parsed cards.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..review import CARD_ID, ID_LENGTH
from .markers import fence
from .render import ENV

FENCE = fence("card")


class CardError(ValueError):
    """A card block that is not a question and an answer."""


@dataclass(frozen=True)
class Card:
    """One question and its answer, with the page it belongs to and its id."""

    question: str
    answer: str
    page: str
    """The Markdown source path, e.g. ``step-4.md``."""
    id: str
    """The key of the card's review history: see the module's docstring."""


STOP = {"a", "an", "and", "are", "at", "be", "by", "do", "does", "for", "from", "how", "in", "is", "it", "of", "on",
        "or", "say", "the", "to", "what", "when", "where", "which", "who", "why", "with"}


def suggested_id(question: str, page: str) -> str:
    """An id to propose for a card that has none: its page and the first words of its question that say something."""
    words = [w for w in re.findall(r"[a-z0-9]+", question.lower()) if w not in STOP]
    return "-".join([page.removesuffix(".md"), *words[:3]])[:ID_LENGTH]


def parse(body: str, page: str) -> Card:
    """``id:`` on the first line, then ``Q:``, then ``A:`` starting a later line; the answer may run over several lines."""
    match = re.fullmatch(r"\s*(?:id:[ \t]*(?P<id>\S*)[ \t]*\n)?\s*Q:\s*(?P<q>.+?)\s*\n\s*A:\s*(?P<a>.+?)\s*", body, re.S)
    if not match:
        raise CardError(f"{page}: a card needs an 'id:' line, then a 'Q:' line, then an 'A:' line")
    question = " ".join(match.group("q").split())
    if '"' in question:
        raise CardError(f"{page}: use typographic quotes in a card's question, not '\"': {question}")
    card_id = match.group("id")
    if card_id is None:
        raise CardError(f"{page}: the card “{question}” has no id. Put a line such as "
                        f"'id: {suggested_id(question, page)}' above its Q: line: lower-case words joined by hyphens, "
                        f"unique in the site, and never changed afterwards (readers' review histories are kept under it)")
    if len(card_id) > ID_LENGTH or not CARD_ID.fullmatch(card_id):
        raise CardError(f"{page}: the card “{question}” has the id '{card_id}'; an id is lower-case letters and digits "
                        f"in words joined by hyphens, at most {ID_LENGTH} characters, such as "
                        f"'{suggested_id(question, page)}'")
    return Card(question, " ".join(match.group("a").split()), page, card_id)


def check_unique(cards: list[Card]) -> None:
    """Every id names one card in the whole site, or the build fails naming both cards."""
    seen: dict[str, Card] = {}
    for card in cards:
        if card.id in seen:
            first = seen[card.id]
            raise CardError(f"the card id '{card.id}' is used twice: {first.page} (“{first.question}”) and "
                            f"{card.page} (“{card.question}”); give each card an id of its own")
        seen[card.id] = card


def collect(markdown: str, page: str) -> list[Card]:
    """Every card in one page, in order."""
    return [parse(m.group("body"), page) for m in FENCE.finditer(markdown)]


def as_markdown(card: Card) -> str:
    """A collapsed question block whose answer shows when the reader opens it, in a wrapper (Markdown in HTML)
    that carries the card's id and its grading controls."""
    controls = ENV.get_template("review-card.html.j2").render(id=card.id).strip()
    return (f'<div class="sq-recall" data-card="{card.id}" markdown>\n\n'
            f'??? question sq-card "{card.question}"\n    {card.answer}\n\n{controls}\n\n</div>\n')


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


RENDERED = re.compile(r'<div class="sq-recall".*?<div class="sq-review".*?</div>\s*</div>', re.S)
"""A card as a page shows it: the wrapper, the question block, then the controls (which hold no other div)."""


def rendered(html: str) -> list[str]:
    """Every card of a page's finished HTML, as it stands there (for the embed pages of cards)."""
    return RENDERED.findall(html)


def listing(cards: list[Card]) -> str:
    """The site's cards for the page's review script: each one's id, page (relative to the site root) and
    question, in the article's order."""
    entries = [{"id": c.id, "page": c.page.removesuffix(".md") + "/", "question": _plain(c.question)} for c in cards]
    return json.dumps({"cards": entries}, ensure_ascii=False, indent=1) + "\n"


def anki(cards: list[Card]) -> str:
    """One line per card, front and back separated by a tab; math stays in \\( \\) for Anki's MathJax."""
    return "".join(f"{_plain(card.question)}\t{_plain(card.answer)}\n" for card in cards)
