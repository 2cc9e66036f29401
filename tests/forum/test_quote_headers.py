"""A quote's header ("bob wrote:" in the element before the quote) is found past HTML comments.

A comment between the header and the quote (templates and editors leave them) made the
parser call an XPath on the comment, which lxml refuses: the whole page failed to parse.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.forum.html_engine import parse_thread_page
from forummod.forum.registry import profiles

NOW = datetime(2024, 6, 1, tzinfo=timezone.utc)

FLASKBB = """<html><body><div class="topic-header"><a>Mafia</a></div>
<div class="post-row" id="7"><div class="author-name"><a href="/user/alice">alice</a></div>
<div class="post-meta"><strong>#1</strong> <time datetime="2024-05-01T10:00:00+00:00">x</time></div>
<div class="post-content">{body}</div></div></body></html>"""

PHPBB = """<html><body id="phpbb"><div id="p9" class="post bg1"><div class="inner"><div class="postbody">
<p class="author"><strong><a href="./memberlist.php?mode=viewprofile&amp;u=3" class="username">alice</a></strong>
<time datetime="2024-05-01T10:00:00+00:00">Wed May 01, 2024 10:00 am</time></p>
<div class="content">{body}</div></div></div></div></body></html>"""


def _body(profile: str, page: str) -> str:
    (post,) = parse_thread_page(profiles()[profile], page, url="http://127.0.0.1/t/1", tz=ZoneInfo("UTC"), now=NOW).posts
    return post.html


@pytest.mark.parametrize("between", ["<!-- quote -->", "<!-- a --> <?php x ?> <!-- b -->"])
def test_flaskbb_quote_header_is_read_past_a_comment(between):
    html = _body("flaskbb", FLASKBB.format(body=f"<p>bob wrote:</p>{between}<blockquote>VOTE: carol</blockquote>"
                                                  "<p>VOTE: dave</p>"))
    assert '<p data-fm="quote">bob wrote:</p>' in html
    assert 'data-fm-author="bob"' in html


def test_phpbb_quote_title_is_read_past_a_comment():
    html = _body("phpbb", PHPBB.format(body='<div class="quotetitle">bob wrote:</div><!-- q -->'
                                              '<div class="quotecontent">VOTE: carol</div>VOTE: dave'))
    assert 'data-fm-author="bob"' in html


def test_a_quote_with_only_a_comment_before_it_has_no_header():
    html = _body("flaskbb", FLASKBB.format(body="<!-- start --><blockquote>VOTE: carol</blockquote>"))
    assert '<blockquote data-fm="quote">' in html
