"""Walk a stored game's clock from boundary to boundary and compare each kept analysis with a
fresh one at instants between (issue 30): the proof that `changes_at` misses no instant at
which the clock alone changes what forummod says.

`sweep` starts at `start`, analyses, and probes instants in `[now, changes_at)`: one second
later, the middle, one microsecond before `changes_at`, and seeded random ones; at each it asks
`same` of the kept analysis (restamped) and a fresh recount. Then it moves to `changes_at`.
`outputs` turns an analysis into what the GM is shown of it (reports, checks, drafts, alerts):
those must agree too, which is what the caches built on `changes_at` hand out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from forummod.analysis_clock import restamped, still_right
from forummod.service import analyse, load_inputs

US = timedelta(microseconds=1)


def core(a: Any) -> tuple:
    """The analysis as data (its ruleset object and inputs aside, which are not re-derived)."""
    return (a.now, a.run, a.roster, a.extraction_issues, a.intents, a.setup, a.stalled_since, a.names,
            a.auto_names)


def reports(a: Any) -> tuple:
    from forummod.report import status_report, tally_report

    return (status_report(a), tally_report(a), tally_report(a, public=True))


@dataclass
class Sweep:
    segments: list[tuple[datetime, datetime | None]] = field(default_factory=list)
    probes: int = 0


def sweep(ws: Any, gid: str, start: datetime, end: datetime, *, approve_all: bool = False, seed: int = 7,
          outputs: Callable[[Any, Any], Any] = lambda ws, a: reports(a), max_segments: int = 400) -> Sweep:
    rng = random.Random(seed)
    inputs = load_inputs(ws, gid)
    out = Sweep()
    now = start
    while now < end and len(out.segments) < max_segments:
        a = analyse(inputs, now=now, approve_all=approve_all)
        stop = a.changes_at
        out.segments.append((now, stop))
        if stop is not None:
            assert stop > now or stop == now, (now, stop)
        horizon = min(stop, end) if stop is not None else end
        if horizon <= now:  # right only at its own instant: the next instant is a new analysis
            now += timedelta(minutes=17)
            continue
        span = horizon - now
        points = {now + min(timedelta(seconds=1), span / 2), now + span / 2, horizon - US}
        points |= {now + span * rng.random() for _ in range(2)}
        kept = outputs(ws, a)
        for t in sorted(p for p in points if now <= p < horizon):
            assert still_right(a, t)
            fresh = analyse(inputs, now=t, approve_all=approve_all)
            again = restamped(a, t)
            assert core(again) == core(fresh), f"{gid}: analysis made at {now} differs at {t} (changes_at {stop})"
            assert outputs(ws, again) == outputs(ws, fresh), f"{gid}: outputs of {now} differ at {t}"
            out.probes += 1
        del kept
        now = horizon
    return out
