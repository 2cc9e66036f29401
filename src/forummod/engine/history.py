"""The vote history of each day, recorded while the engine folds the game (issue 32).

`HistoryRecorder` is the fold's observer (`run_game(observe=...)`): after every event it compares
the day's count with the last one it kept, so each change of the count is the count `tally
--at` shows from that instant on, taken from the same run, never recounted by a second rule.
Two views come out of one pass: the GM's (every vote, secret ones and weights included) and
the thread's (`Ruleset.tally(public=True)`: no secret vote, weights only where the ruleset's
`public_weights` says they are public). A row of the public view is made from the public
count alone, so nothing the thread may not see can reach it.
"""

from __future__ import annotations

from datetime import datetime
from dataclasses import replace
from typing import Any, Iterable

from forummod.engine.events import (
    ActionEvent, Event, Override, PhaseStart, UnvoteEvent, VoteEvent,
)
from forummod.engine.types import GameState, Phase, Rejection, Tally
from forummod.model import Source
from forummod.records import frozen

#: The rejections that are about a vote (an action named like `secret_vote` is one too).
VOTE_KINDS = ("vote", "unvote")


@frozen
class VoteChange:
    """One row of a day's history: a voter's vote moved (or was refused) at one event.

    `before`/`after` are the candidate voted before and after (None: no vote); both equal and
    `counted` false for a refused vote (`reason` says why: `late`, `dead_voter`...). `notes`
    are codes the faces put in words: `secret`, `gm` (entered by the GM), `pm` (a PM action),
    `replacement` (a seat changed hands), `weight` (only the weight moved), `ballot` (a new
    ballot of a revote cleared it), `hammer`.
    """

    phase: str
    at: datetime
    key: tuple  # the event's place in the timeline: (instant, rank, seq)
    source: Source | None
    voter: str
    before: str | None
    after: str | None
    weight: float
    counted: bool = True
    reason: str = ""
    rule: str | None = None
    notes: tuple[str, ...] = ()


@frozen
class CountPoint:
    """The count from one instant on: what `tally --at` shows until the next point."""

    at: datetime
    key: tuple
    tally: Tally


@frozen
class Hammer:
    """The vote that reached the majority and closed the day's vote."""

    at: datetime
    key: tuple
    candidate: str
    total: float
    source: Source | None = None


@frozen
class DayHistory:
    """One day (one view: GM or public): every change, the count after each, the hammer."""

    phase: str
    start: datetime
    end: datetime  # the vote close, or the analysis time for a day still open
    public: bool
    changes: tuple[VoteChange, ...]
    points: tuple[CountPoint, ...]  # the first is the count at the day's start
    hammer: Hammer | None = None
    open: bool = False  # the vote was still open at the analysis time

    def count_before(self, key: tuple) -> Tally | None:
        """The count standing just before the timeline position `key` (None: before the day)."""
        found = None
        for p in self.points:
            if p.key >= key:
                break
            found = p.tally
        return found

    @property
    def final(self) -> Tally | None:
        return self.points[-1].tally if self.points else None

    def candidates(self) -> tuple[str, ...]:
        """Every name that held a vote during the day, in the order they first did."""
        seen: dict[str, None] = {}
        for p in self.points:
            for c in p.tally.candidates:
                if c.total > 0:
                    seen.setdefault(c.name, None)
        return tuple(seen)

    @property
    def majority(self) -> int | None:
        """The majority at the day's end (it can fall when a player dies during the day)."""
        return self.final.majority if self.final else None


@frozen
class Replacement:
    """A seat changing hands, as the fold applied it (config `replaces`, `gm replace`)."""

    at: datetime
    key: tuple
    old: str
    new: str
    phase: str  # the phase it happened in ("" before the first)
    post: int | None = None  # at (or right after) this game-thread post, when it was given by post


@frozen
class VoteHistory:
    """Every day's history in both views, in the order the days were played, and the
    replacements the fold applied (the archive lists them; they are public)."""

    days: tuple[DayHistory, ...]
    public_days: tuple[DayHistory, ...]
    replacements: tuple[Replacement, ...] = ()

    def view(self, public: bool) -> tuple[DayHistory, ...]:
        return self.public_days if public else self.days

    def day(self, name: str, public: bool = False) -> DayHistory | None:
        return next((d for d in self.view(public) if d.phase == name), None)


