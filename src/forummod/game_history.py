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


def history_views(ws: Any, a: Any, history: VoteHistory, *, public: bool, markup: str | None = None,
                  days: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """Each day's view (rows, chart, final count) in the game's language and time zone."""
    from forummod.render import phrasebook_for
    from forummod.render.history_view import day_history_view

    game = a.game
    lang = game.language or a.ruleset.language
    pb = phrasebook_for(lang, game.ruleset, markup or game.markup, ws.cfg.workspace.templates_dir).with_tz(game.tz)
    edited = {p.number for p in a.inputs.posts.get("game", ()) if p.number is not None and p.is_edited}
    return tuple(day_history_view(d, pb, tz=game.tz, lang=lang, hidden_weights=not a.ruleset.public_weights,
                                  edited=edited)
                 for d in history.view(public) if not days or d.phase in days)
