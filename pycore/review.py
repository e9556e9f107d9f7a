"""The recall cards' spaced review: FSRS (the ``fsrs`` package from PyPI, pinned) schedules each card from
the grades a reader gave it, here and nowhere else.

The page keeps one record per card on the reader's device, the card's history of grades, and sends the
records with the time its clock reads ("now"). Everything computed from them (each card's next due time,
the order of a session, the intervals each grade would give, what an imported file adds) is computed here
by replaying that history through the package's scheduler, so the same history gives the same schedule,
bit for bit, in CPython and in Pyodide.

FSRS runs with the package's defaults (its parameters, desired retention 0.9, learning steps of 1 and 10
minutes, a relearning step of 10 minutes, fuzz on). Its fuzz draws from the ``random`` module, which is
seeded before each review with the card, how many reviews it had before and the grade: the spread of due
dates that fuzz is for, the same dates on every device, and the interval a button shows before it is
pressed is the one pressing it gives.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import fsrs

from .params import ParamError, described, shown

VERSION = 1
"""The version of a stored record and of an exported file; data from a newer version is never overwritten
on import, and a stored record from one is reported, not read."""
FORMAT = "sqrt-dk review history"
"""What an exported file says it is, in its ``format`` field."""
GRADES = {"again": fsrs.Rating.Again, "hard": fsrs.Rating.Hard, "good": fsrs.Rating.Good, "easy": fsrs.Rating.Easy}
"""The four grades by the names the page sends (its buttons say Again, Hard, Good, Easy)."""
SCHEDULER = fsrs.Scheduler()
"""FSRS with the package's default parameters and settings."""
CARD_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A card's id: lower-case letters and digits in words joined by hyphens, at most ``ID_LENGTH`` characters."""
ID_LENGTH = 80
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(2999, 12, 31, tzinfo=timezone.utc)
"""The times a page may send: any clock's, and far enough from datetime's limits for FSRS's longest interval."""
MOST_CARDS = 2000
MOST_REVIEWS = 10_000
"""Per card; a history this long is years of daily reviews."""
MOST_TEXT = 5_000_000
"""The largest file an import reads, in characters."""
EXAMPLE_TIME = "2026-12-01T09:30:00.000Z"


class RecordError(ValueError):
    """A stored record or an imported card that cannot be read; ``newer`` when a newer version wrote it."""

    def __init__(self, message: str, newer: bool = False):
        super().__init__(message)
        self.newer = newer


@dataclass(frozen=True)
class Review:
    """One grade given to a card, and when."""

    grade: str
    at: datetime


# --- Reading what the page sends ------------------------------------------------------------------------

