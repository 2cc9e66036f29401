"""Credentials go nowhere but the login form (SECURITY.md, CRED-1..CRED-3; issue 19, failure 1).

Real HTTP to small sites on 127.0.0.1 that record every request with its body: a Spirit-like
forum whose login URL answers with an ordinary page (a search form, no login form), a login
form posting to another origin, a login page redirected to another origin, and a Discourse
API key next to a link and a redirect to another host. The password (or the key) must never
reach a request it does not belong in.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import pytest

from forummod.config import SiteConfig
from forummod.errors import LoginFailed
from forummod.forum import http as fhttp
from forummod.forum.http import HttpClient
from forummod.forum.login import login_with_form
from forummod.forum.registry import get_profile

PASSWORD = "Cred-5b1e0d-never-in-a-search"
API_KEY = "Key-8c2f7a9e41d0-site-only"

SEARCH_PAGE = ('<html><body><a href="/user/logout/">Log out</a>'
               '<form action="/search/" method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t0k3n">'
               '<input type="text" name="q"><button type="submit">Search</button></form></body></html>')
GUEST_SEARCH_PAGE = SEARCH_PAGE.replace('<a href="/user/logout/">Log out</a>', '<a href="/user/login/">Log in</a>')


def login_page(action: str) -> str:
    return ('<html><body><form action="/search/" method="post"><input type="text" name="q"></form>'
            f'<form action="{action}" method="post"><input type="hidden" name="csrfmiddlewaretoken" value="t0k3n">'
            '<input type="text" name="username"><input type="password" name="password">'
            '<button type="submit">Log in</button></form></body></html>')


@dataclass
class Seen:
    method: str
    path: str
    body: bytes
    headers: dict[str, str]


@dataclass
class Site:
    """A local site: `routes[(method, path)]` gives (status, headers, body); every request is kept."""

    routes: dict[tuple[str, str], tuple[int, dict[str, str], str]] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    server: Any = None

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/"

    def posts(self) -> list[Seen]:
        return [s for s in self.seen if s.method == "POST"]

    def carried(self, secret: str) -> list[Seen]:
        return [s for s in self.seen if secret.encode() in s.body
                or any(secret in v for v in s.headers.values())]


def serve(site: Site) -> Callable[[], None]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a: Any) -> None:
            pass

        def _answer(self) -> None:
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else b""
            site.seen.append(Seen(self.command, self.path, body, dict(self.headers)))
            status, headers, text = site.routes.get((self.command, self.path.split("?")[0]),
                                                    (404, {}, "<html><body>not here</body></html>"))
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _answer

    site.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=site.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    t.start()

    def stop() -> None:
        site.server.shutdown()
        site.server.server_close()

    return stop


@pytest.fixture
def sites():
    fhttp.reset_limiters()
    made: list[tuple[Site, Callable[[], None]]] = []

    def make() -> Site:
        s = Site()
        made.append((s, serve(s)))
        return s

    yield make
    for _, stop in made:
        stop()
    fhttp.reset_limiters()


def client(site: Site) -> HttpClient:
    return HttpClient(site="spirit", base_url=site.base, request_interval=0.0, retries=0, timeout=5.0)


# ---------------------------------------------------------------------- CRED-2: the form's shape


def test_cred2_a_logged_in_page_with_only_a_search_form_gets_no_password(sites):
    """The issue's failure: the login URL answered with an ordinary page (we are logged in);
    Spirit's profile also matches any "form", and the password went to POST /search/."""
    forum = sites()
    forum.routes[("GET", "/user/login/")] = (200, {}, SEARCH_PAGE)
    login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)  # the session is still good
    assert forum.posts() == []
    assert forum.carried(PASSWORD) == []


def test_cred2_a_guest_page_with_only_a_search_form_is_a_login_failure_not_a_guess(sites):
    forum = sites()
    forum.routes[("GET", "/user/login/")] = (200, {}, GUEST_SEARCH_PAGE)
    with pytest.raises(LoginFailed, match="no login form.*password was not sent"):
        login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)
    assert forum.posts() == [] and forum.carried(PASSWORD) == []


