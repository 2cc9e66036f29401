"""A game nobody posts in any more stops: no phases after its last activity plus two phase lengths.

Without this, an old archived game without phase pins keeps generating phases from the schedule
up to the cap (issue 14: "D200", and `draft all` drafting "Inizia il Giorno 200"). Pure: the
caller gives the phases built up to `now` and the time of the last post, PM or GM event.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterable

from forummod.engine.types import Phase
from forummod.records import frozen

#: How many phase lengths of silence make a game stalled.
STALL_PHASES = 2


@frozen
class Stall:
    """A game silent for STALL_PHASES phase lengths: no phase is opened after `cutoff`."""

    since: datetime  # the last activity
    cutoff: datetime  # no phase starts after this


def phase_length(phases: Iterable[Phase]) -> timedelta | None:
    """The longest phase with a known end (a day, usually): the yardstick of silence."""
    spans = [p.end - p.start for p in phases if p.end is not None and p.end > p.start]
    return max(spans) if spans else None


def stall_cutoff(phases: tuple[Phase, ...], last_activity: datetime | None) -> datetime | None:
    """The instant after which a game silent since `last_activity` is stalled (None: it cannot
    stall: no activity yet, or no phase with a known length)."""
    if last_activity is None:
        return None
    length = phase_length(phases)
    if length is None:
        return None
    return last_activity + STALL_PHASES * length


def stall(phases: tuple[Phase, ...], last_activity: datetime | None, now: datetime) -> Stall | None:
    """The stall of a game whose last activity is more than two phase lengths before `now`."""
    cutoff = stall_cutoff(phases, last_activity)
    return Stall(last_activity, cutoff) if cutoff is not None and last_activity is not None and cutoff < now else None
