"""The language of what the site says: the catalog reader against Babel's, the current language, the bridge's
``lang`` and the templates' words, and the page scripts' ``t``."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po as babel_read_po

from pycore import bridge, figures, i18n
from pycore.sitegen import catalogs, pack
from pycore.sitegen.render import ENV
from tests.conftest import ROOT

SCRIPTS = ROOT / "site_src" / "assets" / "sqrt-dk"

HAND_MADE = r'''# A translator's comment
msgid ""
msgstr ""
"Project-Id-Version: test 1\n"
"Language: zh\n"
"Plural-Forms: nplurals=1; plural=0;\n"
"Content-Type: text/plain; charset=utf-8\n"

#: pycore/review.py:1
msgid "Due now."
msgstr "现在到期。"

#, fuzzy
msgid "Right."
msgstr "对。"

#: templates/figure.html.j2:3
msgid "Reset"
msgstr ""

#. An extracted comment
#, python-format
msgid "Step %(current)s of %(total)s"
msgstr "第 %(current)s 步，共 %(total)s 步"

msgid ""
"A message on two lines, "
"joined."
msgstr ""
"一条两行的消息，"
"连在一起。"

#: pycore/bridge.py:2
msgid "Quotes \"here\", a tab\there, a backslash \\ and a line\nbreak"
msgstr "引号\"这里\"，制表符\t这里，反斜杠 \\ 和换行\n符"

msgctxt "button"
msgid "Close"
msgstr "关闭按钮"

msgid "{count} card due now."
msgid_plural "{count} cards due now."
msgstr[0] "{count} 张卡片现在到期。"

#, fuzzy, python-format
msgid "Loading %(what)s"
msgstr "正在加载 %(what)s"

#~ msgid "An old message"
#~ msgstr "旧消息"

#~ msgid ""
#~ "An old message on "
#~ "two lines"
#~ msgstr "两行旧消息"

msgid "Last, with no blank line after"
msgstr "最后一条"'''


def babel_translations(text: str) -> dict[str, str]:
    """The oracle: Babel's reading of a .po file, as i18n.read_po gives it (translated, not fuzzy, no context,
    a plural's first form, obsolete entries left out)."""
    out = {}
    for message in babel_read_po(io.StringIO(text)):
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        msgstr = message.string[0] if isinstance(message.string, tuple) else message.string
        if msgid and msgstr and not message.fuzzy and message.context is None:
            out[msgid] = msgstr
    return out


def test_read_po_agrees_with_babel_on_a_hand_made_file():
    ours = i18n.read_po(HAND_MADE)
    assert ours == babel_translations(HAND_MADE)
    assert ours["A message on two lines, joined."] == "一条两行的消息，连在一起。"
    assert ours['Quotes "here", a tab\there, a backslash \\ and a line\nbreak'] == \
        '引号"这里"，制表符\t这里，反斜杠 \\ 和换行\n符'
    assert ours["{count} card due now."] == "{count} 张卡片现在到期。"
    for left_out in ("Right.", "Reset", "Close", "Loading %(what)s", "An old message", "An old message on two lines"):
        assert left_out not in ours


def test_read_po_agrees_with_babel_on_the_real_catalogs():
    for lang in i18n.LANGUAGES[1:]:
        text = i18n.catalog_path(lang).read_text(encoding="utf-8")
        assert i18n.read_po(text) == babel_translations(text)
    template = catalogs.TEMPLATE.read_text(encoding="utf-8")
    assert i18n.read_po(template) == babel_translations(template) == {}


def test_the_catalog_the_browser_reads_holds_the_runtimes_translations_and_nothing_else():
    shipped = pack.shipped_catalog(HAND_MADE)
    assert i18n.read_po(shipped) == babel_translations(shipped) == {
        "Due now.": "现在到期。", 'Quotes "here", a tab\there, a backslash \\ and a line\nbreak':
        '引号"这里"，制表符\t这里，反斜杠 \\ 和换行\n符'}  # the two translated entries that stand in a runtime file
    assert "#" not in shipped
    real = pack.catalog_files()[0].read_text(encoding="utf-8")
    runtime = {pack.archive_name(p) for p in pack.runtime_files()}
    expected = {m.id: m.string for m in babel_read_po(io.StringIO(real)) if m.id and isinstance(m.id, str)
                and m.string and not m.fuzzy and any(path in runtime for path, _ in m.locations)}
    assert i18n.read_po(pack.shipped_catalog(real)) == expected


