"""forum/page_zone.py (issue 28 item 5): the zone a page states — in words, by `<time>`
elements (the instant beside the wall time), or by its clock against the server's."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.forum.page_zone import page_zone, zone_name
from forummod.forum.registry import get_profile

NOW = datetime(2026, 12, 1, 19, 4, 40, tzinfo=timezone.utc)


def _page(body: str) -> str:
    return f"<html><body><div>{body}</div><p>Powered by a forum</p></body></html>"


def test_words_win():
    z = page_zone(get_profile("phpbb"), _page("All times are <span title=\"Europe/Rome\">UTC+01:00</span>"),
                  http_date=NOW, now=NOW)
    assert (z.label, z.how) == ("Europe/Rome", "stated")


def test_a_time_element_gives_the_offset_smf_header():
    z = page_zone(get_profile("smf"), _page('<time datetime="2026-12-01T19:05:30Z">Dec 01, 2026, 08:05 PM</time>'),
                  http_date=None, now=NOW)
    assert (z.label, z.how) == ("UTC+01:00", "time elements")
    assert zone_name(z, "Europe/Rome", NOW) == "Europe/Rome" and zone_name(z, "", NOW) == "Etc/GMT-1"


def test_time_elements_that_disagree_say_nothing():
    body = ('<time datetime="2026-12-01T19:05:30Z">Dec 01, 2026, 08:05 PM</time>'
            '<time datetime="2026-12-01T19:05:30Z">Dec 01, 2026, 07:05 PM</time>')
    assert page_zone(get_profile("smf"), _page(body), http_date=None, now=NOW) is None


def test_the_pages_clock_against_the_servers_mybb_footer():
    body = "<strong>Current time:</strong> 01 Dec 2026, 02:04 PM"
    z = page_zone(get_profile("mybb"), _page(body), http_date=NOW, now=NOW)
    assert (z.label, z.how) == ("UTC-05:00", "page clock") and zone_name(z, "", NOW) == "Etc/GMT+5"
    assert page_zone(get_profile("mybb"), _page(body), http_date=None, now=NOW) is None  # no server clock
    late = page_zone(get_profile("mybb"), _page(body), http_date=NOW + timedelta(minutes=7), now=NOW)
    assert late is None  # seven minutes off a quarter hour: no offset


def test_a_page_stating_nothing_says_nothing():
    assert page_zone(get_profile("phpbb"), _page("Posted Dec 01, 2026 7:05 pm"), http_date=NOW, now=NOW) is None
