"""Hydration (wake.js): when Python starts, no figure is drawn again (the built SVG is already right), every
figure becomes interactive by keyboard, those in closed asides once they are opened, and with JavaScript
off the page is as built. One page and one started Python serve the file's browser tests."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import ALL_READY, DRAW_ALL, HOLD_BEGIN, READY_MS, Watched, drawn_as_cpython
from tests.conftest import article_pages, shipped_archives

BUILT_STATUS = "Drawn in its starting state; it becomes interactive when Python has loaded in your browser."
# Every change of a figure's drawing once the page is parsed: a stage whose children are replaced, kept
# across page swaps.
WATCH = """window.redrawn = [];
let parsed = false;
document.addEventListener('DOMContentLoaded', () => { parsed = true; });
new MutationObserver((records) => { for (const r of records)
  if (parsed && r.target.matches && r.target.matches('.sq-figure__stage')) window.redrawn.push(r.target.closest('[data-figure]').id);
}).observe(document, { subtree: true, childList: true });"""
# The figure's first control a keyboard operates, and the key that changes it: a slider (towards its other
# end), else a draggable tip, else a choice, else a button, outside closed "More settings"; an attribute marks
# it. None if the figure shows all its controls under "More settings".
PICK = """(f) => {
  const shown = (selector) => [...f.querySelectorAll(selector)].find((el) => !el.closest('details:not([open])'));
  const range = shown("input[type='range']");
  const button = shown("button[data-set], button[data-event]");
  const el = range || shown('[data-handle]') || shown("input[type='radio']") || button;
  if (!el) return null;
  el.dataset.sqTestKey = 'true';
  if (range) return Number(range.value) < Number(range.max) ? 'ArrowRight' : 'ArrowLeft';
  return el === button ? 'Enter' : 'ArrowRight';
}"""


@pytest.fixture(scope="module")
def hydrated(browser, browser_context_args, server):
    """One page for the file, with every stage's redraws recorded; Python starts on the first page it opens."""
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 390, "height": 800}})
    page = context.new_page()
    page.add_init_script(WATCH)
    yield Watched(page, server)
    context.close()


def pages_with_figures(site_dir) -> list[str]:
    return [p for p in article_pages()
            if 'data-figure="' in (site_dir / p.strip("/") / "index.html").read_text(encoding="utf-8")]


def test_no_figure_is_drawn_again_when_python_starts_or_when_a_page_swaps_in(hydrated, site_dir):
    paths = pages_with_figures(site_dir)
    assert len(paths) >= 10
    for path in paths:  # the first loads the page and starts Python; the others swap in, as a reader's clicks do
        page = hydrated.open(path, ready=None)
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        page.wait_for_timeout(300)  # an answer would land within a frame or two
        assert page.evaluate("() => window.redrawn") == [], path
        for fig in page.locator("[data-figure]").all():
            drawn_as_cpython(fig)
    assert hydrated.errors == []


def test_an_embed_address_that_asks_for_the_drawn_state_redraws_nothing(hydrated):
    page = hydrated.open("/embed/dot-product/")
    state = json.loads(page.locator("[data-figure]").get_attribute("data-state"))
    same = urlencode({k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in state.items()})
    page = hydrated.open(f"/embed/dot-product/?{same}")
    page.wait_for_function("() => !document.querySelector('[data-figure]').dataset.pending", timeout=READY_MS)
    assert page.evaluate("() => window.redrawn") == []
    assert json.loads(page.locator("[data-figure]").get_attribute("data-state")) == state
    page = hydrated.open("/embed/dot-product/?q=-1%2C1.5")  # a state not drawn: the stage is drawn again
    page.wait_for_function("() => window.redrawn.length > 0", timeout=READY_MS)
    assert hydrated.errors == []


