"""Conduct rules: where players may post, which votes and actions the engine refused, thread
votes that contradict PM votes, copied GM PMs (`verbatim`, re-exported here) and edited votes.

Each check reads what the engine and extraction already decided (rejections with reason codes,
extraction issues) rather than deciding again, so the GM sees one verdict per input. The rule
cited is the engine's when it named one, else the ruleset's (see `rules.RULE_IDS`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from forummod.checks.context import CheckContext, post_source, source_label
from forummod.checks.findings import Finding, source_key
from forummod.checks.rules import rule_for
from forummod.checks.verbatim import check_verbatim  # noqa: F401  (ON-D4 is a conduct rule too)
from forummod.engine.types import Phase, Rejection
from forummod.model import NO_LYNCH, UnvoteIntent, VoteIntent
from forummod.i18n import code_text, pgettext, phase_label

GRAVEDIGGER = "gravedigger"  # Lupus Becchino (LUP-R3): reads the cemetery, may not write (LUP-G3)


def _name(target: str | None) -> str:
    if target == NO_LYNCH:
        return pgettext("gm-finding", "no lynch")
    return target or pgettext("gm-finding", "nobody")


# --------------------------------------------------------------------------- posting places


def check_dead_posts(ctx: CheckContext) -> list[Finding]:
    """LUP-G2: a dead player's post in the game thread after their death."""
    out = []
    never: dict[str, bool] = {}  # author -> no post of theirs can count: an outsider, or a player alive at the end
    for p in ctx.thread("game"):
        skip = never.get(p.author)
        if skip is None:
            pl = ctx.player_of(p.author)
            player = ctx.player(pl) if pl is not None else None
            skip = never[p.author] = pl is None or (player is not None and player.alive)  # as alive_at says
        if skip:
            continue
        pl = ctx.player_of(p.author)
        if pl is None or ctx.alive_at(pl, p.created_at):
            continue
        died = ctx.death_at(pl)
        if died is None or p.created_at <= died:
            continue  # a post at the very instant of death is the last word, not a violation
        if ctx.holder_at(pl, p.created_at).casefold() != p.author.casefold():
            continue  # a replaced player, not the one who died
        death = ctx.player(pl).death  # type: ignore[union-attr]
        out.append(Finding(
            code="dead_post", key=f"dead_post:{p.thread}:{p.post_id}", rule=rule_for("dead_post", ctx.ruleset_name),
            player=pl, source=post_source(p, "game"), at=p.created_at, severity="warning",
            quote=_excerpt(ctx, p.html),
            message=(pgettext("gm-finding", "%(player)s is dead (%(cause)s in %(phase)s, %(died)s) but posted in the game "
                              "thread (%(where)s, %(time)s)", player=p.author, cause=code_text(death.cause),
                              phase=phase_label(death.phase), died=ctx.fmt(died),
                              where=source_label(post_source(p, "game")), time=ctx.fmt(p.created_at))
                     if death is not None else
                     pgettext("gm-finding", "%(player)s is dead (%(died)s) but posted in the game thread (%(where)s, "
                              "%(time)s)", player=p.author, died=ctx.fmt(died),
                              where=source_label(post_source(p, "game")), time=ctx.fmt(p.created_at)))
            + _deleted(ctx, p)))
    return out


def check_graveyard_posts(ctx: CheckContext) -> list[Finding]:
    """LUP-G2: a living player's post in the graveyard; LUP-G3: the living Becchino's, who may only read."""
    out = []
    for p in ctx.thread("graveyard"):
        pl = ctx.player_of(p.author)
        if pl is None or not ctx.alive_at(pl, p.created_at):
            continue
        if ctx.holder_at(pl, p.created_at).casefold() != p.author.casefold():
            continue  # a replaced-out player no longer plays
        src = post_source(p, "graveyard")
        player = ctx.player(pl)
        if player is not None and player.role == GRAVEDIGGER:
            code, msg = "gravedigger_post", pgettext(
                "gm-finding", "%(player)s is the Becchino and alive: he may read the cemetery but posted there "
                "(%(where)s, %(time)s)", player=p.author, where=source_label(src), time=ctx.fmt(p.created_at))
        else:
            code, msg = "graveyard_post", pgettext(
                "gm-finding", "%(player)s is alive but posted in the graveyard thread (%(where)s, %(time)s)",
                player=p.author, where=source_label(src), time=ctx.fmt(p.created_at))
        out.append(Finding(code=code, key=f"{code}:{p.thread}:{p.post_id}", rule=rule_for(code, ctx.ruleset_name),
                           player=pl, source=src, at=p.created_at, severity="warning",
                           quote=_excerpt(ctx, p.html), message=msg + _deleted(ctx, p)))
    return out


def _deleted(ctx: CheckContext, p) -> str:
    return pgettext("gm-finding", " (since deleted)") if p.deleted_at is not None and p.deleted_at <= ctx.now else ""


