"""Issue 27 items 4 and 8 through the CLI: mafia-majority's per-seat votes (`players[].votes`)
from the config, kept by a replacement, hidden from the thread's count unless
`options.public_weights`, set mid-game by `gm set-votes`; and a plurality day (`majority = "none"`)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from forummod.cli import main
from forummod.config import load_config
from forummod.errors import ConfigError

from tests.archive_game import archive_config, players_toml, write_posts
from tests.cli.test_live_game import cli, cli_json

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROLES = {"Ann": "mafia", "Gus": "mafia", "Cat": "cop"}
# 7 alive, majority 4: Bob (a double voter) and Cat and Dan put Eve at 4 with three votes (post 4)
DOUBLE = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]"),
          ("Dan", "[b]vote: Eve[/b]"), ("Fay", "[b]vote: Ann[/b]")]


def make(tmp_path, posts, *, players: str, options: str = "") -> str:
    write_posts(tmp_path, posts, T0)
    cfg = tmp_path / "forummod.toml"
    lines = f"options = {{ {options} }}" if options else ""
    cfg.write_text(archive_config(tmp_path, players, game_lines=lines,
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n'), encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return str(cfg)


def wagons(rep) -> dict:
    return {c["name"]: (c["total"], [v["weight"] for v in c["voters"]]) for c in rep["tally"]["candidates"]}


def test_a_config_double_voter_hammers_and_the_public_count_never_shows_the_weight(tmp_path, capsys):
    cfg = make(tmp_path, DOUBLE[:3], players=players_toml(PLAYERS, ROLES, {"Bob": "votes = 2"}))
    now = ("--now", (T0 + 3 * H).isoformat())
    assert wagons(cli_json(capsys, "tally", "--config", cfg, *now)) == {"Eve": (3, [2, 1])}
    public = cli_json(capsys, "tally", "--config", cfg, "--public", *now)
    assert wagons(public) == {"Eve": (2, [1, 1])}
    assert "x2" not in cli(capsys, "tally", "--config", cfg, "--public", *now)[1]
    assert "x2" in cli(capsys, "tally", "--config", cfg, *now)[1]
    # Dan's vote is the hammer (4 of 7 with three voters); the night starts there
    (tmp_path / "h").mkdir()
    cfg = make(tmp_path / "h", DOUBLE, players=players_toml(PLAYERS, ROLES, {"Bob": "votes = 2"}))
    later = ("--now", (T0 + 6 * H).isoformat())
    st = cli_json(capsys, "status", "--config", cfg, *later)
    assert st["phase"] == "N1" and [p["key"] for p in st["pending"]] == ["lynch:D1"]
    for when in (later, ("--at", "5")):
        public = cli_json(capsys, "tally", "--config", cfg, "--public", *when)
        assert all(w == 1 for _, ws in wagons(public).values() for w in ws), when
    rc, out, _ = cli(capsys, "draft", "--config", cfg, "votecount", "--print", "--phase", "D1", *later)
    assert rc == 0 and "x2" not in out and "Eve" in out


def test_public_weights_shows_the_double_vote_in_the_thread_count(tmp_path, capsys):
    cfg = make(tmp_path, DOUBLE[:3], players=players_toml(PLAYERS, ROLES, {"Bob": "votes = 2"}),
               options="public_weights = true")
    public = cli_json(capsys, "tally", "--config", cfg, "--public", "--now", (T0 + 3 * H).isoformat())
    assert wagons(public) == {"Eve": (3, [2, 1])}


def test_a_replacement_keeps_the_seats_votes(tmp_path, capsys):
    seats = players_toml([p if p != "Bob" else "Zed" for p in PLAYERS], ROLES,
                         {"Zed": 'votes = 2, replaces = [{ name = "Bob", at_post = 2 }]'})
    posts = DOUBLE[:2] + [("Mod", "Zed replaces Bob"), ("Zed", "[b]vote: Ann[/b]")]
    cfg = make(tmp_path, posts, players=seats)
    assert wagons(cli_json(capsys, "tally", "--config", cfg, "--at", 3)) == {"Eve": (2, [2])}
    assert wagons(cli_json(capsys, "tally", "--config", cfg, "--now", (T0 + 5 * H).isoformat())) == {"Ann": (2, [2])}


def test_gm_set_votes_makes_a_double_voter_from_then_on_and_other_rulesets_refuse_it(tmp_path, capsys):
    cfg = make(tmp_path, DOUBLE[:3], players=players_toml(PLAYERS, ROLES))
    now = ("--now", (T0 + 3 * H).isoformat())
    assert wagons(cli_json(capsys, "tally", "--config", cfg, *now)) == {"Eve": (2, [1, 1])}
    rc, out, _ = cli(capsys, "gm", "--config", cfg, "--at", (T0 + H / 2).isoformat(), "set-votes", "Bob", "2")
    assert rc == 0 and "Bob now casts 2 votes" in out
    assert wagons(cli_json(capsys, "tally", "--config", cfg, *now)) == {"Eve": (3, [2, 1])}
    assert wagons(cli_json(capsys, "tally", "--config", cfg, "--public", *now)) == {"Eve": (2, [1, 1])}
    assert cli(capsys, "gm", "--config", cfg, "set-votes", "Bob", "two")[0] == 2
    from types import SimpleNamespace

    from forummod.errors import UsageError
    from forummod.gm_actions import _set_votes

    with pytest.raises(UsageError, match="only mafia-majority"):
        _set_votes(SimpleNamespace(ruleset="lupus-eresia"), {"Bob"}, "Bob", "2", T0)


def test_votes_on_a_player_is_refused_for_a_ruleset_without_seat_votes_and_below_zero(tmp_path):
    cfg = tmp_path / "c.toml"
    write_posts(tmp_path, DOUBLE, T0)
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS, ROLES, {"Bob": "votes = -1"})), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"players\[1\]\.votes"):
        load_config(cfg)
    text = archive_config(tmp_path, players_toml(PLAYERS, None, {"Bob": "votes = 2"}))
    # (only mafia-majority has players[].votes)
    cfg.write_text(text.replace('ruleset = "mafia-majority"', 'ruleset = "witch-hunt"'), encoding="utf-8")
    with pytest.raises(ConfigError, match="only mafia-majority"):
        load_config(cfg)


def test_majority_none_with_deadline_no_lynch_is_a_config_error(tmp_path):
    write_posts(tmp_path, DOUBLE, T0)
    cfg = tmp_path / "c.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(PLAYERS, ROLES),
                                  game_lines='options = { majority = "none", deadline = "no_lynch" }'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"options\.deadline"):
        load_config(cfg)


def test_a_plurality_day_counts_votes_after_a_majority_and_runs_to_its_deadline(tmp_path, capsys):
    posts = DOUBLE + [("Gus", "[b]vote: Eve[/b]"), ("Eve", "[b]vote: Ann[/b]"), ("Ann", "[b]vote: Bob[/b]")]
    cfg = make(tmp_path, posts, players=players_toml(PLAYERS, ROLES), options='majority = "none"')
    rep = cli_json(capsys, "tally", "--config", cfg, "--now", (T0 + 10 * H).isoformat())
    assert rep["phase"] == "D1" and rep["rejected_votes"] == [] and rep["tally"]["majority"] is None
    assert wagons(rep)["Eve"][0] == 4
    st = cli_json(capsys, "status", "--config", cfg, "--now", (T0 + 73 * H).isoformat(), "--approve-all")
    assert [d["player"] for d in st["dead"]] == ["Eve"]


def test_a_set_votes_event_in_the_config_applies_from_its_post(tmp_path, capsys):
    cfg = make(tmp_path, DOUBLE[:3], players=players_toml(PLAYERS, ROLES))
    text = open(cfg, encoding="utf-8").read()
    text += '[[games.g.events]]\nkind = "set_votes"\nplayer = "Cat"\nvalue = "2"\nat_post = 2\n'
    open(cfg, "w", encoding="utf-8").write(text)
    assert wagons(cli_json(capsys, "tally", "--config", cfg, "--now", (T0 + 3 * H).isoformat())) == {"Eve": (3, [1, 2])}
    open(cfg, "w", encoding="utf-8").write(text.replace('value = "2"', 'value = "double"'))
    with pytest.raises(ConfigError, match=r"events\[0\]\.value"):
        load_config(cfg)
