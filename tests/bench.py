"""``make bench``: timings of the built site in headless Chromium, printed as one table.

Run after ``make site``. The site is served as a real host serves it (tests/bench_server.py:
compressed, with ETags), and page loads are measured twice: on loopback and under a throttled
profile that Chromium's DevTools protocol emulates (10 Mbit/s down, 40 ms round trip). A trace of
every page with figures at 4x CPU slowdown counts the long tasks run once Python is ready, and a
trace of a repeat visit says where its time goes (tests/bench_trace.py). Then Lighthouse scores every
page with figures, in both languages, against its twin without figures, and three embed pages against
absolute targets (tests/bench_lighthouse.py). Nothing here is asserted; the figures go into notes and
the README.

``python -m tests.bench --lighthouse [PAGE ...]`` runs Lighthouse alone, on the pages named (site
paths such as ``/step-5/`` or ``/zh/step-5/``, each with figures scored beside its twin) or on all of
them; ``--rounds 3`` keeps the best of three runs instead of two.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from tests import bench_build
from tests.bench_lighthouse import ROUNDS, all_pages, figure_pages, mark, scored
from tests.bench_server import Host
from tests.bench_trace import ALL_AWAKE, LONG_TASK_MS, MARK_READY, PHASES, hydration, repeat_phases, traced
from tests.browser_setup import CHROMIUM_ARGS, executable
from tests.conftest import ROOT

SITE = ROOT / "site"
BLANK = """<!doctype html><html><head><meta charset="utf-8"><title>bare loadPyodide</title>
<script type="module">
import { loadPyodide } from "/__stock__/pyodide.mjs";
await loadPyodide({ indexURL: "/__stock__/" });
window.loadedAt = performance.now();
</script></head><body>bare loadPyodide</body></html>"""
THROTTLED = {"offline": False, "latency": 40, "downloadThroughput": 10_000_000 / 8, "uploadThroughput": 5_000_000 / 8}
"""10 Mbit/s down, 5 up, 40 ms added to every round trip: a school network or a good phone connection."""
PYTHON_FILES = ("/assets/vendor/pyodide/", "/assets/sqrt-dk/python_stdlib-", "/assets/sqrt-dk/core-", "/__stock__/")
RUNS = 3
DRAGS = 300
STEPS = 60
READY = """new MutationObserver((_, obs) => {
  if (document.querySelector('[data-figure][data-ready="true"]')) { window.readyAt = performance.now(); obs.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });"""


def pct(values: list[float], p: float) -> float:
    """The p-th percentile by nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def fresh_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    return context, context.new_page()


def throttle(context, page, profile: dict | None) -> None:
    """Emulate the network profile for this page (and the workers it starts) before it navigates."""
    if profile:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", profile)


def wire(log: list[tuple[str, int, int]], python: bool | None = None) -> tuple[int, int]:
    """Raw and on-the-wire bytes of a log, of Python's files only (True), of everything else (False) or all."""
    rows = [r for r in log if python is None or any(r[0].startswith(p) for p in PYTHON_FILES) == python]
    return sum(r[1] for r in rows), sum(r[2] for r in rows)


def bare_load(browser, host: Host, profile: dict | None) -> tuple[float, list]:
    """Stock Pyodide's own start on a blank page, cold: milliseconds and what was sent."""
    context, page = fresh_page(browser)
    throttle(context, page, profile)
    host.take()
    page.goto(f"{host.url}/__bench__/blank.html")
    page.wait_for_function("() => window.loadedAt !== undefined", timeout=120_000)
    value = page.evaluate("() => window.loadedAt")
    context.close()
    return value, host.take()


def settle(host: Host, page) -> list:
    """Wait until the page has sent nothing for a second (a service worker's install included); what was sent."""
    log = host.take()
    quiet = 0
    while quiet < 4:
        page.wait_for_timeout(250)
        more = host.take()
        log += more
        quiet = 0 if more else quiet + 1
    return log


def visit(context, host: Host, profile: dict | None) -> tuple[float, list, object]:
    """Step 2 in a new page of the context until its first figure is interactive: milliseconds, what was sent, the page."""
    page = context.new_page()
    throttle(context, page, profile)
    page.add_init_script(READY)
    host.take()
    page.goto(f"{host.url}/step-2/")
    page.wait_for_function("() => window.readyAt !== undefined", timeout=120_000)
    return page.evaluate("() => window.readyAt"), host.take(), page


def cold_and_repeat(browser, host: Host, profile: dict | None) -> tuple[float, list, list, float]:
    """A first visit to Step 2 in a fresh context, then, once all its downloads are done (the service worker's
    copy of the site for offline use included), a repeat visit in a new page: milliseconds to the first
    figure ready, what was sent until then, what was sent after it, and milliseconds of the repeat visit."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    cold, log, page = visit(context, host, profile)
    later = settle(host, page)
    page.close()
    repeat, _, page = visit(context, host, profile)
    context.close()
    return cold, log, later, repeat


def repeat_breakdown(browser, host: Host) -> dict[str, float] | None:
    """A first visit to Step 2 on loopback, then a traced repeat visit in a new page: where its time goes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(READY)
    page.goto(f"{host.url}/step-2/")
    page.wait_for_function("() => window.readyAt !== undefined", polling=200, timeout=120_000)
    settle(host, page)
    page.wait_for_timeout(2000)  # the worker keeps its snapshot a second after the figures are served
    page.close()
    page = context.new_page()
    page.add_init_script(MARK_READY)

    def go():
        page.goto(f"{host.url}/step-2/")
        page.wait_for_function(ALL_AWAKE, polling=200, timeout=120_000)
    events = traced(browser, page, go)
    started = page.evaluate("() => window.sqrtDk.startedFrom()")
    context.close()
    phases = repeat_phases(events)
    return phases if phases and started == "snapshot" else None


def drag_latency(browser, server) -> tuple[list[float], list[float], list[float]]:
    """Per drag, from the moment the page's handler sees the move: to the new SVG swapped in; to the start
    of the frame that paints it (the time stamp the browser gives that frame's animation callbacks); and to
    those callbacks running.

    Chromium delivers pointer moves aligned to frames, so the clock starts when the page's
    handler sees the move, not at the OS time stamp. A swap that misses the next frame shows up
    as one more frame (16.7 ms) in the second measure. The page applies an answer in a frame's
    callbacks, so the frame that paints a swap is the one whose callbacks made it.
    """
    context, page = fresh_page(browser)
    page.goto(f"{server.url}/step-2/")
    page.wait_for_selector("[data-figure='dot-product'][data-ready='true']", timeout=60_000)
    page.evaluate("""() => {
      const fig = document.querySelector("[data-figure='dot-product']");
      const stage = fig.querySelector('.sq-figure__stage');
      window.lat = { swap: [], paint: [], frame: [] };
      stage.addEventListener('pointermove', () => { window.lastInput = performance.now(); }, true);
      // The frame being rendered, if any: a swap made in its callbacks (wake.js applies answers there) is painted by it.
      let rendering = null;
      const watch = (t) => { rendering = t; setTimeout(() => { rendering = null; }); requestAnimationFrame(watch); };
      requestAnimationFrame(watch);
      new MutationObserver(() => {
        const t0 = window.lastInput, now = performance.now();
        window.lat.swap.push(now - t0);
        const painted = (frameStart) => {
          window.lat.paint.push(frameStart - t0);
          window.lat.frame.push(performance.now() - t0);
        };
        if (rendering !== null) painted(rendering); else requestAnimationFrame(painted);
      }).observe(stage, { childList: true });
    }""")
    box = page.locator("[data-figure='dot-product'] [data-handle='q'] .sq-dot").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(DRAGS):
        count = page.evaluate("() => window.lat.frame.length")
        dx = 40 if i % 2 == 0 else 0
        page.mouse.move(x + dx - 20, y - 20 + (i % 7))
        page.wait_for_function(f"() => window.lat.frame.length > {count}", timeout=10_000)
    page.mouse.up()
    lat = page.evaluate("() => window.lat")
    context.close()
    return lat["swap"], lat["paint"], lat["frame"]


def worker_timings(browser, server) -> tuple[list[float], list[float]]:
    """Pool build to d_k = 64 at n = 4,000 inside Pyodide, and one d_k slider step near 512."""
    context, page = fresh_page(browser)
    page.goto(f"{server.url}/step-3/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=60_000)
    pools = [page.evaluate(f"() => window.sqrtDk.request({{op: 'time-pool', seed: {100 + i}, n: 4000, dk: 64}})")["seconds"]
             * 1000 for i in range(5)]
    state = {"dk": 512, "divisor": "none", "n": 4000, "seed": 1, "xmax": "60", "bins": 80, "ymax": "auto"}
    page.evaluate("(s) => window.sqrtDk.request({op: 'update', figure: 'score-histogram', state: s, event: {type: 'noop'}})", state)
    steps = page.evaluate("""async ([state, count]) => {
      const out = [];
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await window.sqrtDk.request({op: 'update', figure: 'score-histogram', state,
                                     event: {type: 'set', field: 'dk', value: String(512 - (i % 2))}});
        out.push(performance.now() - t0);
      }
      return out;
    }""", [state, STEPS])
    context.close()
    return pools, steps


JUMP = """async (sel) => {
  const f = document.querySelector(sel);
  const input = f.querySelector("input[data-field='dk']");
  const t0 = performance.now();
  let first = null;
  new MutationObserver(() => { if (first === null && JSON.parse(f.dataset.state).dk > 16) first = performance.now() - t0; })
    .observe(f, {attributes: true, attributeFilter: ["data-state"]});
  input.value = "512";
  input.dispatchEvent(new Event("input", {bubbles: true}));
  const drags = [];
  for (let i = 0; ; i++) {
    const a = performance.now();
    await window.sqrtDk.request({op: "update", figure: "dot-product", state: {q: [1.5, 0.5], k: [0.5, 1.5]},
                                 event: {type: "drag", handle: "q", x: 200 + (i % 5), y: 100}});
    drags.push(performance.now() - a);
    if (!f.dataset.busy && JSON.parse(f.dataset.state).dk === 512) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return {first, done: performance.now() - t0, drags};
}"""


def jump(browser, server) -> tuple[float, float, list[float]]:
    """The d_k slider from 16 straight to 512 at n = 10,000 (Step 3's last figure): first redraw and done,
    and the round trips of another figure's drags sent meanwhile through the same worker."""
    context, page = fresh_page(browser)
    page.goto(f"{server.url}/step-3/")
    sel = "#fig-score-histogram-4"
    page.wait_for_selector(f"{sel}[data-ready='true']", timeout=60_000)
    page.locator(f"{sel} summary[data-action='more']").click()  # n is among the figure's More settings
    page.locator(f"{sel} input[data-field='n']").fill("10000")
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).n === 10000 && "
                           "!document.querySelector(s).dataset.busy", arg=sel, timeout=60_000)
    result = page.evaluate(JUMP, sel)
    context.close()
    return result["first"], result["done"], result["drags"]


