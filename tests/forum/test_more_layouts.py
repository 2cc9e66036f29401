"""Layouts of issue 16 item 5 for which the corpus holds no real page, written from the
engines' own templates (phpBB 3.0 subsilver2 `viewtopic_body.html`, vBulletin 4.2.5 postbit
user stats, XenForo 1 `message_user_info`). adapters/README.md says so; real pages of these
kinds should replace them in ../shared/corpus."""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import parse_thread_page, text_without_marks

NOW = datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)

SUBSILVER2_POST = """<tr class="row{r}">
<td align="center" valign="middle"><a name="p{pid}"></a><b class="postauthor">{who}</b></td>
<td width="100%" height="25"><table width="100%" cellspacing="0"><tr>
<td class="gensmall" width="100%"><div style="float: left;">&nbsp;<b>Post subject:</b> <a href="#p{pid}">Re: Game</a></div>
<div style="float: right;"><a href="./viewtopic.php?p={pid}#p{pid}"><img src="icon_post_target.gif" alt="Post" /></a><b>Posted:</b> {when}&nbsp;</div></td>
</tr></table></td></tr>
<tr class="row{r}"><td valign="top" class="profile"><table cellspacing="4" align="center" width="150"><tr>
<td><a href="./memberlist.php?mode=viewprofile&amp;u={uid}"><img src="avatar.png" alt="" /></a></td></tr></table>
<span class="postdetails"><b>Joined:</b> Sun Jan 06, 2008 4:15 pm<br /><b>Posts:</b> 12</span></td>
<td valign="top"><table width="100%" cellspacing="5"><tr><td><div class="postbody">{body}</div>
<br clear="all" /><br /></td></tr></table></td></tr>
<tr><td class="spacer" colspan="2" height="1"><img src="spacer.gif" alt="" width="1" height="1" /></td></tr>"""


def subsilver2_page() -> str:
    posts = [SUBSILVER2_POST.format(r=1, pid=101, who="ann", uid=2, when="Sun Jul 28, 2013 1:34 pm",
                                    body="I vote <b>bob</b>"),
             SUBSILVER2_POST.format(r=2, pid=102, who="bob", uid=3, when="Sun Jul 28, 2013 2:10 pm",
                                    body='<div class="quotetitle">ann wrote:</div><div class="quotecontent">I vote bob</div>'
                                         "no, vote ann")]
    return ("<html><head><meta name='generator' content='phpBB 3.0'></head><body>"
            '<table class="tablebg" width="100%" cellspacing="1">' + "".join(posts) + "</table>"
            "<p>Powered by phpBB &copy; 2000, 2002, 2005, 2007 phpBB Group</p></body></html>")


def test_phpbb30_subsilver2_rows_are_read_as_posts(profiles):
    html = subsilver2_page()
    assert detect_engine(profiles, html) == "phpbb"
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("101", "ann"), ("102", "bob")]
    assert [p.created_at.strftime("%H:%M") for p in page.posts] == ["13:34", "14:10"]  # not the Joined: date
    assert text_without_marks(page.posts[0].html) == "I vote bob"
    assert text_without_marks(page.posts[1].html) == "no, vote ann"  # the quote is marked


def test_customised_phpbb31_style_without_the_post_class_is_read(profiles):
    post = ('<div id="p{pid}" class="clearfix"><div class="postbody"><p class="author">by <a class="username" '
            'href="./memberlist.php?mode=viewprofile&amp;u={uid}">{who}</a> » <time datetime="2017-03-0{d}T10:00:00+00:00">'
            'x</time></p><div class="content">hello {who}</div></div></div>')
    html = ("<html><body id='phpbb'><div id='page-body'>" + post.format(pid=7, uid=2, who="ann", d=1)
            + post.format(pid=8, uid=3, who="bob", d=2) + "</div></body></html>")
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author, p.author_id, p.created_at.day) for p in page.posts] == \
        [("7", "ann", "2", 1), ("8", "bob", "3", 2)]


