"""`init` without --engine: the engine comes from the thread page (--from-thread) or the
address's shape (--thread), so a GM pasting a thread address need not know profile names."""

from __future__ import annotations

from typing import Iterator

import pytest

from benchmarks.game import make_game
from benchmarks.markup import XENFORO
from forummod.cli import main
from forummod.config import load_config
from tests.page_server import serve_page


def _out(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.fixture
def xenforo_thread() -> Iterator[str]:
    """A XenForo 2 thread page on 127.0.0.1, served at whatever path is asked for."""
    with serve_page(XENFORO.page(make_game(12).posts, 1).encode()) as base:
        yield base


def test_from_thread_recognises_the_engine_from_the_page(tmp_path, capsys, xenforo_thread):
    path = tmp_path / "forummod.toml"
    rc, out, err = _out(capsys, "init", str(path), "--from-thread", xenforo_thread + "threads/mafia-cxii-the-long-night.1/")
    assert rc == 0, err
    assert "engine: xenforo (recognised from the thread page" in out
    cfg = load_config(path)
    assert cfg.sites["myforum"].engine == "xenforo"
    (game,) = cfg.games.values()
    assert game.gm == ("Moderator",) and len(game.players) >= 5


def test_from_thread_refuses_a_page_of_one_engine_at_another_engines_address(tmp_path, capsys, xenforo_thread):
    rc, _, err = _out(capsys, "init", str(tmp_path / "a.toml"), "--from-thread", xenforo_thread + "viewtopic.php?t=4")
    assert rc == 2 and "looks like xenforo" in err and "phpbb thread" in err and "--engine" in err
    assert not (tmp_path / "a.toml").exists()


@pytest.mark.parametrize(("url", "engine"), [
    ("https://forum.example.org/showthread.php?tid=12", "mybb"),
    ("https://forum.example.org/showthread.php?t=12", "vbulletin"),
    ("https://forum.example.org/index.php?topic=77.0", "smf"),
    ("https://forum.example.org/threads/mafia-night.12/", "xenforo"),
    ("https://talk.example.net/t/mafia-12/4242", "discourse"),
    ("https://forum.example.org/viewtopic.php?t=5", "phpbb"),
])
def test_thread_alone_takes_the_engine_its_address_has_the_shape_of(tmp_path, capsys, url, engine):
    path = tmp_path / "forummod.toml"
    rc, out, _ = _out(capsys, "init", str(path), "--thread", url)
    assert rc == 0 and f"engine: {engine} (from the address's shape" in out
    assert load_config(path).sites["myforum"].engine == engine


def test_thread_of_no_known_shape_asks_for_the_engine(tmp_path, capsys):
    rc, _, err = _out(capsys, "init", str(tmp_path / "a.toml"), "--thread", "https://forum.example.org/t12345-mafia")
    assert rc == 2 and "no engine's thread addresses look like" in err and "--engine NAME" in err and "mybb" in err


def test_from_thread_of_an_unreachable_forum_falls_back_to_the_address_and_then_says_what_failed(tmp_path, capsys):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    rc, _, err = _out(capsys, "init", str(tmp_path / "a.toml"), "--from-thread", f"http://127.0.0.1:{port}/showthread.php?tid=3")
    assert rc == 2 and "could not read" in err and "Traceback" not in err


def test_an_explicit_engine_is_kept_and_no_page_is_read(tmp_path, capsys):
    rc, out, _ = _out(capsys, "init", str(tmp_path / "a.toml"), "--engine", "mybb", "--thread",
                      "https://forum.example.org/showthread.php?tid=12")
    assert rc == 0 and "engine:" not in out
