"""Discourse write side through its JSON API (`POST /posts.json`), over `responses`: API-key and
session auth, Discourse's own refusal messages, nothing retried, and find_published in the
topic (cooked HTML, then raw) and in the sent private messages."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest
import requests
import responses

from forummod.config import SiteConfig
from forummod.errors import PublishError
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.forum.write import PublishUncertain, reset_flood_gates

D = "https://d.test"
CREATED = {"id": 901, "topic_id": 5, "post_number": 12, "topic_slug": "mafia-12", "username": "gm",
           "created_at": "2024-03-02T21:00:05.123Z", "cooked": "<p>Vote count</p>", "raw": "Vote count"}


@pytest.fixture(autouse=True)
def _fresh_gates():
    reset_flood_gates()
    yield
    reset_flood_gates()


def discourse(clock, monkeypatch, *, api_key: bool = True):
    monkeypatch.setenv("FM_D_KEY", "k3y-abcdef-123")
    monkeypatch.setenv("FM_D_PW", "pw-abcdef-123")
    site = SiteConfig(engine="discourse", base_url=D, username="gm", request_interval=0.0, retries=0,
                      api_key_env="FM_D_KEY" if api_key else "", password_env="" if api_key else "FM_D_PW")
    http = HttpClient.from_site("d", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    return make_adapter("d", site, http=http)


def form(call) -> dict[str, str]:
    body = call.request.body
    body = body.decode() if isinstance(body, bytes) else body
    return {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}


def posts() -> list:
    return [c for c in responses.calls if c.request.method == "POST"]


@responses.activate
def test_reply_with_an_api_key(clock, monkeypatch):
    responses.post(f"{D}/posts.json", json=CREATED)
    pub = discourse(clock, monkeypatch).reply(ThreadRef(f"{D}/t/mafia-12/5"), "Vote count")
    (call,) = posts()
    assert form(call) == {"topic_id": "5", "raw": "Vote count"}
    assert call.request.headers["Api-Key"] == "k3y-abcdef-123" and call.request.headers["Api-Username"] == "gm"
    assert pub.remote_id == "901" and pub.url == f"{D}/t/mafia-12/5/12"
    assert pub.at.isoformat() == "2024-03-02T21:00:05.123000+00:00"


@responses.activate
def test_pm_is_a_private_message_topic(clock, monkeypatch):
    responses.post(f"{D}/posts.json", json={**CREATED, "id": 950, "topic_id": 77, "post_number": 1,
                                            "topic_slug": "your-role"})
    pub = discourse(clock, monkeypatch).send_pm("alice", "Your role", "You are the Seer.")
    assert form(posts()[0]) == {"title": "Your role", "raw": "You are the Seer.", "archetype": "private_message",
                                "target_recipients": "alice"}
    assert pub.remote_id == "950" and pub.url == f"{D}/t/your-role/77/1"


@responses.activate
def test_pms_in_a_row_wait_for_discourses_topic_rate_limit(clock, monkeypatch):
    responses.post(f"{D}/posts.json", json=CREATED)
    ad = discourse(clock, monkeypatch)
    ad.send_pm("alice", "Role", "a")
    ad.send_pm("bob", "Role", "b")
    assert clock.sleeps == [15.0]


@pytest.mark.parametrize("status,payload,words", [
    (429, {"errors": ["You’ve performed this action too many times. Please wait 5 seconds before trying again."],
           "error_type": "rate_limit", "extras": {"wait_seconds": 5}}, "too many times.*wait 5 s"),
    (422, {"action": "create_post", "errors": ["Body is too similar to what you recently posted"]}, "too similar"),
    (403, {"errors": ["BAD CSRF"], "error_type": "invalid_access"}, "BAD CSRF"),
])
@responses.activate
def test_discourses_refusal_is_a_publish_error_in_its_words(status, payload, words, clock, monkeypatch):
    responses.post(f"{D}/posts.json", json=payload, status=status)
    with pytest.raises(PublishError, match=words) as err:
        discourse(clock, monkeypatch).reply(ThreadRef("5"), "hello")
    assert not isinstance(err.value, PublishUncertain) and len(posts()) == 1


@pytest.mark.parametrize("answer", [{"status": 502, "body": "<html>Bad gateway</html>"},
                                    {"body": requests.ConnectionError("reset")}])
@responses.activate
def test_a_server_error_or_lost_answer_is_uncertain_and_not_retried(answer, clock, monkeypatch):
    responses.add(responses.POST, f"{D}/posts.json", **answer)
    with pytest.raises(PublishUncertain, match="find_published"):
        discourse(clock, monkeypatch).reply(ThreadRef("5"), "hello")
    assert len(posts()) == 1


@responses.activate
def test_session_auth_sends_a_fresh_csrf_token(clock, monkeypatch):
    responses.get(f"{D}/session/csrf", json={"csrf": "tok-1"})
    responses.post(f"{D}/session", json={"user": {"username": "gm"}})
    responses.get(f"{D}/session/csrf", json={"csrf": "tok-2"})
    responses.post(f"{D}/posts.json", json=CREATED)
    discourse(clock, monkeypatch, api_key=False).reply(ThreadRef("5"), "Vote count")
    login, create = posts()
    assert form(login) == {"login": "gm", "password": "pw-abcdef-123"}
    assert create.request.headers["X-CSRF-Token"] == "tok-2" and "Api-Key" not in create.request.headers


def topic(posts_: list[dict], tid: int = 5) -> dict:
    return {"id": tid, "title": "Mafia 12", "post_stream": {"stream": [p["id"] for p in posts_], "posts": posts_}}


def post(pid: int, user: str, cooked: str, n: int) -> dict:
    return {"id": pid, "username": user, "cooked": cooked, "post_number": n, "topic_id": 5, "topic_slug": "mafia-12",
            "created_at": f"2024-03-02T2{n % 10}:00:00Z", "post_type": 1}


@responses.activate
def test_find_published_reads_raw_when_the_cooked_html_lost_the_marker(clock, monkeypatch):
    responses.get(f"{D}/t/5.json", json=topic([
        post(900, "alice", "<p>quoting fm-3f9c2a1b</p>", 1),
        post(901, "gm", "<p>Vote count</p>", 2),  # Discourse dropped the <!-- fm-... --> comment when cooking
        post(902, "bob", "<p>ok</p>", 3)]))
    responses.get(f"{D}/posts/901.json", json={"id": 901, "raw": "Vote count\n<!-- fm-3f9c2a1b -->"})
    found = discourse(clock, monkeypatch).find_published("fm-3f9c2a1b", ThreadRef("5"))
    assert found is not None and found.remote_id == "901" and found.url == f"{D}/t/mafia-12/5/2"
    assert not posts()


@responses.activate
def test_find_published_in_sent_private_messages(clock, monkeypatch):
    responses.get(f"{D}/topics/private-messages-sent/gm.json", json={"topic_list": {"topics": [
        {"id": 71, "last_posted_at": "2024-03-02T20:00:00Z"}, {"id": 70, "last_posted_at": "2024-03-02T19:00:00Z"}]}})
    responses.get(f"{D}/t/71.json", json=topic([post(960, "gm", "<p>Role: Doctor</p>", 1)], tid=71))
    responses.get(f"{D}/posts/960.json", json={"id": 960, "raw": "Role: Doctor"})
    responses.get(f"{D}/posts/950.json", json={"id": 950, "raw": "Role: Seer [fm-abcdef12]"})
    responses.get(f"{D}/t/70.json", json=topic([post(950, "gm", '<p>Role: Seer <span title="fm-abcdef12"></span></p>', 1)],
                                                tid=70))
    found = discourse(clock, monkeypatch).find_published("fm-abcdef12")
    assert found is not None and found.remote_id == "950"
    assert discourse(clock, monkeypatch).find_published("fm-99999999") is None

