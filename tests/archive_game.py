"""An archived game in a temporary folder: the posts file and a config for it.

Many tests need a small game read through the real `archive` engine; this writes both so each
test only says what differs (players and roles, schedule lines, extra tables).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Iterable, Mapping, Sequence


def write_posts(folder: Path, posts: Sequence[tuple], start: datetime | None = None,
                step: timedelta = timedelta(hours=1), *, messages: bool = False) -> Path:
    """`posts` are (author, bbcode) spaced by `step` from `start`, or (author, bbcode, at)."""
    lines = []
    for i, p in enumerate(posts):
        at = p[2] if len(p) > 2 else start + step * i
        lines.append(json.dumps({"id": i + 1, "number": i + 1, "author": p[0], "bbcode": p[1],
                                 "created_at": at.isoformat()}))
    path = folder / "posts.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if messages:
        (folder / "messages.jsonl").write_text("", encoding="utf-8")
    return path


def players_toml(players: Iterable[str], roles: Mapping[str, str] | None = None,
                 extra: Mapping[str, str] | None = None) -> str:
    """`[{ name = "Ann", role = "mafia" }, ...]` (roles and extra keys only where given)."""
    items = []
    for p in players:
        keys = [f'name = "{p}"']
        if roles is not None:
            keys.append(f'role = "{roles.get(p, "town")}"')
        if extra and p in extra:
            keys.append(extra[p])
        items.append("{ " + ", ".join(keys) + " }")
    return "[" + ", ".join(items) + "]"


def archive_config(folder: Path, players: str, *, store: str = "s.sqlite", site: str = "a", game: str = "g",
                   messages: bool = False, game_lines: str = "", tables: str = "") -> str:
    """A mafia-majority game on an archive site; `game_lines` go into [games.<game>], `tables` after."""
    pm = f'messages_file = "{folder / "messages.jsonl"}"\n' if messages else ""
    return f"""
[workspace]
store = "{folder / store}"

[sites.{site}]
engine = "archive"
posts_file = "{folder / 'posts.jsonl'}"
{pm}
[games.{game}]
site = "{site}"
thread = "game"
ruleset = "mafia-majority"
gm = ["Mod"]
players = {players}
{game_lines}
{tables}
"""
