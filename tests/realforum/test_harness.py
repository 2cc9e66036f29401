"""Smoke tests of the real-forum harness: each engine is up on loopback and its seed reads back
over plain HTTP (requests + BeautifulSoup, no forummod adapter) and from its database."""

from __future__ import annotations

import re
import socket

import pytest
import requests
from bs4 import BeautifulSoup

from .harness import HarnessError

pytestmark = pytest.mark.realforum


def test_server_listens_on_loopback_only(real_forum):
    assert real_forum.base_url.startswith("http://127.0.0.1:")
    assert real_forum.server.alive()
    r = requests.get(real_forum.base_url, timeout=10)
    assert r.status_code == 200


def test_thread_pages_hold_the_seeded_posts_in_order(real_forum):
    seeded = real_forum.seeded_posts("game")
    sizes = real_forum.expected_page_sizes("game")
    assert sizes == [10, 10, 8]
    for page, size in enumerate(sizes, 1):
        got = real_forum.http_posts(page)
        want = [p for p in seeded if p.page == page]
        assert len(got) == size
        assert [(p.id, p.author, p.at) for p in got] == [(p.id, p.author, p.at) for p in want]


def test_edited_post_shows_its_new_version_and_an_edit_mark(real_forum):
    edited = real_forum.script.post("p16")
    row = next(p for p in real_forum.http_posts(2) if p.id == real_forum.post_id("p16"))
    assert row.edited
    assert "Voto: Fede" in row.body and "Gina" not in row.body
    assert not any(p.edited for p in real_forum.http_posts(1))
    assert edited.edited_at is not None


def test_quote_is_the_engines_blockquote_of_the_quoted_vote(real_forum):
    row = next(p for p in real_forum.http_posts(1) if p.id == real_forum.post_id("p06"))
    quote = BeautifulSoup(row.html, "lxml").select_one("blockquote")
    assert quote is not None and "Voto: Fede" in quote.get_text()
    assert "Bianca" in row.body  # the quote's attribution names the quoted author
    assert row.body.rstrip().endswith("aspetto di sentire gli altri.")


def test_graveyard_thread(real_forum):
    got = real_forum.http_posts(1, "graveyard")
    assert [p.author for p in got] == ["Narratore", "Zeno"]
    assert real_forum.graveyard_id != real_forum.thread_id


def test_database_holds_the_seed(real_forum):
    seeded = real_forum.seeded_posts("game")
    got = real_forum.db_posts("game")
    assert [(p.id, p.author, p.at, p.body) for p in got] == [(p.id, p.author, p.at, p.body) for p in seeded]
    assert [p.key for p in seeded if p.edited_at] == ["p16"]
    assert [p.id for p in got if p.edited] == [real_forum.post_id("p16")]


def test_login_with_csrf_token_and_a_wrong_password(real_forum):
    s = real_forum.login(real_forum.gm.name)
    page = s.get(real_forum.base_url, timeout=10).text
    assert re.search(real_forum.logout_link, page)
    with pytest.raises(HarnessError):
        real_forum.login("Aldo", password="not-the-password")


def test_gm_inbox_lists_every_seeded_conversation(real_forum):
    rows = real_forum.http_inbox()
    if real_forum.pm_threads:
        want = {real_forum.pm_id(c.key): c.subject for c in real_forum.script.conversations}
    else:  # each PM its own row: the inbox lists the PMs received (answers are in the sent folder)
        want = {m.conversation_id: c.subject for c in real_forum.db_conversations() for m in c.messages
                if m.author != real_forum.gm.name}
        assert {s.removeprefix("Re: ") for s in want.values()} == {c.subject for c in real_forum.script.conversations}
    assert {r["id"]: r["subject"] for r in rows} == want


def test_gm_reads_a_seeded_conversation(real_forum):
    conv = real_forum.script.conversation("aldo")
    got = real_forum.http_conversation(None, real_forum.pm_id("aldo"))
    assert got.subject == conv.subject
    shown = [conv.messages[i] for i in real_forum.conversation_keys_shown("aldo")]
    assert [(m.author, m.at, m.body) for m in got.messages] == [(m.author, m.at, m.body) for m in shown]


