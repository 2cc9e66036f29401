"""A page whose selectors find no posts is LayoutChanged (never an empty success), and
`forummod parse` prints posts of a saved page or reports an unknown engine with exit code 2."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.cli import main
from forummod.errors import LayoutChanged
from forummod.forum.html_engine import parse_thread_page

from conftest import FIXTURES
from forum_synth import page_html

NOW = datetime(2024, 3, 2, tzinfo=timezone.utc)


def test_renamed_post_markup_is_layout_changed_naming_engine_url_and_selector(profiles):
    # class and id renamed: a style that only drops the "post" class is still read (div#p123, issue 16)
    html = page_html(30, 1).replace('class="post ', 'class="entry ').replace('<div id="p', '<div id="entry')
    with pytest.raises(LayoutChanged) as e:
        parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=NOW)
    msg = str(e.value)
    assert e.value.engine == "phpbb" and "https://f.test/viewtopic.php?t=1" in msg and "div.post" in msg


_POST = ('<div id="p{n}" class="post"><div class="postbody"><p class="author">by <strong>'
         '<a href="./memberlist.php?mode=viewprofile&amp;u=2">bob</a></strong>{date}</p>'
         '<div class="content">hi</div></div></div>')


def test_a_page_whose_posts_show_no_date_is_kept_at_the_fetch_time_and_flagged(profiles):
    # issue 16 item 1: no page is refused for one missing field
    html = "<html><body id='phpbb'>" + _POST.format(n=1, date="") + _POST.format(n=2, date="") + "</body></html>"
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=NOW)
    assert [p.post_id for p in page.posts] == ["1", "2"]
    assert all(p.date_guessed and p.created_at == NOW for p in page.posts)
    assert [i.code for i in page.issues] == ["date_unreadable", "date_unreadable"]
    assert "fetched at" in page.issues[0].message


def test_a_post_without_a_readable_date_is_bounded_by_the_previous_post(profiles):
    html = ("<html><body id='phpbb'>" + _POST.format(n=1, date=" » Sun Jul 28, 2013 1:34 pm")
            + _POST.format(n=2, date=" » garbled") + _POST.format(n=3, date=" » Sun Jul 28, 2013 2:10 pm")
            + "</body></html>")
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=NOW)
    first, guessed, last = page.posts
    assert not first.date_guessed and not last.date_guessed and guessed.date_guessed
    assert first.created_at <= guessed.created_at <= last.created_at
    assert "between 2013-07-28 13:34 and 2013-07-28 14:10 UTC" in page.issues[0].message


def test_empty_thread_page_is_layout_changed(profiles):
    with pytest.raises(LayoutChanged):
        parse_thread_page(profiles["phpbb"], "<html><body id='phpbb'></body></html>", url="https://f.test/x",
                          tz=ZoneInfo("UTC"), now=NOW)


def test_parse_command_prints_posts_as_json(tmp_path, capsys):
    page = tmp_path / "page.html"
    page.write_text(page_html(12, 1), encoding="utf-8")
    assert main(["parse", str(page), "--json", "--timezone", "Europe/Rome"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "phpbb" and len(out["posts"]) == 10 and out["last_page"] == 2
    p = out["posts"][4]
    assert set(p) >= {"id", "number", "author", "author_id", "created_at", "edited_at", "text", "html"}
    assert p["number"] == 5 and "earlier words" not in p["text"] and 'data-fm="quote"' in p["html"]


def test_parse_command_with_engine_given(capsys):
    assert main(["parse", str(FIXTURES / "discuz-thread.html"), "--engine", "discuz", "--timezone", "Asia/Shanghai"]) == 0
    assert "张三" in capsys.readouterr().out


def test_parse_command_reports_unknown_engine_with_exit_code_2(tmp_path, capsys):
    page = tmp_path / "vanilla.html"
    page.write_text("<html><head><meta name='generator' content='Vanilla 3'></head><body><div class='Comment'>hi</div></body></html>")
    assert main(["parse", str(page)]) == 2
    err = capsys.readouterr().err
    assert "unknown forum engine" in err and "Vanilla" in err
