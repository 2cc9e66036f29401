"""A game's vote history from the store (issue 32): one analysis with the history recorder.

The recorder watches the same fold `tally`, `status` and the drafts read, so a history row
never disagrees with `tally --at` (tests/history prove it post by post on the demo game).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from forummod.engine.history import HistoryRecorder, VoteHistory
from forummod.engine.registry import make_ruleset


def analyse_with_history(ws: Any, game_id: str, *, now: datetime | None = None,
                         approve_all: bool = False) -> tuple[Any, VoteHistory]:
    """(the game's analysis, its vote history) from one run of the engine."""
    from forummod.service import analyse_game

    game = ws.cfg.game(game_id)
    recorder = HistoryRecorder(make_ruleset(game.ruleset, game.options))
    a = analyse_game(ws, game_id, now=now, approve_all=approve_all, observe=recorder)
    return a, recorder.result(a.run.phases, a.now)
