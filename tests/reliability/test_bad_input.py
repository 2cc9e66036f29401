"""Bad input gets one clear message, exit code 2, and nothing is written.

Every case goes through the real command line (`forummod.cli.main`): a malformed config, a
malformed archive file, a damaged or newer store. The message names the problem (key path,
file:line, store path) on one line of stderr with no traceback; the store is not created
when there was none, and an existing store keeps its bytes and its modification time.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.store import SCHEMA_VERSION

CONFIG = """
[workspace]
store = "store.sqlite"

[sites.f]
engine = "archive"
posts_file = "posts.jsonl"
messages_file = "pms.jsonl"
username = "Mod"

[games.g1]
site = "f"
thread = "game"
ruleset = "mafia-majority"
timezone = "Europe/Rome"
gm = ["Mod"]
players = [{ name = "Ann", role = "mafia" }, { name = "Bob", aliases = ["Bobby"] }, { name = "Cat" }]
"""

POSTS = [
    {"id": 1, "number": 1, "author": "Mod", "created_at": "2026-03-01T10:00:00+01:00", "bbcode": "Day 1 begins."},
    {"id": 2, "number": 2, "author": "Ann", "created_at": "2026-03-01T11:00:00+01:00", "bbcode": "[b]VOTE: Bob[/b]"},
    {"id": 3, "number": 3, "author": "Cat", "created_at": "2026-03-01T12:00:00+01:00", "bbcode": "[b]VOTE: Bob[/b]"},
]
PMS = [{"id": "m1", "from": "Ann", "to": "Mod", "created_at": "2026-03-01T23:00:00+01:00", "subject": "N1",
        "body": "kill Cat"}]


def jsonl(rows) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.fixture
def ws_dir(tmp_path: Path) -> Path:
    (tmp_path / "forummod.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "posts.jsonl").write_text(jsonl(POSTS), encoding="utf-8")
    (tmp_path / "pms.jsonl").write_text(jsonl(PMS), encoding="utf-8")
    return tmp_path


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def files_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every store-related file (the store, its WAL, its lock). The lock file
    only by its bytes: a writing command takes the lock and leaves it free, rewriting it."""
    out = {}
    for p in sorted(folder.glob("store.sqlite*")):
        if p.is_file():
            out[p.name] = (p.read_bytes(), None if p.suffix == ".lock" else p.stat().st_mtime_ns)
    return out


def assert_one_clear_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if line.startswith("forummod ")]
    assert len(lines) == 1, err  # one message (progress log lines aside)
    for w in words:
        assert w in lines[0], (w, lines[0])


# ---------------------------------------------------------------------- config

