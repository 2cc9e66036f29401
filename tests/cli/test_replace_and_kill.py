"""Issue 27 item 9: a replacement and a kill of that seat at the same post. The seat changes
hands first (whoever is named, the seat dies), whether both come from the config, from the GM's
log, or one from each; and a replacement after the kill's post keeps the seat dead."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts
from tests.cli.test_live_game import cli, cli_json

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
ROLES = {"Ann": "mafia", "Gus": "mafia", "Cat": "cop"}
POSTS = [("Mod", "Day 1 begins"), ("Bob", "hi"), ("Cat", "hello"), ("Mod", "Zed replaces Dan. Dan was shot."),
         ("Eve", "wow")]
PIN = '[[games.g.phases]]\nname = "D1"\nend_post = 5\n'


def game(tmp_path, *, zed_replaces_in_config: bool, kill: str = "", when: str = "at_post = 4") -> str:
    """Posts 1-5 an hour apart; Zed replaces Dan at post 4 (or `when`) when the config says so,
    and the config kills `kill` at post 4 (or `when`)."""
    write_posts(tmp_path, POSTS, T0)
    names = ["Ann", "Bob", "Cat", "Zed" if zed_replaces_in_config else "Dan", "Eve", "Fay", "Gus"]
    extra = {"Zed": f'replaces = [{{ name = "Dan", {when} }}]'} if zed_replaces_in_config else {}
    events = f'[[games.g.events]]\nkind = "kill"\nplayer = "{kill}"\n{when}\ncause = "modkill"\n' if kill else ""
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(names, ROLES, extra),
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n' + PIN + events),
                   encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return str(cfg)


def dead(capsys, cfg) -> list[str]:
    return [d["player"] for d in cli_json(capsys, "status", "--config", cfg, "--now", (T0 + 6 * H).isoformat())["dead"]]


def test_config_replacement_and_config_kill_at_one_post_kill_the_seat_by_either_name(tmp_path, capsys):
    for who in ("Zed", "Dan"):
        (tmp_path / who).mkdir()
        cfg = game(tmp_path / who, zed_replaces_in_config=True, kill=who)
        assert dead(capsys, cfg) == ["Zed"], who


def test_config_replacement_and_config_kill_at_one_instant_kill_the_seat(tmp_path, capsys):
    when = f'at = "{(T0 + 3.5 * H).isoformat()}"'
    for who in ("Zed", "Dan"):
        (tmp_path / who).mkdir()
        cfg = game(tmp_path / who, zed_replaces_in_config=True, kill=who, when=when)
        assert dead(capsys, cfg) == ["Zed"], who


def test_gm_replace_at_the_post_of_a_config_kill_kills_the_seat(tmp_path, capsys):
    cfg = game(tmp_path, zed_replaces_in_config=False, kill="Dan")
    assert cli(capsys, "gm", "--config", cfg, "replace", "Dan", "Zed", "--post", 4)[0] == 0
    assert dead(capsys, cfg) == ["Zed"]


def test_a_replacement_after_the_kill_post_keeps_the_seat_dead(tmp_path, capsys):
    cfg = game(tmp_path, zed_replaces_in_config=False, kill="Dan", when="at_post = 3")
    assert cli(capsys, "gm", "--config", cfg, "replace", "Dan", "Zed", "--post", 4)[0] == 0
    assert dead(capsys, cfg) == ["Zed"]
