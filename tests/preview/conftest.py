"""A drafted archive game served by the preview server, for the HTTP and browser tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forummod.drafting import refresh_drafts
from forummod.preview.server import PreviewServer
from forummod.service import analyse_game

from tests.render.game import XSS, at, day_one

#: A post that tries to run script, quoted by the GM notes (an unreadable vote).
HOSTILE_POST = ('[b]Vote: <script>window.__pwned=1</script>[/b] <img src=x onerror="window.__pwned=2"> '
                '[url=javascript:window.__pwned=3]click[/url] </textarea><script>window.__pwned=4</script>')


@pytest.fixture
def served(tmp_path: Path):
    """(server, workspace, draft ids by (kind, slot), outbox reader)."""
    g = day_one(tmp_path)
    g.post("Eve", 5.5, HOSTILE_POST)
    g.now = at(6)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
    ids = {(r.kind, r.slot): r.id for r in ws.store.drafts("g")}
    server = PreviewServer(ws, refresh=lambda w: "refreshed").start()

    def outbox() -> list[dict]:
        p = tmp_path / "posts.outbox.jsonl"
        return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []

    try:
        yield server, ws, ids, outbox
    finally:
        server.stop()
        ws.close()


__all__ = ["XSS", "HOSTILE_POST"]
