"""Render a figure instance to HTML with Jinja2: the pre-rendered SVG, controls, readouts.

The templates' own words are in the current language (``pycore/i18n.py``), through Jinja's i18n extension in its
"newstyle" form: a template writes ``{{ _("Step %(current)s of %(total)s", current=current, total=n) }}``, one
message per phrase, its placeholders named ``%(name)s`` and filled by keyword, never ``.format`` and never
concatenated. Newstyle escapes the values (autoescape stays on) and always formats, so a literal percent sign
is written ``%%``. Babel's Jinja extractor (``jinja2.ext.babel_extract``, keywords ``_`` and ``N_``) finds the
literals for the catalog (``pycore/sitegen/catalogs.py``). Values that come translated from the core (a figure's
title, labels) are shown as they are.
"""

from __future__ import annotations

import json
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from .. import bridge, figures, i18n, predict
from ..cache import kept
from ..params import ParamError
from .pack import core_sources
from .markers import Marker, MarkerError, PredictMarker
from .paths import TEMPLATES


def ngettext(singular: str, plural: str, n: int) -> str:
    """Jinja's plural form: a translation (Chinese has one form for every count), else English's for ``n``."""
    translated = i18n._(singular)
    return translated if translated != singular else singular if n == 1 else plural


ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                  keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
ENV.install_gettext_callables(gettext=i18n._, ngettext=ngettext, newstyle=True)


def figure_context(figure_id: str, state: Any, *, anchor: str, caption: str,
                   controls: tuple[str, ...] | None, embed_url: str, page_url: str,
                   readouts: tuple[str, ...] | None = None, menu: bool = True) -> dict[str, Any]:
    """What the figure template needs for one instance in one state.

    The controls of parameters declared ``advanced`` go behind "More settings"; ``menu`` is False
    for a panel of a row, whose actions the row's own menu offers.
    """
    module = figures.get(figure_id)
    shown = [c for c in module.CONTROLS if controls is None or c.name in controls]
    advanced = {p.name for p in module.PARAMS if p.advanced}
    v = kept("views", core_sources(), f"{i18n.language()} {figure_id} {figures.state_json(state)}",
                    lambda: bridge.view(module, state))
    return {
        "id": figure_id,
        "anchor": anchor,
        "title": figures.title(module),
        "caption": caption or figures.title(module),
        "live": v.get("caption"),
        "state_json": json.dumps(v["state"], ensure_ascii=False, separators=(",", ":")),
        "svg": v["svg"],
        "readouts": [(name, label, v["readouts"][name]) for name, label in figures.readout_labels(module)
                     if readouts is None or name in readouts],
        "controls": [c for c in shown if c.name not in advanced],
        "more": [c for c in shown if c.name in advanced],
        "values": v["values"],
        "embed_url": embed_url,
        "page_url": page_url,
        "height": module.HEIGHT,
        "menu": menu,
    }


def render_row_menu(anchors: list[str]) -> str:
    """The one actions menu of a row of figures (small multiples), after its panels."""
    return ENV.get_template("row-menu.html.j2").render(anchor=anchors[0])


def state_json(marker: Marker) -> dict[str, Any]:
    """The starting state of a marker's figure, as data-state JSON (the marker is already known to parse)."""
    return figures.state_json(figures.get(marker.figure).parse(marker.params))


def render_marker(marker: Marker, *, anchor: str, embed_root: str, menu: bool = True) -> str:
    """One Markdown marker to figure HTML; any problem raises MarkerError naming the figure."""
    try:
        module = figures.get(marker.figure)
        state = module.parse(marker.params)
    except ParamError as err:
        raise MarkerError(f"figure '{marker.figure}': {err}") from None
    for kind, names, known in (("control", marker.controls, {c.name for c in module.CONTROLS}),
                               ("readout", marker.readouts, {name for name, _ in module.READOUTS})):
        for name in names or ():
            if name not in known:
                raise MarkerError(f"figure '{marker.figure}': unknown {kind} '{name}'; "
                                  f"it has: {', '.join(sorted(known)) or 'none'}")
    context = figure_context(marker.figure, state, anchor=marker.anchor or anchor, caption=marker.caption,
                             controls=marker.controls, readouts=marker.readouts,
                             embed_url=f"{embed_root}{marker.figure}/", page_url="", menu=menu)
    return ENV.get_template("figure.html.j2").render(context)


def render_predict(marker: PredictMarker, placed: dict[str, tuple[str, dict[str, Any]]],
                   above: tuple[str, ...] = ()) -> str:
    """One prediction prompt to HTML; ``placed`` maps each figure anchor on the page to (figure id, its
    starting state as JSON), and ``above`` names the anchors that stand above the prompt on its page.
    A prompt, anchor, choice or show parameter that does not fit is a MarkerError, and so is a figure
    above the prompt that already shows its answer (see ``answered_above``)."""
    try:
        prompt = predict.get(marker.prompt)
    except ParamError as err:
        raise MarkerError(str(err)) from None
    if marker.figure not in placed:
        raise MarkerError(f"predict '{marker.prompt}': no figure '{marker.figure}' on this page; "
                          f"it has: {', '.join(placed) or 'none'}")
    figure_id, start = placed[marker.figure]
    if figure_id != prompt.figure:
        raise MarkerError(f"predict '{marker.prompt}' is answered by a '{prompt.figure}' figure, "
                          f"but '{marker.figure}' is a '{figure_id}'")
    names = [name for name, _ in marker.choices]
    if sorted(names) != sorted(prompt.choices):
        raise MarkerError(f"predict '{marker.prompt}': its choices are {', '.join(prompt.choices)}, "
                          f"got {', '.join(names)}")
    try:
        answer = kept("predict", core_sources(), json.dumps([i18n.language(), marker.prompt, start, marker.show],
                                                                          sort_keys=True),
                             lambda: predict.answer(marker.prompt, start, marker.show))
    except ParamError as err:
        raise MarkerError(f"predict '{marker.prompt}': show: {err}") from None
    if problem := answered_above(marker, answer["right"], {a: placed[a] for a in above}):
        raise MarkerError(problem)
    return ENV.get_template("predict.html.j2").render(
        prompt=marker.prompt, figure=marker.figure, question=marker.question, choices=marker.choices,
        show=json.dumps(marker.show, ensure_ascii=False, separators=(",", ":")))


def answered_above(marker: PredictMarker, right: str, above: dict[str, tuple[str, dict[str, Any]]]) -> str | None:
    """Why a prediction would come too late, or None: a prediction comes before the figure that answers it.

    ``above`` holds the figures that stand above the prompt on its page, by anchor. It is too late when
    its answering figure is among them, or another figure of the same kind whose starting state already
    shows the right choice (the prompt's own judge says so), as Step 3's row of histograms for dₖ = 1, 8
    and 64 would above the question of what a longer row does.
    """
    prompt = predict.get(marker.prompt)
    for anchor, (figure_id, state) in above.items():
        if anchor == marker.figure:
            return (f"predict '{marker.prompt}' stands below its figure '{anchor}': a prediction comes before "
                    f"the figure that answers it")
        if figure_id != prompt.figure:
            continue
        shown = kept("predict", core_sources(), json.dumps([i18n.language(), marker.prompt, state], sort_keys=True),
                            lambda: predict.judge(marker.prompt, predict.shown_state(marker.prompt, state, {})))
        if shown["right"] == right:
            return (f"predict '{marker.prompt}': the figure '{anchor}' above it already shows the answer "
                    f"('{right}'): {shown['why']} Put the prediction before it")
    return None
