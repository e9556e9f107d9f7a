"""The recall cards' review (pycore/review.py) against the fsrs package itself: its default learning steps,
its stability, difficulty and state at every review, its fuzz ranges; the order of a session; stored records
that cannot be read, odd grades among them; export, import and their refusals (test_review_fuzz.py sends the
review ops random and hostile requests)."""

from __future__ import annotations

import json
from datetime import timedelta

import fsrs
import pytest

from pycore import bridge, review
from pycore.params import ParamError

NOW = review.moment("2026-12-01T09:30:00.000Z")
CARDS = ["step-1-query-key-dk", "step-4-variance-is-dk", "step-6-divisor-sqrt-dk"]


def graded(card, steps, start=NOW):
    """A card's record after grades given at offsets from ``start``: [(grade, timedelta), ...]."""
    text = None
    for grade, offset in steps:
        text = review.grade(card, text, grade, start + offset)["record"]
    return text


HISTORY = [("good", timedelta(0)), ("good", timedelta(minutes=10)), ("hard", timedelta(days=3)),
           ("again", timedelta(days=12)), ("good", timedelta(days=12, minutes=10)), ("easy", timedelta(days=20)),
           ("good", timedelta(days=80)), ("good", timedelta(days=300)), ("again", timedelta(days=301)),
           ("hard", timedelta(days=301, minutes=5)), ("good", timedelta(days=302))]


def test_a_new_card_follows_the_package_default_learning_steps():
    steps = fsrs.Scheduler().learning_steps
    assert steps == (timedelta(minutes=1), timedelta(minutes=10))
    due = {g: review.moment(json.loads(bridge.handle(json.dumps(
        {"op": "review-schedule", "card": "a", "reviews": [{"grade": g, "at": review.stamp(NOW)}]})))["schedule"][0]["due"])
        for g in ("again", "hard", "good")}
    assert due == {"again": NOW + steps[0], "hard": NOW + (steps[0] + steps[1]) / 2, "good": NOW + steps[1]}


def fuzz_range(scheduler, days):
    """The package's own bounds for a fuzzed interval of ``days``."""
    lo, hi = days, days
    if days >= 2.5:
        delta = 1.0 + sum(r["factor"] * max(min(days, r["end"]) - r["start"], 0.0) for r in fsrs.scheduler.FUZZ_RANGES)
        lo, hi = max(2, int(round(days - delta))), min(int(round(days + delta)), scheduler.maximum_interval)
    return lo, hi


def test_every_review_is_the_package_scheduler_with_its_default_parameters_and_fuzz_in_its_range():
    """At each review: the package, fuzz off, from the state before, gives the same stability, difficulty and
    state; the interval is the package's unfuzzed one, or within the package's fuzz range for that interval."""
    plain = fsrs.Scheduler(enable_fuzzing=False)
    reviews = review.read_record(graded("c", HISTORY), "c")
    state, fuzzed = fsrs.Card(card_id=0, due=review.EARLIEST), 0
    for i, r in enumerate(reviews):
        ours = review.replay("c", reviews[:i + 1])
        theirs = plain.review_card(state, review.GRADES[r.grade], review_datetime=r.at)[0]
        assert (ours.stability, ours.difficulty, ours.state, ours.step) == \
               (theirs.stability, theirs.difficulty, theirs.state, theirs.step)
        days = (theirs.due - r.at).days
        lo, hi = fuzz_range(plain, days) if theirs.state == fsrs.State.Review else (days, days)
        if theirs.state == fsrs.State.Review:
            assert lo <= (ours.due - r.at).days <= hi and (ours.due - r.at) % timedelta(days=1) == timedelta(0)
            fuzzed += ours.due != theirs.due
        else:
            assert ours.due == theirs.due
        state = ours
    assert fuzzed >= 2, "the package's default fuzz is on"


