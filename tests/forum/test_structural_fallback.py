"""The structural fallback reads pages no profile is used for (issue 16, item 2).

Measured on every gold page of ../shared/corpus with the profiles switched off: the post
blocks, authors and selectors come only from the page's repeated structure.
"""

from __future__ import annotations

import json
import re
import tomllib
from datetime import datetime, timezone

import pytest

from forummod.errors import LayoutChanged
from forummod.forum.html_engine import parse_html, parse_thread_page
from forummod.forum.profile import parse_profile
from forummod.forum.structural import infer_structure, to_toml

NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)

_ID_RX = [r"[?&;]u=(\d+)", r"membre(\d+)", r"member\.php\?(\d+)", r"members/(?:[^/]*\.)?(\d+)", r"members/(\d+)-",
          r"/profile/(\d+)-", r"/u/([^/?#]+)", r"profile\.php\?\d+,(\d+)"]


def _gold_user_key(surface: str) -> str:
    """The user a gold 'user' surface names: the id in a profile link, else its last path part."""
    for rx in _ID_RX:
        m = re.search(rx, surface)
        if m:
            return m.group(1).casefold()
    m = re.search(r"([^/?#=]+)/?$", surface)
    return m.group(1).casefold() if m else surface.casefold()


def _norm(s: str | None) -> str:
    return " ".join((s or "").split()).casefold()


def _author_right(gold_user: str, post) -> bool:
    if "mode=quote" in gold_user:  # airliners.net: the annotator took the quote link (see test_corpus_accuracy)
        return f"p={post.post_id}" in gold_user
    if "/" in gold_user or ".php" in gold_user:
        return _gold_user_key(gold_user) in (_norm(post.author_id), _norm(post.author))
    return _norm(gold_user) == _norm(post.author)


def _read_without_profiles(html: bytes):
    structure = infer_structure(parse_html(html))
    page = parse_thread_page(structure.profile(), html, url="https://corpus.invalid/t", tz=timezone.utc, now=NOW)
    return structure, page


def test_fallback_finds_posts_and_authors_of_90_percent_of_corpus_gold_posts(corpus_dir):
    gold_posts = found = authors = 0
    rows = []
    for gold_path in sorted(corpus_dir.glob("*/*.gold.json")):
        gold = json.loads(gold_path.read_text(encoding="utf-8"))["gold_standard_annotation"]
        html = gold_path.with_name(gold_path.name.replace(".gold.json", ".html")).read_bytes()
        try:
            _, page = _read_without_profiles(html)
            posts = page.posts
        except LayoutChanged:
            posts = ()
        ok = sum(1 for g, p in zip(gold, posts) if _author_right(g["user"]["surface_form"], p))
        gold_posts += len(gold)
        found += min(len(gold), len(posts))
        authors += ok
        rows.append(f"{gold_path.parent.name}/{gold_path.stem}: {len(posts)} posts, gold {len(gold)}, authors {ok}")
    summary = f"gold {gold_posts}: found {found} ({found / gold_posts:.0%}), authors {authors} ({authors / gold_posts:.0%})"
    print("\nstructural fallback on the corpus gold pages, profiles off\n" + "\n".join(rows) + "\n" + summary)
    assert gold_posts > 500, "the corpus gold pages are missing"
    assert found / gold_posts >= 0.9, summary
    assert authors / gold_posts >= 0.9, summary


UNKNOWN_ENGINE_PAGE = """<html lang="en"><body><div id="hdr"><a href="/u/admin">admin</a></div>
<div class="thread">
 <section class="entry" id="entry-101"><header><a class="who" href="/people/ann">Ann</a>
   <span class="when">12 March 2024, 21:58</span></header>
   <div class="text">I vote <b>Bob</b>. He was quiet all day.</div></section>
 <section class="entry" id="entry-102"><header><a class="who" href="/people/bob">Bob</a>
   <span class="when">12 March 2024, 22:04</span></header>
   <div class="text"><blockquote><cite>Ann wrote:</cite>I vote Bob.</blockquote>Unvote. I vote <b>Ann</b>.</div></section>
 <section class="entry" id="entry-103"><header><a class="who" href="/people/cy">Cy</a>
   <span class="when">13 March 2024, 08:15</span></header>
   <div class="text">Morning all, nothing to add.</div></section>
</div><aside><a href="/people/ann">Ann</a> is online</aside></body></html>"""


