"""Activity blocks (ON-D2, D12): a post in every block of N hours of the phase.

Blocks are half-open `[start + kN h, start + (k+1)N h)` counted in elapsed time from the
phase start (so a daylight-saving change moves no boundary, D12): a post exactly on a boundary
belongs to the later block. A block is cut at the phase end, so a phase shorter than a block
is one short block, checked when the phase ends. A missed block is reported as soon as it
closes; during a block every player who has not posted yet is listed with the block's end.
A player is required in a block only if alive for all of it (a death during the block frees
them) and if their seat did not change hands during it (a replacement joining mid-block is
not blamed for a block they only saw part of). Blocks after the game ended are not checked.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.checks.context import CheckContext, hours
from forummod.i18n import pgettext, phase_label
from forummod.checks.findings import Finding
from forummod.checks.rules import rule_for
from forummod.engine.types import Phase
from forummod.records import frozen


@frozen
class Block:
    phase: str
    index: int  # 0-based
    start: datetime
    end: datetime
    cut: bool  # shortened by the phase end
    offset: timedelta  # start - phase start

    @property
    def label(self) -> str:
        params = dict(n=self.index + 1, phase=phase_label(self.phase), start=hours(self.offset),
                      end=hours(self.offset + (self.end - self.start)))
        if self.cut:
            return pgettext("gm-finding", "block %(n)s of %(phase)s (%(start)s–%(end)s h, cut short by the end of the phase)",
                            **params)
        return pgettext("gm-finding", "block %(n)s of %(phase)s (%(start)s–%(end)s h)", **params)


def activity_enabled(ctx: CheckContext) -> bool:
    """The config decides; unset, the ruleset's default (one-night: on, ON-D2)."""
    if ctx.cfg.activity_blocks is not None:
        return ctx.cfg.activity_blocks
    return bool(getattr(ctx.ruleset, "activity_blocks", False))


def phase_blocks(phase: Phase, length: timedelta, now: datetime, stop: datetime | None = None) -> list[Block]:
    """The blocks of `phase` begun by `now` (and before `stop`, the game's end), in order."""
    start = phase.start.astimezone(timezone.utc)  # elapsed time: UTC arithmetic (D12)
    end = phase.end.astimezone(timezone.utc) if phase.end is not None else None
    out: list[Block] = []
    k = 0
    while True:
        bs = start + k * length
        be = bs + length
        if bs > now or (end is not None and bs >= end) or (stop is not None and bs >= stop):
            break
        cut = end is not None and be > end
        if cut:
            be = end  # type: ignore[assignment]
        out.append(Block(phase.name, k, bs, be, cut, bs - start))
        k += 1
    return out


def current_blocks(ctx: CheckContext) -> list[Block]:
    """Every block of every checked phase begun by now, oldest first."""
    cfg = ctx.cfg
    if cfg.block_hours <= 0:
        return []
    length = timedelta(hours=cfg.block_hours)
    stop = ctx.game_over_at
    out: list[Block] = []
    for ph in ctx.run.phases:
        if ph.kind in cfg.block_phases and ph.start <= ctx.now:
            out.extend(b for b in phase_blocks(ph, length, ctx.now, stop) if stop is None or b.end <= stop)
    return out


def required_account(ctx: CheckContext, player: str, b: Block) -> str | None:
    """The account that had to post in block `b` for this seat, or None if nobody had to."""
    if ctx.is_exempt(player) or not ctx.alive_through(player, b.end):
        return None
    seat = ctx.seats.get(player)
    if seat is not None and any(b.start < t < b.end for t in seat.changes()):
        return None  # replacement joined mid-block
    return ctx.holder_at(player, b.start)


def check_activity(ctx: CheckContext) -> list[Finding]:
    """ON-D2: missed closed blocks (warning) and who has not posted yet in the open one (info)."""
    if not activity_enabled(ctx):
        return []
    posts = ctx.posts_by_player(tuple(ctx.cfg.block_threads))
    times = {pl: [p.created_at for p in ps] for pl, ps in posts.items()}
    out: list[Finding] = []
    for b in current_blocks(ctx):
        closed = ctx.now >= b.end
        for pl in ctx.state.players:
            account = required_account(ctx, pl.name, b)
            if account is None:
                continue
            if any(b.start <= t < b.end for t in times.get(pl.name, ())):
                continue
            out.append(_missed(ctx, b, account) if closed else _pending(ctx, b, account))
    return out


def _missed(ctx: CheckContext, b: Block, account: str) -> Finding:
    return Finding(
        code="activity_missed", key=f"activity_missed:{b.phase}:{b.index}:{account}",
        rule=rule_for("activity_missed", ctx.ruleset_name), player=account, at=b.end, phase=b.phase,
        severity="warning",
        message=pgettext("gm-finding", "%(player)s did not post in the game thread during %(block)s: %(start)s – %(end)s",
                         player=account, block=b.label, start=ctx.fmt(b.start), end=ctx.fmt(b.end)))


def _pending(ctx: CheckContext, b: Block, account: str) -> Finding:
    return Finding(
        code="activity_pending", key=f"activity_pending:{b.phase}:{b.index}:{account}",
        rule=rule_for("activity_pending", ctx.ruleset_name), player=account, at=b.end, phase=b.phase,
        severity="info",
        message=pgettext("gm-finding", "%(player)s has not posted yet in %(block)s, which ends %(end)s", player=account,
                         block=b.label, end=ctx.fmt(b.end)))
