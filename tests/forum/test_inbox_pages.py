"""The inbox walk over several pages (issue 16): the next-page link from the profile or the
generic fallback (rel=next, a "next" label or class, the link after the current page), the
stop rules (a page of known rows ends the walk; a link back to a visited page never loops),
the page cap with its finding and the resumed walk, a fault after page 1 keeping what was read.
Served by `responses`; the real engines' pagers are tested in tests/realforum/test_inbox_pages.py."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
import responses

from forummod.config import SiteConfig
from forummod.errors import NetworkError
from forummod.forum.html_adapter import HtmlAdapter
from forummod.forum.html_engine import parse_html
from forummod.forum.http import HttpClient
from forummod.forum.inbox_pages import generic_next, inbox_next_url
from forummod.forum.profile import parse_profile

BASE = "http://forum.test/"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _profile(next_selector: str | None = None):
    inbox = {"url": "inbox", "rows": {"container": ["li.pm"], "link": ["a @href"],
                                      "id": [{"css": "a", "attr": "href", "regex": r"pm=(\d+)"}],
                                      "author": ["span.from"], "date": ["time @datetime"]},
             "message": {"container": ["div.pm"], "author": ["span.from"], "date": ["time @datetime"],
                         "body": ["div.body"]}}
    if next_selector:
        inbox["next"] = [next_selector]
    return parse_profile({"name": "pagedtest", "inbox": inbox})


def _page(rows: range, pager: str) -> str:
    items = "".join(f'<li class="pm"><a href="read?pm={i}">PM {i}</a><span class="from">P{i}</span>'
                    f'<time datetime="2026-11-{i:02d}T10:00:00Z"></time></li>' for i in rows)
    return f"<html><body><ul>{items}</ul>{pager}</body></html>"


def _serve(rsps, pages: dict[str, str], *, fail: set[str] = frozenset()) -> None:
    for path, html in pages.items():
        if path in fail:
            rsps.add(responses.GET, BASE + path, status=500)
        else:
            rsps.add(responses.GET, BASE + path, body=html, content_type="text/html")
    for i in range(1, 10):
        rsps.add(responses.GET, BASE + f"read?pm={i}", content_type="text/html",
                 body=f'<html><body><div class="pm"><span class="from">P{i}</span>'
                      f'<time datetime="2026-11-{i:02d}T10:00:00Z"></time><div class="body">Testo {i}</div></div></body></html>')


def _adapter(profile, **site):
    cfg = SiteConfig(engine="pagedtest", base_url=BASE, request_interval=0.0, retries=0, **site)
    return HtmlAdapter("f", cfg, profile, http=HttpClient.from_site("f", cfg), clock=lambda: NOW)


def _pages(loop_back: bool = True) -> dict[str, str]:
    """Newest first: 9-7 on page 1, 6-4 on page 2, 3-1 on page 3, whose pager links page 1 again."""
    return {"inbox": _page(range(9, 6, -1), '<div class="pagination"><a rel="next" href="inbox?page=2">Next</a></div>'),
            "inbox?page=2": _page(range(6, 3, -1), '<div class="pagination"><a rel="next" href="inbox?page=3">Next</a></div>'),
            "inbox?page=3": _page(range(3, 0, -1), '<div class="pagination"><a rel="next" href="inbox">Next</a></div>'
                                  if loop_back else "")}


def _requested(rsps) -> list[str]:
    return [c.request.url.removeprefix(BASE) for c in rsps.calls if "read?" not in c.request.url]


def test_a_poll_from_scratch_follows_next_links_to_the_last_page_and_never_loops():
    with responses.RequestsMock() as rsps:
        _serve(rsps, _pages(loop_back=True))
        got = _adapter(_profile()).poll_inbox(None)
        assert sorted(int(m.message_id) for m in got.messages) == list(range(1, 10))
        assert _requested(rsps) == ["inbox", "inbox?page=2", "inbox?page=3"]  # page 3's link back is not followed
        assert got.cursor.pages_total == 3 and not got.issues


def test_a_quiet_poll_reads_one_page_and_a_new_pm_one_page_more():
    known = frozenset(str(i) for i in range(1, 10))
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages())
        quiet = _adapter(_profile()).poll_inbox(None, known)
        assert quiet.messages == () and quiet.requests == 1
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages())
        got = _adapter(_profile()).poll_inbox(None, known - {"8"})  # page 1 mixed, page 2 all known
        assert [m.message_id for m in got.messages] == ["8"] and _requested(rsps) == ["inbox", "inbox?page=2"]


def test_the_page_cap_stops_with_a_finding_naming_the_key_and_the_next_poll_reads_on():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages(loop_back=False))
        capped = _adapter(_profile(), inbox_max_pages=2).poll_inbox(None)
        (issue,) = capped.issues
        assert issue.code == "inbox_pages_capped" and "sites.f.inbox_max_pages" in issue.message
        assert sorted(int(m.message_id) for m in capped.messages) == list(range(4, 10))
    known = frozenset(m.message_id for m in capped.messages)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages(loop_back=False))
        rest = _adapter(_profile(), inbox_max_pages=2).poll_inbox(capped.cursor, known)
        assert sorted(int(m.message_id) for m in rest.messages) == [1, 2, 3] and not rest.issues
        assert _requested(rsps) == ["inbox", "inbox?page=3"]  # page 1 all known, then where the walk stopped
        assert dict(rest.cursor.extra).get("resume") is None


def test_a_fault_after_the_first_page_keeps_what_was_read_and_a_fault_on_page_one_fails_the_poll():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages(), fail={"inbox?page=2"})
        got = _adapter(_profile()).poll_inbox(None)
        assert sorted(int(m.message_id) for m in got.messages) == [7, 8, 9]
        assert [i.code for i in got.issues] == ["inbox_interrupted"]
        assert dict(got.cursor.extra)["resume"] == BASE + "inbox?page=2"
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        _serve(rsps, _pages(), fail={"inbox"})
        with pytest.raises(NetworkError):
            _adapter(_profile()).poll_inbox(None)


def test_the_profiles_next_selector_wins_over_the_generic_links():
    html = _page(range(3, 0, -1), '<div class="pagination"><a rel="next" href="inbox?wrong=1">Next</a>'
                                  '<a class="go" href="inbox?page=2">go</a></div>')
    assert inbox_next_url(_profile("a.go @href"), html, BASE + "inbox") == BASE + "inbox?page=2"
    assert inbox_next_url(_profile(), html, BASE + "inbox") == BASE + "inbox?wrong=1"
    assert inbox_next_url(_profile("a.missing @href"), html, BASE + "inbox") is None  # last page


@pytest.mark.parametrize("pager, expected", [
    ('<ul class="pagination"><li class="next"><a href="?p=2" rel="next">›</a></li></ul>', "?p=2"),
    ('<div class="pagination"><a class="pagination_next" href="?p=2">Next »</a></div>', "?p=2"),  # MyBB
    ('<div class="pagelinks"><a class="nav_page" href="?s=10"><span class="main_icons next_page"></span></a></div>',
     "?s=10"),  # SMF's arrow
    ('<nav><a href="?p=2">Successiva</a></nav>', "?p=2"),
    ('<ul class="pagination"><li class="active"><a href="#">1</a></li><li><a href="?page=2">2</a></li>'
     '<li><a href="?page=5">»</a></li></ul>', "?page=2"),  # FlaskBB: "»" is the last page, 2 follows 1
    ('<ul class="paginator"><li><span>2</span></li><li><a href="?page=1">1</a></li><li><a href="?page=3">3</a></li>'
     '<li><a href="?page=3"><i class="fa fa-chevron-right"></i></a></li></ul>', "?page=3"),  # Spirit
])
def test_the_generic_next_link_is_read_from_the_common_pager_shapes(pager, expected):
    root = parse_html(f"<html><body>{pager}</body></html>")
    assert generic_next(root, BASE + "inbox") == BASE + "inbox" + expected


@pytest.mark.parametrize("pager", [
    "",  # no pager: one page
    '<div class="pagination"><span>1</span></div>',  # one page
    '<div class="pagination"><a href="?page=9">»</a></div>',  # a lone "»" may be the last page
    '<div class="pagination"><a rel="next" href="http://elsewhere.test/inbox?page=2">Next</a></div>',  # another site
    '<div class="pagination"><a rel="next" href="#">Next</a></div>',
    '<head><link rel="next" href="?topic=8"></head><p>SMF: the next topic, not a page</p>',
])
def test_the_generic_next_link_is_none_where_there_is_no_next_page(pager):
    root = parse_html(f"<html>{pager if pager.startswith('<head>') else '<body>' + pager + '</body>'}</html>")
    assert generic_next(root, BASE + "inbox") is None


def test_the_real_engine_profiles_name_their_inbox_pager():
    from forummod.forum.registry import profiles

    profs = profiles(None)
    assert all(profs[e].inbox.next for e in ("phpbb", "mybb", "smf", "flaskbb", "spirit"))
    assert re.search("next_page", profs["smf"].inbox.next[0].source)


@responses.activate
def test_discourse_pages_its_private_message_list_by_more_topics_url_and_stops_at_known_topics(monkeypatch):
    from forummod.forum.registry import make_adapter

    monkeypatch.setenv("FM_TEST_KEY", "k3y-abcdef")
    site = SiteConfig(engine="discourse", base_url="https://d.test", username="gm", api_key_env="FM_TEST_KEY",
                      request_interval=0.0, retries=0)
    ad = make_adapter("d", site, http=HttpClient.from_site("d", site))

    def topic(tid: int) -> dict:
        return {"id": tid, "highest_post_number": 1, "last_posted_at": f"2026-11-{tid:02d}T10:00:00Z"}

    def post(tid: int) -> dict:
        return {"post_stream": {"posts": [{"id": 100 + tid, "post_number": 1, "username": f"p{tid}",
                                           "created_at": f"2026-11-{tid:02d}T10:00:00Z", "cooked": f"<p>n{tid}</p>",
                                           "post_type": 1}]},
                "details": {"allowed_users": [{"username": "gm"}, {"username": f"p{tid}"}]}, "title": f"T{tid}"}

    inbox = "https://d.test/topics/private-messages/gm.json"
    responses.get(inbox, match=[responses.matchers.query_string_matcher("")],
                  json={"topic_list": {"topics": [topic(4), topic(3)], "more_topics_url": "/topics/private-messages/gm?page=1"}})
    responses.get(inbox, match=[responses.matchers.query_string_matcher("page=1")],
                  json={"topic_list": {"topics": [topic(2), topic(1)], "more_topics_url": "/topics/private-messages/gm?page=1"}})
    responses.get("https://d.test/topics/private-messages-sent/gm.json", json={"topic_list": {"topics": []}})
    for tid in range(1, 5):
        responses.get(f"https://d.test/t/{tid}.json", json=post(tid))
    got = ad.poll_inbox(None)
    assert sorted(m.message_id for m in got.messages) == ["101", "102", "103", "104"] and not got.issues
    lists = [c.request.url for c in responses.calls if "/topics/" in c.request.url]
    assert lists == [inbox, inbox + "?page=1", "https://d.test/topics/private-messages-sent/gm.json"]  # page 1 once
    calls = len(responses.calls)
    again = ad.poll_inbox(got.cursor)
    assert again.messages == () and len(responses.calls) - calls == 2  # page 0 of each list, all known


@pytest.mark.parametrize("engine, rel", [
    ("phpbb", "local-engines/phpbb-pm-inbox.html"), ("mybb", "local-engines/mybb-pm-inbox.html"),
    ("smf", "local-engines/smf-pm-inbox.html"), ("smf", "local-engines/smf-pm-inbox-default-display.html"),
    ("flaskbb", "local-engines/flaskbb-pm-inbox.html"), ("spirit", "local-engines/spirit-pm-inbox.html"),
    ("discuz", "local-engines/discuz-pm-inbox.html"), ("vbulletin", "vbulletin/somethingawful-private-list.html"),
])
def test_saved_one_page_inboxes_have_no_next_page(engine, rel, corpus_dir):
    """The saved real inbox pages (each holds a single page, its pager included on SMF, FlaskBB,
    phpBB and Spirit) give no next page: the walk reads them in one request."""
    from forummod.forum.registry import profiles

    path = corpus_dir / rel
    if not path.exists():
        pytest.skip(f"{rel} missing")
    assert inbox_next_url(profiles(None)[engine], path.read_text(errors="replace"), "http://127.0.0.1:1/inbox") is None