def test_fallback_reads_a_page_of_an_engine_no_profile_describes():
    structure, page = _read_without_profiles(UNKNOWN_ENGINE_PAGE.encode())
    assert [(p.post_id, p.author) for p in page.posts] == [("101", "Ann"), ("102", "Bob"), ("103", "Cy")]
    assert [p.created_at.strftime("%d %H:%M") for p in page.posts] == ["12 21:58", "12 22:04", "13 08:15"]
    assert "Morning all" in page.posts[2].html
    assert 'data-fm="quote"' in page.posts[1].html  # the generic quote mark keeps quoted votes out


def test_explain_names_the_selectors_found_and_in_how_many_blocks():
    structure, _ = _read_without_profiles(UNKNOWN_ENGINE_PAGE.encode())
    text = "\n".join(structure.explain())
    assert "(3 found)" in text
    for field in ("id", "author", "date", "body"):
        assert re.search(rf"^\s+{field}\s.*\(in 3 of 3 blocks\)$", text, re.M), text


def test_suggested_profile_is_valid_toml_that_reads_the_page_the_same():
    structure, page = _read_without_profiles(UNKNOWN_ENGINE_PAGE.encode())
    data = tomllib.loads(to_toml(structure.profile_data))
    again = parse_thread_page(parse_profile(data), UNKNOWN_ENGINE_PAGE, url="https://x.invalid/t",
                              tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author, p.created_at) for p in again.posts] == \
        [(p.post_id, p.author, p.created_at) for p in page.posts]


def test_a_page_without_repeated_post_blocks_is_reported_not_guessed():
    with pytest.raises(LayoutChanged, match="no repeated post blocks"):
        infer_structure(parse_html("<html><body><h1>Welcome</h1><p>No posts here.</p></body></html>"))


