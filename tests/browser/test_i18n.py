"""A page in Chinese, end to end: the page scripts' words come from messages.js, Python's from the catalog in the
core's archive, and every request carries the page's language. Both are replaced by made-up translations here,
so the test does not wait for the translators."""

from __future__ import annotations

import io
import json
import zipfile

from pycore import i18n, predict
from pycore.sitegen.pack import core_archive
from tests.browser.conftest import READY_MS
from tests.conftest import shipped_archives
from tests.unit.test_predict import PROMPTS

PO = """msgid ""
msgstr ""
"Language: zh\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "At a right angle the two products cancel exactly: {first} and {second} add up to 0."
msgstr "成直角时两个乘积正好抵消：{first} 与 {second} 相加为 0。"

msgid "The arrows are not at a right angle, so the score is positive: {score}."
msgstr "两个箭头不成直角，所以分数为正：{score}。"

msgid "The arrows are not at a right angle, so the score is negative: {score}."
msgstr "两个箭头不成直角，所以分数为负：{score}。"
"""
MESSAGES = {"zh": {"Right.": "对。", "Not quite: the answer is “{words}”.": "不太对：答案是“{words}”。"}}
RECORD = """() => { window.sqSent = []; const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) { window.sqSent.push(message); return post.call(this, message, ...rest); }; }"""
"""Every message the page posts to its worker, kept in window.sqSent."""


def chinese_core(site_dir) -> tuple[str, bytes]:
    """The shipped core's name, and a core of sources under it whose Chinese catalog is PO."""
    source = zipfile.ZipFile(io.BytesIO(core_archive()[1]))
    patched = io.BytesIO()
    with zipfile.ZipFile(patched, "w") as out:
        for item in source.infolist():
            body = source.read(item)
            out.writestr(item, PO.encode() if item.filename == "pycore/locale/zh/LC_MESSAGES/messages.po" else body)
    return shipped_archives(site_dir)["CORE"], patched.getvalue()


def test_a_chinese_page_asks_python_in_chinese_and_shows_both_translations(fresh, server, site_dir, monkeypatch):
    page_name, marker, _ = next(p for p in PROMPTS if p[1].prompt == "right-angle")
    name, core = chinese_core(site_dir)
    server.settings["replace"] = {
        f"/assets/sqrt-dk/{name}": core,
        "/assets/sqrt-dk/messages.js": ("//# allFunctionsCalledOnLoad\nexport const MESSAGES = "
                                        f"{json.dumps(MESSAGES, ensure_ascii=False)};\n").encode()}
    page = fresh()
    page.add_init_script(f"({RECORD})()")
    page.goto(server.url + f"/{page_name.removesuffix('.md')}/")
    block, fig = f"[data-predict='{marker.prompt}']", f"#{marker.figure}"
    page.wait_for_selector(f"{fig}[data-ready='true']", timeout=READY_MS)
    page.evaluate("() => window.sqrtDk.request({op: 'digest', seed: 1, count: 10})")
    sent = page.evaluate("() => window.sqSent.filter((m) => m.type === 'request').map((m) => m.request.lang)")
    assert sent and set(sent) == {"en"}, "an English page asks in English"

    page.evaluate("() => { document.documentElement.lang = 'zh-Hans'; }")
    page.wait_for_selector(f"{block} [data-show-me]:not([disabled])")
    start = json.loads(page.locator(fig).get_attribute("data-state"))
    monkeypatch.setattr(i18n, "catalog", lambda lang: i18n.read_po(PO) if lang == "zh" else {})
    with i18n.using("zh"):
        verdict = predict.judge(marker.prompt, predict.shown_state(marker.prompt, start, marker.show))
    wrong = next(c for c in predict.get(marker.prompt).choices if c != verdict["right"])
    words = page.locator(f"{block} [data-choice='{verdict['right']}']").text_content()
    for choice, said in ((verdict["right"], "对。"), (wrong, f"不太对：答案是“{words}”。")):
        page.evaluate("() => { window.sqSent = []; }")
        page.locator(f"{block} [data-choice='{choice}']").click()
        page.locator(f"{block} [data-show-me]").click()
        page.wait_for_selector(f"{block}[data-outcome]", timeout=60_000)
        assert page.locator(f"{block} [data-why]").text_content() == f"{said} {verdict['why']}"
        assert verdict["why"].startswith(("成直角", "两个箭头"))
        assert page.evaluate("() => window.sqSent.find((m) => m.request && m.request.op === 'predict').request.lang") == "zh"
    assert page.uncaught == []
