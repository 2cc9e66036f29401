"""Phases from the schedule: ruleset defaults, the config's [schedule], pins and extensions.

Deadlines written as clock times ("22:00") are local to the game's timezone and fall on the
first such wall-clock time after the phase start, so daylight-saving changes move them with
the clock; offsets ("48h") are elapsed time. A pin (config `[[games.x.phases]]`) fixes a
phase's start or end exactly, by time or by post number (archived games). The GM can extend a
deadline; that arrives here as an extension.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Mapping, Sequence
from zoneinfo import ZoneInfo

from forummod.engine.ruleset import Timing
from forummod.engine.types import Phase, PhaseId
from forummod.records import frozen
from forummod.schema import ClockOrDuration


@frozen
class Pin:
    """A phase boundary fixed by the GM (config pin or command), by time or by post number."""

    phase: PhaseId
    start: datetime | None = None
    start_post: int | None = None
    end: datetime | None = None
    end_post: int | None = None
    vote_close: datetime | None = None
    action_deadline: datetime | None = None


@frozen
class Extension:
    """The GM moved deadlines of `phase`: `until` the end (and with it the vote close / action
    deadline), `close` the vote close / action deadline alone (the end follows if earlier)."""

    phase: PhaseId
    until: datetime | None = None
    close: datetime | None = None


def resolve(spec: ClockOrDuration, base: datetime, tz: ZoneInfo) -> datetime:
    """The instant a deadline spec names, counted from `base` (an aware datetime)."""
    if spec.offset is not None:
        # elapsed time: add in UTC (aware arithmetic in a local zone would add wall-clock time)
        return base.astimezone(timezone.utc) + spec.offset.td
    assert spec.clock is not None
    local = base.astimezone(tz)
    day = local.date()
    for add in range(0, 3):
        cand = datetime.combine(day + timedelta(days=add), spec.clock, tzinfo=tz)
        # round-trip through UTC normalises wall times that do not exist (DST gaps)
        cand_utc = cand.astimezone(timezone.utc)
        if cand_utc > base:
            return cand_utc
    raise AssertionError("unreachable: a clock time always recurs within two days")


def merged_timing(default: Timing, overrides: Mapping[str, str]) -> Timing:
    """The ruleset's timing with the config's non-empty [schedule] values on top."""
    return replace(default, **{k: v for k, v in overrides.items() if v})


class PhasePlan:
    """The schedule as the fold asks for it: the default deadlines of a phase from its real start.

    The fold opens each phase when the previous one really ends (a hammer or a GM's `end` can
    end it early, a pause can move it) and asks the plan for the next one: pins and extensions
    apply to it here, deadlines count from the start it is given.
    """

    def __init__(self, timing: Timing, *, start: datetime, tz: ZoneInfo, pins: Sequence[Pin] = (),
                 extensions: Sequence[Extension] = (), post_times: Mapping[int, datetime] | None = None,
                 max_phases: int = 400, first: PhaseId | None = None):
        self.timing, self.start, self.tz, self.max_phases = timing, start, tz, max_phases
        self.first = first  # a game joined mid-way opens with this phase (default: N1 or D1)
        self.post_times = post_times or {}
        self.pin_by = {p.phase: p for p in pins}
        self.ext_by: dict[PhaseId, Extension] = {}
        for e in extensions:
            old = self.ext_by.get(e.phase)
            # the latest extension wins, field by field (an end-only one keeps an earlier close)
            self.ext_by[e.phase] = e if old is None else Extension(
                e.phase, e.until if e.until is not None else old.until,
                e.close if e.close is not None else old.close)
        self.night_first = timing.first_phase != "day"
        self.stop_after: datetime | None = None  # a stalled game opens no phase after this (issue 14)
        #: when the GM posted in the game thread (None: the GM's posts are not known): the post
        #: that opens a day opens its night-action window where a ruleset says so (LUP D17)
        self.gm_posts: tuple[datetime, ...] | None = None

    def first_id(self) -> PhaseId:
        return self.first or PhaseId(1, "night" if self.night_first else "day")

    def next_id(self, pid: PhaseId) -> PhaseId:
        if pid.kind == "night":
            return PhaseId(pid.number if self.night_first else pid.number + 1, "day")
        return PhaseId(pid.number + 1 if self.night_first else pid.number, "night")

    def first_phase(self) -> Phase:
        return self.phase(self.first_id(), self.start)

    def next_phase(self, prev: Phase, real_end: datetime, count: int) -> Phase | None:
        """The phase after `prev`, which really ended at `real_end`; None past the game's length."""
        if count >= self.max_phases:
            return None
        if self.stop_after is not None and real_end > self.stop_after:
            return None
        return self.phase(self.next_id(prev.id), real_end)

    def sample_phases(self, count: int = 4) -> tuple[Phase, ...]:
        """The first phases as the schedule alone lays them out: the yardstick of a phase's length."""
        phases = [self.first_phase()]
        while len(phases) < count and phases[-1].end is not None:
            nxt = self.phase(self.next_id(phases[-1].id), phases[-1].end)
            phases.append(nxt)
        return tuple(phases)

    def end_pinned(self, pid: PhaseId) -> bool:
        """The config or the GM fixed this phase's end: nothing in the game ends it earlier
        (an archived game's day ends at the moderator's lynch post, not at the hammer)."""
        pin = self.pin_by.get(pid)
        return pin is not None and (pin.end is not None or pin.end_post is not None)

    def _pinned_start(self, pid: PhaseId) -> tuple[datetime | None, int | None]:
        pin = self.pin_by.get(pid)
        if pin is None:
            return None, None
        if pin.start_post is not None and pin.start_post in self.post_times:
            return self.post_times[pin.start_post], pin.start_post
        return pin.start, None

    def phase(self, pid: PhaseId, start: datetime) -> Phase:
        """Phase `pid` opened at `start` (or at its pinned start), with its deadlines."""
        timing, tz = self.timing, self.tz
        pin = self.pin_by.get(pid)
        ph_start, start_post = start, None
        pinned, pinned_post = self._pinned_start(pid)
        if pinned is not None:
            ph_start, start_post = pinned, pinned_post
        kind = pid.kind
        if kind == "day":
            close = resolve(timing.spec("vote_close"), ph_start, tz)
            end = resolve(timing.spec("day_end"), ph_start, tz)
            if end < close:  # a clock end earlier than the close means the one after it
                end = resolve(timing.spec("day_end"), close, tz)
            deadline_fields = {"vote_close": close}
        else:
            due = resolve(timing.spec("action_deadline"), ph_start, tz)
            end = resolve(timing.spec("night_end"), ph_start, tz)
            if end < due:  # e.g. a night opened at 08:00: the dawn is the 09:00 after 22:30
                end = resolve(timing.spec("night_end"), due, tz)
            deadline_fields = {"action_deadline": due}
        end_post = None
        end_pinned = False
        if pin is not None:
            if pin.end_post is not None and pin.end_post in self.post_times:
                end, end_post = self.post_times[pin.end_post], pin.end_post
                deadline_fields = {k: end for k in deadline_fields}
                end_pinned = True
            elif pin.end is not None:
                end = pin.end
                deadline_fields = {k: min(v, end) for k, v in deadline_fields.items()}
                end_pinned = True
            if kind == "day" and pin.vote_close is not None:
                deadline_fields["vote_close"] = pin.vote_close
            if kind == "night" and pin.action_deadline is not None:
                deadline_fields["action_deadline"] = pin.action_deadline
        ext = self.ext_by.get(pid)
        if not end_pinned and ext is None:
            # the next phase opened by the GM (a pinned start) before this one's default end ends it
            nxt, _post = self._pinned_start(self.next_id(pid))
            if nxt is not None and ph_start < nxt < end:
                end = nxt
                deadline_fields = {k: min(v, end) for k, v in deadline_fields.items()}
        ph = Phase(id=pid, start=ph_start, end=end, start_post=start_post, end_post=end_post, **deadline_fields)
        return extended(ph, ext.until, ext.close) if ext is not None else ph


