"""make bench's tables and traces: a mark on each number that misses the issue's targets (absolute for the embed
pages, against its twin without figures for a page with figures), the order of a page's and its twin's runs and
how they are paired, which pages have a twin, and what the traces of a page's hydration and of a repeat visit are
read to say."""

from __future__ import annotations

from urllib.request import urlopen

from pycore.sitegen import pack
from tests.bench_lighthouse import (FIGURE, LIGHTHOUSE_TARGETS, against_twin, best, interleaved, lighthouse_table,
                                    serve_twins, twin_table, without_figures)
from tests.bench_server import Host
from tests.bench_trace import PHASES, long_tasks_after_ready, repeat_phases


def row(**changes) -> dict:
    """A result that meets every target exactly, with the given fields changed."""
    t = LIGHTHOUSE_TARGETS
    base = {"page": "/step-5/", "performance": t["performance"], "fcp": 1700, "lcp": t["lcp"], "tbt": t["tbt"],
            "cls": t["cls"], "accessibility": 100, "best-practices": 100, "seo": 100, "benchmarkIndex": 1076,
            "failed": [], "error": None}
    return {**base, **changes}


def cells(table: str, page: str) -> list[str]:
    line = next(line for line in table.splitlines() if line.startswith(page + " "))
    return line.split()


def test_a_page_at_every_target_has_no_mark_and_shows_the_machines_cpu_index():
    table = lighthouse_table([row()])
    assert cells(table, "/step-5/") == ["/step-5/", "95", "1.7", "s", "2.5", "s", "200", "ms", "0.050",
                                        "100", "100", "100", "1076"]


def test_each_number_past_its_target_is_marked_and_the_failed_audits_are_listed():
    table = lighthouse_table([row(page="/long-rows/", performance=94, lcp=2501, tbt=201, cls=0.051, seo=99,
                                  benchmarkIndex=812, failed=["total-blocking-time"])])
    assert cells(table, "/long-rows/") == ["/long-rows/", "94", "*", "1.7", "s", "2.5", "s", "*", "201", "ms", "*",
                                           "0.051", "*", "100", "100", "99", "*", "812", "total-blocking-time"]


def test_a_page_lighthouse_could_not_load_says_why_instead_of_numbers():
    table = lighthouse_table([{"page": "/embed/x/", "error": "NO_FCP: the page painted nothing"}])
    assert cells(table, "/embed/x/") == ["/embed/x/", "error", "NO_FCP:", "the", "page", "painted", "nothing"]


# The run against the twins: the order of the runs, which runs each page is compared with, the marks.

def run(page: str, **changes) -> dict:
    """One Lighthouse result of a page, as tests/lighthouse.mjs prints it, with the given fields changed."""
    return {**row(page=page, performance=70, tbt=1000, mainThread=4000, elements=800, lcp=2000, cls=0.01), **changes}


def test_each_page_runs_beside_its_twin_first_and_second_in_turn():
    assert interleaved(["/a/", "/zh/a/"], rounds=3) == [
        "/a/", "/a/without-figures/", "/zh/a/", "/zh/a/without-figures/",
        "/a/without-figures/", "/a/", "/zh/a/without-figures/", "/zh/a/",
        "/a/", "/a/without-figures/", "/zh/a/", "/zh/a/without-figures/"]


def test_each_page_is_compared_with_the_best_of_its_own_twins_runs():
    order = interleaved(["/a/", "/zh/a/"], rounds=2)
    tbt = {"/a/": (1200, 900), "/a/without-figures/": (800, 1000), "/zh/a/": (1500, 1400),
           "/zh/a/without-figures/": (300, 700)}
    seen: dict[str, int] = {}
    results = []
    for page in order:
        results.append(run(page, tbt=tbt[page][seen.get(page, 0)]))
        seen[page] = seen.get(page, 0) + 1
    (a, twin_a), (zh, twin_zh) = against_twin(order, results)
    assert (a["page"], a["tbt"], twin_a["page"], twin_a["tbt"]) == ("/a/", 900, "/a/without-figures/", 800)
    assert (zh["page"], zh["tbt"], twin_zh["page"], twin_zh["tbt"]) == ("/zh/a/", 1400, "/zh/a/without-figures/", 300)


def test_a_page_keeps_its_best_of_two_measure_by_measure():
    picked = best([run("/a/", performance=60, tbt=900, benchmarkIndex=1000, failed=["x", "y"]),
                   run("/a/", performance=66, tbt=1300, benchmarkIndex=1400, failed=["y"])])
    assert (picked["performance"], picked["tbt"], picked["cpu"], picked["failed"]) == (66, 900, (1000, 1400), ["y"])


def test_a_page_at_every_target_against_its_twin_has_no_mark():
    twin = best([run("/step-5/without-figures/", performance=70, tbt=1000, mainThread=4000, elements=853)])
    page = best([run("/step-5/", performance=67, tbt=1150, mainThread=6000, lcp=2600, cls=0.05, elements=1627)])
    assert cells(twin_table([(page, twin)]), "/step-5/") == [
        "/step-5/", "67", "70", "-3", "1150", "ms", "1000", "ms", "1.15", "6.0", "s", "4.0", "s", "1.50",
        "2.6", "s", "0.050", "100", "100", "100", "1627/853", "1076-1076"]


