"""An unclosed tag in one post cannot swallow the posts after it (issue 16, item 3).

libxml2 keeps a post open when its body leaves a <div> unclosed, so every later post is
parsed inside it; browsers close it at </article>. `unnest_posts` moves such posts back out.
"""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.forum.html_engine import parse_html, parse_thread_page, unnest_posts

NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)

POST = ('<article class="message message--post" data-author="{who}" data-content="post-{n}" id="js-post-{n}">'
        '<div class="message-inner"><header class="message-attribution">'
        '<time class="u-dt" datetime="2020-01-0{n}T10:00:00+0000" data-time="{ts}">x</time></header>'
        '<div class="message-main"><article class="message-body"><div class="bbWrapper">{body}</div></article>'
        '{edit}</div></div></article>')


def page(first_body: str) -> str:
    posts = [
        POST.format(n=1, who="ann", ts=1577872800, body=first_body, edit=""),
        POST.format(n=2, who="bob", ts=1577959200, body="two", edit=""),
        POST.format(n=3, who="cy", ts=1578045600, body="three",
                    edit='<div class="message-lastEdit">Last edited: <time data-time="1578049200">x</time></div>'),
    ]
    return '<html><body><div class="block-body">' + "".join(posts) + "</div></body></html>"


def test_lxml_nests_later_posts_inside_a_post_with_an_unclosed_div():
    root = parse_html(page('hello <div style="color:red">never closed'))
    assert [len(list(a.iterancestors("article"))) for a in root.xpath("//article[@data-content]")] != [0, 0, 0]


def test_posts_after_an_unclosed_div_are_read_as_their_own_posts(profiles):
    parsed = parse_thread_page(profiles["xenforo"], page('hello <div style="color:red">never closed'),
                               url="https://f.test/threads/x.1/", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in parsed.posts] == [("1", "ann"), ("2", "bob"), ("3", "cy")]
    assert [p.edited for p in parsed.posts] == [False, False, True]  # not every post with post 3's edit
    assert "two" not in parsed.posts[0].html and "three" not in parsed.posts[1].html
    assert [p.created_at.day for p in parsed.posts] == [1, 2, 3]


def test_a_well_formed_page_is_left_as_it_is():
    root = parse_html(page("hello"))
    posts = root.xpath("//article[@data-content]")
    before = [p.getparent() for p in posts]
    assert unnest_posts(posts) == posts and [p.getparent() for p in posts] == before
