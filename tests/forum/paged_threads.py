"""Thread pages of every HTML engine with a second page list before the thread's own (issue 34, item 0).

Made by us for tests from each engine's documented templates (no third-party content): a game
thread of `pages` pages with its own page list, and, before it, the page list of something else
as real boards show it: MyBB's hidden breadcrumb menu of the board's pages, a "latest topics"
box paging the board, a "similar topics" row paging another thread. Every list uses the
engine's own pagination markup, so the profile's selectors find both.

`ENGINES[name].page(n, pages, decoy=...)` is page `n`; `thread_url(n)` its address;
`board_url(n)` / `other_url(n)` the pages the decoy list links.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable

BASE = "https://forum.test/"
START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
BOARD_PAGES = 7  # the board's list says "page 5 of 7": a parser that reads it goes wrong visibly
BOARD_CURRENT = 5

Url = Callable[[int], str]


def _when(i: int) -> datetime:
    return START + timedelta(minutes=7 * i)


def _e(url: str) -> str:
    return url.replace("&", "&amp;")


# ------------------------------------------------------------------ page lists, one per engine


def _phpbb_list(pages: int, cur: int, url: Url) -> str:
    items = "\n".join(f'<li class="active"><span>{n}</span></li>' if n == cur else
                      f'<li><a class="button" href="{_e(url(n))}" role="button">{n}</a></li>' for n in range(1, pages + 1))
    nxt = (f'<li class="arrow next"><a class="button button-icon-only" href="{_e(url(cur + 1))}" rel="next" '
           f'role="button"><span class="sr-only">Next</span></a></li>') if cur < pages else ""
    return (f'<div class="pagination">{pages * 10} posts &bull; <ul><li class="dropdown-container page-jump">'
            f'<a class="button button-icon-only dropdown-trigger" href="#" role="button"><span class="sr-only">Page '
            f'<strong>{cur}</strong> of <strong>{pages}</strong></span></a></li>\n{items}\n{nxt}</ul></div>')


def _mybb_list(pages: int, cur: int, url: Url) -> str:
    parts = []
    if cur > 1:
        parts.append(f'<a href="{_e(url(cur - 1))}" class="pagination_previous">&laquo; Previous</a>')
    for n in range(1, pages + 1):
        parts.append(f' <span class="pagination_current">{n}</span>' if n == cur else
                     f'<a href="{_e(url(n))}" class="pagination_page">{n}</a>')
    if cur < pages:
        parts.append(f'<a href="{_e(url(cur + 1))}" class="pagination_next">Next &raquo;</a>')
    return f'<div class="pagination"><span class="pages">Pages ({pages}):</span>{"".join(parts)}</div>'


def _smf_list(pages: int, cur: int, url: Url) -> str:
    parts = [f'<a class="nav_page" href="{_e(url(cur - 1))}"><span class="main_icons previous_page"></span></a> '
             if cur > 1 else ""]
    for n in range(1, pages + 1):
        parts.append(f'<span class="current_page">{n}</span> ' if n == cur else f'<a class="nav_page" href="{_e(url(n))}">{n}</a> ')
    if cur < pages:
        parts.append(f'<a class="nav_page" href="{_e(url(cur + 1))}"><span class="main_icons next_page"></span></a>')
    return f'<div class="pagesection"><div class="pagelinks floatleft"><span class="pages">Pages</span>{"".join(parts)}</div></div>'


def _vb_list(pages: int, cur: int, url: Url) -> str:
    cells = [f'<td class="vbmenu_control" style="font-weight:normal">Page {cur} of {pages}</td>']
    for n in range(1, pages + 1):
        cells.append(f'<td class="alt2"><span class="smallfont"><strong>{n}</strong></span></td>' if n == cur else
                     f'<td class="alt1"><a class="smallfont" href="{_e(url(n))}">{n}</a></td>')
    if cur < pages:
        cells.append(f'<td class="alt1"><a rel="next" class="smallfont" href="{_e(url(cur + 1))}" title="Next Page">&gt;</a></td>')
    return f'<div class="pagenav" align="right"><table class="tborder"><tr>{"".join(cells)}</tr></table></div>'


def _xf_list(pages: int, cur: int, url: Url) -> str:
    items = "".join(f'<li class="pageNav-page{" pageNav-page--current" if n == cur else ""}"><a href="{_e(url(n))}">{n}</a></li>'
                    for n in range(1, pages + 1))
    nxt = f'<a href="{_e(url(cur + 1))}" class="pageNav-jump pageNav-jump--next">Next</a>' if cur < pages else ""
    return f'<nav class="pageNavWrapper pageNavWrapper--mixed"><div class="pageNav"><ul class="pageNav-main">{items}</ul>{nxt}</div></nav>'


def _ips_list(pages: int, cur: int, url: Url) -> str:
    items = "".join(f'<li class="ipsPagination_page{" ipsPagination_active" if n == cur else ""}">'
                    f'<a href="{_e(url(n))}" data-page="{n}">{n}</a></li>' for n in range(1, pages + 1))
    nxt = (f'<li class="ipsPagination_next"><a href="{_e(url(cur + 1))}" rel="next" data-page="{cur + 1}">Next</a></li>'
           if cur < pages else '<li class="ipsPagination_next ipsPagination_inactive"><a href="#">Next</a></li>')
    return (f'<ul class="ipsPagination" data-ipsPagination-current="{cur}" data-ipsPagination-pages="{pages}" '
            f'data-ipsPagination-perPage="10">{items}{nxt}<li class="ipsPagination_last"><a href="{_e(url(pages))}" '
            f'data-page="{pages}">Last</a></li></ul>')


def _discourse_list(pages: int, cur: int, url: Url) -> str:
    prev = f'<span itemprop="name"><a rel="prev" itemprop="url" href="{_e(url(cur - 1))}">&larr; previous page</a></span>' \
        if cur > 1 else ""
    nxt = f'<span itemprop="name"><b><a rel="next" itemprop="url" href="{_e(url(cur + 1))}">next page &rarr;</a></b></span>' \
        if cur < pages else ""
    return f'<div role="navigation" itemscope itemtype="http://schema.org/SiteNavigationElement" class="topic-body crawler-post">{prev}{nxt}</div>'


def _flux_list(pages: int, cur: int, url: Url) -> str:
    parts = [f'<strong class="item1">{n}</strong> ' if n == cur else f'<a href="{_e(url(n))}">{n}</a> ' for n in range(1, pages + 1)]
    if cur < pages:
        parts.append(f'<a rel="next" href="{_e(url(cur + 1))}">Next</a>')
    return f'<div class="pagepost"><p class="pagelink conl"><span class="pages-label">Pages: </span>{"".join(parts)}</p></div>'


def _vanilla_list(pages: int, cur: int, url: Url) -> str:
    parts = [f'<a href="{_e(url(n))}" class="{"Highlight" if n == cur else "Pager-p"}">{n}</a>' for n in range(1, pages + 1)]
    if cur < pages:
        parts.append(f'<a href="{_e(url(cur + 1))}" class="Next" rel="next">&raquo;</a>')
    return f'<div class="Pager NumberedPager">{"".join(parts)}</div>'


def _flaskbb_list(pages: int, cur: int, url: Url) -> str:
    items = "".join(f'<li class="page-item{" active" if n == cur else ""}"><a class="page-link" href="{_e(url(n))}">{n}</a></li>'
                    for n in range(1, pages + 1))
    return f'<ul class="pagination pagination-sm">{items}</ul>'


def _spirit_list(pages: int, cur: int, url: Url) -> str:
    items = "".join(f'<li><a href="{_e(url(n))}">{n}</a></li>' for n in range(1, pages + 1) if n != cur)
    return f'<ul class="paginator"><li class="paginator__pages">{cur} of {pages}</li>{items}</ul>'


def _discuz_list(pages: int, cur: int, url: Url) -> str:
    parts = [f'<strong>{n}</strong>' if n == cur else f'<a href="{_e(url(n))}">{n}</a>' for n in range(1, pages + 1)]
    nxt = f'<a href="{_e(url(cur + 1))}" class="nxt">下一页</a>' if cur < pages else ""
    return (f'<div class="pg">{"".join(parts)}<label><input type="text" name="custompage" class="px" size="2" value="{cur}">'
            f'<span title="共 {pages} 页"> / {pages} 页</span></label>{nxt}</div>')


def _ff_list(pages: int, cur: int, url: Url) -> str:
    items = "".join(f'<li class="current">{n}</li>' if n == cur else f'<li><a href="{_e(url(n))}">{n}</a></li>'
                    for n in range(1, pages + 1))
    nxt = f'<li class="next"><a href="{_e(url(cur + 1))}">&raquo;</a></li>' if cur < pages else ""
    return f'<ul class="jump">{items}{nxt}</ul>'


# ------------------------------------------------------------------ posts, one per engine


def _phpbb_post(i: int) -> str:
    pid, when = 1000 + i, _when(i)
    return (f'<div id="p{pid}" class="post has-profile bg2"><div class="inner"><dl class="postprofile" id="profile{pid}">'
            f'<dt><a href="./memberlist.php?mode=viewprofile&amp;u={i % 5 + 2}" class="username">player{i % 5}</a></dt></dl>'
            f'<div class="postbody"><div id="post_content{pid}"><h3><a href="#p{pid}">Re: Game</a></h3>'
            f'<p class="author"><a href="./viewtopic.php?p={pid}#p{pid}"><span class="imageset icon_post_target">Post</span></a>'
            f'<span class="responsive-hide">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u={i % 5 + 2}" '
            f'class="username">player{i % 5}</a></strong> &raquo; </span><time datetime="{when.isoformat()}">'
            f'{when:%a %b %d, %Y %I:%M %p}</time></p><div class="content">post {i}</div></div></div></div></div>')


def _mybb_post(i: int) -> str:
    pid, when = 2000 + i, _when(i)
    return (f'<div class="post " style="" id="post_{pid}"><div class="post_author"><div class="author_information">'
            f'<strong><span class="largetext"><a href="member.php?action=profile&amp;uid={i % 5 + 2}">player{i % 5}</a>'
            f'</span></strong></div></div><div class="post_content"><div class="post_head"><div class="float_right" '
            f'style="vertical-align: top"><strong><a href="showthread.php?tid=7&amp;pid={pid}#pid{pid}">#{i}</a></strong>'
            f'</div><span class="post_date">{when:%m-%d-%Y, %I:%M %p}</span></div><div class="post_body scaleimages" '
            f'id="pid_{pid}">post {i}</div></div></div>')


def _smf_post(i: int) -> str:
    mid, when = 3000 + i, _when(i)
    return (f'<div class="windowbg" id="msg{mid}"><div class="post_wrapper"><div class="poster"><h4>'
            f'<a href="index.php?action=profile;u={i % 5 + 2}" title="View the profile of player{i % 5}">player{i % 5}</a>'
            f'</h4></div><div class="postarea"><div class="keyinfo"><div id="subject_{mid}" class="subject_title">'
            f'<a href="index.php?msg={mid}">Re: Game</a></div><a href="index.php?topic=7.msg{mid}#msg{mid}" '
            f'class="smalltext">{when:%B %d, %Y, %I:%M:%S %p}</a></div><div class="post"><div class="inner" '
            f'data-msgid="{mid}" id="msg_{mid}">post {i}</div></div></div></div></div>')


def _vb_post(i: int) -> str:
    pid, when = 4000 + i, _when(i)
    return (f'<table class="tborder" id="post{pid}" cellpadding="6" cellspacing="0" border="0" width="100%"><tr>'
            f'<td class="thead">{when:%m-%d-%Y, %I:%M %p}</td><td class="thead" align="right">#<a href="showpost.php?p={pid}" '
            f'id="postcount{pid}" name="{i}"><strong>{i}</strong></a></td></tr><tr><td class="alt2"><div id="postmenu_{pid}">'
            f'<a class="bigusername" href="member.php?u={i % 5 + 2}">player{i % 5}</a></div></td><td class="alt1">'
            f'<div id="post_message_{pid}">post {i}</div></td></tr></table>')


def _xf_post(i: int) -> str:
    pid, when = 5000 + i, _when(i)
    return (f'<article class="message message--post" data-author="player{i % 5}" data-content="post-{pid}" id="js-post-{pid}">'
            f'<div class="message-inner"><div class="message-cell message-cell--main"><header class="message-attribution">'
            f'<a href="/threads/game.7/post-{pid}"><time class="u-dt" datetime="{when.isoformat()}" '
            f'data-time="{int(when.timestamp())}">{when:%b %d, %Y}</time></a></header><div class="message-content">'
            f'<div class="message-userContent"><article class="message-body"><div class="bbWrapper">post {i}</div></article>'
            f'</div></div></div></div></article>')


def _ips_post(i: int) -> str:
    cid, when = 6000 + i, _when(i)
    return (f'<article id="elComment_{cid}" class="cPost ipsBox ipsComment ipsComment_parent ipsClearfix">'
            f'<aside class="ipsComment_author cAuthorPane"><h3 class="ipsType_sectionHead cAuthorPane_author">'
            f'<strong><a href="https://forum.test/profile/{i % 5 + 2}-player{i % 5}/">player{i % 5}</a></strong></h3></aside>'
            f'<div class="ipsColumn ipsColumn_fluid"><div class="ipsComment_content ipsType_medium"><div class="ipsComment_meta '
            f'ipsType_light"><p class="ipsType_reset"><a href="?do=findComment&amp;comment={cid}"><time datetime="'
            f'{when.isoformat()}" title="x">{when:%B %d, %Y}</time></a></p></div><div data-role="commentContent" '
            f'class="ipsType_normal ipsType_richText">post {i}</div></div></div></article>')


def _discourse_post(i: int) -> str:
    when = _when(i)
    return (f'<div id="post_{i}" itemprop="comment" itemscope itemtype="http://schema.org/Comment" class="topic-body crawler-post">'
            f'<div class="crawler-post-meta"><span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person">'
            f'<a itemprop="url" href="/u/player{i % 5}"><span itemprop="name">player{i % 5}</span></a></span>'
            f'<span class="crawler-post-infos"><time itemprop="datePublished" datetime="{when.isoformat()}" class="post-time">'
            f'{when:%B %d, %Y, %I:%M%p}</time><meta itemprop="datePublished" content="{when.isoformat()}">'
            f'<span itemprop="position">{i}</span></span></div><div class="post" itemprop="articleBody">post {i}</div></div>')


def _flux_post(i: int) -> str:
    pid, when = 7000 + i, _when(i)
    return (f'<div id="p{pid}" class="blockpost rowodd"><h2><span><span class="conr">#{i}</span> '
            f'<a href="viewtopic.php?pid={pid}#p{pid}">{when:%Y-%m-%d %H:%M:%S}</a></span></h2><div class="box"><div '
            f'class="inbox"><div class="postbody"><div class="postleft"><dl><dt><strong><a href="profile.php?id={i % 5 + 2}">'
            f'player{i % 5}</a></strong></dt></dl></div><div class="postright"><div class="postmsg"><p>post {i}</p></div>'
            f'</div></div></div></div></div>')


def _vanilla_post(i: int) -> str:
    cid, when = 8000 + i, _when(i)
    return (f'<li class="Item ItemComment" id="Comment_{cid}"><div class="Comment"><div class="Item-Header CommentHeader">'
            f'<div class="AuthorWrap"><span class="Author"><a href="/profile/player{i % 5}" class="Username">player{i % 5}</a>'
            f'</span></div><div class="Meta CommentMeta CommentInfo"><span class="MItem DateCreated"><a href="/discussion/'
            f'comment/{cid}#Comment_{cid}" class="Permalink"><time title="x" datetime="{when.isoformat()}">'
            f'{when:%B %d}</time></a></span></div></div><div class="Item-BodyWrap"><div class="Item-Body"><div '
            f'class="Message userContent">post {i}</div></div></div></div></li>')


def _flaskbb_post(i: int) -> str:
    pid, when = 100 + i, _when(i)
    return (f'<div class="row post-row clearfix" id="{pid}"><div class="author col-md-2 col-sm-3 col-xs-12"><div '
            f'class="author-name"><h4><a href="/user/player{i % 5}">player{i % 5}</a></h4></div></div><div class="col-md-10 '
            f'col-sm-9 col-xs-12 post-box"><div class="post-meta clearfix"><div class="pull-left"><a href="/post/{pid}">'
            f'<time datetime="{when.isoformat()}">{when:%d.%m.%Y %H:%M}</time></a></div><div class="pull-right">'
            f'<strong>#{i}</strong></div></div><div class="post-content clearfix" id="pid{pid}">post {i}</div></div></div>')


def _spirit_post(i: int) -> str:
    pk, when = 200 + i, _when(i)
    return (f'<div class="comments_list__comment" id="c{pk}" data-pk="{pk}" data-number="{i}"><div class="comment">'
            f'<div class="comment__info"><a class="comment__info__username__link" href="/user/{i % 5 + 2}/player{i % 5}/">'
            f'<span>player{i % 5}</span></a><ul class="comment__info__date"><li title="{when.isoformat()}">'
            f'{when:%b %d, %Y}</li></ul></div><div class="comment__text">post {i}</div></div></div>')


def _discuz_post(i: int) -> str:
    pid, when = 9000 + i, _when(i) + timedelta(hours=8)
    return (f'<div id="post_{pid}"><table id="pid{pid}" class="plhin" summary="pid{pid}" cellspacing="0" cellpadding="0">'
            f'<tr><td class="pls" rowspan="2"><div class="pi"><div class="authi"><a href="home.php?mod=space&amp;uid='
            f'{i % 5 + 2}" class="xw1">player{i % 5}</a></div></div></td><td class="plc"><div class="pi"><strong>'
            f'<a href="forum.php?mod=redirect&amp;goto=findpost&amp;ptid=7&amp;pid={pid}" id="postnum{pid}"><em>{i}</em>'
            f'</a></strong><div class="pti"><div class="authi"><em id="authorposton{pid}">发表于 {when.year}-{when.month}-'
            f'{when.day} {when:%H:%M}</em></div></div></div><div class="pct"><div class="t_fsz"><table cellspacing="0" '
            f'cellpadding="0"><tr><td class="t_f" id="postmessage_{pid}">post {i}</td></tr></table></div></div></td></tr>'
            f'</table></div>')


def _ff_post(i: int) -> str:
    pid = 600000 + i
    when = _when(i).astimezone(timezone(timedelta(hours=1)))
    return (f'<a id="entry{pid}"></a><div class="post" id="ee{pid}"><table class="color"><tr><td class="left Item">'
            f'<span class="nick"><a href="?act=Profile&amp;MID={i % 5 + 500}">player{i % 5}</a></span></td>'
            f'<td class="right Item"><div class="title2 top"><span class="when">{when:%d/%m/%Y, %H:%M}</span></div>'
            f'<table class="color"><tr><td class="Item">post {i}</td></tr></table></td></tr></table></div>')


# ------------------------------------------------------------------ whole pages


@dataclass(frozen=True)
class PagedEngine:
    """One engine's thread pages: addresses, posts, page lists and the page around them."""

    name: str
    thread_url: Url
    board_url: Url
    other_url: Url  # pages of another thread (a "similar topics" row)
    post: Callable[[int], str]
    page_list: Callable[[int, int, Url], str]
    per_page: int = 10
    head: str = ""
    before_posts: str = ""  # around the posts: "<div id=posts>", ...
    after_posts: str = ""
    board_box: Callable[[str], str] = lambda inner: f'<div class="sidebar-latest"><h3>Latest topics</h3>{inner}</div>'
    title: str = '<h1 class="topic">Game</h1>'

    def decoy_list(self, decoy: str) -> str:
        """The other page list the page shows before the thread's: the board's or another thread's."""
        if decoy == "board":
            return self.board_box(self.page_list(BOARD_PAGES, BOARD_CURRENT, self.board_url))
        if decoy == "other":
            return self.board_box(self.page_list(BOARD_PAGES, BOARD_CURRENT, self.other_url))
        return ""

    def page(self, n: int, pages: int, *, decoy: str = "board", posts_total: int | None = None) -> str:
        total = posts_total if posts_total is not None else pages * self.per_page
        first = (n - 1) * self.per_page + 1
        posts = "".join(self.post(i) for i in range(first, min(total, first + self.per_page - 1) + 1))
        own = self.page_list(pages, n, self.thread_url) if pages > 1 else ""
        return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Game - Mafia board</title>{self.head}</head>'
                f'<body>{self.decoy_list(decoy)}{self.title}{own}{self.before_posts}{posts}'
                f'{self.after_posts}{own}</body></html>')