def test_every_figure_answers_the_keyboard_including_those_in_closed_asides_once_opened(hydrated, site_dir):
    asides = 0
    for path in pages_with_figures(site_dir):
        page = hydrated.open(path, ready=None)
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        for fig in page.locator("[data-figure]").all():
            summary = fig.locator("xpath=ancestor::details[not(@open)][last()]/summary")
            if summary.count():
                asides += 1
                assert not fig.evaluate("(f) => f.checkVisibility()"), "a closed aside renders nothing of it"
                summary.focus()
                page.keyboard.press("Enter")
                assert fig.evaluate("(f) => !f.closest('details:not([open])') && f.checkVisibility()")
            before = fig.get_attribute("data-state")
            key = fig.evaluate(PICK)
            if key is None and fig.locator("summary[data-action='more']").count():  # open More settings by keyboard
                fig.locator("summary[data-action='more']").focus()
                page.keyboard.press("Enter")
                key = fig.evaluate(PICK)
            if key is None:  # a panel of a row of small multiples: nothing of its own to operate
                assert fig.evaluate("(f) => Boolean(f.closest('.sq-row')) && !f.querySelector('input, [data-handle]')")
                continue
            control = fig.locator("[data-sq-test-key]")
            assert control.is_enabled(), f"{path} {fig.get_attribute('id')}"
            control.focus()
            page.keyboard.press(key)
            page.wait_for_function("([f, before]) => document.getElementById(f).dataset.state !== before"
                                   " && !document.getElementById(f).dataset.busy",
                                   arg=[fig.get_attribute("id"), before], timeout=READY_MS)
    assert asides >= 2, "Step 3 and Step 5 each have a figure in a closed aside"
    assert hydrated.errors == []


def test_with_javascript_off_the_page_is_as_built(fresh, server):
    page = fresh(java_script_enabled=False)
    for path in ("/step-3/", "/step-5/"):
        page.goto(server.url + path)
        figs = page.locator("[data-figure]").all()
        assert figs
        for fig in figs:
            drawn_as_cpython(fig)
            assert fig.locator("[data-status]").text_content() == BUILT_STATUS
            assert fig.get_attribute("data-bound") is None and fig.get_attribute("data-ready") is None
            assert fig.locator("input:not([disabled])").count() == 0
        assert page.locator("article details[open]:not(.sq-figure__more)").count() == 0


BLOCK_HEIGHTS = """() => [...document.querySelectorAll('.md-content__inner > *')].map((block) => {
  block.scrollIntoView();  // as a reader scrolls to it: a block near the screen is drawn
  return block.getBoundingClientRect().height;
})"""
SKIPPED = "(block) => !block.querySelector('*').checkVisibility({ contentVisibilityAuto: true })"
"""Whether a block's content is skipped: the block itself is laid out (at its placeholder's height), what it
holds is not."""


def test_the_figures_are_bound_in_a_task_of_their_own_after_materials_start(fresh, server):
    """Material announces the page from its DOMContentLoaded listener on the document; the figures are bound
    after that event has passed (a listener on the window hears it last, its bubbling done), not inside it."""
    page = fresh(viewport={"width": 390, "height": 800})
    page.add_init_script("""window.addEventListener('DOMContentLoaded', () => {
      window.boundDuringMaterialsStart = document.querySelectorAll('[data-figure][data-bound]').length;
      window.materialStarted = Boolean(window.document$);
    });""")
    page.goto(server.url + "/step-5/")
    figures = page.locator("[data-figure]").count()
    assert figures >= 4
    page.wait_for_function(f"document.querySelectorAll('[data-figure][data-bound]').length === {figures}")
    assert page.evaluate("[window.materialStarted, window.boundDuringMaterialsStart]") == [True, 0]
    assert page.uncaught == []