CONFIG_MISTAKES = {
    "wrong type": (('ruleset = "mafia-majority"', 'ruleset = "mafia-majority"\npoll_interval = 10.5'),
                   ["games.g1.poll_interval"]),
    "wrong type of a number": (('username = "Mod"', 'username = "Mod"\nrequest_interval = "fast"'),
                               ["sites.f.request_interval", "expected a number"]),
    "unknown key": (('ruleset = "mafia-majority"', 'rulset = "mafia-majority"'),
                    ["games.g1.rulset", "did you mean 'ruleset'"]),
    "unknown ruleset": (('"mafia-majority"', '"mafia-majorty"'), ["games.g1.ruleset", "did you mean 'mafia-majority'"]),
    "unknown role": (('role = "mafia"', 'role = "mafai"'), ["unknown role 'mafai'"]),
    "role counts that do not add up": (
        ('role = "mafia"', 'role = ""'),
        ["games.g1.setup.roles", "add up to 2"],
        '\n[games.g1.setup]\ndeal = "random"\nroles = { mafia = 1, town = 1 }\n'),
    "a player listed twice": (('{ name = "Cat" }', '{ name = "cat" }, { name = "Cat" }'), ["listed twice"]),
    "an alias matching two players": (('{ name = "Cat" }', '{ name = "Cat", aliases = ["bobby"] }'),
                                      ["matches two players"]),
    "a timezone that does not exist": (("Europe/Rome", "Europe/Rom"), ["games.g1.timezone", "Europe/Rome"]),
    "a site that does not exist": (('site = "f"', 'site = "ff"'), ["games.g1.site", "did you mean 'f'"]),
    "a missing required key": (('thread = "game"\n', ""), ["games.g1.thread", "missing required key"]),
    "not TOML": (("[games.g1]", "[games.g1"), ["not valid TOML", "line"]),
    "a date that is not a date": (
        ("", ""), ["games.g1.schedule.start", "ISO 8601"], '\n[games.g1.schedule]\nstart = "next monday"\n'),
    "a deadline that is not a time": (("", ""), ["vote_close"], '\n[games.g1.schedule]\nvote_close = "25:00"\n'),
    "a negative request interval": (('username = "Mod"', 'username = "Mod"\nrequest_interval = -1.0'),
                                    ["sites.f", "must not be negative"]),
    "an unknown engine": (('engine = "archive"', 'engine = "phpbbb"\nbase_url = "https://f.example/"'),
                          ["sites.f.engine", "did you mean 'phpbb'"]),
    "a base URL without scheme": (('engine = "archive"', 'engine = "phpbb"\nbase_url = "forum.example.org"'),
                                  ["sites.f.base_url", "http://"]),
    "the moderator also a player": (('gm = ["Mod"]', 'gm = ["Ann"]'), ["games.g1.gm"]),
    "a roles file that does not exist": (('ruleset = "mafia-majority"', 'ruleset = "mafia-majority"\nroles_file = "roles.toml"'),
                                         ["roles file not found"]),
    "an unknown option of the ruleset": (("", ""), ["games.g1.options"], "\n[games.g1.options]\nno_such_option = 1\n"),
    "a password written into the config": (('username = "Mod"', 'username = "Mod"\npassword = "hunter2hunter2"'),
                                           ["sites.f.password", "password_env"]),
}


@pytest.mark.parametrize("mistake", list(CONFIG_MISTAKES))
@pytest.mark.parametrize("command", ["poll", "tally"])
def test_a_config_mistake_is_one_clear_message_exit_2_and_no_store(mistake, command, ws_dir, capsys):
    (old, new), words, *extra = CONFIG_MISTAKES[mistake]
    text = CONFIG.replace(old, new, 1) if old else CONFIG
    (ws_dir / "forummod.toml").write_text(text + (extra[0] if extra else ""), encoding="utf-8")

    code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))

    assert_one_clear_error(code, err, *words)
    assert "hunter2hunter2" not in err + out
    assert files_state(ws_dir) == {}  # no store, no lock, no WAL


def test_a_password_put_where_its_variable_name_belongs_is_refused_without_showing_it(ws_dir, capsys):
    text = CONFIG.replace('username = "Mod"', 'username = "Mod"\npassword_env = "s3cret pass!word"')
    (ws_dir / "forummod.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, "sites.f", "password_env must be the name of an environment variable")
    assert "s3cret" not in err + out


def test_a_config_that_is_not_utf8_is_refused(ws_dir, capsys):
    (ws_dir / "forummod.toml").write_bytes(CONFIG.encode() + b"\n# caf\xe9\n")
    code, out, err = run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, "UTF-8")
    assert files_state(ws_dir) == {}


def test_a_missing_config_says_how_to_make_one(tmp_path, capsys):
    code, out, err = run_cli(capsys, "tally", "--config", str(tmp_path / "nope.toml"))
    assert_one_clear_error(code, err, "config file not found", "forummod init")


# ---------------------------------------------------------------------- archive files

