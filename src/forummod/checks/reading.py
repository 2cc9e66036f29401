"""Extraction issues that are findings of their own (issue 28): what was read but must not count.

A replaced player's post after the replacement (`replaced_player_post`), votes posted before
the game's start (`vote_before_start`: often a wrong `sites.x.timezone`), PMs received before
the game's start (`pm_before_start`, listed once, never alerted) and PMs the inbox holds for
another game or for a game it cannot tell (`pm_other_game`, `pm_game_unclear`). The service
words them in the game's language when it reads the posts; this check gives each one a
finding, keyed by its post or PM, so `check` and `tick` report it once.
"""

from __future__ import annotations

from forummod.checks.context import CheckContext
from forummod.checks.findings import Finding, source_key

#: issue code -> finding severity
READING_CODES = {
    "replaced_player_post": "warning",
    "vote_before_start": "warning",
    "pm_before_start": "info",
    "pm_other_game": "info",
    "pm_game_unclear": "warning",
}


def check_reading(ctx: CheckContext) -> list[Finding]:
    out = []
    for i in ctx.issues:
        severity = READING_CODES.get(i.code)
        if severity is None:
            continue
        # a replaced player's post is theirs, not the seat's: its finding names who wrote it
        player = i.player if i.code == "replaced_player_post" else ctx.player_of(i.player) or i.player if i.player \
            else None
        out.append(Finding(code=i.code, key=f"{i.code}:{source_key(i.source, i.at)}", rule=i.rule,
                           player=player, source=i.source,
                           at=i.at, severity=severity, phase=ctx.phase_at(i.at), message=i.message,
                           details=i.details))
    return out
