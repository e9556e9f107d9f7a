"""``make bench``'s Lighthouse part: each page with figures against its twin, and the embed pages.

Lighthouse 12.2.3 (tests/lighthouse.mjs, the pinned npm package) runs each address in a fresh Chromium with its
default mobile settings under devtools throttling. A page's absolute score on a shared host says more about the
host and the theme than about the figures, so each page with figures is scored beside its twin: the same page
with every figure taken out (``/step-5/without-figures/``), served by the same host in the same run, each pair
run back to back, twice over in alternating order, the best of each kept measure by measure. Its targets: TBT at
most 1.15x the twin's, performance at most 3 points below it, CLS at most 0.05 (and accessibility, best practices
and SEO 100). The three embed pages, and any page named that has no figure, run once each against absolute
targets. Nothing is asserted; the tables go into notes and the README.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from pycore.sitegen import pack
from tests.bench_server import Host
from tests.conftest import ROOT, article_pages

SITE = ROOT / "site"
EMBEDS = ("/embed/dot-product/", "/embed/score-histogram/?dk=64&divisor=none", "/embed/summary-pipeline/")
"""Three embed pages: a small figure, one whose address asks for a state, and the largest drawing."""
LANGUAGES = ("", "/zh")
"""Where each language's pages live: English at the root, Chinese under /zh/."""
LIGHTHOUSE_TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100,
                      "lcp": 2500, "tbt": 200, "cls": 0.05}
"""The issue's targets for an embed page: scores at least these, LCP and TBT (ms) and CLS at most these."""
TWIN = "without-figures/"
"""The address of a page's twin without figures, under the page's own."""
ROUNDS = 2
"""Each page and its twin are scored this many times and the best of each kept: Lighthouse's numbers vary."""
TWIN_TARGETS = {"tbt": 1.15, "performance": 3, "cls": 0.05, "accessibility": 100, "best-practices": 100, "seo": 100}
"""The issue's targets against the twin: TBT at most 1.15x the twin's and performance at most 3 points below it,
in the same run; CLS at most this, the other scores at least these."""
BEST = {"performance": max, "accessibility": max, "best-practices": max, "seo": max, "fcp": min, "lcp": min,
        "tbt": min, "cls": min, "mainThread": min, "elements": min}
FIGURE = re.compile(r"<figure\b[^>]*\bdata-figure=")
FIGURE_TAG = re.compile(r"<figure\b[^>]*>|</figure>")
CONFIG_BASE = re.compile(r'<script id="__config"[^>]*>[^<]*?"base": "')
STARTS_PYTHON = re.compile(r'<script src="([^"]*)' + re.escape(pack.ASSETS + pack.HEAD) + '" data-python></script>')


def page_html(page: str, site: Path = SITE) -> str:
    return (site / page.split("?")[0].strip("/") / "index.html").read_text(encoding="utf-8")


def figure_pages(site: Path = SITE) -> list[str]:
    """Every nav page with a ``<figure data-figure>``, in nav order, in each language built."""
    pages = [lang + p for lang in LANGUAGES for p in article_pages() if (site / lang.strip("/")).is_dir()]
    return [p for p in pages if FIGURE.search(page_html(p, site))]


def without_figures(html: str, page: str) -> str:
    """The page's HTML without its figures (each ``<figure data-figure>`` element, whatever it holds), to be
    served from ``page + TWIN``: a ``<base>`` resolves its relative addresses as the page's own, and Material's
    configured site root, which it resolves against the address itself, goes one level further up. Without
    recall cards either, its head's script no longer starts Python and the wasm is not prefetched (``pack.start_links``),
    as the build's would not; the script keeps its place, so the head asks for the same files in the same order."""
    out, start, depth, cut = [], 0, 0, False
    for tag in FIGURE_TAG.finditer(html):
        if tag.group().startswith("</"):
            depth -= 1
            if cut and depth == 0:
                start, cut = tag.end(), False
        else:
            if depth == 0 and "data-figure=" in tag.group():
                out.append(html[start:tag.start()])
                cut = True
            depth += 1
    out.append(html[start:])
    twin = CONFIG_BASE.sub(r"\g<0>../", "".join(out), count=1)
    if "data-card=" not in twin and (head := STARTS_PYTHON.search(twin)):
        twin = twin.replace(pack.start_links(head.group(1)), pack.head_script(head.group(1)), 1)
    return twin.replace("<head>", f'<head><base href="{page}">', 1)