# --------------------------------------------------------------------------- the recorder


def vote_map(t: Tally) -> dict[str, tuple[str, float, bool]]:
    """voter -> (candidate, weight, secret) of a count."""
    return {v.voter: (c.name, v.weight, v.secret) for c in t.candidates for v in c.voters}


class _Day:
    """A day being recorded in one view."""

    def __init__(self, phase: Phase, public: bool, first: Tally, key: tuple):
        self.phase = phase
        self.public = public
        self.changes: list[VoteChange] = []
        self.points: list[CountPoint] = [CountPoint(phase.start, key, first)]
        self.hammer: Hammer | None = None

    @property
    def last(self) -> Tally:
        return self.points[-1].tally

    def freeze(self, end: datetime, open_: bool) -> DayHistory:
        return DayHistory(self.phase.name, self.phase.start, max(end, self.phase.start), self.public,
                          tuple(self.changes), tuple(self.points), self.hammer, open_)


class HistoryRecorder:
    """The fold's observer that keeps each day's history; `result()` once the run is over.

    Cheap when nothing happens: an event that leaves the state as it was costs one identity
    check; a change costs two counts (GM and thread view) of the day in progress.
    """

    def __init__(self, ruleset: Any):
        self.rs = ruleset
        self.reset()

    def reset(self) -> None:
        """Forget what was seen: the service folds the game again (names settled by --approve-all)."""
        self.days: dict[str, tuple[_Day, _Day]] = {}
        self.order: list[str] = []
        self.seen_rejections = 0
        self.replacements: list[Replacement] = []

    # called by the fold: (event, state before, state after, run so far)
    def __call__(self, ev: Event, before: GameState, after: GameState, run: Any) -> None:
        new = run.rejections[self.seen_rejections:]
        self.seen_rejections = len(run.rejections)
        if isinstance(ev, Override) and ev.kind == "replace" and after is not before:
            post = int(ev.seq) if 0 < ev.seq < 1e12 else None  # at post N, or right after it (N.5)
            self.replacements.append(Replacement(ev.at, ev.sort_key, ev.player, ev.target,
                                                 after.phase.name if after.phase else "", post))
        ph = after.phase
        if ph is None or ph.kind != "day":
            return
        if ph.name not in self.days:
            if isinstance(ev, PhaseStart) or after is not before:
                self._open(ph, after, ev)
            else:
                return
        gm, pub = self.days[ph.name]
        gm.phase = pub.phase = ph  # its deadlines may have moved (an extension, a hammer)
        closed = f"votes:{ph.name}"
        was_closed = before.phase is not None and before.phase.name == ph.name and closed in before.closed
        if after is not before and not (was_closed and closed in after.closed):  # a revote reopens it
            self._count(ev, after, gm, pub)
        for r in new:
            if r.kind in VOTE_KINDS or "vote" in r.kind:
                self._refused(ev, r, gm, pub)
        if closed in after.closed and not was_closed and isinstance(ev, (VoteEvent, ActionEvent, Override)):
            self._hammer(ev, gm, pub)

    def _open(self, ph: Phase, st: GameState, ev: Event) -> None:
        key = (ph.start, -1, -1.0)
        self.days[ph.name] = (_Day(ph, False, self.rs.tally(st, ph.start, public=False), key),
                              _Day(ph, True, self.rs.tally(st, ph.start, public=True), key))
        self.order.append(ph.name)

    def _count(self, ev: Event, st: GameState, gm: _Day, pub: _Day) -> None:
        key = ev.sort_key
        source = _source(ev)
        notes = _event_notes(ev)
        for day, public in ((gm, False), (pub, True)):
            t = self.rs.tally(st, ev.at, public=public)
            if _same(t, day.last):
                continue
            day.changes.extend(_diff(day.phase.name, ev, key, source, notes, day.last, t, public))
            day.points.append(CountPoint(ev.at, key, t))

    def _refused(self, ev: Event, r: Rejection, gm: _Day, pub: _Day) -> None:
        """A refused vote: a row that changes nothing, `before` the vote that keeps standing."""
        source = r.source or _source(ev)
        standing = vote_map(gm.last).get(r.actor)
        row = VoteChange(gm.phase.name, r.at or ev.at, ev.sort_key, source, r.actor,
                         standing[0] if standing else None, r.target, 0.0, counted=False, reason=r.reason,
                         rule=r.rule, notes=_event_notes(ev))
        gm.changes.append(row)
        if r.public and r.kind in VOTE_KINDS and source is not None and source.kind == "post":
            seen = vote_map(pub.last).get(r.actor)
            pub.changes.append(VoteChange(pub.phase.name, row.at, row.key, source, r.actor,
                                          seen[0] if seen else None, r.target, 0.0, counted=False,
                                          reason=r.reason, rule=r.rule))

    def _hammer(self, ev: Event, gm: _Day, pub: _Day) -> None:
        """The event closed the vote: its wagon reached the majority (the thread's view marks
        it only where its own count shows the majority: a hidden double vote stays hidden)."""
        for day in (gm, pub):
            t = day.last
            if not t.candidates:
                continue
            top = t.candidates[0]
            if day is pub and (t.majority is None or top.total < t.majority):
                continue
            day.hammer = Hammer(ev.at, ev.sort_key, top.name, top.total, _source(ev))
            day.changes[:] = [_with_note(c, "hammer") if c.key == ev.sort_key and c.counted else c
                              for c in day.changes]

    def result(self, phases: Iterable[Phase], now: datetime) -> VoteHistory:
        """The histories, each day ending at its vote close as the run left it (or `now`)."""
        final = {p.name: p for p in phases}
        gm_days, pub_days = [], []
        for name in self.order:
            gm, pub = self.days[name]
            ph = final.get(name, gm.phase)
            close = ph.votes_close_at()
            open_ = close is None or close > now
            end = now if open_ else close
            for d in (gm, pub):
                d.phase = ph
            gm_days.append(gm.freeze(end, open_))
            pub_days.append(pub.freeze(end, open_))
        return VoteHistory(tuple(gm_days), tuple(pub_days), tuple(self.replacements))