def extended(ph: Phase, until: datetime | None, close: datetime | None) -> Phase:
    """`ph` after a GM's extension: `until` moves the end and with it the vote close (action
    deadline); `close` moves the vote close (action deadline) alone, the end follows if earlier."""
    field_ = "vote_close" if ph.kind == "day" else "action_deadline"
    end, end_post = ph.end, ph.end_post
    deadline = ph.votes_close_at() if ph.kind == "day" else ph.actions_due_at()
    if until is not None:
        deadline = until
        end = until if close is not None or end is None else max(end, until)
        end_post = None
    if close is not None:
        deadline = close
        if end is None or end < close:
            end, end_post = close, None
    return replace(ph, end=end, end_post=end_post, **{field_: deadline})


def build_phases(timing: Timing, *, start: datetime, tz: ZoneInfo, now: datetime,
                 pins: Sequence[Pin] = (), extensions: Sequence[Extension] = (),
                 post_times: Mapping[int, datetime] | None = None, max_phases: int = 400,
                 first: PhaseId | None = None) -> tuple[Phase, ...]:
    """Every phase from the game start up to the first one that starts after `now`, each opened
    at the default end of the one before (what the schedule alone says; the fold may differ).

    The last phase returned may lie in the future: it tells the scheduler the next deadline.
    """
    plan = PhasePlan(timing, start=start, tz=tz, pins=pins, extensions=extensions, post_times=post_times,
                     max_phases=max_phases, first=first)
    phases: list[Phase] = [plan.first_phase()]
    while phases[-1].start <= now:
        nxt = plan.next_phase(phases[-1], phases[-1].end, len(phases))
        if nxt is None:
            break
        phases.append(nxt)
    return tuple(phases)


def current_phase(phases: Sequence[Phase], now: datetime) -> Phase | None:
    cur = None
    for p in phases:
        if p.start <= now:
            cur = p
    return cur