def test_parse_reads_an_unknown_engine_page_with_the_fallback_and_explains_it(tmp_path, capsys):
    from forummod.cli import main

    page = tmp_path / "thread.html"
    page.write_text(UNKNOWN_ENGINE_PAGE, encoding="utf-8")
    assert main(["parse", str(page), "--explain", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "structural"
    assert [p["author"] for p in out["posts"]] == ["Ann", "Bob", "Cy"]
    assert any(line.startswith("post blocks:") for line in out["explain"])


def test_profile_suggest_writes_a_profile_that_parse_then_uses(tmp_path, capsys):
    from forummod.cli import main

    page = tmp_path / "thread.html"
    page.write_text(UNKNOWN_ENGINE_PAGE, encoding="utf-8")
    target = tmp_path / "adapters" / "myforum.toml"
    assert main(["profile", "suggest", str(page), "--name", "myforum", "-o", str(target)]) == 0
    assert "3 posts read" in capsys.readouterr().out
    assert main(["profile", "suggest", str(page), "-o", str(target)]) == 2  # never overwrites
    capsys.readouterr()
    assert main(["parse", str(page), "--engine", "myforum", "--adapters", str(target.parent), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"] == "myforum" and [p["author"] for p in out["posts"]] == ["Ann", "Bob", "Cy"]


# Shapes written from the engines' templates (not saved pages), read with the profiles off.

def test_fallback_reads_an_unclassed_posted_line_by_its_place_among_its_siblings():
    from tests.forum.test_more_layouts import subsilver2_page

    _, page = _read_without_profiles(subsilver2_page().encode())
    assert [(p.post_id, p.author) for p in page.posts] == [("101", "ann"), ("102", "bob")]
    assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == ["2013-07-28 13:34", "2013-07-28 14:10"]
    assert not any(p.date_guessed for p in page.posts)


PROSILVER_POST = """<div id="p{pid}" class="post bg{alt}"><div class="inner">
<dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="username">{who}</a></dt>
<dd class="profile-posts"><strong>Posts:</strong> 4</dd><dd class="profile-joined"><strong>Joined:</strong> {joined}</dd></dl>
<div class="postbody"><h3><a href="#p{pid}">Re: Game</a></h3><p class="author"><a href="./viewtopic.php?p={pid}#p{pid}">Post</a>
by <strong><a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="username">{who}</a></strong> » {when}</p>
<div class="content">{body}</div></div></div></div>"""


def test_fallback_does_not_take_the_join_date_of_the_profile_column_for_the_post_date():
    html = "<html><body id='phpbb'>" + "".join(
        PROSILVER_POST.format(pid=10 + i, alt=i % 2 + 1, uid=2 + i, who=w, joined=j, when=t, body=f"vote {w}")
        for i, (w, j, t) in enumerate([("ann", "17 Jul 2011 16:37", "17 Jul 2011 17:51"),
                                       ("bob", "05 Aug 2009 01:25", "18 Jul 2011 09:02"),
                                       ("cy", "01 Jan 2010 10:00", "18 Jul 2011 22:40")])) + "</body></html>"
    structure, page = _read_without_profiles(html.encode())
    assert [p.author for p in page.posts] == ["ann", "bob", "cy"]
    assert [p.created_at.strftime("%d %H:%M") for p in page.posts] == ["17 17:51", "18 09:02", "18 22:40"]
    assert "profile-joined" not in "\n".join(structure.explain())


FLUXBB_POST = """<div id="p{pid}" class="blockpost row{alt}"><h2><span><span class="conr">#{n}</span>
<a href="viewtopic.php?pid={pid}#p{pid}">{when}</a></span></h2><div class="box"><div class="inbox"><div class="postbody">
<div class="postleft"><dl><dt><strong>{who}</strong></dt><dd class="usertitle"><strong>Member</strong></dd></dl></div>
<div class="postright"><h3>Re: Game</h3><div class="postmsg"><p>See <a href="https://example.org/x">this patch</a>,
{body}</p></div></div></div></div></div></div>"""


def test_fallback_reads_names_shown_without_links_and_not_the_permalink_dates():
    html = "<html><body>" + "".join(
        FLUXBB_POST.format(pid=100 + i, alt=i % 2 + 1, n=i + 1, who=w, when=t, body=f"I vote {w}")
        for i, (w, t) in enumerate([("wzrd", "2019-09-29 10:46:47"), ("nickl", "2019-10-06 16:59:52"),
                                    ("wzrd", "2019-10-10 13:47:14")])) + "</body></html>"
    _, page = _read_without_profiles(html.encode())
    assert [(p.post_id, p.author) for p in page.posts] == [("100", "wzrd"), ("101", "nickl"), ("102", "wzrd")]
    assert [p.created_at.strftime("%m-%d %H:%M") for p in page.posts] == ["09-29 10:46", "10-06 16:59", "10-10 13:47"]


CUSTOM_PHPBB_POST = """<div id="p{pid}" class="post bg{alt}"><div class="inner"><div class="postbody">
<div class="post-meta"><a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="username">{who}</a>
<span class="stamp">{when}</span></div><div class="content">{body}</div></div></div></div>"""


def _custom_phpbb(whens: list[str]) -> str:
    return ("<html><head><meta name='generator' content='phpBB'></head><body id='phpbb'>" + "".join(
        CUSTOM_PHPBB_POST.format(pid=20 + i, alt=i % 2 + 1, uid=3 + i, who=f"p{i}", when=w, body=f"vote p{i + 1}")
        for i, w in enumerate(whens)) + "<p>Powered by phpBB</p></body></html>")


def test_dates_a_profile_cannot_read_are_filled_from_the_repeated_blocks(profiles):
    from forummod.forum.structural import fill_from_structure

    html = _custom_phpbb(["17 Jul 2011 17:51", "18 Jul 2011 09:02", "18 Jul 2011 22:40"])
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    assert all(p.date_guessed for p in page.posts)  # the style moved the date where the profile does not look
    filled = fill_from_structure(page, html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.created_at.strftime("%d %H:%M"), p.date_guessed) for p in filled.posts] == \
        [("20", "17 17:51", False), ("21", "18 09:02", False), ("22", "18 22:40", False)]
    codes = [i.code for i in filled.issues]
    assert "date_unreadable" not in codes and "read_by_structure" in codes


def test_filled_dates_out_of_post_order_stay_guessed(profiles):
    """The fallback itself flags the date out of order with its neighbours (issue 29): only the
    dates that run in post order are filled, the odd one stays guessed."""
    from forummod.forum.structural import fill_from_structure

    html = _custom_phpbb(["17 Jul 2011 17:51", "05 Aug 2009 01:25", "18 Jul 2011 22:40"])
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    filled = fill_from_structure(page, html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.date_guessed) for p in filled.posts] == [("20", False), ("21", True), ("22", False)]
    assert filled.posts[1] == page.posts[1]


def test_filled_dates_that_all_disagree_with_the_profiles_order_stay_guessed(profiles):
    from forummod.forum.structural import fill_from_structure

    html = _custom_phpbb(["17 Jul 2011 17:51", "18 Jul 2011 22:40", "19 Jul 2011 09:02"])
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc,
                             now=datetime(2011, 7, 18, 12, 0, tzinfo=timezone.utc))
    filled = fill_from_structure(page, html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc,
                                 now=datetime(2011, 7, 18, 12, 0, tzinfo=timezone.utc))
    assert [p.date_guessed for p in filled.posts] == [False, True, True]  # two are after the fetch


MYBB_LIKE_POST = """<div class="post" id="post_{pid}"><div class="post_author"><div class="author_information">
<strong><span class="largetext"><a href="https://f.test/User-{who}">{who}</a></span></strong></div>
<div class="author_statistics">Reputation: <a href="reputation.php?uid={uid}"><strong>0</strong></a>
<a href="newpoints.php?action=donate&amp;uid={uid}">Donate</a></div></div>
<div class="post_content"><div class="post_head"><span class="post_date">{when}</span></div>
<div class="post_body" id="pid_{pid}">{body}</div></div></div>"""


def test_fallback_takes_the_day_month_order_the_pages_own_dates_prove_and_skips_action_links():
    html = "<html><body>" + "".join(
        MYBB_LIKE_POST.format(pid=500 + i, who=w, uid=10 + i, when=t, body=f"vote {w}")
        for i, (w, t) in enumerate([("ann", "02-11-2016, 10:30 PM"), ("bob", "02-13-2016, 11:33 PM"),
                                    ("cy", "02-14-2016, 03:38 AM")])) + "</body></html>"
    _, page = _read_without_profiles(html.encode())
    assert [p.author for p in page.posts] == ["ann", "bob", "cy"]  # not the reputation count or "Donate"
    assert [p.created_at.strftime("%m-%d %H:%M") for p in page.posts] == ["02-11 22:30", "02-13 23:33", "02-14 03:38"]


def _two_row_page(between_rows: str) -> str:
    """Posts as two table rows: author and date, then the message (an old custom skin)."""
    rows = []
    for i, (who, at) in enumerate([("ann", "13:34"), ("bob", "14:10"), ("cid", "15:02")]):
        rows.append(f'<tr class="head"><td class="who"><a href="/profile.php?id={i + 2}">{who}</a></td>'
                    f'<td class="when">28.07.2013 {at}</td></tr>{between_rows}'
                    f'<tr class="msg"><td colspan="2">Post {i} by {who}: I think we should vote somebody today.</td></tr>')
    return "<html><body><table>" + "".join(rows) + "</table></body></html>"


@pytest.mark.parametrize("between_rows", ["", "<!-- message -->"])
def test_fallback_reads_two_row_posts_also_with_a_comment_between_the_rows(between_rows):
    """The message row is found past an HTML comment (a comment's `tag` is no element name:
    it made an XPath that does not compile)."""
    structure, page = _read_without_profiles(_two_row_page(between_rows).encode())
    assert structure.profile_data["post"]["body"] == ["xpath:following-sibling::tr[1]"]
    assert [p.author for p in page.posts] == ["ann", "bob", "cid"]
    assert [p.html.startswith('<tr class="msg">') and f"by {p.author}:" in p.html for p in page.posts] == [True] * 3
