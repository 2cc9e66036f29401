"""One store per game folder: where a config's store is, the old shared store kept in use until
`forummod store migrate`, a store refusing another game under a known id (`--adopt`), and the
config's forum address winning over the stored page URLs."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.config import load_config
from forummod.store import Store
from forummod.store_location import legacy_store_path, rebase_url, thread_key

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
POSTS = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]")]


def folder_game(folder: Path, *, thread: str = "game", game: str = "g") -> Path:
    """An archived game whose config leaves workspace.store empty."""
    folder.mkdir(parents=True, exist_ok=True)
    write_posts(folder, POSTS, T0)
    text = archive_config(folder, players_toml(["Ann", "Bob", "Eve"]), game=game)
    text = text.replace(f'store = "{folder / "s.sqlite"}"\n', "").replace('thread = "game"', f'thread = "{thread}"')
    cfg = folder / "forummod.toml"
    cfg.write_text(text, encoding="utf-8")
    return cfg


def test_a_config_without_a_store_keeps_its_store_beside_itself(tmp_path):
    a, b = folder_game(tmp_path / "a"), folder_game(tmp_path / "b")
    assert load_config(a).workspace.store_path() == tmp_path / "a" / "forummod.sqlite"
    assert main(["poll", "--config", str(a), "-q"]) == 0 and main(["poll", "--config", str(b), "-q"]) == 0
    assert (tmp_path / "a" / "forummod.sqlite").is_file() and (tmp_path / "b" / "forummod.sqlite").is_file()
    assert not legacy_store_path().exists()  # two folders never share one store


def test_an_old_shared_store_holding_the_game_stays_in_use_with_a_note_until_migrated(tmp_path, capsys):
    cfg = folder_game(tmp_path / "game")
    legacy = legacy_store_path()
    legacy.parent.mkdir(parents=True)
    with Store(legacy) as s:  # what an older forummod left: this game's event and one of another game
        s.append_event("g", T0, "override", {"kind": "note", "note": "mine"}, actor="gm")
        s.append_event("other", T0, "override", {"kind": "note", "note": "not mine"}, actor="gm")
    c = load_config(cfg)
    assert c.workspace.store_path() == legacy and "store migrate" in c.store_note
    capsys.readouterr()
    assert main(["status", "--config", str(cfg)]) == 0
    assert "old shared store" in capsys.readouterr().err  # never a silent empty start

    assert main(["store", "migrate", "--config", str(cfg)]) == 0
    new = tmp_path / "game" / "forummod.sqlite"
    assert load_config(cfg).workspace.store_path() == new and not load_config(cfg).store_note
    with Store(new) as s:
        assert [e.payload["note"] for e in s.events("g")] == ["mine"] and s.events("other") == []
    with Store(legacy) as s:  # the old file keeps everything, the game marked as moved
        assert len(s.events("other")) == 1 and s.snapshot("g", "moved_to") == {"to": str(new)}
    assert main(["store", "migrate", "--config", str(cfg)]) == 2  # nothing left to migrate


def test_a_store_refuses_another_game_under_a_known_id_unless_adopted(tmp_path, capsys):
    cfg = folder_game(tmp_path / "x")
    shared = tmp_path / "shared.sqlite"
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(f'[workspace]\nstore = "{shared}"\n' + text.replace("[workspace]\n", ""), encoding="utf-8")
    assert main(["poll", "--config", str(cfg), "-q"]) == 0
    other = folder_game(tmp_path / "y", thread="elsewhere")
    other.write_text(f'[workspace]\nstore = "{shared}"\n' + other.read_text().replace("[workspace]\n", ""))
    capsys.readouterr()
    assert main(["drafts", "--config", str(other)]) == 2
    err = capsys.readouterr().err
    assert "another game under the id 'g'" in err and "--adopt" in err and "games.g" in err
    assert main(["drafts", "--config", str(other), "--adopt"]) == 0
    assert main(["--adopt", "drafts", "--config", str(cfg)]) == 0  # and back: a global option before the command


def test_the_thread_of_a_moved_forum_is_the_same_game():
    assert thread_key("https://old.example.org/viewtopic.php?t=5", "https://old.example.org/") == \
        thread_key("https://new.example.org/forum/viewtopic.php?t=5", "https://new.example.org/forum/")
    assert thread_key("12345", "") == "12345"


@pytest.mark.parametrize("url, old, new, want", [
    ("http://f.example.org/viewtopic.php?t=1&start=25", "http://f.example.org/", "https://f.example.org/",
     "https://f.example.org/viewtopic.php?t=1&start=25"),
    ("http://127.0.0.1:8001/t/5?page=2", "http://127.0.0.1:8001/", "http://127.0.0.1:8002/",
     "http://127.0.0.1:8002/t/5?page=2"),
    ("https://a.example.org/forum/viewtopic.php?t=1", "https://a.example.org/forum/", "https://b.example.net/",
     "https://b.example.net/viewtopic.php?t=1"),
    ("https://f.example.org/viewtopic.php?t=1", "https://f.example.org/", "https://f.example.org/", None),
])
def test_the_configured_forum_address_wins_over_a_stored_page_url(url, old, new, want):
    assert rebase_url(url, old, new) == want


def test_poll_reads_a_stored_page_at_the_new_address_with_a_note(tmp_path, monkeypatch, capsys):
    """A cursor saved at the old address is rebased before the poll asks the adapter for it."""
    from forummod.adapter_records import Cursor, PageRef
    from forummod.service import Workspace, poll_game
    from forummod.forum.base import ThreadPoll

    cfg = tmp_path / "forummod.toml"
    cfg.write_text("""
