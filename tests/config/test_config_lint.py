"""Config linting (issue 34, items 7 and 8): each bad config that used to be accepted is refused.

Every case writes the config to a fresh folder and runs the real command line
(`forummod.cli.main`, and one real `python -m forummod` process): exit code 2, one line naming
the key's dotted path and what to write instead, no traceback, and no store, WAL or lock file
left behind. The near misses that stay valid (a loopback forum read without pause, a 'www.'
thread, clock deadlines, the forum's own store) are loaded too, so the bounds are not wider
than they say.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.config import SiteConfig, load_config
from forummod.config_checks import MIN_POLL_INTERVAL
from forummod.schema import Duration

UNSET_ENV = "FORUMMOD_LINT_TEST_PASSWORD_NEVER_SET"

CONFIG = f"""
[sites.forum]
engine = "phpbb"
base_url = "https://forum.example.org/"
username = "Mod"
password_env = "{UNSET_ENV}"

[games.g1]
site = "forum"
thread = "https://forum.example.org/viewtopic.php?t=12"
ruleset = "mafia-majority"
gm = ["Mod"]
players = [{{ name = "Ann", role = "mafia" }}, {{ name = "Bob" }}, {{ name = "Cat" }}]
"""


def edit(old: str, new: str):
    def apply(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return apply


def prepend(lines: str):
    return lambda text: lines + text


def append(lines: str):
    return lambda text: text + lines


# case -> (how the good config is spoiled, the key's dotted path, words of the suggestion)
MISTAKES = {
    "an empty file": (lambda text: "", "[sites]", ["[games]", "config.example.toml", "forummod init"]),
    "only a [workspace] table": (lambda text: '[workspace]\nstore = "s.sqlite"\n', "[sites]",
                                 ["[games]", "config.example.toml"]),
    "a site but no game": (lambda text: text.split("[games.g1]")[0], "games", ["[games.<id>]", "config.example.toml"]),
    "request_interval = 0 on a public forum": (
        edit('username = "Mod"', 'username = "Mod"\nrequest_interval = 0'), "sites.forum.request_interval",
        ["at least 0.5", "default is 2.0", "127.0.0.1"]),
    "retries = 100000": (edit('username = "Mod"', 'username = "Mod"\nretries = 100000'), "sites.forum.retries",
                         ["give 0 to 10"]),
    "retries below zero": (edit('username = "Mod"', 'username = "Mod"\nretries = -1'), "sites.forum.retries",
                           ["give 0 to 10"]),
    'poll_interval = "0s"': (edit('gm = ["Mod"]', 'gm = ["Mod"]\npoll_interval = "0s"'), "games.g1.poll_interval",
                             ['at least "30s"', '"10m"']),
    'base_url = "http://"': (edit('base_url = "https://forum.example.org/"', 'base_url = "http://"'),
                             "sites.forum.base_url", ["has no host", "https://forum.example.org/"]),
    "a base_url with a space": (edit('base_url = "https://forum.example.org/"', 'base_url = "https://forum example.org/"'),
                                "sites.forum.base_url", ["space", "as the browser shows it"]),
    "credentials in base_url": (
        edit('base_url = "https://forum.example.org/"', 'base_url = "https://Mod:hunter2secret@forum.example.org/"'),
        "sites.forum.base_url", ["username", "password_env", "without them"]),
    "credentials in a base_url without scheme": (
        edit('base_url = "https://forum.example.org/"', 'base_url = "Mod:hunter2secret@forum.example.org"'),
        "sites.forum.base_url", ["username", "password_env"]),
    "credentials in the thread's address": (
        edit("https://forum.example.org/viewtopic", "https://Mod:hunter2secret@forum.example.org/viewtopic"),
        "games.g1.thread", ["sites.forum.username", "password_env"]),
    "a thread on another host": (edit("https://forum.example.org/viewtopic", "https://other.example.net/viewtopic"),
                                 "games.g1.thread", ["other.example.net", "forum.example.org", "[sites.<name>]"]),
    "a graveyard on another port": (
        edit('ruleset = "mafia-majority"', 'ruleset = "mafia-majority"\n'
                                           'graveyard = "https://forum.example.org:8443/viewtopic.php?t=13"'),
        "games.g1.graveyard", ["forum.example.org:8443", "give a thread of forum.example.org"]),
    "an empty thread": (edit('thread = "https://forum.example.org/viewtopic.php?t=12"', 'thread = "  "'),
                        "games.g1.thread", ["is empty", "its number"]),
    "a player's name with a newline": (edit('{ name = "Bob" }', '{ name = "Bo\\nb" }'), "games.g1.players[1].name",
                                       ["'\\n'", "one line"]),
    "an alias with a tab": (edit('{ name = "Bob" }', '{ name = "Bob", aliases = ["bo\\tb"] }'),
                            "games.g1.players[1].aliases[0]", ["'\\t'", "one line"]),
    "a replaced player's name with CR": (
        edit('{ name = "Bob" }', '{ name = "Bob", replaces = [{ name = "Old\\rBob", at_post = 3 }] }'),
        "games.g1.players[1].replaces[0].name", ["'\\r'", "one line"]),
    "a GM's name with a newline": (edit('gm = ["Mod"]', 'gm = ["Mo\\nd"]'), "games.g1.gm[0]", ["one line"]),
    "the GM's account name with a newline": (edit('username = "Mod"', 'username = "Mo\\nd"'), "sites.forum.username",
                                             ["one line"]),
    "a store in /proc": (prepend('[workspace]\nstore = "/proc/forummod.sqlite"\n'), "workspace.store",
                         ["/proc", "leave it empty"]),
    "a store in /sys": (prepend('[workspace]\nstore = "/sys/forummod.sqlite"\n'), "workspace.store", ["/sys"]),
    "a store in /dev": (prepend('[workspace]\nstore = "/dev/null"\n'), "workspace.store", ["/dev"]),
    "a missing templates folder": (prepend('[workspace]\ntemplates_dir = "my-templates"\n'), "workspace.templates_dir",
                                   ["does not exist", "leave templates_dir empty"]),
    "a missing adapters folder": (prepend('[workspace]\nadapters_dir = "my-adapters"\n'), "workspace.adapters_dir",
                                  ["does not exist", "leave adapters_dir empty"]),
    "day_end before vote_close": (append('\n[games.g1.schedule]\nvote_close = "48h"\nday_end = "24h"\n'),
                                  "games.g1.schedule.day_end", ['vote_close = "48h"', 'day_end to "48h" or later']),
    "day_end before the ruleset's vote close": (
        append('\n[games.g1.schedule]\nday_end = "24h"\n'), "games.g1.schedule.day_end",
        ['vote_close = "72h" (the mafia-majority default)', 'day_end to "72h" or later']),
    "vote_close after the ruleset's day end": (
        append('\n[games.g1.schedule]\nvote_close = "96h"\n'), "games.g1.schedule.vote_close",
        ['day_end = "72h" (the mafia-majority default)', 'vote_close to "72h" or earlier']),
    "night_end before action_deadline": (
        append('\n[games.g1.schedule]\naction_deadline = "20h"\nnight_end = "12h"\n'), "games.g1.schedule.night_end",
        ['action_deadline = "20h"', 'night_end to "20h" or later']),
    "a deadline of zero": (append('\n[games.g1.schedule]\nvote_close = "0h"\nday_end = "0h"\n'),
                           "games.g1.schedule.vote_close", ["the moment the phase starts", '"48h"']),
    "CR LF in user_agent": (edit('username = "Mod"', 'username = "Mod"\nuser_agent = "bot\\r\\nX-Evil: 1"'),
                            "sites.forum.user_agent", ["'\\r'", "on one line"]),
    "a one-player game": (edit(', { name = "Bob" }, { name = "Cat" }', ""), "games.g1.players",
                          ["1 player", "at least 2"]),
}

COMMANDS = ["poll", "tally", "tick", "doctor"]


def left_files(folder: Path) -> list[str]:
    """What a refused command left beside the config: no store, WAL, journal or lock file."""
    return sorted(p.name for p in folder.iterdir() if p.name != "forummod.toml")


def assert_refused(code: int, err: str, key: str, words: list[str]) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if line.startswith("forummod ")]
    assert len(lines) == 1, err
    line = lines[0]
    assert key in line, (key, line)
    for w in words:
        assert w in line, (w, line)
    return line


@pytest.fixture(autouse=True)
def _no_password(monkeypatch):
    monkeypatch.delenv(UNSET_ENV, raising=False)


@pytest.mark.parametrize("mistake", list(MISTAKES))
@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_config_is_refused_with_its_key_a_suggestion_exit_2_and_nothing_written(mistake, command, tmp_path, capsys):
    spoil, key, words = MISTAKES[mistake]
    (tmp_path / "forummod.toml").write_text(spoil(CONFIG), encoding="utf-8")

    code = main([command, "--config", str(tmp_path / "forummod.toml")])
    out, err = capsys.readouterr()

    assert_refused(code, err, key, words)
    assert "hunter2secret" not in out + err  # a password in an address is never echoed
    assert left_files(tmp_path) == []


def test_an_empty_config_is_refused_by_a_real_forummod_process(tmp_path):
    """The first case of the issue, end to end: it exited 0 saying nothing."""
    (tmp_path / "forummod.toml").write_text("", encoding="utf-8")
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-m", "forummod", "poll", "--config", str(tmp_path / "forummod.toml")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert_refused(done.returncode, done.stderr, "[sites]", ["[games]", "config.example.toml"])
    assert left_files(tmp_path) == []


def test_an_unset_password_variable_stops_poll_before_the_store_or_its_lock_exist(tmp_path, capsys):
    """`poll` used to open the store for the adapter's cookie jar before checking the secret."""
    (tmp_path / "forummod.toml").write_text(CONFIG, encoding="utf-8")

    code = main(["poll", "--config", str(tmp_path / "forummod.toml")])
    out, err = capsys.readouterr()

    assert_refused(code, err, "sites.forum.password_env", [UNSET_ENV, f"export {UNSET_ENV}"])
    assert left_files(tmp_path) == []  # no forummod.sqlite, no -wal, no .lock


