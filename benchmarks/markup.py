"""Thread pages of a synthetic game in real engines' markup: phpBB 3.3 (prosilver) and XenForo 2.2.

The markup follows what those engines serve to a logged-in member (checked against the
pages in ../shared/corpus and the engines' templates): the page chrome (head, navigation,
breadcrumbs, jump box, footer) is there too, because a parser pays for every byte of a page,
not only for the posts. Each engine has a URL scheme, a page size and a renderer; the
loopback server (`benchmarks.server`) serves whatever `Engine.page` returns.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Sequence

from benchmarks.game import GM, SynthPost

TITLE = "Mafia CXII: The Long Night"


def _lines(items: Sequence[str]) -> str:
    """List items one a line, as the engines' templates print them (text between items matters)."""
    return "".join(i + "\n" for i in items)


def _e(s: str) -> str:
    return html.escape(s, quote=True)


def _utc(at: datetime) -> datetime:
    return at.astimezone(timezone.utc)


@dataclass(frozen=True)
class Engine:
    name: str  # the profile name
    per_page: int
    thread_path: str  # path of page 1, relative to the base URL
    page_path: Callable[[int], str]  # path of page n
    page_of: Callable[[str], int | None]  # page number a request path asks for (None: not a thread page)
    render: Callable[[Sequence[SynthPost], int, int, int], str]  # (posts of the page, page, pages, total posts)

    def pages(self, n_posts: int) -> int:
        return max(1, -(-n_posts // self.per_page))

    def page(self, posts: Sequence[SynthPost], page: int) -> str:
        first = (page - 1) * self.per_page
        return self.render(posts[first:first + self.per_page], page, self.pages(len(posts)), len(posts))


# --------------------------------------------------------------------------- phpBB 3.3 prosilver

PHPBB_PER_PAGE = 25


def _phpbb_user(name: str, uid: int) -> str:
    if name == GM:
        return (f'<a href="./memberlist.php?mode=viewprofile&amp;u={uid}" style="color: #AA0000;" '
                f'class="username-coloured">{_e(name)}</a>')
    return f'<a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="username">{_e(name)}</a>'


def _phpbb_date(at: datetime) -> str:
    return f"{at:%a %b %d, %Y %I:%M %p}".replace(" 0", " ")


def _phpbb_body(p: SynthPost) -> str:
    out = []
    if p.quote is not None:
        q = p.quote
        inner = _e(q.text) + (f'<br><strong class="text-strong">{_e(q.vote)}</strong>' if q.vote else "")
        out.append(f'<blockquote cite="./viewtopic.php?p={q.post_id}#p{q.post_id}"><div><cite>'
                   f'{_phpbb_user(q.author, q.author_id)} wrote: <a href="./viewtopic.php?p={q.post_id}#p{q.post_id}" '
                   f'aria-label="View quoted post" data-post-id="{q.post_id}" onclick="if(document.getElementById('
                   f'hash.substr(1)))href=hash"><i class="icon fa-arrow-circle-up fa-fw" aria-hidden="true"></i></a>'
                   f'<span class="responsive-hide">{_phpbb_date(q.at)}</span></cite>{inner}</div></blockquote>')
    out.append("<br><br>".join(_e(t) for t in p.paragraphs))
    if p.spoiler:
        out.append(f'<div class="spoiler"><div class="spoiler-title">Spoiler</div><div class="spoiler-body">'
                   f'{_e(p.spoiler)}</div></div>')
    if p.vote:
        out.append(f'<br><br><strong class="text-strong">{_e(p.vote)}</strong>')
    return "".join(out)


def phpbb_post(p: SynthPost) -> str:
    pid, uid = p.post_id, p.author_id
    user = _phpbb_user(p.author, uid)
    notice = ""
    if p.edited_at is not None:
        notice = (f'<div class="notice">Last edited by {user} on <time datetime="{_utc(p.edited_at).isoformat()}">'
                  f'{_phpbb_date(p.edited_at)}</time>, edited 1 time in total.</div>')
    sig = (f'<div id="sig{pid}" class="signature">{_e(p.signature)}</div>' if p.signature else "")
    rank = "Game Master" if p.author == GM else "Villager"
    return f"""
<div id="p{pid}" class="post has-profile bg{p.number % 2 + 1}">
 <div class="inner">
  <dl class="postprofile" id="profile{pid}">
   <dt class="has-profile-rank has-avatar">
    <div class="avatar-container"><a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="avatar"><img class="avatar" src="./download/file.php?avatar={uid}_1700000000.png" width="90" height="90" alt="User avatar" /></a></div>
    {user}
   </dt>
   <dd class="profile-rank">{rank}</dd>
   <dd class="profile-posts"><strong>Posts:</strong> <a href="./search.php?author_id={uid}&amp;sr=posts">{uid * 37 % 4000}</a></dd>
   <dd class="profile-joined"><strong>Joined:</strong> Mon Jan 02, 2023 9:15 am</dd>
   <dd class="profile-contact"><strong>Contact:</strong>
    <div class="dropdown-container dropdown-left"><a href="#" class="dropdown-trigger" title="Contact {_e(p.author)}"><i class="icon fa-commenting-o fa-fw icon-lg" aria-hidden="true"></i><span class="sr-only">Contact {_e(p.author)}</span></a>
     <div class="dropdown"><div class="pointer"><div class="pointer-inner"></div></div><div class="dropdown-contents contact-icons"><div><a href="./ucp.php?i=pm&amp;mode=compose&amp;action=quotepost&amp;p={pid}" title="Send private message" class="last-cell"><span class="contact-icon pm-icon">Send private message</span></a></div></div></div>
    </div>
   </dd>
  </dl>
  <div class="postbody">
   <div id="post_content{pid}">
    <h3 {'class="first"' if p.number == 1 else ''}><a href="./viewtopic.php?p={pid}#p{pid}">{'Re: ' if p.number > 1 else ''}{_e(TITLE)}</a></h3>
    <ul class="post-buttons">
     <li><a href="./posting.php?mode=edit&amp;p={pid}" title="Edit post" class="button button-icon-only"><i class="icon fa-pencil fa-fw" aria-hidden="true"></i><span class="sr-only">Edit</span></a></li>
     <li><a href="./posting.php?mode=quote&amp;p={pid}" title="Reply with quote" class="button button-icon-only"><i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">Quote</span></a></li>
    </ul>
    <p class="author">
     <a class="unread" href="./viewtopic.php?p={pid}#p{pid}" title="Post"><i class="icon fa-file fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">Post</span></a>
     <span class="responsive-hide">by <strong>{user}</strong> &raquo; </span><time datetime="{_utc(p.at).isoformat()}">{_phpbb_date(p.at)}</time>
    </p>
    <div class="content">{_phpbb_body(p)}</div>
    {notice}
    {sig}
   </div>
  </div>
  <div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>
 </div>
</div>
<hr class="divider" />"""


def _phpbb_pagination(page: int, pages: int, total: int) -> str:
    def link(n: int) -> str:
        start = (n - 1) * PHPBB_PER_PAGE
        return f"./viewtopic.php?t=1{'&amp;start=' + str(start) if start else ''}"

    shown = sorted({1, page - 2, page - 1, page, page + 1, page + 2, pages} & set(range(1, pages + 1)))
    items = []
    if page > 1:
        items.append(f'<li class="arrow previous"><a class="button button-icon-only" href="{link(page - 1)}" rel="prev" '
                     f'role="button"><i class="icon fa-chevron-left fa-fw" aria-hidden="true"></i><span class="sr-only">'
                     f'Previous</span></a></li>')
    prev = 0
    for n in shown:
        if n - prev > 1:
            items.append('<li class="ellipsis" role="separator"><span>…</span></li>')
        if n == page:
            items.append(f'<li class="active"><span>{n}</span></li>')
        else:
            items.append(f'<li><a class="button" href="{link(n)}" role="button">{n}</a></li>')
        prev = n
    if page < pages:
        items.append(f'<li class="arrow next"><a class="button button-icon-only" href="{link(page + 1)}" rel="next" '
                     f'role="button"><i class="icon fa-chevron-right fa-fw" aria-hidden="true"></i><span class="sr-only">'
                     f'Next</span></a></li>')
    return (f'<div class="pagination">{total} posts <ul><li class="dropdown-container dropdown-button-control page-jump">'
            f'<a class="button button-icon-only dropdown-trigger" href="#" title="Click to jump to page…" role="button">'
            f'<i class="icon fa-level-down fa-rotate-270" aria-hidden="true"></i><span>Page <strong>{page}</strong> of '
            f'<strong>{pages}</strong></span></a></li>\n{_lines(items)}</ul></div>')


_PHPBB_HEAD = """<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8" />
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>{title} - Page {page} - Mafia Forum</title>
<link rel="alternate" type="application/atom+xml" title="Feed - Mafia Forum" href="/app.php/feed">
<link rel="canonical" href="https://forum.example.org/viewtopic.php?t=1{canon}">
<link href="./assets/css/font-awesome.min.css?assets_version=41" rel="stylesheet">
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=41" rel="stylesheet">
<link href="./styles/prosilver/theme/en/stylesheet.css?assets_version=41" rel="stylesheet">
<link href="./ext/phpbb/spoiler/styles/all/theme/spoiler.css?assets_version=41" rel="stylesheet" media="screen">
<script>
 var phpbbAlertTimeout = 5000; var phpbbConfirmTimeout = 10000;
 (function($) {{ 'use strict'; /* prosilver page setup */ }})(window.jQuery);
</script>
</head>
<body id="phpbb" class="notouch section-viewtopic ltr ">
<div id="wrap" class="wrap">
 <a id="top" class="top-anchor" accesskey="t"></a>
 <div id="page-header">
  <div class="headerbar" role="banner">
   <div class="inner">
    <div id="site-description" class="site-description">
     <a id="logo" class="logo" href="./index.php" title="Board index"><span class="site_logo"></span></a>
     <h1>Mafia Forum</h1><p>Werewolf and Mafia games played by posts</p>
     <p class="skiplink"><a href="#start_here">Skip to content</a></p>
    </div>
    <div id="search-box" class="search-box search-header" role="search">
     <form action="./search.php" method="get" id="search"><fieldset>
      <input name="keywords" id="keywords" type="search" maxlength="128" title="Search for keywords" class="inputbox search tiny" size="20" value="" placeholder="Search…" />
      <button class="button button-search" type="submit" title="Search"><i class="icon fa-search fa-fw" aria-hidden="true"></i><span class="sr-only">Search</span></button>
     </fieldset></form>
    </div>
   </div>
  </div>
  <div class="navbar" role="navigation">
   <div class="inner">
    <ul id="nav-main" class="nav-main linklist" role="menubar">
     <li id="quick-links" class="quick-links dropdown-container responsive-menu" data-skip-responsive="true">
      <a href="#" class="dropdown-trigger"><i class="icon fa-bars fa-fw" aria-hidden="true"></i><span>Quick links</span></a>
      <div class="dropdown"><ul class="dropdown-contents" role="menu">
       <li><a href="./search.php?search_id=unanswered" role="menuitem"><span>Unanswered topics</span></a></li>
       <li><a href="./search.php?search_id=active_topics" role="menuitem"><span>Active topics</span></a></li>
       <li><a href="./search.php?search_id=newposts" role="menuitem"><span>New posts</span></a></li>
       <li><a href="./search.php?search_id=egosearch" role="menuitem"><span>Your posts</span></a></li>
       <li><a href="./memberlist.php" role="menuitem"><span>Members</span></a></li>
       <li><a href="./memberlist.php?mode=team" role="menuitem"><span>The team</span></a></li>
      </ul></div>
     </li>
     <li><a href="/app.php/help/faq" rel="help" title="Frequently Asked Questions" role="menuitem"><span>FAQ</span></a></li>
     <li class="rightside" data-skip-responsive="true"><a href="./ucp.php?i=pm&amp;folder=inbox" role="menuitem"><span>Private messages</span> <strong class="badge hidden">0</strong></a></li>
     <li id="username_logged_in" class="rightside no-bulletin" data-skip-responsive="true">
      <div class="header-profile dropdown-container"><a href="./ucp.php" class="header-avatar dropdown-trigger"><span class="username-coloured" style="color: #AA0000;">Moderator</span></a>
       <div class="dropdown"><ul class="dropdown-contents" role="menu">
        <li><a href="./ucp.php" title="User Control Panel" role="menuitem"><span>User Control Panel</span></a></li>
        <li><a href="./memberlist.php?mode=viewprofile&amp;u=2" role="menuitem"><span>Profile</span></a></li>
        <li class="separator"></li>
        <li><a href="./ucp.php?mode=logout&amp;sid=0123456789abcdef" title="Logout" accesskey="x" role="menuitem"><span>Logout</span></a></li>
       </ul></div>
      </div>
     </li>
    </ul>
    <ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">
     <li class="breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList">
      <span class="crumb" itemtype="https://schema.org/ListItem" itemprop="itemListElement" itemscope><a itemprop="item" href="./index.php" accesskey="h" data-navbar-reference="index"><span itemprop="name">Board index</span></a><meta itemprop="position" content="1" /></span>
      <span class="crumb" itemtype="https://schema.org/ListItem" itemprop="itemListElement" itemscope data-forum-id="3"><a itemprop="item" href="./viewforum.php?f=3"><span itemprop="name">Games</span></a><meta itemprop="position" content="2" /></span>
      <span class="crumb" itemtype="https://schema.org/ListItem" itemprop="itemListElement" itemscope data-forum-id="7"><a itemprop="item" href="./viewforum.php?f=7"><span itemprop="name">Mafia games in progress</span></a><meta itemprop="position" content="3" /></span>
     </li>
    </ul>
   </div>
  </div>
 </div>
 <a id="start_here" class="anchor"></a>
 <div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="./viewtopic.php?t=1">{title}</a></h2>
<div class="action-bar bar-top">
 <a href="./posting.php?mode=reply&amp;t=1" class="button" title="Post a reply"><span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i></a>
 <div class="dropdown-container dropdown-button-control topic-tools"><span title="Topic tools" class="button button-secondary dropdown-trigger dropdown-select"><i class="icon fa-wrench fa-fw" aria-hidden="true"></i><span class="caret"><i class="icon fa-sort-down fa-fw" aria-hidden="true"></i></span></span>
  <div class="dropdown"><ul class="dropdown-contents"><li><a href="./viewtopic.php?t=1&amp;watch=topic" class="watch-topic-link"><i class="icon fa-check-square-o fa-fw" aria-hidden="true"></i><span>Subscribe topic</span></a></li><li><a href="./viewtopic.php?t=1&amp;bookmark=1" class="bookmark-link"><i class="icon fa-bookmark-o fa-fw" aria-hidden="true"></i><span>Bookmark topic</span></a></li><li><a href="./viewtopic.php?t=1&amp;view=print" title="Print view" accesskey="p" class="print"><i class="icon fa-print fa-fw" aria-hidden="true"></i><span>Print view</span></a></li></ul></div>
 </div>
 <div class="search-box" role="search"><form method="get" id="topic-search" action="./search.php"><fieldset><input class="inputbox search tiny" type="search" name="keywords" id="search_keywords" size="20" placeholder="Search this topic…" /><button class="button button-search" type="submit" title="Search"><i class="icon fa-search fa-fw" aria-hidden="true"></i><span class="sr-only">Search</span></button><input type="hidden" name="t" value="1" /><input type="hidden" name="sf" value="msgonly" /></fieldset></form></div>
 {pagination}
</div>
"""

_PHPBB_FOOT = """
<div class="action-bar bar-bottom">
 <a href="./posting.php?mode=reply&amp;t=1" class="button" title="Post a reply"><span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i></a>
 <form method="post" action="./viewtopic.php?t=1"><div class="dropdown-container dropdown-container-left dropdown-button-control sort-tools"><span title="Display and sorting options" class="button button-secondary dropdown-trigger dropdown-select"><i class="icon fa-sort-amount-asc fa-fw" aria-hidden="true"></i></span></div></form>
 {pagination}
</div>
<div class="action-bar actions-jump">
 <p class="jumpbox-return"><a href="./viewforum.php?f=7" class="left-box arrow-left" accesskey="r"><i class="icon fa-angle-left fa-fw icon-black" aria-hidden="true"></i><span>Return to “Mafia games in progress”</span></a></p>
 <div class="jumpbox dropdown-container dropdown-container-right dropdown-up dropdown-left dropdown-button-control" id="jumpbox">
  <span title="Jump to" class="button button-secondary dropdown-trigger dropdown-select"><span>Jump to</span></span>
  <div class="dropdown"><ul class="dropdown-contents">{jump}</ul></div>
 </div>
</div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: <span class="username-coloured" style="color: #AA0000;">Moderator</span> and 14 guests</p></div>
 </div>
 <div id="page-footer" class="page-footer" role="contentinfo">
  <div class="navbar" role="navigation"><div class="inner"><ul id="nav-footer" class="nav-footer linklist" role="menubar">
   <li class="breadcrumbs"><span class="crumb"><a href="./index.php" data-navbar-reference="index"><span>Board index</span></a></span></li>
   <li class="rightside">All times are <span title="UTC">UTC</span></li>
   <li class="rightside"><a href="./ucp.php?mode=delete_cookies" role="menuitem"><span>Delete cookies</span></a></li>
   <li class="rightside"><a href="./memberlist.php?mode=team" role="menuitem"><span>The team</span></a></li>
   <li class="rightside"><a href="./memberlist.php?mode=contactadmin" role="menuitem"><span>Contact us</span></a></li>
  </ul></div></div>
  <div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</div>
 </div>
</div>
<script src="./assets/javascript/jquery-3.6.0.min.js?assets_version=41"></script>
<script src="./assets/javascript/core.js?assets_version=41"></script>
<script src="./styles/prosilver/template/forum_fn.js?assets_version=41"></script>
<script src="./styles/prosilver/template/ajax.js?assets_version=41"></script>
</body>
</html>"""

_PHPBB_JUMP = "".join(
    f'<li><a href="./viewforum.php?f={i}" class="jumpbox-sub-link"><span class="spacer"></span> <span>&#8627; &nbsp;'
    f'{name}</span></a></li>'
    for i, name in enumerate(("Announcements", "Rules and help", "Games", "Sign-ups", "Mafia games in progress",
                              "Werewolf games in progress", "Completed games", "Game reviews", "Off topic",
                              "Forum games", "Suggestions", "Archive"), start=1))


def phpbb_page(posts: Sequence[SynthPost], page: int, pages: int, total: int) -> str:
    pag = _phpbb_pagination(page, pages, total)
    start = (page - 1) * PHPBB_PER_PAGE
    head = _PHPBB_HEAD.format(title=_e(TITLE), page=page, canon=f"&start={start}" if start else "", pagination=pag)
    return head + "".join(phpbb_post(p) for p in posts) + _PHPBB_FOOT.format(pagination=pag, jump=_PHPBB_JUMP)


def _phpbb_page_of(path: str) -> int | None:
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(path)
    if parts.path != "/viewtopic.php":
        return None
    q = parse_qs(parts.query)
    if q.get("t", ["1"])[0] != "1":
        return None
    try:
        start = int(q.get("start", ["0"])[0])
    except ValueError:
        return None
    return start // PHPBB_PER_PAGE + 1


PHPBB = Engine("phpbb", PHPBB_PER_PAGE, "viewtopic.php?t=1",
               lambda n: f"viewtopic.php?t=1&start={(n - 1) * PHPBB_PER_PAGE}" if n > 1 else "viewtopic.php?t=1",
               _phpbb_page_of, phpbb_page)


# --------------------------------------------------------------------------- XenForo 2.2

XF_PER_PAGE = 20
_XF_THREAD = "/threads/mafia-cxii-the-long-night.1/"


def _xf_time(at: datetime, cls: str = "u-dt") -> str:
    u = _utc(at)
    return (f'<time class="{cls}" dir="auto" datetime="{u.strftime("%Y-%m-%dT%H:%M:%S+0000")}" '
            f'data-time="{int(u.timestamp())}" data-date-string="{u:%b %d, %Y}" data-time-string="{u:%I:%M %p}" '
            f'title="{u:%b %d, %Y} at {u:%I:%M %p}">{u:%b %d, %Y}</time>')


def _xf_user(name: str, uid: int, inner: str | None = None) -> str:
    slug = name.lower().replace(" ", "-").replace("_", "-")
    return (f'<a href="/members/{_e(slug)}.{uid}/" class="username " dir="auto" data-user-id="{uid}" '
            f'data-xf-init="member-tooltip">{inner or _e(name)}</a>')


def _xf_body(p: SynthPost) -> str:
    out = []
    if p.quote is not None:
        q = p.quote
        inner = _e(q.text) + (f"<br />\n<b>{_e(q.vote)}</b>" if q.vote else "")
        out.append(f'<blockquote data-attributes="member: {q.author_id}" data-quote="{_e(q.author)}" '
                   f'data-source="post: {q.post_id}" class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote '
                   f'js-expandWatch">\n\t<div class="bbCodeBlock-title">\n\t\t<a href="/goto/post?id={q.post_id}" '
                   f'class="bbCodeBlock-sourceJump" rel="nofollow" data-xf-click="attribution" '
                   f'data-content-selector="#post-{q.post_id}">{_e(q.author)} said:</a>\n\t</div>\n\t'
                   f'<div class="bbCodeBlock-content">\n\t\t<div class="bbCodeBlock-expandContent js-expandContent ">'
                   f'\n\t\t\t{inner}\n\t\t</div>\n\t\t<div class="bbCodeBlock-expandLink js-expandLink"><a role="button" '
                   f'tabindex="0">Click to expand...</a></div>\n\t</div>\n</blockquote>')
    out.append("<br />\n<br />\n".join(_e(t) for t in p.paragraphs))
    if p.spoiler:
        out.append('<div class="bbCodeSpoiler">\n\t<button type="button" class="button bbCodeSpoiler-button '
                   'button--longText" data-xf-click="toggle" data-xf-init="tooltip" title="Click to reveal or hide '
                   'spoiler"><span class="button-text"><span>Spoiler</span></span></button>\n\t<div class="'
                   'bbCodeSpoiler-content">\n\t\t<div class="bbCodeBlock bbCodeBlock--spoiler">\n\t\t\t<div class="'
                   f'bbCodeBlock-content">{_e(p.spoiler)}</div>\n\t\t</div>\n\t</div>\n</div>')
    if p.vote:
        out.append(f"<br />\n<br />\n<b>{_e(p.vote)}</b>")
    return "".join(out)


def xf_post(p: SynthPost) -> str:
    pid, uid = p.post_id, p.author_id
    link = f"{_XF_THREAD}post-{pid}"
    slug = p.author.lower().replace(" ", "-").replace("_", "-")
    avatar = (f'<a href="/members/{_e(slug)}.{uid}/" class="avatar avatar--m" data-user-id="{uid}" '
              f'data-xf-init="member-tooltip"><img src="/data/avatars/m/0/{uid}.jpg?1700000000" '
              f'srcset="/data/avatars/l/0/{uid}.jpg?1700000000 2x" alt="{_e(p.author)}" class="avatar-u{uid}-m" '
              f'width="96" height="96" loading="lazy" itemprop="image" /></a>')
    title = "Game Master" if p.author == GM else "Well-known member"
    last_edit = ""
    if p.edited_at is not None:
        last_edit = (f'\n\t\t\t\t\t\t\t<div class="message-lastEdit">\n\t\t\t\t\t\t\t\tLast edited: '
                     f'{_xf_time(p.edited_at)}\n\t\t\t\t\t\t\t</div>')
    sig = ""
    if p.signature:
        sig = (f'\n\t\t\t\t\t\t\t<aside class="message-signature">\n\t\t\t\t\t\t\t\t<div class="bbWrapper">'
               f'{_e(p.signature)}</div>\n\t\t\t\t\t\t\t</aside>')
    return f"""
		<article class="message message--post js-post js-inlineModContainer  "
			data-author="{_e(p.author)}"
			data-content="post-{pid}"
			id="js-post-{pid}"
			itemscope itemtype="https://schema.org/Comment" itemid="https://forum.example.org/posts/{pid}/">
			<meta itemprop="parentItem" itemscope itemid="https://forum.example.org{_XF_THREAD}" />
			<span class="u-anchorTarget" id="post-{pid}"></span>
			<div class="message-inner">
				<div class="message-cell message-cell--user">
					<section class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person" itemid="https://forum.example.org/members/{_e(slug)}.{uid}/">
						<meta itemprop="url" content="https://forum.example.org/members/{_e(slug)}.{uid}/" />
						<div class="message-avatar ">
							<div class="message-avatar-wrapper">
								{avatar}
							</div>
						</div>
						<div class="message-userDetails">
							<h4 class="message-name">{_xf_user(p.author, uid, f'<span itemprop="name">{_e(p.author)}</span>')}</h4>
							<h5 class="userTitle message-userTitle" dir="auto" itemprop="jobTitle">{title}</h5>
						</div>
						<div class="message-userExtras">
							<dl class="pairs pairs--justified"><dt>Joined</dt><dd>Jan 2, 2023</dd></dl>
							<dl class="pairs pairs--justified"><dt>Messages</dt><dd>{uid * 37 % 4000:,}</dd></dl>
							<dl class="pairs pairs--justified"><dt>Reaction score</dt><dd>{uid * 11 % 900}</dd></dl>
						</div>
						<span class="message-userArrow"></span>
					</section>
				</div>
				<div class="message-cell message-cell--main">
					<div class="message-main js-quickEditTarget">
						<header class="message-attribution message-attribution--split">
							<ul class="message-attribution-main listInline ">
								<li class="u-concealed">
									<a href="{link}" rel="nofollow" itemprop="url">
										{_xf_time(p.at)}
									</a>
								</li>
							</ul>
							<ul class="message-attribution-opposite message-attribution-opposite--list ">
								<li>
									<a href="{link}" class="message-attribution-gadget" data-xf-init="share-tooltip" data-href="/posts/{pid}/share" aria-label="Share" rel="nofollow">
										<i class="fa--xf far fa-share-alt" aria-hidden="true"></i>
									</a>
								</li>
								<li>
									<a href="{link}" rel="nofollow">
										#{p.number:,}
									</a>
								</li>
							</ul>
						</header>
						<div class="message-content js-messageContent">
							<div class="message-userContent lbContainer js-lbContainer "
								data-lb-id="post-{pid}"
								data-lb-caption-desc="{_e(p.author)} &middot; {_utc(p.at):%b %d, %Y} at {_utc(p.at):%I:%M %p}">
								<article class="message-body js-selectToQuote">
									<div itemprop="text">
										<div class="bbWrapper">{_xf_body(p)}</div>
									</div>
									<div class="js-selectToQuoteEnd">&nbsp;</div>
								</article>
							</div>{last_edit}{sig}
						</div>
						<footer class="message-footer">
							<div class="message-actionBar actionBar">
								<div class="actionBar-set actionBar-set--external">
									<a href="/posts/{pid}/react?reaction_id=1" class="reaction reaction--small actionBar-action actionBar-action--reaction" data-xf-init="reaction" data-reaction-id="1" data-reaction-count="0" rel="nofollow"><i aria-hidden="true"></i><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" class="reaction-sprite js-reaction" alt="Like" title="Like" /><span class="reaction-text js-reactionText"><bdi>Like</bdi></span></a>
									<a href="{_XF_THREAD}reply?quote={pid}" class="actionBar-action actionBar-action--reply" title="Reply, quoting this message" rel="nofollow" data-xf-click="quote" data-quote-href="/posts/{pid}/quote">Reply</a>
								</div>
								<div class="actionBar-set actionBar-set--internal">
									<a href="/posts/{pid}/report" class="actionBar-action actionBar-action--report" data-xf-click="overlay">Report</a>
									<a href="/posts/{pid}/edit" class="actionBar-action actionBar-action--edit actionBar-action--menuItem" data-xf-click="quick-edit" data-editor-target="#js-post-{pid} .js-quickEditTarget" data-menu-closer="true">Edit</a>
								</div>
							</div>
							<div class="reactionsBar js-reactionsList "></div>
							<div class="js-historyTarget message-historyTarget toggleTarget" data-href="trigger-href"></div>
						</footer>
					</div>
				</div>
			</div>
		</article>
"""


def _xf_page_url(n: int) -> str:
    return _XF_THREAD + (f"page-{n}" if n > 1 else "")


def _xf_pagination(page: int, pages: int) -> str:
    if pages <= 1:
        return ""
    shown = sorted({1, page - 2, page - 1, page, page + 1, page + 2, pages} & set(range(1, pages + 1)))
    items = []
    prev = 0
    for n in shown:
        if n - prev > 1:
            items.append('<li class="pageNav-page pageNav-page--skip"><a data-xf-init="tooltip" title="Go to page" '
                         'data-xf-click="menu" role="button" tabindex="0" aria-expanded="false" aria-haspopup="true">'
                         '…</a></li>')
        cls = " pageNav-page--current " if n == page else (" pageNav-page--later" if n > page else " pageNav-page--earlier")
        items.append(f'<li class="pageNav-page{cls}"><a href="{_xf_page_url(n)}">{n}</a></li>')
        prev = n
    prev_link = (f'<a href="{_xf_page_url(page - 1)}" class="pageNav-jump pageNav-jump--prev">Prev</a>'
                 if page > 1 else "")
    next_link = (f'<a href="{_xf_page_url(page + 1)}" class="pageNav-jump pageNav-jump--next">Next</a>'
                 if page < pages else "")
    return (f'<nav class="pageNavWrapper pageNavWrapper--mixed ">\n<div class="pageNav  ">\n{prev_link}\n'
            f'<ul class="pageNav-main">\n{_lines(items)}</ul>\n{next_link}\n</div>\n'
            f'<div class="pageNavSimple"><a class="pageNavSimple-el pageNavSimple-el--current" data-xf-init="tooltip" '
            f'title="Go to page" data-xf-click="menu" role="button" tabindex="0" aria-expanded="false" '
            f'aria-haspopup="true">{page} of {pages}</a></div>\n</nav>')


_XF_HEAD = """<!DOCTYPE html>
<html id="XF" lang="en-US" dir="LTR"
	data-app="public"
	data-template="thread_view"
	data-container-key="node-7"
	data-content-key="thread-1"
	data-logged-in="true"
	data-cookie-prefix="xf_"
	data-csrf="1700000000,0123456789abcdef0123456789abcdef"
	class="has-no-js template-thread_view"
	 data-run-jobs="">
<head>
	<meta charset="utf-8" />
	<meta http-equiv="X-UA-Compatible" content="IE=Edge" />
	<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
	<title>{title} | Page {page} | Mafia Forum</title>
	<link rel="manifest" href="/webmanifest.php">
	<meta name="theme-color" content="#185886" />
	<meta name="apple-mobile-web-app-title" content="Mafia Forum">
	<link rel="canonical" href="https://forum.example.org{canon}" />
	{rel}
	<meta property="og:site_name" content="Mafia Forum" />
	<meta property="og:type" content="website" />
	<meta property="og:title" content="{title}" />
	<meta property="og:url" content="https://forum.example.org{canon}" />
	<link rel="stylesheet" href="/css.php?css=public%3Anormalize.css%2Cpublic%3Afa.css%2Cpublic%3Acore.less%2Cpublic%3Aapp.less&amp;s=1&amp;l=1&amp;d=1700000000&amp;k=0123456789abcdef" />
	<link rel="stylesheet" href="/css.php?css=public%3Abb_code.less%2Cpublic%3Amessage.less%2Cpublic%3Ashare_controls.less%2Cpublic%3Aextra.less&amp;s=1&amp;l=1&amp;d=1700000000&amp;k=fedcba9876543210" />
	<script src="/js/xf/preamble.min.js?_v=0f1e2d3c"></script>
</head>
<body data-template="thread_view">
<div class="p-pageWrapper" id="top">
<header class="p-header" id="header">
	<div class="p-header-inner">
		<div class="p-header-content">
			<div class="p-header-logo p-header-logo--image"><a href="/"><img src="/styles/default/xenforo/xenforo-logo.png" srcset="" alt="Mafia Forum" width="100" height="36" /></a></div>
		</div>
	</div>
</header>
<div class="p-navSticky p-navSticky--primary" data-xf-init="sticky-header">
	<nav class="p-nav">
		<div class="p-nav-inner">
			<div class="p-nav-scroller hScroller" data-xf-init="h-scroller" data-auto-scroll=".p-navEl.is-selected">
				<div class="hScroller-scroll">
					<ul class="p-nav-list js-offCanvasNavSource">
						<li><div class="p-navEl " ><a href="/" class="p-navEl-link " data-xf-key="1" data-nav-id="home">Home</a></div></li>
						<li><div class="p-navEl is-selected" data-has-children="true"><a href="/forums/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="forums">Forums</a><a data-xf-key="2" data-xf-click="menu" data-menu-pos-ref="< .p-navEl" class="p-navEl-splitTrigger" role="button" tabindex="0" aria-label="Toggle expanded" aria-expanded="false" aria-haspopup="true"></a>
							<div class="menu menu--structural" data-menu="menu" aria-hidden="true"><div class="menu-content">
								<a href="/whats-new/posts/" class="menu-linkRow u-indentDepth0 js-offCanvasCopy " data-nav-id="newPosts">New posts</a>
								<a href="/search/?type=post" class="menu-linkRow u-indentDepth0 js-offCanvasCopy " data-nav-id="searchForums">Search forums</a>
							</div></div></div></li>
						<li><div class="p-navEl " data-has-children="true"><a href="/whats-new/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="whatsNew">What's new</a></div></li>
						<li><div class="p-navEl " data-has-children="true"><a href="/members/" class="p-navEl-link p-navEl-link--splitMenu " data-nav-id="members">Members</a></div></li>
					</ul>
				</div>
			</div>
			<div class="p-nav-opposite">
				<div class="p-navgroup p-account p-navgroup--member">
					<a href="/account/" class="p-navgroup-link p-navgroup-link--iconic p-navgroup-link--user" data-xf-click="menu" data-xf-key="m" data-menu-pos-ref="< .p-navgroup" title="Moderator" aria-expanded="false" aria-haspopup="true"><span class="avatar avatar--xxs" data-user-id="2"><img src="/data/avatars/s/0/2.jpg?1700000000" alt="Moderator" class="avatar-u2-s" width="48" height="48" loading="lazy" /></span><span class="p-navgroup-linkText">Moderator</span></a>
					<a href="/conversations/" class="p-navgroup-link p-navgroup-link--iconic p-navgroup-link--conversations js-badge--conversations badgeContainer" data-badge="0" data-xf-click="menu" data-xf-key="." data-menu-pos-ref="< .p-navgroup" title="Conversations" aria-expanded="false" aria-haspopup="true"><i aria-hidden="true"></i><span class="p-navgroup-linkText">Inbox</span></a>
					<a href="/account/alerts" class="p-navgroup-link p-navgroup-link--iconic p-navgroup-link--alerts js-badge--alerts badgeContainer" data-badge="0" data-xf-click="menu" data-xf-key="," data-menu-pos-ref="< .p-navgroup" title="Alerts" aria-expanded="false" aria-haspopup="true"><i aria-hidden="true"></i><span class="p-navgroup-linkText">Alerts</span></a>
				</div>
			</div>
		</div>
	</nav>
</div>
<div class="p-body">
	<div class="p-body-inner">
		<div class="p-breadcrumbs-wrap "><ul class="p-breadcrumbs " itemscope itemtype="https://schema.org/BreadcrumbList">
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/" itemprop="item"><span itemprop="name">Home</span></a><meta itemprop="position" content="1" /></li>
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/" itemprop="item"><span itemprop="name">Forums</span></a><meta itemprop="position" content="2" /></li>
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/#games.3" itemprop="item"><span itemprop="name">Games</span></a><meta itemprop="position" content="3" /></li>
			<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem"><a href="/forums/mafia-games.7/" itemprop="item"><span itemprop="name">Mafia games</span></a><meta itemprop="position" content="4" /></li>
		</ul></div>
		<div class="p-body-header">
			<div class="p-title "><h1 class="p-title-value">{title}</h1></div>
			<div class="p-description"><ul class="listInline listInline--bullet">
				<li><i class="fa--xf far fa-user" aria-hidden="true" title="Thread starter"></i><span class="u-srOnly">Thread starter</span> <a href="/members/moderator.2/" class="username  u-concealed" dir="auto" data-user-id="2" data-xf-init="member-tooltip">Moderator</a></li>
				<li><i class="fa--xf far fa-clock" aria-hidden="true" title="Start date"></i><span class="u-srOnly">Start date</span> <a href="{thread}" class="u-concealed"><time class="u-dt" dir="auto" datetime="2024-03-01T12:00:00+0000" data-time="1709294400" data-date-string="Mar 1, 2024" data-time-string="12:00 PM" title="Mar 1, 2024 at 12:00 PM">Mar 1, 2024</time></a></li>
			</ul></div>
		</div>
		<div class="p-body-main  ">
			<div class="p-body-content">
				<div class="p-body-pageContent">
<div class="block block--messages" data-xf-init="" data-type="post" data-href="/inline-mod/" data-search-target="*">
	<div class="block-outer">{pagination}<div class="block-outer-opposite"><div class="buttonGroup"><a href="/threads/mafia-cxii-the-long-night.1/watch" class="button--link button" data-xf-click="switch-overlay" data-sk-watch="Watch" data-sk-unwatch="Unwatch"><span class="button-text">Watch</span></a></div></div></div>
	<div class="block-outer js-threadStatusField"></div>
	<div class="block-container lbContainer" data-xf-init="lightbox select-to-quote" data-message-selector=".js-post" data-lb-id="thread-1" data-lb-universal="0">
		<div class="block-body js-replyNewMessageContainer">
"""

_XF_FOOT = """
		</div>
	</div>
	<div class="block-outer block-outer--after">{pagination}</div>
</div>
<div class="blockMessage blockMessage--none"><div class="shareButtons shareButtons--iconic" data-xf-init="share-buttons" data-page-url="" data-page-title="" data-page-desc="" data-page-image=""><span class="shareButtons-label">Share:</span><div class="shareButtons-buttons"><a class="shareButtons-button shareButtons-button--brand shareButtons-button--facebook" data-href="https://www.facebook.com/sharer.php?u={{url}}"><i aria-hidden="true"></i><span>Facebook</span></a><a class="shareButtons-button shareButtons-button--brand shareButtons-button--twitter" data-href="https://twitter.com/intent/tweet?url={{url}}&amp;text={{title}}"><i aria-hidden="true"></i><span>Twitter</span></a><a class="shareButtons-button shareButtons-button--email" data-href="mailto:?subject={{title}}&amp;body={{url}}"><i aria-hidden="true"></i><span>Email</span></a><a class="shareButtons-button shareButtons-button--share is-hidden" data-xf-init="web-share" data-title="" data-text="" data-url="" data-hide=".shareButtons-button:not(.shareButtons-button--share)"><i aria-hidden="true"></i><span>Share</span></a><a class="shareButtons-button shareButtons-button--link is-hidden" data-clipboard="{{url}}"><i aria-hidden="true"></i><span>Link</span></a></div></div></div>
				</div>
			</div>
		</div>
	</div>
</div>
<footer class="p-footer" id="footer">
	<div class="p-footer-inner">
		<div class="p-footer-row">
			<div class="p-footer-row-main"><ul class="p-footer-linkList"><li><a href="/misc/style" data-xf-click="overlay" data-xf-init="tooltip" title="Style chooser" rel="nofollow"><i class="fa--xf far fa-paint-brush" aria-hidden="true"></i> Default style</a></li></ul></div>
			<div class="p-footer-row-opposite"><ul class="p-footer-linkList"><li><a href="/misc/contact" data-xf-click="overlay">Contact us</a></li><li><a href="/help/terms/">Terms and rules</a></li><li><a href="/help/privacy-policy/">Privacy policy</a></li><li><a href="/help/">Help</a></li><li><a href="/">Home</a></li><li><a href="/forums/-/index.rss" target="_blank" class="p-footer-rssLink" title="RSS"><span aria-hidden="true"><i class="fa--xf far fa-rss" aria-hidden="true"></i><span class="u-srOnly">RSS</span></span></a></li></ul></div>
		</div>
		<div class="p-footer-copyright"><a href="https://xenforo.com" class="u-concealed" dir="ltr" target="_blank" rel="sponsored noopener">Community platform by XenForo<sup>&reg;</sup> <span class="copyright">&copy; 2010-2023 XenForo Ltd.</span></a></div>
	</div>
</footer>
</div>
<script src="/js/vendor/jquery/jquery-3.5.1.min.js?_v=0f1e2d3c"></script>
<script src="/js/vendor/vendor-compiled.js?_v=0f1e2d3c"></script>
<script src="/js/xf/core-compiled.js?_v=0f1e2d3c"></script>
<script>
	jQuery.extend(true, XF.config, {{ userId: 2, enablePush: true, url: {{ fullBase: 'https://forum.example.org/', basePath: '/' }}, csrf: '1700000000,0123456789abcdef0123456789abcdef' }});
</script>
</body>
</html>"""


def xf_page(posts: Sequence[SynthPost], page: int, pages: int, total: int) -> str:
    pag = _xf_pagination(page, pages)
    canon = _xf_page_url(page)
    rel = "".join(
        [f'<link rel="prev" href="{_xf_page_url(page - 1)}" />' if page > 1 else "",
         f'<link rel="next" href="{_xf_page_url(page + 1)}" />' if page < pages else ""])
    head = _XF_HEAD.format(title=_e(TITLE), page=page, canon=canon, rel=rel, pagination=pag, thread=_XF_THREAD)
    return head + "".join(xf_post(p) for p in posts) + _XF_FOOT.format(pagination=pag)


def _xf_page_of(path: str) -> int | None:
    from urllib.parse import urlsplit

    p = urlsplit(path).path
    if not p.startswith(_XF_THREAD):
        return None
    rest = p[len(_XF_THREAD):].strip("/")
    if not rest:
        return 1
    if rest.startswith("page-") and rest[5:].isdigit():
        return int(rest[5:])
    return None


XENFORO = Engine("xenforo", XF_PER_PAGE, _XF_THREAD.lstrip("/"), lambda n: _xf_page_url(n).lstrip("/"),
                 _xf_page_of, xf_page)

ENGINES = {"phpbb": PHPBB, "xenforo": XENFORO}
