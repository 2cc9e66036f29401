"""The real phpBB, MyBB and SMF's notice pages are reported as what they say (issue 34, item 8).

A topic that does not exist, the board closed for maintenance by the engine's own setting, and a
table of its database gone: a poll must name the kind of page and quote its words, where it used
to say "no posts matched selector ...; the forum layout may have changed".
"""

from __future__ import annotations

import pytest

from forummod.config import SiteConfig
from forummod.errors import ErrorPage, ForumError
from forummod.forum.base import ThreadRef
from forummod.forum import http as fhttp
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter

pytestmark = pytest.mark.realforum

PW_ENV = "FORUMMOD_REALFORUM_PASSWORD"
REASON = "Manutenzione del database: si riapre stasera alle 21."
ENGINES = ["mybb", "phpbb", "smf"]
#: what each engine says of a topic that does not exist, to the GM (logged in)
MISSING = {"phpbb": "The requested topic does not exist.", "mybb": "The specified thread does not exist.",
           "smf": "The topic or board you are looking for appears to be either missing or off limits to you."}


@pytest.fixture(autouse=True)
def _forget_waits():
    """MyBB's SQL error page asks for a 30-minute wait (Retry-After: 1800), which the site's
    limiter keeps for the process: forgotten after each test, so the next one is not held."""
    yield
    fhttp.reset_limiters()


def _adapter(forum, **site):
    cfg = SiteConfig(engine=forum.engine, base_url=forum.base_url, timezone=forum.page_timezone,
                     language=forum.page_language, request_interval=0.0, retries=0, timeout=20.0, **site)
    return make_adapter("notices", cfg, http=HttpClient.from_site("notices", cfg))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_topic_that_does_not_exist_is_reported_with_the_forums_words(request, monkeypatch, engine):
    forum = request.getfixturevalue(f"{engine}_forum")
    monkeypatch.setenv(PW_ENV, forum.password)
    gm = _adapter(forum, username=forum.gm.login, password_env=PW_ENV)
    with pytest.raises(ErrorPage) as caught:
        gm.poll_thread(ThreadRef(forum.missing_thread_url()), None)
    e = caught.value
    assert e.kind == "not_found" and MISSING[engine] in e.quote
    assert "the forum says the thread does not exist" in str(e) and "layout" not in str(e)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_board_closed_for_maintenance_and_a_broken_database_are_reported_as_such(request, engine):
    forum = request.getfixturevalue(f"{engine}_fresh")
    guest = _adapter(forum)  # the GM is the boards' administrator, who may read a closed board
    forum.close_board(REASON)
    with pytest.raises(ForumError) as closed:
        guest.poll_thread(ThreadRef(forum.thread_url()), None)
    assert "the forum is closed (maintenance)" in str(closed.value) and REASON in str(closed.value)

    forum.reset()
    forum.break_database()
    with pytest.raises(ForumError) as broken:
        _adapter(forum).poll_thread(ThreadRef(forum.thread_url()), None)
    said = str(broken.value)
    assert "the forum shows an error page" in said and "layout" not in said
    assert {"phpbb": "no such table: phpbb_topics", "mybb": "MyBB has experienced an internal SQL error",
            "smf": "Table 'forum.smf_topics' doesn't exist"}[engine] in said