def test_the_core_on_pythons_path_as_an_archive_reads_its_catalog_from_the_archive(tmp_path):
    # As the browser runs it: the core's archive on sys.path as it is (pack.CORE_PATH), nothing unpacked; a fresh
    # isolated interpreter, so nothing is imported from the checkout.
    archive = tmp_path / "core.zip"
    archive.write_bytes(pack.core_archive()[1])
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); from pycore import i18n; "
              "print(json.dumps([i18n.__file__, i18n.catalog('zh')]))")
    run = subprocess.run([sys.executable, "-I", "-c", script, str(archive)], capture_output=True, text=True, check=True)
    where, read = json.loads(run.stdout)
    assert where.startswith(str(archive) + "/pycore/")
    real = i18n.catalog_path("zh").read_text(encoding="utf-8")
    assert read == babel_translations(pack.shipped_catalog(real)) and len(read) > 100


def test_read_po_names_a_line_it_cannot_read():
    with pytest.raises(ValueError, match="not a line of a .po file"):
        i18n.read_po('msgid "A"\nmsgstr "B"\nnonsense\n')


@pytest.fixture
def chinese(monkeypatch):
    """A made-up Chinese catalog, so the tests do not depend on what translators have written."""
    table: dict[str, str] = {}
    monkeypatch.setattr(i18n, "catalog", lambda lang: table if lang == "zh" else {})
    return table


def test_the_message_is_english_unless_a_language_is_in_use(chinese):
    chinese["Due now."] = "现在到期。"
    assert i18n._("Due now.") == "Due now."
    with i18n.using("zh"):
        assert i18n.language() == "zh"
        assert i18n._("Due now.") == "现在到期。"
        assert i18n._("Not in the catalog.") == "Not in the catalog."
        with i18n.using("en"):
            assert i18n._("Due now.") == "Due now."
    assert i18n.language() == "en" and i18n._("Due now.") == "Due now."
    assert i18n.N_("Due now.") == "Due now."
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        with i18n.using("fr"):
            pass


def call(**request):
    return json.loads(bridge.handle(json.dumps(request)))


SHOWING = "{problem}. Showing the default figure, not the settings in this link."


def test_the_bridge_answers_a_bad_parameter_in_the_language_asked_for(chinese):
    chinese[SHOWING] = "{problem}。显示的是默认图形，不是这个链接里的设置。"
    english = call(op="render", figure="dot-product", params={"q": "<b>"})
    chinese_answer = call(op="render", figure="dot-product", params={"q": "<b>"}, lang="zh")
    assert english["error"].endswith(". Showing the default figure, not the settings in this link.")
    assert chinese_answer["error"].endswith("。显示的是默认图形，不是这个链接里的设置。")
    assert chinese_answer["error"].startswith("q must be")  # the parameter's own message, untranslated here
    assert chinese_answer["state"] == english["state"] == figures.state_json(figures.get("dot-product").State())
    assert call(op="render", figure="dot-product", params={"q": "<b>"}, lang="en") == english


def test_a_bad_request_is_answered_in_the_language_asked_for(chinese):
    chinese["unknown op '{op}'; known ops: {ops}"] = "未知的操作“{op}”；已知的操作：{ops}"
    answer = call(op="nope", lang="zh")
    assert answer["failed"] and answer["error"].startswith("未知的操作“nope”；已知的操作：render, update")


def test_a_language_the_site_does_not_have_is_answered_in_english_and_said_in_one_line(chinese):
    chinese[SHOWING] = "{problem}。显示的是默认图形。"
    plain = call(op="render", figure="dot-product", params={})
    answer = call(op="render", figure="dot-product", params={}, lang="fr")
    assert answer["error"] == "lang must be en or zh, got 'fr'; the answer is in English"
    assert {k: v for k, v in answer.items() if k != "error"} == plain and "error" not in plain
    # Before any other message, which is in English too.
    bad = call(op="render", figure="dot-product", params={"q": "<b>"}, lang="fr")
    assert bad["error"].startswith("lang must be en or zh, got 'fr'; the answer is in English; q must be")
    assert bad["error"].endswith("Showing the default figure, not the settings in this link.")
    assert "\n" not in bad["error"]
    assert call(op="digest", seed=1, count=10, lang=["zh"])["error"].startswith(
        "lang must be en or zh, got a list; the answer is in English")
    failed = call(op="nope", lang="de")
    assert failed["failed"] and failed["error"].startswith("lang must be en or zh, got 'de'; the answer is in English; "
                                                           "unknown op 'nope'")
    assert "error" not in call(op="digest", seed=1, count=10, lang=None)