def test_a_store_that_cannot_be_created_is_one_line_not_a_traceback(tmp_path, capsys):
    """Any OSError while creating the store (here: its folder is a file) is a clear exit 2."""
    (tmp_path / "not-a-folder").write_text("a file", encoding="utf-8")
    text = '[workspace]\nstore = "not-a-folder/store.sqlite"\n' + CONFIG
    (tmp_path / "forummod.toml").write_text(text, encoding="utf-8")

    code = main(["tally", "--config", str(tmp_path / "forummod.toml")])
    out, err = capsys.readouterr()

    line = assert_refused(code, err, "workspace.store", ["cannot create the store", "not-a-folder"])
    assert "a folder you can write" in line
    assert left_files(tmp_path) == ["not-a-folder"]


def test_a_forum_that_moved_is_told_to_move_its_threads_too(tmp_path, capsys):
    """A new base_url with the thread left at the old address names the thread and the new host."""
    text = CONFIG.replace('base_url = "https://forum.example.org/"', 'base_url = "https://new.example.org/"')
    (tmp_path / "forummod.toml").write_text(text, encoding="utf-8")
    code = main(["tally", "--config", str(tmp_path / "forummod.toml")])
    assert_refused(code, capsys.readouterr().err, "games.g1.thread", ["give a thread of new.example.org"])


