"""The five review ops under random and hostile requests, sent through the bridge as the page sends them: every
answer is the op's answer or a message, never an internal error; nothing stored is lost; and a history exported
then imported into an empty store comes back whole. As the figures' requests are fuzzed in test_bridge.py."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pycore import bridge, review

OPS = [op for op in bridge.OPS if op.startswith("review-")]
CARDS = ["step-1-query-key-dk", "step-4-variance-is-dk", "step-6-divisor-sqrt-dk"]
TIMES = ["2026-12-01T09:30:00.000Z", "2026-12-01T09:40:00Z", "2026-12-04T10:00:00+01:00", "2027-03-01T00:00:00.5Z"]
"""A few times, so that reviews share a moment (a clock set back) and requests come before or after them."""
NOW = "2027-01-15T12:00:00.000Z"
ANSWERS = {"review-due": {"summary", "cards", "due", "new", "problems"}, "review-grade": {"record", "status"},
           "review-export": {"text", "count", "filename"}, "review-import": {"refused", "records", "message"},
           "review-schedule": {"schedule"}}
"""What each op's answer carries when it is not a message."""

NUMBERS = (st.integers() | st.floats() | st.sampled_from([math.inf, -math.inf, math.nan, 1e308, -0.0, 10**400]))
SCALARS = st.none() | st.booleans() | NUMBERS | st.text(max_size=8)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner,
                                                                                          max_size=2), max_leaves=4)
"""Any JSON value at all (with the non-finite numbers Python's json writes)."""
TIME = st.sampled_from(TIMES) | st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00",
                                                 "2026-12-01T09:30:00", "1999-12-31T23:59:59Z", "soon", "",
                                                 "2026-12-01T09:30:00.000Z" * 2]) | JSON
GRADE = st.sampled_from(list(review.GRADES)) | st.sampled_from(["Good", "great", "", "good "]) | JSON
CARD = st.sampled_from(CARDS) | st.sampled_from(["Step-1", "gone-card", "a" * 81, "", "-a"]) | JSON


def often(good, hostile):
    """Mostly a value the page would send, so requests reach the scheduler; otherwise a hostile one."""
    return st.integers(0, 3).flatmap(lambda i: hostile if i == 0 else good)


GOOD_REVIEWS = st.lists(st.fixed_dictionaries({"grade": st.sampled_from(list(review.GRADES)),
                                               "at": st.sampled_from(TIMES)}), min_size=1, max_size=5)
ODD_REVIEW = st.fixed_dictionaries({"grade": GRADE, "at": TIME}) | st.fixed_dictionaries(
    {}, optional={"grade": GRADE, "at": TIME}) | JSON
REVIEWS = often(GOOD_REVIEWS, st.tuples(GOOD_REVIEWS, st.integers(0, 5), ODD_REVIEW).map(
    lambda t: [*t[0][:t[1]], t[2], *t[0][t[1]:]]) | JSON)
"""A history of good reviews (some at the same moment, some twice), or one with an odd review among them, or any
JSON value."""


def record_of(card):
    """A stored record of ``card``: as review.py writes it, of another version or card, or any text or value."""
    body = st.fixed_dictionaries({"version": often(st.just(1), st.sampled_from([0, 2, "1", 1.5, True]) | JSON),
                                  "card": often(st.just(card), CARD), "reviews": REVIEWS})
    return often(body.map(json.dumps), st.text(max_size=12) | st.sampled_from(["{", "[]", "null"]) | JSON)


RECORDS = often(st.fixed_dictionaries({}, optional={card: record_of(card) for card in CARDS}),
                st.dictionaries(st.text(max_size=8), JSON, max_size=2) | JSON)
ENTRY = st.fixed_dictionaries({"card": often(st.sampled_from([*CARDS, "gone-card"]), CARD),
                               "reviews": often(GOOD_REVIEWS, REVIEWS)})
FILE = often(st.lists(ENTRY, max_size=4).map(lambda cards: json.dumps({"format": review.FORMAT, "version": 1,
                                                                       "cards": cards})),
             st.fixed_dictionaries({"format": often(st.just(review.FORMAT), JSON), "version": often(st.just(1), JSON),
                                    "cards": often(st.lists(often(ENTRY, JSON), max_size=4), JSON)}).map(json.dumps)
             | st.sampled_from(["{", "", "[]"]) | JSON)
