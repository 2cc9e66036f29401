"""A small phpBB-like forum served in-process on 127.0.0.1, for the demo and for tests.

It renders prosilver markup (the structure real phpBB 3 boards serve: `div.post#p<id>`,
`p.author` with `<time datetime>`, `div.content`, `div.pagination`, the `ucp.php` private
message pages and login form), so forummod reads it with the same `phpbb` profile it uses on
real boards. Pages carry ETags and honour If-None-Match, logins set a session cookie, and a
request log lets tests count requests.

Posting works as on phpBB 3 too, so the write side is tested over real HTTP: the reply form
(`posting.php?mode=reply&t=N`) and the PM compose form (`ucp.php?i=pm&mode=compose`, with its
"Add" recipient step) carry `form_token`/`creation_time`/`lastclick`/`sid`; a submit less than
2 s after the form was shown is ignored (redirect, nothing posted), a post within
`flood_interval` seconds of the same user's previous one gets phpBB's flood error, and a
success is phpBB's information page with a meta refresh to the new post or message. Sent
PMs sit in the Outbox until the recipient opens them, then in Sent messages.
"""

from __future__ import annotations

import hashlib
import html
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, urlencode, urlsplit

from forummod.markup.bbcode import to_html

PER_PAGE = 10


@dataclass
class SitePost:
    post_id: int
    author: str
    at: datetime
    bbcode: str
    edited_at: datetime | None = None


@dataclass
class SiteThread:
    thread_id: int
    title: str
    posts: list[SitePost] = field(default_factory=list)


@dataclass
class SitePM:
    pm_id: int
    sender: str
    to: str
    at: datetime
    subject: str
    bbcode: str
    read: bool = False  # the recipient opened it (phpBB then moves it from Outbox to Sent)


FLOOD_ERROR = "You cannot make another post so soon after your last."
FORM_INVALID = "The submitted form was invalid. Try submitting again."
NO_SUCH_USER = "The requested users to be added do not exist."
EMPTY_MESSAGE = "You must enter a message when posting."
EMPTY_SUBJECT = "You must specify a subject when composing a new message."
NO_RECIPIENT = "You must specify at least one recipient."
TOO_LONG = "Your message contains {n} characters. The maximum number of allowed characters is {limit}."