def on_host(base: str, text: str) -> str:
    """The config with its forum (and thread) at `base`, read without pause."""
    return text.replace("https://forum.example.org/", base).replace('username = "Mod"', 'username = "Mod"\nrequest_interval = 0.0')


NEAR_MISSES = {
    "a forum on this machine read without pause": lambda text: on_host("http://127.0.0.1:8080/", text),
    "localhost by name": lambda text: on_host("http://localhost:8080/", text),
    "the IPv6 loopback": lambda text: on_host("http://[::1]:8080/", text),
    "the politeness minimum itself": edit('username = "Mod"', 'username = "Mod"\nrequest_interval = 0.5'),
    "retries at the bounds": edit('username = "Mod"', 'username = "Mod"\nretries = 10'),
    "no retries": edit('username = "Mod"', 'username = "Mod"\nretries = 0'),
    "the daemon's minimum poll interval": edit('gm = ["Mod"]', 'gm = ["Mod"]\npoll_interval = "30s"'),
    "a forum on this machine polled every 5 s": lambda text: on_host("http://127.0.0.1:8080/", text).replace(
        'gm = ["Mod"]', 'gm = ["Mod"]\npoll_interval = "5s"'),
    "a thread written with www.": edit("https://forum.example.org/viewtopic", "https://WWW.forum.example.org/viewtopic"),
    "a thread by its number": edit('thread = "https://forum.example.org/viewtopic.php?t=12"', 'thread = "12"'),
    "the day ending when the vote closes": append('\n[games.g1.schedule]\nvote_close = "48h"\nday_end = "48h"\n'),
    "a clock end before a clock close (the next one)": append(
        '\n[games.g1.schedule]\nvote_close = "22:00"\nday_end = "09:00"\n'),
    "a name with an apostrophe and accents": edit('{ name = "Bob" }', '{ name = "Bób O\'Neil" }'),
    "two players": edit(', { name = "Cat" }', ""),
}


