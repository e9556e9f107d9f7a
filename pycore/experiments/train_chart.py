"""The training grid's chart: per optimizer and d_k, each divisor's median loss over the seeds with a band from the
lowest to the highest seed, on a log axis; static SVG that needs no script."""

from __future__ import annotations

import itertools
import math

import numpy as np

from pycore import train
from pycore.experiments.train_runs import OPTIMIZER_NAMES, WINDOW, Grid, divisor_name, num, spoken_name
from pycore.figures import _chart, _common
from pycore.i18n import _
from pycore.svg import el, fmt, svg, text

SERIES = _common.SERIES
CAP = 100.0
"""The chart's loss axis ends here."""


def panel(g: Grid, optimizer: str, dk: int) -> str:
    """One (optimizer, d_k): per divisor the median windowed loss over seeds and a min–max band, log axis.

    The axis stops at CAP; a line above it runs along the top edge and a note under the axis says how high it went.
    """
    runs = [g.at(optimizer, dk, d) for d in train.DIVISORS]
    xs = [(i + 0.5) * WINDOW for i in range(len(runs[0].curve[0]))]
    logs = {r.divisor: np.log10(np.array(r.curve)) for r in runs}
    top = math.log10(CAP)
    lowest = min(float(v.min()) for v in logs.values())
    lo = min(math.floor(lowest), math.floor(top) - 1)
    ax = _chart.axes(0, g.steps, lo, top, top=44, bottom=178)
    yticks = [(float(v), _decade(v)) for v in range(lo, math.floor(top) + 1)]
    xticks = [(v, str(v)) for v in range(0, g.steps + 1, max(1, g.steps // 4))]
    title = f"{OPTIMIZER_NAMES[optimizer]}, dₖ = {dk}"
    parts = _chart.frame(ax, title, xticks, yticks, _("step (loss on a log scale)"))
    for r in runs:
        v = np.clip(logs[r.divisor], lo, top)
        parts.append(_chart.band(ax, xs, v.min(axis=0), v.max(axis=0), f"sq-band {SERIES[r.divisor]}"))
    for r in runs:
        parts.append(_chart.series(ax, xs, np.clip(np.median(logs[r.divisor], axis=0), lo, top), SERIES[r.divisor]))
    for i, d in enumerate(train.DIVISORS):
        parts += _chart.legend(46 + 82 * i, 34, [(SERIES[d], divisor_name(d))])
    over = [r for r in runs if np.median(np.array(r.curve), axis=0).max() > CAP]
    notes = [_("{divisor} above {cap}: up to {value}").format(
        divisor=divisor_name(r.divisor), cap=fmt(CAP), value=num(float(np.median(np.array(r.curve), axis=0).max())))
             for r in over]
    for i, note in enumerate(notes):
        parts.append(text(ax.x.r1, 226 + 14 * i, f"↑ {note}", "sq-tick", "end"))
    label = _("Training loss over {steps} steps with {panel}, median over {seeds} seeds with a band from the lowest to "
              "the highest seed, log scale up to {cap}: {lines}").format(
        steps=g.steps, panel=title.replace("dₖ", "d_k"), seeds=len(g.seeds), cap=fmt(CAP), lines="; ".join(
            _("{divisor} from {first} to {final}").format(divisor=spoken_name(r.divisor),
                                                          first=num(float(np.median(r.first))), final=num(r.median))
            for r in runs))
    return svg(_chart.W, 232 + 14 * max(len(notes), 1) - 14, label, parts, "sq-svg--chart")


def _decade(k: int) -> str:
    """10^k as a short label."""
    return fmt(10.0**k, 4) if -3 <= k <= 3 else f"1e{k}"


def chart(g: Grid) -> str:
    """Every panel, optimizer by optimizer, in one div that needs no script."""
    return el("div", {"class": "sq-grid-chart"},
              [panel(g, o, dk) for o, dk in itertools.product(train.OPTIMIZERS, g.dks)])
