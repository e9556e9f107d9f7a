"""Typeset every formula at build time with KaTeX (from node_modules, run by Node once per page).

Pages then carry finished math as MathML, which the browser lays out itself in the math font
(mathfont.py): nothing to run in the browser, correct with JavaScript off, one element tree per
formula (KaTeX's HTML output would add a second, several times larger), and nothing of KaTeX's to
download. Two marks MathML needs and KaTeX leaves out are added here: a sign's prefix form and the
Unicode letters of \\mathbb and \\mathcal; and a third for the site's search.
"""

from __future__ import annotations

import html
import json
import re
import subprocess

from ..cache import kept_many
from .paths import NODE_MODULES

MATH = re.compile(r'(?P<open><(?P<tag>span|div) class="arithmatex">)(?P<tex>.*?)(?P<close></(?P=tag)>)', re.S)
DELIMITERS = re.compile(r"^\s*(\\\(|\\\[)(?P<body>.*?)(\\\)|\\\])\s*$", re.S)
RENDER = """
const katex = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([tex, display]) =>
    katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "mathml" }));
  process.stdout.write(JSON.stringify(out));
});
"""


SIGN = re.compile(r'(?P<before><mrow>|<mo(?: [^>]*)?>(?P<prev>[^<]*)</mo>)<mo>(?P<sign>[−+±∓])</mo>')
"""A plus or minus sign that opens a row or follows an operator: a sign of what comes after it (-0.5, (-1),
= -x), not an operation between two things."""
CLOSING = frozenset(")]}|‖⟩⌉⌋")


def prefix_signs(mathml: str) -> str:
    """Mark each sign of a negative (or positive) quantity as a prefix operator, as TeX treats it: MathML infers
    an operator's form from its place in a row, so without the mark the minus of b = -0.5 is spaced as a
    subtraction."""
    def mark(m: re.Match) -> str:
        if m.group("prev") is not None and m.group("prev") in CLOSING:
            return m.group(0)
        return f'{m.group("before")}<mo form="prefix">{m.group("sign")}</mo>'
    return SIGN.sub(mark, mathml)


LETTERS = {"double-struck": (0x1D538, {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}),
           "script": (0x1D49C, {"B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ"})}
"""Capital letters of the styles the article uses (\\mathbb, \\mathcal): where each style's A sits in Unicode's
mathematical letters, and the letters Unicode had encoded before that block, which it leaves out of it."""
VARIANT = re.compile(r'<mi mathvariant="(?P<style>[a-z-]+)">(?P<text>[^<]*)</mi>')


def styled_letters(mathml: str) -> str:
    """Write \\mathbb{E} and \\mathcal{N} as the Unicode letters 𝔼 and 𝒩: browsers draw MathML's mathvariant
    only as "normal" (upright), so KaTeX's <mi mathvariant="double-struck">E</mi> would show a plain italic E."""
    def letter(m: re.Match) -> str:
        style, text = m.group("style"), m.group("text")
        if style == "normal":
            return m.group(0)
        if style not in LETTERS or not re.fullmatch("[A-Z]", text):
            raise MathError(f"no MathML letters for mathvariant={style!r} {text!r}: add them to math.LETTERS")
        first, exceptions = LETTERS[style]
        return f"<mi>{exceptions.get(text) or chr(first + ord(text) - ord('A'))}</mi>"
    return VARIANT.sub(letter, mathml)


DRAWN = re.compile(r"<semantics>(?P<drawn>.*)(?P<tex><annotation encoding=\"application/x-tex\">)", re.S)
"""How KaTeX writes a formula: the drawn MathML, then its TeX source in an <annotation>."""
WRAP = "mpadded"
"""The element that keeps the drawn part out of search: Material's parser ends an exclusion at the first closing tag
of the same name, so it must be a tag KaTeX writes nowhere inside (an <mpadded> without attributes is laid out
as a plain row)."""


def searched_as_tex(mathml: str) -> str:
    """Keep a formula's drawn MathML out of the search index, which then holds its TeX once. Material's index takes
    the text of both, so a result read "dkd_k" for d_k, and the drawn part alone loses every radical: its text of
    \\sqrt{64} = 8 is "64=8"."""
    m = DRAWN.search(mathml)
    if m is None or f"<{WRAP}" in m.group("drawn"):
        raise MathError(f"KaTeX's MathML is not a drawn part without <{WRAP}> and then its TeX: {mathml[:80]}")
    return (mathml[:m.start("drawn")] + f"<{WRAP} data-search-exclude>{m.group('drawn')}</{WRAP}>"
            + mathml[m.start("tex"):])


class MathError(RuntimeError):
    """KaTeX could not typeset a formula (the message is KaTeX's own), or its MathML is not what the marks expect."""


def render_all(items: list[tuple[str, bool]]) -> list[str]:
    """KaTeX's MathML for each (TeX, display) pair, from the cache (``.cache/katex-*``) by the formula and KaTeX's
    version: a formula already typeset, on this page, another or in the other language, runs no Node."""
    version = (NODE_MODULES / "katex" / "package.json").read_bytes() + RENDER.encode()
    names = [json.dumps(item) for item in items]
    return kept_many("katex", version, names, lambda missing: run_katex([tuple(json.loads(n)) for n in missing]))


def run_katex(items: list[tuple[str, bool]]) -> list[str]:
    """KaTeX's MathML for each (TeX, display) pair, in one Node process."""
    if not items:
        return []
    katex = NODE_MODULES / "katex"
    result = subprocess.run(["node", "-e", RENDER, str(katex)], input=json.dumps(items), capture_output=True,
                            text=True, encoding="utf-8")
    if result.returncode != 0:
        raise MathError(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "node failed")
    return json.loads(result.stdout)


def typeset(page_html: str) -> str:
    """Replace the TeX source inside every arithmatex span/div with its MathML."""
    matches = list(MATH.finditer(page_html))
    items = []
    for m in matches:
        source = html.unescape(m.group("tex"))
        d = DELIMITERS.match(source)
        if not d:
            raise MathError(f"math without \\( \\) or \\[ \\] delimiters: {source[:60]}")
        items.append((d.group("body").strip(), d.group(1) == "\\["))
    rendered = iter(searched_as_tex(styled_letters(prefix_signs(r))) for r in render_all(items))
    return MATH.sub(lambda m: m.group("open") + next(rendered) + m.group("close"), page_html)