def test_the_same_history_gives_the_same_schedule_and_a_button_says_what_it_gives():
    record = graded("c", HISTORY)
    reviews = review.read_record(record, "c")
    assert review.schedule("c", reviews) == review.schedule("c", review.read_record(graded("c", HISTORY), "c"))
    later = NOW + timedelta(days=400)
    shown = review.overview(["c"], {"c": record}, later)["cards"]["c"]["preview"]
    for g in review.GRADES:
        assert review.grade("c", record, g, later + timedelta(seconds=20))["status"]["when"] == shown[g]


def test_times_are_read_strictly_and_written_in_milliseconds():
    assert review.stamp(review.moment("2026-12-01T10:30:00.123456+01:00")) == "2026-12-01T09:30:00.123Z"
    for bad, words in [("yesterday", "a time such as"), ("2026-12-01T09:30:00", "time zone"),
                       ("1999-12-31T23:00:00Z", "between the years"), (5, "a time such as")]:
        with pytest.raises(ParamError, match=words):
            review.moment(bad)


def test_the_session_order_is_fsrs_retrievability_then_new_cards_in_article_order():
    records = {CARDS[1]: graded(CARDS[1], [("easy", timedelta(0))]),
               CARDS[2]: graded(CARDS[2], [("hard", timedelta(0)), ("good", timedelta(minutes=6)),
                                           ("good", timedelta(days=1))])}
    later = NOW + timedelta(days=60)
    out = review.overview(CARDS, records, later)
    r = {c: out["cards"][c]["retrievability"] for c in CARDS[1:]}
    assert out["due"] == sorted(CARDS[1:], key=r.get) and out["new"] == [CARDS[0]] and out["count"] == 2
    assert out["summary"] == "2 cards due now. 1 new card is waiting for a first answer."
    soon = review.overview(CARDS, records, NOW + timedelta(hours=1))
    first = min(CARDS[1:], key=lambda c: soon["cards"][c]["due"])
    assert soon["count"] == 0 and soon["next"]["card"] == first
    assert soon["summary"].startswith(f"No card is due now. The next one is due {soon['next']['when']}.")
    assert review.overview(CARDS, {}, NOW)["summary"].startswith("No card is due now: you have not graded any card yet.")


@pytest.mark.parametrize("text,words,replace", [
    ("{not json", "not a JSON object", True),
    ('{"version": 0, "card": "c", "reviews": []}', "version is not 1", True),
    ('{"version": 2, "card": "c", "reviews": []}', "newer version", False),
    ('{"version": 1, "card": "other", "reviews": []}', "another card", True),
    ('{"version": 1, "card": "c", "reviews": [{"grade": "great", "at": "2026-12-01T09:30:00Z"}]}',
     "its grade must be one of again, hard, good, easy, got 'great'", True),
    ('{"version": 1, "card": "c", "reviews": [{"grade": "good", "at": "soon"}]}', "review 1", True),
])
def test_a_record_that_cannot_be_read_is_a_problem_and_the_others_still_count(text, words, replace):
    good = graded("d", [("good", timedelta(0))])
    out = review.overview(["c", "d"], {"c": text, "d": good}, NOW + timedelta(days=30))
    assert [(p["card"], p["replace"]) for p in out["problems"]] == [("c", replace)]
    assert words in out["problems"][0]["message"] and "Your stored history of card 'c'" in out["problems"][0]["message"]
    assert out["cards"]["c"]["new"] and out["due"] == ["d"]
    regraded = review.grade("c", text, "good", NOW)
    assert "starts afresh" in regraded["replaced"] and json.loads(regraded["record"])["reviews"][0]["grade"] == "good"


ODD_GRADES = [([], "a list"), ({"name": "good"}, "a JSON object"), (3, "a number"), (True, "true or false"),
              (None, "null")]
"""Grades that are not text, and how a message names what it got (a list or an object once raised TypeError)."""
AT = review.stamp(NOW)