def test_vbulletin4_date_shown_only_among_the_user_stats_is_read_but_not_the_join_date(profiles):
    post = ('<li class="postbit postbitim postcontainer" id="post_{pid}"><div class="postdetails"><div class="userinfo">'
            '<a class="username" href="member.php?{uid}-{who}"><strong>{who}</strong></a><dl class="userstats">'
            '<dt>Registriert seit</dt><dd>03.2009</dd><dt>Beiträge</dt><dd>{when}</dd></dl></div>'
            '<div class="postbody"><div class="content"><blockquote class="postcontent restore">hi</blockquote>'
            '</div></div></div></li>')
    html = ('<html lang="de"><head><meta name="generator" content="vBulletin 4.2.5"></head><body><ol id="posts">'
            + post.format(pid=11, uid=5, who="ann", when="03.03.2011, 14:17")
            + post.format(pid=12, uid=6, who="bob", when="04.03.2011, 09:05") + "</ol></body></html>")
    page = parse_thread_page(profiles["vbulletin"], html, url="https://f.test/showthread.php?t=5", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("11", "ann"), ("12", "bob")]
    assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == ["2011-03-03 14:17", "2011-03-04 09:05"]


def test_xenforo1_plain_text_date_in_the_user_block_is_read(profiles):
    post = ('<li id="post-{pid}" class="message" data-author="{who}"><div class="messageUserInfo"><div class="messageUserBlock">'
            '<h3 class="userText"><a class="username" href="members/{who}.{pid}/">{who}</a>'
            '<small><span>{when}</span></small></h3></div></div><div class="messageInfo primaryContent">'
            '<div class="messageContent"><article><blockquote class="messageText">hi</blockquote></article></div>'
            '</div></li>')
    html = ('<html lang="de"><body><ol class="messageList" id="messageList">'
            + post.format(pid=31, who="ann", when="13.01.2020, 10:47")
            + post.format(pid=32, who="bob", when="14.01.2020, 08:00") + "</ol></body></html>")
    page = parse_thread_page(profiles["xenforo"], html, url="https://f.test/threads/x.5/", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("31", "ann"), ("32", "bob")]
    assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == ["2020-01-13 10:47", "2020-01-14 08:00"]
    assert not any(p.date_guessed for p in page.posts)


def test_vbulletin4_user_stats_date_may_be_relative_and_french(profiles):
    post = ('<li class="postbit postbitim postcontainer" id="post_{pid}"><div class="postdetails"><div class="userinfo">'
            '<a class="username" href="member.php?{uid}-{who}"><strong>{who}</strong></a><dl class="userstats">'
            '<dt>Inscrit</dt><dd>mars 2009</dd><dt>Messages</dt><dd>{when}</dd></dl></div>'
            '<div class="postbody"><div class="content"><blockquote class="postcontent restore">hi</blockquote>'
            '</div></div></div></li>')
    html = ('<html lang="fr"><head><meta name="generator" content="vBulletin 4.2.5"></head><body><ol id="posts">'
            + post.format(pid=11, uid=5, who="ann", when="04/02/2005, 12h25")
            + post.format(pid=12, uid=6, who="bob", when="Aujourd'hui, 10h47")
            + "</ol><div id='footer_time'>Fuseau horaire GMT +1. Il est actuellement 13h00.</div></body></html>")
    page = parse_thread_page(profiles["vbulletin"], html, url="https://f.test/showthread.php?t=5", tz=timezone.utc, now=NOW)
    assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == ["2005-02-04 11:25", "2020-09-01 09:47"]
    assert not any(p.date_guessed for p in page.posts)


def test_xenforo1_plain_text_date_may_be_a_relative_day_or_a_date_without_time(profiles):
    post = ('<li id="post-{pid}" class="message" data-author="{who}"><div class="messageUserInfo"><div class="messageUserBlock">'
            '<h3 class="userText"><a class="username" href="members/{who}.{pid}/">{who}</a>'
            '<small><span>{when}</span></small></h3></div></div><div class="messageInfo primaryContent">'
            '<div class="messageContent"><article><blockquote class="messageText">hi</blockquote></article></div>'
            '</div></li>')
    for lang, yesterday, today, old in (("nl", "gisteren om 14:05", "Vandaag om 10:47", "12 mrt 2020"),
                                        ("ru", "Вчера, 14:05", "Сегодня, 10:47", "12 мар 2020")):
        html = (f'<html lang="{lang}"><body><ol class="messageList" id="messageList">'
                + post.format(pid=31, who="ann", when=old) + post.format(pid=32, who="bob", when=yesterday)
                + post.format(pid=33, who="cy", when=today) + "</ol></body></html>")
        page = parse_thread_page(profiles["xenforo"], html, url="https://f.test/threads/x.5/", tz=timezone.utc, now=NOW)
        assert [p.created_at.strftime("%Y-%m-%d %H:%M") for p in page.posts] == \
            ["2020-03-12 00:00", "2020-08-31 14:05", "2020-09-01 10:47"], lang
        assert not any(p.date_guessed for p in page.posts)
