"""The saved pages (pages/*.html, made by save_pages.py) agree with pages/manifest.json and with
the game script, offline: a fixture that drifted from the seed fails here, not in an adapter test."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from . import flaskbb_engine, spirit_engine
from .script import GameScript

PAGES = Path(__file__).resolve().parent / "pages"
PARSERS = {"flaskbb": flaskbb_engine, "spirit": spirit_engine}


def manifest() -> dict:
    path = PAGES / "manifest.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def entries(kind: str) -> list[str]:
    return sorted(name for name, e in manifest().items() if kind in e)


def parser(name: str):
    return PARSERS[name.split("-", 1)[0]]


def test_every_saved_page_is_listed_and_scrubbed():
    listed = set(manifest())
    if not listed:
        pytest.skip("no saved pages (run: python -m tests.realforum.save_pages)")
    assert {p.name for p in PAGES.glob("*.html")} == listed
    for name in listed:
        html = (PAGES / name).read_text(encoding="utf-8")
        assert "127.0.0.1:8000" in html or "8000" not in html
        for marker in ('name="csrf_token" value="', 'name="csrfmiddlewaretoken" value="'):
            for chunk in html.split(marker)[1:]:
                assert chunk.startswith("csrf-token-fixed"), name


@pytest.mark.parametrize("name", entries("posts"))
def test_thread_pages_hold_the_listed_posts(name):
    want = manifest()[name]
    got = parser(name).parse_thread_page((PAGES / name).read_text(encoding="utf-8"))
    assert [(p.id, p.author, p.at, p.edited) for p in got] == \
        [(p["id"], p["author"], datetime.fromisoformat(p["at"]), p["edited"]) for p in want["posts"]]


@pytest.mark.parametrize("name", entries("conversations"))
def test_inbox_pages_list_the_seeded_conversations(name):
    want = manifest()[name]["conversations"]
    got = parser(name).parse_inbox((PAGES / name).read_text(encoding="utf-8"))
    assert {r["id"]: r["subject"] for r in got} == {c["id"]: c["subject"] for c in want}


@pytest.mark.parametrize("name", entries("messages"))
def test_conversation_pages_hold_the_seeded_messages(name):
    want = manifest()[name]
    got = parser(name).parse_conversation((PAGES / name).read_text(encoding="utf-8"), want["id"])
    assert got.subject == want["subject"]
    assert [(m.author, m.at, m.body) for m in got.messages] == \
        [(m["author"], datetime.fromisoformat(m["at"]), m["body"]) for m in want["messages"]]


def test_saved_pages_match_the_current_game_script():
    g = GameScript.load()
    for name in entries("posts"):
        e = manifest()[name]
        thread = "graveyard" if "graveyard" in name else "game"
        script = {p.key: p for p in g.threads[thread]}
        for p in e["posts"]:
            assert (p["author"], datetime.fromisoformat(p["at"])) == (script[p["key"]].author, script[p["key"]].at), \
                f"{name} is stale: run python -m tests.realforum.save_pages"
