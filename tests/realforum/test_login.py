"""Logging in to real engines (issue 34, items 2 and 6): a wrong password is refused in the
forum's own words and never sent again, while the right one set afterwards is tried at once;
and a phpBB session logged at DEBUG (`-vv`), redirect with `sid=` included, shows no session id."""

from __future__ import annotations

import pytest

from forummod.config import SiteConfig
from forummod.errors import CredentialsRefused
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from tests.reliability.test_secrets import LogCapture

pytestmark = pytest.mark.realforum

PW_ENV = "FORUMMOD_REALFORUM_LOGIN_PASSWORD"

#: what each engine says to a wrong password (its login page's error box)
REFUSALS = {"phpbb": "You have specified an incorrect password", "mybb": "invalid username/password"}


def gm_adapter(forum):
    site = SiteConfig(engine=forum.engine, base_url=forum.base_url, username=forum.gm.login, password_env=PW_ENV,
                      timezone=forum.page_timezone, language=forum.page_language, request_interval=0.0, retries=1,
                      timeout=20.0)
    return make_adapter("realforum", site, http=HttpClient.from_site("realforum", site))


def count_posts(adapter, monkeypatch) -> list[str]:
    sent: list[str] = []
    post = adapter.http.post

    def counting(url, *a, **kw):
        sent.append(url)
        return post(url, *a, **kw)

    monkeypatch.setattr(adapter.http, "post", counting)
    return sent


@pytest.mark.parametrize("engine", sorted(REFUSALS))
def test_a_wrong_password_is_refused_in_the_forums_words_and_never_sent_again(engine, request, monkeypatch):
    forum = request.getfixturevalue(f"{engine}_fresh")
    monkeypatch.setenv(PW_ENV, "not-the-password")
    adapter = gm_adapter(forum)
    posts = count_posts(adapter, monkeypatch)

    with pytest.raises(CredentialsRefused) as first:
        adapter.poll_inbox(None)
    assert "realforum: the forum says the credentials are wrong: “" in str(first.value)
    assert REFUSALS[engine] in str(first.value) and f"correct it in ${PW_ENV}" in str(first.value)
    with pytest.raises(CredentialsRefused):
        adapter.poll_inbox(None)
    assert len(posts) == 1  # the wrong password went out once

    monkeypatch.setenv(PW_ENV, forum.password)  # the GM corrects it: the same run logs in
    assert adapter.poll_inbox(None).messages
    assert len(posts) == 2


def test_a_phpbb_session_logged_at_debug_shows_no_session_id(phpbb_fresh, monkeypatch):
    monkeypatch.setenv(PW_ENV, phpbb_fresh.password)
    adapter = gm_adapter(phpbb_fresh)
    with LogCapture() as logs:
        assert adapter.poll_inbox(None).messages  # login (phpBB redirects with ?sid=) and every PM page
        adapter.http.get(phpbb_fresh.thread_url(1))
    jar = {c.name: c.value for c in adapter.http.session.cookies}
    sessions = [v for name, v in jar.items() if name.endswith(("_sid", "_k")) and len(v) >= 8]
    assert sessions and "sid=***" in logs.text  # a session, and the request that carried its id, logged
    for value in sessions:
        assert value not in logs.text
