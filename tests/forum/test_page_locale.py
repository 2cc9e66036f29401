"""Dates as the page prints them: its language, its stated zone, relative days (issue 16, item 4)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.forum.dates import parse_forum_date
from forummod.forum.html_engine import parse_html, parse_thread_page
from forummod.forum.page_locale import check_zone, infer_offset, order_for, page_lang, stated_zone

UTC = timezone.utc
ROME = ZoneInfo("Europe/Rome")


@pytest.mark.parametrize("footer, offset_hours, name", [
    ('All times are <span title="Europe/Paris">UTC+02:00</span></li>', None, "Europe/Paris"),
    ('All times are UTC - 8 hours [ <abbr title="Daylight Saving Time">DST</abbr> ]', -7, "UTC-07:00"),
    ("All times are UTC + 1 hour [ <abbr title=\"Daylight Saving Time\">DST</abbr> ]", 2, "UTC+02:00"),
    ("Tutti gli orari sono UTC+02:00 Europa/Roma", 2, "UTC+02:00"),
    ("Fuseau horaire GMT +1. Il est actuellement", 1, "UTC+01:00"),
    ("All times are GMT -5. The time now is", -5, "UTC-05:00"),
    ('Alle Zeiten sind <span title="UTC">UTC</span>', 0, "UTC"),
    # vBulletin and phpBB 3.0 language packs
    ("Alle Zeitangaben in WEZ +2. Es ist jetzt", 2, "UTC+02:00"),
    ("Часовой пояс GMT +3, время: 10:47.", 3, "UTC+03:00"),
    ("Alle tijden zijn GMT +1. Het is nu 10:47.", 1, "UTC+01:00"),
    ("所有时间均为 GMT +8，现在的时间是 10:47。", 8, "UTC+08:00"),
    ("All times are GMT +5.5. The time now is", 5.5, "UTC+05:30"),
    ("Alle Zeiten sind UTC + 1 Stunde [ Sommerzeit ]", 2, "UTC+02:00"),
    ("Tutti gli orari sono UTC + 1 ora [ ora legale ]", 2, "UTC+02:00"),
    ("Heures au format UTC + 1 heure [ Heure d’été ]", 2, "UTC+02:00"),
    ("Wszystkie czasy w strefie UTC + 1 godzina", 1, "UTC+01:00"),
    ("Todos los horarios son UTC-03:00", -3, "UTC-03:00"),
])
def test_the_zone_a_page_footer_states_is_read(footer, offset_hours, name):
    zone, label = stated_zone("<div id='footer'>" + footer + "</div>")
    assert label == name
    if offset_hours is not None:
        assert zone.utcoffset(None) == timedelta(hours=offset_hours)


def test_a_page_stating_no_zone_gives_none():
    assert stated_zone("<p>Posted at 10:00 UTC by the admin</p>") == (None, "")


@pytest.mark.parametrize("lang, region, default, order", [
    ("fr", "", "MDY", "DMY"), ("de", "de", "MDY", "DMY"), ("en", "us", "DMY", "MDY"),
    ("en", "gb", "MDY", "DMY"), ("en", "", "MDY", "MDY"), ("zh", "cn", "MDY", "YMD"), ("", "", "MDY", "MDY"),
])
def test_numeric_day_month_order_follows_the_page_language(lang, region, default, order):
    assert order_for(lang, region, default) == order


def test_page_lang_reads_the_html_element():
    assert page_lang(parse_html('<html lang="fr-FR"><body></body></html>')) == ("fr", "fr")


NOW = datetime(2024, 3, 12, 21, 30, tzinfo=UTC)


@pytest.mark.parametrize("text, local", [
    ("Вчера, 14:05", "2024-03-11 14:05"), ("Oggi, 10:47", "2024-03-12 10:47"),
    ("gisteren om 14:05", "2024-03-11 14:05"), ("2 小时前", "2024-03-12 20:30"), ("前天 08:15", "2024-03-10 08:15"),
    ("Heute, 14:05", "2024-03-12 14:05"), ("Aujourd'hui à 14h05", "2024-03-12 14:05"),
    ("Avant-hier à 08:15", "2024-03-10 08:15"), ("Anteayer, 08:15", "2024-03-10 08:15"),
    ("Wczoraj, 14:05", "2024-03-11 14:05"), ("Dzisiaj, 10:47", "2024-03-12 10:47"),
    ("vor 2 Stunden", "2024-03-12 20:30"), ("il y a 2 heures", "2024-03-12 20:30"), ("hace 2 horas", "2024-03-12 20:30"),
    ("há 2 horas", "2024-03-12 20:30"), ("2 godziny temu", "2024-03-12 20:30"), ("un'ora fa", "2024-03-12 21:30"),
    ("час назад", "2024-03-12 21:30"), ("半小时前", "2024-03-12 22:00"), ("刚刚", "2024-03-12 22:30"),
    ("Just now", "2024-03-12 22:30"),
    # XenForo writes a post of the last week by its weekday (NOW is a Tuesday)
    ("Sunday at 10:47 PM", "2024-03-10 22:47"), ("Montag um 10:47", "2024-03-11 10:47"),
    ("Maandag om 10:47", "2024-03-11 10:47"), ("martedì alle 10:47", "2024-03-05 10:47"),
])
def test_relative_dates_resolve_against_the_fetch_time_in_the_forums_zone(text, local):
    got = parse_forum_date(text, tz=ROME, now=NOW, allow_dateparser=False)
    assert got.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == local


@pytest.mark.parametrize("text, languages, local", [
    ("12 mrt 2009 14:11", ("nl",), "2009-03-12 14:11"), ("12 grudnia 2009, 14:11", ("pl",), "2009-12-12 14:11"),
    ("sob gru 12, 2009 14:11", (), "2009-12-12 14:11"), ("12 Ιαν 2009, 14:11", ("el",), "2009-01-12 14:11"),
])
def test_month_words_the_built_in_table_lacks_come_from_cldr(text, languages, local):
    got = parse_forum_date(text, tz=ROME, now=NOW, languages=languages, allow_dateparser=False)
    assert got.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == local


def test_a_weekday_word_is_not_read_as_a_relative_day():
    got = parse_forum_date("Wednesday, 12 March 2020, 10:00", tz=ROME, now=NOW, allow_dateparser=False)
    assert got.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == "2020-03-12 10:00"


def test_today_just_after_local_midnight_is_the_forums_new_day_not_utcs():
    late = datetime(2024, 3, 12, 23, 30, tzinfo=UTC)  # 00:30 on the 13th in Rome
    got = parse_forum_date("Oggi, 00:10", tz=ROME, now=late, allow_dateparser=False)
    assert got.astimezone(ROME).strftime("%Y-%m-%d %H:%M") == "2024-03-13 00:10"


VB_FR = """<html lang="fr"><body>
<div id="posts"><div id="edit101"><table id="post101" class="tborder"><tr><td class="thead">
<a name="post101"></a> 04/02/2005, 12h25</td></tr><tr><td class="alt2">
<a class="bigusername" href="member.php?u=7">Yoyo</a></td><td id="td_post_101" class="alt1">
<div id="post_message_101">Bonjour</div></td></tr></table></div></div>
<div class="smallfont">Fuseau horaire GMT +1. Il est actuellement 12h20.</div></body></html>"""


def test_french_vbulletin_dates_are_day_first_in_the_zone_the_footer_states(profiles):
    page = parse_thread_page(profiles["vbulletin"], VB_FR, url="https://f.test/showthread.php?t=1", tz=UTC, now=NOW)
    (post,) = page.posts
    assert post.created_at == datetime(2005, 2, 4, 11, 25, tzinfo=UTC)  # 12h25 at GMT+1
    assert [i.code for i in page.issues] == ["zone_differs"]
    assert "UTC+01:00" in page.issues[0].message


def test_a_profile_can_pin_its_date_order_against_the_page_language(profiles):
    pinned = replace(profiles["vbulletin"], date_order="MDY", date_pinned=True)
    page = parse_thread_page(pinned, VB_FR, url="https://f.test/showthread.php?t=1", tz=UTC, now=NOW)
    assert page.posts[0].created_at.month == 4


def test_the_configured_zone_agreeing_with_the_footer_raises_no_warning(profiles):
    page = parse_thread_page(profiles["vbulletin"], VB_FR, url="https://f.test/showthread.php?t=1",
                             tz=timezone(timedelta(hours=1)), now=NOW)
    assert page.issues == ()


def test_the_zone_is_inferred_from_a_fresh_post_and_the_http_date():
    http_date = datetime(2024, 3, 12, 21, 3, tzinfo=UTC)
    shown = datetime(2024, 3, 12, 22, 1, tzinfo=UTC)  # "22:01" on a forum at UTC+1, two minutes old
    assert infer_offset(shown, http_date) == timedelta(hours=1)


def test_a_configured_zone_that_puts_the_newest_post_in_the_future_is_reported_wrong():
    http_date = datetime(2024, 3, 12, 21, 3, tzinfo=UTC)
    shown = datetime(2024, 3, 12, 22, 1, tzinfo=UTC)
    check = check_zone(shown, http_date, UTC, "UTC")
    assert check.verdict == "wrong" and check.inferred == timedelta(hours=1) and "UTC+01:00" in check.message
    assert check_zone(shown, http_date, ROME, "Europe/Rome").verdict == "consistent"


def test_an_old_newest_post_cannot_tell_the_zone():
    http_date = datetime(2024, 3, 12, 21, 3, tzinfo=UTC)
    shown = datetime(2024, 3, 12, 15, 0, tzinfo=UTC)  # a quiet thread: any zone fits
    assert check_zone(shown, http_date, UTC, "UTC").verdict == "cannot tell"


def _serve_one_page(html: str, http_date: str):
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def date_time_string(self, timestamp=None):  # the forum server's clock at the fetch
            return http_date

        def log_message(self, *a):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


PHPBB_FRESH = ("<html><body id='phpbb'><div id='p7' class='post'><div class='postbody'><p class='author'>by "
               "<strong><a href='./memberlist.php?mode=viewprofile&amp;u=2'>bob</a></strong> » Tue Mar 12, 2024 "
               "10:01 pm</p><div class='content'>I vote Ann</div></div></div></body></html>")


@pytest.mark.parametrize("zone, warned", [("UTC", True), ("Europe/Rome", False)])
def test_poll_warns_the_gm_when_the_configured_zone_puts_the_newest_post_in_the_future(clock, zone, warned):
    from forummod.config import SiteConfig
    from forummod.forum.base import ThreadRef
    from forummod.forum.http import HttpClient
    from forummod.forum.registry import make_adapter

    server = _serve_one_page(PHPBB_FRESH, "Tue, 12 Mar 2024 21:03:00 GMT")  # the post is 2 minutes old at UTC+1
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        site = SiteConfig(engine="phpbb", base_url=base, timezone=zone, request_interval=0.0, retries=1)
        http = HttpClient.from_site("synth", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
        poll = make_adapter("synth", site, http=http).poll_thread(ThreadRef(base + "viewtopic.php?t=1"), None)
    finally:
        server.shutdown()
        server.server_close()
    codes = [i.code for i in poll.issues]
    assert ("zone_wrong" in codes) is warned
    if warned:
        assert "UTC+01:00" in next(i.message for i in poll.issues if i.code == "zone_wrong")


def test_stated_zone_with_the_bytes_equals_the_text_alone():
    """The UTF-8 bytes only prove a marker absent faster: the answer is the text's."""
    from forummod.forum.page_locale import _holds

    footers = ["All times are UTC+02:00", "Alle Zeiten sind UTC + 1 Stunde", "Orario GMT", "Zeit: WEZ",
               "no zone here ü", "UTUTUTC", "GGGGGMT " * 40, "U" * 500 + "UTC-5", "U" * 500]
    for footer in footers:
        html = "<div id='footer'>é " + footer + "</div>"
        assert stated_zone(html, html.encode("utf-8")) == stated_zone(html)
    long = b"x" * 100_000  # a long page allows more hops before the plain search
    for data in (b"U" * 200 + b"UTC", b"U" * 200, b"xUTxUTCx", b"", b"UT", long + b"U" * 150 + b"UTC",
                 long + b"U " * 150 + b"UTC", long + b"U" * 300, long + b"U" * 300 + b"UTC"):
        assert _holds(data, b"UTC") == (b"UTC" in data)
