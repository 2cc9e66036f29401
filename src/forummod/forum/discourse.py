"""Discourse through its JSON API (the HTML crawler view, parsed by the profile, is the fallback).

Threads: `/t/<id>.json` gives the post id stream and the first posts; `/t/<id>/posts.json?
post_ids[]=...` gives the rest in chunks of 20, the "pages" of a Discourse topic. A poll
re-reads the last chunk it saw (to notice edits and deletions) plus any new chunk.
Private messages: `/topics/private-messages/<user>.json` then `/t/<id>.json` per changed
conversation. API reads record no read-timings, so nothing is marked read.
Auth: `Api-Key`/`Api-Username` headers when an API key is configured, else the
`/session/csrf` + `POST /session` login.
Writing: `POST /posts.json` (`topic_id` + `raw` for a reply; `title`, `raw`,
`archetype=private_message`, `target_recipients` for a PM), once, never retried; a refusal
(422 "posting too quickly", 429, 403) is a PublishError with Discourse's own words.
`find_published` reads the topic's last posts (and `raw` when the cooked HTML lost the
marker) or the account's sent private messages.
"""

from __future__ import annotations

import json

from datetime import datetime, timedelta, tzinfo
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import lxml.html

from forummod.config import SiteConfig
from forummod.errors import (
    CredentialsRefused,
    ForumError,
    LayoutChanged,
    LoginFailed,
    LoginRequired,
    LoginUnanswered,
    NetworkError,
    PublishError,
)
from forummod.forum.base import InboxPoll, ParsedPage, Progress, ThreadPoll, ThreadRef
from forummod.forum.cookies import CookieStore
from forummod.forum.dates import parse_iso
from forummod.forum.html_adapter import HtmlAdapter
from forummod.forum.html_engine import cap_depth, normalise_body, thread_id_of
from forummod.forum.http import HttpClient
from forummod.forum.login import password_place, read_secret
from forummod.forum.login_guard import LoginGuard
from forummod.forum.poller import content_hash
from forummod.forum.write import PublishUncertain, flood_gate, flood_interval, has_marker, site_key
from forummod.logsafe import register_secret
from forummod.adapter_records import Cursor, PageRef, RawMessage, RawPost
from forummod.model import Issue, Published

CHUNK = 20
FIND_POSTS = 40  # last posts of a topic searched by find_published
FIND_PMS = 15  # newest sent private messages searched by find_published
FIND_RAW = 10  # our posts whose raw text is fetched when the cooked HTML lost the marker
SINCE_SLACK = timedelta(minutes=15)


def normalise_cooked(profile: Any, cooked: str) -> str:
    """Discourse's rendered HTML with data-fm marks (quotes are aside.quote[data-username])."""
    frag = lxml.html.fragment_fromstring(cap_depth(cooked or ""), create_parent="div")
    frag.set("class", "cooked")
    return normalise_body(profile, frag)


def posts_from_json(profile: Any, data: Mapping[str, Any], *, base_url: str, tz: tzinfo,
                    slug_url: str = "") -> list[RawPost]:
    """Posts of a topic / posts.json / single-post answer, in post_number order."""
    if "post_stream" in data:
        raw = data["post_stream"].get("posts", [])
    elif "latest_posts" in data:
        raw = data["latest_posts"]
    elif "cooked" in data:
        raw = [data]
    else:
        raw = []
    out: list[RawPost] = []
    for p in raw:
        if p.get("post_type", 1) not in (1, None) and p.get("post_type") != 4:
            continue  # moderator actions / small actions are not posts a player wrote
        created = parse_iso(str(p.get("created_at", "")), tz)
        if created is None:
            raise LayoutChanged(profile.name, base_url, "post.created_at", f"post {p.get('id')} has no created_at")
        version = int(p.get("version") or 1)
        edited_at = parse_iso(str(p.get("last_edited_at") or p.get("updated_at") or ""), tz) if version > 1 else None
        topic = p.get("topic_id")
        url = f"{base_url.rstrip('/')}/t/{p.get('topic_slug') or '-'}/{topic}/{p.get('post_number')}" if topic else slug_url
        out.append(RawPost(post_id=str(p["id"]), author=p.get("username") or "", created_at=created,
                           html=normalise_cooked(profile, p.get("cooked", "")), number=p.get("post_number"),
                           author_id=str(p["user_id"]) if p.get("user_id") is not None else None,
                           edited_at=edited_at, edited=version > 1, url=url))
    out.sort(key=lambda r: (r.number or 0))
    return out