def test_each_miss_against_the_twin_is_marked():
    twin = best([run("/zh/step-5/without-figures/", performance=70, tbt=1000, benchmarkIndex=900)])
    page = best([run("/zh/step-5/", performance=66, tbt=1151, cls=0.051, accessibility=98, benchmarkIndex=1200,
                     failed=["total-blocking-time"])])
    assert cells(twin_table([(page, twin)]), "/zh/step-5/") == [
        "/zh/step-5/", "66", "70", "-4", "*", "1151", "ms", "1000", "ms", "1.15", "*", "4.0", "s", "4.0", "s", "1.00",
        "2.0", "s", "0.051", "*", "98", "*", "100", "100", "800/800", "900-1200", "total-blocking-time"]


def test_a_page_or_twin_without_numbers_says_why_in_the_twin_table():
    failed = best([{"page": "/step-5/without-figures/", "url": "x", "error": "NO_FCP: the page painted nothing"}])
    table = twin_table([(best([run("/step-5/")]), failed)])
    assert cells(table, "/step-5/") == ["/step-5/", "error", "NO_FCP:", "the", "page", "painted", "nothing"]


def test_a_page_has_a_twin_when_it_has_a_figure_element_marked_as_one():
    assert FIGURE.search('<p>x</p><figure class="sq-figure" id="fig-a" data-figure="a">')
    assert not FIGURE.search('<figure class="plain"><img alt=""></figure><span data-live="fig-a:dk"></span>')
    assert not FIGURE.search('<div data-figure="a"></div>')


# Traces: the long tasks after Python is ready, and whose scripts ran in them; the repeat visit's spans.

PAGE, WORKER = (1, 1), (1, 7)


def event(name: str, ts: float, dur: float = 0.0, thread=PAGE, url: str | None = None, ph: str = "X") -> dict:
    """A trace event at ts ms lasting dur ms (the trace format counts microseconds)."""
    e = {"name": name, "ph": ph, "ts": ts * 1000, "dur": dur * 1000, "pid": thread[0], "tid": thread[1]}
    if url is not None:
        e["args"] = {"data": {"url": url}}
    return e


def test_long_tasks_after_the_ready_mark_are_counted_with_whose_scripts_ran():
    events = [
        event("RunTask", 0, 400), event("FunctionCall", 10, 300, url="http://h/assets/javascripts/bundle.js"),
        event("python-ready", 1000, ph="I"),
        event("RunTask", 990, 60), event("FunctionCall", 995, 50, url="http://h/assets/sqrt-dk/bridge-client.js"),
        event("RunTask", 1100, 70), event("FunctionCall", 1105, 30, url="http://h/assets/javascripts/bundle.js"),
        event("RunTask", 1200, 80), event("Paint", 1210, 60),
        event("RunTask", 1300, 50), event("FunctionCall", 1301, 49, url="http://h/assets/sqrt-dk/wake.js"),
        event("RunTask", 1400, 90, thread=WORKER),
    ]
    assert long_tasks_after_ready(events) == [{"start": -10, "ms": 60, "whose": "ours"},
                                              {"start": 100, "ms": 70, "whose": "theme"},
                                              {"start": 200, "ms": 80, "whose": "none"}]


def test_without_the_ready_mark_no_task_is_counted():
    assert long_tasks_after_ready([event("RunTask", 0, 400)]) == []


def test_the_repeat_visit_is_split_at_the_worker_start_the_wasm_and_the_marks():
    events = [
        event("navigationStart", 0, ph="I"),
        event("RunTask", 800, 5, thread=WORKER),
        event("wasm.StartStreamingCompilation", 1100, thread=WORKER),
        event("wasm.FinishStreaming", 1180, 20, thread=WORKER),
        event("wasm.AsyncInstantiate", 1210, 30, thread=WORKER),
        event("wasm.CompileLazy", 1300, 10, thread=WORKER),
        event("sqrt-dk:pyodide", 1400, thread=WORKER, ph="R"),
        event("wasm.CompileLazy", 1450, 15, thread=WORKER),
        event("sqrt-dk:core", 1500, thread=WORKER, ph="R"),
        event("python-ready", 1560, ph="I"),
    ]
    assert repeat_phases(events) == {
        "the page, until our worker starts": 800, "Pyodide's JavaScript": 300, "wasm: compile and instantiate": 140,
        "snapshot restore (Pyodide's bootstrap)": 160, "the core: its archive on the path, the bridge imported": 100,
        "Python ready -> first figure awake": 60, "total": 1560, "lazy wasm compile": 25}
    assert list(PHASES) == list(repeat_phases(events))[:len(PHASES)]


def test_a_repeat_visit_without_the_workers_marks_is_not_split():
    assert repeat_phases([event("navigationStart", 0, ph="I"), event("python-ready", 1560, ph="I")]) is None


