"""Post counts and the prod list: who posts how much, and who has gone quiet.

Counts cover the threads of `checks.block_threads` (the game thread by default) and every
account that held the seat. A seat's silence starts at its last post, or when its current
occupant took it, or at the game start, whichever is latest; a living, non-exempt player
silent for `checks.prod_after` goes on the prod list while the phase is one of
`checks.prod_phases`. The prod finding's key is the start of the silence, so it is reported
once per silent stretch, not on every poll.
"""

from __future__ import annotations

from datetime import datetime

from forummod.checks.context import CheckContext, post_source, source_label
from forummod.checks.findings import Finding
from forummod.model import Source
from forummod.i18n import npgettext, pgettext
from forummod.records import frozen


@frozen
class PlayerPosts:
    player: str
    alive: bool
    posts_phase: int  # in the current phase so far
    posts_game: int
    last_post_at: datetime | None
    last_post: Source | None
    silent_since: datetime | None


def post_counts(ctx: CheckContext) -> tuple[PlayerPosts, ...]:
    """Per player in seat order: posts this phase and in the game, the last post."""
    roles = tuple(ctx.cfg.block_threads)
    by_player = ctx.posts_by_player(roles)
    ph = ctx.state.phase
    out = []
    for pl in ctx.state.players:
        ps = by_player.get(pl.name, [])
        in_phase = [p for p in ps if ph is not None and p.created_at >= ph.start
                    and (ph.end is None or p.created_at < ph.end)]
        last = ps[-1] if ps else None
        seat = ctx.seats.get(pl.name)
        starts = [t for t in (last.created_at if last else None, seat.joined_at() if seat else None,
                              ctx.game_start) if t is not None]
        out.append(PlayerPosts(
            player=pl.name, alive=pl.alive, posts_phase=len(in_phase), posts_game=len(ps),
            last_post_at=last.created_at if last else None,
            last_post=post_source(last, ctx.role_of(last)) if last else None,
            silent_since=max(starts) if starts else None))
    return tuple(out)


def prod_list(ctx: CheckContext) -> tuple[PlayerPosts, ...]:
    """Living, non-exempt players silent at least `prod_after`, longest silence first."""
    ph = ctx.state.phase
    if ph is None or ph.kind not in ctx.cfg.prod_phases or ctx.state.outcome is not None:
        return ()
    limit = ctx.cfg.prod_after.td
    idle = [c for c in post_counts(ctx)
            if c.alive and not ctx.is_exempt(c.player) and c.silent_since is not None
            and ctx.now - c.silent_since >= limit]
    return tuple(sorted(idle, key=lambda c: c.silent_since))  # type: ignore[arg-type,return-value]


def check_prod(ctx: CheckContext) -> list[Finding]:
    out = []
    for c in prod_list(ctx):
        assert c.silent_since is not None
        last = (pgettext("gm-finding", "last %(where)s", where=source_label(c.last_post)) if c.last_post is not None
                else pgettext("gm-finding", "no post yet"))
        out.append(Finding(
            code="prod", key=f"prod:{c.player}:{c.silent_since.isoformat()}", player=c.player,
            source=c.last_post, at=c.silent_since, severity="info",
            phase=ctx.state.phase.name if ctx.state.phase else None,
            message=npgettext("gm-finding", "%(player)s has not posted since %(since)s (%(last)s; %(n)s post in the "
                              "game): prod after %(limit)s", "%(player)s has not posted since %(since)s (%(last)s; "
                              "%(n)s posts in the game): prod after %(limit)s", c.posts_game, player=c.player,
                              since=ctx.fmt(c.silent_since), last=last, limit=ctx.cfg.prod_after)))
    return out
