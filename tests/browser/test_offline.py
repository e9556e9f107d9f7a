"""Offline after the first visit, with the site built for a sub-path and served there by nginx (gzip, as
a host serves it): the service worker keeps the whole site, pages, figures and embed pages work with the
network off, an update never mixes two versions, and a strict Content-Security-Policy and sandboxed
frames still work. Each test makes its own contexts that allow service workers (every other test
blocks them)."""

from __future__ import annotations

import json
import shutil

import pytest

from pycore.sitegen import offline
from tests.browser.conftest import AXE, COURSE, READY_MS, Watched, frame_of
from tests.browser.test_robust import CSP
from tests.conftest import article_pages, free_port
from tests.nginx import Nginx

OFFLINE = "Available offline: this site now works without a network."
UPDATE = "A new version is ready; it loads on your next visit."
ALL_READY = "() => [...document.querySelectorAll('[data-figure]')].every(f => f.dataset.ready === 'true')"
EMBEDS = {"/embed/dot-product/?q=1,1": {"q": [1, 1]},
          "/embed/score-histogram/?dk=64&divisor=sqrt&theme=dark": {"dk": 64, "divisor": "sqrt"},
          "/embed/saturation/?dk=256&n=16&divisor=none": {"dk": 256, "n": 16, "divisor": "none"}}
# What a page is given for each file: the first 16 hex digits of its SHA-256, as the build writes them.
HASHES = """async ([root, paths]) => Object.fromEntries(await Promise.all(paths.map(async (path) => {
  const body = await (await fetch(new URL(path, root))).arrayBuffer();
  const hex = [...new Uint8Array(await crypto.subtle.digest('SHA-256', body))].map(b => b.toString(16).padStart(2, '0'));
  return [path, hex.join('').slice(0, 16)];
})))"""


@pytest.fixture
def contexts(browser, browser_context_args, site):
    """New contexts that allow service workers, each recording its pages' and workers' errors and warnings."""
    made = []

    def make(**options):
        context = browser.new_context(**{**browser_context_args, **options, "service_workers": "allow"})
        context.errors, context.warnings = [], []
        context.on("console", lambda m: m.type == "error" and context.errors.append(m.text))
        context.on("console", lambda m: m.type == "warning" and context.warnings.append(m.text))
        context.on("weberror", lambda e: context.errors.append(str(e.error)))
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def kept_offline(page):
    """Wait until the service worker holds the whole site and controls the page, as the notice says."""
    page.locator(".sq-offline").filter(has_text=OFFLINE).wait_for(timeout=READY_MS)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def first_visit(context, url: str):
    """A new page of the context at ``url``, once its figures are interactive and the site is kept offline."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(ALL_READY, timeout=READY_MS)
    kept_offline(page)
    return page


def operate(page, figure):
    """One keyboard step on the figure's first slider or handle; done when its state has changed."""
    target = figure.locator("input[type='range'], [data-handle]").first
    before = figure.get_attribute("data-state")
    key = target.evaluate("t => t.type !== 'range' ? 'ArrowUp' : t.value === t.max ? 'ArrowLeft' : 'ArrowRight'")
    target.focus()
    page.keyboard.press(key)
    page.wait_for_function("([f, b]) => f.dataset.state !== b", arg=[figure.element_handle(), before], timeout=10_000)