def training(browser, server) -> tuple[float, float]:
    """One training step of all three divisors at the default size inside Pyodide (median of 5 runs of 20 steps),
    and the default live run on the page, from Run after Reset run to the last step drawn."""
    context, page = fresh_page(browser)
    page.goto(f"{server.url}/train/")
    fig = "[data-figure='train']"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=60_000)
    steps = [page.evaluate(f"() => window.sqrtDk.request({{op: 'time-train', dk: 64, optimizer: 'sgd', seed: {50 + i}, "
                           "steps: 20})")["seconds"] * 1000 / 20 for i in range(5)]
    page.locator(f"{fig} button[data-event='reset']").click()
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).step === 0", arg=fig)
    start = time.perf_counter()
    page.locator(f"{fig} button[data-event='run']").click()
    page.wait_for_function("(s) => JSON.parse(document.querySelector(s).dataset.state).step === 200 && "
                           "!document.querySelector(s).dataset.busy", arg=fig, timeout=120_000)
    run = time.perf_counter() - start
    context.close()
    return statistics.median(steps), run


def mb(pair: tuple[int, int]) -> str:
    return f"{pair[0] / 1e6:.2f} / {pair[1] / 1e6:.2f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", nargs="*", metavar="PAGE", help="run Lighthouse alone, on these pages or all")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="runs of each page and of its twin, best kept")
    args = parser.parse_args()
    if not (SITE / "index.html").exists():
        print("site/ is missing: run 'make site' first (make bench does).", file=sys.stderr)
        return 1
    host = Host(SITE)
    host.extra["/__bench__/blank.html"] = BLANK.encode()
    chromium = executable()
    pages = args.lighthouse or all_pages()
    if args.lighthouse is not None:
        print(scored(host, pages, chromium, args.rounds))
        host.close()
        return 0
    loads = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for name, profile in (("loopback", None), ("throttled", THROTTLED)):
            bare = [bare_load(browser, host, profile) for _ in range(RUNS)]
            visits = [cold_and_repeat(browser, host, profile) for _ in range(RUNS)]
            loads[name] = {"bare": statistics.median(b[0] for b in bare), "stock": wire(bare[-1][1]),
                           "cold": statistics.median(v[0] for v in visits),
                           "repeat": statistics.median(v[3] for v in visits),
                           "first": wire(visits[-1][1]), "page": wire(visits[-1][1], python=False),
                           "later": wire(visits[-1][2])}
        swap, paint, frame = drag_latency(browser, host)
        pools, steps = worker_timings(browser, host)
        first_redraw, jump_done, jump_drags = jump(browser, host)
        train_step, train_run = training(browser, host)
        hydrated = {path: hydration(browser, host, path) for path in figure_pages() if not path.startswith("/zh/")}
        phases = repeat_breakdown(browser, host)
        browser.close()
    scores = scored(host, pages, chromium, args.rounds)
    host.close()
    builds = bench_build.rows(bench_build.measured(2))
    loop, slow = loads["loopback"], loads["throttled"]
    stock = slow["stock"][1] + slow["page"][1]
    rows = [
        ("bare stock loadPyodide, blank page, loopback (median of 3, cold)", f"{loop['bare']:.0f} ms", ""),
        ("first interactive figure, Step 2, loopback (median of 3, cold)", f"{loop['cold']:.0f} ms", ""),
        ("  ratio to bare loadPyodide, loopback", f"{loop['cold'] / loop['bare']:.2f}", "<= 1.0"),
        ("repeat visit, loopback (median of 3)", f"{loop['repeat']:.0f} ms", ""),
        ("  ratio repeat / cold, loopback", f"{loop['repeat'] / loop['cold']:.2f}", "<= 0.35"),
        ("bare stock loadPyodide, throttled (median of 3, cold)", f"{slow['bare']:.0f} ms", ""),
        ("first interactive figure, Step 2, throttled (median of 3, cold)", f"{slow['cold']:.0f} ms", ""),
        ("  ratio to bare loadPyodide, throttled", f"{slow['cold'] / slow['bare']:.2f}", "<= 0.8"),
        ("repeat visit, throttled (median of 3)", f"{slow['repeat']:.0f} ms", ""),
        ("  ratio repeat / cold, throttled", f"{slow['repeat'] / slow['cold']:.2f}", "<= 0.4"),
        ("bytes, stock Pyodide's start, raw / on the wire", mb(slow["stock"]), ""),
        ("bytes, Step 2's own files (no Python), raw / on the wire", mb(slow["page"]), "<= 300 KB on the wire"),
        ("bytes, first visit to Step 2 until its figure is ready, raw / on the wire", mb(slow["first"]), ""),
        ("  ratio to stock Pyodide plus the page, on the wire", f"{slow['first'][1] / stock:.2f}", "<= 0.7"),
        ("bytes after that: the rest of the site, kept for offline use, raw / on the wire", mb(slow["later"]), ""),
        (f"drag: input -> SVG swapped, p50 / p95 of {len(swap)}", f"{pct(swap, 50):.1f} / {pct(swap, 95):.1f} ms", ""),
        ("drag: input -> start of the frame that paints it, p50 / p95", f"{pct(paint, 50):.1f} / {pct(paint, 95):.1f} ms",
         "p95 <= 16.7"),
        ("drag: input -> that frame's callbacks, p50 / p95", f"{pct(frame, 50):.1f} / {pct(frame, 95):.1f} ms", ""),
        (f"d_k slider step at 512, p50 / p95 of {len(steps)}", f"{pct(steps, 50):.1f} / {pct(steps, 95):.1f} ms", "p95 <= 16"),
        ("pool to d_k = 64, n = 4,000, in Pyodide (median of 5)", f"{statistics.median(pools):.0f} ms", "<= 300"),
        ("jump d_k 16 -> 512 at n = 10,000: first redraw", f"{first_redraw:.0f} ms", "<= 300"),
        ("jump d_k 16 -> 512 at n = 10,000: done", f"{jump_done / 1000:.1f} s", ""),
        (f"another figure's drag during the jump, p50 / p95 of {len(jump_drags)}",
         f"{pct(jump_drags, 50):.0f} / {pct(jump_drags, 95):.0f} ms", "p95 <= 100"),
        ("one training step, three divisors, d_k = 64, in Pyodide", f"{train_step:.1f} ms", "<= 10"),
        ("default live training run, Run to last step drawn", f"{train_run:.1f} s", "<= 15"),
        *builds,
    ]
    for i, name in enumerate(PHASES if phases else ()):
        rows.insert(5 + i, (f"  repeat visit, loopback, traced: {name}",
                            f"{phases[name]:.0f} ms {phases[name] / phases['total']:4.0%}", ""))
    if phases:
        rows.insert(5 + len(PHASES), ("  of which wasm functions compiled lazily as Python runs",
                                      f"{phases['lazy wasm compile']:.0f} ms {phases['lazy wasm compile'] / phases['total']:4.0%}", ""))
    ours = sum(t["whose"] == "ours" for tasks in hydrated.values() for t in tasks)
    rows.append((f"our long tasks (> {LONG_TASK_MS} ms, 4x CPU) after Python is ready, {len(hydrated)} pages with figures",
                 mark(f"{ours}", ours == 0), "0"))
    rows.append(("  all long tasks after Python is ready: ours / the theme's / no script",
                 " / ".join(str(sum(t["whose"] == w for ts in hydrated.values() for t in ts)) for w in ("ours", "theme", "none")), ""))
    width = max(len(r[0]) for r in rows)
    print(f"\n{'measure'.ljust(width)}  {'value':>18}  target")
    for name, value, note in rows:
        print(f"{name.ljust(width)}  {value:>18}  {note}")
    for path, tasks in hydrated.items():
        for t in tasks:
            print(f"  long task after Python is ready on {path}: {t['ms']:.0f} ms at +{t['start']:.0f} ms, scripts: {t['whose']}")
    print("\nLighthouse 12.2.3, default mobile settings, devtools throttling, each page with figures against its twin:\n")
    print(scores)
    return 0



if __name__ == "__main__":
    sys.exit(main())
