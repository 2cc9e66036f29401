"""A small archived mafia-majority game in a temporary workspace, for tick and daemon tests."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def write_archive(folder: Path, posts: list[tuple[str, str, datetime]]) -> None:
    lines = [json.dumps({"id": i + 1, "number": i + 1, "author": a, "created_at": t.isoformat(), "bbcode": body})
             for i, (a, body, t) in enumerate(posts)]
    (folder / "posts.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "messages.jsonl").write_text("", encoding="utf-8")


def write_config(folder: Path, *, start: datetime = T0, day: str = "72h", extra: str = "") -> Path:
    players = ", ".join(f'{{ name = "{p}", role = "{"mafia" if p == "Ann" else "town"}" }}' for p in PLAYERS)
    cfg = folder / "forummod.toml"
    cfg.write_text(f"""
[workspace]
store = "{folder / 'store.sqlite'}"

[sites.arch]
engine = "archive"
posts_file = "{folder / 'posts.jsonl'}"
messages_file = "{folder / 'messages.jsonl'}"

[games.g1]
site = "arch"
thread = "game"
ruleset = "mafia-majority"
gm = ["Mod"]
poll_interval = "60s"
players = [{players}]

[games.g1.schedule]
start = "{start.isoformat()}"
vote_close = "{day}"
day_end = "{day}"
{extra}
""", encoding="utf-8")
    return cfg


@pytest.fixture
def archived_game(tmp_path):
    posts = [("Mod", "Day 1 begins", T0), ("Bob", "[b]vote: Eve[/b]", T0 + timedelta(hours=1)),
             ("Cat", "[b]vote: Eve[/b]", T0 + timedelta(hours=2))]
    write_archive(tmp_path, posts)
    return write_config(tmp_path)
