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
    html = page_html(30, 1).replace('class="post ', 'class="entry ')
    with pytest.raises(LayoutChanged) as e:
        parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=NOW)
    msg = str(e.value)
    assert e.value.engine == "phpbb" and "https://f.test/viewtopic.php?t=1" in msg and "div.post" in msg


def test_posts_without_dates_are_layout_changed(profiles):
    post = ('<div id="p{n}" class="post"><div class="postbody"><p class="author">by <strong>'
            '<a href="./memberlist.php?mode=viewprofile&amp;u=2">bob</a></strong></p>'
            '<div class="content">hi</div></div></div>')
    html = "<html><body id='phpbb'>" + post.format(n=1) + post.format(n=2) + "</body></html>"
    with pytest.raises(LayoutChanged, match="date"):
        parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=1", tz=ZoneInfo("UTC"), now=NOW)


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
