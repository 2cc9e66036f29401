"""Private messages: inbox rows and message pages of real captures, the form login with its
hidden CSRF fields, cookie persistence, unchanged conversations not re-read, Discourse API."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
import responses

from forummod.config import SiteConfig
from forummod.errors import LoginFailed
from forummod.forum.cookies import MemoryCookieStore
from forummod.forum.discourse import messages_from_topic, private_topics
from forummod.forum.html_engine import parse_inbox, parse_message_page
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.logsafe import redact

UTC = ZoneInfo("UTC")
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def read(corpus_dir, rel):
    p = corpus_dir / rel
    if not p.exists():
        pytest.skip(f"{rel} missing")
    return p.read_bytes()


def test_vbulletin_something_awful_inbox_and_message(profiles, corpus_dir):
    rows = parse_inbox(profiles["vbulletin"], read(corpus_dir, "vbulletin/somethingawful-private-list.html"),
                       url="https://forums.somethingawful.com/private.php", tz=UTC, now=NOW)
    assert len(rows) == 4
    assert rows[0].id == "4601204" and rows[0].subject == "Re: Awful app" and rows[0].sender == "InFlames235"
    assert rows[0].url.endswith("private.php?action=show&privatemessageid=4601204")
    msgs = parse_message_page(profiles["vbulletin"], read(corpus_dir, "vbulletin/somethingawful-private-one.html"),
                              url=rows[1].url, tz=UTC, now=NOW, row=rows[1], me="pokeyman")
    (m,) = msgs
    assert m.message_id == "4601162" and m.sender == "InFlames235" and m.recipients == ("pokeyman",)
    assert m.created_at == datetime(2012, 11, 8, 20, 56, tzinfo=timezone.utc)
    assert "awesome app" in m.body_html and m.subject == "Awful app"


def test_flaskbb_inbox_and_conversation(profiles, corpus_dir):
    rows = parse_inbox(profiles["flaskbb"], read(corpus_dir, "local-engines/flaskbb-pm-inbox.html"),
                       url="http://127.0.0.1:5000/conversations/inbox", tz=UTC, now=NOW)
    assert [(r.id, r.subject, r.sender, r.recipients) for r in rows] == [
        ("2", "Your role: Mafia Goon", "host", ("player1",)), ("3", "Night 1 kill", "player1", ("player2",))]
    msgs = parse_message_page(profiles["flaskbb"], read(corpus_dir, "local-engines/flaskbb-pm-conversation.html"),
                              url=rows[0].url, tz=UTC, now=NOW, row=rows[0], me="player1")
    assert [(m.message_id, m.sender, m.recipients) for m in msgs][:2] == [("2", "host", ("player1",)),
                                                                        ("4", "player1", ("host",))]
    assert msgs[0].created_at == datetime(2024, 3, 1, 13, 0, tzinfo=timezone.utc)
    assert "<strong>Mafia Goon</strong>" in msgs[0].body_html and msgs[0].conversation_id == "2"


def test_spirit_private_topics(profiles, corpus_dir):
    rows = parse_inbox(profiles["spirit"], read(corpus_dir, "local-engines/spirit-pm-inbox.html"),
                       url="http://127.0.0.1:8767/topic/private/", tz=UTC, now=NOW)
    assert [r.id for r in rows] == ["2", "3"] and rows[1].unread and not rows[0].unread
    msgs = parse_message_page(profiles["spirit"], read(corpus_dir, "local-engines/spirit-pm-private-topic.html"),
                              url=rows[0].url, tz=UTC, now=NOW, row=rows[0], me="host")
    assert msgs[0].sender == "host" and msgs[0].recipients == ("player1",)
    assert msgs[0].subject == "Your role: Mafia Goon"
    assert msgs[0].created_at == datetime(2024, 3, 1, 13, 0, tzinfo=timezone.utc)


def test_discourse_private_message_list_and_topic(profiles, corpus_dir):
    data = json.loads(read(corpus_dir, "discourse/api-private_messages.json"))
    (t,) = private_topics(data)
    assert t["id"] == 11 and t["participants"] == ["batman", "test_user"]
    topic = json.loads(read(corpus_dir, "discourse/api-topic.json"))
    topic.setdefault("details", {})["allowed_users"] = [{"username": "samsaffron"}, {"username": "gm"}]
    msgs = messages_from_topic(profiles["discourse"], topic, base_url="https://try.discourse.invalid", tz=UTC)
    assert msgs[0].sender == "samsaffron" and msgs[0].recipients == ("gm",)
    assert msgs[0].created_at.tzinfo is not None


LOGIN_FORM = """<html><body><form id="login" method="post" action="./ucp.php?mode=login&amp;sid=abc">
<input type="text" name="username"><input type="password" name="password">
<input type="hidden" name="form_token" value="TOKEN123"><input type="hidden" name="creation_time" value="1600000000">
<input type="hidden" name="sid" value="abc"><input type="submit" name="login" value="Login"></form></body></html>"""

INBOX = """<html><body><a href="./ucp.php?mode=logout">Logout</a><ul class="topiclist cplist pmlist">
<li class="row bg1 pm_unread"><dl><dt><a href="./ucp.php?i=pm&amp;mode=view&amp;f=0&amp;p=77" class="topictitle">N1 kill</a><br>
by <a href="./memberlist.php?mode=viewprofile&amp;u=5" class="username">wolf1</a> » <time datetime="2024-03-02T22:00:00+00:00">Sat</time></dt></dl></li>
</ul></body></html>"""

MESSAGE = """<html><body><a href="./ucp.php?mode=logout">Logout</a><div id="post-content"><h3 class="first">N1 kill</h3>
<p class="author"><strong>Sent:</strong> <time datetime="2024-03-02T22:00:00+00:00">Sat</time> <strong>From:</strong>
<a href="./memberlist.php?mode=viewprofile&amp;u=5" class="username">wolf1</a> <strong>Recipient:</strong>
<a href="./memberlist.php?mode=viewprofile&amp;u=1" class="username">gm</a></p>
<div class="content">kill <b>player3</b><blockquote><div><cite>gm wrote:</cite>who?</div></blockquote></div></div></body></html>"""


def phpbb_adapter(clock, monkeypatch, store=None):
    monkeypatch.setenv("FM_TEST_PW", "s3cret-pass")
    site = SiteConfig(engine="phpbb", base_url="https://f.test/", username="gm", password_env="FM_TEST_PW",
                      request_interval=0.0, retries=0)
    http = HttpClient.from_site("f", site, clock=clock, wall_clock=clock, sleep=clock.sleep, cookie_store=store)
    return make_adapter("f", site, http=http, cookie_store=store)


@responses.activate
def test_login_posts_hidden_fields_and_reads_the_inbox(clock, monkeypatch):
    store = MemoryCookieStore()
    responses.get("https://f.test/ucp.php?i=pm&folder=inbox", body=LOGIN_FORM)  # session expired
    responses.get("https://f.test/ucp.php?mode=login", body=LOGIN_FORM)
    responses.post("https://f.test/ucp.php?mode=login&sid=abc", body="<a href='./ucp.php?mode=logout'>Logout</a>",
                   headers={"Set-Cookie": "phpbb3_sid=COOKIEVALUE123; Path=/"})
    responses.get("https://f.test/ucp.php?i=pm&folder=inbox", body=INBOX)
    responses.get("https://f.test/ucp.php?i=pm&mode=view&f=0&p=77", body=MESSAGE)
    ad = phpbb_adapter(clock, monkeypatch, store)
    poll = ad.poll_inbox(None)
    sent = dict(x.split("=", 1) for x in responses.calls[2].request.body.split("&"))
    assert sent["form_token"] == "TOKEN123" and sent["username"] == "gm" and sent["sid"] == "abc"
    (m,) = poll.messages
    assert (m.message_id, m.sender, m.recipients, m.subject) == ("77", "wolf1", ("gm",), "N1 kill")
    assert 'data-fm="quote"' in m.body_html and 'data-fm-author="gm"' in m.body_html
    assert any(c["name"] == "phpbb3_sid" for c in store.load("f"))
    assert "COOKIEVALUE123" not in redact("cookie COOKIEVALUE123 and s3cret-pass")
    assert "s3cret-pass" not in redact("pw s3cret-pass")


@responses.activate
def test_unchanged_inbox_rows_are_not_opened_again(clock, monkeypatch):
    responses.get("https://f.test/ucp.php?i=pm&folder=inbox", body=INBOX)
    responses.get("https://f.test/ucp.php?i=pm&mode=view&f=0&p=77", body=MESSAGE)
    ad = phpbb_adapter(clock, monkeypatch)
    first = ad.poll_inbox(None)
    second = ad.poll_inbox(first.cursor, known_ids=frozenset(m.message_id for m in first.messages))
    assert second.messages == () and second.requests == 1


@responses.activate
def test_refused_login_is_login_failed(clock, monkeypatch):
    responses.get("https://f.test/ucp.php?mode=login", body=LOGIN_FORM)
    responses.post("https://f.test/ucp.php?mode=login&sid=abc",
                   body=LOGIN_FORM.replace("<form", '<div class="error">Wrong password</div><form'))
    ad = phpbb_adapter(clock, monkeypatch)
    with pytest.raises(LoginFailed, match="Wrong password"):
        ad.login()


@responses.activate
def test_discourse_api_key_headers_and_pm_read(clock, monkeypatch, corpus_dir):
    monkeypatch.setenv("FM_TEST_KEY", "k3y-abcdef")
    site = SiteConfig(engine="discourse", base_url="https://d.test", username="gm", api_key_env="FM_TEST_KEY",
                      request_interval=0.0)
    http = HttpClient.from_site("d", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    ad = make_adapter("d", site, http=http)
    topic = json.loads(read(corpus_dir, "discourse/api-topic.json"))
    responses.get("https://d.test/topics/private-messages/gm.json",
                  json={"users": [], "topic_list": {"topics": [{"id": 5, "highest_post_number": 4}]}})
    responses.get("https://d.test/topics/private-messages-sent/gm.json", json={"users": [], "topic_list": {"topics": []}})
    responses.get("https://d.test/t/5.json", json=topic)
    poll = ad.poll_inbox(None)
    assert responses.calls[0].request.headers["Api-Key"] == "k3y-abcdef"
    assert responses.calls[0].request.headers["Api-Username"] == "gm"
    assert [m.message_id for m in poll.messages] == ["83", "86", "226"]  # 84 is a moderator action
    again = ad.poll_inbox(poll.cursor)
    assert again.messages == () and again.requests == 2  # the two lists only


@responses.activate
def test_a_login_sent_on_to_a_missing_page_is_a_login_all_the_same(clock, monkeypatch):
    """SMF sends a new login on to the page that asked for it: a missing topic answers 403, with
    the logout link of the member now logged in (found on the real SMF 2.1, issue 34)."""
    responses.get("https://f.test/ucp.php?mode=login", body=LOGIN_FORM)
    responses.post("https://f.test/ucp.php?mode=login&sid=abc", status=403,
                   body="<p>The topic does not exist.</p><a href='./ucp.php?mode=logout'>Logout</a>")
    phpbb_adapter(clock, monkeypatch).login()  # no LoginFailed
    responses.post("https://f.test/ucp.php?mode=login&sid=abc", status=403, body="<p>Forbidden</p>")
    with pytest.raises(LoginFailed, match="HTTP 403"):
        phpbb_adapter(clock, monkeypatch).login()
