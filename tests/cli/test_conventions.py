"""CLI conventions a GM and a Python CLI user expect: global options before or after the
command, -q/-v, --version, a closed pipe without a traceback, a quiet tick under cron, English
plurals, gm confirmations in words, role names as the rules write them, the ruleset reference
in the gm help, init that validates what it writes, doctor before the first poll."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from forummod.cli import build_parser, log_level, main
from forummod.config import load_config

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]")]


@pytest.fixture
def game(tmp_path):
    write_posts(tmp_path, POSTS, T0)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Eve"], {"Ann": "mafia"}),
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n'), encoding="utf-8")
    return cfg


def out_of(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    o = capsys.readouterr()
    return rc, o.out, o.err


def test_global_options_work_before_and_after_the_command(game, capsys):
    at = (T0 + timedelta(hours=2)).isoformat()
    rc1, before, _ = out_of(capsys, "--config", str(game), "tally", "--now", at)
    rc2, after, _ = out_of(capsys, "tally", "--now", at, "--config", str(game))
    assert rc1 == rc2 == 0 and before == after and "g — D1" in before
    args = build_parser().parse_args(["-v", "--config", "x.toml", "status"])
    assert str(args.config) == "x.toml" and args.verbose == 1  # the subcommand did not reset them


def test_quiet_and_verbose_set_the_log_level():
    p = build_parser()
    assert log_level(p.parse_args(["status"])) == logging.WARNING
    assert log_level(p.parse_args(["-v", "status"])) == logging.INFO
    assert log_level(p.parse_args(["status", "-vv"])) == logging.DEBUG
    assert log_level(p.parse_args(["-q", "status"])) == logging.ERROR
    assert log_level(p.parse_args(["run"])) == logging.INFO  # the daemon's journal keeps its pass lines


def test_version_is_in_every_commands_help(capsys):
    for argv in (["--version"], ["tally", "--version"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 0 and capsys.readouterr().out.startswith("forummod ")


def test_a_closed_pipe_ends_quietly_without_a_traceback(game):
    assert main(["poll", "--config", str(game), "-q"]) == 0
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    proc = subprocess.run(f'"{sys.executable}" -m forummod draft all --config "{game}" --json | head -c 1',
                          shell=True, capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_poll_and_tick_speak_english_plurals_and_tick_is_quiet_when_nothing_needs_the_gm(game, capsys):
    rc, out, _ = out_of(capsys, "poll", "--config", str(game))
    assert rc == 0 and "2 new posts" in out and "0 new PMs" in out and "(1 request," in out
    rc, first, err = out_of(capsys, "tick", "--config", str(game), "--no-publish")
    assert rc == 0 and len([l for l in first.splitlines() if l.startswith("g: ")]) == 1 and err == ""
    # "N new findings" names each of them (issue 28, item 10)
    said = first.split(" new finding")[0].rsplit(", ", 1)[-1]
    named = [l for l in first.splitlines() if l.startswith("  new finding ")]
    assert said.isdigit() and len(named) == int(said) > 0, first
    # news: said once, on stdout only
    rc, second, err = out_of(capsys, "tick", "--config", str(game), "--no-publish")
    assert rc == 0 and second == "" and err == ""  # nothing new: cron mails nothing


def test_tally_leaves_out_an_empty_not_voting_line(tmp_path, capsys):
    write_posts(tmp_path, [("Mod", "Day 1"), ("Ann", "[b]vote: Bob[/b]"), ("Bob", "[b]vote: Ann[/b]")], T0)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob"], {"Ann": "mafia"}),
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n'), encoding="utf-8")
    main(["poll", "--config", str(cfg), "-q"])
    rc, out, _ = out_of(capsys, "tally", "--config", str(cfg), "--now", (T0 + timedelta(hours=3)).isoformat())
    assert rc == 0 and "not voting" not in out


def test_gm_confirmations_are_words_not_a_python_dict(game, capsys):
    rc, out, _ = out_of(capsys, "gm", "--config", str(game), "kill", "Bob", "--cause", "night_kill")
    assert rc == 0 and "Bob killed (cause: night_kill)" in out and "{" not in out
    rc, out, _ = out_of(capsys, "gm", "set-vote", "Ann", "Eve", "--config", str(game))
    assert "Ann now votes Eve" in out


def test_gm_set_role_takes_the_role_as_the_rules_write_it(game, capsys):
    rc, out, _ = out_of(capsys, "gm", "--config", str(game), "set-role", "Eve", "Mafia Goon")
    assert rc == 0 and "Eve's role set to mafia" in out
    rc, _, err = out_of(capsys, "gm", "--config", str(game), "set-role", "Eve", "mafis")
    assert rc == 2 and "unknown role 'mafis'" in err and "mafia" in err


def test_an_unknown_action_verb_lists_the_games_verbs(game, capsys):
    rc, _, err = out_of(capsys, "gm", "--config", str(game), "action", "Ann", "kil", "Bob")
    assert rc == 2 and "did you mean 'kill'" in err and "check, kill, protect" in err


def test_gm_help_lists_every_rulesets_verbs_and_roles_before_any_config_is_read(capsys):
    with pytest.raises(SystemExit):
        main(["gm", "--help"])
    out = capsys.readouterr().out
    for ruleset, verb, role in (("lupus-eresia", "secret_vote", "twin_guard"), ("one-night", "check_centre", "robber"),
                                ("village", "ww_kill", "little_girl"), ("witch-hunt", "recruit", "herbalist"),
                                ("mafia-majority", "protect", "doctor")):
        assert ruleset in out and verb in out and role in out


@pytest.mark.parametrize("written", ["guardia_gemella", "guardia gemella", "Guardia Gemella", "twin_guard"])
def test_a_role_is_accepted_as_the_rules_and_examples_write_it(tmp_path, written):
    write_posts(tmp_path, POSTS, T0)
    cfg = tmp_path / "forummod.toml"
    text = archive_config(tmp_path, players_toml(["Ann", "Bob", "Eve"], {"Ann": "Lupo Mannaro", "Bob": written,
                                                                         "Eve": "contadino"}))
    cfg.write_text(text.replace('"mafia-majority"', '"lupus-eresia"'), encoding="utf-8")
    load_config(cfg)  # no ConfigError


def test_init_refuses_an_unknown_engine_naming_the_closest_and_the_known_ones(tmp_path, capsys):
    rc, _, err = out_of(capsys, "init", str(tmp_path / "a.toml"), "--engine", "phpbbb")
    assert rc == 2 and "did you mean 'phpbb'" in err and "xenforo" in err and not (tmp_path / "a.toml").exists()


def test_init_refuses_a_thread_address_of_another_engine(tmp_path, capsys):
    rc, _, err = out_of(capsys, "init", str(tmp_path / "a.toml"), "--engine", "discourse",
                        "--thread", "https://f.example.org/viewtopic.php?t=5")
    assert rc == 2 and "not a discourse thread address" in err and "/t/" in err


def test_init_names_the_game_from_its_thread_and_writes_the_engines_markup_and_auth(tmp_path, capsys):
    path = tmp_path / "a.toml"
    assert main(["init", str(path), "--engine", "discourse", "--thread", "https://talk.example.net/t/mafia-12/4242"]) == 0
    text = path.read_text(encoding="utf-8")
    assert "[games.game-4242]" in text and 'base_url = "https://talk.example.net/"' in text
    assert 'markup = "markdown"' in text and 'api_key_env = "FORUMMOD_MYFORUM_API_KEY"' in text
    cfg = load_config(path)
    assert cfg.workspace.store_path() == tmp_path / "a.sqlite"  # its own store, beside it
    path2 = tmp_path / "b.toml"
    assert main(["init", str(path2)]) == 0 and 'markup = "bbcode"' in path2.read_text()
    assert 'password_env = "FORUMMOD_MYFORUM_PASSWORD"' in path2.read_text()


@pytest.mark.parametrize("ruleset", ["mafia-majority", "lupus-eresia", "witch-hunt", "one-night", "village"])
def test_init_example_writes_a_whole_game_of_the_ruleset_that_loads(tmp_path, capsys, ruleset):
    path = tmp_path / "ex.toml"
    assert main(["init", str(path), "--example", ruleset]) == 0
    cfg = load_config(path)
    (game,) = cfg.games.values()
    assert game.ruleset == ruleset and len(game.players) >= 5 and all(p.role for p in game.players)


def test_doctor_on_the_untouched_starter_names_what_to_fill_in_without_contacting_anything(tmp_path, capsys,
                                                                                            monkeypatch):
    monkeypatch.delenv("FORUMMOD_MYFORUM_PASSWORD", raising=False)
    path = tmp_path / "forummod.toml"
    main(["init", str(path)])
    rc, out, err = out_of(capsys, "doctor", "--config", str(path), "--json")
    rep = json.loads(out)
    assert rc == 1 and not rep["ok"] and "Traceback" not in err
    failed = {(c["check"], c["message"].split(" ")[0]) for c in rep["checks"] if not c["ok"]}
    assert ("placeholder", "'forum.example.org'") in failed and ("placeholder", "'YourGMAccount'") in failed
    host = next(c for c in rep["checks"] if c["check"] == "host")
    assert "example address" in host["message"]  # reserved name: no DNS lookup, no 44 s of retries
    secret = next(c for c in rep["checks"] if c["check"] == "secret")
    assert "FORUMMOD_MYFORUM_PASSWORD is not set" in secret["message"] and "export FORUMMOD_MYFORUM_PASSWORD" in secret["message"]


def test_doctor_reports_a_host_that_does_not_answer_in_one_line(tmp_path, capsys, monkeypatch):
    import socket

    with socket.socket() as s:  # a free port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = tmp_path / "forummod.toml"
    main(["init", str(path), "--thread", f"http://127.0.0.1:{port}/viewtopic.php?t=9"])
    rc, out, err = out_of(capsys, "doctor", "--config", str(path))
    line = next(l for l in out.splitlines() if " host " in l)
    assert rc == 1 and "cannot connect" in line and "Traceback" not in out + err


def test_poll_finds_an_unset_inbox_password_before_any_request(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NO_SUCH_FORUMMOD_PASSWORD", raising=False)
    path = tmp_path / "forummod.toml"
    path.write_text("""
