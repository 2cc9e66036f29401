"""A small phpBB-like forum served in-process on 127.0.0.1, for the demo and for tests.

It renders prosilver markup (the structure real phpBB 3 boards serve: `div.post#p<id>`,
`p.author` with `<time datetime>`, `div.content`, `div.pagination`, the `ucp.php` private
message pages and login form), so forummod reads it with the same `phpbb` profile it uses on
real boards. Pages carry ETags and honour If-None-Match, logins set a session cookie, and a
request log lets tests count requests.
"""

from __future__ import annotations

import hashlib
import html
import secrets
import threading
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
        pm = next((p for p in self.pms if p.pm_id == pm_id and p.to == user), None)
        if pm is None:
            return None
        ids = self.user_ids()
        return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>View message</title></head>'
                f'<body id="phpbb" class="section-ucp">{self._login_links(user)}'
                f'<div id="post-content"><h3 class="first">{html.escape(pm.subject)}</h3>'
                f'<p class="author"><strong>Sent:</strong> <time datetime="{pm.at.astimezone(timezone.utc).isoformat()}">'
                f"{pm.at:%a %b %d, %Y %I:%M %p}</time><br><strong>From:</strong> {self._user_link(pm.sender, ids.get(pm.sender, 1))}"
                f"<br><strong>Recipient:</strong> {self._user_link(pm.to, ids.get(pm.to, 1))}</p>"
                f'<div class="content">{to_html(pm.bbcode)}</div></div><p>Powered by phpBB</p></body></html>')


def make_server(site: PhpbbSite, port: int = 0) -> ThreadingHTTPServer:
    """A threaded HTTP server for `site` on 127.0.0.1 (port 0: any free port)."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "phpBB-demo"

        def log_message(self, *args) -> None:  # the demo prints its own summary
            pass

        def _user(self) -> str | None:
            c = SimpleCookie(self.headers.get("Cookie", ""))
            sid = c["phpbb3_sid"].value if "phpbb3_sid" in c else None
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
            elif parts.path == "/ucp.php" and q.get("mode") == "login":
                self._send(200, site.login_page())
            elif parts.path == "/ucp.php" and q.get("i") == "pm":
                if user is None:
                    self._send(200, site.login_page("You must be logged in to read private messages."))
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
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode("utf-8")).items()}
            parts = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(parts.query).items()}
            if parts.path == "/ucp.php" and q.get("mode") == "login":
                name, pw = form.get("username", ""), form.get("password", "")
                if site.users.get(name) == pw and pw:
                    sid = secrets.token_hex(16)
                    site.sessions[sid] = name
                    self._send(302, "", {"Location": "./index.php",
                                         "Set-Cookie": f"phpbb3_sid={sid}; Path=/; HttpOnly"})
                else:
                    self._send(200, site.login_page("The password you entered is incorrect."))
                return
            self._send(404, "<html><body>Not found</body></html>")

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
