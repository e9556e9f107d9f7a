"""Offline after the first visit, with the site built for a sub-path and served there by nginx (gzip, as
a host serves it): the service worker keeps the whole site, pages, figures and embed pages work with the
network off, an update never mixes two versions, and a strict Content-Security-Policy and sandboxed
frames still work. Each test makes its own contexts that allow service workers (every other test
blocks them)."""

from __future__ import annotations

import json
import shutil
import time

import pytest

from pycore.sitegen import offline
from tests.browser.conftest import COURSE, HOLD_BEGIN, HOST, READY_MS, Watched, add_axe, drawn_as_cpython, every_figure_ready, frame_of
from tests.browser.test_robust import CSP
from tests.conftest import Server, article_pages, free_port, shipped_archives
from tests.nginx import Nginx

OFFLINE = "Available offline: this site now works without a network."
UPDATE = "A new version is ready; it loads on your next visit."
EMBEDS = {"/embed/dot-product/?q=1,1": {"q": [1, 1]},
          "/embed/score-histogram/?dk=64&divisor=sqrt&theme=dark": {"dk": 64, "divisor": "sqrt"},
          "/embed/saturation/?dk=256&n=16&divisor=none": {"dk": 256, "n": 16, "divisor": "none"}}
# The caches of the site's offline copy, one per version (Python's snapshot has a cache of its own).
SITE_CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('sqrt-dk /'))"
# The addresses under which Python's snapshot is kept.
SNAPSHOTS = "async () => (await (await caches.open('sqrt-dk python snapshot /')).keys()).map((r) => r.url)"
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
    every_figure_ready(page)
    kept_offline(page)
    return page


def operable(page):
    """The page's figures with a slider or handle in view (not inside a closed aside or More settings)."""
    return page.locator("[data-figure]").filter(has=page.locator("input[type='range']:visible, [data-handle]:visible"))


def operate(page, figure):
    """One keyboard step on the figure's first visible slider or handle; done when its state has changed."""
    target = figure.locator("input[type='range']:visible, [data-handle]:visible").first
    before = figure.get_attribute("data-state")
    key = target.evaluate("t => t.type !== 'range' ? 'ArrowUp' : t.value === t.max ? 'ArrowLeft' : 'ArrowRight'")
    target.focus()
    page.keyboard.press(key)
    page.wait_for_function("([f, b]) => f.dataset.state !== b", arg=[figure.element_handle(), before], timeout=10_000)


# What the notice's box overlaps: the header's title, and what shows of the rest of the header, the article and the
# navigation (their tags; a phone's closed drawer and search are there, transparent); and whether it lies wholly below
# the header's bottom edge on the page.
COVERED = """() => { const box = (e) => e.getBoundingClientRect();
  const n = box(document.querySelector('.sq-offline')), h = box(document.querySelector('.md-header'));
  const over = (r) => r.width > 0 && r.height > 0 && Math.min(n.right, r.right) > Math.max(n.left, r.left)
    && Math.min(n.bottom, r.bottom) > Math.max(n.top, r.top);
  const covered = (selector) => [...document.querySelectorAll(selector)]
    .filter((e) => e.checkVisibility({opacityProperty: true, visibilityProperty: true}) && over(box(e)))
    .map((e) => e.tagName);
  return {title: over(box(document.querySelector('.md-header__title'))), header: covered('.md-header *'),
          article: covered('article *'), nav: covered('.md-nav__link'), below: n.top + scrollY >= h.bottom}; }"""
NOTHING = {"title": False, "header": [], "article": [], "nav": [], "below": True}