[sites.f]
engine = "phpbb"
base_url = "http://127.0.0.1:9/"
username = "GM"
password_env = "NO_SUCH_FORUMMOD_PASSWORD"
[games.g]
site = "f"
thread = "http://127.0.0.1:9/viewtopic.php?t=1"
ruleset = "mafia-majority"
players = [{ name = "Ann" }, { name = "Bob" }]
""", encoding="utf-8")
    import requests

    def no_request(*a, **k):
        raise AssertionError("a request was made before the secret was checked")

    monkeypatch.setattr(requests.Session, "request", no_request)
    rc, _, err = out_of(capsys, "poll", "--config", str(path))
    assert rc == 2 and "NO_SUCH_FORUMMOD_PASSWORD" in err and "sites.f.password_env" in err


def test_config_example_ships_with_the_package_and_init_prints_it(capsys):
    from forummod.resources import bundled_file

    text = bundled_file("config.example.toml").read_text(encoding="utf-8")
    rc, out, _ = out_of(capsys, "init", "--print-reference")
    assert rc == 0 and out == text and "[workspace]" in out


def test_shell_completion_stays_out_of_the_normal_import_path():
    code = ("import sys; from forummod.cli import main; "
            "main(['--version']) if False else None; print('argcomplete' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    env.pop("_ARGCOMPLETE", None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert proc.stdout.strip() == "False"


def test_the_readme_role_table_lists_every_rulesets_role_ids_and_verbs():
    from forummod.engine import catalog
    from forummod.engine.registry import get_ruleset_class, make_ruleset, ruleset_names

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows: dict[str, str] = {}
    for line in readme.splitlines():  # the first table with a row per ruleset is the role-id table
        if line.startswith("| `") and line.count("|") == 4:
            rows.setdefault(line.split("|")[1].strip(" `"), line)
    for name in ruleset_names():
        row = rows[name]
        ids = set(catalog.ROLES.get(name, ())) | set(get_ruleset_class(name).ROLES)
        assert all(f"`{i}`" in row for i in ids), name
        assert all(f"`{v}`" in row for v in make_ruleset(name).actions), name


def test_a_failed_inbox_keeps_the_thread_pages_already_fetched(tmp_path, monkeypatch):
    from forummod.errors import LoginFailed
    from forummod.forum.base import ThreadPoll
    from forummod.adapter_records import Cursor, PageRef, RawPost
    from forummod.service import Workspace, poll_game

    monkeypatch.setenv("FORUMMOD_TEST_INBOX_PASSWORD", "pw")
    cfg = tmp_path / "forummod.toml"
    cfg.write_text("""
