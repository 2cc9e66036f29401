"""A small archived mafia-majority game in a temporary workspace, for tick and daemon tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def write_archive(folder: Path, posts: list[tuple[str, str, datetime]]) -> None:
    write_posts(folder, posts, messages=True)


def write_config(folder: Path, *, start: datetime = T0, day: str = "72h", extra: str = "") -> Path:
    cfg = folder / "forummod.toml"
    cfg.write_text(archive_config(
        folder, players_toml(PLAYERS, {"Ann": "mafia"}), store="store.sqlite", site="arch", game="g1", messages=True,
        game_lines='poll_interval = "60s"',
        tables=f'[games.g1.schedule]\nstart = "{start.isoformat()}"\nvote_close = "{day}"\nday_end = "{day}"\n{extra}'),
        encoding="utf-8")
    return cfg


@pytest.fixture
def archived_game(tmp_path):
    posts = [("Mod", "Day 1 begins", T0), ("Bob", "[b]vote: Eve[/b]", T0 + timedelta(hours=1)),
             ("Cat", "[b]vote: Eve[/b]", T0 + timedelta(hours=2))]
    write_archive(tmp_path, posts)
    return write_config(tmp_path)