"""An exported file (a card twice, a card this site does not have, an odd review), or any text or value."""
REQUEST = st.sampled_from(CARDS).flatmap(lambda card: st.fixed_dictionaries(
    {"cards": often(st.just(CARDS), st.lists(CARD, max_size=3) | JSON), "records": RECORDS,
     "now": often(st.sampled_from([NOW, TIMES[0]]), TIME), "card": often(st.just(card), CARD),
     "grade": often(st.sampled_from(list(review.GRADES)), GRADE), "text": FILE, "reviews": REVIEWS},
    optional={"record": often(record_of(card), JSON)}))
"""One body for all five ops, each reading its own fields and saying which of them is wrong."""


def ask(request):
    """The bridge's answer as the page's JSON.parse reads it: NaN and Infinity are not JSON."""
    return json.loads(bridge.handle(json.dumps(request)), parse_constant=lambda name: pytest.fail(f"{name} in an answer"))


def history(text, card):
    """A stored record's reviews, or None if it cannot be read (or a newer version wrote it)."""
    try:
        return review.read_record(text, card)
    except review.RecordError:
        return None


def newer(text, card):
    """Whether a stored record was written by a newer version (and so must be left alone)."""
    try:
        review.read_record(text, card)
    except review.RecordError as err:
        return err.newer
    return False


def check_nothing_lost(op, request, out):
    """The records an answer gives the page to write keep every review already stored, and never replace a newer
    version's record; a record reported as unreadable is one that cannot be read, and changes nothing else."""
    records = request["records"]
    if op == "review-grade":
        before = history(request.get("record"), request["card"])
        after = review.read_record(out["record"], request["card"])
        if before is not None:
            assert after[:-1] == before and after[-1].grade == request["grade"], (request, out)
    elif op == "review-import" and not out["refused"]:
        for card, text in out["records"].items():
            assert card in request["cards"] and not newer(records.get(card), card), (request, out)
            mine = Counter(history(records.get(card), card) or ())
            assert not mine - Counter(review.read_record(text, card)), (request, out)
    elif op == "review-import":
        assert out["records"] == {} and out["message"].endswith("Nothing was changed."), (request, out)
    elif op == "review-due":
        for problem in out["problems"]:
            card = problem["card"]
            assert history(records[card], card) is None and problem["replace"] != newer(records[card], card), problem
            assert problem["message"].startswith(f"Your stored history of card '{card}' cannot be read ("), problem
        for card in request["cards"]:
            readable = history(records.get(card), card)
            assert out["cards"][card]["reviews"] == len(readable or ()), (request, out)
        without = ask({**request, "records": {c: r for c, r in records.items() if history(r, c) is not None}})
        assert {**out, "problems": []} == without, (request, out)


def check_round_trip(request, out):
    """The exported file, imported into an empty store, gives back every readable history, review for review;
    imported into the store it came from, it adds nothing."""
    cards, records = request["cards"], request["records"]
    back = ask({"op": "review-import", "cards": cards, "records": {}, "text": out["text"], "now": NOW})
    kept = {card: history(records.get(card), card) for card in cards}
    kept = {card: reviews for card, reviews in kept.items() if reviews}
    assert not back["refused"] and set(back["records"]) == set(kept) == {c["card"] for c in json.loads(out["text"])["cards"]}
    assert back["records"] == {card: review.record(card, reviews) for card, reviews in kept.items()}, (request, back)
    again = ask({"op": "review-import", "cards": cards, "records": records, "text": out["text"], "now": NOW})
    assert not again["refused"] and not set(again["records"]) & set(kept), (request, again)


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(REQUEST)
def test_random_and_hostile_review_requests_get_an_answer_or_a_message_and_lose_nothing(body):
    """Each drawn body goes to each of the five ops: 1,500 requests."""
    for op in OPS:
        request = {"op": op, **body}
        out = ask(request)
        if "error" in out:
            assert out["failed"] is True and isinstance(out["error"], str) and out["error"], (request, out)
            assert not out["error"].startswith("internal error"), (request, out)
            continue
        assert ANSWERS[op] <= set(out), (request, out)
        check_nothing_lost(op, request, out)
        if op == "review-export":
            check_round_trip(request, out)
