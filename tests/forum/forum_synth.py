"""Synthetic phpBB (prosilver) thread pages and a loopback HTTP server that serves them.

Made by us for tests (no third-party content): a thread of N posts, 10 per page, with
ETag support, request counting and a switch to add posts while the server runs.
"""

from __future__ import annotations

import hashlib
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PER_PAGE = 10
BASE_TIME = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def post_html(i: int) -> str:
    pid = 1000 + i
    user = f"player{i % 7 + 1}"
    when = BASE_TIME + timedelta(minutes=i)
    quote = (f'<blockquote><div><cite>player{(i - 1) % 7 + 1} wrote:</cite>earlier words</div></blockquote>'
             if i % 5 == 0 else "")
    return (f'<div id="p{pid}" class="post has-profile bg{i % 2 + 1}"><div class="inner">'
            f'<dl class="postprofile" id="profile{pid}"><dt><a href="./memberlist.php?mode=viewprofile&amp;u={i % 7 + 1}" '
            f'class="username">{user}</a></dt></dl><div class="postbody"><div id="post_content{pid}">'
            f'<h3><a href="#p{pid}">Re: Game</a></h3><p class="author"><a href="./viewtopic.php?p={pid}#p{pid}">'
            f'<span class="imageset icon_post_target">Post</span></a><span class="responsive-hide">by <strong>'
            f'<a href="./memberlist.php?mode=viewprofile&amp;u={i % 7 + 1}" class="username">{user}</a></strong> » </span>'
            f'<time datetime="{when.isoformat()}">{when:%a %b %d, %Y %I:%M %p}</time></p>'
            f'<div class="content">{quote}Post {i} by {user}. <span style="font-weight: bold">VOTE: player{(i + 3) % 7 + 1}</span>'
            f'</div></div></div></div></div>')


def page_html(n_posts: int, page: int, *, login: bool = False) -> str:
    pages = max(1, (n_posts + PER_PAGE - 1) // PER_PAGE)
    first = (page - 1) * PER_PAGE
    items = []
    for p in sorted({1, page - 1, page, page + 1, pages}):
        if 1 <= p <= pages:
            if p == page:
                items.append(f'<li class="active"><span>{p}</span></li>')
            else:
                items.append(f'<li><a class="button" href="./viewtopic.php?t=1&amp;start={(p - 1) * PER_PAGE}">{p}</a></li>')
    if page < pages:
        items.append(f'<li class="arrow next"><a class="button" rel="next" href="./viewtopic.php?t=1&amp;start={page * PER_PAGE}">Next</a></li>')
    posts = "".join(post_html(i) for i in range(first + 1, min(n_posts, first + PER_PAGE) + 1))
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>Game - Mafia Forum</title></head>'
            '<body id="phpbb" class="section-viewtopic"><div id="page-body">'
            '<h2 class="topic-title"><a href="./viewtopic.php?t=1">Game</a></h2>'
            f'<div class="pagination">{n_posts} posts • <ul>{"".join(items)}</ul></div>'
            f'{posts}<p>Powered by phpBB</p></div></body></html>')


class ForumState:
    def __init__(self, n_posts: int):
        self.n_posts = n_posts
        self.requests: list[str] = []
        self.etags = True
        self.lock = threading.Lock()


def make_server(state: ForumState) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet
            pass

        def do_GET(self):
            with state.lock:
                state.requests.append(self.path)
            parts = urlsplit(self.path)
            q = parse_qs(parts.query)
            if parts.path != "/viewtopic.php":
                self.send_response(404)
                self.end_headers()
                return
            start = int(q.get("start", ["0"])[0])
            body = page_html(state.n_posts, start // PER_PAGE + 1).encode()
            etag = '"' + hashlib.md5(body).hexdigest() + '"'
            if state.etags and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            if state.etags:
                self.send_header("ETag", etag)
            self.end_headers()
            self.wfile.write(body)

    return ThreadingHTTPServer(("127.0.0.1", 0), Handler)