ARCHIVE_MISTAKES = {
    "a bad JSON line": ("posts.jsonl", lambda rows: jsonl(rows[:2]) + '{"id": 3, "author": "Cat",\n',
                        ["posts.jsonl:3", "not valid JSON"]),
    "a missing field": ("posts.jsonl", lambda rows: jsonl(rows[:1] + [{k: v for k, v in rows[1].items() if k != "author"}]),
                        ["posts.jsonl:2", "missing field 'author'"]),
    "a bad date": ("posts.jsonl", lambda rows: jsonl(rows[:1] + [{**rows[1], "created_at": "1 March, 11 o'clock"}]),
                   ["posts.jsonl:2", "created_at", "ISO 8601"]),
    "a date without offset": ("posts.jsonl", lambda rows: jsonl([{**rows[0], "created_at": "2026-03-01T10:00:00"}]),
                              ["posts.jsonl:1", "no UTC offset"]),
    "two bodies": ("posts.jsonl", lambda rows: jsonl([{**rows[0], "text": "also"}]), ["posts.jsonl:1", "exactly one of"]),
    "a number that is not a number": ("posts.jsonl", lambda rows: jsonl([{**rows[0], "number": "one"}]),
                                      ["posts.jsonl:1", "'number'"]),
    "a line that is not an object": ("posts.jsonl", lambda rows: jsonl(rows[:1]) + "[1, 2]\n",
                                     ["posts.jsonl:2", "JSON object"]),
    "invalid UTF-8": ("posts.jsonl", lambda rows: jsonl(rows[:2]).encode() + b'{"id": 3, "author": "C\xe0t"}\n',
                      ["posts.jsonl:3", "not valid UTF-8"]),
    "a bad message line": ("pms.jsonl", lambda rows: jsonl([{**PMS[0], "to": 7}]), ["pms.jsonl:1", "'to'"]),
    "a message without sender": ("pms.jsonl", lambda rows: jsonl([{k: v for k, v in PMS[0].items() if k != "from"}]),
                                 ["pms.jsonl:1", "missing field 'from'"]),
    "a missing posts file": ("posts.jsonl", None, ["archive file not found", "posts.jsonl"]),
}


def write_archive(folder: Path, mistake: str) -> None:
    name, make, _ = ARCHIVE_MISTAKES[mistake]
    if make is None:
        (folder / name).unlink()
        return
    data = make(POSTS)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


@pytest.mark.parametrize("mistake", list(ARCHIVE_MISTAKES))
@pytest.mark.parametrize("command", ["poll", "tally"])
def test_a_malformed_archive_is_one_clear_message_naming_file_and_line_and_no_store(mistake, command, ws_dir, capsys):
    write_archive(ws_dir, mistake)
    code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, *ARCHIVE_MISTAKES[mistake][2])
    assert files_state(ws_dir) == {}


@pytest.mark.parametrize("mistake", list(ARCHIVE_MISTAKES))
def test_a_malformed_archive_leaves_an_existing_store_untouched(mistake, ws_dir, capsys):
    assert run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))[0] == 0
    before = files_state(ws_dir)
    write_archive(ws_dir, mistake)
    for command in ("poll", "tally", "status"):
        code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))
        assert_one_clear_error(code, err, *ARCHIVE_MISTAKES[mistake][2])
    assert files_state(ws_dir) == before


def test_a_good_archive_polls_and_counts(ws_dir, capsys):
    """The baseline the cases above spoil."""
    code, out, err = run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))
    assert code == 0, err
    code, out, err = run_cli(capsys, "tally", "--json", "--config", str(ws_dir / "forummod.toml"))
    assert code == 0, err
    cands = json.loads(out)["tally"]["candidates"]
    assert [(c["name"], c["total"]) for c in cands] == [("Bob", 2)]


# ---------------------------------------------------------------------- stores


def make_store(ws_dir: Path, capsys) -> Path:
    assert run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))[0] == 0
    return ws_dir / "store.sqlite"


def newer_schema(store: Path) -> None:
    db = sqlite3.connect(store)
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.execute("PRAGMA journal_mode=DELETE")  # as a future version might leave it
    db.close()


def garbage(store: Path) -> None:
    store.write_bytes(b"this is not an SQLite file, it is a shopping list\n" * 200)


