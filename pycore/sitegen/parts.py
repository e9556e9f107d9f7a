"""The generated parts a page asks for by name in a ```generated block: tables and charts from the numpy
experiments, the teachers' reference, the glossary, the recall cards and the review session."""

from __future__ import annotations

import json
from collections.abc import Callable

from ..experiments import fixes, lr_sweep, reproduce, reproduce_table, train_grid, train_runs
from . import cards, glossary, oembed
from .reference import reference
from .render import ENV
from .state import Build


def _all_cards(root: str, build: Build) -> str:
    """Every recall card of the article, grouped under its page."""
    return cards.review(build.deck, build.titles)


def _review_session(root: str, build: Build) -> str:
    """The review page's session: the count of due cards, the session itself, export, import and clearing."""
    return ENV.get_template("review-session.html.j2").render(root=root).strip() + "\n"


def _reproduction(root: str, build: Build) -> str:
    """The numpy reproduction's settings, verdicts and tables."""
    return reproduce.markdown(reproduce_table.table())


def _glossary_table(root: str, build: Build) -> str:
    """Every term of the glossary, what it means and where it is introduced."""
    return glossary.page_markdown(build.terms, build.titles)


def _train_grid(root: str, build: Build) -> str:
    """The numpy training grid: settings, chart, statements computed from its numbers, and its table."""
    return train_grid.markdown(train_runs.grid())


def _lr_sweep(root: str, build: Build) -> str:
    """The numpy learning-rate sweep: settings, statements computed from its numbers, and its tables."""
    return lr_sweep.markdown(lr_sweep.sweep())


def _length_factors(root: str, build: Build) -> str:
    """Long rows: what each rule multiplies the scores by as the row grows, as a static chart."""
    return fixes.picture(fixes.length_factors())


def _score_ceilings(root: str, build: Build) -> str:
    """Long rows: the largest score as training grows q and k, under each fix that bounds it, as a static chart."""
    return fixes.picture(fixes.score_ceilings())


def _figure_reference(root: str, build: Build) -> str:
    """Every figure's parameters, snippet and live example, for the teachers' page."""
    return reference(root, build.site_url, build.folder)


def _machine_readable(root: str, build: Build) -> str:
    """The teachers' sections on oEmbed and the figure list: their addresses, or how to get them."""
    example = "score-histogram"
    first = oembed.entry(example, build.site_url or "/")["parameters"][0]
    return ENV.get_template("machine-readable.md.j2").render(
        root=root, site_url=build.site_url and oembed.base(build.site_url), example=example,
        parameter=json.dumps(first, ensure_ascii=False))


PARTS: dict[str, Callable[[str, Build], str]] = {
    "all-cards": _all_cards, "figure-reference": _figure_reference, "glossary": _glossary_table,
    "lr-sweep": _lr_sweep, "machine-readable": _machine_readable, "reproduction-table": _reproduction,
    "review-session": _review_session, "train-grid": _train_grid, "length-factors": _length_factors,
    "score-ceilings": _score_ceilings}
"""Each generated part by its name in a ```generated block; each takes the path up to the site root and the
build's state."""
