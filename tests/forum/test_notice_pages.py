"""Error pages are told apart from a layout change (issue 34, item 8).

A forum closed for maintenance, an SQL error, a login form, a CAPTCHA or browser check, a blank
page and "topic does not exist" each used to be "no posts matched selector ...; the forum layout
may have changed" while the page said what was wrong. The real phpBB 3.3, MyBB 1.8 and SMF 2.1
pages (fixtures/notice_pages, saved by tests/realforum/save_notice_pages.py) and pages written
from other engines' templates must be reported with their kind and their own words, short and
safe to print; a thread page whose selectors miss its posts stays a layout change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.config import SiteConfig
from forummod.errors import ErrorPage, LayoutChanged, LoginRequired, NetworkError
from forummod.forum.base import ThreadRef
from forummod.forum.error_pages import QUOTE_MAX, is_login_page, page_trouble, safe_quote
from forummod.forum.html_engine import parse_html
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter

from tests.page_server import serve_page

NOTICES = Path(__file__).parent / "fixtures" / "notice_pages"
MANIFEST = json.loads((NOTICES / "manifest.json").read_text(encoding="utf-8"))
REASON = "Manutenzione del database: si riapre stasera alle 21."

#: saved page -> (kind, words its quote holds)
REAL = {
    "phpbb-not-found.html": ("not_found", "The requested topic does not exist."),
    "phpbb-closed.html": ("maintenance", REASON),
    "phpbb-sql-error.html": ("error", "SQL ERROR [ sqlite3 ] no such table: phpbb_topics"),
    "phpbb-login.html": ("login", "Login"),
    "mybb-not-found.html": ("not_found", "The specified thread does not exist."),
    "mybb-closed.html": ("maintenance", "This bulletin board is currently closed. The Administrator has specified "
                                        f"the reason as to why below. {REASON}"),
    "mybb-sql-error.html": ("error", "MyBB SQL Error: MyBB has experienced an internal SQL error and cannot continue."),
    "mybb-login.html": ("login", "Login"),
    # to a guest SMF says the topic is "missing or off limits" and shows its login form: logging in may help
    "smf-not-found.html": ("login", "The topic or board you are looking for appears to be either missing or off limits"),
    "smf-closed.html": ("maintenance", f"Maintenance Mode: {REASON}"),
    "smf-sql-error.html": ("error", "Table 'forum.smf_topics' doesn't exist"),
    "smf-login.html": ("login", "Log in"),
}


def _trouble(name: str, profiles):
    text = (NOTICES / name).read_text(encoding="utf-8")
    prof = profiles[name.split("-", 1)[0]]
    return page_trouble(parse_html(text), text, status=MANIFEST[name]["status"], login_selectors=prof.login.login_page)


def test_every_saved_notice_page_is_listed():
    assert set(MANIFEST) == {p.name for p in NOTICES.glob("*.html")} == set(REAL)


@pytest.mark.parametrize("name", sorted(REAL))
def test_the_real_engines_notice_pages_are_read_as_what_they_say(profiles, name):
    kind, words = REAL[name]
    trouble = _trouble(name, profiles)
    assert trouble is not None and trouble.kind == kind
    assert words in trouble.message and len(trouble.message) <= QUOTE_MAX


def test_a_login_box_beside_a_notice_is_no_login_page_but_a_login_form_is(profiles):
    def login(name):
        return is_login_page(profiles[name.split("-", 1)[0]], "", (NOTICES / name).read_text(encoding="utf-8"))

    # MyBB shows guests a login box on every page; SMF's maintenance page has the administrators' login
    assert not login("mybb-not-found.html") and not login("mybb-closed.html") and not login("smf-closed.html")
    assert login("mybb-login.html") and login("phpbb-login.html") and login("smf-login.html")
    assert login("smf-not-found.html")  # "off limits to you. Please login below": a login may show the topic


# ------------------------------------------------------------------ through the adapter, over HTTP


def _adapter(engine: str, base_url: str, clock, **site):
    cfg = SiteConfig(engine=engine, base_url=base_url, request_interval=0.0, retries=0, **site)
    http = HttpClient.from_site("forum", cfg, clock=clock, wall_clock=clock, sleep=clock.sleep)
    return make_adapter("forum", cfg, http=http)


THREAD = {"phpbb": "viewtopic.php?t=1", "mybb": "showthread.php?tid=1", "smf": "index.php?topic=1.0"}


def _poll(name: str, clock):
    engine = name.split("-", 1)[0]
    page = (NOTICES / name).read_bytes()
    with serve_page(page, status=MANIFEST[name]["status"]) as base:
        ad = _adapter(engine, base, clock)
        return ad.poll_thread(ThreadRef(base + THREAD[engine]), None)


@pytest.mark.parametrize("name", ["phpbb-not-found.html", "phpbb-closed.html", "mybb-not-found.html",
                                  "mybb-closed.html", "smf-sql-error.html"])
def test_a_poll_that_meets_a_notice_reports_its_kind_and_words_not_a_layout_change(clock, name):
    kind, words = REAL[name]
    with pytest.raises(ErrorPage) as caught:
        _poll(name, clock)
    e = caught.value
    assert not isinstance(e, LayoutChanged) and e.kind == kind and words in e.quote
    assert f"«{e.quote}»" in str(e) and "layout" not in str(e) and e.exit_code == 1
    if MANIFEST[name]["status"] != 200:
        assert f"(HTTP {MANIFEST[name]['status']})" in str(e)


@pytest.mark.parametrize("name", ["phpbb-sql-error.html", "mybb-sql-error.html", "smf-closed.html"])
def test_a_server_error_keeps_its_network_error_and_says_what_its_page_said(clock, name):
    kind, words = REAL[name]
    with pytest.raises(NetworkError) as caught:
        _poll(name, clock)
    said = str(caught.value)
    assert "HTTP 503" in said and words in said
    assert {"error": "the forum shows an error page", "maintenance": "the forum is closed (maintenance)"}[kind] in said


def test_a_guest_asked_to_log_in_is_told_what_the_page_said(clock):
    with pytest.raises(LoginRequired, match="missing or off limits to you"):
        _poll("smf-not-found.html", clock)


def test_parse_names_the_notice_and_exits_1(capsys):
    code = main(["parse", "--engine", "mybb", str(NOTICES / "mybb-closed.html")])
    err = capsys.readouterr().err
    assert code == 1 and "the forum is closed (maintenance)" in err and REASON in err and "layout" not in err


# ------------------------------------------------------------------ other engines and the web in front of them

CLOUDFLARE = """<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body class="no-js"><div class="main-wrapper" role="main">
<div class="main-content"><h1 class="zone-name-title h1">forum.example.org</h1>
<h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div id="challenge-error-title">Enable JavaScript and cookies to continue</div></noscript>
</div></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8"></script></body></html>"""

