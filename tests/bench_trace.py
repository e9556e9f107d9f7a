"""Chromium traces for ``make bench``: taking them (a page's hydration on a phone's screen at 4x), and reading
them: the long tasks a page runs once Python is ready, and where a repeat visit's time goes. The readers are
pure functions of a trace's events (Chrome's trace event format), so the unit tests can feed them small
made-up traces."""

from __future__ import annotations

import json
from bisect import bisect_left

LONG_TASK_MS = 50
"""A task longer than this blocks input: the threshold of the Long Tasks API and of Lighthouse's TBT."""
OURS = "/assets/sqrt-dk/"
"""Where the site's own scripts live; a script elsewhere is the theme's (or the browser's)."""
SCRIPT_EVENTS = {"FunctionCall", "EvaluateScript", "v8.evaluateModule", "v8.compileModule", "TimerFire",
                 "FireAnimationFrame", "EventDispatch", "FireIdleCallback"}
"""Events that run a script; those whose data names a script address say whose it is."""
READY_MARK = "python-ready"
"""The User Timing mark the bench sets in the page when the first figure is marked ready."""
WORKER_MARKS = ("sqrt-dk:pyodide", "sqrt-dk:core")
"""runtime.js's marks in the worker: Pyodide up (wasm instantiated, snapshot restored), the bridge imported."""
PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75, "is_mobile": True, "has_touch": True}
"""Lighthouse's mobile screen (a Moto G Power)."""
TRACED = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "blink.user_timing",
          "v8.execute", "v8.wasm", "disabled-by-default-v8.wasm", "loading"]
MARK_READY = f"""new MutationObserver((_, obs) => {{
  if (document.querySelector('[data-figure][data-ready="true"]')) {{ performance.mark("{READY_MARK}"); obs.disconnect(); }}
}}).observe(document, {{ subtree: true, attributes: true, attributeFilter: ["data-ready"] }});"""
ALL_AWAKE = "() => [...document.querySelectorAll('[data-figure]')].every((f) => f.dataset.ready === 'true' && !f.dataset.busy)"


def traced(browser, page, go) -> list[dict]:
    """Chromium's trace events while ``go()`` runs in the page."""
    browser.start_tracing(page=page, categories=TRACED)
    go()
    return json.loads(browser.stop_tracing())["traceEvents"]


def hydration(browser, host, path: str) -> list[dict]:
    """A cold load of the page on a phone-sized screen at 4x CPU slowdown (loopback), traced until every figure
    is awake and idle and 3 s more (Python's snapshot, the service worker's install): its long tasks after the
    first figure is marked ready. The bench polls every half second, not every frame, so it adds no frames."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.add_init_script(MARK_READY)

    def go():
        page.goto(host.url + path)
        page.wait_for_function(ALL_AWAKE, polling=500, timeout=180_000)
        page.wait_for_timeout(3000)
    events = traced(browser, page, go)
    context.close()
    return long_tasks_after_ready(events)


def _threads(events: list[dict]) -> dict[tuple[int, int], str]:
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events
            if e.get("ph") == "M" and e.get("name") == "thread_name"}


def _mark(events: list[dict], name: str) -> dict | None:
    return next((e for e in events if e.get("name") == name and e.get("ph") in ("R", "I", "n", "b")), None)


def _url(event: dict) -> str:
    data = (event.get("args") or {}).get("data") or {}
    return str(data.get("url") or "")


def _top_level_tasks(events: list[dict], thread: tuple[int, int]) -> list[dict]:
    """The thread's tasks (RunTask), outermost only, in order of start."""
    tasks = sorted((e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X"
                    and e.get("name") == "RunTask"), key=lambda e: (e["ts"], -e.get("dur", 0)))
    out, end = [], -1
    for task in tasks:
        if task["ts"] >= end:
            out.append(task)
            end = task["ts"] + task.get("dur", 0)
    return out


def whose(task: dict, inside: list[dict]) -> str:
    """"ours" if a script of the site's ran in the task, "theme" if only other scripts did, "none" if no script
    did (style, layout, paint, garbage collection)."""
    urls = [_url(e) for e in inside if e.get("name") in SCRIPT_EVENTS and _url(e)]
    if any(OURS in url for url in urls):
        return "ours"
    return "theme" if urls else "none"


def long_tasks_after_ready(events: list[dict], threshold_ms: float = LONG_TASK_MS) -> list[dict]:
    """The page's main-thread tasks longer than the threshold that end after the ready mark, each as
    {"start": ms after the mark, "ms": its length, "whose": see whose()}. Empty if the ready mark is missing."""
    mark = _mark(events, READY_MARK)
    if mark is None:
        return []
    thread = (mark["pid"], mark["tid"])
    mine = sorted((e for e in events if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X"),
                  key=lambda e: e["ts"])
    starts = [e["ts"] for e in mine]
    found = []
    for task in _top_level_tasks(events, thread):
        end = task["ts"] + task.get("dur", 0)
        if task.get("dur", 0) / 1000 <= threshold_ms or end < mark["ts"]:
            continue
        inside = [e for e in mine[bisect_left(starts, task["ts"]):bisect_left(starts, end)] if e is not task]
        found.append({"start": (task["ts"] - mark["ts"]) / 1000, "ms": task["dur"] / 1000,
                      "whose": whose(task, inside)})
    return found


PHASES = ("the page, until our worker starts", "Pyodide's JavaScript", "wasm: compile and instantiate",
          "snapshot restore (Pyodide's bootstrap)", "the core: its archive on the path, the bridge imported",
          "Python ready -> first figure awake")
"""The repeat visit's spans, in order; together they are the whole time to the first interactive figure."""


def repeat_phases(events: list[dict]) -> dict[str, float] | None:
    """Where a repeat visit's time goes, in ms from navigation, as consecutive spans (PHASES), plus "total"
    and "lazy wasm compile" (functions compiled as Python first runs them, inside the later spans).
    None if the trace lacks a mark it needs."""
    nav = min((e["ts"] for e in events if e.get("name") == "navigationStart"), default=None)
    ready = _mark(events, READY_MARK)
    pyodide, core = (_mark(events, name) for name in WORKER_MARKS)
    if nav is None or ready is None or pyodide is None or core is None:
        return None
    worker = (pyodide["pid"], pyodide["tid"])
    mine = sorted((e for e in events if (e.get("pid"), e.get("tid")) == worker and e.get("ph") in ("X", "I")),
                  key=lambda e: e["ts"])
    started = mine[0]["ts"] if mine else pyodide["ts"]
    streaming = next((e["ts"] for e in mine if e["name"] == "wasm.StartStreamingCompilation"), None)
    finish = next((e for e in mine if e["name"] == "wasm.FinishStreaming"), None)
    if streaming is None or finish is None:
        return None
    instantiated = next((e["ts"] + e.get("dur", 0) for e in mine
                         if e["name"] == "wasm.AsyncInstantiate" and e["ts"] >= finish["ts"]), finish["ts"] + finish.get("dur", 0))
    bounds = [nav, started, streaming, instantiated, pyodide["ts"], core["ts"], ready["ts"]]
    spans = {name: (b - a) / 1000 for name, a, b in zip(PHASES, bounds, bounds[1:])}
    lazy = sum(e.get("dur", 0) for e in mine if e["name"] == "wasm.CompileLazy" and e["ts"] <= ready["ts"]) / 1000
    return {**spans, "total": (ready["ts"] - nav) / 1000, "lazy wasm compile": lazy}