def serve_twins(host: Host, pages: list[str], site: Path = SITE) -> None:
    """Have the host serve each page's twin, English or Chinese, at ``page + TWIN``."""
    for page in pages:
        host.extra[page + TWIN] = without_figures(page_html(page, site), page).encode()


def interleaved(pages: list[str], rounds: int = ROUNDS) -> list[str]:
    """The order of the Lighthouse runs: each page beside its twin, the page first in odd rounds and the twin
    first in even ones, so whatever else the machine does meanwhile falls on both alike."""
    order: list[str] = []
    for r in range(rounds):
        for page in pages:
            pair = [page, page + TWIN]
            order += pair if r % 2 == 0 else pair[::-1]
    return order


def best(runs: list[dict]) -> dict:
    """The best of a page's runs, measure by measure, the range of the host's CPU index over them, and the
    audits that failed in every run; an error if no run gave numbers. A run that stopped with an error keeps
    no measure, even where Lighthouse still reported some scores."""
    good = [r for r in runs if not r.get("error") and all(k in r for k in BEST)]
    if not good:
        return {"page": runs[0]["page"], "error": next((r["error"] for r in runs if r.get("error")), "no result")}
    indexes = [r["benchmarkIndex"] for r in good]
    return {"page": good[0]["page"], **{k: pick(r[k] for r in good) for k, pick in BEST.items()},
            "cpu": (min(indexes), max(indexes)), "runs": len(good),
            "failed": sorted(set.intersection(*(set(r["failed"]) for r in good)))}


def against_twin(order: list[str], results: list[dict]) -> list[tuple[dict, dict]]:
    """Each page's best run beside its twin's best, in the order the pages first ran."""
    runs: dict[str, tuple[list[dict], list[dict]]] = {}
    for page, result in zip(order, results):
        twin = page.endswith(TWIN)
        runs.setdefault(page.removesuffix(TWIN) if twin else page, ([], []))[twin].append(result)
    return [(best(mine), best(twins)) for mine, twins in runs.values() if mine and twins]


def mark(text: str, ok: bool) -> str:
    return text if ok else f"{text} *"


def _lay_out(rows: list[tuple[str, ...]], note: str) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows) + note


def twin_table(pairs: list[tuple[dict, dict]]) -> str:
    """Each page against its twin as one text table: performance, TBT and main-thread work beside the twin's
    (a difference, and ratios), LCP, CLS, the other scores, both element counts, the CPU index; a mark on each
    miss."""
    t = TWIN_TARGETS
    head = ("page", "perf", "twin", "diff", "TBT", "twin", "x", "main thread", "twin", "x", "LCP", "CLS",
            "a11y", "b-p", "SEO", "elements", "CPU", "failed audits")
    goal = ("target", "", "", f">=-{t['performance']}", "", "", f"<={t['tbt']}", "", "", "", "", f"<={t['cls']}",
            f"{t['accessibility']}", f"{t['best-practices']}", f"{t['seo']}", "", "", "")
    rows = [head, goal]
    for page, twin in pairs:
        if "error" in page or "error" in twin:
            rows.append((page["page"], "error", *[""] * 15, (page.get("error") or twin.get("error"))[:80]))
            continue
        diff = page["performance"] - twin["performance"]
        tbt = page["tbt"] / twin["tbt"] if twin["tbt"] else float("inf") if page["tbt"] else 1.0
        cpus = sorted({*page["cpu"], *twin["cpu"]})
        rows.append((page["page"], f"{page['performance']}", f"{twin['performance']}",
                     mark(f"{diff:+d}", diff >= -t["performance"]), f"{page['tbt']:.0f} ms", f"{twin['tbt']:.0f} ms",
                     mark(f"{tbt:.2f}", tbt <= t["tbt"]), f"{page['mainThread'] / 1000:.1f} s",
                     f"{twin['mainThread'] / 1000:.1f} s", f"{page['mainThread'] / twin['mainThread']:.2f}",
                     f"{page['lcp'] / 1000:.1f} s", mark(f"{page['cls']:.3f}", page["cls"] <= t["cls"]),
                     *(mark(f"{page[c]}", page[c] >= t[c]) for c in ("accessibility", "best-practices", "seo")),
                     f"{page['elements']:.0f}/{twin['elements']:.0f}", f"{cpus[0]}-{cpus[-1]}", ", ".join(page["failed"])))
    return _lay_out(rows, "\n(best of each page's runs beside the best of its twin's, the same page without its figures "
                          "run next to it; diff: performance points against the twin's; x: ratio to the twin's; "
                          "* misses its target; elements: the page's / the twin's; CPU: the range of Lighthouse's "
                          "benchmarkIndex over those runs; failed audits: those with weight below 0.9 in every run)")


