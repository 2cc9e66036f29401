"""A saved page's relative dates are read against the time the page states (`forum/page_clock.py`,
`forummod parse --saved-at`), not against the moment it is parsed, which may be days later."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.cli import main
from forummod.forum.html_engine import saved_page_clock
from forummod.forum.registry import profiles

NOW = datetime(2026, 12, 9, 8, 0, tzinfo=timezone.utc)


def phpbb_saved_page(clock: str) -> str:
    posts = "".join(
        f'<div id="p{n}" class="post"><div class="postbody"><p class="author">by <strong>'
        f'<a href="./memberlist.php?mode=viewprofile&amp;u={n + 1}" class="username">{who}</a></strong> » {when}</p>'
        f'<div class="content">Hello from {who}</div></div></div>'
        for n, (who, when) in enumerate([("Ann", "Yesterday, 22:10"), ("Bob", "Today, 09:03")], 1))
    return ("<html lang='en-gb'><head><title>Game</title></head><body id='phpbb'>"
            f"<div class='navbar'><p class='right time'>{clock}</p></div>{posts}"
            "<ul><li>All times are <span title='UTC'>UTC</span></li></ul></body></html>")


@pytest.mark.parametrize(("clock", "expected"), [
    ("It is currently Wed Dec 02, 2026 3:07 pm", datetime(2026, 12, 2, 15, 7, tzinfo=timezone.utc)),
    # the label in its own element; read in the profile's day-first order: 12 February
    ("<strong>Current time:</strong> 12-02-2026, 03:07 PM", datetime(2026, 2, 12, 15, 7, tzinfo=timezone.utc)),
    ("It is currently day 1 of the game", None),  # a label with no clock reading
    ("Current time: 3:07 pm", None),  # a time without a date (a player could write it)
    ("It is currently Wed Dec 30, 2026 3:07 pm", None),  # later than the reader's now: no clock
])
def test_the_pages_own_clock_is_read_only_when_it_is_a_date_and_time_not_after_now(clock, expected):
    assert saved_page_clock(profiles()["phpbb"], phpbb_saved_page(clock), tz=ZoneInfo("UTC"), now=NOW) == expected


def test_mybb_current_time_in_the_footer_is_read_month_first():
    page = ("<html><body><div id='container'><div class='post' id='post_1'></div></div>"
            "<div id='debug'><span id='current_time'><strong>Current time:</strong> 12-01-2026, 07:04 PM</span>"
            "</div></body></html>")
    assert saved_page_clock(profiles()["mybb"], page, tz=ZoneInfo("UTC"), now=NOW) == \
        datetime(2026, 12, 1, 19, 4, tzinfo=timezone.utc)


def _parse_json(capsys, path, *extra):
    assert main(["parse", str(path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_parse_reads_today_and_yesterday_against_the_time_the_saved_page_states(tmp_path, capsys):
    path = tmp_path / "saved.html"
    path.write_text(phpbb_saved_page("It is currently Wed Dec 02, 2026 3:07 pm"), encoding="utf-8")
    out = _parse_json(capsys, path)
    assert out["read_at_from"] == "page" and out["read_at"] == "2026-12-02T15:07:00+00:00"
    assert [p["created_at"] for p in out["posts"]] == ["2026-12-01T22:10:00+00:00", "2026-12-02T09:03:00+00:00"]
    given = _parse_json(capsys, path, "--saved-at", "2026-11-20T12:00")
    assert given["read_at_from"] == "given"
    assert [p["created_at"][:10] for p in given["posts"]] == ["2026-11-19", "2026-11-20"]


def test_parse_of_a_page_stating_no_time_reads_against_now(tmp_path, capsys):
    path = tmp_path / "saved.html"
    path.write_text(phpbb_saved_page(""), encoding="utf-8")
    before = datetime.now(timezone.utc)
    out = _parse_json(capsys, path)
    assert out["read_at_from"] == "now"
    assert before <= datetime.fromisoformat(out["read_at"]) <= datetime.now(timezone.utc)
