"""The site files the build writes beside the pages, from what it gathers before any page is rendered: every
page's title, the recall cards (as an Anki deck and as the list the review script reads) and the notebooks
of the Reproduce page and the training grid."""

from __future__ import annotations

from pathlib import Path

from . import cards, notebooks

DECK = "cards.tsv"
CARD_LIST = "cards.json"
"""Every card's id, page and question, which the page's review script reads (review.js)."""


def nav_pages(nav) -> list[tuple[str, str]]:
    """(title, source path) of every page in the configured nav, in order."""
    out = []
    for item in nav or []:
        for title, target in item.items():
            if isinstance(target, list):
                out.extend(nav_pages(target))
            else:
                out.append((title, target))
    return out


def gather(nav, files, translations: dict[str, str]) -> tuple[dict[str, str], list[cards.Card]]:
    """Every nav page's title by its source path (through ``translations``, the navigation's titles in the build's
    language), and every recall card of those pages, in order; a CardError for a bad card or two cards with
    one id."""
    titles: dict[str, str] = {}
    deck: list[cards.Card] = []
    for title, src in nav_pages(nav):
        titles[src] = translations.get(title, title)
        file = files.get_file_from_path(src)
        if file is None:
            continue
        deck.extend(cards.collect(Path(file.abs_src_path).read_text(encoding="utf-8"), src))
    cards.check_unique(deck)
    return titles, deck


def generated(deck: list[cards.Card], site: str) -> dict[str, str]:
    """Each generated file's content by its path in the site: the Anki deck, the card list and the two
    notebooks, which link their pages under ``site`` (the published address, or "")."""
    return {DECK: cards.anki(deck), CARD_LIST: cards.listing(deck),
            notebooks.REPRODUCE: notebooks.text(notebooks.reproduce_notebook(f"{site}reproduce/")),
            notebooks.TRAIN_GRID: notebooks.text(notebooks.train_grid_notebook(f"{site}train/"))}