def test_a_run_that_stopped_with_an_error_is_left_out_even_with_scores():
    """Lighthouse reports the category scores of a run that hit a runtime error, but not its measures."""
    stopped = {"page": "/step-5/", "url": "x", "performance": 0, "accessibility": 100, "best-practices": 100,
               "seo": 100, "failed": [], "benchmarkIndex": 900, "error": "PROTOCOL_TIMEOUT"}
    picked = best([stopped, run("/step-5/", performance=64, tbt=1260, benchmarkIndex=1200)])
    assert (picked["performance"], picked["tbt"], picked["runs"], picked["cpu"]) == (64, 1260, 1, (1200, 1200))
    assert best([stopped])["error"] == "PROTOCOL_TIMEOUT"


# A page's twin without figures, for --without-figures.

PAGE = ('<html><head><title>t</title></head><body><script id="__config" type="application/json">'
        '{"annotate": null, "base": "..", "search": "../s.js"}</script><p>one</p>'
        '<figure class="sq-figure" data-figure="a"><svg><text>x</text></svg><figcaption>a</figcaption></figure>'
        "<p>two</p>"
        '<figure class="sq-figure" data-figure="b"><figure><img alt="inner"></figure><input type="text"></figure>'
        '<figure class="plain"><img alt="kept"><figcaption>kept</figcaption></figure>'
        "<details><summary>more</summary><figure data-figure='c'>c</figure><p>three</p></details></body></html>")


def test_the_twin_drops_each_figure_whole_and_keeps_the_rest_of_the_page_and_materials_root():
    assert without_figures(PAGE, "/step-5/") == (
        '<html><head><base href="/step-5/"><title>t</title></head><body><script id="__config" type="application/json">'
        '{"annotate": null, "base": "../..", "search": "../s.js"}</script><p>one</p><p>two</p>'
        '<figure class="plain"><img alt="kept"><figcaption>kept</figcaption></figure>'
        "<details><summary>more</summary><p>three</p></details></body></html>")


def test_the_twin_starts_python_only_if_recall_cards_are_left_on_it():
    """Without Python the twin keeps the head's script where it was (Material's storage helpers are in it)."""
    start = pack.start_links("../")
    page = f"<html><head>{start}<title>t</title></head><body><figure data-figure='a'>a</figure>{{}}</body></html>"
    assert without_figures(page.format(""), "/") == (
        '<html><head><base href="/"><script src="../assets/sqrt-dk/head.js"></script><title>t</title></head>'
        '<body></body></html>')
    cards = "<div data-card='c'>card</div>"
    assert without_figures(page.format(cards), "/step-5/") == (
        f'<html><head><base href="/step-5/">{start}<title>t</title></head><body>{cards}</body></html>')


def test_a_page_without_figures_is_its_own_twin_but_for_the_base():
    page = "<html><head></head><body><figure><img alt='photo'></figure><p>text</p></body></html>"
    assert without_figures(page, "/references/") == page.replace("<head>", '<head><base href="/references/">')


def test_the_host_serves_the_twin_of_a_page_in_either_language(tmp_path):
    for folder, base in (("step-5", "../"), ("zh/step-5", "../../zh/")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "index.html").write_text(
            f'<html><head></head><body><script id="__config" type="application/json">{{"base": "{base}"}}</script>'
            '<figure data-figure="a"><input type="text"></figure><p>text</p></body></html>', encoding="utf-8")
    host = Host(tmp_path)
    try:
        serve_twins(host, ["/step-5/", "/zh/step-5/"], tmp_path)
        twin = urlopen(host.url + "/zh/step-5/without-figures/").read().decode()
        page = urlopen(host.url + "/zh/step-5/").read().decode()
    finally:
        host.close()
    assert "data-figure" in page
    assert twin == ('<html><head><base href="/zh/step-5/"></head><body><script id="__config" type="application/json">'
                    '{"base": "../../../zh/"}</script><p>text</p></body></html>')


def test_the_build_rows_give_each_run_and_both_languages_ratio_of_the_medians_to_english_alone():
    from tests.bench_build import rows

    times = {("warm", "English alone"): [(10.0, 8.0), (12.0, 9.0), (11.0, 7.0)],
             ("warm", "both languages"): [(13.0, 10.0), (14.0, 12.0), (15.0, 11.0)],
             ("cold", "English alone"): [(40.0, 30.0), (44.0, 32.0), (42.0, 34.0)],
             ("cold", "both languages"): [(42.0, 33.0), (50.0, 36.0), (46.0, 35.0)]}
    table = {name: (value, target) for name, value, target in rows(times)}
    assert table["mkdocs build --strict, warm, English alone: 3 runs, wall s (cpu s median)"] == ("10.0, 12.0, 11.0 (8.0)", "")
    assert table["  ratio both languages / English alone, warm, wall (cpu)"] == ("1.27 (1.38)", "<= 1.35")
    assert table["  ratio both languages / English alone, cold, wall (cpu)"] == ("1.10 (1.09)", "<= 1.3")
