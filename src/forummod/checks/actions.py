"""Compulsory actions still owed before the deadline (WH-I2/D6, WH-C3/D19, ON-V1/D11).

The ruleset knows what is compulsory (`Ruleset.required_actions`); this check asks it about
the current phase while its deadline is ahead, and tells the GM who still owes what. The
finding is `info` during the phase and turns `warning` within the schedule's
`reminder_before` of the deadline, so the GM hears about it once early and once near the end.
"""

from __future__ import annotations

from datetime import datetime

from forummod.checks.context import CheckContext
from forummod.checks.findings import Finding
from forummod.checks.rules import rule_for
from forummod.engine.ruleset import Requirement
from forummod.engine.types import Phase
from forummod.i18n import code_text, join_names, pgettext, phase_label


VOTE_VERBS = frozenset({"vote"})


def phase_deadline(ph: Phase) -> datetime | None:
    """Nights: the action deadline; days: the vote close (compulsory PM votes)."""
    return ph.actions_due_at() if ph.kind == "night" else ph.votes_close_at()


def _owed_for(ctx: CheckContext, ph: Phase, req: Requirement) -> Phase:
    """The phase a requirement is due in: a night action asked during the day (sent ahead,
    e.g. LUP D20) is due at the next night's deadline, a PM vote at the day's close."""
    if ph.kind == "day" and not set(req.actions) <= VOTE_VERBS:
        later = [p for p in ctx.run.phases if p.kind == "night" and p.start >= ph.start and p.id != ph.id]
        if later:
            return min(later, key=lambda p: p.start)
    return ph


def check_missing_actions(ctx: CheckContext) -> list[Finding]:
    st = ctx.state
    ph = st.phase
    if ph is None or st.outcome is not None:
        return []
    window = f"actions:{ph.name}" if ph.kind == "night" else f"votes:{ph.name}"
    if window in st.closed:
        return []
    out = []
    for req in ctx.ruleset.required_actions(st, ph):
        due_ph = _owed_for(ctx, ph, req)
        deadline = phase_deadline(due_ph)
        if deadline is not None and ctx.now >= deadline:
            continue  # past the deadline the ruleset resolves the default (e.g. D6: a prayer on nobody)
        soon = deadline is not None and ctx.now >= deadline - ctx.game.schedule.reminder_before.td
        due = pgettext("gm-finding", "due %(time)s", time=ctx.fmt(deadline)) if deadline is not None \
            else pgettext("gm-finding", "no deadline set")
        what = pgettext("gm-finding", " or ").join(code_text(a) for a in req.actions) \
            or pgettext("gm-finding", "an action")
        text = req.message or pgettext("gm-finding", "%(player)s has not sent %(what)s for %(phase)s", player=req.player,
                                       what=what, phase=phase_label(due_ph.name))
        if req.any_of:  # a shared duty (the wolves' kill): one finding naming who may send it
            who = join_names(req.any_of)
            text += pgettext("gm-finding", ": one of %(names)s sends it", names=who) if len(req.any_of) > 1 \
                else pgettext("gm-finding", ": %(player)s sends it", player=who)
        elif req.player not in text:
            text += pgettext("gm-finding", ": %(player)s sends it", player=req.player)
        owner = "+".join(req.owed_by)
        out.append(Finding(
            code="missing_action", key=f"missing_action:{due_ph.name}:{owner}:{'/'.join(req.actions)}",
            rule=rule_for("missing_action", ctx.ruleset_name, req.rule), player=req.player, at=deadline,
            phase=due_ph.name, severity="warning" if soon else "info", message=f"{text} ({due})"))
    return out
