"""Shapes seen on real saved pages of public forums that forummod was not tuned on (the
pages themselves stay out of the repository; each test writes its own minimal markup of the
shape). One test per mechanism, named after the engine and layout."""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import parse_thread_page

NOW = datetime(2014, 8, 1, 12, 0, tzinfo=timezone.utc)

SMF11_BARE_DATE_POST = """<tr><td class="windowbg"><a name="msg{mid}"></a>
<table width="100%" cellpadding="5" cellspacing="0" style="table-layout: fixed;"><tr>
<td valign="top" width="16%" rowspan="2" class="poster_info">
<b><a href="https://f.test/index.php?action=profile;u={uid}" title="View the profile of {who}">{who}</a></b>
<div class="smalltext">Newbie<br />Activity: 1</div></td>
<td valign="top" width="85%" class="td_headerandpost"><table width="100%" border="0"><tr>
<td valign="middle"><div style="font-weight: bold;" class="subject" id="subject_{mid}">
<a href="https://f.test/index.php?topic=14.msg{mid}#msg{mid}">Re: Day 1</a></div>
<div class="smalltext">{when}</div></td></tr></table>
<hr width="100%" size="1" class="hrcolor" /><div class="post">{body}</div></td></tr></table></td></tr>"""


def smf11_bare_date_page() -> str:
    posts = [SMF11_BARE_DATE_POST.format(mid=53, uid=16, who="ann", when="December 12, 2009, 02:11:37 PM",
                                         body="vote bob"),
             SMF11_BARE_DATE_POST.format(mid=56, uid=13, who="bob", when="December 12, 2009, 06:23:59 PM",
                                         body="unvote")]
    return ('<html><head><script type="text/javascript">var smf_theme_url = "https://f.test/Themes/custom1";'
            '</script></head><body><table class="bordercolor">' + "".join(posts) + "</table>"
            '<a href="http://www.simplemachines.org/">Powered by SMF 1.1.19</a></body></html>')


def test_smf11_theme_with_the_bare_date_under_the_subject_is_dated(profiles):
    """bitcointalk.org's SMF 1.1 theme prints "December 12, 2009, 02:11:37 PM" under the
    subject without the default theme's "« Reply #1 on: … »" around it."""
    html = smf11_bare_date_page()
    assert detect_engine(profiles, html) == "smf"
    page = parse_thread_page(profiles["smf"], html, url="https://f.test/index.php?topic=14.0", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("53", "ann"), ("56", "bob")]
    assert [p.created_at.isoformat() for p in page.posts] == ["2009-12-12T14:11:37+00:00", "2009-12-12T18:23:59+00:00"]
    assert not any(p.date_guessed for p in page.posts)


def test_phpbb_zone_title_that_is_no_iana_name_falls_back_to_the_offset_shown():
    """phpBB 3.2 (dostips.com) states `All times are <span title="UTC-6">UTC-06:00</span>`:
    the title is a label of a fixed-offset choice, not an IANA name, so the offset is read."""
    from datetime import timedelta

    from forummod.forum.page_locale import stated_zone

    zone, label = stated_zone('<li class="rightside">All times are <span title="UTC-6">UTC-06:00</span></li>')
    assert zone is not None and zone.utcoffset(None) == -timedelta(hours=6)
    assert label == "UTC-06:00"
    zone, label = stated_zone('<li>All times are <span title="Europe/Paris">UTC+01:00</span></li>')
    assert label == "Europe/Paris"


PROSILVER_POST = """<div id="p{pid}" class="post bg2"><div class="inner"><div class="postbody">
<h3><a href="#p{pid}">Re: Day 2</a></h3>
<p class="author"><a href="./viewtopic.php?p={pid}#p{pid}"><img src="icon_post_target.gif" alt="Post" title="Post" /></a>by
<strong><a href="./memberlist.php?mode=viewprofile&amp;u={uid}">{who}</a></strong> &raquo; Sun May 26, 2019 4:{mm} pm</p>
<div class="content">vote bob</div></div>
<dl class="postprofile" id="profile{pid}"><dt><a href="./memberlist.php?mode=viewprofile&amp;u={uid}">{who}</a></dt></dl>
</div></div>"""


def prosilver_page_two() -> str:
    posts = "".join(PROSILVER_POST.format(pid=900 + i, uid=10 + i, who=f"p{i}", mm=f"{10 + i:02d}") for i in range(3))
    pager = ('<div class="pagination">247 posts &bull; <a href="#">Page <strong>2</strong> of <strong>10</strong></a>'
             ' &bull; <span><a href="./viewtopic.php?f=1&amp;t=5">1</a>, <strong>2</strong>, '
             '<a href="./viewtopic.php?f=1&amp;t=5&amp;start=50">3</a>, '
             '<a href="./viewtopic.php?f=1&amp;t=5&amp;start=75">4</a></span></div>')
    return ('<html><head><meta name="generator" content="phpBB"></head><body id="phpbb">'
            f'<div id="page-body">{pager}{posts}</div><p>Powered by phpBB&reg; Forum Software</p></body></html>')