def _excerpt(ctx: CheckContext, html: str, limit: int = 300) -> str:
    """The player's own words of a post, cut for the GM's warnings."""
    text = " ".join(ctx.body_text(html).split())
    return text if len(text) <= limit else text[:limit].rstrip() + " …"


# --------------------------------------------------------------------------- refused votes

#: Reason codes a ruleset may use for a vote voided for coming before the Barkeeper's (VIL-V-3).
BARKEEPER_REASONS = frozenset({"before_barkeeper", "barkeeper_first", "void_before_barkeeper", "barkeeper_window"})


def _vote_code(r: Rejection, ctx: CheckContext) -> str | None:
    if r.reason == "late":
        return "late_vote"
    if r.reason in ("no_vote_now", "vote_not_open") and r.at is not None and _closed_day(ctx, r.at) is not None:
        return "late_vote"  # after a day's close, before the next day: a late vote too
    if r.reason == "silenced":
        return "silenced_vote"
    if r.reason == "no_vote_right":
        return "no_vote_right"
    if r.reason in BARKEEPER_REASONS or (r.reason.startswith("void") and (r.rule or "").startswith("VIL")):
        return "vote_before_barkeeper"
    return None


def _vote_rule(ctx: CheckContext, code: str, r: Rejection) -> str | None:
    """The engine's rule unless it is only the ruleset's generic vote rule (`vote_rule`, cited
    on every vote the base class refuses): then the precise one for this code (LUP-T1 for late)."""
    generic = r.rule is not None and r.rule == getattr(ctx.ruleset, "vote_rule", None)
    return (rule_for(code, ctx.ruleset_name) or r.rule) if generic else rule_for(code, ctx.ruleset_name, r.rule)


def _closed_day(ctx: CheckContext, at) -> Phase | None:
    """The latest day begun before `at` whose vote had closed by `at`."""
    days = [ph for ph in ctx.run.phases if ph.kind == "day" and ph.start <= at]
    if not days:
        return None
    day = max(days, key=lambda ph: ph.start)
    close = day.votes_close_at()
    return day if close is not None and close <= at else None


def check_vote_rejections(ctx: CheckContext) -> list[Finding]:
    """Late votes (LUP-T1/D18, ON-V1, D20...), silenced voters and voters without a vote (VIL-V-1),
    votes before the Barkeeper's (VIL-V-3): all refused by the engine, all shown to the GM."""
    out = []
    for r in ctx.run.rejections:
        if r.kind not in ("vote", "unvote"):
            continue
        code = _vote_code(r, ctx)
        if code is None:
            continue
        what = pgettext("gm-finding", "vote for %(target)s", target=_name(r.target)) if r.kind == "vote" and r.target \
            else code_text(r.kind)
        where = f" ({source_label(r.source)})" if r.source is not None else ""
        message = _VOTE_MESSAGES[code](ctx, r, what, where)
        out.append(Finding(
            code=code, key=f"{code}:{source_key(r.source, r.at)}:{r.kind}:{r.actor}:{r.target or ''}",
            rule=_vote_rule(ctx, code, r), player=r.actor, source=r.source, at=r.at,
            severity="warning" if code == "vote_before_barkeeper" else "info",
            phase=ctx.phase_at(r.at), message=message))
    return out


def _late(ctx: CheckContext, r: Rejection, what: str, where: str) -> str:
    day = _closed_day(ctx, r.at) if r.at is not None else None
    closed = pgettext("gm-finding", "the vote of %(phase)s closed at %(time)s", phase=phase_label(day.name),
                      time=ctx.fmt(day.votes_close_at())) if day else pgettext("gm-finding", "the vote was closed")
    return pgettext("gm-finding", "%(player)s's %(what)s at %(time)s%(where)s came after %(closed)s: not counted",
                    player=r.actor, what=what, time=ctx.fmt(r.at), where=where, closed=closed)


_VOTE_MESSAGES: dict[str, Callable[[CheckContext, Rejection, str, str], str]] = {
    "late_vote": _late,
    "silenced_vote": lambda ctx, r, what, where: pgettext(
        "gm-finding", "%(player)s is silenced today but cast a %(what)s at %(time)s%(where)s: not counted",
        player=r.actor, what=what, time=ctx.fmt(r.at), where=where),
    "no_vote_right": lambda ctx, r, what, where: pgettext(
        "gm-finding", "%(player)s has no vote today but cast a %(what)s at %(time)s%(where)s: not counted",
        player=r.actor, what=what, time=ctx.fmt(r.at), where=where) + (f" ({r.message})" if r.message else ""),
    "vote_before_barkeeper": lambda ctx, r, what, where: pgettext(
        "gm-finding", "%(player)s's %(what)s at %(time)s%(where)s came before the Barkeeper's vote: void; tell "
        "%(player)s to vote again", player=r.actor, what=what, time=ctx.fmt(r.at), where=where),
}


# --------------------------------------------------------------------------- refused actions