def damaged_pages(store: Path) -> None:
    """Valid header, first page intact, the rest overwritten: the kind of damage a bad disk does."""
    data = bytearray(store.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    for i in range(page, len(data)):
        data[i] = (i * 7919) % 251
    store.write_bytes(bytes(data))


def cut_in_half(store: Path) -> None:
    data = store.read_bytes()
    store.write_bytes(data[: len(data) // 2])


def not_ours(store: Path) -> None:
    store.unlink()
    db = sqlite3.connect(store)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()


def emptied(store: Path) -> None:
    """Truncated to 0 bytes (a copy or sync gone wrong): SQLite alone would take it for a new store."""
    store.write_bytes(b"")


def empty_database(store: Path) -> None:
    """A valid SQLite file with nothing in it."""
    store.unlink()
    db = sqlite3.connect(store)
    db.execute("PRAGMA user_version = 1")  # writes the header: a file of one page, no tables
    db.commit()
    db.close()


def another_application_id(store: Path) -> None:
    """Our tables, another program's application id in the header."""
    db = sqlite3.connect(store)
    db.execute("PRAGMA application_id = 1234")
    db.commit()
    db.close()


NOT_YOURS = "Do not delete it or start a new store in its place"

STORE_DAMAGE = {
    "newer schema": (newer_schema, ["newer forummod", "upgrade"]),
    "not SQLite at all": (garbage, ["not an SQLite file", NOT_YOURS, "forummod store salvage"]),
    "damaged pages": (damaged_pages, ["store.sqlite", "damaged", NOT_YOURS]),
    "cut in half": (cut_in_half, ["store.sqlite", "damaged", NOT_YOURS]),
    "another program's database": (not_ours, ["not a forummod store"]),
    "emptied to 0 bytes": (emptied, ["is an empty file (0 bytes)", NOT_YOURS]),
    "an empty SQLite database": (empty_database, ["is an empty SQLite database, not a forummod store"]),
    "another program's application id": (another_application_id, ["another program (application id 0x4d2)"]),
}


@pytest.mark.parametrize("damage", list(STORE_DAMAGE))
@pytest.mark.parametrize("command", ["poll", "tally", "status"])
def test_a_damaged_or_newer_store_is_refused_with_exit_2_and_left_as_it_is(damage, command, ws_dir, capsys):
    store = make_store(ws_dir, capsys)
    spoil, words = STORE_DAMAGE[damage]
    spoil(store)
    os.utime(store, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = files_state(ws_dir)

    code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))

    assert_one_clear_error(code, err, *words)
    assert files_state(ws_dir) == before


def test_a_store_path_that_is_a_folder_is_refused(ws_dir, capsys):
    (ws_dir / "store.sqlite").mkdir()
    code, out, err = run_cli(capsys, "poll", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, "is a folder")


def test_damage_deep_inside_the_store_is_reported_with_exit_2_not_a_traceback(ws_dir, capsys):
    """Opening checks read the schema only; damage to a data page shows up mid-command."""
    big = [{**POSTS[1], "id": i + 10, "number": i + 4, "bbcode": f"{'words ' * 500} {i}"} for i in range(300)]
    (ws_dir / "posts.jsonl").write_text(jsonl(POSTS + big), encoding="utf-8")
    store = make_store(ws_dir, capsys)
    data = bytearray(store.read_bytes())
    for i in range(int(len(data) * 0.6), int(len(data) * 0.7)):
        data[i] = (i * 7919) % 251
    store.write_bytes(bytes(data))
    before = files_state(ws_dir)
    for command in ("poll", "tally", "status"):
        code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))
        assert_one_clear_error(code, err, str(store), "damaged", NOT_YOURS, "Restore your latest backup")
    assert files_state(ws_dir) == before