def test_cred2_the_password_goes_into_the_form_with_the_password_field_next_to_a_search_form(sites):
    forum = sites()
    forum.routes[("GET", "/user/login/")] = (200, {}, login_page("/user/login/"))
    forum.routes[("POST", "/user/login/")] = (302, {"Location": "/"}, "")
    forum.routes[("GET", "/")] = (200, {}, SEARCH_PAGE)
    login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)
    assert [(s.method, s.path) for s in forum.carried(PASSWORD)] == [("POST", "/user/login/")]
    assert [s.path for s in forum.seen] == ["/user/login/", "/user/login/", "/"]  # the redirect: a GET


# ---------------------------------------------------------------------- CRED-1: where it may go


def test_cred1_a_login_form_posting_to_another_origin_gets_no_password(sites):
    forum, other = sites(), sites()
    forum.routes[("GET", "/user/login/")] = (200, {}, login_page(f"{other.base}user/login/"))
    with pytest.raises(LoginFailed, match="not to http://127.0.0.1.*password was not sent"):
        login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)
    assert forum.posts() == [] and other.seen == []


def test_cred1_a_login_form_posting_to_another_path_of_the_site_gets_no_password(sites):
    forum = sites()
    forum.routes[("GET", "/user/login/")] = (200, {}, login_page("/search/"))
    with pytest.raises(LoginFailed, match="not to the login endpoint"):
        login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)
    assert forum.posts() == []


def test_cred1_a_login_page_redirected_to_another_origin_gets_no_password(sites):
    forum, other = sites(), sites()
    forum.routes[("GET", "/user/login/")] = (302, {"Location": f"{other.base}user/login/"}, "")
    other.routes[("GET", "/user/login/")] = (200, {}, login_page("/user/login/"))
    with pytest.raises(LoginFailed, match="another site; the password was not sent"):
        login_with_form(client(forum), get_profile("spirit"), "gm", PASSWORD)
    assert forum.posts() == [] and other.posts() == []
    assert forum.carried(PASSWORD) == [] and other.carried(PASSWORD) == []


def test_cred1_an_http_downgrade_of_an_https_site_is_another_origin():
    from forummod.forum.http import origin

    assert origin("https://forum.example/login") != origin("http://forum.example/login")
    assert origin("https://Forum.Example/") == origin("https://forum.example:443/x")
    assert origin("http://forum.example:8080/") != origin("http://forum.example/")


# ---------------------------------------------------------------------- CRED-3: API keys


def test_cred3_the_api_key_goes_only_to_the_sites_origin_never_after_a_redirect_or_to_a_link(sites, monkeypatch):
    from forummod.forum.discourse import DiscourseAdapter

    forum, other = sites(), sites()
    forum.routes[("GET", "/latest.json")] = (200, {}, "{}")
    forum.routes[("GET", "/away")] = (302, {"Location": f"{other.base}stolen"}, "")
    other.routes[("GET", "/stolen")] = (200, {}, "<html><body>elsewhere</body></html>")
    other.routes[("GET", "/avatar.png")] = (200, {}, "")
    monkeypatch.setenv("FM_TEST_API_KEY", API_KEY)
    site = SiteConfig(engine="discourse", base_url=forum.base, username="gm", api_key_env="FM_TEST_API_KEY",
                      request_interval=0.0, retries=0)
    adapter = DiscourseAdapter("d", site, get_profile("discourse"))
    adapter.http.get("/latest.json", check_login=False)
    adapter.http.get("/away", check_login=False)
    adapter.http.get(f"{other.base}avatar.png", check_login=False)
    assert [s.path for s in forum.carried(API_KEY)] == ["/latest.json", "/away"]
    assert forum.carried(API_KEY)[0].headers.get("Api-Key") == API_KEY
    assert [s.path for s in other.seen] == ["/stolen", "/avatar.png"]
    assert other.carried(API_KEY) == [] and all("Api-Key" not in s.headers for s in other.seen)
