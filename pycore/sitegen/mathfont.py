"""The math font the pages draw their formulas with: Noto Sans Math (the pinned npm package
``@fontsource/noto-sans-math``), cut at build time to the characters formulas use.

Browsers lay MathML out with an OpenType math font (its MATH table places sub- and superscripts,
fractions and roots, and holds the larger variants of roots and brackets). The whole font is 270 kB;
the cut keeps the ranges below, with their MATH data and variants, in about 75 kB, so that it arrives
early enough to draw the first screen's math in it. Cached in ``.cache/`` by the hash of its inputs.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from ..cache import CACHE, write_whole
from .paths import NODE_MODULES

SOURCE = NODE_MODULES / "@fontsource" / "noto-sans-math" / "files" / "noto-sans-math-latin-400-normal.woff2"
NAME = "noto-sans-math.woff2"
"""The cut font's file name, beside figures.css (assets/sqrt-dk/), which names it in its @font-face."""
RANGES = (
    (0x0020, 0x007E),  # ASCII: digits, Latin letters, brackets, + = / .
    (0x00A0, 0x00FF),  # Latin-1: ± × ÷ and the no-break space
    (0x02C6, 0x02DC),  # accents: ˆ ˇ ˉ (a bar over a letter) ˘ ˙ ˜
    (0x0391, 0x03C9), (0x03D1, 0x03D1), (0x03D5, 0x03D5), (0x03F5, 0x03F5),  # Greek, with the variant letters
    (0x2000, 0x206F),  # spaces, primes, ellipsis, and the invisible function application and separator
    (0x2100, 0x214F),  # letterlike symbols: ℝ, ℕ, ℓ ...
    (0x2190, 0x21FF),  # arrows, ↦
    (0x2200, 0x22FF),  # mathematical operators: ∑ − ∞ ≈ ⋅ ...
    (0x2308, 0x230B),  # ceilings and floors
    (0x23B4, 0x23B7), (0x23DC, 0x23E1),  # the radical's bottom, over- and under-braces
    (0x27E8, 0x27E9),  # angle brackets
    (0x1D434, 0x1D467),  # italic Latin: MathML draws a one-letter identifier in it
    (0x1D49C, 0x1D4B5),  # script capitals (\mathcal)
    (0x1D538, 0x1D551),  # double-struck capitals (\mathbb)
    (0x1D6E2, 0x1D71B),  # italic Greek
)
"""The characters kept, as inclusive ranges of code points: what the article's formulas can use."""


def cut(font: bytes) -> bytes:
    """The font reduced to RANGES, with every layout feature and the MATH table, as woff2."""
    from fontTools import subset  # a build dependency only

    options = subset.Options()
    options.layout_features = ["*"]
    options.flavor = "woff2"
    loaded = subset.load_font(io.BytesIO(font), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for low, high in RANGES for c in range(low, high + 1)])
    subsetter.subset(loaded)
    out = io.BytesIO()
    subset.save_font(loaded, out, options)
    return out.getvalue()


def write(assets: Path) -> None:
    """Write the cut font into ``assets`` (the site's assets/sqrt-dk/), from the cache when it has it."""
    if not SOURCE.is_file():
        raise RuntimeError(f"{SOURCE} is missing: run 'npm ci' (make does it for you)")
    font = SOURCE.read_bytes()
    key = hashlib.sha256(font + repr(RANGES).encode()).hexdigest()[:12]
    cached = CACHE / f"math-font-{key}.woff2"
    if not cached.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        write_whole(cached, cut(font))
    (assets / NAME).write_bytes(cached.read_bytes())