def ask(**request):
    return json.loads(bridge.handle(json.dumps(request)))


@pytest.mark.parametrize("odd,kind", ODD_GRADES)
def test_an_odd_grade_in_a_grade_request_is_a_message(odd, kind):
    out = ask(op="review-grade", card=CARDS[0], record=None, grade=odd, now=AT)
    assert out == {"error": f"grade must be one of again, hard, good, easy, got {kind}", "failed": True}


@pytest.mark.parametrize("odd,kind", ODD_GRADES)
def test_a_file_with_an_odd_grade_is_refused_whole_naming_its_card(odd, kind):
    good = {"card": CARDS[1], "reviews": [{"grade": "good", "at": AT}]}
    bad = {"card": CARDS[0], "reviews": [{"grade": "good", "at": AT}, {"grade": odd, "at": AT}]}
    text = json.dumps({"format": review.FORMAT, "version": 1, "cards": [good, bad]})
    out = ask(op="review-import", cards=CARDS, records={CARDS[2]: graded(CARDS[2], HISTORY[:2])}, text=text, now=AT)
    assert out == {"refused": True, "records": {}, "message": f"Card 2 in this file ('{CARDS[0]}') cannot be read: in "
                   f"its review 2, its grade must be one of again, hard, good, easy, got {kind}. Nothing was changed."}


@pytest.mark.parametrize("odd,kind", ODD_GRADES)
def test_a_stored_record_with_an_odd_grade_is_reported_for_its_card_and_the_others_are_reviewed_as_usual(odd, kind):
    records = {CARDS[1]: graded(CARDS[1], HISTORY[:3]), CARDS[2]: graded(CARDS[2], HISTORY[:1])}
    bad = json.dumps({"version": 1, "card": CARDS[0], "reviews": [{"grade": odd, "at": AT}]})
    later = review.stamp(NOW + timedelta(days=30))
    without = ask(op="review-due", cards=CARDS, records=records, now=later)
    out = ask(op="review-due", cards=CARDS, records={**records, CARDS[0]: bad}, now=later)
    assert out["problems"] == [{"card": CARDS[0], "replace": True, "message": f"Your stored history of card '{CARDS[0]}' "
                                f"cannot be read (in its review 1, its grade must be one of again, hard, good, easy, got "
                                f"{kind}), so it is removed, and the card starts afresh."}]
    assert {k: v for k, v in out.items() if k != "problems"} == {k: v for k, v in without.items() if k != "problems"}
    assert set(out["due"]) == {CARDS[1], CARDS[2]} and out["new"] == [CARDS[0]]
    exported = ask(op="review-export", cards=CARDS, records={**records, CARDS[0]: bad}, now=later)
    assert exported == ask(op="review-export", cards=CARDS, records=records, now=later)
    regraded = ask(op="review-grade", card=CARDS[0], record=bad, grade="easy", now=later)
    assert regraded["replaced"] == (f"The stored history of this card could not be read (in its review 1, its grade must "
                                    f"be one of again, hard, good, easy, got {kind}); it starts afresh.")
    assert regraded["record"] == review.grade(CARDS[0], None, "easy", review.moment(later))["record"]


def test_a_time_at_the_edge_of_the_calendar_in_a_far_zone_is_a_message():
    for text in ("0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"):
        assert ask(op="review-due", cards=CARDS, records={}, now=text)["error"] == \
            f"now must be between the years 2000 and 2999, got '{text}'"


def test_export_then_import_into_an_empty_store_restores_every_record():
    records = {c: graded(c, HISTORY[:i + 2]) for i, c in enumerate(CARDS)}
    file = review.export(CARDS, records, NOW)
    assert file["count"] == 3 and file["filename"] == "sqrt-dk-review-2026-12-01.json"
    back = review.import_file(CARDS, {}, file["text"], NOW)
    assert back["records"] == records and not back["refused"]
    assert back["message"] == f"Imported {sum(len(json.loads(r)['reviews']) for r in records.values())} reviews of 3 cards."
    assert review.import_file(CARDS, records, file["text"], NOW)["message"].startswith("Nothing new")