# What a page's workers said and were sent, in order: Python's worker's "ready" and the theme's search index being
# handed to the search worker (Material's setup message, the one that carries the pages' text).
ORDER = """{ window.order = []; const Started = window.Worker; const post = Started.prototype.postMessage;
  window.Worker = function (url, options) {
    const worker = new Started(url, options);
    worker.addEventListener('message', (e) => { if (e.data.type === 'ready') window.order.push('python ready'); });
    return worker;
  };
  Started.prototype.postMessage = function (message) {
    if (message && message.data && Array.isArray(message.data.docs)) window.order.push('search index');
    return post.apply(this, arguments);
  }; }"""


def search_for(page, word: str) -> list[str]:
    """Open the theme's search, type ``word``; the paths of its results' pages."""
    page.locator("input.md-search__input").click()
    page.locator("input.md-search__input").fill(word)
    page.locator("input.md-search__input").press("End")
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    return page.locator(".md-search-result__item a").evaluate_all("as => as.map(a => new URL(a.href).pathname)")


def test_python_starts_from_the_head_before_the_themes_bundle_has_run_and_its_search_waits(fresh, server):
    """The worker is started while the head is parsed (head.js): Material's bundle, at the end of the body, has not
    run (no document$) and is not even parsed yet; the page then adopts that worker and starts no other of its own.
    The theme's search worker is handed its index only after Python's worker has said it is ready, not beside
    Python's start, and search then finds a page by a word of its text."""
    page = fresh()
    page.add_init_script(ORDER)
    page.add_init_script("""window.workersStarted = []; const Started = window.Worker;
      window.Worker = function (url, options) {
        window.workersStarted.push({ url: String(url), bundleRan: 'document$' in window,
                                     bundleParsed: Boolean(document.querySelector('script[src*="/bundle."]')) });
        return new Started(url, options);
      };""")
    page.goto(server.url + "/step-2/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    ours = [w for w in page.evaluate("window.workersStarted") if "/assets/sqrt-dk/" in w["url"]]  # and the theme's search
    assert [(w["url"].removeprefix(server.url), w["bundleRan"], w["bundleParsed"]) for w in ours] == [
        ("/assets/sqrt-dk/worker.js", False, False)]
    assert page.evaluate("'document$' in window && !('sqrtDkWorker' in window)")
    page.wait_for_function("window.order.length === 2", timeout=READY_MS)
    assert page.evaluate("window.order") == ["python ready", "search index"]
    assert "/step-4/" in search_for(page, "variance")
    assert page.uncaught == [] and page.console_errors == []


def test_a_reader_who_opens_search_while_python_is_still_starting_gets_results_at_once(fresh, server):
    """Opening search lets the held index go: with a Python worker that never answers, search still finds pages."""
    server.settings["replace"] = {"/assets/sqrt-dk/worker.js": b"self.onmessage = () => {};"}
    page = fresh()
    page.add_init_script(ORDER)
    page.goto(server.url + "/step-2/")
    page.wait_for_function("document.querySelector('[data-figure][data-bound]')")
    page.wait_for_timeout(1000)
    assert page.evaluate("window.order") == []
    assert "/step-4/" in search_for(page, "variance")
    assert page.evaluate("window.order") == ["search index"]


def test_the_browser_that_tests_and_measures_the_pages_loads_no_page_of_its_own_beside_them(browser, fresh, server):
    """The Chromium the tests and make bench start (browser_setup.CHROMIUM_ARGS) opens no page of its own in a new
    window: none of its omnibox popups, which it loaded beside every new window otherwise (make bench)."""
    page = fresh()
    page.goto(server.url + "/references/")
    cdp = browser.new_browser_cdp_session()
    targets = cdp.send("Target.getTargets")["targetInfos"]
    cdp.detach()
    assert [(t["type"], t["url"]) for t in targets if t["url"].startswith("chrome://")] == []
    assert server.url + "/references/" in [t["url"] for t in targets if t["type"] == "page"]


def test_a_first_start_of_python_takes_the_processor_only_once_the_page_has_bound_its_figures(fresh, server, site_dir):
    """The worker started from the head fetches the core at once, but loads and starts Pyodide only when the page
    says its figures are bound ("begin"): held back, Pyodide's loader is never fetched and no figure wakes; let
    through, Python starts anew and every figure wakes."""
    page = fresh()
    fetched = []
    page.on("request", lambda r: fetched.append(r.url.removeprefix(server.url)))
    page.add_init_script(HOLD_BEGIN)
    core = "/assets/sqrt-dk/" + shipped_archives(site_dir)["CORE"]
    with page.expect_request(server.url + core):
        page.goto(server.url + "/step-2/")
    page.wait_for_function("window.heldBegin.length === 1 && document.querySelector('[data-figure][data-bound]')")
    page.wait_for_timeout(1500)
    loader = "/assets/vendor/pyodide/pyodide.asm.mjs"  # (the wasm may be fetched already: the head prefetches it)
    assert core in fetched and loader not in fetched
    assert page.locator("[data-figure][data-ready]").count() == 0
    page.evaluate("window.heldBegin.forEach((send) => send())")
    page.wait_for_function(ALL_READY, timeout=READY_MS)
    assert page.evaluate("window.sqrtDk.startedFrom()") == "start"
    assert loader in fetched
    assert page.uncaught == [] and page.console_errors == []


def test_a_block_far_off_screen_is_drawn_only_as_the_reader_nears_it(fresh, server):
    """The article's heavy blocks (paragraphs, figures, tables, lists, recall cards) skip their rendering while
    far off screen (content-visibility: auto), and are drawn as the reader scrolls to them."""
    page = fresh(java_script_enabled=False, viewport={"width": 390, "height": 800})
    for path in ("/step-6/", "/teachers/", "/assumptions/", "/reproduce/"):
        page.goto(server.url + path)
        last = page.locator(".md-content__inner > :is(figure, table, p, ul, div.sq-recall):has(*)").last
        assert last.evaluate(SKIPPED), f"{path}: the page's last block is not drawn at load"
        first = page.locator(".md-content__inner > p:has(*)").first
        assert not first.evaluate(SKIPPED), f"{path}: the first screen is"
        page.evaluate(BLOCK_HEIGHTS)  # scrolls to each block in turn
        assert not last.evaluate(SKIPPED), path


PLACEHOLDERS = """() => [...document.querySelectorAll('.md-content__inner > *')].map((block) =>
  block.querySelector('button, input, select, summary') && getComputedStyle(block).contentVisibility === 'auto'
    ? parseFloat(getComputedStyle(block).containIntrinsicBlockSize.split(' ').pop()) : null)"""
"""Each block's placeholder height where the block may skip and holds controls, else null."""


@pytest.mark.parametrize("width", [390, 1280])
def test_drawing_a_block_moves_nothing_and_no_skipped_block_lies_over_the_next(fresh, server, width):
    """Once drawn, every block of every page is as tall as it is with the skipping turned off, so the page lays
    out as it would without it: no block's children's margins depend on whether it contains them. And a block
    with controls is no taller than its placeholder: a script that measures a skipped block (axe, in Lighthouse)
    lays its content out from the placeholder's top, so a taller one would lie over the next block's controls."""
    page = fresh(java_script_enabled=False, viewport={"width": width, "height": 800})
    for path in article_pages():
        page.goto(server.url + path)
        placeholders = page.evaluate(PLACEHOLDERS)
        drawn = page.evaluate(BLOCK_HEIGHTS)
        page.evaluate("(css) => document.head.insertAdjacentHTML('beforeend', `<style>${css}</style>`)", DRAW_ALL)
        plain = page.evaluate(BLOCK_HEIGHTS)
        assert len(drawn) == len(plain) == len(placeholders) > 1
        assert drawn == pytest.approx(plain, abs=1.5), path
        over = [(i, height, most) for i, (height, most) in enumerate(zip(plain, placeholders))
                if most is not None and height > most]
        assert over == [], path


TEXT_CHUNKS = """(p) => [...p.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())
  .map((n) => n.textContent.split(/\\s+/).filter(Boolean).join(' '))"""


def test_after_the_start_a_far_block_stays_skipped_and_a_screen_reader_still_reads_it(browser_type_launch_args,
                                                                                     browser_type, server):
    """Nothing of ours draws the blocks the reader has not reached once Python has started (drawing them was most
    of the long tasks after the start, make bench), and with accessibility on, as a screen reader turns it on,
    Chromium exposes a skipped paragraph's text and a far figure's readout all the same. (The launch arguments
    come first among the fixtures: they look for Chromium with Playwright, before Playwright's own loop runs.)"""
    launch = {**browser_type_launch_args, "args": [*browser_type_launch_args["args"], "--force-renderer-accessibility"]}
    browser = browser_type.launch(**launch)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 800})
        page.goto(server.url + "/step-6/")
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        page.wait_for_timeout(1000)  # the old drawing, a block per idle moment, had drawn the whole page by then
        paragraph = page.locator(".md-content__inner > p:has(*)").last
        readout = page.locator(".md-content__inner > figure [data-readout]").last
        assert paragraph.evaluate(SKIPPED)
        assert not readout.evaluate("(r) => r.checkVisibility({ contentVisibilityAuto: true })")
        assert page.evaluate("() => scrollY") == 0
        cdp = page.context.new_cdp_session(page)
        cdp.send("Accessibility.enable")
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        texts = {" ".join(str(node["name"]["value"]).split()) for node in nodes
                 if not node.get("ignored") and node.get("role", {}).get("value") == "StaticText" and "name" in node}
        words = paragraph.evaluate(TEXT_CHUNKS)  # each of its own text nodes is a StaticText node of its own
        assert sum(map(len, words)) > 100 and set(words) <= texts, set(words) - texts
        assert readout.text_content().strip() in texts
    finally:
        browser.close()