@dataclass
class PhpbbSite:
    """The forum's content; mutate it (add posts, edit) while the server runs."""

    name: str = "Forum dei Giochi"
    users: dict[str, str] = field(default_factory=dict)  # name -> password
    threads: dict[int, SiteThread] = field(default_factory=dict)
    pms: list[SitePM] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    sessions: dict[str, str] = field(default_factory=dict)  # sid -> user
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_post_id: int = 1000
    # ---- posting (phpBB's board settings and the state its checks need)
    clock: Callable[[], float] = time.time  # the server's time in seconds (tests share a fake clock)
    flood_interval: float = 0.0  # phpBB's flood_interval setting (15 on a fresh board)
    forms: dict[str, tuple[str, float]] = field(default_factory=dict)  # form_token -> (sid, creation_time)
    last_post_at: dict[str, float] = field(default_factory=dict)  # user -> user_lastpost_time
    next_pm_id: int = 5000
    drop_next_answer: bool = False  # apply the next post or PM, then close the connection unanswered
    max_post_chars: int = 0  # phpBB's max_post_chars (60000 on a fresh board); 0 = no limit

    def too_long(self, message: str) -> str | None:
        """phpBB's refusal of a message over max_post_chars (posts and PMs alike)."""
        n = len(message)
        return TOO_LONG.format(n=n, limit=self.max_post_chars) if self.max_post_chars and n > self.max_post_chars else None

    def user_ids(self) -> dict[str, int]:
        names = sorted(set(self.users) | {p.author for t in self.threads.values() for p in t.posts})
        return {n: i + 2 for i, n in enumerate(names)}

    def add_post(self, thread_id: int, author: str, at: datetime, bbcode: str,
                 edited_at: datetime | None = None) -> SitePost:
        with self.lock:
            self.next_post_id += 1
            post = SitePost(self.next_post_id, author, at, bbcode, edited_at)
            self.threads[thread_id].posts.append(post)
            return post

    # ------------------------------------------------------------------ rendering
    def _user_link(self, name: str, uid: int) -> str:
        return (f'<a href="./memberlist.php?mode=viewprofile&amp;u={uid}" class="username">'
                f"{html.escape(name)}</a>")

    def thread_page(self, thread_id: int, start: int, user: str | None) -> str:
        t = self.threads[thread_id]
        ids = self.user_ids()
        pages = max(1, -(-len(t.posts) // PER_PAGE))
        page = start // PER_PAGE + 1
        items = []
        for p in range(1, pages + 1):
            if p == page:
                items.append(f'<li class="active"><span>{p}</span></li>\n')
            else:
                items.append(f'<li><a class="button" href="./viewtopic.php?t={thread_id}&amp;start={(p - 1) * PER_PAGE}">'
                             f"{p}</a></li>\n")
        if page < pages:
            items.append(f'<li class="arrow next"><a class="button" rel="next" '
                         f'href="./viewtopic.php?t={thread_id}&amp;start={page * PER_PAGE}">Next</a></li>')
        body = []
        for n, post in enumerate(t.posts[start:start + PER_PAGE], start + 1):
            uid = ids.get(post.author, 1)
            notice = ""
            if post.edited_at is not None:
                notice = (f'<div class="notice">Last edited by {self._user_link(post.author, uid)} on '
                          f'<time datetime="{post.edited_at.astimezone(timezone.utc).isoformat()}">'
                          f"{post.edited_at:%a %b %d, %Y %I:%M %p}</time>, edited 1 time in total.</div>")
            body.append(
                f'<div id="p{post.post_id}" class="post has-profile bg{n % 2 + 1}"><div class="inner">'
                f'<dl class="postprofile" id="profile{post.post_id}"><dt>{self._user_link(post.author, uid)}</dt></dl>'
                f'<div class="postbody"><div id="post_content{post.post_id}">'
                f'<h3><a href="#p{post.post_id}">Re: {html.escape(t.title)}</a></h3>'
                f'<p class="author"><a class="unread" href="./viewtopic.php?p={post.post_id}#p{post.post_id}" '
                f'title="Post #{n}"><span class="imageset icon_post_target">Post</span></a>'
                f'<span class="responsive-hide">by <strong>{self._user_link(post.author, uid)}</strong> » </span>'
                f'<time datetime="{post.at.astimezone(timezone.utc).isoformat()}">{post.at:%a %b %d, %Y %I:%M %p}'
                f"</time></p>"
                f'<div class="content">{to_html(post.bbcode)}</div>{notice}'
                f"</div></div></div></div>")
        login = self._login_links(user)
        return (f'<!DOCTYPE html><html dir="ltr" lang="it"><head><meta charset="utf-8">'
                f"<title>{html.escape(t.title)} - {html.escape(self.name)}</title></head>"
                f'<body id="phpbb" class="section-viewtopic ltr">{login}<div id="page-body">'
                f'<h2 class="topic-title"><a href="./viewtopic.php?t={thread_id}">{html.escape(t.title)}</a></h2>'
                f'<div class="action-bar bar-top"><div class="pagination">{len(t.posts)} posts • '
                f'Page <strong>{page}</strong> of <strong>{pages}</strong>\n<ul>\n{"".join(items)}</ul></div></div>'
                f'{"".join(body)}</div><div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>'
                f"® Forum Software © phpBB Limited</div></body></html>")

    def _login_links(self, user: str | None) -> str:
        if user:
            return ('<div class="navbar"><ul><li><a href="./ucp.php?mode=logout&amp;sid=x">Logout '
                    f"[ {html.escape(user)} ]</a></li></ul></div>")
        return '<div class="navbar"><ul><li><a href="./ucp.php?mode=login">Login</a></li></ul></div>'

    def login_page(self, error: str = "") -> str:
        err = f'<div class="error">{html.escape(error)}</div>' if error else ""
        token = secrets.token_hex(8)
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Login</title></head>'
                '<body id="phpbb" class="section-ucp">'
                '<form action="./ucp.php?mode=login" method="post" id="login">'
                f'<h2>Login</h2>{err}<input type="text" name="username" id="username">'
                '<input type="password" name="password" id="password">'
                f'<input type="hidden" name="form_token" value="{token}">'
                '<input type="hidden" name="creation_time" value="1700000000">'
                '<input type="hidden" name="redirect" value="./index.php">'
                '<input type="submit" name="login" value="Login"></form>'
                '<p>Powered by phpBB</p></body></html>')

    def inbox_page(self, user: str) -> str:
        rows = []
        for pm in self.pms:
            if pm.to != user:
                continue
            uid = self.user_ids().get(pm.sender, 1)
            rows.append(
                f'<li class="row bg1 pm_unread"><dl class="icon"><dt>'
                f'<a href="./ucp.php?i=pm&amp;mode=view&amp;f=0&amp;p={pm.pm_id}" class="topictitle">'
                f"{html.escape(pm.subject)}</a><br>by {self._user_link(pm.sender, uid)} » "
                f'<time datetime="{pm.at.astimezone(timezone.utc).isoformat()}">{pm.at:%a %b %d, %Y %I:%M %p}</time>'
                f'</dt><dd class="mark"><input type="checkbox" name="marked_msg_id[]" value="{pm.pm_id}"></dd>'
                f"</dl></li>")
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Private messages</title></head>'
                f'<body id="phpbb" class="section-ucp">{self._login_links(user)}<h2>Private messages - Inbox</h2>'
                f'<ul class="topiclist cplist pmlist">{"".join(rows)}</ul><p>Powered by phpBB</p></body></html>')

    def pm_page(self, user: str, pm_id: int) -> str | None:
        pm = next((p for p in self.pms if p.pm_id == pm_id and user in (p.to, p.sender)), None)
        if pm is None:
            return None
        if pm.to == user:
            pm.read = True
        ids = self.user_ids()
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>View message</title></head>'
                f'<body id="phpbb" class="section-ucp">{self._login_links(user)}'
                f'<div id="post-content"><h3 class="first">{html.escape(pm.subject)}</h3>'
                f'<p class="author"><strong>Sent:</strong> <time datetime="{pm.at.astimezone(timezone.utc).isoformat()}">'
                f"{pm.at:%a %b %d, %Y %I:%M %p}</time><br><strong>From:</strong> {self._user_link(pm.sender, ids.get(pm.sender, 1))}"
                f"<br><strong>Recipient:</strong> {self._user_link(pm.to, ids.get(pm.to, 1))}</p>"
                f'<div class="content">{to_html(pm.bbcode)}</div></div><p>Powered by phpBB</p></body></html>')

    def find_post(self, post_id: int) -> tuple[int, int] | None:
        """(thread id, start offset of its page) of a post, for viewtopic.php?p=N."""
        for t in self.threads.values():
            for i, post in enumerate(t.posts):
                if post.post_id == post_id:
                    return t.thread_id, i // PER_PAGE * PER_PAGE
        return None

    # ------------------------------------------------------------------ posting (phpBB 3 rules)
    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), tz=timezone.utc)

    def issue_form(self, sid: str) -> str:
        """Hidden fields phpBB's add_form_key() and the posting page put in every form."""
        token, created = secrets.token_hex(20), self.clock()
        with self.lock:
            self.forms[token] = (sid, created)
        return (f'<input type="hidden" name="lastclick" value="{int(created)}">'
                f'<input type="hidden" name="creation_time" value="{int(created)}">'
                f'<input type="hidden" name="form_token" value="{token}">'
                f'<input type="hidden" name="sid" value="{sid}">')

    def form_problem(self, sid: str, form: dict[str, str]) -> str | None:
        """FORM_INVALID unless form_token/creation_time were issued to this session."""
        issued = self.forms.get(form.get("form_token", ""))
        if issued is None or issued[0] != sid or str(int(issued[1])) != form.get("creation_time"):
            return FORM_INVALID
        return None

    def too_soon(self, form: dict[str, str]) -> bool:
        """phpBB drops a submit less than 2 s after the form was shown (lastclick)."""
        try:
            return self.clock() - int(form.get("lastclick", "0")) < 2
        except ValueError:
            return True

    def flooding(self, user: str) -> bool:
        last = self.last_post_at.get(user)
        return bool(self.flood_interval) and last is not None and self.clock() - last < self.flood_interval

    def _page(self, title: str, user: str | None, body: str, head: str = "", section: str = "posting") -> str:
        return (f'<!DOCTYPE html><html dir="ltr" lang="en"><head><meta charset="utf-8">{head}'
                f"<title>{html.escape(title)} - {html.escape(self.name)}</title></head>"
                f'<body id="phpbb" class="section-{section} ltr">{self._login_links(user)}<div id="page-body">'
                f'{body}</div><div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>'
                f"® Forum Software © phpBB Limited</div></body></html>")

    def info_page(self, user: str | None, message: str, refresh: str | None = None) -> str:
        """phpBB's message_body: the answer to a successful post, or a trigger_error()."""
        head = f'<meta http-equiv="refresh" content="3; url={html.escape(refresh)}" />' if refresh else ""
        return self._page("Information", user, f'<div class="panel" id="message"><div class="inner">'
                          f'<h2 class="message-title">Information</h2><p>{message}</p></div></div>', head)

    def posting_page(self, thread_id: int, user: str, sid: str, *, subject: str = "", message: str = "",
                     error: str = "") -> str:
        t = self.threads[thread_id]
        err = f'<p class="error">{html.escape(error)}</p>' if error else ""
        review = "".join(
            f'<div class="post bg{i % 2 + 1}" id="ppost{p.post_id}"><div class="inner"><div class="postbody">'
            f'<h3><a href="#ppost{p.post_id}">Re: {html.escape(t.title)}</a></h3>'
            f'<p class="author">by <strong>{html.escape(p.author)}</strong></p>'
            f'<div class="content">{to_html(p.bbcode)}</div></div></div></div>'
            for i, p in enumerate(reversed(t.posts[-3:])))
        action = f"./posting.php?mode=reply&amp;f=2&amp;t={thread_id}&amp;sid={sid}"
        body = (f'<h2 class="topic-title"><a href="./viewtopic.php?t={thread_id}">{html.escape(t.title)}</a></h2>'
                f'<form id="postform" method="post" action="{action}" enctype="multipart/form-data">'
                f'<div class="panel" id="postingbox"><div class="inner"><h3>Post a reply</h3>{err}'
                f'<fieldset class="fields1"><dl style="clear: left;"><dt><label for="subject">Subject:</label></dt>'
                f'<dd><input type="text" name="subject" id="subject" size="45" maxlength="120" '
                f'value="{html.escape(subject or "Re: " + t.title)}" class="inputbox autowidth"></dd></dl>'
                f'<div id="message-box"><textarea name="message" id="message" rows="15" cols="76" '
                f'class="inputbox">{html.escape(message)}</textarea></div></fieldset></div></div>'
                f'<div class="panel bg2"><div class="inner"><fieldset class="submit-buttons">'
                f'<input type="hidden" name="topic_cur_post_id" value="{t.posts[-1].post_id if t.posts else 0}">'
                f'<input type="submit" tabindex="5" name="preview" value="Preview" class="button1">&nbsp;'
                f'<input type="submit" accesskey="s" tabindex="6" name="post" value="Submit" class="button1 default-submit-action">'
                f"{self.issue_form(sid)}</fieldset></div></div>"
                f'<div class="panel bg3" id="options-panel"><div class="inner"><fieldset class="fields1">'
                f'<div><label for="disable_bbcode"><input type="checkbox" name="disable_bbcode" id="disable_bbcode"> '
                f'Disable BBCode</label></div><div><label for="attach_sig"><input type="checkbox" name="attach_sig" '
                f'id="attach_sig" checked="checked"> Attach a signature</label></div>'
                f'<div><label for="notify"><input type="checkbox" name="notify" id="notify"> Notify me when a reply '
                f"is posted</label></div></fieldset></div></div></form>"
                f'<h3 id="review">Topic review</h3><div id="topicreview">{review}</div>')
        return self._page("Post a reply", user, body)

    def compose_page(self, user: str, sid: str, *, to: dict[int, str] | None = None, subject: str = "",
                     message: str = "", error: str = "") -> str:
        ids = {v: k for k, v in self.user_ids().items()}
        to = to or {}
        err = f'<p class="error">{html.escape(error)}</p>' if error else ""
        listed = "".join(f'<li>{self._user_link(ids.get(uid, "?"), uid)} <input type="submit" name="remove_u[{uid}]" '
                         f'value="Remove" class="button2"></li>' for uid in to)
        hidden = "".join(f'<input type="hidden" name="address_list[u][{uid}]" value="{kind}">'
                         for uid, kind in to.items())
        body = (f'<h2>Compose message</h2><form id="postform" method="post" '
                f'action="./ucp.php?i=pm&amp;mode=compose&amp;action=post&amp;sid={sid}" enctype="multipart/form-data">'
                f'<div class="panel" id="postingbox"><div class="inner"><h3>Compose message</h3>{err}'
                f'<fieldset class="fields1"><dl><dt><label for="username_list">Recipients:</label></dt>'
                f'<dd><textarea id="username_list" name="username_list" class="inputbox" cols="50" rows="2"></textarea></dd>'
                f'<dd><input type="submit" name="add_to" value="Add" class="button2"></dd></dl>'
                f'<dl><dt>To:</dt><dd><ul class="recipients">{listed}</ul></dd></dl>'
                f'<dl><dt><label for="subject">Subject:</label></dt><dd><input type="text" name="subject" id="subject" '
                f'size="45" maxlength="120" value="{html.escape(subject)}" class="inputbox"></dd></dl>'
                f'<div id="message-box"><textarea name="message" id="message" rows="15" cols="76" class="inputbox">'
                f"{html.escape(message)}</textarea></div></fieldset></div></div>"
                f'<div class="panel bg2"><div class="inner"><fieldset class="submit-buttons">{hidden}'
                f'<input type="hidden" name="status_switch" value="0">'
                f'<input type="submit" tabindex="5" name="preview" value="Preview" class="button1">&nbsp;'
                f'<input type="submit" accesskey="s" tabindex="6" name="post" value="Submit" class="button1 default-submit-action">'
                f"{self.issue_form(sid)}</fieldset></div></div></form>")
        return self._page("Compose message", user, body, section="ucp")

    def folder_page(self, user: str, folder: str) -> str:
        """Outbox (sent, not yet read by the recipient) or Sent messages."""
        want_read = folder == "sent"
        rows = []
        for pm in reversed(self.pms):
            if pm.sender != user or pm.read != want_read:
                continue
            uid = self.user_ids().get(pm.to, 1)
            f = -1 if want_read else -2
            rows.append(
                f'<li class="row bg1"><dl class="icon"><dt>'
                f'<a href="./ucp.php?i=pm&amp;mode=view&amp;f={f}&amp;p={pm.pm_id}" class="topictitle">'
                f"{html.escape(pm.subject)}</a><br>To: {self._user_link(pm.to, uid)} » "
                f'<time datetime="{pm.at.astimezone(timezone.utc).isoformat()}">{pm.at:%a %b %d, %Y %I:%M %p}</time>'
                f'</dt><dd class="mark"><input type="checkbox" name="marked_msg_id[]" value="{pm.pm_id}"></dd>'
                f"</dl></li>")
        title = "Sent messages" if want_read else "Outbox"
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Private messages</title></head>'
                f'<body id="phpbb" class="section-ucp">{self._login_links(user)}<h2>Private messages - {title}</h2>'
                f'<ul class="topiclist cplist pmlist">{"".join(rows)}</ul><p>Powered by phpBB</p></body></html>')

    def store_reply(self, thread_id: int, user: str, bbcode: str) -> SitePost:
        post = self.add_post(thread_id, user, self.now(), bbcode)
        self.last_post_at[user] = self.clock()
        return post

    def store_pm(self, user: str, to: list[str], subject: str, bbcode: str) -> int:
        with self.lock:
            self.next_pm_id += 1
            pm_id = self.next_pm_id
            for name in to:
                self.pms.append(SitePM(pm_id, user, name, self.now(), subject, bbcode))
        self.last_post_at[user] = self.clock()
        return pm_id


