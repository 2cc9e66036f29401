"""A small village game from config.example.toml, played through the CLI (archive engine).

Six players; Night 1 from T0, dawn 30 h later (the §7.Z defaults), Day 1's vote open from 36 h to
48 h after the dawn. `approve_due` approves what the GM would approve as it comes up.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Sequence

from forummod.cli import main

from tests.example_game import write_example_game

H = timedelta(hours=1)
M = timedelta(minutes=1)
T0 = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)
DAWN1 = T0 + 30 * H
VOTE_OPEN1 = DAWN1 + 36 * H
VOTE_CLOSE1 = DAWN1 + 48 * H
GM = "Narrator"


def players(**over: dict) -> list[dict]:
    base = [{"name": "小明", "role": "villager", "building": "farm"},
            {"name": "小红", "role": "villager", "building": "farm"},
            {"name": "阿强", "role": "werewolf"}, {"name": "阿花", "role": "scandalmonger"},
            {"name": "老王", "role": "seer"}, {"name": "老李", "role": "werewolf"}]
    for p in base:
        p.update(over.get(p["name"], {}))
    return base


def village_game(folder: Path, posts: Sequence[tuple], messages: Sequence[tuple] = (),
                 roster: list[dict] | None = None) -> Path:
    """The example's village game with these players, posts and PMs; polled once."""
    cfg = write_example_game(folder, "village", roster or players(), posts=[(GM, "第一夜开始", T0)] + list(posts),
                             messages=messages, start=T0, extra={"gm": [GM]})
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def status_json(capsys, cfg: Path, now: datetime) -> dict:
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--now", now.isoformat()]) == 0
    return json.loads(capsys.readouterr().out)


def approve_due(capsys, cfg: Path, now: datetime, rounds: int = 20) -> list[str]:
    """Approve every proposal, each at the time it was made, until none is pending at `now`."""
    done = []
    for _ in range(rounds):
        pending = status_json(capsys, cfg, now)["pending"]
        if not pending:
            break
        p = pending[0]
        assert main(["gm", "--config", str(cfg), "--at", p["created_at"], "approve", p["key"]]) == 0
        done.append(p["key"])
    capsys.readouterr()
    return done


def draft_text(capsys, cfg: Path, kind: str, now: datetime, *extra: str) -> str:
    capsys.readouterr()
    assert main(["draft", kind, "--print", "--config", str(cfg), "--now", now.isoformat(), *extra]) == 0
    return capsys.readouterr().out