def test_4_kb_of_garbage_inside_is_refused_before_a_publish_and_when_the_daily_check_is_due(ws_dir, capsys):
    """Issue 34: 4 KB of garbage inside the store, and `tally` and `publish` exited 0. `publish`
    checks the store (SQLite's quick check) before it sends; any command does when the last
    check is a day old. Refused with exit 2, nothing sent, nothing written."""
    big = [{**POSTS[1], "id": i + 10, "number": i + 4, "bbcode": f"{'words ' * 300} {i}"} for i in range(200)]
    (ws_dir / "posts.jsonl").write_text(jsonl(POSTS + big), encoding="utf-8")
    store = make_store(ws_dir, capsys)
    assert run_cli(capsys, "draft", "votecount", "--config", str(ws_dir / "forummod.toml"))[0] == 0
    with open(store, "r+b") as f:
        f.seek(store.stat().st_size // 2)
        f.write(bytes((i * 7919) % 251 for i in range(4096)))
    before = files_state(ws_dir)

    code, out, err = run_cli(capsys, "publish", "1", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, str(store), "SQLite's check found", NOT_YOURS)
    assert not (ws_dir / "posts.outbox.jsonl").exists()  # nothing sent

    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)  # the store's schema page is intact
    last = db.execute("SELECT value FROM meta WHERE key='quick_check_at'").fetchone()[0]
    db.close()
    from forummod import store_file

    with pytest.MonkeyPatch.context() as mp:  # a day after the last check: it is due at open
        mp.setattr(store_file, "now_utc", lambda: datetime.fromisoformat(last) + store_file.CHECK_EVERY)
        code, out, err = run_cli(capsys, "tally", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, str(store), "SQLite's check found", NOT_YOURS)  # found by the check
    assert files_state(ws_dir) == before


def test_doctor_checks_the_store_for_damage_whenever_it_runs(ws_dir, capsys):
    """`doctor` runs SQLite's quick check whatever the last one said, and names the damage."""
    big = [{**POSTS[1], "id": i + 10, "number": i + 4, "bbcode": f"{'words ' * 300} {i}"} for i in range(200)]
    (ws_dir / "posts.jsonl").write_text(jsonl(POSTS + big), encoding="utf-8")
    store = make_store(ws_dir, capsys)
    code, out, _ = run_cli(capsys, "doctor", "--offline", "--config", str(ws_dir / "forummod.toml"))
    assert code == 0 and "ok store" in out
    with open(store, "r+b") as f:
        f.seek(store.stat().st_size // 2)
        f.write(bytes((i * 7919) % 251 for i in range(4096)))
    code, out, _ = run_cli(capsys, "doctor", "--offline", "--config", str(ws_dir / "forummod.toml"))
    line = next(ln for ln in out.splitlines() if "store" in ln and ln.startswith("!!"))
    assert code == 1 and "SQLite's check found" in line and "store salvage" in line


WEB_SITE = ('engine = "archive"\nposts_file = "posts.jsonl"\nmessages_file = "pms.jsonl"',
            'engine = "phpbb"\nbase_url = "http://127.0.0.1:9/"')


@pytest.mark.parametrize("thread", ["topic one", "game", "ftp://forum.example/t/1", "http://"])
@pytest.mark.parametrize("command", ["poll", "status"])
def test_a_thread_that_is_not_a_url_or_id_is_a_config_error_naming_the_key(thread, command, ws_dir, capsys):
    """Issue 19, failure 5: `thread = "topic one"` was fetched as a path (404, exit 1)."""
    text = CONFIG.replace(*WEB_SITE).replace('thread = "game"', f'thread = "{thread}"')
    (ws_dir / "forummod.toml").write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, command, "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, "games.g1.thread", repr(thread), "not a thread URL or id")
    assert files_state(ws_dir) == {}


@pytest.mark.parametrize("thread", ["http://127.0.0.1:9/viewtopic.php?t=3", "3", "viewtopic.php?t=3"])
def test_a_thread_url_an_id_or_a_path_the_engine_reads_is_accepted(thread, ws_dir):
    from forummod.config import load_config

    text = CONFIG.replace(*WEB_SITE).replace('thread = "game"', f'thread = "{thread}"')
    (ws_dir / "forummod.toml").write_text(text, encoding="utf-8")
    assert load_config(ws_dir / "forummod.toml").games["g1"].thread == thread


def test_a_graveyard_that_is_not_a_url_is_a_config_error_too(ws_dir, capsys):
    text = CONFIG.replace(*WEB_SITE).replace('thread = "game"', 'thread = "3"\ngraveyard = "the cemetery"')
    (ws_dir / "forummod.toml").write_text(text, encoding="utf-8")
    code, _, err = run_cli(capsys, "tally", "--config", str(ws_dir / "forummod.toml"))
    assert_one_clear_error(code, err, "games.g1.graveyard", "'the cemetery'")
