"""The bundled demo game (forummod.demo.script: Lupus, the Boia's secret vote, an edited vote,
an unvote, a late vote) as an `archive` game, for the history, chart and export tests."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from forummod.config import load_config
from forummod.demo import script as S
from forummod.demo.run import game_toml
from forummod.service import Workspace, poll_game


def write_demo(root: Path) -> Path:
    """The demo's posts (an edit as a second line), PMs and config; returns the config path."""
    root.mkdir(parents=True, exist_ok=True)
    lines = []
    n = 0
    for thread, script in (("game", S.GAME), ("graveyard", S.GRAVEYARD)):
        for i, p in enumerate(script):
            n += 1
            number = i + 1
            base = {"id": f"{thread}-{number}", "number": number, "author": p.author, "thread": thread,
                    "created_at": p.at.isoformat(), "url": f"https://forum.example/{thread}#p{number}"}
            lines.append(dict(base, bbcode=p.bbcode))
            if p.edited_bbcode is not None:
                lines.append(dict(base, bbcode=p.edited_bbcode, edited_at=p.edited_at.isoformat()))
    (root / "posts.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                                      encoding="utf-8")
    pms = [{"id": f"m{i + 1}", "from": pm.sender, "to": S.GM, "subject": pm.subject, "body": pm.body,
            "created_at": pm.at.isoformat()} for i, pm in enumerate(S.PMS)]
    (root / "messages.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in pms),
                                         encoding="utf-8")
    cfg = root / "forummod.toml"
    cfg.write_text(f"""
[workspace]
store = "store.sqlite"

[sites.demo]
engine = "archive"
posts_file = "posts.jsonl"
messages_file = "messages.jsonl"
username = "{S.GM}"

{game_toml("game", "graveyard")}""", encoding="utf-8")
    return cfg


def demo_workspace(root: Path, now: datetime = S.NOW) -> Workspace:
    """The demo game polled into its store with the GM's decisions, its clock at `now`."""
    ws = Workspace(load_config(write_demo(root)), clock=lambda: now)
    poll_game(ws, "demo")
    for at, key in S.DECISIONS:
        ws.store.append_event("demo", at, "decision", {"key": key, "verdict": "approve"}, actor="gm")
    return ws