PAGES = {
    "vbulletin-no-thread": ("""<html><head><title>Mafia Board</title></head><body><div class="page">
<table class="tborder"><tr><td class="tcat">vBulletin Message</td></tr><tr><td class="panelsurround"><div class="panel">
<div>No Thread specified. If you followed a valid link, please notify the <a href="sendmessage.php">administrator</a></div>
</div></td></tr></table></div></body></html>""", 200, "not_found", "No Thread specified."),
    "vbulletin-closed": ("""<html><head><title>Mafia Board</title></head><body><table class="tborder"><tr>
<td class="tcat">Mafia Board is currently closed</td></tr><tr><td class="panelsurround"><div class="panel">
Upgrading to 3.8.11, back in an hour.</div></td></tr></table></body></html>""", 200, "maintenance",
                         "Mafia Board is currently closed"),
    "xenforo-not-found": ("""<html><head><title>Oops! We ran into some problems. | Mafia</title></head><body>
<div class="p-body-main"><div class="p-body-content"><div class="blockMessage">The requested thread could not be found.
</div></div></div></body></html>""", 404, "not_found", "The requested thread could not be found."),
    "invision-not-found": ("""<html><head><title>Sorry, there is a problem - Mafia</title></head><body><div id="ipsLayout_mainArea">
<div class="ipsBox"><h1 class="ipsType_pageTitle">Sorry, there is a problem</h1><p class="ipsType_normal">The page you
requested does not exist</p><p>Error code: 2T173/1</p></div></div></body></html>""", 404, "not_found",
                           "The page you requested does not exist"),
    "discourse-not-found": ("""<html><head><title>Page Not Found - Mafia</title></head><body><div id="main-outlet">
<div class="page-not-found"><h1 class="title">Oops! That page doesn’t exist or is private.</h1></div></div></body></html>""",
                            404, "not_found", "Oops! That page doesn’t exist or is private."),
    "vanilla-no-permission": ("""<html><head><title>Permission Problem — Mafia</title></head><body><div class="Content">
<h1>Permission Problem</h1><div class="Info">You don't have permission to do that.</div></div></body></html>""",
                              403, "login", "You don't have permission to do that."),
    "cloudflare": (CLOUDFLARE, 403, "captcha", "Checking if the site connection is secure"),
    "recaptcha": ("""<html><head><title>Security check</title><script src="https://www.google.com/recaptcha/api.js"></script>
</head><body><h1>One more step</h1><form method="post"><div class="g-recaptcha" data-sitekey="x"></div></form></body></html>""",
                  200, "captcha", "One more step"),
    "blank": ("<html><head><title></title></head><body>\n  \n</body></html>", 200, "blank", ""),
    "bad-gateway": ("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
                    "<hr><center>nginx</center></body></html>", 502, "error", "502 Bad Gateway"),
    "italian-maintenance": ("""<html><head><title>Forum dei Giochi</title></head><body><div id="message"><h2>Informazione</h2>
<p>Il forum è in manutenzione fino alle 18.</p></div></body></html>""", 200, "maintenance",
                            "Il forum è in manutenzione fino alle 18."),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_notice_pages_of_other_software_are_read_as_what_they_say(name):
    html, status, kind, words = PAGES[name]
    trouble = page_trouble(parse_html(html), html, status=status)
    assert trouble is not None and trouble.kind == kind and words in trouble.message


def test_a_thread_page_whose_selectors_miss_its_posts_stays_a_layout_change(profiles, now):
    """Its posts may well say "maintenance" or "does not exist": they are posts, not a notice."""
    from forummod.forum.html_engine import parse_thread_page
    from tests.forum.forum_synth import page_html

    html = (page_html(30, 1).replace('class="post ', 'class="msg ').replace('id="p10', 'id="m10')
            .replace("Post 1 by", "The forum is closed for maintenance. The topic does not exist. Post 1 by"))
    assert page_trouble(parse_html(html), html) is None
    with pytest.raises(LayoutChanged):
        parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=now.tzinfo, now=now)


def test_the_pages_words_are_quoted_short_and_safe_for_a_terminal():
    reason = "Back soon \x1b]0;owned\x07\x1b[2J\u202egnp.exe " + "x" * 300
    html = f"<html><body><div id='message'><p>The board is currently disabled. {reason}</p></div></body></html>"
    trouble = page_trouble(parse_html(html), html)
    assert trouble is not None and trouble.kind == "maintenance"
    assert "\x1b" not in trouble.message and "\u202e" not in trouble.message
    assert "\\x1b]0;owned\\x07\\x1b[2J\\u202egnp.exe" in trouble.message
    assert len(trouble.message) == QUOTE_MAX and trouble.message.endswith("…")
    assert safe_quote("  two\n\tlines  ") == "two lines"
