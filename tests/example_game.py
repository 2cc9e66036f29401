"""A game taken from config.example.toml, with only a scenario's players, roles and posts.

Issue 14 (item 8): the defaults of each seed ruleset's example game must play its rules. This
reads `[games.<id>]` of the shipped example, keeps every setting as written there, and swaps in
what a scenario brings: the players (and their roles or buildings), the posts and PMs (an
`archive` site over local files) and, for a live-looking game, the schedule's start.
"""

from __future__ import annotations

import json
import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "config.example.toml"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{json.dumps(k, ensure_ascii=False)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {v!r}")


def toml_table(name: str, table: Mapping[str, Any]) -> str:
    """`[name]` with its scalar keys, then its sub-tables (nested `[name.sub]`)."""
    lines = [f"[{name}]"]
    subs = []
    for k, v in table.items():
        if isinstance(v, Mapping):
            subs.append((k, v))
        else:
            lines.append(f"{k if k.isidentifier() else json.dumps(k, ensure_ascii=False)} = {_value(v)}")
    text = "\n".join(lines) + "\n"
    for k, v in subs:
        text += "\n" + toml_table(f"{name}.{k}", v)
    return text


def example_game(gid: str) -> dict[str, Any]:
    """`[games.<gid>]` of config.example.toml as written (a deep copy)."""
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    return json.loads(json.dumps(data["games"][gid]))


def write_example_game(folder: Path, gid: str, players: Sequence[Mapping[str, Any]], *,
                       posts: Sequence[tuple[str, str, datetime]] = (),
                       messages: Sequence[tuple[str, str, datetime]] = (),
                       start: datetime | None = None, extra: Mapping[str, Any] | None = None,
                       events: Sequence[Mapping[str, Any]] = ()) -> Path:
    """Write posts, PMs and a config whose game is the example's `gid` with only `players`
    (and, when given, the schedule's `start`, `extra` top-level keys such as `resume`, and GM
    `events`) replaced. Returns the config path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "posts.jsonl").write_text("".join(
        json.dumps({"id": i + 1, "number": i + 1, "author": a, "bbcode": b, "created_at": at.isoformat()},
                   ensure_ascii=False) + "\n" for i, (a, b, at) in enumerate(posts)), encoding="utf-8")
    (folder / "messages.jsonl").write_text("".join(
        json.dumps({"id": f"m{i + 1}", "from": a, "subject": "", "body": b, "created_at": at.isoformat()},
                   ensure_ascii=False) + "\n" for i, (a, b, at) in enumerate(messages)), encoding="utf-8")
    game = example_game(gid)
    game["site"] = "archive"
    game["thread"] = "game"
    game["players"] = [dict(p) for p in players]
    game.pop("events", None)
    game.pop("phases", None)
    if start is not None:
        game.setdefault("schedule", {})["start"] = start.isoformat()
    for k, v in (extra or {}).items():
        game[k] = v
    text = f'[workspace]\nstore = "{folder / "store.sqlite"}"\n\n'
    text += toml_table("sites.archive", {"engine": "archive", "posts_file": str(folder / "posts.jsonl"),
                                         "messages_file": str(folder / "messages.jsonl")}) + "\n"
    text += toml_table(f"games.{gid}", {k: v for k, v in game.items() if k != "players"})
    for p in players:
        text += f"\n[[games.{gid}.players]]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in p.items())
    for ev in events:
        text += f"\n[[games.{gid}.events]]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in ev.items())
    cfg = folder / "forummod.toml"
    cfg.write_text(text, encoding="utf-8")
    return cfg