@pytest.mark.parametrize("width", [390, 1280])
def test_the_offline_notice_covers_neither_the_header_title_nor_the_article(contexts, site, width):
    """It sits in the empty band between the header and the page's first line, and scrolls away with the page: not
    over the header's title, as it was at 1,280 px, nor over the first figure's controls, as it was at 390 px."""
    context = contexts(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.goto(site.url + "/")
    kept_offline(page)
    assert page.evaluate(COVERED) == NOTHING
    page.evaluate("() => document.querySelector('[data-figure] .sq-figure__controls').scrollIntoView()")
    assert page.evaluate(COVERED) == NOTHING, "scrolled, it has gone up with the page, under the header"
    assert page.evaluate(THROUGH_ITS_ANIMATION) == {"opaque": True, "whole": True, "gone": True}


# The notice's animation stepped through from start to end: whether it is opaque at every step (what shows of it
# keeps its contrast, and nothing shows through it), whole in the middle, and hidden at the end.
THROUGH_ITS_ANIMATION = """() => {
  const note = document.querySelector('.sq-offline'), [animation] = note.getAnimations();
  animation.pause();
  const at = (t) => { animation.currentTime = t; const s = getComputedStyle(note); return [s.opacity, s.clipPath]; };
  const steps = Array.from({length: 81}, (_, i) => at(i * 100));
  return {opaque: steps.every(([o]) => o === '1'), whole: at(4000)[1] === 'inset(0px)',
          gone: at(8000)[1] === 'inset(0px 0px 0px 100%)'}; }"""


def test_a_repeat_visit_works_offline_across_pages_figures_and_embeds(contexts, site):
    context = contexts(reduced_motion="reduce")
    page = context.new_page()
    reader = Watched(page, site)
    reader.open("/step-2/")
    kept_offline(page)
    # The notice is a status line that passes axe in both palettes and takes no focus.
    add_axe(page)
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
    # The browser's own fetch of the tab's icon does not always pass through the worker (crbug.com/448427):
    # not a request of the page's, and the icon is precached for the requests that do. A request the page gave up
    # by navigating away (Material's read of sitemap.xml, when an embed page is opened) was cancelled, not refused.
    context.on("requestfailed", lambda r: None if r.url.endswith("/assets/favicon.svg") or r.failure == "net::ERR_ABORTED"
               else failed.append((r.url, r.failure)))
    page.reload()  # a full load from the cache: Python starts again, offline
    every_figure_ready(page)
    for path in article_pages():  # then every page by Material's instant navigation
        reader.open(path, ready=None)
        assert page.locator("article h1").first.text_content().strip(), path
        every_figure_ready(page)
        figures = operable(page)
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


# Whether the registration (whose attributes the browser keeps current) has no version waiting and
# its active one is activated.
ACTIVATED = "(r) => !r.waiting && r.active.state === 'activated'"


def activated(context, server):
    """Wait until the waiting version has taken over, seen from a blank page of the origin outside the
    scope (so not a page of either version): the browser activates it a moment after the last page of the
    old version is gone, and a visit that starts within that moment is still the old version's."""
    outside = context.new_page()
    outside.route(server.origin + "/", lambda route: route.fulfill(content_type="text/html", body="<title>outside</title>"))
    outside.goto(server.origin + "/")
    registration = outside.evaluate_handle("(scope) => navigator.serviceWorker.getRegistration(scope)", server.url + "/")
    outside.wait_for_function(ACTIVATED, arg=registration, timeout=READY_MS)
    outside.close()


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
        every_figure_ready(page)
        page.locator(".sq-offline").filter(has_text=UPDATE).wait_for(timeout=READY_MS)
        assert version_shown(page) == ["A", "A", "A"]
        assert page.evaluate(HASHES, [server.url + "/", list(a["files"])]) == a["files"]
        fetched = {path.split("?")[0] for path, status in server.log()}
        assert fetched == {"/sw.js", *changed}, "the new version fetched only what changed"
        caches = page.evaluate(SITE_CACHES)
        assert sorted(caches) == sorted(f"sqrt-dk {COURSE} {v['version']}" for v in (a, b))

        page.close()  # no page of version A is left open: the next visit is version B's
        activated(context, server)
        page = context.new_page()
        page.goto(server.url + "/step-2/")
        every_figure_ready(page)
        assert version_shown(page) == ["B", "B", "B"]
        assert page.evaluate(HASHES, [server.url + "/", list(b["files"])]) == b["files"]
        assert page.evaluate(SITE_CACHES) == [f"sqrt-dk {COURSE} {b['version']}"]
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
        every_figure_ready(page)
        operate(page, operable(page).first)
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


def until(page, script: str, arg=None, ok=bool):
    """Evaluate an async script every quarter second until ``ok`` holds for its result; that result."""
    for _ in range(READY_MS // 250):
        result = page.evaluate(script, arg)
        if ok(result):
            return result
        time.sleep(0.25)
    raise AssertionError(f"never: {script}")


def snapshot_kept(page) -> list[str]:
    """Wait until Python's start is kept for the next visit; the addresses it is kept under."""
    return until(page, SNAPSHOTS)


def started_from(page) -> str:
    every_figure_ready(page)
    return page.evaluate("() => window.sqrtDk.startedFrom()")


def operate_as_cpython(page) -> None:
    """One keyboard step on every figure of the page; each then shows what CPython draws for its state."""
    for fig in operable(page).all():
        operate(page, fig)
    page.wait_for_function("() => !document.querySelector('[data-figure][data-busy]')", timeout=READY_MS)
    for fig in page.locator("[data-figure]").all():
        drawn_as_cpython(fig)


def test_a_repeat_visit_starts_python_from_its_snapshot_and_draws_what_cpython_draws(contexts, server):
    context = contexts()
    page = first_visit(context, server.url + "/step-3/")
    assert page.evaluate("() => window.sqrtDk.startedFrom()") == "start"
    assert len(snapshot_kept(page)) == 1
    page.reload()
    assert started_from(page) == "snapshot"
    operate_as_cpython(page)
    assert context.errors == []


def compiled_from_cache(events: list[dict], name: str) -> list[int]:
    """How many bytes of kept compiled code Chromium took for each compile of the module ``name`` in a trace (0
    where it compiled the module anew)."""
    return [e["args"]["data"].get("consumedCacheSize", 0) for e in events
            if e.get("name") == "v8.compileModule" and e.get("ph") == "X"
            and e["args"].get("data", {}).get("url", "").endswith("/" + name)]


def test_a_return_visit_asks_the_network_for_nothing_but_its_page_and_finds_pyodide_compiled(contexts, server,
                                                                                              browser):
    """Once the site is kept, a return visit in a new tab takes every file from the service worker's cache and
    Python's start from its snapshot: no file is even revalidated with the host. Only the page itself, which the
    worker keeps too, and the browser's own update check of sw.js may reach it. Restoring the snapshot does not
    wait for the page's figures to be bound, as a first start does: it goes even with the page's "begin" held.
    Pyodide's 1 MB module comes compiled: the first visit ran it once from the cache it had filled (warm.js), and
    Chromium kept its code there (without that, a second visit compiled it anew and a third took it compiled)."""
    context = contexts()
    snapshot_kept(first_visit(context, server.url + "/step-2/"))
    server.reset()
    page = context.new_page()
    page.add_init_script(HOLD_BEGIN)
    browser.start_tracing(page=page, categories=["devtools.timeline"])
    try:
        page.goto(server.url + "/step-2/")
        assert started_from(page) == "snapshot"
    finally:
        events = json.loads(browser.stop_tracing())["traceEvents"]
    [kept] = compiled_from_cache(events, "pyodide.asm.mjs")
    assert kept > 10_000, "Pyodide's module was compiled anew"
    assert page.evaluate("window.heldBegin.length") == 1
    assert {path for path, status in server.settings["log"]} <= {"/step-2/", "/sw.js"}
    assert context.errors == []


def test_a_broken_snapshot_falls_back_to_the_normal_start_and_is_replaced(contexts, server):
    context = contexts()
    page = first_visit(context, server.url + "/step-3/")
    [key] = snapshot_kept(page)
    page.evaluate("""async (key) => (await caches.open('sqrt-dk python snapshot /'))
        .put(key, new Response(new Uint8Array(4096).fill(7)))""", key)
    page.reload()
    assert started_from(page) == "start"
    operate_as_cpython(page)
    until(page, "async (key) => { const r = await (await caches.open('sqrt-dk python snapshot /')).match(key);"
                " return r !== undefined && (await r.arrayBuffer()).byteLength > 4096; }", key)
    page.reload()
    assert started_from(page) == "snapshot"
    assert context.errors == []


PAGE = 65536
PACKED = """async ([length, marks]) => {
  const { packed, unpacked } = await import(new URL('assets/sqrt-dk/snapshot.js', document.baseURI + '../').href);
  const memory = new Uint8Array(length);
  for (const [at, value] of marks) memory[at] = value;
  const kept = packed(memory);
  const headers = { length: kept.headers.get('X-Snapshot-Length'), pages: kept.headers.get('X-Snapshot-Pages') };
  const back = await unpacked(kept.clone());
  const body = (await kept.arrayBuffer()).byteLength;
  const nonzero = [...back.keys()].filter((i) => back[i]).map((i) => [i, back[i]]);
  let refused = null;
  try {
    await unpacked(new Response(new Uint8Array(body - 1), { headers: kept.headers }));
  } catch (err) {
    refused = err.message;
  }
  return { headers, body, length: back.length, nonzero, refused };
}"""


def test_a_snapshot_is_kept_without_its_pages_of_zeros_and_read_back_whole(contexts, server):
    """snapshot.js: a memory of five and a bit pages, with bytes set in the second, the fourth's last byte and the
    short sixth, keeps those three pages and comes back byte for byte; a body of the wrong length is refused. The
    snapshot the first visit keeps holds fewer pages than the memory has, and its body is exactly those pages."""
    context = contexts()
    page = first_visit(context, server.url + "/step-2/")
    length = 5 * PAGE + 100
    marks = [[PAGE + 7, 3], [4 * PAGE - 1, 255], [5 * PAGE + 99, 1]]
    got = page.evaluate(PACKED, [length, marks])
    pages = sorted({at // PAGE for at, _ in marks})
    assert got["headers"] == {"length": str(length), "pages": ",".join(map(str, pages))}
    assert got["body"] == sum(min(PAGE, length - p * PAGE) for p in pages) == 2 * PAGE + 100
    assert got["length"] == length and got["nonzero"] == marks
    assert got["refused"] == "the kept snapshot is not whole"

    [key] = snapshot_kept(page)
    kept = page.evaluate("""async (key) => {
      const r = await (await caches.open('sqrt-dk python snapshot /')).match(key);
      return { length: +r.headers.get('X-Snapshot-Length'), pages: r.headers.get('X-Snapshot-Pages'),
               body: (await r.arrayBuffer()).byteLength };
    }""", key)
    listed = [p for span in kept["pages"].split(",") for p in
              range(int(span.split("-")[0]), int(span.split("-")[-1]) + 1)]
    assert listed == sorted(set(listed)) and len(listed) < kept["length"] / PAGE
    assert kept["body"] == sum(min(PAGE, kept["length"] - p * PAGE) for p in listed)
    assert context.errors == []


def test_an_update_of_the_runtime_never_starts_from_the_old_snapshot(contexts, site_dir, tmp_path):
    """A new build whose core archive changed (a new content-hashed name): the next visit starts Python anew,
    keeps the new build's snapshot and drops the old one."""
    live = tmp_path / "live"
    shutil.copytree(site_dir, live)
    server = Server(live, port=free_port())
    try:
        context = contexts()
        page = first_visit(context, server.url + "/step-3/")
        [old] = snapshot_kept(page)
        page.reload()
        assert started_from(page) == "snapshot"

        runtime = live / "assets/sqrt-dk/runtime-files.js"
        core = shipped_archives(live)["CORE"]
        renamed = "core-0123456789ab.zip"
        (live / "assets/sqrt-dk" / renamed).write_bytes((live / "assets/sqrt-dk" / core).read_bytes())
        runtime.write_text(runtime.read_text(encoding="utf-8").replace(core, renamed), encoding="utf-8")
        offline.write_worker(live)
        version = offline.precache(live)["version"]
        page.reload()  # the browser finds the new sw.js; the new version takes over once this page is gone
        page.locator(".sq-offline").filter(has_text=UPDATE).wait_for(timeout=READY_MS)
        page.close()
        until(context.service_workers[-1], SITE_CACHES, ok=lambda names: names == [f"sqrt-dk / {version}"])
        page = context.new_page()
        page.goto(server.url + "/step-3/")
        assert started_from(page) == "start"
        operate_as_cpython(page)
        [new] = until(page, SNAPSHOTS, ok=lambda keys: keys and keys != [old])
        assert renamed in new
        assert context.errors == []
    finally:
        server.close()


def test_an_embed_framed_by_another_origin_keeps_only_what_embeds_need(contexts, server, site_dir, tmp_path):
    """Framed by a page of another origin, the embed registers the worker for embeds alone. (The host is on
    another port of 127.0.0.1, the same site, since Chromium here refuses service workers to frames of
    another site, whose storage it would partition; where they are allowed the page does the same.)"""
    (tmp_path / "course.html").write_text(HOST.replace("{frames}", f'<iframe id="f0" title="figure" width="100%" '
                                          f'height="600" src="{server.url}/embed/score-histogram/?dk=64"></iframe>'),
                                          encoding="utf-8")
    other = Server(tmp_path, port=free_port())
    context = contexts()
    page = context.new_page()
    page.goto(f"{other.url}/course.html")
    frame = page.frame_locator("#f0")
    frame.locator("[data-figure][data-ready='true']").wait_for(timeout=READY_MS)
    embed = next(f for f in page.frames if "/embed/" in f.url)
    embed.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=READY_MS)
    precache = offline.precache(site_dir)
    [cache] = embed.evaluate(SITE_CACHES)
    assert cache == f"sqrt-dk / {precache['version']}"
    kept = embed.evaluate("async (name) => (await (await caches.open(name)).keys())"
                          ".map((r) => new URL(r.url).pathname.slice(1))", cache)
    assert sorted(kept) == sorted([*precache["embed"], "embed/score-histogram/"])
    assert {"assets/vendor/pyodide/pyodide.asm.wasm", "assets/sqrt-dk/figures.js"} <= set(kept)
    assert not [path for path in kept if path.endswith("index.html") or path in ("", "step-3/")]
    assert embed.evaluate(SNAPSHOTS) == [], "no snapshot of Python in a host site's storage"
    assert context.errors == []
    other.close()


# A card frame's first formula, its card opened: the family it is set in, whether the math font's face has loaded
# (from what the frame was given: a face that failed leaves the formula in a fallback font), the formula's width,
# and the frame's stylesheets, each with whether its rules were read.
MATH_SET = """async () => {
  const card = [...document.querySelectorAll('[data-card]')].find((c) => c.querySelector('math'));
  card.querySelector('summary').click();
  await new Promise((done) => requestAnimationFrame(done));
  await document.fonts.ready;
  const math = card.querySelector('math');
  return {family: getComputedStyle(math).fontFamily, width: math.getBoundingClientRect().width,
          face: [...document.fonts].filter((f) => f.family === 'Noto Sans Math').map((f) => f.status),
          sheets: [...document.styleSheets].map((s) => [s.href.split('/').pop(), s.cssRules.length > 0])}; }"""
CARDS_READY = "() => [...document.querySelectorAll('[data-card]')].every((c) => c.dataset.ready === 'true')"


def embed_frame(page):
    """The page's embed frame, found anew after each load of the page."""
    return next(f for f in page.frames if "/embed/" in f.url)


def test_a_card_frame_of_another_origin_works_offline_with_its_math_set(contexts, site, course_dir, tmp_path):
    """A page's recall cards framed by a course page of another origin: the worker for embeds keeps the card page as
    it keeps a figure's (it kept only embed/<figure>/, so offline the frame had no page), and offline its formulas
    are set as they were online, in the math font from the cache."""
    cards = next(p.parent.name for p in sorted((course_dir / "embed/cards").glob("*/index.html"))
                 if "<math" in p.read_text(encoding="utf-8"))
    address = f"embed/cards/{cards}/"
    (tmp_path / "course.html").write_text(HOST.replace("{frames}", f'<iframe id="f0" title="cards" width="100%" '
                                          f'height="800" src="{site.url}/{address}"></iframe>'), encoding="utf-8")
    other = Server(tmp_path, port=free_port())
    try:
        context = contexts()
        page = context.new_page()
        page.goto(f"{other.url}/course.html")
        embed_frame(page).wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=READY_MS)
        [cache] = embed_frame(page).evaluate(SITE_CACHES)
        assert cache.endswith(offline.precache(course_dir)["version"])
        kept = embed_frame(page).evaluate("async (name) => (await (await caches.open(name)).keys())"
                                          ".map((r) => r.url.split('?')[0])", cache)
        assert f"{site.url}/{address}" in kept
        embed_frame(page).wait_for_function(CARDS_READY, timeout=READY_MS)
        online = embed_frame(page).evaluate(MATH_SET)
        assert online["family"].startswith('"Noto Sans Math"') and online["face"] == ["loaded"]
        assert ["figures.css", True] in online["sheets"]

        site.serve(missing=("/",))  # a request that still reached the site would fail
        site.forget()
        page.reload()
        embed_frame(page).wait_for_function(CARDS_READY, timeout=READY_MS)
        assert embed_frame(page).evaluate(MATH_SET) == online
        # Only the browser's own update check for the worker got through.
        assert {path.split("?")[0] for path, status in site.log()} <= {"/sw.js"}
        assert context.errors == []
    finally:
        other.close()
