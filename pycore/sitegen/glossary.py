"""The glossary: every term the article uses, the page that introduces it, and the checks that keep the order.

One data file (``site_src/glossary.yml``) declares each term once. From it come the tooltips
(Material's abbreviations, appended to every page by ``pymdownx.snippets``), the glossary page,
and the strict build's order check: a checked page may use a term only from the page that
introduces it on, in navigation order (and on that page, from the place that introduces it),
except inside a *Going deeper* aside or as the text of a link to the page that introduces it.
An expert term stays in the asides of the main path wherever it is. The main path also keeps to
a word and a number budget.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import yaml

from ..i18n import _, clauses

ASIDE_TITLES = {"en": "Going deeper", "zh": "深入一步"}
"""How a *Going deeper* aside's title starts in each language."""
ASIDE = re.compile(r'<details class="info"[^>]*>\s*<summary>\s*(?:' + "|".join(ASIDE_TITLES.values()) + ")", re.I)
"""The opening of a *Going deeper* aside, as Material renders ``??? info "Going deeper: …"`` (or its Chinese)."""
WORDS_MAX = 450
NUMBERS_MAX = 3
NUMBER = re.compile(r"(?<![\w_^{.,])[−-]?\d+(?:[.,]\d+)*(?:%|\b)")
"""A number a reader sees in a paragraph: not a subscript or exponent (q_1, 10^9 counts once)."""
STEP_REF = re.compile(r"\bSteps?\s+\d+(?:\s*(?:to|and|–|-)\s*\d+)?|第\s*\d+(?:\s*(?:到|至|和|–|-)\s*\d+)?\s*步")


class GlossaryError(ValueError):
    """The glossary file is malformed, or a page breaks the order or the budget; the message says where."""


@dataclass(frozen=True)
class Term:
    """One term: where it is introduced, what it means in a sentence, and how to find it in a page."""

    term: str
    page: str
    """The source path of the page that introduces it, e.g. ``step-4.md``."""
    anchor: str
    """The id on that page where the definition stands."""
    definition: str
    patterns: tuple[re.Pattern[str], ...]
    abbr: tuple[str, ...]
    """The literal words that get a tooltip (Markdown abbreviations match whole words, case and all)."""
    expert: bool = False
    """The main path meets it only inside Going deeper asides, on every page."""
    earlier: tuple[str, ...] = ()
    """Pages before ``page`` that use it, inside Going deeper asides only; the glossary page names them."""


@dataclass(frozen=True)
class Glossary:
    """The terms, and which pages the order check and the budget cover."""

    terms: tuple[Term, ...]
    main_path: tuple[str, ...]
    """Pages written for the beginner: ordered, checked, and held to the word and number budget."""
    also_checked: tuple[str, ...]
    """Later pages held to the order, not to the budget."""

    def checked(self) -> tuple[str, ...]:
        return self.main_path + self.also_checked


def load(path: Path, lang: str = "en") -> Glossary:
    """Read and validate the glossary file, its words in ``lang``: an entry's ``zh`` mapping gives its Chinese
    term, definition, patterns and tooltip words; where it introduces the term is the same in every language."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    terms = []
    for i, shared in enumerate(data.get("terms") or []):
        entry = shared if lang == "en" else {**shared, **(shared.get(lang) or {})}
        missing = [k for k in ("term", "page", "anchor", "definition", "patterns") if not entry.get(k)]
        if lang != "en" and not shared.get(lang):
            missing.append(lang)
        if missing:
            raise GlossaryError(f"{path.name}: entry {i + 1} ({entry.get('term', '?')}) lacks {', '.join(missing)}")
        try:
            patterns = tuple(re.compile(p, re.I if entry.get("case", "any") == "any" else 0)
                             for p in entry["patterns"])
        except re.error as err:
            raise GlossaryError(f"{path.name}: '{entry['term']}' has a bad pattern: {err}") from None
        terms.append(Term(entry["term"], entry["page"], entry["anchor"], " ".join(entry["definition"].split()),
                          patterns, tuple(entry.get("abbr", ())), bool(entry.get("expert", False)),
                          tuple(entry.get("earlier", ()))))
    names = [t.term for t in terms]
    if len(set(names)) != len(names):
        raise GlossaryError(f"{path.name}: a term is listed twice: {sorted({n for n in names if names.count(n) > 1})}")
    return Glossary(tuple(terms), tuple(data.get("main_path", ())), tuple(data.get("also_checked", ())))


def abbreviations(glossary: Glossary) -> str:
    """Markdown abbreviation lines (``*[word]: definition``) for every word that gets a tooltip."""
    lines = []
    for t in glossary.terms:
        for word in t.abbr:
            lines.append(f"*[{word}]: {t.definition}")
    return "\n".join(lines) + "\n"


def page_of(href: str, page_src: str) -> str | None:
    """The source path a link in ``page_src``'s built HTML points to, or None for another site or a file."""
    if re.match(r"^[a-z]+:", href) or href.startswith("//"):
        return None
    target = href.split("#")[0]
    if not target:
        return page_src
    here = "" if page_src == "index.md" else page_src[:-3] + "/"
    path = posixpath.normpath(posixpath.join(here, target)).strip("/")
    if path in (".", ""):
        return "index.md"
    return path + ".md" if not path.endswith((".md", ".html", ".tsv", ".ipynb", ".json")) else path