def make_server(site: PhpbbSite, port: int = 0) -> ThreadingHTTPServer:
    """A threaded HTTP server for `site` on 127.0.0.1 (port 0: any free port)."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "phpBB-demo"

        def log_message(self, *args) -> None:  # the demo prints its own summary
            pass

        def _sid(self) -> str | None:
            c = SimpleCookie(self.headers.get("Cookie", ""))
            return c["phpbb3_sid"].value if "phpbb3_sid" in c else None

        def _user(self) -> str | None:
            sid = self._sid()
            return site.sessions.get(sid) if sid else None

        def _send(self, status: int, body: str = "", headers: dict[str, str] | None = None) -> None:
            data = body.encode("utf-8")
            etag = '"' + hashlib.sha1(data).hexdigest()[:16] + '"'
            if status == 200 and self.command == "GET" and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if status == 200:
                self.send_header("ETag", etag)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            with site.lock:
                site.requests.append(f"GET {self.path}")
            parts = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(parts.query).items()}
            user = self._user()
            if parts.path in ("/", "/index.php"):
                self._send(200, f'<html><body id="phpbb">{site._login_links(user)}<p>Powered by phpBB</p></body></html>')
            elif parts.path == "/viewtopic.php" and q.get("t", "").isdigit() and int(q["t"]) in site.threads:
                self._send(200, site.thread_page(int(q["t"]), int(q.get("start", "0") or 0), user))
            elif parts.path == "/viewtopic.php" and q.get("p", "").isdigit() and site.find_post(int(q["p"])):
                tid, start = site.find_post(int(q["p"]))  # type: ignore[misc]
                self._send(200, site.thread_page(tid, start, user))
            elif parts.path == "/ucp.php" and q.get("mode") == "login":
                self._send(200, site.login_page())
            elif parts.path == "/posting.php" and q.get("mode") == "reply":
                if user is None:
                    self._send(200, site.login_page("You need to login in order to reply to topics within this forum."))
                elif not q.get("t", "").isdigit() or int(q["t"]) not in site.threads:
                    self._send(404, site.info_page(user, "The requested topic does not exist."))
                else:
                    self._send(200, site.posting_page(int(q["t"]), user, self._sid() or ""))
            elif parts.path == "/ucp.php" and q.get("i") == "pm":
                if user is None:
                    self._send(200, site.login_page("You must be logged in to read private messages."))
                elif q.get("mode") == "compose":
                    self._send(200, site.compose_page(user, self._sid() or ""))
                elif q.get("folder") in ("outbox", "sent"):
                    self._send(200, site.folder_page(user, q["folder"]))
                elif q.get("mode") == "view" and q.get("p", "").isdigit():
                    page = site.pm_page(user, int(q["p"]))
                    self._send(200 if page else 404, page or "<html><body>No such message</body></html>")
                else:
                    self._send(200, site.inbox_page(user))
            else:
                self._send(404, "<html><body>Not found</body></html>")

        def do_POST(self) -> None:
            with site.lock:
                site.requests.append(f"POST {self.path}")
            length = int(self.headers.get("Content-Length", "0") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode("utf-8"), keep_blank_values=True).items()}
            parts = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(parts.query).items()}
            if parts.path == "/ucp.php" and q.get("mode") == "login":
                name, pw = form.get("username", ""), form.get("password", "")
                if site.users.get(name) == pw and pw:
                    sid = secrets.token_hex(16)
                    site.sessions[sid] = name
                    self._send(302, "", {"Location": f"./index.php?sid={sid}",  # phpBB's reapply_sid()
                                         "Set-Cookie": f"phpbb3_sid={sid}; Path=/; HttpOnly"})
                else:
                    self._send(200, site.login_page("The password you entered is incorrect."))
                return
            user, sid = self._user(), self._sid() or ""
            if user is None and parts.path in ("/posting.php", "/ucp.php"):
                self._send(200, site.login_page("You need to login first."))
            elif parts.path == "/posting.php" and q.get("mode") == "reply" and q.get("t", "").isdigit() \
                    and int(q["t"]) in site.threads:
                self._reply(int(q["t"]), user, sid, form)
            elif parts.path == "/ucp.php" and q.get("i") == "pm" and q.get("mode") == "compose":
                self._compose(user, sid, form)
            else:
                self._send(404, "<html><body>Not found</body></html>")

        def _vanish(self) -> bool:
            """Simulate a lost answer: the post is stored, the client hears nothing."""
            if not site.drop_next_answer:
                return False
            site.drop_next_answer = False
            self.close_connection = True
            return True

        def _reply(self, thread_id: int, user: str, sid: str, form: dict[str, str]) -> None:
            if "post" not in form:  # preview and the other buttons publish nothing
                self._send(200, site.posting_page(thread_id, user, sid, message=form.get("message", "")))
                return
            if site.too_soon(form):
                self._send(302, "", {"Location": f"./viewtopic.php?t={thread_id}"})
                return
            error = site.form_problem(sid, form) or (FLOOD_ERROR if site.flooding(user) else None) \
                or (EMPTY_MESSAGE if not form.get("message", "").strip() else None) \
                or site.too_long(form.get("message", ""))
            if error:
                self._send(200, site.posting_page(thread_id, user, sid, subject=form.get("subject", ""),
                                                  message=form.get("message", ""), error=error))
                return
            post = site.store_reply(thread_id, user, form["message"])
            if self._vanish():
                return
            target = f"./viewtopic.php?f=2&t={thread_id}&p={post.post_id}#p{post.post_id}"
            self._send(200, site.info_page(
                user, f'This message has been posted successfully.<br><br><a href="{html.escape(target)}">View your '
                f'submitted message</a><br><br>Return to <a href="./viewforum.php?f=2">the forum</a>', target))

        def _compose(self, user: str, sid: str, form: dict[str, str]) -> None:
            ids = site.user_ids()
            to = {int(k[len("address_list[u]["):-1]): v for k, v in form.items()
                  if k.startswith("address_list[u][") and k.endswith("]") and k[len("address_list[u]["):-1].isdigit()}
            keep = {"subject": form.get("subject", ""), "message": form.get("message", "")}
            if "add_to" in form:
                names = [n.strip() for n in form.get("username_list", "").splitlines() if n.strip()]
                unknown = [n for n in names if n not in ids]
                for n in names:
                    if n in ids:
                        to[ids[n]] = "to"
                self._send(200, site.compose_page(user, sid, to=to, error=NO_SUCH_USER if unknown or not names else "",
                                                  **keep))
                return
            if "post" not in form:
                self._send(200, site.compose_page(user, sid, to=to, **keep))
                return
            if site.too_soon(form):
                self._send(302, "", {"Location": "./ucp.php?i=pm"})
                return
            error = site.form_problem(sid, form) or (FLOOD_ERROR if site.flooding(user) else None) \
                or (EMPTY_SUBJECT if not keep["subject"].strip() else None) or (NO_RECIPIENT if not to else None) \
                or (EMPTY_MESSAGE if not keep["message"].strip() else None) or site.too_long(keep["message"])
            if error:
                self._send(200, site.compose_page(user, sid, to=to, error=error, **keep))
                return
            names = {uid: n for n, uid in ids.items()}
            pm_id = site.store_pm(user, [names[uid] for uid in to if uid in names], keep["subject"], keep["message"])
            if self._vanish():
                return
            target = f"./ucp.php?i=pm&mode=view&p={pm_id}"
            self._send(200, site.info_page(
                user, f'Your message has been sent successfully.<br><br><a href="{html.escape(target)}">View your '
                f'message</a><br><br>Return to your <a href="./ucp.php?i=pm&amp;folder=outbox">Outbox</a>', target))

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


class RunningSite:
    """Start `make_server(site)` in a daemon thread; `with RunningSite(site) as s: s.base_url`."""

    def __init__(self, site: PhpbbSite, port: int = 0):
        self.site = site
        self.server = make_server(site, port)
        self.thread = threading.Thread(target=self.server.serve_forever, name="demo-forum", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/"

    def __enter__(self) -> "RunningSite":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def thread_url(base_url: str, thread_id: int) -> str:
    return f"{base_url}viewtopic.php?{urlencode({'t': thread_id})}"
