"""Train it yourself, as a beginner meets it: short main-path prose, few numbers per paragraph, the expert's
details in closed asides, every number in the prose from the build's experiments."""

import re

from pycore.sitegen import claims
from tests.conftest import ROOT

TEXT = (ROOT / "site_src" / "train.md").read_text(encoding="utf-8")


def main_path(filled: bool = True) -> list[str]:
    """The page's paragraphs outside fences, asides and cards, tags removed, claim spans filled with their
    values (or, unfilled, dropped)."""
    lines, fence = [], False
    for line in (claims.fill(TEXT) if filled else TEXT).split("\n"):
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence and not line.startswith(("    ", "???")):
            lines.append(re.sub(r"<[^>]+>", " ", line))
    return [p for p in "\n".join(lines).split("\n\n") if p.strip() and not p.startswith("#")]


def test_main_path_prose_stays_under_450_words_and_three_numbers_a_paragraph():
    paragraphs = main_path()
    assert sum(len(p.split()) for p in paragraphs) <= 450
    for p in paragraphs:
        numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:e\d+)?", re.sub(r"\\\(.*?\\\)", " ", p))
        assert len(numbers) <= 3, (numbers, p)


def test_loss_sgd_and_adam_are_explained_and_adams_constants_sit_in_a_closed_aside():
    prose = " ".join(main_path())
    prose = " ".join(prose.split())
    assert "The *loss* says how wrong the output is; lower is better." in prose
    assert "*SGD* moves each parameter by the learning rate times its gradient." in prose
    assert "*Adam* divides each parameter's step by the size of that parameter's recent gradients" in prose
    assert "by an amount set by the *learning rate*" in prose and "a fresh *batch*{ #batch }, a handful of new examples" in prose
    assert not re.search(r"beta_[12]|varepsilon", prose)
    asides = re.findall(r'^\?\?\?(\+?) info "Going deeper: [^"]+"', TEXT, re.M)
    assert len(asides) == 4 and not any(asides), "asides are closed by default (??? not ???+)"
    setup = TEXT[TEXT.index('??? info "Going deeper: the exact setup"'):TEXT.index("```figure")]
    assert r"\beta_1 = 0.9" in setup and r"\beta_2 = 0.999" in setup and r"\varepsilon = 10^{-8}" in setup


def test_every_number_of_the_prose_is_a_claim_or_a_checked_setting():
    spans = re.findall(r'<span data-claim="([\w.-]+)">([^<]*)</span>', TEXT)
    empty = [name for name, value in spans if not value]
    assert empty and all(name in claims.names() for name in empty)
    bare = [re.findall(r"(?<![\w.{])\d+\.\d+", re.sub(r"\\\(.*?\\\)", " ", p)) for p in main_path(filled=False)]
    assert not any(bare), "a decimal in the prose that no claim span fills"


def test_the_two_optimizers_give_the_reverse_answers_the_aside_and_the_card_state():
    """SGD: ÷d_k's best rate climbs with d_k while one rate serves ÷√d_k; Adam: ÷d_k keeps one best rate at every
    width while ÷√d_k's falls. The sweep's own picks say so, and the aside and the card give both halves."""
    text = " ".join(TEXT.split())
    assert "whose best Adam rate stays at <span data-claim=\"lr-sweep.best.adam.64.dk.rate\"></span> at every width" in text
    assert ("while \\(\\div\\sqrt{d_k}\\)'s falls from <span data-claim=\"lr-sweep.best.adam.16.sqrt.rate\"></span> to "
            "<span data-claim=\"lr-sweep.best.adam.256.sqrt.rate\"></span>") in text
    assert "with Adam it is the reverse, one rate serves ÷dₖ while ÷√dₖ's best rate falls as dₖ grows" in text

    def rate(optimizer, dk, divisor):
        return float(claims.value(f"lr-sweep.best.{optimizer}.{dk}.{divisor}.rate"))

    assert len({rate("adam", dk, "dk") for dk in (16, 64, 256)}) == 1
    assert rate("adam", 16, "sqrt") > rate("adam", 64, "sqrt") > rate("adam", 256, "sqrt")
    assert rate("sgd", 16, "dk") < rate("sgd", 64, "dk") < rate("sgd", 256, "dk")
    assert "scales their SGD rate up with \\(d_k\\)" in text and "keeps their Adam rate the same at every width" in text
