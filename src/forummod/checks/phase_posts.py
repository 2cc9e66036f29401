"""Post counts per phase (issue 32, item 3): how many posts each seat wrote in every phase.

The counts cover the threads of `checks.block_threads` (the game thread by default) and every
account that held the seat, as the prod list's do (`prod.post_counts`); a post belongs to the
latest phase begun by its time, and posts before the first phase count only in the total.
`status` prints them, `status --json` has them under `posts_per_phase`, the vote count post
lists the day's when `[games.x.drafts] post_counts = true`, and the console's player page shows
one seat's row.
"""

from __future__ import annotations

from typing import Any

from forummod.checks.context import CheckContext
from forummod.records import frozen


@frozen
class SeatPosts:
    """One seat's posts: `counts[i]` in `PostsPerPhase.phases[i]`, `total` in the whole game."""

    player: str
    alive: bool
    counts: tuple[int, ...]
    total: int

    def in_phase(self, phases: tuple[str, ...], phase: str) -> int:
        return self.counts[phases.index(phase)] if phase in phases else 0


@frozen
class PostsPerPhase:
    phases: tuple[str, ...]  # the phases begun so far, in order
    seats: tuple[SeatPosts, ...]  # seat order
    threads: tuple[str, ...]

    def of(self, player: str) -> SeatPosts | None:
        return next((s for s in self.seats if s.player == player), None)


def posts_per_phase(ctx: CheckContext, threads: tuple[str, ...] | None = None) -> PostsPerPhase:
    """Each seat's posts per phase up to `ctx.now` (deleted posts left out)."""
    roles = tuple(threads or ctx.cfg.block_threads)
    phases = tuple(p.name for p in ctx.run.phases if p.start <= ctx.now)
    index = {name: i for i, name in enumerate(phases)}
    by_player = ctx.posts_by_player(roles)
    seats = []
    for pl in sorted(ctx.state.players, key=lambda p: p.seat):
        counts = [0] * len(phases)
        total = 0
        for post in by_player.get(pl.name, ()):
            if post.deleted_at is not None and post.deleted_at <= ctx.now:
                continue
            total += 1
            name = ctx.phase_at(post.created_at)
            if name in index:
                counts[index[name]] += 1
        seats.append(SeatPosts(pl.name, pl.alive, tuple(counts), total))
    return PostsPerPhase(phases, tuple(seats), roles)


def posts_per_phase_of(a: Any) -> PostsPerPhase:
    """The counts of an analysed game (`service.GameAnalysis`)."""
    return posts_per_phase(CheckContext.from_analysis(a))


def draft_post_counts(a: Any) -> PostsPerPhase | None:
    """The counts for the drafts when the game's vote count lists them (`[games.x.drafts]
    post_counts`), else None: a game that does not ask pays nothing."""
    if not getattr(getattr(a.game, "drafts", None), "post_counts", False):
        return None
    return posts_per_phase_of(a)


def posts_per_phase_json(t: PostsPerPhase) -> dict[str, Any]:
    """The documented form (`status --json`, key `posts_per_phase`)."""
    return {"phases": list(t.phases), "threads": list(t.threads),
            "players": [{"player": s.player, "alive": s.alive, "per_phase": dict(zip(t.phases, s.counts)),
                         "total": s.total} for s in t.seats]}


def format_post_counts(data: dict[str, Any] | None, phase_label: Any) -> list[str]:
    """`status`'s text lines of the `posts_per_phase` report: a grid, one line per seat."""
    from forummod.i18n import pgettext

    if not data or not data.get("players"):
        return []
    phases = data["phases"]
    heads = [phase_label(p) for p in phases]
    total = pgettext("gm-status", "all")
    name_w = max(len(p["player"]) for p in data["players"])
    widths = [max(len(h), 3) for h in heads]
    lines = [pgettext("gm-status", "  posts per phase:")]
    lines.append("    " + " " * name_w + "  " + " ".join(h.rjust(w) for h, w in zip(heads, widths))
                 + f"  {total}")
    for p in data["players"]:
        cells = " ".join(str(p["per_phase"].get(ph, 0)).rjust(w) for ph, w in zip(phases, widths))
        mark = "" if p["alive"] else " †"
        lines.append(f"    {p['player'].ljust(name_w)}  {cells}  {str(p['total']).rjust(len(total))}{mark}")
    return lines