def parse_topic_json(profile: Any, text: str, *, url: str, base_url: str, tz: tzinfo) -> ParsedPage:
    """A /t/<id>.json or /t/<id>/posts.json answer as a ParsedPage (pure)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LayoutChanged(profile.name, url, "json", f"not JSON: {e}") from None
    posts = posts_from_json(profile, data, base_url=base_url, tz=tz)
    if not posts:
        raise LayoutChanged(profile.name, url, "post_stream.posts", "no posts in the answer")
    stream = data.get("post_stream", {}).get("stream")
    last = (len(stream) + CHUNK - 1) // CHUNK if stream else None
    return ParsedPage(posts=tuple(posts), page=1, last_page=last, thread_id=str(data.get("id", "")) or None,
                      title=data.get("title"))


def is_json(text: str) -> bool:
    s = text.lstrip()
    return s.startswith("{") or s.startswith("[")


#: Discourse's `reason` for a refused login whose password was right (the account cannot log
#: in yet or any more): the GM fixes the account, and a later pass tries again
_ACCOUNT_REASONS = frozenset({"not_activated", "not_approved", "suspended", "admin_not_allowed_from_ip_address"})


def session_refusal(site: str, status: int, data: Mapping[str, Any]) -> LoginFailed | None:
    """What Discourse's answer to `POST /session` says, None for a success: its `error` about
    the credentials is `CredentialsRefused`, a server error `LoginUnanswered`, the rest a
    `LoginFailed` tried again later."""
    if status >= 500 or status == 429:
        return LoginUnanswered(f"{site}: the forum did not answer the login (HTTP {status})")
    error = str(data.get("error") or "")
    if error and data.get("reason") in _ACCOUNT_REASONS:
        return LoginFailed(f"{site}: the forum refuses this account's login: “{error}”")
    if error:
        return CredentialsRefused(f"{site}: the forum says the credentials are wrong: “{error}”")
    if status >= 400:
        return LoginFailed(f"{site}: the login answered HTTP {status} without saying why")
    return None


class DiscourseAdapter:
    """Discourse through its JSON API: threads, private messages, replies and PMs."""

    def __init__(self, site_name: str, site: SiteConfig, profile: Any, *, http: HttpClient | None = None,
                 cookie_store: CookieStore | None = None, clock: Callable[[], datetime] | None = None):
        self.site_name, self.site, self.profile = site_name, site, profile
        self.engine = profile.name
        self.http = http or HttpClient.from_site(site_name, site, cookie_store=cookie_store)
        self.tz = ZoneInfo(site.timezone)
        self.html = HtmlAdapter(site_name, site, profile, http=self.http, clock=clock)
        self._clock = clock
        self._authed = False
        self.login_guard = LoginGuard(site_name, self.http.wall_clock, where=password_place(site),
                                      keep=self.http.cookie_store)
        if site.api_key_env:
            key = read_secret(site.api_key_env, site_name=site_name, what="API key")
            # CRED-3: the key travels only in Discourse's documented headers, only to the site's origin
            self.http.set_site_header("Api-Key", key)
            self.http.site_headers["Api-Username"] = site.username or "system"
            self._authed = True

    @property
    def base(self) -> str:
        return self.site.base_url.rstrip("/")

    def thread_id(self, thread: ThreadRef) -> str:
        url = thread.url.strip()
        if url.isdigit():
            return url
        tid = thread_id_of(self.profile, url)
        if not tid:
            raise ForumError(f"discourse: {url} is not a topic URL (/t/<slug>/<id>)")
        return tid

    # ------------------------------------------------------------------ auth

    def login(self) -> None:
        if self._authed:
            return
        if not self.site.username:
            raise LoginRequired(f"{self.site_name}: Discourse needs username + password_env or api_key_env")
        password = read_secret(self.site.password_env, use_keyring=self.site.use_keyring, site_name=self.site_name)
        if not self.http.same_origin("/session"):  # CRED-1: credentials only to the site's own origin
            raise LoginFailed(f"discourse: the login endpoint {self.http.absolute('/session')} is not on the "
                              f"site's origin {self.http.site_origin}; nothing was sent")
        self.login_guard.attempt(password, lambda: self._post_login(password))
        self._authed = True

    def _post_login(self, password: str) -> None:
        hdr = {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json"}
        csrf = self.http.get("/session/csrf", headers=hdr, check_login=False)
        token = json.loads(csrf.text).get("csrf", "") if is_json(csrf.text) else ""
        ans = self.http.post("/session", {"login": self.site.username, "password": password},
                             headers={**hdr, "X-CSRF-Token": token})
        data = json.loads(ans.text) if is_json(ans.text) else {}
        refusal = session_refusal(self.site_name, ans.status, data if isinstance(data, dict) else {})
        if refusal is not None:
            raise refusal
        self.http.save_cookies()

    def _json(self, path: str, params: Mapping[str, Any] | Sequence[tuple[str, Any]] | None = None) -> tuple[dict, int]:
        url = path + (("?" + urlencode(params, doseq=True)) if params else "")
        f = self.http.get(url, headers={"Accept": "application/json"}, check_login=False)
        if f.status in (401, 403) and not self._authed and self.site.username:
            self.login()
            f = self.http.get(url, headers={"Accept": "application/json"}, check_login=False)
        if f.status in (401, 403):
            raise LoginRequired(f"discourse: {url} needs a login (HTTP {f.status})")
        if f.status >= 400:
            raise ForumError(f"discourse: GET {url}: HTTP {f.status}")
        if not is_json(f.text):
            raise LayoutChanged(self.engine, url, "json", "the answer is not JSON")
        return json.loads(f.text), f.nbytes

    # ------------------------------------------------------------------ threads

    def poll_thread(self, thread: ThreadRef, cursor: Cursor | None, progress: Progress | None = None) -> ThreadPoll:
        tid = self.thread_id(thread)
        before = (self.http.stats.requests, self.http.stats.bytes)
        try:
            topic, _ = self._json(f"/t/{tid}.json")
        except LayoutChanged:
            # JSON refused (API disabled or a proxy page): the HTML crawler view via the profile
            return self.html.poll_thread(ThreadRef(f"{self.base}/t/{tid}", thread.role), cursor, progress)
        stream: list[int] = list(topic.get("post_stream", {}).get("stream", []))
        have = {p.id: p for p in posts_from_json(self.profile, topic, base_url=self.base, tz=self.tz)}
        chunks = [stream[i:i + CHUNK] for i in range(0, len(stream), CHUNK)] or [[]]
        seen = int(dict(cursor.extra).get("seen", "0")) if cursor else 0
        start = max(0, (seen - 1) // CHUNK) if cursor else 0
        posts: list[RawPost] = []
        pages: list[int] = []
        for ci in range(start, len(chunks)):
            ids = chunks[ci]
            missing = [i for i in ids if str(i) not in have]
            if missing:
                data, _ = self._json(f"/t/{tid}/posts.json", [("post_ids[]", i) for i in missing])
                for p in posts_from_json(self.profile, data, base_url=self.base, tz=self.tz):
                    have[p.post_id] = p
            for i in ids:
                p = have.get(str(i))
                if p is not None:
                    from dataclasses import replace

                    posts.append(replace(p, page=ci + 1))
            pages.append(ci + 1)
            if progress is not None:
                progress(len(pages), len(chunks))
        if not posts and stream:
            raise LayoutChanged(self.engine, f"{self.base}/t/{tid}.json", "post_stream", "stream ids without posts")
        new_cursor = Cursor(stream=f"thread:{tid}", last_page=len(chunks), pages_total=len(chunks),
                            last_post_id=str(stream[-1]) if stream else None,
                            page_ref=PageRef(url=f"{self.base}/t/{tid}.json", content_hash=content_hash(json.dumps(stream))),
                            extra=(("seen", str(len(stream))),))
        return ThreadPoll(thread_id=tid, posts=tuple(posts), pages_fetched=tuple(pages), cursor=new_cursor,
                          requests=self.http.stats.requests - before[0], bytes=self.http.stats.bytes - before[1])

    # ------------------------------------------------------------------ inbox

    def poll_inbox(self, cursor: Cursor | None, known_ids: frozenset[str] = frozenset()) -> InboxPoll:
        if not self.site.username:
            raise LoginRequired(f"{self.site_name}: reading PMs needs sites.{self.site_name}.username")
        if not self._authed:
            self.login()
        before = (self.http.stats.requests, self.http.stats.bytes)
        seen = dict(cursor.extra) if cursor else {}
        new_seen = dict(seen)
        messages: list[RawMessage] = []
        issues: list[Issue] = []
        cap = max(1, getattr(self.site, "inbox_max_pages", 20))
        for box in ("", "-sent"):
            # the list pages on (`more_topics_url`, newest activity first) up to the first page of
            # known topics; a visited set and sites.x.inbox_max_pages keep it from looping
            url: str | None = f"/topics/private-messages{box}/{self.site.username}.json"
            visited: set[str] = set()
            while url is not None:
                if len(visited) >= cap:
                    issues.append(Issue("inbox_pages_capped", f"{self.site_name}: the private messages{box} list has "
                                        f"more than {cap} pages of new topics; read {cap} this poll (raise "
                                        f"sites.{self.site_name}.inbox_max_pages to read more at once)",
                                        severity="warning", details=url))
                    break
                visited.add(url)
                data, _ = self._json(url)
                fresh = 0
                for t in data.get("topic_list", {}).get("topics", []):
                    key = f"topic:{t['id']}"
                    version = f"{t.get('highest_post_number')}|{t.get('last_posted_at') or t.get('bumped_at')}"
                    if seen.get(key) == version:
                        continue
                    fresh += 1
                    new_seen[key] = version
                    topic, _ = self._json(f"/t/{t['id']}.json")
                    messages.extend(m for m in messages_from_topic(self.profile, topic, base_url=self.base, tz=self.tz)
                                    if m.message_id not in known_ids)
                more = data.get("topic_list", {}).get("more_topics_url")
                url = _json_list_url(more) if more and fresh else None
                if url in visited:
                    url = None
        uniq = {m.message_id: m for m in messages}
        return InboxPoll(messages=tuple(uniq.values()), issues=tuple(issues),
                         cursor=Cursor(stream="inbox", extra=tuple(sorted(new_seen.items())),
                                       last_post_id=next(reversed(uniq), None) if uniq else (cursor.last_post_id if cursor else None)),
                         requests=self.http.stats.requests - before[0], bytes=self.http.stats.bytes - before[1])

    # ------------------------------------------------------------------ write side

    def _write_headers(self) -> dict[str, str]:
        """Headers of a write: the API key travels in the session; a logged-in session needs a
        fresh CSRF token (fetched with a GET, which is safe to repeat)."""
        hdr = {"Accept": "application/json"}
        if self.site.api_key_env:
            return hdr
        if not self._authed:
            self.login()
        csrf = self.http.get("/session/csrf", headers={"X-Requested-With": "XMLHttpRequest", **hdr},
                             check_login=False)
        token = json.loads(csrf.text).get("csrf", "") if is_json(csrf.text) else ""
        if not token:
            raise PublishError("discourse: no CSRF token from /session/csrf; nothing was sent")
        register_secret(token)
        return {**hdr, "X-CSRF-Token": token, "X-Requested-With": "XMLHttpRequest"}

    def _create_post(self, payload: Mapping[str, Any], what: str, flood_interval: float) -> dict:
        """POST /posts.json once; Discourse's JSON error list becomes the PublishError message."""
        headers = self._write_headers()
        gate = flood_gate(site_key(self.base), self.site.username or "system")
        gate.reserve(flood_interval, 0.0, self.http.clock, self.http.sleep)
        try:
            f = self.http.post("/posts.json", dict(payload), headers=headers, allow_redirects=False)
        except NetworkError as e:
            gate.mark(self.http.clock())
            raise PublishUncertain(f"discourse: the {what} was sent but no answer came back ({e}); look for it "
                                   "(find_published) before sending again") from None
        gate.mark(self.http.clock())
        data = json.loads(f.text) if is_json(f.text) else {}
        if f.status in (200, 201) and isinstance(data, dict) and data.get("id") is not None:
            return data
        errors = data.get("errors") if isinstance(data, dict) else None
        said = "; ".join(str(e) for e in errors) if errors else (data.get("error") if isinstance(data, dict) else None)
        wait = (data.get("extras") or {}).get("wait_seconds") if isinstance(data, dict) else None
        if 400 <= f.status < 500:
            raise PublishError(f"discourse: the forum refused the {what} (HTTP {f.status}): {said or f.text[:200]}"
                               + (f" (wait {wait} s)" if wait else ""))
        raise PublishUncertain(f"discourse: HTTP {f.status} to the {what}; it may have been posted: look for it "
                               "(find_published) before sending again")

    def _published(self, data: Mapping[str, Any]) -> Published:
        slug = data.get("topic_slug") or "-"
        url = f"{self.base}/t/{slug}/{data.get('topic_id')}/{data.get('post_number', 1)}"
        at = parse_iso(str(data.get("created_at") or ""), self.tz) or self.html.now()
        return Published(remote_id=str(data["id"]), url=url, at=at)

    def reply(self, thread: ThreadRef, body: str, marker: str | None = None) -> Published:
        tid = self.thread_id(thread)
        data = self._create_post({"topic_id": tid, "raw": body}, "reply", flood_interval(self.site, self.profile.reply))
        return self._published(data)

    def send_pm(self, to: str, subject: str, body: str, marker: str | None = None) -> Published:
        payload = {"title": subject, "raw": body, "archetype": "private_message", "target_recipients": to}
        data = self._create_post(payload, "private message", flood_interval(self.site, self.profile.pm))
        return self._published(data)

    def find_published(self, marker: str, thread: ThreadRef | None = None,
                       since: datetime | None = None) -> Published | None:
        if not marker:
            raise PublishError("find_published needs a marker")
        if not self._authed and self.site.username:
            self.login()
        if thread is not None:
            tid = self.thread_id(thread)
            topic, _ = self._json(f"/t/{tid}.json")
            stream = list(topic.get("post_stream", {}).get("stream", []))[-FIND_POSTS:]
            have = {p.post_id: p for p in posts_from_json(self.profile, topic, base_url=self.base, tz=self.tz)}
            missing = [i for i in stream if str(i) not in have]
            for k in range(0, len(missing), CHUNK):
                data, _ = self._json(f"/t/{tid}/posts.json", [("post_ids[]", i) for i in missing[k:k + CHUNK]])
                have.update({p.post_id: p for p in posts_from_json(self.profile, data, base_url=self.base, tz=self.tz)})
            posts = [have[str(i)] for i in stream if str(i) in have]
            return self._marked(posts, marker, since)
        data, _ = self._json(f"/topics/private-messages-sent/{self.site.username}.json")
        topics = data.get("topic_list", {}).get("topics", [])
        for t in topics[:FIND_PMS]:
            last = parse_iso(str(t.get("last_posted_at") or t.get("bumped_at") or ""), self.tz)
            if since is not None and last is not None and last < since - SINCE_SLACK:
                continue
            topic, _ = self._json(f"/t/{t['id']}.json")
            found = self._marked(posts_from_json(self.profile, topic, base_url=self.base, tz=self.tz), marker, since)
            if found is not None:
                return found
        return None

    def _marked(self, posts: Sequence[RawPost], marker: str, since: datetime | None) -> Published | None:
        """Our post carrying the marker: in the cooked HTML, or else in its raw text (Discourse
        strips comments and unknown attributes when it cooks)."""
        me = (self.site.username or "").casefold()
        raw_reads = 0
        for p in posts:
            if p.author.casefold() != me or (since is not None and p.created_at < since - SINCE_SLACK):
                continue
            if has_marker(p.html, marker):
                return Published(remote_id=p.post_id, url=p.url, at=p.created_at)
            if raw_reads >= FIND_RAW:
                continue
            raw_reads += 1
            raw, _ = self._json(f"/posts/{p.post_id}.json")
            if has_marker(str(raw.get("raw", "")), marker):
                return Published(remote_id=p.post_id, url=p.url, at=p.created_at)
        return None