@pytest.mark.parametrize("case", list(NEAR_MISSES))
def test_a_near_miss_of_a_bound_still_loads(case, tmp_path):
    (tmp_path / "forummod.toml").write_text(NEAR_MISSES[case](CONFIG), encoding="utf-8")
    cfg = load_config(tmp_path / "forummod.toml")
    assert cfg.games["g1"].site == "forum"


def test_an_existing_templates_folder_and_a_store_beside_it_load(tmp_path):
    (tmp_path / "my-templates").mkdir()
    (tmp_path / "forummod.toml").write_text(
        '[workspace]\ntemplates_dir = "my-templates"\nstore = "data/store.sqlite"\n' + CONFIG, encoding="utf-8")
    cfg = load_config(tmp_path / "forummod.toml")
    assert cfg.workspace.templates_dir == tmp_path / "my-templates"
    assert cfg.workspace.store_path() == tmp_path / "data" / "store.sqlite"


def test_no_site_config_can_hold_an_address_with_credentials():
    """The check sits in the config object itself, so no code path (a test, the console, the
    demo) can build a site whose address would reach requests, logs or the store's snapshots."""
    with pytest.raises(ValueError, match="credentials never go in an address") as e:
        SiteConfig(engine="phpbb", base_url="https://gm:hunter2secret@forum.example.org/")
    assert "hunter2secret" not in str(e.value)


def test_the_daemon_polls_at_the_configured_interval_which_the_config_keeps_at_its_minimum_or_more(tmp_path):
    """The scheduler no longer raises a short interval to 30 s behind the GM's back: the config
    refuses one under the minimum, and what it accepts is what the daemon uses."""
    from forummod.scheduler import plan_jobs

    path = tmp_path / "forummod.toml"
    path.write_text(CONFIG.replace('gm = ["Mod"]', 'gm = ["Mod"]\npoll_interval = "45s"'), encoding="utf-8")
    jobs = plan_jobs(load_config(path), {}, now=None)
    assert [(j.kind, j.every_s) for j in jobs] == [("poll", 45)]
    assert MIN_POLL_INTERVAL == Duration(30)
