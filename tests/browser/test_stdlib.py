"""Every figure on the standard library and the core the site ships: trimmed to what it imports, and precompiled.

The browser's answers to the same requests must equal CPython's, byte for byte, so a module
missing from the trimmed library, or bytecode that behaves differently, fails here.
"""

from __future__ import annotations

import json

from pycore import bridge, figures
from tests.browser.conftest import READY_MS
from tests.conftest import shipped_archives


def requests() -> list[dict]:
    """For every figure: the default and the sample state drawn, each parameter set to its sample value
    on the default, a button pressed, its Python snippet, and bad input."""
    out = []
    for figure_id, module in figures.FIGURES.items():
        sample = {s.name: s.example() for s in module.PARAMS}
        default = figures.state_json(module.State())
        out += [{"op": "render", "figure": figure_id, "params": {}},
                {"op": "render", "figure": figure_id, "params": sample},
                {"op": "render", "figure": figure_id, "params": {"no-such-field": "1"}},
                {"op": "snippet", "figure": figure_id, "state": figures.state_json(module.parse(sample))}]
        out += [{"op": "update", "figure": figure_id, "state": default,
                 "event": {"type": "set", "field": s.name, "value": s.example()}} for s in module.PARAMS]
        out += [{"op": "update", "figure": figure_id, "state": default, "event": {"type": c.name}}
                for c in module.CONTROLS if c.kind == "button"]
    return out


def test_every_figure_answers_as_cpython_does_on_the_shipped_library(browser, browser_context_args, server, site_dir):
    archives = shipped_archives(site_dir)
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    fetched = []
    context.on("request", lambda r: fetched.append(r.url.removeprefix(server.url)))
    page.goto(server.url + "/step-2/")
    page.wait_for_selector("[data-figure][data-ready='true']", timeout=READY_MS)
    assert {"/assets/sqrt-dk/" + archives["STDLIB"], "/assets/sqrt-dk/" + archives["CORE"]} <= set(fetched)
    assert not [url for url in fetched if url.endswith(("python_stdlib.zip", "pyodide-lock.json"))], fetched
    sent = requests()
    got = page.evaluate("async (all) => { const out = []; for (const r of all) out.push(await window.sqrtDk.request(r)); "
                        "return out; }", sent)
    assert len(got) == len(sent) > 4 * len(figures.FIGURES)
    context.close()
    for request, answer in zip(sent, got):
        assert answer == json.loads(bridge.handle(json.dumps(request))), request
