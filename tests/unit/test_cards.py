import csv
import io

import pytest

from pycore.sitegen import cards


def test_parse_question_and_multiline_answer():
    card = cards.parse("Q: Why √dₖ?\nA: Dividing by c divides\nthe variance by c².\n", "step-6.md")
    assert card == cards.Card("Why √dₖ?", "Dividing by c divides the variance by c².", "step-6.md")


@pytest.mark.parametrize("body", ["A: only an answer", "Q: only a question", "", 'Q: a "quoted" word\nA: no'])
def test_malformed_cards_are_errors_naming_the_page(body):
    with pytest.raises(cards.CardError, match="^step-1.md: "):
        cards.parse(body, "step-1.md")


def test_in_place_markdown_is_a_collapsed_question():
    md = cards.replace("Text\n\n```card\nQ: Why?\nA: Because.\n```\n", "x.md")
    assert '??? question sq-card "Why?"\n    Because.' in md and "```card" not in md


def test_anki_export_is_one_tab_separated_line_per_card():
    deck = [cards.Card("Is 1 < 2 *really*?", "Yes\tobviously: \\(1 < 2\\).", "step-2.md"),
            cards.Card("Second?", "Two.", "step-3.md")]
    rows = list(csv.reader(io.StringIO(cards.anki(deck)), delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows == [["Is 1 < 2 really?", "Yes obviously: \\(1 < 2\\)."], ["Second?", "Two."]]


def test_review_groups_cards_under_their_page():
    deck = [cards.Card("A?", "a", "step-1.md"), cards.Card("B?", "b", "step-1.md"), cards.Card("C?", "c", "step-2.md")]
    text = cards.review(deck, {"step-1.md": "1. Two arrows", "step-2.md": "2. Dot"})
    assert text.count("\n## [") == 2 and "###" not in text and text.index("A?") < text.index("C?")
