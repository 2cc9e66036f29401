"""One player's activity blocks (issue 32, item 2): for the console's player page, each block of
the activity rule (checks/activity.py, ON-D2) with the player's posts in it and whether the
rule required one. The same blocks, the same "required" test and the same threads as the
`activity_missed` / `activity_pending` findings, so the page and `check` never disagree.
"""

from __future__ import annotations

from forummod.checks.activity import Block, activity_enabled, current_blocks, required_account
from forummod.checks.context import CheckContext
from forummod.records import frozen


@frozen
class BlockMark:
    block: Block
    posts: int
    required: bool  # the rule asked this seat for a post in the block
    state: str  # "posted", "missed" (closed, required, no post), "open" (still running), "free" (not required)


@frozen
class PlayerActivity:
    enabled: bool  # the activity rule is on for this game (else the blocks are only informative)
    block_hours: int
    marks: tuple[BlockMark, ...]

    @property
    def missed(self) -> int:
        return sum(1 for m in self.marks if m.state == "missed")


def player_activity(ctx: CheckContext, player: str) -> PlayerActivity:
    """`player`'s posts in every block begun so far of the phases the rule covers."""
    times = [p.created_at for p in ctx.posts_by_player(tuple(ctx.cfg.block_threads)).get(player, ())]
    marks = []
    for b in current_blocks(ctx):
        n = sum(1 for t in times if b.start <= t < b.end)
        required = required_account(ctx, player, b) is not None
        if n:
            state = "posted"
        elif not required:
            state = "free"
        elif ctx.now >= b.end:
            state = "missed"
        else:
            state = "open"
        marks.append(BlockMark(b, n, required, state))
    return PlayerActivity(activity_enabled(ctx), ctx.cfg.block_hours, tuple(marks))