def lighthouse_table(results: list[dict]) -> str:
    """The Lighthouse results as one text table, the absolute targets on top and a mark on each number that misses."""
    t = LIGHTHOUSE_TARGETS
    head = ("page", "perf", "FCP", "LCP", "TBT", "CLS", "a11y", "b-p", "SEO", "CPU", "failed audits")
    goal = ("target", f">={t['performance']}", "", f"<={t['lcp'] / 1000:.1f} s", f"<={t['tbt']} ms",
            f"<={t['cls']}", f"{t['accessibility']}", f"{t['best-practices']}", f"{t['seo']}", "", "")
    rows = [head, goal]
    for r in results:
        if r.get("error") and "performance" not in r:
            rows.append((r["page"], "error", "", "", "", "", "", "", "", "", r["error"][:80]))
            continue
        rows.append((r["page"], mark(f"{r['performance']}", r["performance"] >= t["performance"]),
                     f"{r['fcp'] / 1000:.1f} s", mark(f"{r['lcp'] / 1000:.1f} s", r["lcp"] <= t["lcp"]),
                     mark(f"{r['tbt']:.0f} ms", r["tbt"] <= t["tbt"]), mark(f"{r['cls']:.3f}", r["cls"] <= t["cls"]),
                     *(mark(f"{r[c]}", r[c] >= t[c]) for c in ("accessibility", "best-practices", "seo")),
                     f"{r['benchmarkIndex']}", ", ".join(r["failed"])))
    return _lay_out(rows, "\n(* misses its target; CPU: Lighthouse's benchmarkIndex of this machine during the run, "
                          "which its 4x slowdown divides; failed audits: those with weight that score below 0.9)")


def lighthouse(host: Host, pages: list[str], chromium: str) -> list[dict]:
    """One Lighthouse run per address, in order (tests/lighthouse.mjs), each in a fresh Chromium: its JSON result."""
    node = subprocess.run(["node", str(ROOT / "tests" / "lighthouse.mjs"), *(host.url + p for p in pages)],
                          cwd=ROOT, capture_output=True, text=True, env={**os.environ, "CHROME_PATH": chromium})
    results = [json.loads(line) for line in node.stdout.splitlines() if line.startswith("{")]
    if node.returncode or len(results) != len(pages):
        print(node.stderr, file=sys.stderr)
    for result in results:
        result["page"] = result["url"].removeprefix(host.url)
    return results


def scored(host: Host, pages: list[str], chromium: str, rounds: int = ROUNDS) -> str:
    """Lighthouse on the pages: those with figures each beside its twin, interleaved, best of ``rounds``, as one
    table against the twins; the others (embed pages, pages without figures) once each, against absolute targets."""
    paired = [p for p in pages if not p.startswith("/embed/") and FIGURE.search(page_html(p))]
    out = []
    if paired:
        serve_twins(host, paired)
        order = interleaved(paired, rounds)
        out.append(twin_table(against_twin(order, lighthouse(host, order, chromium))))
    if alone := [p for p in pages if p not in paired]:
        out.append(lighthouse_table(lighthouse(host, alone, chromium)))
    return "\n\n".join(out)


def all_pages() -> list[str]:
    """What ``make bench`` scores: every page with figures in both languages, then the embed pages."""
    return [*figure_pages(), *EMBEDS]
