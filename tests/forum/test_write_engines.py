"""Write side of the form-driven engines, one adapter at a time, over `responses`: the form page
is read (hidden tokens kept), the right fields are posted exactly once, and the forum's answer
(redirect, meta refresh, link or message) gives the new id or the forum's own error.

The pages in fixtures/write/ are our own, written in each engine's markup from its templates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import pytest
import requests
import responses

from forummod.config import SiteConfig
from forummod.errors import PublishError
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.forum.write import PublishUncertain, reset_flood_gates

from conftest import FIXTURES

BODY = "Day 2 begins. [b]Vote[/b] now."
SUBJECT = "Your role"


@pytest.fixture(autouse=True)
def _fresh_gates():
    reset_flood_gates()
    yield
    reset_flood_gates()


def page(name: str) -> str:
    return (FIXTURES / "write" / name).read_text(encoding="utf-8")


def adapter(engine: str, clock, monkeypatch, base: str = "https://f.test/"):
    monkeypatch.setenv("FM_W_PW", "pw-123456")
    site = SiteConfig(engine=engine, base_url=base, username="host", password_env="FM_W_PW", timezone="UTC",
                      request_interval=0.0, retries=0)
    http = HttpClient.from_site("w", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    return make_adapter("w", site, http=http)


def posts() -> list:
    return [c for c in responses.calls if c.request.method == "POST"]


def sent_form(call) -> dict[str, str]:
    body = call.request.body
    body = body.decode("utf-8") if isinstance(body, bytes) else body
    return dict(parse_qsl(body, keep_blank_values=True))


def serve(pages: dict[str, str | list[str]], action: str, answer: dict) -> None:
    """GETs from `pages` (a list: successive answers), 404 elsewhere; one answer for the POST.
    One callback serves every GET, since `responses` turns overlapping registrations into a queue."""
    queues = {url: list(v) if isinstance(v, list) else [v] for url, v in pages.items()}

    def on_get(request):
        q = queues.get(request.url)
        if not q:
            return 404, {}, "<html><body>Not found</body></html>"
        name = q.pop(0) if len(q) > 1 else q[0]
        return 200, {"Content-Type": "text/html; charset=utf-8"}, page(name)

    responses.add_callback(responses.GET, re.compile(r"https?://.*"), callback=on_get)
    responses.add(responses.POST, action, **answer)


@dataclass(frozen=True)
class Case:
    engine: str
    pages: dict[str, str]  # URL -> fixture served on GET
    action: str  # where the form must be posted
    answer: dict  # the forum's answer to the POST
    expect: dict[str, str]  # fields that must be posted with these values
    rid: str | None  # the id the answer gives (None: the forum names none)
    thread: str = ""
    absent: tuple[str, ...] = ()
    base: str = "https://f.test/"
    extra: dict[str, str] = field(default_factory=dict)


REPLIES = [
    Case("vbulletin", {"https://f.test/newreply.php?do=newreply&noquote=1&t=55": "vbulletin-reply-form.html"},
         "https://f.test/newreply.php?do=postreply&t=55", {"body": page("vbulletin-reply-done.html")},
         {"securitytoken": "1709300000-4b1d2c3e4f5a6b7c", "posthash": "9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a49",
          "poststarttime": "1709300000", "loggedinuser": "12", "do": "postreply", "t": "55", "wysiwyg": "0",
          "parseurl": "1", "signature": "1", "sbutton": "Submit Reply", "message": BODY},
         "9001", thread="https://f.test/showthread.php?t=55", absent=("preview", "disablesmilies")),
    Case("xenforo", {"https://f.test/threads/77/reply": "xenforo-reply-form.html"},
         "https://f.test/threads/mini-mafia-12.77/add-reply",
         {"status": 303, "headers": {"Location": "https://f.test/threads/mini-mafia-12.77/post-4242"}},
         {"_xfToken": "1709300000,5f4e3d2c1b0a99887766554433221100", "message": BODY, "watch_thread": "1",
          "attachment_hash": "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "last_date": "1709300000"},
         "4242", thread="https://f.test/threads/mini-mafia-12.77/", absent=("message_html",)),
    Case("smf", {"https://f.test/index.php?action=post;topic=123.0": "smf-reply-form.html"},
         "https://f.test/index.php?action=post2;start=0;board=3",
         {"status": 302, "headers": {"Location": "https://f.test/index.php?topic=123.msg4568#msg4568"}},
         {"e7c3a9": "5f0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e", "seqnum": "8", "topic": "123", "last_msg": "4567",
          "subject": "Re: Game 12 - Day 2", "message": BODY, "additional_options": "0"},
         "4568", thread="https://f.test/index.php?topic=123.0", absent=("preview",)),
    Case("invision", {"https://f.test/topic/77-mini-mafia-12/": "invision-topic.html"},
         "https://f.test/topic/77-mini-mafia-12/",
         {"status": 301, "headers": {"Location": "https://f.test/topic/77-mini-mafia-12/?do=findComment&comment=8888"}},
         {"csrfKey": "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "commentform_77_submitted": "1", "_contentReply": "1",
          "plupload": "3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f", "topic_comment_77": BODY},
         "8888", thread="https://f.test/topic/77-mini-mafia-12/"),
    Case("mybb", {"https://f.test/newreply.php?tid=55": "mybb-reply-form.html"},
         "https://f.test/newreply.php?tid=55&processed=1", {"body": page("mybb-reply-done.html")},
         {"my_post_key": "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", "posthash": "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
          "action": "do_newreply", "tid": "55", "subject": "RE: Partita 12", "postoptions[signature]": "1",
          "submit": "Post Reply", "message": BODY, "postoptions[disablesmilies]": "1"},  # smileys off (issue 28)
         "1234", thread="https://f.test/showthread.php?tid=55", absent=("previewpost",)),
    Case("forumfree", {"https://lupus.forumfree.it/?t=76543210": "forumfree-thread.html",
                       "https://lupus.forumfree.it/?act=Post&CODE=02&f=5&t=76543210": "forumfree-reply-form.html"},
         "https://lupus.forumfree.it/",
         {"status": 302, "headers": {"Location": "https://lupus.forumfree.it/?t=76543210&st=15#entry600099"}},
         {"auth_key": "c0ffee0123456789abcdef0123456789", "act": "Post", "CODE": "03", "f": "5", "t": "76543210",
          "st": "0", "enableemo": "yes", "enablesig": "yes", "Post": BODY},
         "600099", thread="https://lupus.forumfree.it/?t=76543210", absent=("preview",),
         base="https://lupus.forumfree.it/"),
    Case("discuz", {"https://f.test/forum.php?mod=post&action=reply&tid=9001": "discuz-reply-form.html"},
         "https://f.test/forum.php?mod=post&action=reply&fid=2&tid=9001&extra=&replysubmit=yes",
         {"body": page("discuz-reply-done.html")},
         {"formhash": "a1b2c3d4", "posttime": "1709300000", "usesig": "1", "wysiwyg": "0", "replysubmit": "yes",
          "message": BODY},
         "70123", thread="https://f.test/thread-9001-1-1.html"),
    Case("flaskbb", {"https://f.test/topic/2/post/new": "flaskbb-reply-form.html"},
         "https://f.test/topic/2/post/new", {"status": 302, "headers": {"Location": "/post/27"}},
         {"csrf_token": "IjRmM2E5ZTFi.ZfNx1Q.tokenA", "content": BODY, "submit": "Reply"},
         "27", thread="https://f.test/topic/2-mafia-game-1", absent=("track_topic",)),
    Case("spirit", {"https://f.test/comment/2/publish/": "spirit-reply-form.html"},
         "https://f.test/comment/2/publish/", {"status": 302, "headers": {"Location": "/comment/31/find/"}},
         {"csrfmiddlewaretoken": "Zx9Y8w7V6u5T4s3R2q1P0oNmLkJiHgFeDcBa", "comment": BODY},
         "31", thread="https://f.test/topic/2/mafia-game-1-test-village/"),
]


@pytest.mark.parametrize("case", REPLIES, ids=lambda c: c.engine)
@responses.activate
def test_reply_posts_the_forms_own_fields_once_and_reads_the_new_id(case, clock, monkeypatch):
    serve(case.pages, case.action, case.answer)
    ad = adapter(case.engine, clock, monkeypatch, case.base)
    pub = ad.reply(ThreadRef(case.thread), BODY)
    assert pub.remote_id == case.rid and pub.url and case.rid in pub.url
    (post,) = posts()
    assert post.request.url == case.action
    data = sent_form(post)
    assert {k: data.get(k) for k in case.expect} == case.expect
    assert not set(case.absent) & set(data)
    assert post.request.headers["Referer"] in case.pages  # as a browser sends it
    assert clock.sleeps == []  # first write of the account, no minimum form age on these engines


ERRORS = [
    ("vbulletin", REPLIES[0], "vbulletin-flood.html", "wait 30 seconds between posts"),
    ("xenforo", REPLIES[1], "xenforo-error.html", "must wait at least 30 seconds"),
    ("smf", REPLIES[2], "smf-flood.html", "less than 5 seconds ago"),
    ("mybb", REPLIES[4], "mybb-flood.html", "only post one message every 60 seconds"),
    ("discuz", REPLIES[6], "discuz-flood.html", "两次发表间隔少于 15 秒"),
    ("spirit", REPLIES[8], "spirit-limited.html", "Too many submissions, wait 10s"),
]


@pytest.mark.parametrize("engine,case,answer,words", ERRORS, ids=[e[0] for e in ERRORS])
@responses.activate
def test_the_forums_refusal_is_a_publish_error_in_its_own_words_and_is_not_resent(engine, case, answer, words,
                                                                                  clock, monkeypatch):
    serve(case.pages, case.action, {"body": page(answer)})
    ad = adapter(engine, clock, monkeypatch, case.base)
    with pytest.raises(PublishError, match=words) as err:
        ad.reply(ThreadRef(case.thread), BODY, marker="fm-0badf00d")
    assert not isinstance(err.value, PublishUncertain)
    assert len(posts()) == 1


@responses.activate
def test_a_second_post_waits_for_the_engines_flood_interval(clock, monkeypatch):
    case = REPLIES[4]  # MyBB: postfloodsecs 60, refused while now - last <= 60
    serve(case.pages, case.action, case.answer)
    ad = adapter("mybb", clock, monkeypatch)
    ad.reply(ThreadRef(case.thread), "first")
    ad.reply(ThreadRef(case.thread), "second")
    assert clock.sleeps == [61.0] and len(posts()) == 2


@responses.activate
def test_network_failure_during_the_post_is_uncertain_and_not_retried(clock, monkeypatch):
    case = REPLIES[2]
    serve(case.pages, case.action, {"body": requests.ConnectionError("connection reset by peer")})
    ad = adapter("smf", clock, monkeypatch)
    with pytest.raises(PublishUncertain, match="find_published"):
        ad.reply(ThreadRef(case.thread), BODY)
    assert len(posts()) == 1


@responses.activate
def test_a_latin1_board_gets_the_text_in_its_own_charset(clock, monkeypatch):
    form = page("smf-reply-form.html").replace("charset=UTF-8", "charset=ISO-8859-1").replace(
        'accept-charset="UTF-8" ', "")
    responses.get("https://f.test/index.php?action=post;topic=123.0", body=form.encode("latin-1"),
                  content_type="text/html; charset=ISO-8859-1")
    responses.add(responses.POST, REPLIES[2].action, **REPLIES[2].answer)
    adapter("smf", clock, monkeypatch).reply(ThreadRef(REPLIES[2].thread), "Perché è già notte — ☾")
    raw = posts()[0].request.body
    raw = raw.decode("ascii") if isinstance(raw, bytes) else raw
    assert "message=Perch%E9+%E8+gi%E0+notte+%97+%26%239790%3B" in raw  # cp1252 dash, &#9790; for the moon


PMS = [
    Case("vbulletin", {"https://f.test/private.php?do=newpm": "vbulletin-pm-form.html"},
         "https://f.test/private.php?do=insertpm&pmid=", {"body": page("vbulletin-pm-done.html")},
         {"recipients": "player3", "title": SUBJECT, "message": BODY, "savecopy": "1", "wysiwyg": "0",
          "securitytoken": "1709300000-99aa88bb77cc66dd", "do": "insertpm", "sbutton": "Submit Message"},
         None, absent=("preview", "receipt")),
    Case("xenforo", {"https://f.test/conversations/add": "xenforo-pm-form.html"}, "https://f.test/conversations/add",
         {"status": 303, "headers": {"Location": "https://f.test/conversations/your-role.555/"}},
         {"recipients": "player3", "title": SUBJECT, "message": BODY, "conversation_open": "1",
          "_xfToken": "1709300000,aa99bb88cc77dd66ee55ff4400332211"},
         "555", absent=("message_html", "open_invite")),
    Case("invision", {"https://f.test/messenger/compose/": "invision-pm-form.html"}, "https://f.test/messenger/compose/",
         {"status": 301, "headers": {"Location": "https://f.test/messenger/321/"}},
         {"messenger_to": "player3", "messenger_title": SUBJECT, "messenger_content": BODY, "form_submitted": "1",
          "csrfKey": "0a1b2c3d4e5f60718293a4b5c6d7e8f9"},
         "321"),
    Case("discuz", {"https://f.test/home.php?mod=spacecp&ac=pm": "discuz-pm-form.html"},
         "https://f.test/home.php?mod=spacecp&ac=pm&op=send&pmid=0&daterange=0&pmsubmit=yes",
         {"body": page("discuz-pm-done.html")},
         {"username": "player3", "message": BODY, "formhash": "a1b2c3d4", "handlekey": "sendpm", "pmsubmit": "true"},
         None),
    Case("spirit", {"https://f.test/topic/private/publish/": "spirit-pm-form.html"},
         "https://f.test/topic/private/publish/",
         {"status": 302, "headers": {"Location": "/topic/private/41/your-role/"}},
         {"csrfmiddlewaretoken": "Zx9Y8w7V6u5T4s3R2q1P0oNmLkJiHgFeDcBa", "title": SUBJECT, "users": "player3",
          "comment": BODY},
         "41"),
]


@pytest.mark.parametrize("case", PMS, ids=lambda c: c.engine)
@responses.activate
def test_send_pm_posts_the_compose_form_once(case, clock, monkeypatch):
    serve(case.pages, case.action, case.answer)
    pub = adapter(case.engine, clock, monkeypatch, case.base).send_pm("player3", SUBJECT, BODY)
    (post,) = posts()
    data = sent_form(post)
    assert post.request.url == case.action
    assert {k: data.get(k) for k in case.expect} == case.expect
    assert not set(case.absent) & set(data)
    if case.rid is None:  # the forum confirms without naming the message: a stable local id
        assert pub.remote_id.startswith("pm:player3:")
    else:
        assert pub.remote_id == case.rid


@responses.activate
def test_mybb_pm_without_an_id_is_found_in_the_sent_folder_by_its_marker(clock, monkeypatch):
    serve({"https://f.test/private.php?action=send": "mybb-pm-form.html",
           "https://f.test/private.php?fid=2": "mybb-sent.html",
           "https://f.test/private.php?action=read&pmid=78": "mybb-pm-read.html"},
          "https://f.test/private.php", {"body": page("mybb-pm-done.html")})
    pub = adapter("mybb", clock, monkeypatch).send_pm("Rossi", "Il tuo ruolo", "Sei il Veggente. fm-77aa88bb",
                                                      marker="fm-77aa88bb")
    data = sent_form(posts()[0])
    assert (data["to"], data["subject"], data["options[savecopy]"], data["action"]) == (
        "Rossi", "Il tuo ruolo", "1", "do_send")
    assert "saveasdraft" not in data and "preview" not in data
    assert pub.remote_id == "78" and pub.url.endswith("pmid=78")


@responses.activate
def test_flaskbb_new_conversation_is_found_in_sent_by_its_marker(clock, monkeypatch):
    serve({"https://f.test/conversations/new": "flaskbb-pm-form.html",
           "https://f.test/conversations/sent": "flaskbb-sent.html",
           "https://f.test/conversations/12/view": "flaskbb-conversation.html"},
          "https://f.test/conversations/new", {"status": 302, "headers": {"Location": "/conversations/sent"}})
    pub = adapter("flaskbb", clock, monkeypatch).send_pm("player3", SUBJECT, "You are the Doctor.",
                                                         marker="fm-9a8b7c6d")
    data = sent_form(posts()[0])
    assert (data["to_user"], data["subject"], data["send_message"]) == ("player3", SUBJECT, "Start Conversation")
    assert data["csrf_token"] == "IjRmM2E5ZTFi.ZfNx1Q.tokenB" and "save_message" not in data
    assert pub.remote_id == "12" and len(posts()) == 1


@responses.activate
def test_spirit_drops_a_private_topic_with_a_repeated_title_and_we_say_so(clock, monkeypatch):
    serve({"https://f.test/topic/private/publish/": "spirit-pm-form.html"}, "https://f.test/topic/private/publish/",
          {"status": 302, "headers": {"Location": "/topic/private/"}})
    with pytest.raises(PublishError, match="title repeats") as err:
        adapter("spirit", clock, monkeypatch).send_pm("player3", SUBJECT, BODY)
    assert not isinstance(err.value, PublishUncertain) and len(posts()) == 1


@responses.activate
def test_an_answer_that_confirms_nothing_is_uncertain_after_looking_for_the_message(clock, monkeypatch):
    base = "https://lupus.forumfree.it/"
    serve({base + "?act=Msg&CODE=04": "forumfree-pm-form.html", base + "?act=Msg&CODE=01": "forumfree-inbox.html"}, base,
          {"status": 302, "headers": {"Location": base + "?act=Msg&CODE=01"}})
    ad = adapter("forumfree", clock, monkeypatch, base)
    with pytest.raises(PublishUncertain, match="find_published"):
        ad.send_pm("Lupetto", SUBJECT, BODY, marker="fm-12345678")
    data = sent_form(posts()[0])
    assert (data["entered_name"], data["msg_title"], data["Post"], data["add_sent"]) == ("Lupetto", SUBJECT, BODY, "yes")
    assert data["auth_key"] == "c0ffee0123456789abcdef0123456789" and len(posts()) == 1
    assert any("VID=sent" in c.request.url for c in responses.calls)  # it looked before giving up


@responses.activate
def test_a_guest_form_page_triggers_one_login_before_anything_is_posted(clock, monkeypatch):
    case = REPLIES[4]
    serve({"https://f.test/newreply.php?tid=55": ["mybb-guest-reply-form.html", "mybb-reply-form.html"],
           "https://f.test/member.php?action=login": "mybb-login.html"}, case.action, case.answer)
    responses.post("https://f.test/member.php", body='<a href="member.php?action=logout&amp;logoutkey=1">Log Out</a>')
    pub = adapter("mybb", clock, monkeypatch).reply(ThreadRef(case.thread), BODY)
    assert pub.remote_id == "1234"
    assert [c.request.url for c in posts()] == ["https://f.test/member.php", case.action]
    assert sent_form(posts()[0])["username"] == "host"