[sites.f]
engine = "phpbb"
base_url = "http://old.example.org/"
[games.g]
site = "f"
thread = "http://old.example.org/viewtopic.php?t=7"
ruleset = "mafia-majority"
players = [{ name = "Ann" }, { name = "Bob" }]
""", encoding="utf-8")
    asked = []

    class Adapter:
        def thread_id(self, ref):
            return "7"

        def poll_thread(self, ref, cursor, progress=None):
            asked.append(cursor.page_ref.url if cursor and cursor.page_ref else None)
            return ThreadPoll(thread_id="7", posts=(), pages_fetched=(), cursor=Cursor("thread:7", page_ref=PageRef(
                url=(cursor.page_ref.url if cursor and cursor.page_ref else "http://old.example.org/viewtopic.php?t=7"))))

    with Workspace(load_config(cfg), adapter_factory=lambda n, s: Adapter()) as ws:
        assert poll_game(ws, "g", inbox=False).ok
    # the forum moved: its address and the thread's change together (a thread left on the old
    # host is refused, tests/config/test_config_lint.py)
    cfg.write_text(cfg.read_text().replace("http://old.example.org/", "https://new.example.org/"))
    with Workspace(load_config(cfg), adapter_factory=lambda n, s: Adapter()) as ws:
        rep = poll_game(ws, "g", inbox=False)
        again = poll_game(ws, "g", inbox=False)
    assert asked == [None, "https://new.example.org/viewtopic.php?t=7", "https://new.example.org/viewtopic.php?t=7"]
    assert [i.code for i in rep.issues] == ["site_moved"] and "https://new.example.org/" in rep.issues[0].message
    assert again.issues == ()  # said once


def test_a_second_config_of_a_game_moved_by_another_folder_is_told_not_started_silently(tmp_path, capsys):
    first, second = folder_game(tmp_path / "one"), folder_game(tmp_path / "two")
    legacy = legacy_store_path()
    legacy.parent.mkdir(parents=True)
    with Store(legacy) as s:
        s.append_event("g", T0, "override", {"kind": "note", "note": "shared"}, actor="gm")
    assert main(["store", "migrate", "--config", str(first)]) == 0
    c = load_config(second)
    assert c.workspace.store_path() == tmp_path / "two" / "forummod.sqlite"
    assert "moved to" in c.store_note and str(tmp_path / "one") in c.store_note
    assert not load_config(first).store_note
    assert main(["store", "migrate", "--config", str(second)]) == 2  # its own store: nothing to move


@pytest.mark.parametrize("damage", [b"", b"not a database at all, " * 50])
def test_an_old_shared_store_that_cannot_be_read_stays_the_choice_and_is_refused_never_replaced(damage, tmp_path,
                                                                                              capsys):
    """Issue 34: the old shared store may hold this game; when it cannot be read (emptied,
    damaged) a new empty store beside the config would start the game over and publish it all
    again. It stays the choice, with a note, and is refused like any damaged store."""
    cfg = folder_game(tmp_path / "game")
    legacy = legacy_store_path()
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(damage)
    c = load_config(cfg)
    assert c.workspace.store_path() == legacy and "cannot be read" in c.store_note
    assert 'set workspace.store = "' in c.store_note  # the way out when it holds none of this game
    capsys.readouterr()
    assert main(["status", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "old shared store" in err and "Do not delete it" in err
    assert not (tmp_path / "game" / "forummod.sqlite").exists() and legacy.read_bytes() == damage
