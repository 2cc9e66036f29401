"""Parsing the same pages again and again, as a daemon does every pass, adds nothing to the
parser's caches (issue 34: the edit-mark probe was cached by the id of a tuple made anew at
every page, one entry a page for the life of the process)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from forummod.forum import html_engine
from forummod.forum.html_engine import parse_thread_page
from forummod.forum.registry import profiles

PAGES = Path(__file__).resolve().parent / "fixtures"
NOW = datetime(2026, 3, 10, tzinfo=timezone.utc)


def id_caches() -> dict[str, int]:
    """Size of each module-level cache of the parser keyed by an object's id."""
    return {name: len(value) for name, value in vars(html_engine).items()
            if name.isupper() and name.startswith("_") and isinstance(value, dict)}


def parse_all() -> None:
    for engine in ("mybb", "discuz", "forumfree"):
        page = PAGES / f"{engine}-thread.html"
        parse_thread_page(profiles()[engine], page.read_bytes(), url=f"http://127.0.0.1/{engine}?t=1",
                          tz=timezone.utc, now=NOW)


def test_parsing_the_same_pages_again_leaves_every_cache_the_size_it_was():
    parse_all()
    before = id_caches()
    assert before["_EDIT_PROBES"] >= 1  # the probe is cached (its profiles have edit marks)
    for _ in range(30):
        parse_all()
    assert id_caches() == before


def test_an_identity_cache_is_emptied_at_its_bound_not_grown_past_it():
    cache: dict[int, tuple] = {}
    kept = [object() for _ in range(html_engine._ID_CACHE_MAX + 10)]
    for obj in kept:
        html_engine._remember(cache, obj, (obj, 1))
    assert len(cache) <= html_engine._ID_CACHE_MAX
    assert cache[id(kept[-1])] == (kept[-1], 1)
