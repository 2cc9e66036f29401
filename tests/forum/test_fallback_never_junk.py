"""Issue 29: the structural fallback on forums without a profile picks the block that explains
the page, says how sure it is, refuses rather than answer with junk, and leaves no date
silently wrong. Each test writes its own small markup of a shape seen on real pages of
engines without a profile (the pages themselves stay out of the repository)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from forummod.forum.html_engine import parse_html, parse_thread_page, text_without_marks
from forummod.forum.structural import StructureUnsure, infer_structure

NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)


def _read(html: str, *, now: datetime = NOW, clock_known: bool = True):
    structure = infer_structure(parse_html(html), url="https://f.test/t/1")
    page = parse_thread_page(structure.profile(), html, url="https://f.test/t/1", tz=timezone.utc, now=now,
                             clock_known=clock_known)
    return structure, page


def _posts(rows: list[tuple[str, str, str]], shape: str) -> str:
    return "".join(shape.format(i=i, pid=700 + i, who=w, when=t, body=b) for i, (w, t, b) in enumerate(rows))


THREE = [("ann", "12 March 2020, 21:58", "I vote bob, he was quiet."), ("bob", "12 March 2020, 22:04", "Unvote. Vote ann."),
         ("cy", "13 March 2020, 08:15", "Morning all, nothing to add.")]
MSG = ('<div class="msg" id="m{pid}"><a class="name" href="/member.php?u={i}">{who}</a>'
       '<span class="when">{when}</span><div class="text">{body}</div></div>')


def test_a_sidebar_list_repeating_more_often_than_the_posts_is_not_taken_for_them():
    """Every list item of a sidebar has a user link and a date (a list of other threads): more
    repetitions than the posts, but no words of its own; the posts have a body."""
    items = "".join(f'<li><a href="/t/{n}">Thread {n}</a> <a href="/member.php?u={n}">u{n}</a> '
                    f'<span>0{1 + n % 9}.03.2020 10:{n:02d}</span></li>' for n in range(20))
    html = f"<html><body><ul class='side'>{items}</ul><div id='posts'>{_posts(THREE, MSG)}</div></body></html>"
    structure, page = _read(html)
    assert [(p.post_id, p.author) for p in page.posts] == [("700", "ann"), ("701", "bob"), ("702", "cy")]
    assert structure.confidence >= 0.9
    assert "li" in structure.runner_up  # --explain shows what it was preferred to


UPPER_TABLE_POST = """<A NAME='{pid}'></A>
<TABLE WIDTH='80%' BORDER=0><TR><TD><TABLE WIDTH='100%'><TR><TD>
<B>By</B> <A HREF='user_info.pl?id={i}'>{who}</A> <B>On</B> {when}</TD></TR></TABLE></TD></TR>
<TR><TD>{body}</TD></TR></TABLE><P>"""


def test_a_class_less_table_layout_is_refused_with_the_reason_not_read_as_junk():
    """Blocks with no class, no id and no named ancestor: their selector would also find the
    layout rows and the rows inside each post, every one read as a post numbered by position."""
    rows = [("ann", "2020.03.12 13:17", "We dont see the neurologist til March."),
            ("bob", "2020.03.12 15:21", "We have not spoken to the neurologist."),
            ("cy", "2020.03.12 17:31", "Thank you both for answering.")]
    html = ("<HTML><BODY><TABLE><TR><TD>" + _posts(rows, UPPER_TABLE_POST) + "</TD></TR></TABLE></BODY></HTML>")
    with pytest.raises(StructureUnsure) as e:
        infer_structure(parse_html(html))
    assert "no id and no class" in e.value.reason
    assert e.value.structure.confidence == 0.0


def test_parse_refuses_an_untrusted_page_with_exit_2_the_reason_and_profile_suggest(tmp_path, capsys):
    from forummod.cli import main

    rows = [("ann", "2020.03.12 13:17", "We dont see the neurologist til March."),
            ("bob", "2020.03.12 15:21", "We have not spoken to the neurologist.")]
    page = tmp_path / "thread.html"
    page.write_text("<HTML><BODY><TABLE><TR><TD>" + _posts(rows, UPPER_TABLE_POST) + "</TD></TR></TABLE></BODY></HTML>")
    assert main(["parse", str(page), "--explain"]) == 2
    err = capsys.readouterr().err
    assert "will not guess" in err and "profile suggest" in err and "runner-up" in err
    out = tmp_path / "mine.toml"
    assert main(["profile", "suggest", str(page), "-o", str(out)]) == 0
    assert out.read_text().startswith("# NOT TRUSTED:")


def test_explain_says_how_sure_and_names_the_runner_up(tmp_path, capsys):
    from forummod.cli import main

    page = tmp_path / "thread.html"
    page.write_text(f"<html><body><div id='posts'>{_posts(THREE, MSG)}</div></body></html>")
    assert main(["parse", str(page), "--explain", "--json"]) == 0
    explain = json.loads(capsys.readouterr().out)["explain"]
    assert any(line.startswith("confidence: 100%") for line in explain)
    assert any(line.startswith("runner-up:") for line in explain)


SPLIT_TIME = ('<div class="msg" id="m{pid}"><a class="name" href="/member.php?u={i}">{who}</a>'
              '<span class="day">{when}</span> <span class="time">{body}</span><div class="text">vote somebody</div></div>')
CHILD_TIME = ('<table class="posts"><tr class="head" id="r{pid}"><td><b>{who}</b></td><td class="meta">#{i} '
              'erstellt: {when}, <span class="time">{body}</span></td></tr>'
              '<tr class="row"><td colspan="2">I vote somebody today, {who} here.</td></tr></table>')


@pytest.mark.parametrize("shape", [SPLIT_TIME, CHILD_TIME], ids=["sibling", "child"])
def test_a_time_in_an_element_of_its_own_is_joined_to_its_date(shape):
    rows = [("ann", "21. Apr 2020", "19:40"), ("bob", "21. Apr 2020", "20:53"), ("cy", "22. Apr 2020", "00:22")]
    _, page = _read(f"<html lang='de'><body>{_posts(rows, shape)}</body></html>")
    assert [p.created_at.strftime("%m-%d %H:%M") for p in page.posts] == ["04-21 19:40", "04-21 20:53", "04-22 00:22"]
    assert not any(p.date_guessed for p in page.posts)


def test_a_two_digit_year_with_its_weekday_is_read_and_a_weekday_that_disagrees_is_flagged():
    rows = [("ann", "Tue 16-Jun-20 16:12:14", "vote bob"), ("bob", "Tue 16-Jun-20 23:12:23", "vote ann"),
            ("cy", "Mon 17-Jun-20 09:31:14", "vote ann")]  # 17 June 2020 was a Wednesday
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>")
    assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == \
        ["2020-06-16 16:12", "2020-06-16 23:12", "2020-06-17 09:31"]
    assert [p.date_guessed for p in page.posts] == [False, False, True]
    assert any(i.code == "date_imprecise" and "Wednesday" in i.message for i in page.issues)


def test_a_date_with_neither_year_nor_time_keeps_the_posts_in_order_flagged():
    rows = [("ann", "Thursday 23rd April", "vote bob please"), ("bob", "Thursday 23rd April", "no, vote ann"),
            ("cy", "Friday 24th April", "vote ann")]
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>")
    assert [p.author for p in page.posts] == ["ann", "bob", "cy"]
    assert all(p.date_guessed for p in page.posts)
    assert [p.created_at.strftime("%m-%d") for p in page.posts] == ["04-23", "04-23", "04-24"]
    assert all("no time of day" in i.message for i in page.issues if i.code == "date_imprecise")


@pytest.mark.parametrize("shown,flagged", [("3 weeks ago", True), ("14 hours ago", True), ("38 secs ago", False)])
def test_relative_dates_wider_than_a_minute_are_flagged(shown, flagged):
    rows = [("ann", shown, "vote bob"), ("bob", shown, "vote ann")]
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>")
    assert [p.date_guessed for p in page.posts] == [flagged, flagged]


def test_a_relative_date_of_a_saved_page_whose_saving_time_is_unknown_is_flagged():
    rows = [("ann", "38 secs ago", "vote bob"), ("bob", "Today, 10:15", "vote ann")]
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>", clock_known=False)
    assert all(p.date_guessed for p in page.posts)
    assert all("--saved-at" in i.message for i in page.issues if i.code == "date_imprecise")


def test_a_machine_readable_day_without_time_is_flagged_and_a_full_one_is_not():
    shape = ('<article class="post" id="p{pid}"><a class="author" href="/members/{who}">{who}</a>'
             '<time datetime="{when}">some day</time><div class="content">{body}</div></article>')
    rows = [("ann", "2020-04-18", "vote bob"), ("bob", "2020-04-18T10:05:00+02:00", "vote ann")]
    _, page = _read(f"<html><body>{_posts(rows, shape)}</body></html>")
    assert [p.date_guessed for p in page.posts] == [True, False]
    assert page.posts[1].created_at.strftime("%H:%M") == "08:05"


def test_a_date_out_of_order_with_its_neighbours_is_flagged():
    rows = [("ann", "12 March 2020, 21:58", "vote bob"), ("bob", "12 March 2019, 22:04", "vote ann"),
            ("cy", "13 March 2020, 08:15", "vote ann"), ("dee", "13 March 2020, 09:15", "vote cy")]
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>")
    assert [p.date_guessed for p in page.posts] == [False, True, False, False]


def test_an_ambiguous_numeric_date_is_flagged_unless_the_page_proves_the_order():
    rows = [("ann", "07.06.2020, 11:49", "vote bob"), ("bob", "07.06.2020, 12:12", "vote ann")]
    _, page = _read(f"<html><body>{_posts(rows, MSG)}</body></html>")
    assert all(p.date_guessed for p in page.posts)
    _, page = _read(f"<html><body>{_posts([*rows, ('cy', '19.06.2020, 08:00', 'vote ann')], MSG)}</body></html>")
    assert not any(p.date_guessed for p in page.posts)  # 19.06 proves day first
    _, page = _read(f"<html lang='de'><body>{_posts(rows, MSG)}</body></html>")
    assert not any(p.date_guessed for p in page.posts)


def test_the_opening_post_in_a_box_of_its_own_is_read_with_the_replies():
    """A lead article (header with author and date, its body beside it) before a list of
    answers of another shape: one thread, the opening post first, with its own body."""
    lead = ('<div class="topic"><div class="post-header"><a href="/user/ann">ann</a>'
            '<time datetime="2020-06-16T13:36:54Z">3 hours ago</time></div>'
            '<div class="post-body">Day 1 starts now. Vote with bold.</div></div>')
    reply = ('<div class="response" id="r{pid}"><div class="response-header"><a href="/user/{who}">{who}</a>'
             '<time datetime="2020-06-16T1{i}:14:26Z">1 hour ago</time></div>'
             '<div class="response-text">{body}</div></div>')
    rows = [("bob", "", "vote ann"), ("cy", "", "vote bob"), ("dee", "", "vote bob")]
    _, page = _read(f"<html><body>{lead}<div class='replies'>{_posts(rows, reply)}</div></body></html>")
    assert [p.author for p in page.posts] == ["ann", "bob", "cy", "dee"]
    assert "Day 1 starts now" in text_without_marks(page.posts[0].html)
    assert [p.post_id for p in page.posts][1:] == ["700", "701", "702"]


def test_post_numbers_the_page_prints_are_the_posts_numbers():
    shape = ('<div class="msg" id="m{pid}"><a class="name" href="/member.php?u={i}">{who}</a>'
             '<a class="num" href="#m{pid}">#{body}</a><span class="when">{when}</span>'
             '<div class="text">vote somebody</div></div>')
    rows = [("ann", "12 March 2020, 21:58", "11"), ("bob", "12 March 2020, 22:04", "12"), ("cy", "13 March 2020, 08:15", "13")]
    _, page = _read(f"<html><body>{_posts(rows, shape)}</body></html>")
    assert [p.number for p in page.posts] == [11, 12, 13]


def test_mybb_theme_printing_the_number_as_the_permalink_text(profiles):
    post = ('<div class="post" id="post_{pid}"><div class="post_author"><strong><span class="largetext">'
            '<a href="member.php?action=profile&amp;uid={i}">{who}</a></span></strong></div>'
            '<div class="post_content"><div class="post_head"><span class="post_date">02-15-2013, 07:1{i} AM</span>'
            '<span class="postnum"><a href="showthread.php?tid=5&amp;pid={pid}#pid{pid}">#{body}</a></span></div>'
            '<div class="post_body" id="pid_{pid}">vote bob</div></div></div>')
    html = ('<html><head><title>t</title></head><body>' + "".join(
        post.format(pid=900 + i, i=i, who=w, body=n) for i, (w, n) in enumerate([("ann", 11), ("bob", 12)])) +
        '<div id="copyright">Powered By <a href="https://mybb.com">MyBB</a></div></body></html>')
    page = parse_thread_page(profiles["mybb"], html, url="https://f.test/showthread.php?tid=5&page=2",
                             tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.number) for p in page.posts] == [("900", 11), ("901", 12)]


@pytest.mark.parametrize("quote", [
    '<content-quote><b>vote bob</b></content-quote>',
    '<div class="forumQuoter">bob said:</div><div class="forumQuote"><b>vote bob</b></div>',
], ids=["custom-element", "class-in-any-case"])
def test_a_quote_of_an_unknown_engine_is_a_quote(quote):
    shape = ('<div class="msg" id="m{pid}"><a class="name" href="/member.php?u={i}">{who}</a>'
             '<span class="when">{when}</span><div class="text">{body}</div></div>')
    rows = [("ann", "12 March 2020, 21:58", "<b>vote ann</b>"), ("cy", "12 March 2020, 22:04", quote + " I agree.")]
    _, page = _read(f"<html><body>{_posts(rows, shape)}</body></html>")
    assert "vote bob" not in text_without_marks(page.posts[1].html)
    assert 'data-fm="quote"' in page.posts[1].html


def test_a_deleted_posts_bare_anchor_row_is_no_post():
    """A deleted post leaves its anchor row (no author, no date) among the header rows."""
    row = ('<tr><td class="bold"><a name="{pid}"></a><a href="/t#{pid}">Re: Day 1</a> by '
           '<a href="/{who}" class="user">{who}</a>: <span class="s">{when}</span></td></tr>'
           '<tr><td class="body">{body}</td></tr>')
    posts = _posts([("ann", "9:00am On Apr 24, 2020", "vote bob"), ("bob", "10:16am On Apr 24, 2020", "vote ann")], row)
    html = (f"<html><body><div class='body'><table>{posts}<tr><td class='l'><a name='799'></a></td></tr>"
            + _posts([("cy", "10:22am On Apr 24, 2020", "vote ann")], row).replace("700", "702") + "</table></div></body></html>")
    _, page = _read(html)
    assert [(p.post_id, p.author) for p in page.posts] == [("700", "ann"), ("701", "bob"), ("702", "cy")]
