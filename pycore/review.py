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

from .i18n import N_, _
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
    datetime in whole milliseconds, the precision of a browser's clock and of every time this module writes.
    ``name`` is what a message calls it: a request's field by its name, or words already translated."""
    if not isinstance(text, str) or len(text) > 40:
        raise ParamError(_("{name} must be a time such as {example}, got {got}").format(
            name=name, example=EXAMPLE_TIME, got=described(text)))
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ParamError(_("{name} must be a time such as {example}, got {got}").format(
            name=name, example=EXAMPLE_TIME, got=described(text))) from None
    if parsed.tzinfo is None:
        raise ParamError(_("{name} must be a time such as {example}, with its time zone (Z for UTC), got '{value}'")
                         .format(name=name, example=EXAMPLE_TIME, value=shown(text)))
    if not EARLIEST <= parsed <= LATEST:  # compared before converting: a far zone at year 1 or 9999 overflows
        raise ParamError(_("{name} must be between the years 2000 and 2999, got '{value}'").format(
            name=name, value=shown(text)))
    parsed = parsed.astimezone(timezone.utc)
    return parsed.replace(microsecond=parsed.microsecond // 1000 * 1000)


def stamp(at: datetime) -> str:
    """A time as this module writes it: UTC, milliseconds, ``Z``."""
    return at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def card_id(value: Any, name: str = "card") -> str:
    """A card id, checked against ``CARD_ID``."""
    if not isinstance(value, str) or len(value) > ID_LENGTH or not CARD_ID.fullmatch(value):
        raise ParamError(_("{name} must be a card id such as 'step-4-variance' (lower-case words joined by hyphens), "
                           "got {got}").format(name=name, got=described(value)))
    return value


def card_list(value: Any) -> list[str]:
    """The site's card ids, in the article's order."""
    if not isinstance(value, list) or len(value) > MOST_CARDS:
        raise ParamError(_("cards must be a list of at most {most} card ids").format(most=MOST_CARDS))
    ids = [card_id(v, _("each of cards")) for v in value]
    if len(set(ids)) != len(ids):
        raise ParamError(_("cards must not name a card twice"))
    return ids


def stored(value: Any) -> dict[str, Any]:
    """The page's stored records by card id, each as the text it read from storage (read later, one by one)."""
    if not isinstance(value, dict) or len(value) > MOST_CARDS:
        raise ParamError(_("records must be a JSON object of at most {most} records by card id").format(
            most=MOST_CARDS))
    return dict(value)


def grade_name(value: Any, name: str = "grade") -> str:
    """A grade's name, one of ``GRADES``: the one check of every grade, sent by the page, stored or imported,
    so that a grade of any JSON kind (a list, an object) is a message, never an unhashable key."""
    if not isinstance(value, str) or value not in GRADES:
        raise ParamError(_("{name} must be one of {grades}, got {got}").format(
            name=name, grades=", ".join(GRADES), got=described(value)))
    return value


def reviews_of(value: Any) -> tuple[Review, ...]:
    """A history as records and files hold it, ``[{"grade": "good", "at": "…Z"}, …]``, in time order."""
    if not isinstance(value, list):
        raise RecordError(_("its reviews are not a list"))
    if len(value) > MOST_REVIEWS:
        raise RecordError(_("it holds more than {most} reviews").format(most=MOST_REVIEWS))
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise RecordError(_("its review {number} is not a JSON object").format(number=i + 1))
        try:
            out.append(Review(grade_name(item.get("grade"), _("its grade")), moment(item.get("at"), _("its time"))))
        except ParamError as err:
            raise RecordError(_("in its review {number}, {problem}").format(number=i + 1, problem=err)) from None
    return tuple(sorted(out, key=lambda r: r.at))


def read_record(text: Any, card: str) -> tuple[Review, ...]:
    """The history in a stored record; a RecordError says what is wrong with it."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise RecordError(_("it is not a JSON object"))
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise RecordError(_("a newer version of this site saved it (version {version}; this page reads {current})")
                          .format(version=version, current=VERSION), newer=True)
    if version != VERSION:
        raise RecordError(_("its version is not {current}").format(current=VERSION))
    if data.get("card") != card:
        raise RecordError(_("it names another card, '{card}'").format(card=shown(data.get("card"))))
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


UNITS = ((N_("in {count} minute"), N_("in {count} minutes"), 60, 60),
         (N_("in {count} hour"), N_("in {count} hours"), 3600, 24),
         (N_("in {count} day"), N_("in {count} days"), 86400, 60),
         (N_("in {count} month"), N_("in {count} months"), 2629746, 24),
         (N_("in {count} year"), N_("in {count} years"), 31556952, math.inf))
"""How far off a time is in each unit, one and more than one, its size in seconds and the count it stays below."""


def when(due: datetime, now: datetime) -> str:
    """How far off a due time is, in words: "now", "in 10 minutes", "in 3 days", "in 4 months"."""
    seconds = (due - now).total_seconds()
    if seconds <= 0:
        return _("now")
    for one, many, size, below in UNITS:
        count = max(1, round(seconds / size))
        if count < below:
            return _(one if count == 1 else many).format(count=count)
    raise AssertionError("unreachable: the last unit has no bound")


def status(card: str, reviews: Sequence[Review], now: datetime) -> dict[str, Any]:
    """One card as the page shows it: new or not, due or when, and what each grade would make of it now."""
    state = replay(card, reviews)
    at = max(now, reviews[-1].at) if reviews else now
    preview = {g: when(review(card, state, g, at, len(reviews)).due, at) for g in GRADES}
    if not reviews:
        return {"new": True, "due": None, "is_due": False, "when": _("new"), "reviews": 0, "preview": preview}
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
                said = (_("Your stored history of card '{card}' cannot be read ({problem}), so it is left as it is, "
                          "and grading the card here starts it afresh.") if err.newer else
                        _("Your stored history of card '{card}' cannot be read ({problem}), so it is removed, and "
                          "the card starts afresh."))
                problems.append({"card": card, "message": said.format(card=card, problem=err),
                                 "replace": not err.newer})
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


def summary(due: int, upcoming: dict[str, str] | None, new: int) -> str:
    """The review's state in a sentence or two: "3 cards due now.", or when the next card is due."""
    if due:
        said = (_("{count} card due now.") if due == 1 else _("{count} cards due now.")).format(count=due)
    elif upcoming:
        said = _("No card is due now. The next one is due {when}.").format(when=upcoming["when"])
    else:
        said = _("No card is due now: you have not graded any card yet.")
    if new:
        said += " " + (_("{count} new card is waiting for a first answer.") if new == 1 else
                       _("{count} new cards are waiting for a first answer.")).format(count=new)
    return said


def grade(card: str, stored_text: Any, grade_given: str, now: datetime) -> dict[str, Any]:
    """A grade given now: the card's new record and status. A stored record that cannot be read is started
    afresh, and the answer says so. A clock set back before the card's last review counts as that moment."""
    replaced = None
    try:
        reviews = () if stored_text is None else read_record(stored_text, card)
    except RecordError as err:
        reviews, replaced = (), _("The stored history of this card could not be read ({problem}); it starts "
                                  "afresh.").format(problem=err)
    at = max(now, reviews[-1].at) if reviews else now
    reviews = (*reviews, Review(grade_given, at))
    out = {"record": record(card, reviews), "status": status(card, reviews, now)}
    return {**out, "replaced": replaced} if replaced else out


def export(cards: Sequence[str], records: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Every readable history of the site's cards as one JSON file, with each card's due time for a person
    reading it (an import reads only the reviews)."""
    histories = readable(cards, records)[0]
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
    return {"refused": True, "records": {}, "message": why + " " + _("Nothing was changed.")}


def imported(reviews: int, cards: int) -> str:
    """What an import added, in a sentence."""
    said = ((_("Imported {reviews} reviews of {cards} cards."), _("Imported {reviews} reviews of {cards} card.")),
            (_("Imported {reviews} review of {cards} cards."), _("Imported {reviews} review of {cards} card.")))
    return said[reviews == 1][cards == 1].format(reviews=reviews, cards=cards)


def import_file(cards: Sequence[str], records: Mapping[str, Any], text: Any, now: datetime) -> dict[str, Any]:
    """An exported file merged into the stored records: ``records`` to write (only those that change), and a
    sentence saying what happened. A file that is not JSON, not a review history, from a newer version or
    with an unreadable card is refused whole; cards this site does not have are skipped and named. A merge is
    the union of both histories, so nothing already stored is lost."""
    if not isinstance(text, str) or len(text) > MOST_TEXT:
        return refused(_("This file is too large to be a review history (over {most} characters).").format(
            most=f"{MOST_TEXT:,}"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return refused(_("This file is not JSON, so it is not a review history exported from this site."))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return refused(_("This file is not a review history exported from this site (it does not say "
                         "\"format\": \"{format}\").").format(format=FORMAT))
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        return refused(_("This file comes from a newer version of this site (version {version}; this page reads "
                         "version {current}). Reload the page to get the newest version, then import it again.")
                       .format(version=version, current=VERSION))
    if version != VERSION or not isinstance(data.get("cards"), list):
        return refused(_("This file is not a review history of version {current} with a list of cards.").format(
            current=VERSION))
    known, incoming, unknown = set(cards), {}, []
    for i, entry in enumerate(data["cards"]):
        name = entry.get("card") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            return refused(_("Card {number} in this file has no card id.").format(number=i + 1))
        try:
            reviews = reviews_of(entry.get("reviews"))
        except RecordError as err:
            return refused(_("Card {number} in this file ('{card}') cannot be read: {problem}.").format(
                number=i + 1, card=shown(name), problem=err))
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
    said = [imported(added, len(out)) if out else _("Nothing new: every review in this file was already here.")]
    if unknown:
        names = ", ".join(f"'{shown(n)}'" for n in sorted(set(unknown))[:5])
        count, more = len(set(unknown)), len(set(unknown)) - 5
        said.append((_("Skipped {count} card this site does not have (a card removed or renamed since the file was "
                       "written): {names}.") if count == 1 else
                     _("Skipped {count} cards this site does not have (a card removed or renamed since the file was "
                       "written): {names}.") if more <= 0 else
                     _("Skipped {count} cards this site does not have (a card removed or renamed since the file was "
                       "written): {names} and {more} more.")).format(count=count, names=names, more=more))
    return {"refused": False, "records": out, "message": " ".join(said)}