[sites.f]
engine = "phpbb"
base_url = "http://127.0.0.1:9/"
username = "GM"
password_env = "FORUMMOD_TEST_INBOX_PASSWORD"
[games.g]
site = "f"
thread = "http://127.0.0.1:9/viewtopic.php?t=7"
ruleset = "mafia-majority"
players = [{ name = "Ann" }, { name = "Bob" }]
""", encoding="utf-8")
    post = RawPost(post_id="1", number=1, author="Ann", created_at=T0, html="<b>vote: Bob</b>")

    class Adapter:
        def thread_id(self, ref):
            return "7"

        def poll_thread(self, ref, cursor, progress=None):
            return ThreadPoll(thread_id="7", posts=(post,), pages_fetched=(1,), requests=1,
                              cursor=Cursor("thread:7", page_ref=PageRef(url="http://127.0.0.1:9/viewtopic.php?t=7")))

        def poll_inbox(self, cursor, known):
            raise LoginFailed("f: the forum refused the password")

    with Workspace(load_config(cfg), adapter_factory=lambda n, s: Adapter()) as ws:
        rep = poll_game(ws, "g")
        assert not rep.ok and "inbox" in rep.error and rep.new_posts == 1
        assert ws.store.post_count("f", "7") == 1  # not thrown away, not fetched again next time


def test_init_from_thread_lists_the_threads_posters_as_candidate_players_and_starts_at_the_opening_post(tmp_path, capsys):
    import threading

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
    from forum_synth import ForumState, make_server

    server = make_server(ForumState(12))  # a real phpBB-shaped thread on 127.0.0.1, two pages
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/viewtopic.php?t=1"
        path = tmp_path / "forummod.toml"
        assert main(["init", str(path), "--from-thread", url]) == 0
    finally:
        server.shutdown()
    cfg = load_config(path)
    (game,) = cfg.games.values()
    assert game.gm == ("player2",)  # the first poster opened the game
    assert [p.name for p in game.players] == ["player3", "player4", "player5", "player6", "player7", "player1"]
    assert "[games.game-1]" in path.read_text()
    # the schedule starts at the thread's first post (the GM's opening), not at an example time
    from datetime import datetime, timezone

    assert game.schedule.start == datetime(2024, 3, 1, 12, 1, tzinfo=timezone.utc)
    assert "read from the thread" in path.read_text()
    # the game is named in its posts after the thread's title, its id after the thread's id (issue 28, 11)
    assert game.title == "Game" and 'title = "Game"' in path.read_text()


def test_doctor_reports_a_login_that_fails_in_one_line(tmp_path, capsys, monkeypatch):
    import threading

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
    from forum_synth import ForumState, make_server

    monkeypatch.setenv("FORUMMOD_MYFORUM_PASSWORD", "not-the-password")
    server = make_server(ForumState(3))  # serves the thread; has no login form (404)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        path = tmp_path / "forummod.toml"
        main(["init", str(path), "--thread", f"http://127.0.0.1:{server.server_address[1]}/viewtopic.php?t=1"])
        rc, out, err = out_of(capsys, "doctor", "--config", str(path), "--json")
    finally:
        server.shutdown()
    checks = {c["check"]: c for c in json.loads(out)["checks"]}
    assert rc == 1 and checks["host"]["ok"] and checks["secret"]["ok"]
    assert not checks["login"]["ok"] and "cannot log in" in checks["login"]["message"]
    assert "not-the-password" not in out + err and "Traceback" not in err


def test_publish_finds_an_unset_password_before_any_request(tmp_path, capsys, monkeypatch):
    from forummod.store import Store

    monkeypatch.delenv("NO_SUCH_FORUMMOD_PASSWORD", raising=False)
    path = tmp_path / "forummod.toml"
    path.write_text("""
