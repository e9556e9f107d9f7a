"""Long rows' two pictures of today's fixes, drawn from their closed forms: what each rule multiplies the scores by as
a row grows, and the largest score of a row as training lengthens q and k, under each fix that bounds it.

The build puts them on the page as static charts through the ``length-factors`` and ``score-ceilings`` generated
blocks; each rule is the one the models table cites (Scalable-Softmax, Qwen's ``use_logn_attn``, Llama 4's
attention temperature tuning, YaRN's factor in DeepSeek-V3's ``softmax_scale``, soft-capping, QK-Clip, QK-norm).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pycore import marks
from pycore.figures import _chart
from pycore.i18n import N_, _, clauses
from pycore.svg import el, fmt, svg, text

SSMAX_S = 1 / math.log(16)
"""Scalable-Softmax's s, as in the page's figure: 1 at n = 16."""
QWEN_TRAINED = 2048
"""L, the length Qwen's log-n rule starts from (``seq_length`` in the config of Qwen's first models)."""
LLAMA4_FLOOR, LLAMA4_SCALE = 8192, 0.1
"""Llama 4's ``floor_scale`` and ``attn_scale``."""
KIMI_STRETCH = 64
"""YaRN's ``factor`` in Kimi K2-Instruct-0905's config: how many times the context was lengthened."""
DEEPSEEK_STRETCH = 40
"""``rope_factor`` in DeepSeek-V3's inference code."""
START = 3.0
"""The largest score of the row the second picture follows, at the start of training (after ÷√d_k)."""
CAP, TAU = 50.0, 100.0
"""Gemma 2's soft cap and Kimi K2's QK-Clip threshold τ."""
GROWTH = 8.0
"""The second picture's axis: q and k grown up to this many times their starting length."""
NUMBERS = {"length": f"{QWEN_TRAINED:,}", "stretch": KIMI_STRETCH, "tau": fmt(TAU), "cap": fmt(CAP)}
"""The numbers the lines' names quote, as printed."""


class Name(str):
    """A line's name in English, its numbers filled in, which can also give itself in the current language (the
    picture draws ``shown()``; tests and code compare the English)."""

    template: str
    """The name as a message: English, marked for the catalog, with the numbers as placeholders."""

    def __new__(cls, template: str) -> Name:
        name = super().__new__(cls, template.format(**NUMBERS))
        name.template = template
        return name

    def shown(self) -> str:
        """The name in the current language."""
        return _(self.template).format(**NUMBERS)


def yarn(stretch: float) -> float:
    """YaRN's factor on the scores for a context lengthened ``stretch`` times: (0.1 ln r + 1)², the same for every n."""
    return (0.1 * math.log(stretch) + 1) ** 2 if stretch > 1 else 1.0


def qwen(n: int) -> float:
    """Qwen's log-n rule for the query at position n: ln n / ln L past the trained length L, else 1."""
    return math.log(n) / math.log(QWEN_TRAINED) if n > QWEN_TRAINED else 1.0


