"""The GM's PM inbox over several pages, on every real engine (issue 16 items 4 and 6): a poll
from scratch reads every page (the oldest PM included), a quiet poll costs one request, a poll
after one more PM reads only what is new, and a page cap stops the walk with a finding and
lets the next poll read on."""

from __future__ import annotations

import pytest

from forummod.config import SiteConfig
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter

pytestmark = pytest.mark.realforum

PW_ENV = "FORUMMOD_REALFORUM_PASSWORD"
SENDERS = ("Dora", "Elio", "Fede")  # three new PMs (new conversations where the engine has them)


def _adapter(forum, **site):
    cfg = SiteConfig(engine=forum.engine, base_url=forum.base_url, username=forum.gm.login, password_env=PW_ENV,
                     timezone=forum.page_timezone, language=forum.page_language, request_interval=0.0, retries=1,
                     timeout=20.0, **site)
    return make_adapter("realforum", cfg, http=HttpClient.from_site("realforum", cfg))


@pytest.fixture
def paged_inbox(fresh_forum, monkeypatch):
    """The GM's inbox with more PMs than one page lists: three more PMs, and pages of 4 where the
    engine has a setting for it (phpBB, MyBB); SMF, FlaskBB and Spirit list 10 a page."""
    monkeypatch.setenv(PW_ENV, fresh_forum.password)
    per_page = fresh_forum.shrink_inbox_pages(4)
    for i, sender in enumerate(SENDERS):
        fresh_forum.send_pm(sender, fresh_forum.gm.name, f"Pagina {i}", f"Messaggio di prova {i} da {sender}")
    return fresh_forum, per_page


def _texts(messages) -> str:
    return " ".join(m.body_html for m in messages)


def test_a_poll_from_scratch_reads_every_inbox_page_and_a_quiet_poll_costs_one_request(paged_inbox):
    forum, per_page = paged_inbox
    ad = _adapter(forum)  # one adapter: its login is behind it when the quiet poll is counted
    first = ad.poll_inbox(None)
    rows = len(forum.http_inbox())  # the harness's own reading of page 1
    assert rows <= per_page
    texts = _texts(first.messages)
    assert all(f"Messaggio di prova {i}" in texts for i in range(len(SENDERS)))
    assert "Veggente: indago Fede" in texts  # the seed's oldest PM to the GM, pages away now
    assert len({m.message_id for m in first.messages}) == len(first.messages)
    assert first.cursor.pages_total is not None and first.cursor.pages_total >= 2 and not first.issues

    known = frozenset(m.message_id for m in first.messages)
    quiet = ad.poll_inbox(first.cursor, known)
    assert quiet.messages == () and quiet.requests == 1

    forum.send_pm("Gina", forum.gm.name, "Ancora", "Un ultimo messaggio di prova")
    again = ad.poll_inbox(quiet.cursor, known)
    assert [m.message_id for m in again.messages if "ultimo messaggio" in m.body_html] and \
        not {m.message_id for m in again.messages} & known


def test_the_inbox_page_cap_stops_the_walk_with_a_finding_and_the_next_poll_reads_on(paged_inbox):
    forum, _ = paged_inbox
    whole = _adapter(forum).poll_inbox(None)
    capped = _adapter(forum, inbox_max_pages=1).poll_inbox(None)
    (issue,) = [i for i in capped.issues if i.code == "inbox_pages_capped"]
    assert "sites.realforum.inbox_max_pages" in issue.message
    assert 0 < len(capped.messages) < len(whole.messages)
    known = frozenset(m.message_id for m in capped.messages)
    rest = _adapter(forum, inbox_max_pages=50).poll_inbox(capped.cursor, known)
    got = known | {m.message_id for m in rest.messages}
    assert got == {m.message_id for m in whole.messages} and not rest.issues