# The notice's box, the header's, and every figure's control and action boxes that it overlaps.
COVERED = """() => { const box = (e) => e.getBoundingClientRect();
  const n = box(document.querySelector('.sq-offline')), h = box(document.querySelector('.md-header'));
  const over = (r) => r.width > 0 && Math.min(n.right, r.right) > Math.max(n.left, r.left)
    && Math.min(n.bottom, r.bottom) > Math.max(n.top, r.top);
  const covered = [...document.querySelectorAll('article *')].filter((e) => over(box(e))).map((e) => e.tagName);
  return {inHeader: n.top >= h.top && n.bottom <= h.bottom && n.left >= h.left && n.right <= h.right, covered}; }"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_offline_notice_never_covers_the_article(contexts, site, width):
    """It sits over the header's title, not over the first figure's controls as it did at 390 px."""
    context = contexts(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(site.url + "/")
    kept_offline(page)
    where = page.evaluate(COVERED)
    assert where == {"inHeader": True, "covered": []}
    page.evaluate("() => document.querySelector('[data-figure] .sq-figure__controls').scrollIntoView()")
    assert page.evaluate(COVERED)["inHeader"], "scrolled, it stays inside the header, which covers nothing of ours"


def test_a_repeat_visit_works_offline_across_pages_figures_and_embeds(contexts, site):
    context = contexts(reduced_motion="reduce")
    page = context.new_page()
    reader = Watched(page, site)
    reader.open("/step-2/")
    kept_offline(page)
    # The notice is a status line that passes axe in both palettes and takes no focus.
    page.add_script_tag(path=str(AXE))
    for scheme in ("default", "slate"):
        page.evaluate("(s) => { document.body.dataset.mdColorScheme = s; }", scheme)
        found = page.evaluate("async () => (await axe.run('.sq-offline')).violations.map(v => v.id)")
        assert found == [], (scheme, found)
    assert page.locator(".sq-offline").get_attribute("role") == "status"
    assert page.locator(".sq-offline :is(a, button, input, [tabindex])").count() == 0

    context.set_offline(True)
    site.serve(missing=("/",))  # a request that still reached the server would fail
    site.forget()
    failed = []
    context.on("requestfailed", lambda r: failed.append(r.url))
    page.reload()  # a full load from the cache: Python starts again, offline
    page.wait_for_function(ALL_READY, timeout=READY_MS)
    for path in article_pages():  # then every page by Material's instant navigation
        reader.open(path, ready=None)
        assert page.locator("article h1").first.text_content().strip(), path
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        figures = page.locator("[data-figure]:has(input[type='range'], [data-handle])")
        if figures.count():
            operate(page, figures.first)
    for path, state in EMBEDS.items():  # embed pages, opened cold, with their address's state
        page.goto(site.url + path)
        page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
        shown = json.loads(page.locator("[data-figure]").get_attribute("data-state"))
        assert {name: shown[name] for name in state} == state, path
        operate(page, page.locator("[data-figure]"))
    assert failed == [] and context.errors == []
    # Only the browser's own update checks for sw.js, which offline emulation does not cover, got through.
    assert {path for path, status in site.log()} <= {"/sw.js"}


def test_the_first_visit_downloads_nothing_twice(browser_type_launch_args, browser_type, site, course_dir, tmp_path):
    """With a disk cache, as a reader has, the install revalidates what the page loaded (304)
    instead of fetching it again. (A new context's in-memory cache cannot hold Pyodide's wasm.)"""
    context = browser_type.launch_persistent_context(tmp_path / "profile", **browser_type_launch_args,
                                                     service_workers="allow")
    try:
        page = context.new_page()
        page.goto(site.url + "/step-2/")
        page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
        kept_offline(page)
    finally:
        context.close()
    log = site.log()
    downloads = [path for path, status in log if status == 200]
    assert len(downloads) == len(set(downloads)), "a file was downloaded twice"
    kept = {f"/{path}" for path in offline.precache(course_dir)["files"]}
    assert kept <= {path for path, status in log if status in (200, 304)}


def deploy(live, site_dir, version: str) -> dict:
    """Make ``live`` the built site with the marker of ``version`` in a page, a stylesheet and a
    script, and ``sw.js`` rewritten for it, as a new build would; return its precache."""
    edits = {"step-2/index.html": ("</head>", f'<meta name="sq-test-version" content="{version}"></head>'),
             "assets/sqrt-dk/figures.css": ("", f':root {{ --sq-test-version: "{version}"; }}\n'),
             "assets/sqrt-dk/a11y.js": ("", f'document.documentElement.dataset.sqTestVersion = "{version}";\n')}
    for path, (before, after) in edits.items():
        text = (site_dir / path).read_text(encoding="utf-8")
        (live / path).write_text(text.replace(before, after, 1) if before else text + after, encoding="utf-8")
    offline.write_worker(live)
    return offline.precache(live)


def version_shown(page) -> list[str]:
    """The version of the page, its stylesheet and its script."""
    return page.evaluate("""() => [document.querySelector('meta[name=sq-test-version]').content,
        getComputedStyle(document.documentElement).getPropertyValue('--sq-test-version').trim().replaceAll('"', ''),
        document.documentElement.dataset.sqTestVersion]""")


def test_an_update_waits_for_the_next_visit_and_never_mixes_versions(contexts, course_dir, tmp_path):
    live = tmp_path / "live"
    shutil.copytree(course_dir, live)
    a = deploy(live, course_dir, "A")
    server = Nginx(live, free_port(), COURSE)
    try:
        context = contexts()
        page = first_visit(context, server.url + "/step-2/")

        server.forget()
        b = deploy(live, course_dir, "B")
        changed = {f"/{path}" for path, digest in b["files"].items() if a["files"].get(path) != digest}
        assert changed == {"/step-2/", "/assets/sqrt-dk/figures.css", "/assets/sqrt-dk/a11y.js"}
        page.reload()  # the browser finds the new sw.js; the page stays with the version that served it
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        page.locator(".sq-offline").filter(has_text=UPDATE).wait_for(timeout=READY_MS)
        assert version_shown(page) == ["A", "A", "A"]
        assert page.evaluate(HASHES, [server.url + "/", list(a["files"])]) == a["files"]
        fetched = {path.split("?")[0] for path, status in server.log()}
        assert fetched == {"/sw.js", *changed}, "the new version fetched only what changed"
        caches = page.evaluate("() => caches.keys()")
        assert sorted(caches) == sorted(f"sqrt-dk {COURSE} {v['version']}" for v in (a, b))

        page.close()  # no page of version A is left open: the next visit is version B's
        page = context.new_page()
        page.goto(server.url + "/step-2/")
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        assert version_shown(page) == ["B", "B", "B"]
        assert page.evaluate(HASHES, [server.url + "/", list(b["files"])]) == b["files"]
        assert page.evaluate("() => caches.keys()") == [f"sqrt-dk {COURSE} {b['version']}"]
        assert context.errors == []
    finally:
        server.close()


def test_offline_under_a_sub_path_and_a_strict_content_security_policy(contexts, site):
    """nginx serves the site under /course/ with the strict policy: the worker's scope is that folder."""
    site.serve(headers={"Content-Security-Policy": CSP})
    context = contexts()
    page = first_visit(context, site.url + "/step-2/")
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == site.url + "/sw.js"
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope") == site.url + "/"
    context.set_offline(True)
    for path in ("/step-6/", "/embed/dot-product/?q=1,1"):
        page.goto(site.url + path)
        page.wait_for_function(ALL_READY, timeout=READY_MS)
        operate(page, page.locator("[data-figure]:has(input[type='range'], [data-handle])").first)
    assert context.errors == []


def test_sandboxed_frames_stay_interactive_with_service_workers_allowed(contexts, site, host):
    """A frame without allow-same-origin may not touch navigator.serviceWorker: the site leaves it be."""
    site.serve(headers={"Access-Control-Allow-Origin": "*"})
    context = contexts()
    page = context.new_page()
    page.goto(host("sandboxes.html", [("dot-product", {"q": "1,1"})], sandbox="allow-scripts"))
    fig = frame_of(page, 0).locator("[data-figure]")
    frame_of(page, 0).locator("[data-figure][data-ready='true']").wait_for(timeout=READY_MS)
    assert json.loads(fig.get_attribute("data-state"))["q"] == [1, 1]
    fig.locator("input[data-field='swing']").fill("180")
    fig.locator("[data-readout='cue']").filter(has_text="opposed").wait_for(timeout=10_000)
    page.wait_for_timeout(1000)  # Python is up: elsewhere the worker would be registered by now
    assert context.errors == [] and not [w for w in context.warnings if "offline" in w]
