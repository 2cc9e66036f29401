"""Phases from the schedule: ruleset defaults, the config's [schedule], pins and extensions.

Deadlines written as clock times ("22:00") are local to the game's timezone and fall on the
first such wall-clock time after the phase start, so daylight-saving changes move them with
the clock; offsets ("48h") are elapsed time. A pin (config `[[games.x.phases]]`) fixes a
phase's start or end exactly, by time or by post number (archived games). The GM can extend a
deadline; that arrives here as an extension.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Mapping, Sequence
from zoneinfo import ZoneInfo

from forummod.engine.ruleset import Timing
from forummod.engine.types import Phase, PhaseId
from forummod.schema import ClockOrDuration


@dataclass(frozen=True)
class Pin:
    phase: PhaseId
    start: datetime | None = None
    start_post: int | None = None
    end: datetime | None = None
    end_post: int | None = None
    vote_close: datetime | None = None
    action_deadline: datetime | None = None


@dataclass(frozen=True)
class Extension:
    """The GM moved a deadline of `phase` (vote close / action deadline and end) to `until`."""

    phase: PhaseId
    until: datetime


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


def build_phases(timing: Timing, *, start: datetime, tz: ZoneInfo, now: datetime,
                 pins: Sequence[Pin] = (), extensions: Sequence[Extension] = (),
                 post_times: Mapping[int, datetime] | None = None, max_phases: int = 400,
                 first: PhaseId | None = None) -> tuple[Phase, ...]:
    """Every phase from the game start up to the first one that starts after `now`.

    The last phase returned may lie in the future: it tells the scheduler the next deadline.
    """
    post_times = post_times or {}
    pin_by = {p.phase: p for p in pins}
    ext_by: dict[PhaseId, datetime] = {}
    for e in extensions:
        ext_by[e.phase] = e.until  # the latest extension wins
    night_first = timing.first_phase != "day"
    kind = "night" if night_first else "day"
    number = 1
    if first is not None:  # issue 14: a game joined under way ([resume]) starts at that phase
        kind, number = first.kind, first.number
    cursor = start
    phases: list[Phase] = []
    while len(phases) < max_phases:
        pid = PhaseId(number, kind)  # type: ignore[arg-type]
        pin = pin_by.get(pid)
        ph_start = cursor
        start_post = None
        if pin is not None:
            if pin.start_post is not None and pin.start_post in post_times:
                ph_start, start_post = post_times[pin.start_post], pin.start_post
            elif pin.start is not None:
                ph_start = pin.start
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
        if pin is not None:
            if pin.end_post is not None and pin.end_post in post_times:
                end, end_post = post_times[pin.end_post], pin.end_post
                deadline_fields = {k: end for k in deadline_fields}
            elif pin.end is not None:
                end = pin.end
                deadline_fields = {k: min(v, end) for k, v in deadline_fields.items()}
            if kind == "day" and pin.vote_close is not None:
                deadline_fields["vote_close"] = pin.vote_close
            if kind == "night" and pin.action_deadline is not None:
                deadline_fields["action_deadline"] = pin.action_deadline
        if pid in ext_by:
            until = ext_by[pid]
            deadline_fields = {k: until for k in deadline_fields}
            end = max(end, until)
            end_post = None
        phases.append(Phase(id=pid, start=ph_start, end=end, start_post=start_post, end_post=end_post,
                            **deadline_fields))
        if ph_start > now:
            break
        cursor = end
        if kind == "night":
            kind = "day"
            number = number if night_first else number + 1
        else:
            kind = "night"
            number = number + 1 if night_first else number
    return tuple(phases)


def current_phase(phases: Sequence[Phase], now: datetime) -> Phase | None:
    cur = None
    for p in phases:
        if p.start <= now:
            cur = p
    return cur