def test_reviews_given_at_one_moment_come_back_from_export_and_import_each_and_in_order():
    """A clock set back gives a review the moment of the one before (review.grade); the merge kept one review of a
    pair given twice, and put the moment's reviews in the grades' order rather than the order they were given."""
    record = graded(CARDS[0], [("good", timedelta(0)), ("again", -timedelta(minutes=5)), ("again", -timedelta(minutes=9))])
    assert [(r.grade, r.at) for r in review.read_record(record, CARDS[0])] == [("good", NOW), ("again", NOW), ("again", NOW)]
    file = review.export(CARDS, {CARDS[0]: record}, NOW)["text"]
    assert review.import_file(CARDS, {}, file, NOW) == {"refused": False, "records": {CARDS[0]: record},
                                                        "message": "Imported 3 reviews of 1 card."}
    assert review.import_file(CARDS, {CARDS[0]: record}, file, NOW)["records"] == {}


def test_an_import_merges_both_histories_and_names_the_cards_it_skips():
    mine = {CARDS[0]: graded(CARDS[0], HISTORY[:2])}
    theirs = {CARDS[0]: graded(CARDS[0], HISTORY[:3], NOW + timedelta(days=500)), CARDS[1]: graded(CARDS[1], HISTORY[:1])}
    data = json.loads(review.export(CARDS, theirs, NOW)["text"])
    data["cards"].append({"card": "gone-card", "reviews": []})
    out = review.import_file(CARDS, mine, json.dumps(data), NOW)
    merged = review.read_record(out["records"][CARDS[0]], CARDS[0])
    assert set(review.read_record(mine[CARDS[0]], CARDS[0])) <= set(merged) and len(merged) == 5
    assert "Imported 4 reviews of 2 cards." in out["message"] and "Skipped 1 card this site does not have" in out["message"]
    assert "'gone-card'" in out["message"]


@pytest.mark.parametrize("text,words", [
    ("not json", "not JSON"),
    ('{"format": "anki"}', "not a review history exported from this site"),
    ('{"format": "sqrt-dk review history", "version": 3, "cards": []}', "newer version of this site (version 3"),
    ('{"format": "sqrt-dk review history", "version": 1, "cards": [{"card": "step-1-query-key-dk", "reviews": 7}]}',
     "Card 1 in this file ('step-1-query-key-dk') cannot be read"),
    ('{"format": "sqrt-dk review history", "version": 1, "cards": [{"reviews": []}]}', "has no card id"),
])
def test_a_malformed_or_newer_file_is_refused_whole_and_nothing_changes(text, words):
    out = review.import_file(CARDS, {CARDS[0]: graded(CARDS[0], HISTORY[:2])}, text, NOW)
    assert out["refused"] and out["records"] == {} and words in out["message"]
    assert out["message"].endswith("Nothing was changed.")


def test_an_import_leaves_a_newer_versions_record_alone():
    newer = '{"version": 2, "card": "step-1-query-key-dk"}'
    file = review.export(CARDS, {CARDS[0]: graded(CARDS[0], HISTORY[:2])}, NOW)["text"]
    assert review.import_file(CARDS, {CARDS[0]: newer}, file, NOW)["records"] == {}


def test_intervals_in_words():
    assert [review.when(NOW + d, NOW) for d in (timedelta(0), timedelta(seconds=40), timedelta(minutes=6),
                                                 timedelta(hours=5), timedelta(days=1), timedelta(days=45),
                                                 timedelta(days=300), timedelta(days=1200))] == \
        ["now", "in 1 minute", "in 6 minutes", "in 5 hours", "in 1 day", "in 45 days", "in 10 months", "in 3 years"]
