"""A page's HTML after Markdown conversion: its pre-rendered figures put back, the glossary's rules and the
main path's budget checked on what the reader will see, tooltips once a section, code blocks focusable,
math typeset; and, once Material has written the page, the download hints in its head."""

from __future__ import annotations

import re
from html import escape

from . import glossary, math, pack
from .page_markdown import placeholder
from .state import Build


class PageError(ValueError):
    """A page whose HTML lost a figure or breaks a rule of the glossary, or whose math cannot be typeset."""


def finish(html: str, src: str, figures: list[str], build: Build) -> str:
    """The page's HTML with each placeholder replaced by its figure, checked, its tooltips thinned and its
    math typeset; a PageError says what is wrong."""
    if build.lang not in SPACED:
        html = abbreviate(html, {word: t for t in build.terms.terms for word in t.abbr})
    for i, figure in enumerate(figures):
        token = placeholder(i)
        if token not in html:
            raise PageError(f"figure {i + 1} was lost in Markdown conversion")
        html = html.replace(token, figure)
    terms = build.terms
    try:
        order = list(build.titles)
        problems = (glossary.uses(html, src, terms, order) + glossary.early_uses(html, src, terms, order)
                    + glossary.missing_anchors(html, src, terms))
    except glossary.GlossaryError as err:
        raise PageError(str(err)) from None
    if src in terms.main_path:
        problems += glossary.budget(html)
    if problems:
        raise PageError("\n  ".join(problems))
    html = focusable_code(tooltips_once(html))
    try:
        return math.typeset(html)
    except math.MathError as err:
        raise PageError(str(err)) from None


SPACED = ("en",)
"""Languages that put spaces between words: there Markdown's abbreviations find the glossary's words."""
PROTECTED = ("code", "pre", "a", "abbr", "script", "style", "svg", "math", "button", "label", "summary")
"""Elements whose text gets no tooltip: code and links as in Markdown's abbreviations, and controls."""
TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*?(/?)>|<!--.*?-->", re.S)


def abbreviate(html: str, words: dict[str, glossary.Term]) -> str:
    """Each glossary word in the page's text wrapped in ``<abbr title="definition">``, as Markdown's abbreviations
    do on English pages: they match whole words only, and Chinese has no spaces between words, so a Chinese page
    gets its tooltips here (``tooltips_once`` then keeps one a section), where one of the term's own patterns
    matches too (行 in 一行, not in 运行). Math and code are left alone."""
    if not words:
        return html
    found = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))
    out, pos, inside = [], 0, 0

    def wrap(m: re.Match[str]) -> str:
        term = words[m.group(0)]
        if not any((hit := p.search(m.string, m.start())) and hit.start() < m.end() for p in term.patterns):
            return m.group(0)
        return f'<abbr title="{escape(term.definition, quote=True)}">{m.group(0)}</abbr>'

    def text(chunk: str) -> str:
        if inside or "\\(" in chunk or "\\[" in chunk:
            return chunk
        return found.sub(wrap, chunk)

    for tag in TAG.finditer(html):
        out.append(text(html[pos:tag.start()]))
        out.append(tag.group(0))
        pos = tag.end()
        name = (tag.group(2) or "").lower()
        if name in PROTECTED and not tag.group(3):
            inside += -1 if tag.group(1) else 1
    out.append(text(html[pos:]))
    return "".join(out)


def focusable_code(html: str) -> str:
    """Every code block can take keyboard focus, so a reader can scroll a wide one by keyboard before
    Material has set it up (with content.lazy it does so only when the block comes into view, and then
    keeps the focus stop only where the block scrolls)."""
    def focusable(match: re.Match[str]) -> str:
        opening, attributes = match.groups()
        return match.group(0) if "tabindex=" in attributes else f'{opening}{attributes} tabindex="0">'

    return re.sub(r"(<pre>(?:<span></span>)?<code)((?:\s[^>]*)?)>", focusable, html)


TOOLTIP_PARTS = re.compile(r'<h2\b|<details\b|</details>|<div\b[^>]*\bdata-card="|<div\b|</div>'
                           r'|<abbr( title="[^"]*")>([^<]*)</abbr>')
"""What tooltips_once reads: section headings, asides, recall cards (and the divs that close them), and the
glossary's abbreviations."""


def tooltips_once(html: str) -> str:
    """A glossary term keeps its tooltip at its first use in each section, aside and recall card, and reads as
    plain text after that (as an encyclopedia links a term once a section); its first use on the page can
    take keyboard focus, so its definition shows on focus too. Material sets up every tooltip as the page
    starts, and on Train it yourself, with 299 of them, that was most of its longest task (README, Benchmark)."""
    scopes: list[set[str]] = [set()]
    cards: list[int] = []  # the div depth of each recall card we are in
    on_page: set[str] = set()
    depth = 0

    def part(match: re.Match[str]) -> str:
        nonlocal depth
        tag = match.group(0)
        if match.group(2) is not None:
            word = match.group(2)
            if word in scopes[-1]:
                return word
            scopes[-1].add(word)
            if word in on_page:
                return tag
            on_page.add(word)
            return f'<abbr tabindex="0"{match.group(1)}>{word}</abbr>'
        if tag == "<h2" and len(scopes) == 1:
            scopes[0] = set()
        elif tag == "<details":
            scopes.append(set())
        elif tag == "</details>" and len(scopes) > 1:
            scopes.pop()
        elif tag.startswith("<div"):
            depth += 1
            if "data-card=" in tag:
                cards.append(depth)
                scopes.append(set())
        elif tag == "</div>":
            if cards and cards[-1] == depth:
                cards.pop()
                scopes.pop()
            depth -= 1
        return tag

    return TOOLTIP_PARTS.sub(part, html)


def download_hints(output: str, root: str) -> str:
    """A page with math asks for the math font before its stylesheets, so that the first layout of its formulas
    is already in it (drawn first in a fallback font and then again, a formula changes width and the lines
    below it move); a page with a figure or a recall card starts Python's worker while it is still parsing, and
    prefetches Pyodide's wasm (``pack.start_links``), ahead of the stylesheets, for which a script in the head
    would otherwise wait: its head's script moves there, marked to start the worker, so the head asks for no
    more files than another page's. ``root`` is the path up to the site root."""
    if 'class="arithmatex"' in output:
        output = output.replace('<link rel="stylesheet"', pack.font_preload(root) + '<link rel="stylesheet"', 1)
    if "data-figure=" not in output and "data-card=" not in output:
        return output
    output = output.replace(pack.head_script(root), "", 1)
    return output.replace('<link rel="stylesheet"', pack.start_links(root) + '<link rel="stylesheet"', 1)
