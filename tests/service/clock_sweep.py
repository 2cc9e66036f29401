"""Walk a stored game's clock from boundary to boundary and compare each kept analysis with a
fresh one at instants between (issue 30): the proof that `changes_at` misses no instant at
which the clock alone changes what forummod says.

`sweep` starts at `start`, analyses, and probes instants in `[now, changes_at)`: one
microsecond before `changes_at` (whatever was missed before it shows there), seeded random
ones, one second later and the middle (`probes` of them, in that order); at each it asks
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
          outputs: Callable[[Any, Any], Any] = lambda ws, a: reports(a),
          horizon: Callable[[Any, Any], datetime | None] = lambda ws, a: a.changes_at,
          max_segments: int = 400, probes: int = 5) -> Sweep:
    rng = random.Random(seed)
    inputs = load_inputs(ws, gid)
    out = Sweep()
    now = start
    while now < end and len(out.segments) < max_segments:
        a = analyse(inputs, now=now, approve_all=approve_all)
        stop = horizon(ws, a)
        out.segments.append((now, stop))
        if stop is not None:
            assert stop > now or stop == now, (now, stop)
        until = min(stop, end) if stop is not None else end
        if until <= now:  # right only at its own instant: the next instant is a new analysis
            now += timedelta(minutes=17)
            continue
        span = until - now
        # the instant just before the segment's end finds a missed boundary whatever it is
        points = [until - US, now + span * rng.random(), now + min(timedelta(seconds=1), span / 2), now + span / 2,
                  now + span * rng.random()][:max(1, probes)]
        for t in sorted({p for p in points if now <= p < until}):
            assert still_right(a, t)
            fresh = analyse(inputs, now=t, approve_all=approve_all)
            again = restamped(a, t)
            assert core(again) == core(fresh), f"{gid}: analysis made at {now} differs at {t} (changes_at {stop})"
            assert outputs(ws, again) == outputs(ws, fresh), f"{gid}: outputs of {now} differ at {t}"
            out.probes += 1
        now = until
    return out


def _checks(ws: Any, a: Any) -> tuple[Any, list]:
    from forummod.check_store import check_context
    from forummod.checks import run_checks

    ctx = check_context(ws.store, a)
    return ctx, run_checks(ctx)


def _rules(ws: Any) -> Any:
    from forummod.alerts.decide import AlertRules

    cfg = ws.cfg.alerts
    return AlertRules(cfg.deadline_warning.td, cfg.poll_failing.td, cfg.disabled)


def checks_outputs(ws: Any, a: Any) -> tuple:
    """The checks' findings and the prod list."""
    from forummod.checks.prod import prod_list

    ctx, findings = _checks(ws, a)
    return tuple(findings), prod_list(ctx)


def checks_horizon(ws: Any, a: Any) -> datetime | None:
    from forummod.checks.clock import next_change
    from forummod.horizon import earliest

    return earliest((a.changes_at, next_change(_checks(ws, a)[0])))


def drafts_outputs(ws: Any, a: Any) -> tuple:
    """Every draft that applies (rendered) with the checks' findings."""
    from forummod.checks.phase_posts import draft_post_counts
    from forummod.freshness import draft_settings
    from forummod.render import game_view, phrasebook_for, plan_drafts, render_post

    findings = _checks(ws, a)[1]
    s = draft_settings(ws, a.game_id, a.ruleset)
    pb = phrasebook_for(s.lang, s.ruleset, s.markup, s.user_dir).with_tz(a.game.tz)
    gv = game_view(a, tuple(findings), draft_post_counts(a))
    return tuple((d.kind, d.phase, d.slot, d.title, render_post(d.kind, d.post, s.markup, s.lang, s.user_dir))
                 for d in plan_drafts(gv, pb))


def drafts_horizon(ws: Any, a: Any) -> datetime | None:
    from forummod.horizon import earliest
    from forummod.render import game_view
    from forummod.render.clock import next_change

    ctx, findings = _checks(ws, a)
    return earliest((checks_horizon(ws, a), next_change(game_view(a, tuple(findings)))))


def alerts_outputs(ws: Any, a: Any) -> tuple:
    """The alerts after a successful poll."""
    from forummod.alerts.decide import AlertFacts, needs_gm

    return needs_gm(a, AlertFacts(None, ""), _rules(ws))


def alerts_horizon(ws: Any, a: Any) -> datetime | None:
    from forummod.alerts.decide import next_change
    from forummod.horizon import earliest

    return earliest((a.changes_at, next_change(a, _rules(ws))))


def pass_outputs(ws: Any, a: Any) -> tuple:
    """What a pass and the console make of an analysis: all of the above and the reports."""
    return checks_outputs(ws, a), drafts_outputs(ws, a), alerts_outputs(ws, a), reports(a)


def pass_horizon(ws: Any, a: Any) -> datetime | None:
    """`horizon.changes_at`, the one the caches use."""
    from forummod.horizon import changes_at

    ctx, findings = _checks(ws, a)
    return changes_at(ws, a, ctx, findings)
