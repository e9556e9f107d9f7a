"""``make bench``: timings of the built site in headless Chromium, printed as one table.

Run after ``make site``. Nothing here is asserted; the figures go into notes and the README.
"""

from __future__ import annotations

import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

from tests.browser_setup import executable
from tests.conftest import ROOT, Server

SITE = ROOT / "site"
BLANK = """<!doctype html><html><head><meta charset="utf-8"><title>bare loadPyodide</title>
<script type="module">
import { loadPyodide } from "/assets/vendor/pyodide/pyodide.mjs";
await loadPyodide({ indexURL: "/assets/vendor/pyodide/" });
window.loadedAt = performance.now();
</script></head><body>bare loadPyodide</body></html>"""
RUNS = 3
DRAGS = 300
STEPS = 60


def pct(values: list[float], p: float) -> float:
    """The p-th percentile by nearest rank."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def build_seconds() -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", out], cwd=ROOT, check=True,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        return time.perf_counter() - start


def fresh_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    return context, context.new_page()


def bare_load(browser, server) -> float:
    context, page = fresh_page(browser)
    page.route(f"{server.url}/__bench__/blank.html", lambda route: route.fulfill(body=BLANK, content_type="text/html"))
    page.goto(f"{server.url}/__bench__/blank.html")
    page.wait_for_function("() => window.loadedAt !== undefined", timeout=60_000)
    value = page.evaluate("() => window.loadedAt")
    context.close()
    return value


def first_interactive(browser, server) -> tuple[float, int, int]:
    """Milliseconds from navigation to the first figure marked ready; bytes beyond Pyodide's files,
    as served (this server does not compress) and as gzip would send them."""
    context, page = fresh_page(browser)
    sizes: list[tuple[int, int]] = []

    def on_response(response):
        if "/assets/vendor/pyodide/" not in response.url:
            try:
                body = response.body()
            except Exception:  # redirects and aborted requests have no body
                return
            sizes.append((len(body), len(gzip.compress(body))))

    page.on("response", on_response)
    page.add_init_script("""
      new MutationObserver((_, obs) => {
        if (document.querySelector('[data-figure][data-ready="true"]')) { window.readyAt = performance.now(); obs.disconnect(); }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });""")
    page.goto(f"{server.url}/step-2/")
    page.wait_for_function("() => window.readyAt !== undefined", timeout=60_000)
    page.wait_for_timeout(300)
    value = page.evaluate("() => window.readyAt")
    context.close()
    return value, sum(raw for raw, _ in sizes), sum(packed for _, packed in sizes)


def drag_latency(browser, server) -> tuple[list[float], list[float]]:
    """Per drag: input event handled to SVG swapped, and to the next animation frame after it.

    Chromium delivers pointer moves aligned to frames, so the clock starts when the page's
    handler sees the move, not at the OS time stamp.
    """
    context, page = fresh_page(browser)
    page.goto(f"{server.url}/step-2/")
    page.wait_for_selector("[data-figure='dot-product'][data-ready='true']", timeout=60_000)
    page.evaluate("""() => {
      const fig = document.querySelector("[data-figure='dot-product']");
      const stage = fig.querySelector('.sq-figure__stage');
      window.lat = { swap: [], frame: [] };
      stage.addEventListener('pointermove', () => { window.lastInput = performance.now(); }, true);
      new MutationObserver(() => {
        const t0 = window.lastInput, now = performance.now();
        window.lat.swap.push(now - t0);
        requestAnimationFrame(() => window.lat.frame.push(performance.now() - t0));
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
    return lat["swap"], lat["frame"]


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


def main() -> int:
    if not (SITE / "index.html").exists():
        print("site/ is missing: run 'make site' first (make bench does).", file=sys.stderr)
        return 1
    server = Server(SITE)
    chromium = executable()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--disable-background-networking"])
        bare = statistics.median(bare_load(browser, server) for _ in range(RUNS))
        first = [first_interactive(browser, server) for _ in range(RUNS)]
        ready = statistics.median(f[0] for f in first)
        extra = max(f[1] for f in first)
        extra_gzip = max(f[2] for f in first)
        swap, frame = drag_latency(browser, server)
        pools, steps = worker_timings(browser, server)
        first_redraw, jump_done, jump_drags = jump(browser, server)
        train_step, train_run = training(browser, server)
        browser.close()
    server.close()
    build = build_seconds()
    rows = [
        ("bare loadPyodide, blank page (median of 3, cold)", f"{bare:.0f} ms", ""),
        ("first interactive figure, Step 2 (median of 3, cold)", f"{ready:.0f} ms", ""),
        ("ratio first figure / bare load", f"{ready / bare:.2f}", "target <= 1.1"),
        (f"drag: input -> SVG swapped, p50 / p95 of {len(swap)}", f"{pct(swap, 50):.1f} / {pct(swap, 95):.1f} ms", "target p95 <= 4"),
        ("drag: input -> next frame, p50 / p95", f"{pct(frame, 50):.1f} / {pct(frame, 95):.1f} ms", ""),
        (f"d_k slider step at 512, p50 / p95 of {len(steps)}", f"{pct(steps, 50):.1f} / {pct(steps, 95):.1f} ms", "target p95 <= 16"),
        ("pool to d_k = 64, n = 4,000, in Pyodide (median of 5)", f"{statistics.median(pools):.0f} ms", "target <= 300"),
        ("jump d_k 16 -> 512 at n = 10,000: first redraw", f"{first_redraw:.0f} ms", "target <= 300"),
        ("jump d_k 16 -> 512 at n = 10,000: done", f"{jump_done / 1000:.1f} s", ""),
        (f"another figure's drag during the jump, p50 / p95 of {len(jump_drags)}",
         f"{pct(jump_drags, 50):.0f} / {pct(jump_drags, 95):.0f} ms", "target p95 <= 100"),
        ("one training step, three divisors, d_k = 64, in Pyodide", f"{train_step:.1f} ms", "target <= 10"),
        ("default live training run, Run to last step drawn", f"{train_run:.1f} s", "target <= 15"),
        ("bytes per page beyond Pyodide's files (Step 2), raw / gzip", f"{extra / 1024:.0f} / {extra_gzip / 1024:.0f} KB",
         "target <= 300 KB"),
        ("mkdocs build --strict", f"{build:.1f} s", "target <= 10 s"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"\n{'measure'.ljust(width)}  {'value':>16}  note")
    for name, value, note in rows:
        print(f"{name.ljust(width)}  {value:>16}  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
