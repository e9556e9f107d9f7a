"""Failure modes and progressive loading, each in a fresh browser context."""

from __future__ import annotations

import io
import json
import zipfile

from pycore import figures
from pycore.sitegen.pack import core_archive
from tests.browser.conftest import READY_MS, drawn_as_cpython, expected
from tests.conftest import article_pages, shipped_archives

CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'"


def statuses(page):
    return page.evaluate("() => [...document.querySelectorAll('[data-figure] [data-status]')].map(s => s.textContent)")


def test_pyodide_files_missing_keeps_every_figure_with_a_message(fresh, server):
    server.settings["missing"] = ("/assets/vendor/pyodide/",)
    page = fresh()
    page.goto(server.url + "/step-3/")
    page.wait_for_function("() => [...document.querySelectorAll('[data-figure] [data-status]')]"
                           ".every(s => s.textContent.startsWith('Interactivity is unavailable'))", timeout=30_000)
    figures_on_page = page.locator("[data-figure]").count()
    assert figures_on_page >= 4 and len(statuses(page)) == figures_on_page
    assert page.locator("[data-figure] .sq-figure__stage svg").count() == figures_on_page
    assert page.locator("[data-figure][data-ready]").count() == 0
    assert page.uncaught == []
    assert all("404" in e or "Failed to load" in e for e in page.console_errors), page.console_errors


def test_an_exception_in_one_figure_leaves_the_others_working(fresh, server, site_dir):
    # The site ships the core compiled; a core of sources under the same name imports just as well.
    name = shipped_archives(site_dir)["CORE"]
    source = zipfile.ZipFile(io.BytesIO(core_archive()[1]))
    patched = io.BytesIO()
    with zipfile.ZipFile(patched, "w") as out:
        for item in source.infolist():
            body = source.read(item)
            if item.filename == "pycore/figures/corner_ties.py":
                body = body.replace(b'    p = weights(state)\n    parts = bar_panel(',
                                    b'    if state.n == 9:\n        raise RuntimeError("injected failure")\n'
                                    b'    p = weights(state)\n    parts = bar_panel(')
                assert b"injected failure" in body
            out.writestr(item, body)
    server.settings["replace"] = {f"/assets/sqrt-dk/{name}": patched.getvalue()}
    page = fresh()
    page.goto(server.url + "/step-7/")
    page.wait_for_selector("[data-figure='corner-ties'][data-ready='true']", timeout=READY_MS)
    ties = page.locator("[data-figure='corner-ties']")
    before = ties.get_attribute("data-state")
    ties.locator("input[data-field='n']").fill("9")
    ties.locator("[data-status]").filter(has_text="injected failure").wait_for(timeout=10_000)
    assert "This figure hit a problem: internal error: RuntimeError: injected failure" in ties.locator("[data-status]").text_content()
    assert ties.get_attribute("data-state") == before, "the failed figure keeps its last good state"
    cv = page.locator("[data-figure='corner-constant-v']")
    cv.locator("input[data-field='v']").fill("-2.5")
    cv.locator("[data-readout='output']").filter(has_text="-2.5").wait_for(timeout=10_000)
    assert cv.locator("[data-status]").text_content() == ""
    assert page.uncaught == []


PAGES = article_pages()


def test_javascript_off_shows_all_text_and_every_figure(fresh, server):
    page = fresh(java_script_enabled=False)
    for path in PAGES:
        page.goto(server.url + path)
        assert page.locator("h1").first.text_content().strip()
        for fig in page.locator("[data-figure]").all():
            drawn_as_cpython(fig)
    for figure_id in figures.FIGURES:
        page.goto(f"{server.url}/embed/{figure_id}/")
        assert page.locator("[data-figure] .sq-figure__stage svg").count() >= 1


def test_strict_csp_with_wasm_allowed_is_fully_interactive(fresh, server):
    server.settings["headers"] = {"Content-Security-Policy": CSP}
    page = fresh()
    page.goto(server.url + "/step-2/")
    page.wait_for_selector("[data-figure='dot-product'][data-ready='true']", timeout=READY_MS)
    fig = page.locator("[data-figure='dot-product']")
    fig.locator("input[data-field='swing']").fill("180")
    fig.locator("[data-readout='cue']").filter(has_text="opposed").wait_for(timeout=10_000)
    state = json.loads(fig.get_attribute("data-state"))
    readouts = expected("dot-product", state)[1]
    shown = fig.evaluate("f => [...f.querySelectorAll('[data-readout]')].map(e => [e.dataset.readout, e.textContent])")
    assert shown and all(readouts[name] == text for name, text in shown)
    assert page.uncaught == [] and page.console_errors == []


def test_csp_without_wasm_stalls_and_says_so(fresh, server):
    server.settings["headers"] = {"Content-Security-Policy": "default-src 'self'; script-src 'self'"}
    page = fresh()
    page.add_init_script("window.sqrtDkStallMs = 4000")
    page.goto(server.url + "/step-2/")
    fig = page.locator("[data-figure='dot-product']")
    fig.locator("[data-status]").filter(has_text="did not start within 4 s").wait_for(timeout=20_000)
    assert "wasm-unsafe-eval" in fig.locator("[data-status]").text_content()
    assert fig.locator(".sq-figure__stage svg").count() == 2
    assert page.uncaught == []


def test_python_downloads_while_the_page_parses_and_progress_is_shown(fresh, server):
    page = fresh()
    page.add_init_script("""
      window.seen = [];
      new MutationObserver(() => document.querySelectorAll('[data-status]').forEach(
        s => { if (s.textContent && !window.seen.includes(s.textContent)) window.seen.push(s.textContent); }))
        .observe(document, { subtree: true, childList: true, characterData: true });""")
    page.goto(server.url + "/step-2/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    timing = page.evaluate("""() => ({
      parsed: performance.getEntriesByType('navigation')[0].domInteractive,
      wasm: performance.getEntriesByType('resource').filter(r => r.name.endsWith('/pyodide.asm.wasm'))[0],
    })""")
    assert timing["wasm"]["initiatorType"] == "link" and timing["wasm"]["startTime"] < timing["parsed"]
    seen = page.evaluate("() => window.seen")
    assert "Loading Python: the runtime…" in seen
    assert "Loading Python: the figures' code…" in seen
