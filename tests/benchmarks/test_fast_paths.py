"""The parser's and extraction's shortcuts give the answers the long way gives.

Performance work (issue 10) added shortcuts that must not change a single result: probes that
prove a list of selectors finds nothing, whole-page lookups that share the search for their
first element, and remembered text models, extractions and name resolutions. Each is checked
here against the long way, on synthetic phpBB/XenForo pages and, when ../shared/corpus is
there, on every real page of the corpus test.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from benchmarks.game import make_game
from benchmarks.markup import ENGINES
from forummod.extract import ExtractContext, extract_post, post_text
from forummod.extract.intents import _extract_post
from forummod.extract.names import NameIndex, name_index
from forummod.extract.text import _post_text
from forummod.forum import html_engine as H
from forummod.forum.profile import probe_of
from forummod.forum.registry import profiles
from forummod.model import Post, PostVersion, Roster, PlayerSlot, Replacement

NOW = datetime(2024, 6, 1, tzinfo=timezone.utc)


def _synthetic_pages():
    game = make_game(240)
    for name, eng in ENGINES.items():
        for n in (1, 2, eng.pages(240)):
            yield name, f"http://127.0.0.1:1/{eng.page_path(n)}", eng.page(game.posts, n)


def _corpus_pages(corpus_root: Path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "forum"))
    from test_corpus_accuracy import PAGES  # the corpus test's page list (engines, URLs)

    for rel, page in PAGES.items():
        path = corpus_root / rel
        if path.is_file():
            yield page.engine, page.url or f"https://example.org/{rel}", path.read_bytes()


@pytest.fixture(scope="module")
def pages():
    from tests.conftest import corpus_root

    found = list(_synthetic_pages())
    root = corpus_root()
    if root.is_dir():
        found += list(_corpus_pages(root))
    return found


def _extractors(prof):
    p, f = prof.pagination, prof.posts
    return [*p.links, *p.current, *p.last, *p.next, *prof.title_sel, *f.container]


def test_page_scope_finds_what_each_selector_finds(pages):
    profs = profiles()
    checked = 0
    for engine, _url, html in pages:
        root = H.parse_html(html)
        scope = H._PageScope(root)
        for ex in _extractors(profs[engine]):
            assert scope.nodes(ex) == ex.nodes(root), ex.source
            checked += 1
    assert checked > 100


def test_a_probe_that_finds_nothing_means_every_selector_finds_nothing(pages):
    profs = profiles()
    proven = 0
    for engine, _url, html in pages:
        prof = profs[engine]
        f = prof.posts
        edits = probe_of(f.edited_at + f.edited)
        marks = probe_of((*prof.remove, *(m.selector for m in prof.marks)))
        for el in H.all_elements(f.container, H.parse_html(html))[0]:
            if edits is not None and not edits(el):
                assert not any(ex.elements(el) for ex in f.edited + f.edited_at)
                proven += 1
            body = H.first_element(f.body, el)
            if body is not None and marks is not None and not marks(body):
                assert not any(ex.elements(body) for ex in (*prof.remove, *(m.selector for m in prof.marks)))
                proven += 1
    assert proven > 100


def test_loose_first_steps_are_necessary_conditions(pages):
    """Every element a selector's first compound matches also meets the probe's loose test."""
    from lxml import etree

    profs = profiles()
    for engine, _url, html in pages[:6]:
        root = H.parse_html(html)
        prof = profs[engine]
        for ex in (*_extractors(prof), *prof.posts.author, *prof.posts.date, *prof.posts.body, *prof.remove,
                   *(m.selector for m in prof.marks)):
            steps = [f"descendant::{e}[{c}]" if c else f"descendant::{e}" for e, c in ex.probe or () if e]
            if not steps or len(steps) != len(ex.probe) or ex.path is None:
                continue  # raw XPath probes are the selector itself
            loose = etree.XPath(" | ".join(steps))
            kept = loose(root)  # (kept alive: lxml hands out the same proxy for a node while one lives)
            found = set(map(id, kept))
            for hit in ex.elements(root):
                # the hit is the last compound; its chain's first element must be among the loose hits
                assert any(id(a) in found for a in [hit, *hit.iterancestors()]), ex.source


def test_parse_results_do_not_depend_on_the_order_pages_come_in(pages):
    """Caches keyed by profile data are shared across pages and profiles, never mixed up."""
    profs = profiles()
    tz = ZoneInfo("UTC")
    first = [H.parse_thread_page(profs[e], h, url=u, tz=tz, now=NOW) for e, u, h in pages]
    again = [H.parse_thread_page(profs[e], h, url=u, tz=tz, now=NOW) for e, u, h in reversed(pages)]
    assert first == list(reversed(again))


def test_remembered_text_models_equal_fresh_ones():
    game = make_game(120)
    for p in game.posts:
        html = ENGINES["phpbb"].page([p], 1)
        assert post_text(html) == _post_text(html)
        assert post_text(html) is post_text(html)  # the second read is the remembered one
    for odd in ("", "plain", "<b>unclosed", "x" * 200_000 + "<b>VOTE: A</b>"):
        assert post_text(odd) == _post_text(odd)


def _roster() -> Roster:
    return Roster((PlayerSlot("Wren"), PlayerSlot("Marco Rossi", aliases=("Marco",)),
                   PlayerSlot("Ivy", replacements=(Replacement("Old Ivy", NOW),)), PlayerSlot("Aurora")), ("Moderator",))


def _post(pid: str, author: str, *bodies: str) -> Post:
    versions = tuple(PostVersion(i + 1, b, f"h{i}", NOW) for i, b in enumerate(bodies))
    return Post("s", "t", pid, author, NOW, versions, number=int(pid))


def test_remembered_extractions_equal_fresh_ones_and_follow_every_input():
    ctx = ExtractContext(ruleset="mafia-majority", language="en", roster=_roster())
    p = _post("1", "Wren", "<b>VOTE: Marco</b>")
    assert extract_post(p, ctx) == _extract_post(p, ctx)
    assert extract_post(p, ctx) is extract_post(p, ctx)
    edited = _post("1", "Wren", "<b>VOTE: Marco</b>", "<b>VOTE: Ivy</b>")
    assert extract_post(edited, ctx) == _extract_post(edited, ctx) != extract_post(p, ctx)
    other_author = replace(p, author="Aurora")
    assert extract_post(other_author, ctx).intents[0].voter == "Aurora"
    void = replace(ctx, edit_policy="void")
    assert extract_post(edited, void) == _extract_post(edited, void) != extract_post(edited, ctx)
    copy = ExtractContext(ruleset="mafia-majority", language="en", roster=_roster())  # equal, not identical
    assert extract_post(edited, copy) == extract_post(edited, ctx)


def test_remembered_name_resolutions_equal_fresh_ones():
    roster = _roster()
    index = name_index(roster, "en")
    fresh = NameIndex(roster, "en")
    before, after = datetime(2024, 1, 1, tzinfo=timezone.utc), datetime(2024, 12, 1, tzinfo=timezone.utc)
    for text in ("Wren", "marco", "Marco Rossi, obviously", "Old Ivy", "ivy", "Wrne", "nobody", "Aur", "MR"):
        for at in (None, before, after):
            assert index.resolve(text, at=at) == fresh._resolve(text, at=at, cutoff=80, margin=10, trailing=True)
            assert index.resolve(text, at=at) == index.resolve(text, at=at)
    assert name_index(roster, "en") is index and name_index(_roster(), "en") is index


class _NoShapes:
    """`date_memo.DateShapes` that never knows a shape: every date goes to the full parser."""

    def __init__(self, *args):
        pass

    def read(self, text):
        return None

    def learn(self, text, dt):
        pass


@pytest.mark.parametrize("zone", ["UTC", "America/New_York"])
def test_dates_read_by_learnt_shapes_equal_the_full_parsers_on_every_page(pages, zone, monkeypatch):
    """Issue 17: a page's date shapes (forum/date_memo.py) change no post of any page."""
    profs = profiles()
    tz = ZoneInfo(zone)
    fast = [H.parse_thread_page(profs[e], h, url=u, tz=tz, now=NOW) for e, u, h in pages]
    monkeypatch.setattr(H, "DateShapes", _NoShapes)
    slow = [H.parse_thread_page(profs[e], h, url=u, tz=tz, now=NOW) for e, u, h in pages]
    assert fast == slow


def test_c1_characters_fixed_in_the_bytes_equal_the_fix_in_the_text(pages):
    """`decode_body` finds cp1252 punctuation that came as UTF-8 C1 characters in the bytes."""
    from forummod.forum.http import _fix_c1, decode_body

    every_c1 = "".join(chr(c) for c in range(0x80, 0xA0)) + " naïve \u00a0 I\u0092ve"
    samples = [every_c1.encode("utf-8"), *(h if isinstance(h, bytes) else h.encode("utf-8") for _, _, h in pages)]
    utf8 = [d for d in samples if _is_utf8(d)]
    assert len(utf8) > 1
    for data in utf8:
        assert decode_body(data, None) == _fix_c1(data.decode("utf-8"))


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
