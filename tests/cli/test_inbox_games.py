"""Issue 28 item 7: only this game's PMs become its actions, findings and alerts.

Two mafia-majority games run on one account (one archive site: one inbox, two threads). Game
`g` starts at T0, game `h` a day later; Cat plays in both. A PM from before `g`'s start is
listed once (`pm_before_start`, info) and never alerted; a PM from a player of `h` only is `h`'s
(no "not a player" warning in `g`); while only `g` runs, Cat's PM is `g`'s; once both run it is
tied by its subject's `pm_tag`, else the GM is asked (`pm_game_unclear`) and it is not used."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from forummod.cli import main

from tests.cli.test_live_game import cli_json

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
G = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
HP = ["Cat", "Hal", "Ivy", "Jon", "Kim", "Lea", "Max"]
PMS = [("m1", "Cat", "", "hi, can I still join? check Ann", T0 - H),  # before g's start
       ("m2", "Hal", "", "check Ivy", T0 + 26 * H),  # h's player only
       ("m3", "Cat", "", "check Ann", T0 + 3 * H),  # only g runs: g's
       ("m4", "Cat", "", "check Bob", T0 + 30 * H),  # both run, no tag: ask the GM
       ("m5", "Cat", "[H] action", "check Hal", T0 + 31 * H),  # h's tag
       ("m6", "Cat", "[G] action", "check Dan", T0 + 32 * H)]  # g's tag


def players(names, cop):
    return "[" + ", ".join(f'{{ name = "{n}", role = "{"cop" if n == cop else "mafia" if n in ("Gus", "Max") else "town"}" }}'
                           for n in names) + "]"


def setup(tmp_path) -> str:
    posts = [{"id": "g1", "number": 1, "thread": "g1", "author": "Mod", "bbcode": "Day 1 begins",
              "created_at": T0.isoformat()},
             {"id": "h1", "number": 1, "thread": "h1", "author": "Mod", "bbcode": "Day 1 begins",
              "created_at": (T0 + 24 * H).isoformat()}]
    (tmp_path / "posts.jsonl").write_text("".join(json.dumps(p) + "\n" for p in posts), encoding="utf-8")
    (tmp_path / "messages.jsonl").write_text("".join(
        json.dumps({"id": i, "from": who, "subject": subj, "body": body, "created_at": at.isoformat()}) + "\n"
        for i, who, subj, body, at in PMS), encoding="utf-8")
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(f"""
[workspace]
store = "{tmp_path / 's.sqlite'}"

[sites.a]
engine = "archive"
posts_file = "{tmp_path / 'posts.jsonl'}"
messages_file = "{tmp_path / 'messages.jsonl'}"

[games.g]
site = "a"
thread = "g1"
ruleset = "mafia-majority"
gm = ["Mod"]
pm_tag = "[G]"
players = {players(G, "Cat")}
[games.g.schedule]
start = "{T0.isoformat()}"

[games.h]
site = "a"
thread = "h1"
ruleset = "mafia-majority"
gm = ["Mod"]
pm_tag = "[H]"
players = {players(HP, "Cat")}
[games.h.schedule]
start = "{(T0 + 24 * H).isoformat()}"
""", encoding="utf-8")
    assert main(["poll", "--config", str(cfg), "--game", "g"]) == 0
    assert main(["poll", "--config", str(cfg), "--game", "h"]) == 0
    return str(cfg)


def findings(capsys, cfg, game):
    return cli_json(capsys, "check", "--config", cfg, "--game", game, "--now", (T0 + 40 * H).isoformat())["findings"]


def checks_sent(game: str, cfg: str) -> list[tuple[str, tuple[str, ...]]]:
    from forummod.config import load_config
    from forummod.model import ActionIntent
    from forummod.service import Workspace, analyse_game

    with Workspace(load_config(cfg)) as ws:
        a = analyse_game(ws, game, now=T0 + 40 * H)
    return [(i.source.id, i.targets) for i in a.intents if isinstance(i, ActionIntent)]


def test_only_this_games_pms_become_its_actions(tmp_path):
    cfg = setup(tmp_path)
    assert checks_sent("g", cfg) == [("m3", ("Ann",)), ("m6", ("Dan",))]
    assert checks_sent("h", cfg) == [("m2", ("Ivy",)), ("m5", ("Hal",))]


def test_a_pm_before_the_start_is_listed_once_and_never_alerted(tmp_path, capsys):
    cfg = setup(tmp_path)
    found = {f["code"]: f for f in findings(capsys, cfg, "g") if f["source"] and f["source"].get("id") == "m1"}
    assert list(found) == ["pm_before_start"] and found["pm_before_start"]["severity"] == "info"
    from forummod.alerts.decide import AlertFacts, AlertRules, needs_gm
    from forummod.config import load_config
    from forummod.service import Workspace, analyse_game

    with Workspace(load_config(cfg)) as ws:
        alerts = needs_gm(analyse_game(ws, "g", now=T0 + 40 * H), AlertFacts(), AlertRules())
    assert not [x for x in alerts if "m1" in x.key or "join" in x.text]


def test_another_games_player_is_no_stranger_and_a_pm_of_both_games_asks_the_gm(tmp_path, capsys):
    cfg = setup(tmp_path)
    g = findings(capsys, cfg, "g")
    assert not [f for f in g if f["player"] == "Hal"]  # m2 is h's: no "not a player" in g
    unclear = [f for f in g if f["code"] == "pm_game_unclear"]
    assert [(f["source"]["id"], f["severity"]) for f in unclear] == [("m4", "warning")]
    assert "forummod gm action" in unclear[0]["message"] and "g" in unclear[0]["message"]
    assert [f["source"]["id"] for f in findings(capsys, cfg, "h") if f["code"] == "pm_game_unclear"] == ["m4"]