def test_a_later_page_read_from_a_url_without_the_offset_is_numbered_from_its_page(profiles):
    """A post link (`viewtopic.php?p=N`) or a saved file names no `start=`: the page says it is
    page 2 of 25-post pages, so its first post is #26, not #1."""
    html = prosilver_page_two()
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?p=900", tz=timezone.utc, now=NOW)
    assert page.page == 2
    assert [p.number for p in page.posts] == [26, 27, 28]
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?t=5&start=25",
                             tz=timezone.utc, now=NOW)
    assert [p.number for p in page.posts] == [26, 27, 28]


def test_smf11_current_page_is_the_bold_number_of_the_pages_cell(profiles):
    """SMF 1.1 writes "Pages: 1 <b> ... </b> 620 [<b>621</b>]": a `topic=N.msgM` link says no
    offset, so the bold number is the page (the bold ellipsis is not)."""
    html = smf11_bare_date_page().replace(
        '<table class="bordercolor">',
        '<table><tr><td class="middletext">Pages: <a class="navPages" href="https://f.test/index.php?topic=14.0">1</a>'
        ' <b> ... </b><a class="navPages" href="https://f.test/index.php?topic=14.40">3</a> [<b>4</b>] </td></tr></table>'
        '<table class="bordercolor">')
    page = parse_thread_page(profiles["smf"], html, url="https://f.test/index.php?topic=14.msg53#msg53",
                             tz=timezone.utc, now=NOW)
    assert page.page == 4
    assert [p.number for p in page.posts][0] == 60  # offset 60: SMF prints it "Reply #60" (issue 28, item 10)


def test_posts_a_page_come_from_a_numbered_link_not_the_gap_around_the_current_page(profiles):
    """phpBB's pager on page 5 reads "1 … 4, [5], 6 … 10": offsets 75 and 125 are two pages
    apart, so the smallest gap (50) is not the 25 posts a page that link "4" at 75 states."""
    pager = ('<div class="pagination"><a href="#">Page <strong>5</strong> of <strong>10</strong></a> &bull; <span>'
             '<a href="./viewtopic.php?f=1&amp;t=5">1</a> ... <a href="./viewtopic.php?f=1&amp;t=5&amp;start=75">4</a>, '
             '<strong>5</strong>, <a href="./viewtopic.php?f=1&amp;t=5&amp;start=125">6</a> ... '
             '<a href="./viewtopic.php?f=1&amp;t=5&amp;start=225">10</a></span></div>')
    html = prosilver_page_two().replace(prosilver_page_two()[prosilver_page_two().index('<div class="pagination">'):
                                                             prosilver_page_two().index('</div><div id="p900"') + 6], pager)
    page = parse_thread_page(profiles["phpbb"], html, url="https://f.test/viewtopic.php?p=900", tz=timezone.utc, now=NOW)
    assert (page.page, page.last_page) == (5, 10)
    assert [p.number for p in page.posts] == [101, 102, 103]


VB4_POST = """<li class="postbitlegacy postbitim postcontainer old" id="post_{pid}">
<div class="posthead"><span class="postdate old"><span class="date">06-15-2016,&nbsp;<span class="time">03:03 PM</span></span></span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container">
<a class="username offline popupctrl" href="member.php/{uid}-{who}" title="{who} is offline"><strong>{who}</strong></a>
</div></div><div class="postbody"><div class="postrow"><div class="content"><div id="post_message_{pid}">
<blockquote class="postcontent restore">vote bob</blockquote></div></div></div></div></div></li>"""


def test_vbulletin4_member_id_is_read_from_path_style_friendly_urls(profiles):
    """vBulletin 4's "advanced" friendly URLs link `member.php/13985-Rainmaker` (the basic ones
    `member.php?13985-Rainmaker`): both name the member id."""
    html = ('<html><head><meta name="generator" content="vBulletin 4.2.3" /></head><body><div id="postlist"><ol id="posts">'
            + VB4_POST.format(pid=365266, uid=13985, who="Rainmaker") + VB4_POST.format(pid=365267, uid=15870, who="Mjolnir")
            + "</ol></div></body></html>")
    assert detect_engine(profiles, html) == "vbulletin"
    page = parse_thread_page(profiles["vbulletin"], html, url="https://f.test/showthread.php?t=1", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author, p.author_id) for p in page.posts] == [
        ("365266", "Rainmaker", "13985"), ("365267", "Mjolnir", "15870")]