def test_a_player_cannot_open_another_players_conversation(real_forum):
    s = real_forum.login("Zeno")
    r = s.get(real_forum.conversation_url(real_forum.pm_id("aldo")), timeout=10, allow_redirects=False)
    assert "indago Fede" not in r.text
    assert r.status_code in real_forum.foreign_pm_status


def test_database_holds_the_gm_mailbox(real_forum):
    convs = real_forum.db_conversations()
    assert {c.id for c in convs} == real_forum.mailbox_ids()
    elio = next(c for c in convs if c.id == real_forum.pm_id("elio"))
    assert [m.body for m in elio.messages] == ["voto segreto: Fede"]
    assert real_forum.newest_messages(n=1)[0].body == "proteggiamo Aldo"  # Carlo, 22:40, the last PM


def test_reply_over_http_reads_back_and_reset_removes_it(fresh_forum):
    forum = fresh_forum
    text = "Prova di risposta dal test.\n\n**Voto: Gina**"
    pid = forum.reply("Aldo", text)
    last = forum.newest_posts(1)[0]
    assert (last.id, last.author, last.body) == (pid, "Aldo", text)
    assert forum.posts_since_seed() == [last]
    page = forum.http_posts(3)
    assert len(page) == 9 and page[-1].id == pid and "Voto: Gina" in page[-1].body
    forum.reset()
    assert forum.posts_since_seed() == []
    assert [p.id for p in forum.http_posts(3)] == [p.id for p in forum.seeded_posts() if p.page == 3]


def test_pm_over_http_reaches_the_gm_and_reset_removes_it(fresh_forum):
    forum = fresh_forum
    forum.send_pm("Aldo", forum.gm.name, "Notte 3", "Veggente: indago Ugo")
    newest = forum.newest_messages(n=1)[0]
    assert (newest.author, newest.body) == ("Aldo", "Veggente: indago Ugo")
    assert [m.body for m in forum.messages_since_seed()] == ["Veggente: indago Ugo"]
    assert "Notte 3" in [r["subject"] for r in forum.http_inbox()]
    forum.reset()
    assert forum.messages_since_seed() == []


def test_server_stops_and_starts_again_on_the_same_port(fresh_forum):
    forum = fresh_forum
    url, pid = forum.base_url, forum.pid
    forum.stop()
    assert not forum.is_up()
    forum.start()
    assert forum.is_up() and forum.base_url == url and forum.pid != pid


def test_gm_answers_a_conversation_and_the_player_reads_it(fresh_forum):
    forum = fresh_forum
    mid = forum.reply_pm(forum.gm.name, forum.pm_id("aldo"), "Gina risulta LOSCO.")
    in_gm_box = forum.newest_messages(n=1)[0]
    assert (in_gm_box.author, in_gm_box.body) == (forum.gm.name, "Gina risulta LOSCO.") and in_gm_box.id == mid
    # the conversation in Aldo's mailbox; where PMs stand alone, the answer is Aldo's newest PM
    cid = forum.pm_id("aldo", "Aldo") if forum.pm_threads else forum.newest_messages("Aldo", 1)[0].conversation_id
    mine = forum.http_conversation("Aldo", cid)
    assert mine.messages[-1].body == "Gina risulta LOSCO." and mine.messages[-1].author == forum.gm.name


def test_config_for_the_seeded_game_parses(real_forum):
    config = pytest.importorskip("forummod.config")
    cfg = config.parse_config(real_forum.config_toml())
    game = cfg.games["lupus"]
    assert game.thread == real_forum.thread_url() and game.ruleset == "lupus-eresia"
    assert [p.name for p in game.players] == list(real_forum.players)


def test_server_moves_to_a_free_port_when_its_port_was_taken(fresh_forum):
    forum = fresh_forum
    forum.stop()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", forum.port))
        squatter.listen(1)
        old = forum.port
        forum.start()
        assert forum.port != old and forum.is_up()
    assert [p.id for p in forum.http_posts(3)] == [p.id for p in forum.seeded_posts() if p.page == 3]
