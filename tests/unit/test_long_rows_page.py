"""The page Long rows and today's models: its code runs (numpy) or parses (PyTorch), its table cites a source on
every row, its tables and code stay in Going deeper asides, and its main prose stays short."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap

from pycore.sitegen import glossary
from tests.conftest import ROOT

TEXT = (ROOT / "site_src" / "long-rows.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^(?P<indent> *)(?P<label>\S[^\n]*)\n\n(?P=indent)```python\n(?P<code>.*?)^(?P=indent)```", re.M | re.S)


def blocks() -> list[tuple[str, str]]:
    """Each Python block with the line above it, which says what it needs; code inside an aside is dedented."""
    return [(m["label"], textwrap.dedent(m["code"])) for m in BLOCK.finditer(TEXT)]


def asides() -> str:
    """The page's Going deeper asides, each with its indented body."""
    return "\n".join(m.group(0) for m in re.finditer(r'^\?\?\? info "Going deeper[^\n]*\n(?:(?: {4}[^\n]*)?\n)*', TEXT,
                                                     re.M))


def run(code: str, cwd) -> str:
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_every_code_block_says_what_it_needs_and_sits_in_an_aside():
    labels = [label for label, _ in blocks()]
    assert len(labels) == 5 and all(re.match(r"(numpy|PyTorch|FlashAttention)\b", label) for label in labels), labels
    assert all(label.endswith("(run by this site's tests):") == label.startswith("numpy") for label in labels)
    assert all("not run by this site's tests" in label for label in labels if not label.startswith("numpy"))
    inside = asides()
    assert all(code.strip().splitlines()[0] in inside for _, code in blocks())


def test_numpy_blocks_run_and_print_what_they_say(tmp_path):
    outputs = [run(code, tmp_path) for label, code in blocks() if label.startswith("numpy")]
    assert len(outputs) == 3
    std = float(outputs[0].split(":")[1])
    assert abs(std - 1) < 0.05, outputs[0]
    half = dict(line.split(":", 1) for line in outputs[1].splitlines())
    assert half["q·k"].strip() == "inf" and 24.0**2 * 128 > 65504
    assert abs(float(half["(q/√d_k)·k"]) - 24 / 128**0.5 * 24 * 128) < 10 and "about 6,516" in TEXT
    lines = dict(line.split(":", 1) for line in outputs[2].splitlines())
    assert abs(float(lines["÷√d_k"]) - 1) < 0.02 and abs(float(lines["÷√d_model"]) - 8 ** -0.5) < 0.01


def test_torch_blocks_parse_and_show_the_scale_apart_from_gemma_2s_cap():
    others = [code for label, code in blocks() if not label.startswith("numpy")]
    assert len(others) == 2
    for code in others:
        ast.parse(code)
    assert "scale_only = F.scaled_dot_product_attention(q, k, v, scale=256**-0.5)  # Gemma 2's scale, without its cap" in others[0]
    assert "scores = 50 * torch.tanh(scores / 50)" in others[0]
    assert "softmax_scale=None" in others[1]


def table(marker: str) -> list[str]:
    """The body rows of the Markdown table inside ``<div ... data-table="marker">``."""
    inside = TEXT.split(f'data-table="{marker}">')[1].split("</div>")[0]
    return [line.strip() for line in inside.strip().splitlines() if line.strip().startswith("|")][2:]


def test_both_tables_sit_in_asides():
    inside = asides()
    assert 'data-table="todays-models"' in inside and 'data-table="long-rows-measured"' in inside


def test_every_model_row_cites_its_source():
    rows = table("todays-models")
    names = [row.split("|")[1].strip() for row in rows]
    assert names == ["Transformer", "GPT-2", "T5", "µP", "ViT-22B", "YaRN", "Qwen", "Gemma 2", "Llama 3", "OLMo 2",
                     "DeepSeek-V3", "Scalable-Softmax", "Gemma 3", "Qwen3", "Llama 4", "Kimi K2"]
    years = [int(row.split("|")[3]) for row in rows]
    assert years == sorted(years)
    for row in rows:
        links = re.findall(r'<a href="(https://[^"]+)">', row.split("|")[4])
        assert any(re.match(r"https://(arxiv\.org/abs/|github\.com/)", url) for url in links), row
        assert all(re.match(r"https://(arxiv\.org/abs/|github\.com/|huggingface\.co/)", url) for url in links), row


def main_prose() -> list[str]:
    """The page's paragraphs without figures, cards, tables, code, asides and headings, as a reader reads them:
    tags, link targets and math left out."""
    text = re.sub(r"```.*?```", "", TEXT, flags=re.S)
    text = re.sub(r"^\?\?\? .*?(?=^\S|\Z)", "", text, flags=re.S | re.M)
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        if not paragraph.strip() or paragraph.lstrip().startswith(("|", "#", "<div", "</div>", "*Measured")):
            continue
        plain = re.sub(r"\]\([^)]*\)", "]", re.sub(r"<[^>]+>", "", paragraph))
        out.append(re.sub(r"\\\(.*?\\\)", "x", plain, flags=re.S))
    return out


def test_the_page_is_on_the_main_path_and_its_own_prose_keeps_to_the_budget():
    """Long rows is read by the beginner who finished Step 7: the glossary puts it on the main path, so the build holds
    it to the order (expert terms in asides only) and the budget, which this checks on the Markdown as well."""
    assert "long-rows.md" in glossary.load(ROOT / "site_src" / "glossary.yml").main_path
    paragraphs = main_prose()
    words = sum(len(p.split()) for p in paragraphs)
    assert 200 < words <= glossary.WORDS_MAX, words
    for plain in paragraphs:
        numbers = glossary.NUMBER.findall(glossary.STEP_REF.sub(" ", plain))
        assert len(numbers) <= glossary.NUMBERS_MAX, (numbers, plain[:80])