def _mybb_box(inner: str) -> str:
    """MyBB's breadcrumb: the board's pages in a hidden menu beside the board's link (templates
    nav_dropdown and multipage_breadcrumb)."""
    return (f'<div class="navigation"><a href="{BASE}index.php">Forum</a> &rsaquo; <a href="{BASE}forumdisplay.php?fid=2">'
            f'Mafia</a><img src="images/arrow_down.png" alt="v" class="pagination_breadcrumb_link" id="breadcrumb_multipage" />'
            f'{inner}<br /><img src="images/nav_bit.png" alt="" /><span class="active">Game</span></div>')


ENGINES: dict[str, PagedEngine] = {e.name: e for e in (
    PagedEngine("phpbb", lambda n: f"{BASE}viewtopic.php?t=7" + (f"&start={(n - 1) * 10}" if n > 1 else ""),
                lambda n: f"{BASE}viewforum.php?f=2" + (f"&start={(n - 1) * 25}" if n > 1 else ""),
                lambda n: f"{BASE}viewtopic.php?t=99" + (f"&start={(n - 1) * 10}" if n > 1 else ""),
                _phpbb_post, _phpbb_list, head='<link rel="canonical" href="https://forum.test/viewtopic.php?t=7">',
                title='<h2 class="topic-title"><a href="./viewtopic.php?t=7">Game</a></h2>'),
    PagedEngine("mybb", lambda n: f"{BASE}showthread.php?tid=7" + (f"&page={n}" if n > 1 else ""),
                lambda n: f"{BASE}forumdisplay.php?fid=2" + (f"&page={n}" if n > 1 else ""),
                lambda n: f"{BASE}showthread.php?tid=99" + (f"&page={n}" if n > 1 else ""),
                _mybb_post, _mybb_list, before_posts='<div id="posts">', after_posts="</div>",
                board_box=lambda inner: _mybb_box(inner.replace('<div class="pagination">', '<div id="breadcrumb_multipage_popup" '
                                                                'class="pagination pagination_breadcrumb" style="display: none;">'))),
    PagedEngine("smf", lambda n: f"{BASE}index.php?topic=7.{(n - 1) * 15}", lambda n: f"{BASE}index.php?board=2.{(n - 1) * 20}",
                lambda n: f"{BASE}index.php?topic=99.{(n - 1) * 15}", _smf_post, _smf_list, per_page=15,
                before_posts='<div id="forumposts"><form>', after_posts="</form></div>",
                head='<link rel="canonical" href="https://forum.test/index.php?topic=7.0">'),
    PagedEngine("vbulletin", lambda n: f"{BASE}showthread.php?t=7" + (f"&page={n}" if n > 1 else ""),
                lambda n: f"{BASE}forumdisplay.php?f=2" + (f"&page={n}" if n > 1 else ""),
                lambda n: f"{BASE}showthread.php?t=99" + (f"&page={n}" if n > 1 else ""),
                _vb_post, _vb_list, before_posts='<div id="posts">', after_posts="</div>"),
    PagedEngine("xenforo", lambda n: f"{BASE}threads/game.7/" + (f"page-{n}" if n > 1 else ""),
                lambda n: f"{BASE}forums/mafia.2/" + (f"page-{n}" if n > 1 else ""),
                lambda n: f"{BASE}threads/other.99/" + (f"page-{n}" if n > 1 else ""),
                _xf_post, _xf_list, head='<link rel="canonical" href="https://forum.test/threads/game.7/">'),
    PagedEngine("invision", lambda n: f"{BASE}topic/7-game/" + (f"page/{n}/" if n > 1 else ""),
                lambda n: f"{BASE}forum/2-mafia/" + (f"page/{n}/" if n > 1 else ""),
                lambda n: f"{BASE}topic/99-other/" + (f"page/{n}/" if n > 1 else ""),
                _ips_post, _ips_list),
    PagedEngine("discourse", lambda n: f"{BASE}t/game/7" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}c/mafia/2" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}t/other/99" + (f"?page={n}" if n > 1 else ""),
                _discourse_post, _discourse_list, per_page=20),
    PagedEngine("fluxbb", lambda n: f"{BASE}viewtopic.php?id=7" + (f"&p={n}" if n > 1 else ""),
                lambda n: f"{BASE}viewforum.php?id=2" + (f"&p={n}" if n > 1 else ""),
                lambda n: f"{BASE}viewtopic.php?id=99" + (f"&p={n}" if n > 1 else ""),
                _flux_post, _flux_list),
    PagedEngine("vanilla", lambda n: f"{BASE}discussion/7/game" + (f"/p{n}" if n > 1 else ""),
                lambda n: f"{BASE}categories/mafia" + (f"/p{n}" if n > 1 else ""),
                lambda n: f"{BASE}discussion/99/other" + (f"/p{n}" if n > 1 else ""),
                _vanilla_post, _vanilla_list, before_posts='<ul class="MessageList DataList Comments">', after_posts="</ul>"),
    PagedEngine("flaskbb", lambda n: f"{BASE}topic/7-game" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}forum/2-mafia" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}topic/99-other" + (f"?page={n}" if n > 1 else ""),
                _flaskbb_post, _flaskbb_list),
    PagedEngine("spirit", lambda n: f"{BASE}topic/7/game/" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}category/2/mafia/" + (f"?page={n}" if n > 1 else ""),
                lambda n: f"{BASE}topic/99/other/" + (f"?page={n}" if n > 1 else ""),
                _spirit_post, _spirit_list),
    PagedEngine("discuz", lambda n: f"{BASE}thread-7-{n}-1.html", lambda n: f"{BASE}forum-2-{n}.html",
                lambda n: f"{BASE}thread-99-{n}-1.html", _discuz_post, _discuz_list,
                before_posts='<div id="postlist" class="pl bm">', after_posts="</div>"),
    PagedEngine("forumfree", lambda n: f"https://lupus.forumfree.it/?t=7" + (f"&st={(n - 1) * 15}" if n > 1 else ""),
                lambda n: f"https://lupus.forumfree.it/?f=2" + (f"&st={(n - 1) * 30}" if n > 1 else ""),
                lambda n: f"https://lupus.forumfree.it/?t=99" + (f"&st={(n - 1) * 15}" if n > 1 else ""),
                _ff_post, _ff_list, per_page=15),
)}