def messages_from_topic(profile: Any, topic: Mapping[str, Any], *, base_url: str, tz: tzinfo) -> list[RawMessage]:
    """The posts of a private-message topic as messages (recipients: the other allowed users)."""
    details = topic.get("details", {}) or {}
    allowed = [u.get("username") for u in details.get("allowed_users", []) if u.get("username")]
    allowed += [g.get("name") for g in details.get("allowed_groups", []) if g.get("name")]
    subject = topic.get("title", "")
    out = []
    for p in posts_from_json(profile, topic, base_url=base_url, tz=tz):
        recips = tuple(u for u in allowed if u != p.author)
        out.append(RawMessage(message_id=p.post_id, sender=p.author, created_at=p.created_at, body_html=p.html,
                              recipients=recips, subject=subject, conversation_id=str(topic.get("id", "")) or None,
                              sender_id=p.author_id, url=p.url))
    return out


def private_topics(data: Mapping[str, Any]) -> list[dict]:
    """Topics of a private-messages list answer (pure helper for tests and the CLI)."""
    users = {u["id"]: u.get("username") for u in data.get("users", [])}
    out = []
    for t in data.get("topic_list", {}).get("topics", []):
        parts = [users.get(p.get("user_id")) for p in (t.get("participants") or []) + (t.get("posters") or [])]
        out.append({"id": t["id"], "title": t.get("title", ""), "last_posted_at": t.get("last_posted_at"),
                    "unread": bool(t.get("unread") or t.get("new_posts") or t.get("unseen")),
                    "participants": sorted({p for p in parts if p})})
    return out


def _json_list_url(more: str) -> str:
    """Discourse's `more_topics_url` ("/topics/private-messages/gm?page=1") as its JSON URL."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(more)
    path = parts.path if parts.path.endswith(".json") else parts.path + ".json"
    return urlunsplit(("", "", path, parts.query, ""))