VB5_POST = """<li data-node-id="{nid}" data-node-publishdate="{ts}" class="b-post js-post b-post--text h-left">
<a id="post{nid}" class="anchor"></a>
<div class="userinfo b-userinfo" itemprop="author"><div class="b-userinfo__details">
<div class="author h-text-size--14"><strong><a href="https://f.test/member/{uid}-{who}"><B>{who}</B></a></strong></div>
<ul><li class="b-userinfo__additional-info"><label>Join Date:</label> <span>May 2011</span></li></ul></div></div>
<div class="b-post__content js-post__content"><div class="b-media">
<a class="b-post__count" href="https://f.test/forum/g/5-game?p={nid}#post{nid}">#{n}</a>
<div class="b-post__timestamp"><time itemprop="dateCreated" datetime="{server}">{shown}</time></div></div>
<div class="js-post__content-text restore h-wordwrap" itemprop="text">{body}</div></div>
<div class="post-signature restore">vote nobody</div></li>"""


def vb5_page() -> str:
    posts = [VB5_POST.format(nid=727744, ts=1554824243, uid=1712, who="Buckeye", n=1, server="2019-04-09T08:37:23",
                             shown="04-09-2019, 10:37 AM", body="Day 1 begins."),
             VB5_POST.format(nid=727754, ts=1554828939, uid=1872, who="Gildor", n=2, server="2019-04-09T09:55:39",
                             shown="04-09-2019, 11:55 AM",
                             body='<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">'
                                  '<div class="bbcode_postedby">Originally Posted by <strong>Buckeye</strong></div>'
                                  '<div class="message">vote Gildor</div></div></div></div>vote Buckeye')]
    return ('<html><head><meta name="generator" content="vBulletin 5.5.2" /></head><body>'
            '<ul class="conversation-list">' + "".join(posts) + "</ul>"
            '<div class="footer">All times are GMT-5. This page was generated at 12:11 AM.</div></body></html>')


def test_vbulletin5_posts_are_read_with_their_unix_publish_time(profiles):
    """vBulletin 5 writes one `li.b-post` a post: the node id is the post id, `#2` its number,
    and `data-node-publishdate` the Unix time (its `<time datetime>` carries no offset and is
    in the server's zone: 09:55 for a post shown 11:55 AM at GMT-5, i.e. 16:55 UTC)."""
    html = vb5_page()
    assert detect_engine(profiles, html) == "vbulletin"
    page = parse_thread_page(profiles["vbulletin"], html, url="https://f.test/forum/g/5-game", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.number, p.author, p.author_id) for p in page.posts] == [
        ("727744", 1, "Buckeye", "1712"), ("727754", 2, "Gildor", "1872")]
    assert [p.created_at.isoformat() for p in page.posts] == ["2019-04-09T15:37:23+00:00", "2019-04-09T16:55:39+00:00"]
    assert 'data-fm="quote"' in page.posts[1].html and "vote nobody" not in page.posts[1].html


NODEBB_POST = """<li component="post" data-index="{i}" data-pid="{pid}" data-uid="{uid}" data-timestamp="{ts}"
 data-username="{who}" data-userslug="{slug}" itemscope itemtype="http://schema.org/Comment">
<div class="clearfix post-header"><div class="icon pull-left"><a href="/user/{slug}">
<div component="user/picture" class="user-icon" style="background-color: #e91e63;">{letter}</div></a></div>
<small class="pull-left"><strong><a href="/user/{slug}" itemprop="author">{who}</a></strong>
<a class="permalink" href="/post/{pid}"><span class="timeago" title="{iso}"></span></a></small></div>
<div class="content" component="post/content" itemprop="text"><p>{body}</p></div></li>"""


def test_structural_fallback_takes_ids_and_names_from_the_blocks_own_data_attributes():
    """A NodeBB-like page (no profile): every post block carries `data-pid`, `data-username` and
    `data-uid`. The first link of a block is an avatar showing one letter ("F") and the
    numbered attribute `data-index` is a position: the block's own attributes say better."""
    from forummod.forum.html_engine import parse_html
    from forummod.forum.structural import infer_structure

    rows = [(0, 73812, 15372, "youhosi", "2019-03-24T19:54:11.505Z", 1553457251505, "vote fgallese"),
            (1, 73814, 6258, "MJ", "2019-03-24T22:05:33.393Z", 1553465133393, "hi"),
            (2, 73816, 10310, "fgallese", "2019-03-25T09:31:14.663Z", 1553506274663, "vote MJ")]
    html = ("<html><body><ul component=\"topic\">" + "".join(
        NODEBB_POST.format(i=i, pid=pid, uid=uid, who=who, slug=who.lower(), letter=who[0].upper(), iso=iso, ts=ts,
                           body=body) for i, pid, uid, who, iso, ts, body in rows) + "</ul></body></html>")
    prof = infer_structure(parse_html(html), url="https://f.test/topic/1").profile()
    page = parse_thread_page(prof, html, url="https://f.test/topic/1", tz=timezone.utc, now=NOW.replace(year=2020))
    assert [(p.post_id, p.author, p.author_id) for p in page.posts] == [
        ("73812", "youhosi", "15372"), ("73814", "MJ", "6258"), ("73816", "fgallese", "10310")]


