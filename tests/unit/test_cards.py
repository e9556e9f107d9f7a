import csv
import io
import json

import pytest

from pycore.sitegen import cards


def test_parse_question_and_multiline_answer():
    card = cards.parse("id: step-6-why\nQ: Why √dₖ?\nA: Dividing by c divides\nthe variance by c².\n", "step-6.md")
    assert card == cards.Card("Why √dₖ?", "Dividing by c divides the variance by c².", "step-6.md", "step-6-why")


@pytest.mark.parametrize("body", ["A: only an answer", "id: a\nQ: only a question", "", 'id: a\nQ: a "quoted" word\nA: no',
                                  "Q: no id\nA: yes", "id: Not_An_Id\nQ: Why?\nA: no"])
def test_malformed_cards_are_errors_naming_the_page(body):
    with pytest.raises(cards.CardError, match="^step-1.md: "):
        cards.parse(body, "step-1.md")


def test_in_place_markdown_is_a_collapsed_question():
    md = cards.replace("Text\n\n```card\nid: x-why\nQ: Why?\nA: Because.\n```\n", "x.md")
    assert '??? question sq-card "Why?"\n    Because.' in md and "```card" not in md
    assert md.index('<div class="sq-recall" data-card="x-why" markdown>') < md.index("???") < md.index("data-review hidden")


def test_anki_export_is_one_tab_separated_line_per_card():
    deck = [cards.Card("Is 1 < 2 *really*?", "Yes\tobviously: \\(1 < 2\\).", "step-2.md", "a"),
            cards.Card("Second?", "Two.", "step-3.md", "b")]
    rows = list(csv.reader(io.StringIO(cards.anki(deck)), delimiter="\t", quoting=csv.QUOTE_NONE))
    assert rows == [["Is 1 < 2 really?", "Yes obviously: \\(1 < 2\\)."], ["Second?", "Two."]]


def test_review_groups_cards_under_their_page():
    deck = [cards.Card("A?", "a", "step-1.md", "a"), cards.Card("B?", "b", "step-1.md", "b"),
            cards.Card("C?", "c", "step-2.md", "c")]
    text = cards.review(deck, {"step-1.md": "1. Two arrows", "step-2.md": "2. Dot"})
    assert text.count("\n## [") == 2 and "###" not in text and text.index("A?") < text.index("C?")


def test_a_card_without_an_id_fails_naming_the_card_and_proposing_one():
    with pytest.raises(cards.CardError) as err:
        cards.parse("Q: Why does a saturated softmax stop learning?\nA: Tiny gradients.", "step-5.md")
    message = str(err.value)
    assert message.startswith("step-5.md: the card “Why does a saturated softmax stop learning?” has no id.")
    assert "'id: step-5-saturated-softmax-stop'" in message and "never changed" in message
    assert cards.parse(f"id: {cards.suggested_id('Why does a saturated softmax stop learning?', 'step-5.md')}\n"
                       "Q: Why?\nA: So.", "step-5.md").id == "step-5-saturated-softmax-stop"


def test_a_card_id_used_twice_fails_naming_both_cards():
    deck = [cards.Card("A?", "a", "step-1.md", "same"), cards.Card("B?", "b", "step-2.md", "same")]
    with pytest.raises(cards.CardError, match="'same' is used twice: step-1.md \\(“A\\?”\\) and step-2.md \\(“B\\?”\\)"):
        cards.check_unique(deck)
    cards.check_unique(deck[:1])


def test_the_card_list_names_every_card_by_id_page_and_plain_question():
    listing = json.loads(cards.listing([cards.Card("Is it *so*?", "Yes.", "step-4.md", "step-4-so")]))
    assert listing == {"cards": [{"id": "step-4-so", "page": "step-4/", "question": "Is it so?"}]}
