"""A day-one archive game (tests/render/game.py) served by the console, for the HTTP and browser tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forummod.console.server import ConsoleServer
from forummod.drafting import refresh_drafts
from forummod.service import analyse_game

from tests.render.game import at, day_one

#: A vote whose name could be two players: the console offers to settle it.
AMBIGUOUS = "[b]Vote: ann or bob[/b]"


def make_game(root: Path):
    """D1 with Ann at L-1 (four of five), Fay's vote unreadable, Cat's check sent in the night."""
    g = day_one(root)
    g.post("Fay", 5.5, AMBIGUOUS)
    g.now = at(6)
    return g


@pytest.fixture
def console(tmp_path: Path):
    """(server, workspace, game files, outbox reader)."""
    g = make_game(tmp_path)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
    server = ConsoleServer(ws).start()

    def outbox() -> list[dict]:
        p = tmp_path / "posts.outbox.jsonl"
        return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []

    try:
        yield server, ws, g, outbox
    finally:
        server.stop()
        ws.close()