FAR_TEXT_FIELDS = """() => [...document.querySelectorAll('.md-content__inner :is(input, textarea, select)')]
  .filter((field) => !['range', 'radio', 'checkbox', 'hidden', 'button'].includes(field.type))
  .filter((field) => !field.closest('.md-content__inner > *').querySelector('*').checkVisibility({ contentVisibilityAuto: true }))
  .map((field) => `${field.closest('[id]').id} ${field.dataset.field}`)"""
"""The article's text-like fields (those Chromium's form handling looks at) inside a block it skips."""


def test_no_text_field_waits_in_a_far_block_and_more_settings_makes_its_own(fresh, server, site_dir):
    """Once a page is parsed, Chromium lays out every skipped block that holds a text field (make bench: on Step 5,
    its two seeds cost 120-180 ms of layout at 4x), so a field under "More settings" is a hidden input until that
    opens; opened, it is a text field with the figure's value that takes a new one (a bad one gets its message:
    test_many_rows)."""
    page = fresh(viewport={"width": 390, "height": 800})
    for path in pages_with_figures(site_dir):
        page.goto(server.url + path)
        assert page.evaluate(FAR_TEXT_FIELDS) == [], path
    page.goto(server.url + "/step-5/")
    assert page.locator("#fig-saturation input[type='hidden'][data-field='seed']").count() == 1
    page.wait_for_function(ALL_READY, timeout=READY_MS)
    fig = page.locator("#fig-saturation")
    fig.locator("summary[data-action='more']").click()
    seed = fig.locator("input[data-field='seed']")
    assert seed.get_attribute("type") == "text" and seed.is_enabled()
    assert seed.input_value() == str(json.loads(fig.get_attribute("data-state"))["seed"])
    seed.fill("42")
    seed.press("Enter")
    page.wait_for_function("(f) => JSON.parse(f.dataset.state).seed === 42", arg=fig.element_handle(), timeout=READY_MS)
    assert page.uncaught == []
