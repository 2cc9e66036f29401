"""Posts whose date the forum page did not show (issue 16): a guessed date never decides a deadline.

Such a post is ordered by its number (the service folds it right after the dated post before
it), so it can only have been written between its dated neighbours. When a deadline of the
game — a vote close, a phase end, an action deadline, an activity-block boundary — falls in
that span, whether its votes, actions or activity were on time depends on the unknown date:
that is a `date_guessed_deadline` finding (warning) naming the post, for the GM to rule (an
override or a GM event), never a silent ruling. A guessed-date post with no deadline in its
span is shown as `date_guessed` (info), so the GM still sees it.
"""

from __future__ import annotations

from datetime import datetime

from forummod.checks.activity import activity_enabled, current_blocks
from forummod.checks.context import CheckContext, post_source
from forummod.checks.findings import Finding
from forummod.model import ActionIntent, Post, UnvoteIntent, VoteIntent, guessed_date_bounds
from forummod.i18n import pgettext, phase_label


def deadlines(ctx: CheckContext) -> list[tuple[datetime, str, str]]:
    """(instant, what, phase) of every deadline of the game up to now, oldest first; one line per
    instant (a vote close that is also the phase end is named as the vote close)."""
    out: dict[datetime, tuple[str, str]] = {}
    for ph in ctx.run.phases:
        due = ph.votes_close_at() if ph.kind == "day" else ph.actions_due_at()
        if due is not None:
            what = pgettext("gm-finding", "the vote close of %(phase)s", phase=phase_label(ph.name)) if ph.kind == "day" \
                else pgettext("gm-finding", "the action deadline of %(phase)s", phase=phase_label(ph.name))
            out.setdefault(due, (what, ph.name))
        if ph.end is not None:
            out.setdefault(ph.end, (pgettext("gm-finding", "the end of %(phase)s", phase=phase_label(ph.name)), ph.name))
    if activity_enabled(ctx):
        for b in current_blocks(ctx):
            out.setdefault(b.end, (pgettext("gm-finding", "the end of %(block)s", block=b.label), b.phase))
    return [(at, what, phase) for at, (what, phase) in sorted(out.items()) if at <= ctx.now]


def check_guessed_dates(ctx: CheckContext) -> list[Finding]:
    """Every guessed-date post of the game thread; a warning when a deadline lies within its span."""
    posts = ctx.posts.get("game", ())
    bounds = guessed_date_bounds(posts)
    if not bounds:
        return []
    by_id = {p.post_id: p for p in posts}
    inputs = _inputs_by_post(ctx)
    due = deadlines(ctx)
    out: list[Finding] = []
    for pid, (lo, hi) in bounds.items():
        p = by_id[pid]
        upper = hi or ctx.now  # the last post of the thread: written by the time it was read
        inside = [(at, what, phase) for at, what, phase in due if (lo is None or lo < at) and at <= upper]
        span = _span(ctx, lo, hi)
        what_in = inputs.get(pid, "")
        if inside:
            at, what, phase = inside[0]
            names = "; ".join(f"{w} ({ctx.fmt(t)})" for t, w, _ in inside)
            out.append(Finding(
                code="date_guessed_deadline", key=f"date_guessed_deadline:{pid}", player=p.author,
                source=post_source(p, "game"), at=at, phase=phase, severity="warning",
                message=pgettext("gm-finding", "%(post)s by %(player)s: its date was guessed (the page showed none; "
                                 "written %(span)s) and %(deadlines)s falls in that span: whether its %(what)s came in "
                                 "time is yours to rule — it was counted in post order, right after the post before it",
                                 post=_label(p), player=p.author, span=span, deadlines=names,
                                 what=what_in or pgettext("gm-finding", "posting"))))
        else:
            out.append(Finding(
                code="date_guessed", key=f"date_guessed:{pid}", player=p.author, source=post_source(p, "game"),
                at=lo or hi or p.created_at, severity="info",
                message=pgettext("gm-finding", "%(post)s by %(player)s: its date was guessed (the page showed none; "
                                 "written %(span)s); counted in post order, no deadline falls in that span",
                                 post=_label(p), player=p.author, span=span)))
    return out


def _inputs_by_post(ctx: CheckContext) -> dict[str, str]:
    """post id -> 'vote', 'vote and action'... what the engine took from it."""
    kinds: dict[str, list[str]] = {}
    for it in ctx.intents:
        src = getattr(it, "source", None)
        if src is None or src.kind != "post":
            continue
        kind = pgettext("gm-finding", "vote") if isinstance(it, (VoteIntent, UnvoteIntent)) \
            else pgettext("gm-finding", "action") if isinstance(it, ActionIntent) else ""
        if kind and kind not in kinds.setdefault(src.id, []):
            kinds[src.id].append(kind)
    return {pid: pgettext("gm-finding", " and ").join(ks) for pid, ks in kinds.items()}


def _label(p: Post) -> str:
    return pgettext("gm-finding", "post #%(number)s", number=p.number) if p.number is not None \
        else pgettext("gm-finding", "post %(id)s", id=p.post_id)


def _span(ctx: CheckContext, lo: datetime | None, hi: datetime | None) -> str:
    if lo is not None and hi is not None:
        return pgettext("gm-finding", "between %(start)s and %(end)s", start=ctx.fmt(lo), end=ctx.fmt(hi))
    if lo is not None:
        return pgettext("gm-finding", "after %(time)s", time=ctx.fmt(lo))
    if hi is not None:
        return pgettext("gm-finding", "before %(time)s", time=ctx.fmt(hi))
    return pgettext("gm-finding", "at an unknown time")