def without_asides(html: str) -> str:
    """The page's HTML with every *Going deeper* aside (and anything nested in it) cut out."""
    out, pos = [], 0
    while match := ASIDE.search(html, pos):
        out.append(html[pos:match.start()])
        depth, i = 0, match.start()
        for tag in re.finditer(r"<(/?)details\b", html[match.start():]):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                i = match.start() + tag.end()
                break
        else:
            raise GlossaryError("a Going deeper aside is not closed")
        pos = html.index(">", i) + 1
    out.append(html[pos:])
    return "".join(out)


class _Text(HTMLParser):
    """A page's visible text (math as its TeX source) with the spans that sit inside each link."""

    SKIP = {"script", "style", "template"}

    def __init__(self, page_src: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_src = page_src
        self.parts: list[str] = []
        self.length = 0
        self.links: list[tuple[int, int, str | None]] = []
        self.ids: dict[str, int] = {}
        self.titles: list[tuple[int, int]] = []
        """Where the page's h1 title stands: it names the topic its page introduces."""
        self._open: list[tuple[int, str | None]] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if ident := dict(attrs).get("id"):
            self.ids.setdefault(ident, self.length)
        if tag in self.SKIP:
            self._skip += 1
        elif tag == "h1":
            self.titles.append((self.length, -1))
        elif tag == "a":
            self._open.append((self.length, page_of(dict(attrs).get("href") or "", self.page_src)))
        elif tag in ("p", "li", "div", "br", "td", "th", "dt", "dd", "figcaption", "text", "tspan", "summary",
                     "h1", "h2", "h3", "h4", "label", "legend", "button", "output", "title"):
            self._add(" ")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "h1" and self.titles:
            self.titles[-1] = (self.titles[-1][0], self.length)
        elif tag == "a" and self._open:
            start, target = self._open.pop()
            self.links.append((start, self.length, target))

    def handle_data(self, data):
        if not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def text(self) -> str:
        return "".join(self.parts)


def uses(html: str, page_src: str, glossary: Glossary, order: list[str]) -> list[str]:
    """Every use on ``page_src`` of a term before the place that introduces it, as a readable line; [] when in order.

    ``order`` is the navigation order of source paths. Outside the asides, a term may appear on
    the pages after the one that introduces it, and on that page after its anchor; an expert term
    never appears outside the asides of the main path. A use inside a link to the introducing page
    is a forward reference, and allowed.
    """
    if page_src not in glossary.checked():
        return []
    if page_src not in order:
        raise GlossaryError(f"{page_src} is checked by the glossary but is not in the navigation")
    here = order.index(page_src)
    parser = _Text(page_src)
    parser.feed(without_asides(html))
    text = parser.text()
    problems = []
    for term in glossary.terms:
        if term.page not in order:
            raise GlossaryError(f"'{term.term}' is introduced on {term.page}, which is not in the navigation")
        if term.expert and page_src in glossary.main_path:
            start, where = len(text) + 1, "only in Going deeper asides on the main path"
        elif order.index(term.page) < here:
            continue
        elif term.page == page_src:
            start, where = parser.ids.get(term.anchor, len(text) + 1), f"at #{term.anchor}"
        else:
            start, where = len(text) + 1, f"on {term.page}"
        for m in (m for pattern in term.patterns for m in pattern.finditer(text)):
            if m.start() >= start or any(a <= m.start() and m.end() <= b and target == term.page
                                         for a, b, target in parser.links):
                continue
            if term.page == page_src and not term.expert and any(a <= m.start() < b for a, b in parser.titles):
                continue
            context = " ".join(text[max(0, m.start() - 40):m.end() + 40].split())
            problems.append(f"'{term.term}' (introduced {where}) is used before it: …{context}…")
            break
    return problems


def early_uses(html: str, page_src: str, glossary: Glossary, order: list[str]) -> list[str]:
    """Terms this page uses anywhere, asides included, before the page the glossary points to, when the entry does
    not list this page as an earlier use: the pointer must be the first use, or say where the term came before."""
    if page_src not in glossary.checked():
        return []
    parser = _Text(page_src)
    parser.feed(html)
    text = parser.text()
    problems = []
    for term in glossary.terms:
        if order.index(term.page) <= order.index(page_src) or page_src in term.earlier:
            continue
        for m in (m for pattern in term.patterns for m in pattern.finditer(text)):
            if not any(a <= m.start() and m.end() <= b and target == term.page for a, b, target in parser.links):
                context = " ".join(text[max(0, m.start() - 40):m.end() + 40].split())
                problems.append(f"'{term.term}' is introduced on {term.page}, but {page_src} uses it first, and its "
                                f"glossary entry does not list {page_src} under earlier: …{context}…")
                break
    return problems


def missing_anchors(html: str, page_src: str, glossary: Glossary) -> list[str]:
    """Terms this page should introduce whose anchor id is not on it."""
    return [f"'{t.term}' should be introduced at #{t.anchor}, which {page_src} does not have"
            for t in glossary.terms if t.page == page_src and f'id="{t.anchor}"' not in html]


def main_prose(html: str) -> list[str]:
    """The main path's own paragraphs and list items: asides, figures, cards and generated parts cut out."""
    body = without_asides(html)
    body = re.sub(r'<figure class="sq-figure".*?</figure>', " ", body, flags=re.S)
    body = re.sub(r'<details class="question sq-card".*?</details>', " ", body, flags=re.S)
    body = re.sub(r'<div class="sq-review".*?</div>', " ", body, flags=re.S)
    body = re.sub(r'<nav class="sq-steps".*?</nav>', " ", body, flags=re.S)
    body = re.sub(r"<(div|section)[^>]*data-predict[^>]*>.*?</\1>", " ", body, flags=re.S)
    blocks = re.findall(r"<(p|li|h[1-6])\b[^>]*>(.*?)</\1>", body, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", inner).split()) for _, inner in blocks]


def budget(html: str) -> list[str]:
    """How a main-path page overruns the word budget or crowds a paragraph with numbers; [] when it keeps to both."""
    blocks = main_prose(html)
    problems = []
    words = sum(len(re.findall(r"[^\s]+", b)) for b in blocks)
    if words > WORDS_MAX:
        problems.append(f"{words} words of main-path prose, more than {WORDS_MAX}")
    for block in blocks:
        numbers = NUMBER.findall(STEP_REF.sub(" ", block))
        if len(numbers) > NUMBERS_MAX:
            problems.append(f"a paragraph with {len(numbers)} numbers ({', '.join(numbers)}), "
                            f"more than {NUMBERS_MAX}: {block[:80]}…")
    return problems


def page_markdown(glossary: Glossary, titles: dict[str, str]) -> str:
    """The glossary page: every term, its definition, and a link to where it is introduced, as a definition
    list (HTML's element for a glossary). A table would be taken out of the page and put back in a scrolling
    wrapper by Material as the page starts, restyling every cell: the longest task of the page's start in
    Lighthouse's trace (README, Benchmark)."""
    rows = sorted(glossary.terms, key=lambda t: t.term.lower())
    return '<div class="sq-glossary" markdown>\n\n' + "".join(
        f"{t.term}\n:   {t.definition} {introduced(t, titles)}\n\n" for t in rows) + "</div>\n"


def introduced(term: Term, titles: dict[str, str]) -> str:
    """The glossary page's sentence on where a term is introduced, and which asides used it before that."""
    page = f"[{titles.get(term.page, term.page)}]({term.page}#{term.anchor})"
    if not term.earlier:
        return _("Introduced in {page}.").format(page=page)
    # i18n: {earlier} is one or more of "used before that in a Going deeper aside of …", joined as clauses.
    return _("Introduced in {page}; {earlier}.").format(page=page, earlier=clauses(
        _("used before that in a Going deeper aside of {page}").format(page=f"[{titles.get(e, e)}]({e})")
        for e in term.earlier))