[sites.f]
engine = "phpbb"
base_url = "http://127.0.0.1:9/"
username = "GM"
password_env = "NO_SUCH_FORUMMOD_PASSWORD"
[games.g]
site = "f"
thread = "http://127.0.0.1:9/viewtopic.php?t=1"
ruleset = "mafia-majority"
players = [{ name = "Ann" }, { name = "Bob" }]
""", encoding="utf-8")
    with Store(load_config(path).workspace.store_path()) as s:
        did, _ = s.upsert_draft(game="g", kind="votecount", phase="D1", slot="", target="thread", markup="bbcode",
                                lang="en", title="Vote count", body="Ann 1", at=T0)
    import requests

    def no_request(*a, **k):
        raise AssertionError("a request was made before the secret was checked")

    monkeypatch.setattr(requests.Session, "request", no_request)
    rc, _, err = out_of(capsys, "publish", str(did), "--config", str(path))
    assert rc == 2 and "NO_SUCH_FORUMMOD_PASSWORD is not set" in err
    with Store(load_config(path).workspace.store_path()) as s:
        assert s.publication(did) is None  # nothing was started


@pytest.mark.parametrize("argv, command", [
    (["tally"], "tally"), (["--config", "tick", "tally"], "tally"), (["--config=x.toml", "-v", "tick"], "tick"),
    (["-vv", "--conf", "status", "check"], "check"), (["--help"], None), (["nonsense"], None), ([], None),
])
def test_the_command_is_found_before_the_parser_is_built(argv, command):
    from forummod.cli import command_named

    assert command_named(argv) == command


def test_the_parser_of_one_command_parses_as_the_whole_one_does():
    from forummod.cli import command_named

    argv = ["-v", "--config", "x.toml", "tally", "--json", "--at", "12"]
    one = build_parser(command_named(argv)).parse_args(argv)
    whole = build_parser().parse_args(argv)
    assert {k: v for k, v in vars(one).items() if k != "_run"} == {k: v for k, v in vars(whole).items() if k != "_run"}
    assert one._run is whole._run
