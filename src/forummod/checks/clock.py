"""When the checks can next say something else with the clock alone (issue 30).

The checks read `ctx.now` only by comparing it with instants they can list, so
`next_change(ctx)` is the first of them after `ctx.now`; until then `run_checks` and `prod_list`
give the same findings at any later `now` over the same analysis (the analysis's own
`changes_at` apart: inputs stamped later, the fold's deadlines). The instants:

- every phase's start, vote close or action deadline and end, and each deadline less
  `schedule.reminder_before` (missing actions turn to warnings then, `actions`; deadlines up to
  now, `dates`; phases begun, `phase_posts`, `conduct`);
- the activity blocks' starts and ends (`activity`, `player_activity`): the next one after now
  in every checked phase;
- each seat's silence reaching `checks.prod_after` (`prod`).

tests/service/test_pass_clock.py sweeps the clock over games and compares with fresh checks.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.checks.activity import activity_enabled
from forummod.checks.context import CheckContext
from forummod.checks.prod import post_counts


def next_change(ctx: CheckContext) -> datetime | None:
    """The first instant after `ctx.now` at which the findings may differ (None: none ahead)."""
    now = ctx.now
    found: list[datetime] = []
    remind = ctx.game.schedule.reminder_before.td
    for ph in ctx.run.phases:
        for t in (ph.start, ph.end, ph.vote_close, ph.action_deadline, ph.votes_close_at(), ph.actions_due_at()):
            if t is not None:
                found += (t, t - remind)
    cfg = ctx.cfg
    if activity_enabled(ctx) and cfg.block_hours > 0:
        length = timedelta(hours=cfg.block_hours)
        for ph in ctx.run.phases:
            if ph.kind in cfg.block_phases:
                found.append(_next_block_edge(ph.start, length, now))
    limit = cfg.prod_after.td
    found += [c.silent_since + limit for c in post_counts(ctx) if c.silent_since is not None]
    ahead = [t for t in found if t > now]
    return min(ahead) if ahead else None


def _next_block_edge(start: datetime, length: timedelta, now: datetime) -> datetime:
    """The first block boundary (`start + k * length`, elapsed time) after `now`."""
    start = start.astimezone(timezone.utc)
    if now < start:
        return start
    k = (now - start) // length + 1
    return start + k * length