def check_action_rejections(ctx: CheckContext) -> list[Finding]:
    """Night (and day) actions the engine refused: late (no effect, not carried over) or invalid."""
    out = []
    for r in ctx.run.rejections:
        if r.kind in ("vote", "unvote") or r.reason == "game_over":
            continue
        code = "late_action" if r.reason == "late" else "invalid_action"
        target = pgettext("gm-finding", " on %(target)s", target=r.target) if r.target else ""
        where = f" ({source_label(r.source)})" if r.source is not None else ""
        why = r.message or code_text(r.reason)
        out.append(Finding(
            code=code, key=f"{code}:{source_key(r.source, r.at)}:{r.kind}:{r.actor}:{r.target or ''}",
            rule=r.rule, player=r.actor, source=r.source, at=r.at, severity="warning", phase=ctx.phase_at(r.at),
            message=pgettext("gm-finding", "%(player)s's %(kind)s%(target)s at %(time)s%(where)s was refused (%(reason)s: "
                             "%(why)s)", player=r.actor, kind=code_text(r.kind), target=target, time=ctx.fmt(r.at),
                             where=where, reason=code_text(r.reason), why=why)))
    return out


# --------------------------------------------------------------------------- ON-V2 thread vs PM


def counts_only_pm_votes(ctx: CheckContext) -> bool:
    """PM votes count and thread votes are declarations only (one-night ON-V1/ON-V2)."""
    rs = ctx.ruleset
    try:
        return bool(rs.counts_channel(SimpleNamespace(channel="pm"))) and not rs.counts_channel(
            SimpleNamespace(channel="thread"))
    except Exception:  # a ruleset reading more of the event than its channel: not such a ruleset
        return False


def check_pm_vote_mismatch(ctx: CheckContext) -> list[Finding]:
    """ON-V2 (D13): the latest thread declaration of the day differs from the counted PM vote,
    or a player declared in the thread but has no PM vote. GM only."""
    if not counts_only_pm_votes(ctx):
        return []
    out = []
    for ph in ctx.run.phases:
        if ph.kind != "day" or ph.start > ctx.now:
            continue
        close = ph.votes_close_at()
        declared = _declarations(ctx, ph, min(close, ctx.now) if close else ctx.now)
        tally = ctx.run.tally_for(ph.name)
        counted = {ctx.player_of(v.voter) or v.voter: c.name for c in (tally.candidates if tally else ())
                   for v in c.voters}
        for player, (target, it) in sorted(declared.items()):
            pm = counted.get(player)
            if target is None and pm is None:
                continue  # "no vote" declared, none sent: consistent
            if target is not None and pm == target:
                continue
            said = pgettext("gm-finding", "declared %(target)s", target=_name(target)) if target is not None \
                else pgettext("gm-finding", "withdrew their vote")
            sent = pgettext("gm-finding", "their counted PM vote is %(target)s", target=_name(pm)) if pm is not None \
                else pgettext("gm-finding", "sent no PM vote")
            out.append(Finding(
                code="pm_vote_mismatch", key=f"pm_vote_mismatch:{ph.name}:{player}",
                rule=rule_for("pm_vote_mismatch", ctx.ruleset_name), player=player, source=it.source, at=it.at,
                phase=ph.name, severity="info",
                message=pgettext("gm-finding", "%(player)s %(said)s in the thread (%(where)s, %(time)s) but %(sent)s; "
                                 "the PM vote is the one that counts", player=player, said=said,
                                 where=source_label(it.source), time=ctx.fmt(it.at), sent=sent)))
    return out


def _declarations(ctx: CheckContext, ph: Phase, until) -> dict[str, tuple[str | None, VoteIntent | UnvoteIntent]]:
    """Latest thread vote (target) or unvote (None) per player in [day start, until)."""
    out: dict[str, tuple[str | None, VoteIntent | UnvoteIntent]] = {}
    its = [it for it in ctx.intents if isinstance(it, (VoteIntent, UnvoteIntent)) and it.channel == "thread"
           and ph.start <= it.at < until and (it.source.thread in (None, "game"))]
    for it in sorted(its, key=lambda i: (i.at, i.source.number or 0)):
        player = ctx.player_of(it.voter) or it.voter
        if isinstance(it, VoteIntent):
            target = NO_LYNCH if it.target == NO_LYNCH else (ctx.player_of(it.target) or it.target)
            out[player] = (target, it)
        else:
            out[player] = (None, it)
    return out


# --------------------------------------------------------------------------- edited votes


def check_edited_votes(ctx: CheckContext) -> list[Finding]:
    """A post whose votes an edit changed (extraction compares the versions; the GM decides)."""
    out = []
    for i in ctx.issues:
        if i.code != "edited_vote":
            continue
        out.append(Finding(
            code="edited_vote", key=f"edited_vote:{source_key(i.source, i.at)}",
            rule=i.rule, player=ctx.player_of(i.player) or i.player, source=i.source, at=i.at,
            severity=i.severity, phase=ctx.phase_at(i.at), message=i.message, details=i.details))
    return out
