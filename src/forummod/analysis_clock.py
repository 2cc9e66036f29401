"""How long an analysis stays right as the clock moves on, and the same analysis at a later `now`.

`service.analyse` is a pure function of the stored inputs and `now`. It reads `now` in a few
places only, each a comparison with an instant it can list:

- the fold takes every timeline event at or before `now` (`engine.core`: `ev.at > now` stops
  it): posts, PMs and GM events, phase boundaries, ruleset timers; what it did not take is
  `GameRun.upcoming` (boundaries and timers) plus the inputs stamped after `now`;
- the service leaves out what is stamped after `now` (deleted posts by `deleted_at`, issues,
  intents for the alias proposals, the GM's post times, `last_activity`);
- a game silent for two phase lengths stalls (`engine.stall`): just after `last activity + 2
  lengths`;
- a game with no start in the config and no post yet starts "now": its phases move with the
  clock, so such an analysis is right only at its own instant;
- the count in progress is stamped `now` (`Tally.at`, `GameRun.count_at_now`), and so is
  the analysis itself.

So an analysis made at `now` is the analysis at any `t` with `now <= t < changes_at(...)`, the
first instant after `now` at which one of those comparisons can turn, once `restamped` puts `t`
where the analysis shows `now` (tests/service/test_analysis_clock.py sweeps the clock over
games with deadlines, hammers, pauses, stalls and future-dated input and compares with a fresh
recount at every step). Pure: no store, no config file.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Iterable


def changes_at(now: datetime, *, run: Any, inputs: Any, issues: Iterable[Any], intents: Iterable[Any],
               gm_events: Iterable[Any], stall_cutoff: datetime | None, floating_start: bool) -> datetime | None:
    """The first instant after `now` at which the analysis made at `now` may differ (None: none
    ahead). `stall_cutoff`: when the game would stall, if it has not; `floating_start`: the
    game's first phase starts at `now` (no configured start, no post yet)."""
    if floating_start:
        return now  # right only at its own instant
    nxt: datetime | None = None

    def see(t: datetime | None) -> None:
        nonlocal nxt
        if t is not None and t > now and (nxt is None or t < nxt):
            nxt = t

    for ev in run.upcoming:
        see(ev.at)
    for posts in inputs.posts.values():
        for p in posts:
            see(p.created_at)
            see(p.deleted_at)
            for v in p.versions:
                see(v.edited_at)
    for m in inputs.messages:
        see(m.created_at)
    for e in inputs.events:
        see(getattr(e, "at", None))
    for e in gm_events:  # the config's events too (their post's time, or `at`)
        see(e.at)
    for i in issues:
        see(i.at)
    for it in intents:
        see(it.at)
    if stall_cutoff is not None:  # stalled once `cutoff < now`: from the next microsecond on
        see(stall_cutoff + timedelta(microseconds=1))
    return nxt


def still_right(a: Any, now: datetime) -> bool:
    """Whether analysis `a` (with its `changes_at`) is the analysis at `now` once restamped."""
    return a.now <= now and (a.changes_at is None or now < a.changes_at)


def restamped(a: Any, now: datetime) -> Any:
    """`a` (a `service.GameAnalysis` right at `now`, see `still_right`) as made at `now`: its
    instant and the count in progress, which is stamped with the analysis's instant."""
    if now == a.now:
        return a
    run = a.run
    if run.count_at_now:
        run = replace(run, tallies=run.tallies[:-1] + (replace(run.tallies[-1], at=now),))
    return replace(a, now=now, run=run, fresh={})
