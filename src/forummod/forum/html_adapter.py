"""`ForumAdapter` for every engine described by an HTML profile.

Fetching goes through `HttpClient`; parsing through the pure functions of `html_engine`.
A page that turns out to be the login form triggers one login (when credentials are
configured) and one retry; otherwise `LoginRequired` goes up to the service.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Callable
from zoneinfo import ZoneInfo

from forummod.config import SiteConfig
from forummod.errors import ForumError, LoginRequired, UsageError
from forummod.forum.base import InboxPoll, Progress, ThreadPoll, ThreadRef
from forummod.forum.cookies import CookieStore
from forummod.forum.html_write import FormWriter
from forummod.forum.html_engine import (
    InboxRow,
    first_page_url,
    is_login_page,
    page_complete,
    parse_inbox,
    parse_message_page,
    parse_thread_page,
    thread_id_of,
)
from forummod.forum.http import Fetched, HttpClient
from forummod.forum.inbox_pages import inbox_next_url
from forummod.forum.login import login_with_form, password_place, read_secret
from forummod.forum.login_guard import LoginGuard
from forummod.forum.poller import Sink, poll_pages, recheck_pages
from forummod.forum.page_locale import check_zone, stated_zone
from forummod.forum.write import clean_url
from forummod.adapter_records import Cursor, RawMessage
from forummod.model import Issue


#: a session id in a link of the page (phpBB's `sid=` until the cookie is seen; SMF's PHPSESSID)
_LINK_SESSION = re.compile(r"(&amp;|[?&;])(?:sid|PHPSESSID)=[0-9a-f]{16,}(?=[\"'&#;\s<>])", re.IGNORECASE)


#: the "=" of every `_LINK_SESSION` match (16 hex digits follow it), found by a fast literal scan
_SESSION_EQ = re.compile(r"=(?i:[0-9a-f]){16}")
#: where a match can start before its "=": "&amp;" or one of ?&; then "sid" or "PHPSESSID"
_SESSION_STARTS = (14, 10, 8, 4)


def drop_session_ids(html: str) -> str:
    """The page with session ids cut out of its links: a post quoting another links it, and
    the post's stored HTML must not change (nor carry a secret) from one session to the next.

    `_LINK_SESSION.sub(...)` done where it can match only: its search tries its alternation
    at every character of the page (over a millisecond a page, a fifth of a page's parse),
    while every match has its "=" before 16 hex digits, at one of four distances from its
    start; those starts are tried in page order, as the search would reach them."""
    out: list[str] = []
    done = 0  # end of the last match
    for eq in _SESSION_EQ.finditer(html):
        p = eq.start()
        for back in _SESSION_STARTS:
            start = p - back
            if start < done:
                continue
            m = _LINK_SESSION.match(html, start)
            if m is not None:
                out.append(html[done:start])
                out.append("?" if m.group(1) == "?" else "")
                done = m.end()
                break
    if not out:
        return html
    out.append(html[done:])
    return "".join(out)


_RESUME_KEY = "resume"  # inbox cursor: the page a capped or interrupted walk reads on from


class HtmlAdapter(FormWriter):
    """A profile-driven forum: reading here, writing (reply, send_pm, find_published) in
    `html_write.FormWriter`."""

    def __init__(self, site_name: str, site: SiteConfig, profile: Any, *, http: HttpClient | None = None,
                 cookie_store: CookieStore | None = None, clock: Callable[[], datetime] | None = None):
        self.site_name, self.site, self.profile = site_name, site, profile
        self.engine = profile.name
        self.http = http or HttpClient.from_site(site_name, site, cookie_store=cookie_store)
        if self.http.login_page is None:
            self.http.login_page = lambda url, text: is_login_page(self.profile, url, text)
        self.tz = ZoneInfo(site.timezone)
        self._clock = clock
        self._logged_in = False
        self.login_guard = LoginGuard(site_name, self.http.wall_clock, where=password_place(site),
                                      keep=self.http.cookie_store)

    # ------------------------------------------------------------------ helpers

    def now(self) -> datetime:
        return self._clock() if self._clock else self.http.now()

    @property
    def date_order(self) -> str:
        """Numeric date order: the profile's for English boards, day-first elsewhere."""
        return self.profile.date_order if self.site.language == "en" else ("YMD" if self.site.language == "zh" else "DMY")

    def thread_url(self, thread: ThreadRef) -> str:
        url = thread.url.strip()
        if re.fullmatch(r"\d+", url):
            if not self.profile.thread_url:
                raise UsageError(f"{self.engine}: give the thread as a URL (this engine has no URL template)")
            base = self.site.base_url if self.site.base_url.endswith("/") else self.site.base_url + "/"
            url = self.profile.thread_url.format(base=base, thread=url)
        return self.http.absolute(url)

    def thread_id(self, thread: ThreadRef) -> str:
        url = thread.url.strip()
        if re.fullmatch(r"\d+", url):
            return url
        tid = thread_id_of(self.profile, url)
        return tid or first_page_url(self.profile, url)

    def login(self) -> None:
        """Log in with the configured account (password from the environment or keyring),
        when `login_guard` allows: a password the forum called wrong is not tried again, and
        after any other failure the next attempt waits for a later pass."""
        if not self.site.username:
            raise LoginRequired(f"{self.site_name}: the forum wants a login but sites.{self.site_name}.username is empty")
        password = read_secret(self.site.password_env, use_keyring=self.site.use_keyring, site_name=self.site_name)
        self.login_guard.attempt(password, lambda: login_with_form(self.http, self.profile, self.site.username,
                                                                   password))
        self._logged_in = True

    def _get(self, url: str, etag: str | None = None, last_modified: str | None = None) -> Fetched:
        """GET a forum page (whole pages only: see `page_complete`). A login page instead of
        the content logs in and asks once more, at every session expiry of a long run."""
        try:
            return self.http.get(url, etag=etag, last_modified=last_modified, complete=page_complete)
        except LoginRequired:
            if not self.site.username:
                raise
            self.login()
            return self.http.get(url, etag=etag, last_modified=last_modified, complete=page_complete)

    # ------------------------------------------------------------------ threads

    def parse_page(self, text: str, url: str, first_number: int | None = None):
        from dataclasses import replace

        prof = self.profile
        if self.date_order != prof.date_order:
            prof = replace(prof, date_order=self.date_order)
        # a page reached by a link that carries a session id (phpBB `sid=` before the cookie is
        # seen): the posts' stored URLs must not carry it (a secret, and a different URL per session)
        page = parse_thread_page(prof, drop_session_ids(text), url=clean_url(url) or url, tz=self.tz,
                                 now=self.now(), first_number=first_number)
        if any(p.date_guessed or not p.author for p in page.posts):  # a customised style: fill the gaps
            from forummod.forum.structural import fill_from_structure

            page = fill_from_structure(page, drop_session_ids(text), url=clean_url(url) or url, tz=self.tz,
                                       now=self.now())
        issue = self._zone_check(page, text)
        return replace(page, issues=(*page.issues, issue)) if issue else page

    def parse_page_at(self, text: str, url: str, at: datetime):
        """A saved page read again as of `at`, when it was fetched ("Today, 10:47" and "5 minutes
        ago" mean what they meant then): `redate` reads the stored pages in a changed zone."""
        clock, http_date = self._clock, getattr(self, "_http_date", None)
        self._clock, self._http_date = (lambda: at), None
        try:
            return self.parse_page(text, url)
        finally:
            self._clock, self._http_date = clock, http_date

    def _zone_check(self, page: Any, text: str) -> Issue | None:
        """On the thread's last page of a forum that states no zone: does the configured zone put
        the newest post in the future of the server's clock (HTTP Date)? Then it is wrong, and
        the GM is told (issue 16: a wrong zone must never pass silently)."""
        http_date = getattr(self, "_http_date", None)
        dated = [p for p in page.posts if not p.date_guessed]
        if http_date is None or page.next_url or not dated or stated_zone(text)[0] is not None:
            return None
        newest = max(p.created_at for p in dated)
        shown = newest.astimezone(self.tz).replace(tzinfo=timezone.utc)
        check = check_zone(shown, http_date, self.tz, self.site.timezone)
        if check.verdict != "wrong":
            return None
        return Issue("zone_wrong", f"{self.site_name}: {check.message} (sites.{self.site_name}.timezone)",
                     severity="warning", details=page.posts[-1].url or "")

    def _get_remembering_date(self, url: str, etag: str | None = None, last_modified: str | None = None) -> Fetched:
        f = self._get(url, etag=etag, last_modified=last_modified)
        raw = f.headers.get("Date") or f.headers.get("date")
        try:
            self._http_date = parsedate_to_datetime(raw).astimezone(timezone.utc) if raw else None
        except (TypeError, ValueError):
            self._http_date = None
        return f

    def poll_thread(self, thread: ThreadRef, cursor: Cursor | None, progress: Progress | None = None, *,
                    sink: Sink | None = None) -> ThreadPoll:
        return poll_pages(thread_id=self.thread_id(thread), first_url=first_page_url(self.profile, self.thread_url(thread)),
                          cursor=cursor, fetch=self._get_remembering_date, parse=self.parse_page, progress=progress,
                          sink=sink, first_post_number=self.profile.pagination.first_number)

    def recheck_pages(self, thread: ThreadRef, pages: list[tuple[int, str | None, int | None]]) -> ThreadPoll:
        """Earlier pages read again for edits (`poller.recheck_pages`); the cursor stays. A page
        whose URL the polls did not keep is written from the page number where the profile's
        pages are numbered in the query (an offset needs the page size, which a guess could
        get wrong: such a page is left out)."""
        from forummod.forum.html_write import page_url

        first = first_page_url(self.profile, self.thread_url(thread))
        numbered = self.profile.pagination.kind != "offset"
        with_urls = []
        for pno, url, n in pages:
            url = url or (page_url(self.profile, first, pno, None) if numbered else None)
            if url:
                with_urls.append((pno, url, n))
        return recheck_pages(thread_id=self.thread_id(thread), pages=with_urls, fetch=self._get_remembering_date,
                             parse=self.parse_page)

    # ------------------------------------------------------------------ inbox

    def poll_inbox(self, cursor: Cursor | None, known_ids: frozenset[str] = frozenset()) -> InboxPoll:
        """New private messages. Rows whose version (last activity) did not change since the
        cursor are not opened again, so known conversations cost nothing.

        The inbox is read page by page (`inbox_pages.inbox_next_url`), newest first, up to the
        first page whose rows are all known: a quiet poll costs one request, a first poll
        after many PMs reads every page. A visited set and `sites.x.inbox_max_pages` keep a
        pager that loops from looping; a poll that stops at the cap (or on a network fault
        after page 1) keeps what it read, says so, and the next poll reads on from there."""
        spec = self.profile.inbox
        if not spec.url:
            raise UsageError(f"{self.engine}: the profile has no inbox page")
        before = (self.http.stats.requests, self.http.stats.bytes)
        seen = dict(cursor.extra) if cursor else {}
        resume = seen.pop(_RESUME_KEY, "")
        messages: list[RawMessage] = []
        issues: list[Issue] = []
        new_seen = dict(seen)
        handled: set[str] = set()
        visited: set[str] = set()
        cap = max(1, getattr(self.site, "inbox_max_pages", 20))
        # A row's id is a message id only where message pages carry no ids of their own (one
        # message per row, e.g. phpBB); otherwise it is a conversation id (FlaskBB, Spirit),
        # another numbering that can equal a stored message's id and must not hide a new PM.
        rows_are_messages = not spec.page.id
        url: str | None = spec.url
        pages = 0
        left_at = ""  # where the next poll reads on (cap reached, or a fault after page 1)
        while url is not None:
            if pages >= cap:
                left_at = url
                issues.append(Issue("inbox_pages_capped", f"{self.site_name}: the inbox has more than {cap} pages "
                                    f"of new messages; read {cap} this poll, the next poll reads on (raise "
                                    f"sites.{self.site_name}.inbox_max_pages to read more at once)",
                                    severity="warning", details=url))
                break
            try:
                reading_first = pages == 0
                page = self._get(url)
                if is_login_page(self.profile, page.url, page.text):
                    self.login()
                    page = self._get(url)
                visited.update((url, page.url))
                pages += 1
                rows = parse_inbox(self.profile, page.text, url=page.url, tz=self.tz, now=self.now())
                fresh = 0
                for row in rows:
                    key = f"row:{row.id}"
                    if key in handled:  # the list moved under us (a PM arrived): the same row again
                        continue
                    handled.add(key)
                    if (rows_are_messages and row.id in known_ids) or (row.version and seen.get(key) == row.version):
                        new_seen[key] = row.version
                        continue
                    fresh += 1
                    for msg in self.read_message(row):
                        if msg.message_id not in known_ids:
                            messages.append(msg)
                    new_seen[key] = row.version
            except ForumError as e:
                if reading_first:  # nothing read yet worth keeping: the poll fails as a whole
                    raise
                left_at = url
                issues.append(Issue("inbox_interrupted", f"{self.site_name}: reading the inbox stopped at {url} "
                                    f"({e}); the next poll reads on", severity="warning", details=url))
                break
            nxt = inbox_next_url(self.profile, page.text, page.url) if rows else None
            if nxt in visited:
                nxt = None
            if fresh == 0 or nxt is None:  # every row of this page is stored: older pages are too
                nxt = None
                if resume and resume not in visited:  # the rest of a walk the last poll left
                    nxt, resume = resume, ""
            url = nxt
        if left_at:
            new_seen[_RESUME_KEY] = left_at
        new_cursor = Cursor(stream="inbox", last_page=pages, pages_total=None if left_at else pages,
                            last_post_id=messages[-1].message_id if messages else (cursor.last_post_id if cursor else None),
                            extra=tuple(sorted(new_seen.items())))
        return InboxPoll(messages=tuple(messages), cursor=new_cursor, issues=tuple(issues),
                         requests=self.http.stats.requests - before[0], bytes=self.http.stats.bytes - before[1])

    def read_message(self, row: InboxRow) -> list[RawMessage]:
        f = self._get(row.url)
        return parse_message_page(self.profile, f.text, url=f.url, tz=self.tz, now=self.now(), row=row,
                                  me=self.site.username)