def _same(a: Tally, b: Tally) -> bool:
    return (a.candidates, a.not_voting, a.majority, a.living, a.round) == \
        (b.candidates, b.not_voting, b.majority, b.living, b.round)


def _source(ev: Event) -> Source | None:
    return getattr(ev, "source", None)


def _event_notes(ev: Event) -> tuple[str, ...]:
    if isinstance(ev, Override):
        return ("replacement",) if ev.kind == "replace" else ("gm",)
    if isinstance(ev, (VoteEvent, UnvoteEvent)) and ev.channel == "gm":
        return ("gm",)
    if isinstance(ev, ActionEvent):
        return ("pm",)
    return ()


def _with_note(c: VoteChange, note: str) -> VoteChange:
    return replace(c, notes=c.notes + (note,)) if note not in c.notes else c


def _diff(phase: str, ev: Event, key: tuple, source: Source | None, notes: tuple[str, ...], old: Tally,
          new: Tally, public: bool) -> list[VoteChange]:
    """The rows of one change of the count: each voter whose candidate or weight moved."""
    was, now = vote_map(old), vote_map(new)
    rows = []
    first = getattr(ev, "voter", None) or getattr(ev, "actor", None) or getattr(ev, "player", None)
    voters = sorted(set(was) | set(now), key=lambda v: (v != first, v))
    for voter in voters:
        a, b = was.get(voter), now.get(voter)
        if a == b:
            continue
        extra = list(notes)
        if new.round != old.round:
            extra.append("ballot")  # a revote (witch-hunt): the earlier round's votes no longer count
        if a is not None and b is not None and a[0] == b[0]:
            extra.append("weight")
        if b is not None and b[2] and not public:
            extra.append("secret")
        weight = (b or a)[1]
        rows.append(VoteChange(phase, ev.at, key, source, voter, a[0] if a else None, b[0] if b else None,
                               weight, notes=tuple(dict.fromkeys(extra))))
    return rows
