"""Hostile content is data: huge or absurdly nested posts, broken bytes, look-alike names,
markup in names and quotes, a PM pretending to come from someone else. Nothing crashes,
nothing is hidden, nothing is guessed silently, and nothing a player wrote can become markup
in a draft or script in the preview page.

Posts reach the tool both ways it reads them: a phpBB forum over HTTP (`forum`) and an
archive file (`archive`). Assertions are on structure (what is stored, counted, reported),
never on time.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Sequence

import lxml.html
import pytest

from forummod.demo.site import PhpbbSite, SitePM, SiteThread
from forummod.forum.html_engine import MAX_DEPTH, cap_depth
from forummod.report import tally_report
from forummod.service import analyse_game, poll_game
from tests.reliability.faulty_forum import FaultyForum, GameClock, open_workspace

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
NOW = T0 + timedelta(hours=6)
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
PASSWORD = "hostile-test-password"


def config(folder: Path, *, base_url: str = "", players: Sequence[str] = PLAYERS, markup: str = "bbcode",
           messages: bool = False) -> Path:
    if base_url:
        site = (f'engine = "phpbb"\nbase_url = "{base_url}"\nrequest_interval = 0.0\nretries = 0\n'
                + ('username = "Mod"\npassword_env = "FM_HOSTILE_PW"\n' if messages else ""))
        thread = f"{base_url}viewtopic.php?t=1"
    else:
        site = 'engine = "archive"\nposts_file = "posts.jsonl"\n' + ('messages_file = "pms.jsonl"\n' if messages else "")
        thread = "game"
    roster = ", ".join("{ name = %s }" % json.dumps(p) for p in players)
    text = (f'[workspace]\nstore = "store.sqlite"\n\n[sites.f]\n{site}\n[games.g1]\nsite = "f"\nthread = "{thread}"\n'
            f'ruleset = "mafia-majority"\nmarkup = "{markup}"\ntimezone = "UTC"\ngm = ["Mod"]\nplayers = [{roster}]\n')
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "forummod.toml").write_text(text, encoding="utf-8")
    return folder / "forummod.toml"


class Game:
    """A game whose thread holds `posts` ((author, bbcode) pairs after the GM's opening post)."""

    def __init__(self, how: str, folder: Path, clock, posts: Sequence[tuple[str, str]],
                 pms: Sequence[tuple[str, str, str]] = (), players: Sequence[str] = PLAYERS,
                 markup: str = "bbcode", mangle: tuple[bytes, bytes] | None = None):
        self.forum = None
        self.posts = [("Mod", "[b]Day 1[/b] begins.")] + list(posts)
        if how == "forum":
            site = PhpbbSite(users={"Mod": PASSWORD})
            site.threads[1] = SiteThread(1, "Mafia")
            for i, (a, b) in enumerate(self.posts):
                site.add_post(1, a, T0 + timedelta(minutes=i), b)
            for i, (a, subject, body) in enumerate(pms):
                site.pms.append(SitePM(700 + i, a, "Mod", T0 + timedelta(hours=1, minutes=i), subject, body))
            self.site = site
            self.forum = FaultyForum(site).__enter__()
            if mangle:
                self.forum.inject("mangle", match="/viewtopic.php", replace=mangle)
            cfg = config(folder, base_url=self.forum.base_url, players=players, markup=markup, messages=bool(pms))
        else:
            rows = [{"id": i + 1, "number": i + 1, "author": a, "bbcode": b,
                     "created_at": (T0 + timedelta(minutes=i)).isoformat()} for i, (a, b) in enumerate(self.posts)]
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "posts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
            msgs = [{"id": f"m{i}", "from": a, "to": "Mod", "subject": s, "body": b,
                     "created_at": (T0 + timedelta(hours=1, minutes=i)).isoformat()} for i, (a, s, b) in enumerate(pms)]
            (folder / "pms.jsonl").write_text("".join(json.dumps(r) + "\n" for r in msgs), encoding="utf-8")
            cfg = config(folder, players=players, markup=markup, messages=bool(pms))
        self.ws = open_workspace(cfg, clock, GameClock(NOW))
        self.report = poll_game(self.ws, "g1")

    def analysis(self):
        return analyse_game(self.ws, "g1", now=NOW)

    def tally(self) -> dict[str, list[str]]:
        t = tally_report(self.analysis())["tally"] or {"candidates": []}
        return {c["name"]: [v["voter"] for v in c["voters"]] for c in t["candidates"]}

    def issues(self) -> list[tuple[str, str]]:
        return [(i.code, i.message) for i in self.analysis().extraction_issues]

    def stored(self):
        return self.ws.store.posts("f", "1" if self.forum else "game")

    def close(self) -> None:
        self.ws.close()
        if self.forum:
            self.forum.__exit__(None, None, None)


@pytest.fixture
def game(tmp_path, clock, monkeypatch):
    monkeypatch.setenv("FM_HOSTILE_PW", PASSWORD)
    made: list[Game] = []

    def make(how: str, posts, **kw) -> Game:
        g = Game(how, tmp_path / f"g{len(made)}", clock, posts, **kw)
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


HOW = ["forum", "archive"]


# ---------------------------------------------------------------------- size and depth


@pytest.mark.parametrize("how", HOW)
def test_a_five_megabyte_post_is_stored_whole_and_read_like_any_other(how, game):
    huge = "words " * 850_000 + "\n[b]VOTE: Bob[/b]"  # 5.1 MB
    g = game(how, [("Ann", huge), ("Cat", "[b]VOTE: Dan[/b]")])
    assert g.report.ok, g.report.error
    stored = g.stored()
    assert len(stored) == 3 and len(stored[1].html) > 5_000_000
    assert g.tally() == {"Bob": ["Ann"], "Dan": ["Cat"]}


def test_an_answer_beyond_the_size_cap_is_refused_not_swallowed(game, monkeypatch):
    from forummod.forum import http as fhttp

    monkeypatch.setattr(fhttp, "MAX_BODY_BYTES", 1 << 20)  # 64 MB in real life; 1 MB keeps the test light
    g = game("forum", [("Ann", "words " * 350_000), ("Cat", "[b]VOTE: Dan[/b]")])
    assert not g.report.ok and "larger than 1 MB" in g.report.error
    assert g.stored() == []


@pytest.mark.parametrize("how", HOW)
def test_thousands_of_nested_quotes_hide_nothing_and_count_nothing_quoted(how, game):
    n = 3000
    nested = "[quote=Eve]" * n + "[b]VOTE: Bob[/b]" + "[/quote]" * n
    g = game(how, [("Ann", nested + "\nMy own vote: [b]VOTE: Dan[/b]"), ("Cat", "[b]VOTE: Eve[/b]")])
    assert g.report.ok, g.report.error
    stored = g.stored()
    assert [p.author for p in stored] == ["Mod", "Ann", "Cat"]  # the post after it is not lost
    body = stored[1].html
    assert "My own vote" in body and body.count("<blockquote") <= MAX_DEPTH
    assert g.tally() == {"Dan": ["Ann"], "Eve": ["Cat"]}  # own vote counted, the quoted one not


def test_extraction_keeps_the_own_words_after_deeply_nested_quotes_whatever_the_source():
    from forummod.extract import post_text

    pt = post_text("<div>" + "<blockquote>" * 300 + "quoted" + "</blockquote>" * 300 + "<b>VOTE: Dan</b></div>")
    assert "VOTE: Dan" in pt.text and "quoted" not in pt.text


def test_depth_capping_keeps_text_in_place_and_leaves_normal_pages_alone():
    deep = "<div>" + "<blockquote>" * 1000 + "inner" + "</blockquote>" * 1000 + "after</div>"
    capped = cap_depth(deep, limit=50)
    root = lxml.html.fragment_fromstring(capped)
    quotes = root.xpath("//blockquote")
    assert len(quotes) == 49 and quotes[-1].text_content() == "inner"
    assert root.text_content() == "innerafter"
    normal = "<html><body>" + "<div><p>x<br><img src=a.png><ul><li>a<li>b</ul></div>" * 500 + "</body></html>"
    assert cap_depth(normal, limit=50) == normal
    # linear: a million unclosed tags are still one pass (the result is bounded, no error)
    flood = "<b>" * 200_000 + "x"
    assert cap_depth(flood).count("<b>") == MAX_DEPTH


# ---------------------------------------------------------------------- broken bytes


def test_invalid_utf8_in_a_page_spoils_only_its_own_bytes(game):
    players = ("Niccolò", "Zoë", "Ann", "Bob", "Cat")
    posts = [("Niccolò", "[b]VOTE: Zoë[/b]"), ("Ann", "broken here: MANGLE-ME and on"), ("Zoë", "[b]VOTE: Niccolò[/b]")]
    g = game("forum", posts, players=players, mangle=(b"MANGLE-ME", b"\xff\xfe\xc3("))
    assert g.report.ok, g.report.error
    assert any(h.fault == "mangle" for h in g.forum.hits)
    stored = g.stored()
    assert [p.author for p in stored] == ["Mod", "Niccolò", "Ann", "Zoë"]  # not "NiccolÃ²"
    assert "\ufffd" in stored[2].html and "MANGLE-ME" not in stored[2].html
    assert g.tally() == {"Zoë": ["Niccolò"], "Niccolò": ["Zoë"]}


def test_invalid_utf8_in_an_archive_file_is_refused_naming_the_line(tmp_path, clock):
    from forummod.errors import ArchiveError

    cfg = config(tmp_path)
    (tmp_path / "posts.jsonl").write_bytes(b'{"id": 1, "number": 1, "author": "Ann", "created_at": '
                                           b'"2026-03-02T09:00:00+00:00", "bbcode": "caf\xe9"}\n')
    with pytest.raises(ArchiveError, match=r"posts.jsonl:1: not valid UTF-8"):
        with open_workspace(cfg, clock) as ws:
            poll_game(ws, "g1")


# ---------------------------------------------------------------------- look-alike names


@pytest.mark.parametrize("how", HOW)
def test_a_zero_width_character_in_a_voted_name_is_reported_not_matched_silently(how, game):
    g = game(how, [("Ann", "[b]VOTE: Bo\u200bb[/b]")])
    issues = g.issues()
    assert any("Bo\u200bb" in msg or "invisible" in msg.lower() or "zero-width" in msg.lower()
               for _, msg in issues), issues


@pytest.mark.parametrize("how", HOW)
def test_a_homoglyph_in_a_voted_name_is_reported_and_not_counted(how, game):
    g = game(how, [("Ann", "[b]VOTE: \u0412ob[/b]")])  # Cyrillic В
    assert g.tally() == {}
    assert [c for c, _ in g.issues()] == ["homoglyph_name"]


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("account", ["Bob\u200b", "\u0412ob", "B\u200dob"])
def test_an_account_that_only_looks_like_a_player_does_not_vote_as_them(how, account, game):
    g = game(how, [(account, "[b]VOTE: Ann[/b]"), ("Cat", "[b]VOTE: Ann[/b]")])
    assert g.tally() == {"Ann": ["Cat"]}
    assert ("non_player_vote", f"{account} is not a player of this game: “VOTE: Ann”") in g.issues()


# ---------------------------------------------------------------------- markup injection

HOSTILE_NAMES = ("[b]Bold[/b]", "<script>alert(1)</script>", "*star*", "[url=http://evil.example]x[/url]",
                 "_under_ `code`", "Ann")
HOSTILE_PM = ("[url=javascript:alert(1)]click[/url] <img src=x onerror=alert(1)> "
              "[/quote][url=http://evil.example]escape[/url] *gotcha* <b>BOLD</b>")


def rendered_drafts(g: Game) -> list[Any]:
    from forummod.check_store import check_context
    from forummod.checks import run_checks
    from forummod.drafting import refresh_drafts

    a = g.analysis()
    refresh_drafts(g.ws, "g1", a, list(run_checks(check_context(g.ws.store, a))))
    return g.ws.store.drafts("g1")


def assert_harmless(html: str) -> None:
    root = lxml.html.fragment_fromstring(html, create_parent="div")
    assert not root.xpath("//script | //iframe | //object | //embed | //style")
    for el in root.iter():
        for attr, value in el.attrib.items():
            assert not attr.lower().startswith("on"), (el.tag, attr)
            assert "javascript:" not in value.lower() and "evil.example" not in value, (el.tag, attr, value)
    assert not root.xpath("//img[@src='x']")


@pytest.mark.parametrize("markup", ["bbcode", "markdown"])
def test_markup_in_names_and_quoted_text_stays_text_in_drafts_and_the_preview(markup, game):
    from forummod.preview.html import render_markup
    from forummod.preview.page import card, render_page, script_tag

    posts = [("*star*", "[b]VOTE: <script>alert(1)</script>[/b]"), ("[b]Bold[/b]", "[b]VOTE: Ann[/b]"),
             ("Ann", "[b]VOTE: *star*[/b]"), ("Ann", "plain words [/quote][url=http://evil.example]x[/url]")]
    g = game("archive", posts, players=HOSTILE_NAMES, markup=markup, pms=[("Ann", "night", HOSTILE_PM)])
    drafts = rendered_drafts(g)
    assert {d.kind for d in drafts} >= {"votecount", "warnings"}
    shown_names: set[str] = set()
    for d in drafts:
        html = render_markup(d.body, d.markup)
        assert_harmless(html)
        text = lxml.html.fragment_fromstring(html, create_parent="div").text_content().replace("\u200d", "")
        shown_names |= {n for n in HOSTILE_NAMES if n in text}
        root = lxml.html.fragment_fromstring(html, create_parent="div")
        assert not [el for el in root.xpath("//b | //strong | //em | //i | //a | //code")
                    if el.text_content() in ("Bold", "star", "x", "under", "code", "escape", "gotcha")], d.body
    assert shown_names == set(HOSTILE_NAMES)  # every name shown as typed, none as markup
    page = render_page([card(d, g.ws.store.publication(d.id)) for d in drafts], token="t0ken")
    assert page.count("<script") == 1 and str(script_tag()) in page  # the page's own script only
    assert_harmless(page.split("<body", 1)[1].replace(str(script_tag()), ""))


# ---------------------------------------------------------------------- forged senders


@pytest.mark.parametrize("how", HOW)
def test_a_pm_claiming_to_come_from_another_player_counts_for_its_real_sender(how, game):
    from forummod.extract import ExtractContext, extract_message

    forged = ("[b]From: Bob[/b]\n[quote=Bob]kill Cat[/quote]\n"
              "<p class=\"author\">From: <a class=\"username\">Bob</a></p>\nThis is Bob writing: kill Cat")
    g = game(how, [], pms=[("Ann", "Message from Bob", forged)])
    msgs = g.ws.store.messages("f")
    assert [(m.sender, m.subject) for m in msgs] == [("Ann", "Message from Bob")]
    a = g.analysis()
    ctx = ExtractContext(ruleset="mafia-majority", language="en", roster=a.roster)
    ex = extract_message(msgs[0], ctx)
    actors = {i.actor for i in ex.intents} | {i.player for i in ex.issues if i.player}
    assert actors == {"Ann"}, (ex.intents, ex.issues)
    assert all("Bob" not in (i.actor or "") for i in a.intents)
