"""A tiny SVG builder: one number formatter and escaping of everything written.

Every figure draws through these helpers, so CPython and Pyodide produce byte-identical
markup, and the markup survives an HTML parser round trip (explicit end tags, double quotes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Attr = str | int | float | None


def fmt(x: float, digits: int = 2) -> str:
    """Format a number with at most ``digits`` decimals, no trailing zeros and no "-0".

    Python's own float formatting is used (not the C library's), so it agrees everywhere.
    """
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    text = f"{x:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def escape(text: str) -> str:
    """Escape text for an SVG/HTML attribute value or text node."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\u00a0", "&nbsp;")
    )


def _value(v: str | int | float) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return fmt(v)
    return str(v)


def attrs(values: Mapping[str, Attr]) -> str:
    """Render attributes in the given order; ``None`` values are left out."""
    return "".join(
        f' {name}="{escape(_value(v))}"' for name, v in values.items() if v is not None
    )


def el(tag: str, attributes: Mapping[str, Attr] | None = None, children: Iterable[str] | str = ()) -> str:
    """One element with an explicit end tag; string children are already markup."""
    inner = children if isinstance(children, str) else "".join(children)
    return f"<{tag}{attrs(attributes or {})}>{inner}</{tag}>"


def text(x: float, y: float, content: str, cls: str | None = None, anchor: str | None = None,
         **extra: Attr) -> str:
    """A text element at (x, y); ``content`` is plain text and gets escaped."""
    return el("text", {"x": x, "y": y, "class": cls, "text-anchor": anchor, **_dashed(extra)},
              escape(content))


def _dashed(extra: Mapping[str, Attr]) -> dict[str, Attr]:
    return {k.replace("_", "-"): v for k, v in extra.items()}


def svg(width: float, height: float, label: str, children: Iterable[str], cls: str = "",
        interactive: bool = False) -> str:
    """The root element: scalable viewBox, an accessible name and a <title>.

    A figure with focusable handles is a ``group``; ``img`` would hide its handles from
    screen readers.
    """
    return el(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {fmt(width)} {fmt(height)}",
            "class": f"sq-svg {cls}".strip(),
            "role": "group" if interactive else "img",
            "aria-label": label,
        },
        [el("title", {}, escape(label)), *children],
    )


SMALL = 1e-4
"""Below this, a readout keeps two significant digits: 0.000071."""
TINY = 1e-6
"""Below this, a readout says only that it is below: "< 0.000001"."""


def sig(x: float, digits: int = 4) -> str:
    """A readout with ``digits`` significant digits, always a plain decimal a beginner can read (no e-notation):
    two significant digits below SMALL, "< 0.000001" below TINY, and thousands grouped from 1,000,000."""
    if x == 0 or x != x or x in (float("inf"), float("-inf")):
        return fmt(x)
    size = abs(x)
    if size < TINY:
        return f"< {fmt(TINY, 6)}" if x > 0 else f"> -{fmt(TINY, 6)}"
    if size < SMALL:
        digits = min(digits, 2)
    if size >= 1e6:
        return _grouped(x, digits)
    if size < 1:
        lead = 0
        while size < 0.1:
            size *= 10
            lead += 1
        return fmt(x, digits + lead)
    return fmt(x, max(0, digits - len(str(int(size)))))


def _grouped(x: float, digits: int) -> str:
    """A large number rounded to ``digits`` significant digits, written out in full with its thousands grouped:
    the digits come from Python's own exponent formatting, so no binary rounding error shows in the zeros."""
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    zeros = int(exponent) + 1 - digits
    if zeros < 0:
        return f"{x:,.0f}"
    return ("-" if x < 0 else "") + f"{int(mantissa.replace('.', '').lstrip('-') + '0' * zeros):,}"