MYBB_SEO_POST = """<div class="post classic" id="post_{pid}"><div class="post_author">
<div class="author_information"><strong><span class="largetext postbit_username">
<a href="https://f.test/User-{slug}"><span style="color: #934afa;">{who}</span></a></span></strong></div></div>
<div class="post_content"><div class="post_head"><span class="post_date">02-15-2013, 07:{mm} AM</span></div>
<div class="post_body scaleimages" id="pid_{pid}">vote bob</div></div>
<div class="post_controls"><div class="postbit_buttons author_buttons">
<a href="search.php?action=finduser&amp;uid={uid}" title="Find all posts by this user" class="postbit_find"><span>Find</span></a>
</div></div></div>"""


def test_mybb_author_id_comes_from_the_post_buttons_when_seo_urls_name_the_profile(profiles):
    """With an SEO plugin MyBB links `User-The-High-Roller` (no uid): the post's own "Find"
    button (`search.php?action=finduser&uid=13`) still names the author's id."""
    html = ('<html><head><script type="text/javascript" src="jscripts/general.js?ver=1813"></script></head><body>'
            '<div id="posts">' + MYBB_SEO_POST.format(pid=29444, slug="The-High-Roller", who="The High Roller", uid=13, mm="07")
            + MYBB_SEO_POST.format(pid=29446, slug="shizelkid", who="shizelkid", uid=378, mm="23")
            + '</div><div id="copyright">Powered By <a href="https://mybb.com">MyBB</a></div></body></html>')
    assert detect_engine(profiles, html) == "mybb"
    page = parse_thread_page(profiles["mybb"], html, url="https://f.test/Thread-Game", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author, p.author_id) for p in page.posts] == [
        ("29444", "The High Roller", "13"), ("29446", "shizelkid", "378")]


IPS4_COMMENT = """<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent ipsClearfix">
<aside class="ipsComment_author cAuthorPane"><h3 class="ipsType_sectionHead cAuthorPane_author">
<strong><a href="https://f.test/profile/{uid}-{who}/" class="ipsType_break">{who}</a></strong></h3></aside>
<div class="ipsColumn ipsColumn_fluid"><div id="comment-{cid}_wrap" data-controller="core.front.core.comment"
 data-commentid="{cid}" data-quotedata="{{&quot;userid&quot;:{uid},&quot;username&quot;:&quot;{who}&quot;}}"
 class="ipsComment_content ipsType_medium"><div class="ipsComment_meta ipsType_light"><p class="ipsType_reset">
<a href="https://f.test/topic/5/?do=findComment&amp;comment={cid}" class="ipsType_blendLinks">Posted
<time datetime="{iso}" title="x" data-short="2 yr">x</time></a></p></div>
<div class="cPost_contentWrap ipsPad"><div data-role="commentContent" class="ipsType_normal ipsType_richText">
<p>vote bob</p></div></div></div></div></article>"""


def test_invision4_later_page_is_numbered_from_the_posts_a_page_it_states(profiles):
    """IPS 4 shows no post numbers; its pager says `data-ipsPagination-perPage='25'`, so the
    first post of page 3 is #51."""
    pager = ("<ul class='ipsPagination' data-ipsPagination-pages=\"4\" data-ipsPagination-perPage='25'>"
             "<li class='ipsPagination_page'><a href='https://f.test/topic/5/?page=2' data-page='2'>2</a></li>"
             "<li class='ipsPagination_page ipsPagination_active'><a href='https://f.test/topic/5/?page=3' data-page='3'>3</a></li>"
             "<li class='ipsPagination_page'><a href='https://f.test/topic/5/?page=4' data-page='4'>4</a></li></ul>")
    html = ('<html><head><script>var ipsDebug = false;</script></head><body class="ipsApp">' + pager
            + IPS4_COMMENT.format(cid=807329, uid=72859, who="ann", iso="2017-09-28T09:46:45Z")
            + IPS4_COMMENT.format(cid=828014, uid=50106, who="bob", iso="2017-11-27T05:51:25Z")
            + '<p>Powered by Invision Community</p></body></html>')
    assert detect_engine(profiles, html) == "invision"
    page = parse_thread_page(profiles["invision"], html, url="https://f.test/topic/5/?page=3", tz=timezone.utc, now=NOW.replace(year=2018))
    assert page.page == 3
    assert [(p.post_id, p.number) for p in page.posts] == [("807329", 51), ("828014", 52)]