def moment(text: Any, name: str = "now") -> datetime:
    """A time in ISO 8601 with its zone (the page sends UTC, ``2026-12-01T09:30:00.000Z``), as a UTC
    datetime in whole milliseconds, the precision of a browser's clock and of every time this module writes."""
    form = f"{name} must be a time such as {EXAMPLE_TIME}"
    if not isinstance(text, str) or len(text) > 40:
        raise ParamError(f"{form}, got {described(text)}")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ParamError(f"{form}, got '{shown(text)}'") from None
    if parsed.tzinfo is None:
        raise ParamError(f"{form}, with its time zone (Z for UTC), got '{shown(text)}'")
    if not EARLIEST <= parsed <= LATEST:  # compared before converting: a far zone at year 1 or 9999 overflows
        raise ParamError(f"{name} must be between the years 2000 and 2999, got '{shown(text)}'")
    parsed = parsed.astimezone(timezone.utc)
    return parsed.replace(microsecond=parsed.microsecond // 1000 * 1000)


def stamp(at: datetime) -> str:
    """A time as this module writes it: UTC, milliseconds, ``Z``."""
    return at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def card_id(value: Any, name: str = "card") -> str:
    """A card id, checked against ``CARD_ID``."""
    if not isinstance(value, str) or len(value) > ID_LENGTH or not CARD_ID.fullmatch(value):
        raise ParamError(f"{name} must be a card id such as 'step-4-variance' (lower-case words joined by hyphens), "
                         f"got {described(value)}")
    return value


def card_list(value: Any) -> list[str]:
    """The site's card ids, in the article's order."""
    if not isinstance(value, list) or len(value) > MOST_CARDS:
        raise ParamError(f"cards must be a list of at most {MOST_CARDS} card ids")
    ids = [card_id(v, "each of cards") for v in value]
    if len(set(ids)) != len(ids):
        raise ParamError("cards must not name a card twice")
    return ids


def stored(value: Any) -> dict[str, Any]:
    """The page's stored records by card id, each as the text it read from storage (read later, one by one)."""
    if not isinstance(value, dict) or len(value) > MOST_CARDS:
        raise ParamError(f"records must be a JSON object of at most {MOST_CARDS} records by card id")
    return dict(value)


def grade_name(value: Any, name: str = "grade") -> str:
    """A grade's name, one of ``GRADES``: the one check of every grade, sent by the page, stored or imported,
    so that a grade of any JSON kind (a list, an object) is a message, never an unhashable key."""
    if not isinstance(value, str) or value not in GRADES:
        raise ParamError(f"{name} must be one of {', '.join(GRADES)}, got {described(value)}")
    return value


def reviews_of(value: Any) -> tuple[Review, ...]:
    """A history as records and files hold it, ``[{"grade": "good", "at": "…Z"}, …]``, in time order."""
    if not isinstance(value, list):
        raise RecordError("its reviews are not a list")
    if len(value) > MOST_REVIEWS:
        raise RecordError(f"it holds more than {MOST_REVIEWS} reviews")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise RecordError(f"its review {i + 1} is not a JSON object")
        try:
            out.append(Review(grade_name(item.get("grade"), "its grade"), moment(item.get("at"), "its time")))
        except ParamError as err:
            raise RecordError(f"in its review {i + 1}, {err}") from None
    return tuple(sorted(out, key=lambda r: r.at))


def read_record(text: Any, card: str) -> tuple[Review, ...]:
    """The history in a stored record; a RecordError says what is wrong with it."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise RecordError("it is not a JSON object")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RecordError(f"a newer version of this site saved it (version {version}; this page reads {VERSION})",
                          newer=True)
    if version != VERSION:
        raise RecordError(f"its version is not {VERSION}")
    if data.get("card") != card:
        raise RecordError(f"it names another card, '{shown(data.get('card'))}'")
    return reviews_of(data.get("reviews"))


def history(reviews: Sequence[Review]) -> list[dict[str, str]]:
    return [{"grade": r.grade, "at": stamp(r.at)} for r in reviews]


def record(card: str, reviews: Sequence[Review]) -> str:
    """The text stored for one card: its id and history, under this module's version."""
    return json.dumps({"version": VERSION, "card": card, "reviews": history(reviews)}, separators=(",", ":"))


# --- FSRS -----------------------------------------------------------------------------------------------

def review(card: str, state: fsrs.Card, grade: str, at: datetime, before: int) -> fsrs.Card:
    """One review through the package's scheduler, the card's review number ``before`` + 1, its fuzz drawn from
    a generator seeded by the card, that number and the grade."""
    random.seed(f"{card} {before} {grade}")
    return SCHEDULER.review_card(state, GRADES[grade], review_datetime=at)[0]


def replay(card: str, reviews: Sequence[Review]) -> fsrs.Card:
    """The card's FSRS state after its history, from a new card. (FSRS's own numeric id is not used: the
    site keys cards by their text ids.)"""
    state = fsrs.Card(card_id=0, due=EARLIEST)
    for i, r in enumerate(reviews):
        state = review(card, state, r.grade, r.at, i)
    return state


def schedule(card: str, reviews: Sequence[Review]) -> list[dict[str, Any]]:
    """The FSRS state after each review of a history: what the Pyodide-against-CPython test compares."""
    state, out = fsrs.Card(card_id=0, due=EARLIEST), []
    for i, r in enumerate(reviews):
        state = review(card, state, r.grade, r.at, i)
        out.append({"state": state.state.name.lower(), "step": state.step, "stability": state.stability,
                    "difficulty": state.difficulty, "due": stamp(state.due), "last_review": stamp(state.last_review)})
    return out


def when(due: datetime, now: datetime) -> str:
    """How far off a due time is, in words: "now", "in 10 minutes", "in 3 days", "in 4 months"."""
    seconds = (due - now).total_seconds()
    if seconds <= 0:
        return "now"
    for unit, size, below in (("minute", 60, 60), ("hour", 3600, 24), ("day", 86400, 60), ("month", 2629746, 24),
                              ("year", 31556952, math.inf)):
        count = max(1, round(seconds / size))
        if count < below:
            return f"in {count} {unit}{'' if count == 1 else 's'}"
    raise AssertionError("unreachable: the last unit has no bound")


def status(card: str, reviews: Sequence[Review], now: datetime) -> dict[str, Any]:
    """One card as the page shows it: new or not, due or when, and what each grade would make of it now."""
    state = replay(card, reviews)
    at = max(now, reviews[-1].at) if reviews else now
    preview = {g: when(review(card, state, g, at, len(reviews)).due, at) for g in GRADES}
    if not reviews:
        return {"new": True, "due": None, "is_due": False, "when": "new", "reviews": 0, "preview": preview}
    return {"new": False, "due": stamp(state.due), "is_due": state.due <= now, "when": when(state.due, now),
            "reviews": len(reviews), "retrievability": SCHEDULER.get_card_retrievability(state, now),
            "preview": preview}


# --- What the page asks -----------------------------------------------------------------------------------

def readable(cards: Sequence[str], records: Mapping[str, Any]) -> tuple[dict[str, tuple[Review, ...]], list[dict]]:
    """The histories of the site's cards that the store holds, and a problem for each record that cannot be
    read: ``replace`` says the page may remove it (a newer version's record is left alone)."""
    histories, problems = {}, []
    for card in cards:
        if card in records:
            try:
                histories[card] = read_record(records[card], card)
            except RecordError as err:
                then = ("it is left as it is, and grading the card here starts it afresh" if err.newer else
                        "it is removed, and the card starts afresh")
                problems.append({"card": card, "message": f"Your stored history of card '{card}' cannot be read "
                                 f"({err}), so {then}.", "replace": not err.newer})
    return histories, problems


def overview(cards: Sequence[str], records: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Every card's status; the cards due now in FSRS's order (least likely remembered first, by FSRS's
    retrievability, then the earliest due, then the article's order); the cards never graded; the next
    due time among the rest; and each stored record that cannot be read."""
    histories, problems = readable(cards, records)
    statuses = {card: status(card, histories.get(card, ()), now) for card in cards}
    place = {card: i for i, card in enumerate(cards)}
    due = sorted((c for c in cards if statuses[c]["is_due"]),
                 key=lambda c: (statuses[c]["retrievability"], statuses[c]["due"], place[c]))
    later = sorted((c for c in cards if not statuses[c]["new"] and not statuses[c]["is_due"]),
                   key=lambda c: (statuses[c]["due"], place[c]))
    upcoming = {"card": later[0], "due": statuses[later[0]]["due"], "when": statuses[later[0]]["when"]} if later else None
    new = [c for c in cards if statuses[c]["new"]]
    return {"now": stamp(now), "count": len(due), "due": due, "new": new, "next": upcoming, "cards": statuses,
            "problems": problems, "summary": summary(len(due), upcoming, len(new))}


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary(due: int, upcoming: dict[str, str] | None, new: int) -> str:
    """The review's state in a sentence or two: "3 cards due now.", or when the next card is due."""
    if due:
        said = f"{plural(due, 'card')} due now."
    elif upcoming:
        said = f"No card is due now. The next one is due {upcoming['when']}."
    else:
        said = "No card is due now: you have not graded any card yet."
    if new:
        said += f" {plural(new, 'new card')} {'is' if new == 1 else 'are'} waiting for a first answer."
    return said


def grade(card: str, stored_text: Any, grade_given: str, now: datetime) -> dict[str, Any]:
    """A grade given now: the card's new record and status. A stored record that cannot be read is started
    afresh, and the answer says so. A clock set back before the card's last review counts as that moment."""
    replaced = None
    try:
        reviews = () if stored_text is None else read_record(stored_text, card)
    except RecordError as err:
        reviews, replaced = (), f"The stored history of this card could not be read ({err}); it starts afresh."
    at = max(now, reviews[-1].at) if reviews else now
    reviews = (*reviews, Review(grade_given, at))
    out = {"record": record(card, reviews), "status": status(card, reviews, now)}
    return {**out, "replaced": replaced} if replaced else out


def export(cards: Sequence[str], records: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Every readable history of the site's cards as one JSON file, with each card's due time for a person
    reading it (an import reads only the reviews)."""
    histories, _ = readable(cards, records)
    entries = [{"card": c, "due": stamp(replay(c, histories[c]).due), "reviews": history(histories[c])}
               for c in cards if histories.get(c)]
    text = json.dumps({"format": FORMAT, "version": VERSION, "exported": stamp(now), "cards": entries},
                      indent=1, ensure_ascii=False)
    return {"text": text + "\n", "count": len(entries), "filename": f"sqrt-dk-review-{stamp(now)[:10]}.json"}


def merged(mine: Sequence[Review], theirs: Sequence[Review]) -> tuple[Review, ...]:
    """Two histories of a card as one, in time order, ``mine`` first at a shared moment: each review of ``theirs``
    not matched by one of ``mine`` is added, so a review given twice (a clock set back) is kept twice."""
    unmatched, out = Counter(mine), list(mine)
    for r in theirs:
        if unmatched[r]:
            unmatched[r] -= 1
        else:
            out.append(r)
    return tuple(sorted(out, key=lambda r: r.at))


def refused(why: str) -> dict[str, Any]:
    return {"refused": True, "records": {}, "message": f"{why} Nothing was changed."}


def import_file(cards: Sequence[str], records: Mapping[str, Any], text: Any, now: datetime) -> dict[str, Any]:
    """An exported file merged into the stored records: ``records`` to write (only those that change), and a
    sentence saying what happened. A file that is not JSON, not a review history, from a newer version or
    with an unreadable card is refused whole; cards this site does not have are skipped and named. A merge is
    the union of both histories, so nothing already stored is lost."""
    if not isinstance(text, str) or len(text) > MOST_TEXT:
        return refused(f"This file is too large to be a review history (over {MOST_TEXT:,} characters).")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return refused("This file is not JSON, so it is not a review history exported from this site.")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return refused(f"This file is not a review history exported from this site (it does not say "
                       f"\"format\": \"{FORMAT}\").")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        return refused(f"This file comes from a newer version of this site (version {version}; this page reads "
                       f"version {VERSION}). Reload the page to get the newest version, then import it again.")
    if version != VERSION or not isinstance(data.get("cards"), list):
        return refused(f"This file is not a review history of version {VERSION} with a list of cards.")
    known, incoming, unknown = set(cards), {}, []
    for i, entry in enumerate(data["cards"]):
        name = entry.get("card") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            return refused(f"Card {i + 1} in this file has no card id.")
        try:
            reviews = reviews_of(entry.get("reviews"))
        except RecordError as err:
            return refused(f"Card {i + 1} in this file ('{shown(name)}') cannot be read: {err}.")
        if name not in known:
            unknown.append(name)
            continue
        incoming[name] = merged(incoming.get(name, ()), reviews)
    histories, problems = readable(cards, records)
    newer = {p["card"] for p in problems if not p["replace"]}
    out, added = {}, 0
    for card, reviews in incoming.items():
        if card in newer:  # a newer version's record stays as it is
            continue
        mine = histories.get(card, ())
        union = merged(mine, reviews)
        if len(union) > len(mine) or card not in histories and card in records:
            out[card] = record(card, union)
            added += len(union) - len(mine)
    said = [f"Imported {added} review{'' if added == 1 else 's'} of {len(out)} card{'' if len(out) == 1 else 's'}."
            if out else "Nothing new: every review in this file was already here."]
    if unknown:
        names = ", ".join(f"'{shown(n)}'" for n in sorted(set(unknown))[:5])
        more = len(set(unknown)) - 5
        said.append(f"Skipped {len(set(unknown))} card{'' if len(set(unknown)) == 1 else 's'} this site does not have "
                    f"(a card removed or renamed since the file was written): {names}{f' and {more} more' if more > 0 else ''}.")
    return {"refused": False, "records": out, "message": " ".join(said)}