def test_the_templates_words_follow_the_language(chinese):
    chinese.update({"Download SVG": "下载 SVG", "Step %(current)s of %(total)s": "第 %(current)s 步，共 %(total)s 步",
                    "Hello %(name)s": "你好，%(name)s"})
    english = ENV.get_template("row-menu.html.j2").render(anchor="a")
    with i18n.using("zh"):
        translated = ENV.get_template("row-menu.html.j2").render(anchor="a")
        steps = ENV.get_template("steps.html.j2").render(current=2, steps=[(1, "One"), (2, "Two"), (3, "Three")])
        greeting = ENV.from_string('{{ _("Hello %(name)s", name=who) }}').render(who="<b>")
    assert ">Download SVG</button>" in english and ">下载 SVG</button>" in translated
    assert translated.replace("下载 SVG", "Download SVG") == english
    assert "<span>第 2 步，共 3 步</span>" in steps
    assert greeting == "你好，&lt;b&gt;"  # the values are escaped, the message is not


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_page_scripts_t_fills_the_pages_language(chinese, tmp_path):
    """i18n.js under Node, with messages.js as the build writes it from a (made-up) catalog."""
    chinese.update({"Right.": "对。", "Saved “{words}”: next due {when}.": "已保存“{words}”：下次 {when} 到期。",
                    "Not a message of the scripts": "不是脚本的消息"})
    shutil.copy(SCRIPTS / "i18n.js", tmp_path / "i18n.js")
    (tmp_path / "messages.js").write_text(catalogs.scripts_module(), encoding="utf-8")
    script = """
const { lang, t } = await import(process.argv[1] + "/i18n.js");
const out = [];
for (const tag of ["zh-Hans", "zh", "en", "fr", ""]) {
  globalThis.document = { documentElement: { lang: tag } };
  out.push([lang(), t("Right."), t("Saved “{words}”: next due {when}.", { words: "Good", when: "in 3 days" }),
            t("{{literal}} {missing} {n}", { n: 2 })]);
}
console.log(JSON.stringify(out));
"""
    result = subprocess.run(["node", "--input-type=module", "-e", script, str(tmp_path)], capture_output=True,
                            text=True, encoding="utf-8", check=True)
    chinese_line = ["zh", "对。", "已保存“Good”：下次 in 3 days 到期。", "{literal} {missing} 2"]
    english_line = ["en", "Right.", "Saved “Good”: next due in 3 days.", "{literal} {missing} 2"]
    assert json.loads(result.stdout) == [chinese_line, chinese_line, english_line, english_line, english_line]
    assert "不是脚本的消息" not in (tmp_path / "messages.js").read_text(encoding="utf-8")


PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)s")
"""A named placeholder: {name} in Python's format, %(name)s in the templates'."""


def test_the_catalogs_hold_every_message_of_the_code_each_translated_with_its_placeholders():
    """``make messages`` has run since the code's words last changed, and every message has its Chinese, not fuzzy,
    with the same placeholders: a message missing here would show in English on a Chinese page."""
    code = {m.id for m in catalogs.extract() if m.id}
    template = {m.id for m in babel_read_po(io.StringIO(catalogs.TEMPLATE.read_text(encoding="utf-8"))) if m.id}
    assert code == template, "run make messages"
    chinese = babel_read_po(io.StringIO(i18n.catalog_path("zh").read_text(encoding="utf-8")), locale="zh")
    untranslated = [m.id for m in chinese if m.id in code and (not m.string or m.fuzzy)]
    assert untranslated == [], untranslated[:5]
    for message in chinese:
        if message.id in code:
            assert sorted(PLACEHOLDER.findall(message.string)) == sorted(PLACEHOLDER.findall(message.id)), message.id