def llama4(n: int) -> float:
    """Llama 4's temperature tuning for the query at position n, counting from 1: 1 + 0.1 ln(⌊n / 8192⌋ + 1)."""
    return 1 + LLAMA4_SCALE * math.log(n // LLAMA4_FLOOR + 1)


def ssmax(n: int) -> float:
    """Scalable-Softmax's s·ln n."""
    return SSMAX_S * math.log(n)


FACTORS: tuple[tuple[Name, str, Callable[[int], float]], ...] = (
    (Name(N_("÷√dₖ alone")), "sqrt", lambda n: 1.0),
    (Name("Scalable-Softmax, s = 1/ln 16"), "log-n", ssmax),
    (Name(N_("Qwen, log-n rule (L = {length})")), "none", qwen),
    (Name(N_("Llama 4, some of its layers")), "fix1", llama4),
    (Name(N_("YaRN, {stretch}× context (Kimi K2)")), "fix2", lambda n: yarn(KIMI_STRETCH)),
)
"""Each line of the first picture: its name, its series style and the factor for a row of n keys."""


def no_fix(g: float) -> float:
    """The largest score once q and k are g times longer: both lengths multiply the dot product."""
    return START * g * g


CEILINGS: tuple[tuple[Name, str, Callable[[float], float]], ...] = (
    (Name(N_("no fix")), "none", no_fix),
    (Name(N_("QK-Clip at {tau}")), "fix1", lambda g: min(no_fix(g), TAU)),
    (Name(N_("soft-cap, {cap}·tanh(s/{cap})")), "log-n", lambda g: CAP * math.tanh(no_fix(g) / CAP)),
    (Name("QK-norm"), "sqrt", lambda g: START),
)
"""Each line of the second picture: its name, its series style and the largest score at growth g (QK-norm's learned
scale left at 1, QK-Clip's shrinking applied at every step)."""


def _line(ax: _chart.Axes, xs: Sequence[float], ys: Sequence[float], cls: str) -> str:
    """A series drawn as a line without dots (the first picture's steps need many points)."""
    return el("g", {"class": f"sq-series sq-series--{cls}"},
              [marks.polyline([(ax.x(x), ax.y(y)) for x, y in zip(xs, ys)], "sq-series__line")])


W, H = 420, 252
"""Each picture is wider than a figure's panel, so its legend gets two columns above the plotting box."""
BOX = {"left": 46, "right": 392, "top": 86, "bottom": 212}


def _legend(entries: Sequence[tuple[str, str]]) -> list[str]:
    """The lines' names in two columns of up to three rows, between the title and the plotting box."""
    rows = (len(entries) + 1) // 2
    out: list[str] = []
    for column, x in enumerate((46, 240)):
        chunk = entries[column * rows:(column + 1) * rows]
        out += _chart.legend(x, 42, [(f"sq-series--{cls}", label) for label, cls in chunk])
    return out


LOG2_LO, LOG2_HI = 4, 20
"""The first picture's axis: n from 16 to 2²⁰, about a million keys."""


def length_factors() -> str:
    """What each rule multiplies the scores by, against the length of the row (the query's position, in causal
    attention), on a log axis."""
    steps = [LOG2_LO + i / 32 for i in range(32 * (LOG2_HI - LOG2_LO) + 1)]
    ns = [round(2**s) for s in steps]
    top = 5.0
    ax = _chart.axes(LOG2_LO, LOG2_HI, 0.0, top, **BOX)
    xt = [(float(k), f"{2**k:,}") for k in (4, 8, 13, 16)] + [(20.0, _("1 million"))]
    parts = _chart.frame(ax, _("What multiplies the scores"), xt, [(float(v), str(v)) for v in range(6)],
                         _("n, keys in the row (log scale)"))
    for _name, cls, factor in FACTORS:
        parts.append(_line(ax, steps, [factor(n) for n in ns], cls))
    parts += _legend([(name.shown(), cls) for name, cls, _factor in FACTORS])
    at = (16, 1024, 8192, 65536, 2**20)
    lines = clauses(_("{name}: {values}").format(name=name.shown(), values=", ".join(fmt(factor(n)) for n in at))
                      for name, _cls, factor in FACTORS)
    label = _("What each rule multiplies the scaled scores by, for rows of n keys from 16 to about a million, at n = "
              "{lengths}: {lines}").format(lengths=", ".join(f"{n:,}" for n in at), lines=lines)
    return svg(W, H, label, parts, "sq-svg--chart")


def score_ceilings() -> str:
    """The largest score of a row as training makes q and k g times longer, with no fix and with each fix."""
    gs = [1 + i / 20 for i in range(int(20 * (GROWTH - 1)) + 1)]
    top = 200.0
    ax = _chart.axes(1.0, GROWTH, 0.0, top, **BOX)
    xt = [(float(g), f"{g}×") for g in range(1, int(GROWTH) + 1)]
    yt = [(v, fmt(v)) for v in (0.0, 50.0, 100.0, 150.0, 200.0)]
    parts = _chart.frame(ax, _("The largest score as q and k grow"), xt, yt, _("how many times longer q and k are"))
    for _name, cls, rule in CEILINGS:
        parts.append(_line(ax, gs, [rule(g) for g in gs], cls))
    parts += _legend([(name.shown(), cls) for name, cls, _rule in CEILINGS])
    at = (1, 2, 4, 6, 8)
    lines = clauses(_("{name}: {values}").format(name=name.shown(), values=", ".join(fmt(rule(g), 1) for g in at))
                      for name, _cls, rule in CEILINGS)
    label = _("The largest score of a row that starts at {start}, as training makes q and k 1 to {growth} times "
              "longer, at 1, 2, 4, 6 and 8 times: {lines}").format(start=fmt(START), growth=fmt(GROWTH), lines=lines)
    return svg(W, H, label, parts, "sq-svg--chart")


def picture(chart: str) -> str:
    """A static chart as raw HTML for the page, in the panel style of the training grid's charts."""
    return el("div", {"class": "sq-picture"}, [chart])
