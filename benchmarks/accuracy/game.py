"""One game end to end: derive its config, read the moderator's counts, run forummod, compare
and classify. The result is plain data (`GameReport`), so games can run in worker processes."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from benchmarks.accuracy.classify import Context, Why, classify_day, classify_diff
from benchmarks.accuracy.compare import check_counts
from benchmarks.accuracy.corpus import Corpus, half_of
from benchmarks.accuracy.derive import Derived, derive
from benchmarks.accuracy.gameconfig import board_time
from benchmarks.accuracy.modcounts import NOT_VOTING, SeatNames, read_counts
from benchmarks.accuracy.runner import ForummodRun, run_game


@dataclass(frozen=True)
class DayRow:
    day: int
    expected: str | None  # seat lynched, "no lynch", None: no outcome in the data
    got: str | None  # forummod's: seat, "no lynch", None
    reason: str
    hammer_post: int | None
    transition: int | None
    in_data: bool
    right: bool | None  # None: not scored (no outcome, or its end is not in the data)
    cls: str = ""


@dataclass(frozen=True)
class Miss:
    """One voter of one count forummod and the moderator disagree on."""

    post: int
    phase: str
    voter: str
    moderator: str
    forummod: str
    cls: str
    evidence: str
    at_post: int | None
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class CountRow:
    post: int
    phase: str
    voters: int
    exact: bool
    strict: bool
    misses: int
    moderator_errors: int


@dataclass(frozen=True)
class GameReport:
    thread: str
    number: str
    title: str
    half: str
    posts: int
    seconds: float
    days: tuple[DayRow, ...]
    counts: tuple[CountRow, ...]
    misses: tuple[Miss, ...]
    limitations: tuple[str, ...]
    moderators: tuple[str, ...]
    co_moderators: tuple[str, ...]
    unmatched: tuple[str, ...]
    error: str = ""


def seat_posts(derived: Derived, records: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    """Seat key -> numbers of the posts its accounts wrote (by user id, else by shown name)."""
    by_id = {a.user_id: s.key for s in derived.seats for a in s.accounts if a.user_id}
    by_name = {a.shown.casefold(): s.key for s in derived.seats for a in s.accounts}
    out: dict[str, list[int]] = {}
    for r in records:
        s = by_id.get(str(r["user_id"])) or by_name.get(r["user"].casefold())
        if s:
            out.setdefault(s, []).append(int(r["number"]))
    return out


def evaluate(corpus: Corpus, thread: str) -> GameReport:
    t0 = time.process_time()
    game = corpus.archive[thread]
    try:
        records = corpus.posts(thread)
        derived = derive(game, records, corpus.day_ends(thread))
        names = SeatNames(derived.names)
        counts = read_counts([(int(r["number"]), r["content"]) for r in records
                              if str(r["user_id"]) in derived.mod_ids], names)
        # a count in the post where the GM entered a death or a reset shows it: compare after it
        # (`tally --at N+1`); every other count just before its post (`tally --at N`)
        ruled = {e.at_post for e in derived.spec.events}
        query = {c.post: c.post + 1 if c.post in ruled else c.post for c in counts}
        fm = run_game(derived, records, sorted(set(query.values())))
        if fm.error:
            raise RuntimeError(fm.error)
        fm = replace(fm, standings={c.post: replace(fm.standings[q], post=c.post)
                                    for c, q in ((c, query[c.post]) for c in counts) if q in fm.standings})
        return _report(game, thread, records, derived, counts, fm, time.process_time() - t0)
    except Exception as exc:  # noqa: BLE001 - one broken game is a line of the report, not the end of the run
        return GameReport(thread, game.number, game.title, half_of(thread), 0, time.process_time() - t0, (), (), (),
                          (), (), (), (), error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}")


def _report(game, thread, records, derived: Derived, counts, fm: ForummodRun, seconds: float) -> GameReport:
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(derived.spec.timezone)
    sposts = seat_posts(derived, records)
    checks = check_counts(counts, fm.standings, sposts)
    by_post = {c.post: c for c in counts}
    ctx = Context(
        html={int(r["number"]): r["content"] for r in records},
        times={int(r["number"]): board_time(r["time"], tz) for r in records},
        readings=fm.readings,
        seat_posts=sposts,
        seat_names={s.key: tuple({a.shown for a in s.accounts} | {a.archive_name for a in s.accounts})
                    for s in derived.seats},
        unmatched_seats=frozenset(s.key for s in derived.seats if any(a.how == "unmatched" for a in s.accounts)),
        replaced_at={seat.key: tuple(p for _, p in spec.replaces)
                     for seat, spec in zip(derived.seats, derived.spec.seats)},
        fm_lynch={f"D{d.day}": (d.seat if d.outcome == "lynch" else None, d.post) for d in fm.days},
        archive_lynch={f"D{d.day}": d.expected for d in derived.days},
    )
    starts = {f"D{d.day}": d.start for d in derived.days}
    misses: list[Miss] = []
    count_rows: list[CountRow] = []
    last_classes: dict[str, list[str]] = {}
    for i, chk in enumerate(checks):
        nxt = checks[i + 1] if i + 1 < len(checks) and checks[i + 1].phase == chk.phase else None
        classes = []
        for d in chk.diffs:
            nxt_agrees = nxt is not None and by_post[nxt.post].votes.get(d.voter, NOT_VOTING) == d.forummod
            why: Why = classify_diff(d, chk.post, starts.get(chk.phase, 0), d in chk.moderator_errors,
                                     fm.standings[chk.post].living, nxt_agrees, ctx)
            misses.append(Miss(chk.post, chk.phase, d.voter, d.moderator, d.forummod, why.cls, why.evidence,
                               why.post, why.suggestions))
            if why.cls != "moderator_error":
                classes.append(why.cls)
        count_rows.append(CountRow(chk.post, chk.phase, chk.voters, chk.exact, chk.strict, len(chk.diffs),
                                   len(chk.moderator_errors)))
        last_classes[chk.phase] = classes
    days = []
    wrong_before = False
    for d, got in zip(derived.days, fm.days):
        mine = got.seat if got.outcome == "lynch" else got.outcome
        scored = d.expected is not None and d.in_data
        right = (mine == d.expected) if scored else None
        cls = ""
        if right is False:
            cls = classify_day(d.expected, got, last_classes.get(f"D{d.day}", []), game.note_text(),
                               derived.limitations, wrong_before)
        if d.expected is not None and mine != d.expected:
            wrong_before = True
        days.append(DayRow(d.day, d.expected, mine, got.reason, got.post, d.end, d.in_data, right, cls))
    unmatched = tuple(a.archive_name for s in derived.seats for a in s.accounts if a.how == "unmatched")
    return GameReport(thread, game.number, game.title, half_of(thread), len(records), seconds, tuple(days),
                      tuple(count_rows), tuple(misses), derived.limitations, derived.mod_names,
                      derived.co_moderators, unmatched)
