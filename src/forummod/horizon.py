"""How long everything a pass and the console derive from one analysis stays right (issue 30).

A pass (`pipeline.game_pass`) and the console page show more than the analysis: the checks'
findings and prod list, the drafts rendered from them, the alerts. Each reads the clock only
through instants it lists (analysis_clock.py, checks/clock.py, render/clock.py,
alerts.decide.next_change); `changes_at` is the first of them after the analysis's `now`.
Until then, with the same input mark and the same drafts, publications and alert deliveries,
a pass would find, draft and send exactly what the last one did.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Sequence


def earliest(instants: Iterable[datetime | None]) -> datetime | None:
    """The first of `instants` (None: never)."""
    found = [t for t in instants if t is not None]
    return min(found) if found else None


def changes_at(ws: Any, a: Any, ctx: Any, findings: Sequence[Any]) -> datetime | None:
    """The first instant after `a.now` at which the analysis `a`, the checks over `ctx` (its
    `CheckContext`), the drafts of `a` with `findings`, or the alerts may differ."""
    from forummod.alerts.decide import AlertRules, next_change as alerts_next
    from forummod.checks.clock import next_change as checks_next
    from forummod.render import game_view
    from forummod.render.clock import next_change as drafts_next

    cfg = ws.cfg.alerts
    rules = AlertRules(cfg.deadline_warning.td, cfg.poll_failing.td, cfg.disabled)
    return earliest((a.changes_at, checks_next(ctx), drafts_next(game_view(a, tuple(findings))),
                     alerts_next(a, rules)))
