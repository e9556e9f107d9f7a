"""The page Long rows and today's models: its code runs (numpy) or parses (PyTorch), its table cites a source on
every row, and its main prose stays short."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

from tests.conftest import ROOT

TEXT = (ROOT / "site_src" / "long-rows.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^(?P<label>[^\n]*)\n\n```python\n(?P<code>.*?)```", re.M | re.S)


def blocks() -> list[tuple[str, str]]:
    """Each Python block with the line above it, which says what it needs."""
    return [(m["label"], m["code"]) for m in BLOCK.finditer(TEXT)]


def run(code: str, cwd) -> str:
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_every_code_block_says_what_it_needs():
    labels = [label for label, _ in blocks()]
    assert len(labels) == 4 and all(re.match(r"(numpy|PyTorch|FlashAttention)\b", label) for label in labels), labels
    assert all(label.endswith("(run by this site's tests):") == label.startswith("numpy") for label in labels)
    assert all("not run by this site's tests" in label for label in labels if not label.startswith("numpy"))


def test_numpy_blocks_run_and_print_what_they_say(tmp_path):
    outputs = [run(code, tmp_path) for label, code in blocks() if label.startswith("numpy")]
    assert len(outputs) == 2
    std = float(outputs[0].split(":")[1])
    assert abs(std - 1) < 0.05, outputs[0]
    lines = dict(line.split(":", 1) for line in outputs[1].splitlines())
    assert abs(float(lines["÷√d_k"]) - 1) < 0.02 and abs(float(lines["÷√d_model"]) - 8 ** -0.5) < 0.01


def test_torch_blocks_parse_and_use_the_documented_arguments():
    others = [code for label, code in blocks() if not label.startswith("numpy")]
    assert len(others) == 2
    for code in others:
        ast.parse(code)
    assert "scaled_dot_product_attention(q, k, v, scale=256**-0.5)" in others[0]
    assert "softmax_scale=None" in others[1]


def table(marker: str) -> list[str]:
    """The body rows of the Markdown table inside ``<div ... data-table="marker">``."""
    inside = TEXT.split(f'data-table="{marker}">')[1].split("</div>")[0]
    return [line for line in inside.strip().splitlines() if line.startswith("|")][2:]


def test_every_model_row_cites_its_source():
    rows = table("todays-models")
    names = [row.split("|")[1].strip() for row in rows]
    assert names == ["Transformer", "T5", "µP", "ViT-22B", "YaRN", "Gemma 2", "OLMo 2", "Scalable-Softmax",
                     "Gemma 3", "Qwen3", "Llama 4", "Kimi K2"]
    years = [int(row.split("|")[3]) for row in rows]
    assert years == sorted(years)
    for row in rows:
        links = re.findall(r'<a href="(https://[^"]+)">', row.split("|")[4])
        assert links and all(re.match(r"https://(arxiv\.org/abs/|github\.com/)", url) for url in links), row


def main_prose() -> list[str]:
    """The page's paragraphs without figures, cards, tables, code, asides and headings, as a reader reads them:
    tags, link targets and math left out."""
    text = re.sub(r"```.*?```", "", TEXT, flags=re.S)
    text = re.sub(r"^\?\?\? .*?(?=^\S)", "", text, flags=re.S | re.M)
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        if not paragraph.strip() or paragraph.lstrip().startswith(("|", "#", "<div", "</div>", "*Measured")):
            continue
        plain = re.sub(r"\]\([^)]*\)", "]", re.sub(r"<[^>]+>", "", paragraph))
        out.append(re.sub(r"\\\(.*?\\\)", "x", plain, flags=re.S))
    return out


def test_main_prose_is_short_and_each_paragraph_has_at_most_three_numbers():
    paragraphs = main_prose()
    words = sum(len(p.split()) for p in paragraphs)
    assert 200 < words <= 450, words
    for plain in paragraphs:
        numbers = re.findall(r"\d[\d,.]*", plain)
        assert len(numbers) <= 3, (numbers, plain[:80])
