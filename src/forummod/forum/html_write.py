"""The write side of profile-driven engines: reply, send a PM, and find what was published.

Mixed into `HtmlAdapter`, whose `http`, `profile`, `site`, `_get`, `login`, `parse_page`,
`thread_id`, `thread_url` and `now` it uses. The form rules live in the profile's `[reply]`
and `[pm]` tables (see `profile.WriteSpec`); the answer rules in `forum.write`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit, urlunsplit

from forummod.errors import ForumError, LayoutChanged, LoginRequired, NetworkError, PublishError
from forummod.forum.base import ThreadRef
from forummod.forum.html_engine import (
    first,
    first_element,
    first_page_url,
    parse_html,
    parse_inbox,
    parse_message_page,
    read_pagination,
)
from forummod.forum.http import Fetched
from forummod.forum.profile import WriteSpec
from forummod.forum.write import (
    Answer,
    PublishUncertain,
    clean_url,
    register_form_secrets,
    encode_fields,
    fill_form,
    find_form,
    flood_gate,
    flood_interval,
    follow_answer,
    form_action,
    has_marker,
    list_items_as,
    marker_outside_quotes,
    page_charset,
    site_key,
    smileys_as_text,
)
from forummod.logsafe import register_secret
from forummod.adapter_records import RawPost
from forummod.model import Published

log = logging.getLogger(__name__)

#: Pages searched backwards from the end of a thread when `since` is not given.
PAGES_WITHOUT_SINCE = 3
#: Hard cap of pages searched even with `since` (a long crash in a busy game).
MAX_PAGES = 20
#: Sent-folder rows opened at most per folder.
MAX_SENT_ROWS = 15
#: Our posts whose source is read when their HTML may have dropped the marker.
RAW_READS = 5
#: Clock and timezone slack when comparing forum times with `since`.
SINCE_SLACK = timedelta(minutes=15)


@dataclass(frozen=True)
class _Form:
    """A form page as fetched, with the moment it was shown (for `min_form_age`)."""

    page: Fetched
    root: Any
    form: Any
    shown_at: float


class FormWriter:
    """Reply / send_pm / find_published through the engine's own HTML forms."""

    # ------------------------------------------------------------------ public API

    def reply(self, thread: ThreadRef, body: str, marker: str | None = None) -> Published:
        """Post `body` in the thread; PublishError with the forum's words if it refuses,
        PublishUncertain if the answer does not say; never sent twice."""
        spec = self._spec("reply")
        variables = self._variables(thread=thread)
        answer = self._submit(spec, variables, what="reply", body=body, thread=thread)
        return self._reply_published(spec, answer, thread, marker)

    def send_pm(self, to: str, subject: str, body: str, marker: str | None = None) -> Published:
        """Send one private message (one recipient) through the engine's compose form."""
        spec = self._spec("pm")
        variables = self._variables(to=to)
        answer = self._submit(spec, variables, what="private message", body=body, subject=subject, to=to)
        return self._pm_published(spec, answer, to, marker)

    def find_published(self, marker: str, thread: ThreadRef | None = None,
                       since: datetime | None = None) -> Published | None:
        """A post (in `thread`) or a sent PM (without `thread`) by our account carrying `marker`."""
        if not marker:
            raise PublishError("find_published needs a marker")
        if thread is not None:
            return self._find_in_thread(marker, thread, since)
        return self._find_in_sent(marker, since)

    # ------------------------------------------------------------------ plumbing

    def _spec(self, kind: str) -> WriteSpec:
        spec: WriteSpec = getattr(self.profile, kind)
        if not spec.enabled:
            raise PublishError(f"{self.engine}: the profile has no [{kind}] form; this engine cannot publish "
                               f"{'replies' if kind == 'reply' else 'private messages'} yet")
        return spec

    def _variables(self, *, thread: ThreadRef | None = None, to: str = "") -> dict[str, str]:
        base = self.site.base_url if self.site.base_url.endswith("/") else self.site.base_url + "/"
        v = {"base": base, "to": quote(to, safe=""), "thread": "", "thread_url": ""}
        if thread is not None:
            v["thread"] = quote(self.thread_id(thread), safe="")
            v["thread_url"] = self.thread_url(thread)
        return v

    def _me(self) -> str:
        return (self.site.username or "").strip()

    def _is_me(self, name: str | None) -> bool:
        me = self._me().casefold()
        return bool(me) and (name or "").strip().casefold() == me

    def _gate(self):
        return flood_gate(site_key(self.http.absolute(self.site.base_url or "/")), self._me() or "-")

    def _shows_logged_in(self, root: Any) -> bool:
        spec = self.profile.login
        return not spec.logged_in or first_element(spec.logged_in, root) is not None

    def _relogin(self) -> None:
        """Log in because a page showed us as a guest (the adapter's `login_guard` decides
        whether an attempt may go out now)."""
        self.login()

    def _get_logged_in(self, url: str) -> Fetched:
        """GET a page only a logged-in account can see (sent folders): log in once if the forum
        shows it to us as a guest, whatever it serves guests instead (a login form, a redirect)."""
        page = self._get(url)
        if self.site.username and not self._shows_logged_in(parse_html(page.text)):
            self._relogin()
            page = self._get(url)
        return page

    def _form_url(self, spec: WriteSpec, variables: dict[str, str], thread: ThreadRef | None) -> str:
        if spec.url:
            return self.http.absolute(spec.url.format(**variables))
        if spec.link and thread is not None:
            page = self._get(self.thread_url(thread))
            href = first(spec.link, parse_html(page.text))
            if href:
                return urljoin(page.url, href)
            raise PublishError(f"{self.engine}: no reply link on {page.url}; is the thread closed, or "
                               "are we not logged in?")
        raise PublishError(f"{self.engine}: the profile gives no form URL")

    def _open_form(self, spec: WriteSpec, variables: dict[str, str], what: str,
                   thread: ThreadRef | None) -> _Form:
        """GET the form page logged in (logging in once if the page shows we are a guest)."""
        url = self._form_url(spec, variables, thread)
        page = self._get(url)
        root = parse_html(page.text)
        if not self._shows_logged_in(root):
            if not self.site.username:
                raise PublishError(f"{self.site_name}: publishing needs sites.{self.site_name}.username")
            self._relogin()
            page = self._get(url)
            root = parse_html(page.text)
            if not self._shows_logged_in(root):
                raise PublishError(f"{self.engine}: still not logged in on {page.url} after logging in; "
                                   "nothing was sent")
        form = find_form(spec, root)
        if form is None:
            said = first(spec.error, root) if spec.error else None
            raise PublishError(f"{self.engine}: no {what} form at {page.url}"
                               + (f"; the forum says: {said}" if said else "") + "; nothing was sent")
        return _Form(page, root, form, self.http.clock())

    def _add_recipient(self, spec: WriteSpec, shown: _Form, to: str) -> _Form:
        """phpBB-style compose: a first submit resolves the name into the recipient list.
        It publishes nothing, and is not repeated either."""
        data = dict(fill_form(spec, shown.form, shown.root, shown.page.url, body="", to=to)[1])
        for name in spec.submit:
            data.pop(name, None)
        data.update(spec.add_recipient)
        action = form_action(shown.form, shown.page.url)
        try:
            ans = self.http.post(action, encode_fields(data, page_charset(shown.page, shown.form)),
                                 allow_redirects=True, headers={"Referer": shown.page.url})
        except NetworkError as e:
            raise PublishError(f"{self.engine}: adding the recipient {to!r} failed ({e}); nothing was sent") from None
        root = parse_html(ans.text)
        form = find_form(spec, root)
        if form is None or (spec.recipient_added and first_element(spec.recipient_added, form) is None):
            said = first(spec.error, root) if spec.error else None
            raise PublishError(f"{self.engine}: the forum refused the recipient {to!r}"
                               + (f": {said}" if said else "") + "; nothing was sent")
        return _Form(ans, root, form, self.http.clock())

    def _submit(self, spec: WriteSpec, variables: dict[str, str], *, what: str, body: str,
                subject: str | None = None, to: str | None = None, thread: ThreadRef | None = None) -> Answer:
        """Fill and POST the form once; the forum's answer, redirects followed."""
        if spec.url or spec.link:
            shown = self._open_form(spec, variables, what, thread)
            if to is not None and spec.add_recipient:
                shown = self._add_recipient(spec, shown, to)
                to_field = None  # the recipient now travels in the form's own hidden fields
            else:
                to_field = to
            register_form_secrets(shown.form)
            for cookie in self.http.session.cookies:  # type: ignore[union-attr]
                register_secret(cookie.value)
            action, data = fill_form(spec, shown.form, shown.root, shown.page.url, body=body, subject=subject,
                                     to=to_field)
            charset = page_charset(shown.page, shown.form)
            referer, shown_at = shown.page.url, shown.shown_at
        else:  # a bare POST endpoint (no form page): only constant fields
            action = self.http.absolute(spec.action.format(**variables))
            data = dict(spec.fields) | dict(spec.no_smileys) | dict(spec.submit)
            data[spec.body[0] if spec.body else "message"] = smileys_as_text(list_items_as(body, spec.list_items),
                                                                               spec.smileys)
            if subject is not None and spec.subject:
                data[spec.subject[0]] = subject
            if to is not None and spec.to:
                data[spec.to[0]] = to
            charset, referer, shown_at = "utf-8", action, self.http.clock()
        gate = self._gate()
        waited = gate.reserve(flood_interval(self.site, spec), shown_at + spec.min_form_age, self.http.clock,
                              self.http.sleep)
        if waited:
            log.info("%s: waited %.1f s for the forum's flood interval before posting", self.site_name, waited)
        try:
            answer = self.http.post(action, encode_fields(data, charset), allow_redirects=False,
                                    headers={"Referer": referer})
        except NetworkError as e:
            gate.mark(self.http.clock())
            raise PublishUncertain(f"{self.engine}: the {what} was sent but no answer came back ({e}); "
                                   "it may have been posted: look for it (find_published) before sending again") from None
        gate.mark(self.http.clock())
        try:
            return follow_answer(spec, answer, lambda url: self.http.get(url, check_login=False))
        except ForumError as e:  # the POST went through; only reading where it led failed
            return Answer("unknown", url=answer.url, message=str(e))

    def _raise_for(self, answer: Answer, what: str) -> None:
        if answer.kind == "error":
            raise PublishError(f"{self.engine}: the forum refused the {what}: {answer.message}")
        if answer.kind == "refused":
            raise PublishError(f"{self.engine}: the forum dropped the {what} ({answer.message}); nothing was posted")
        if answer.kind == "unknown":
            extra = f" ({answer.message})" if answer.message else ""
            raise PublishUncertain(f"{self.engine}: the forum's answer to the {what} does not say whether it was "
                                   f"posted{extra}; last page {answer.url}. Look for it (find_published) before "
                                   "sending again")

    # ------------------------------------------------------------------ results

    def _post_url(self, spec: WriteSpec, rid: str, answered: str | None) -> str | None:
        """The forum's own link to the new post, else the profile's template."""
        if answered:
            return answered
        if spec.post_url:
            return self.http.absolute(spec.post_url.format(id=rid, base=self._variables()["base"]))
        return None

    def _look_for(self, marker: str | None, thread: ThreadRef | None) -> Published | None:
        """After an answer that does not name the post, look for it (GETs only) before giving
        up: that is what the caller would do next anyway. A failure to look is not an error."""
        if not marker:
            return None
        since = self.now() - timedelta(hours=1)
        try:
            if thread is not None:
                return self._find_in_thread(marker, thread, since)
            return self._find_in_sent(marker, since) if self.profile.pm.sent else None
        except (ForumError, PublishError) as e:
            log.info("%s: looking for the unconfirmed post failed (%s)", self.site_name, e)
            return None

    def _reply_published(self, spec: WriteSpec, answer: Answer, thread: ThreadRef,
                         marker: str | None) -> Published:
        found = self._look_for(marker, thread) if answer.kind == "unknown" else None
        if found is not None:
            return found
        self._raise_for(answer, "reply")
        if answer.remote_id is None:
            found = self._look_for(marker, thread)
            if found is not None:
                return found
            raise PublishUncertain(f"{self.engine}: the forum accepted the reply but did not say which post it is "
                                   f"({answer.url}); look for it (find_published)")
        url = self._post_url(spec, answer.remote_id, answer.url)
        post = self._read_post(url, answer.remote_id)
        if post is not None and marker and not self._carries(spec, post.post_id, post.html, marker):
            raise PublishUncertain(f"{self.engine}: the forum pointed at post {answer.remote_id}, which does not "
                                   "carry our marker (a duplicate the forum folded?); look for it (find_published)")
        at = post.created_at if post is not None else self.now()
        return Published(remote_id=answer.remote_id, url=clean_url(url or (post.url if post is not None else None)), at=at)

    def _read_post(self, url: str | None, rid: str) -> RawPost | None:
        """The new post as the thread shows it (for its time and to check the marker); None if
        the page cannot be read, which does not make the reply fail."""
        if not url:
            return None
        try:
            page = self.http.get(url)
            parsed = self.parse_page(page.text, page.url)
        except (ForumError, LoginRequired) as e:
            log.info("%s: could not read back post %s (%s)", self.site_name, rid, e)
            return None
        return next((p for p in parsed.posts if p.post_id == rid), None)

    def _pm_published(self, spec: WriteSpec, answer: Answer, to: str, marker: str | None) -> Published:
        found = self._look_for(marker, None) if answer.kind == "unknown" else None
        if found is not None:
            return found
        self._raise_for(answer, "private message")
        now = self.now()
        if answer.remote_id is not None:
            return Published(remote_id=answer.remote_id, url=clean_url(self._post_url(spec, answer.remote_id, answer.url)),
                             at=now)
        found = self._look_for(marker, None)
        if found is not None:
            return found
        # the forum confirmed the message but names no id (and has no searchable sent folder)
        return Published(remote_id=f"pm:{to}:{now:%Y%m%dT%H%M%SZ}", url=clean_url(answer.url), at=now)

    # ------------------------------------------------------------------ find_published: threads

    def _find_in_thread(self, marker: str, thread: ThreadRef, since: datetime | None) -> Published | None:
        """Walk the thread backwards from its last page looking for our post with the marker."""
        first_url = first_page_url(self.profile, self.thread_url(thread))
        page = self._get(first_url)
        info = read_pagination(self.profile, parse_html(page.text), page.url)
        cache: dict[int, Fetched] = {info.current or 1: page}
        links = dict(info.links)
        links.setdefault(1, page.url)
        n = info.last or 1
        limit = PAGES_WITHOUT_SINCE if since is None else MAX_PAGES
        for checked in range(limit):
            if n < 1:
                break
            fetched = cache.get(n) or self._page(n, links, first_url, info.per_page)
            if fetched is None:
                break
            parsed = self.parse_page(fetched.text, fetched.url)
            pinfo = read_pagination(self.profile, parse_html(fetched.text), fetched.url)
            links.update(pinfo.links)
            hit = self._marked_post(parsed.posts, marker, since)
            if hit is not None:
                return Published(remote_id=hit.post_id, url=clean_url(hit.url), at=hit.created_at)
            newest = max((p.created_at for p in parsed.posts), default=None)
            if since is not None and checked >= 1 and newest is not None and newest < since - SINCE_SLACK:
                break  # every older page is older still
            n -= 1
        return None

    def _marked_post(self, posts: tuple[RawPost, ...], marker: str, since: datetime | None = None) -> RawPost | None:
        """Our post with the marker in its HTML (preferably outside quotes); else, on engines
        whose HTML may drop it (a sanitised Markdown link), our recent posts' own source."""
        ours = [p for p in posts if self._is_me(p.author)]
        mine = [p for p in ours if has_marker(p.html, marker)]
        if mine:
            return next((p for p in mine if marker_outside_quotes(p.html, marker)), mine[0])
        spec = self.profile.reply
        recent = [p for p in ours if since is None or p.created_at >= since - SINCE_SLACK]
        for p in reversed(recent[-RAW_READS:]):
            if self._raw_has(spec, p.post_id, marker):
                return p
        return None

    def _carries(self, spec: WriteSpec, post_id: str, html: str, marker: str) -> bool:
        return has_marker(html, marker) or self._raw_has(spec, post_id, marker)

    def _raw_has(self, spec: WriteSpec, post_id: str, marker: str) -> bool:
        """The marker in our post's source (`raw_url`: an edit form or a raw view)."""
        if not spec.raw_url:
            return False
        try:
            page = self._get(spec.raw_url.format(id=post_id, base=self._variables()["base"]))
        except ForumError as e:
            log.info("%s: could not read the source of post %s (%s)", self.site_name, post_id, e)
            return False
        if page.status >= 400:
            return False
        text = " ".join(ex.first(parse_html(page.text)) or "" for ex in spec.raw) if spec.raw else page.text
        return has_marker(text, marker)

    def _page(self, n: int, links: dict[int, str], first_url: str, per_page: int | None) -> Fetched | None:
        url = links.get(n) or page_url(self.profile, first_url, n, per_page)
        if url is None:
            return None
        return self._get(url)

    # ------------------------------------------------------------------ find_published: PMs

    def _find_in_sent(self, marker: str, since: datetime | None) -> Published | None:
        """Open the newest rows of the sent folder(s) and look for our message with the marker."""
        spec = self.profile.pm
        if not spec.sent:
            raise PublishError(f"{self.engine}: the profile names no sent-messages folder, so a sent PM "
                               "cannot be found again")
        prof = self.profile if spec.sent_rows is None else replace(
            self.profile, inbox=replace(self.profile.inbox, rows=spec.sent_rows))
        for folder in spec.sent:
            page = self._get_logged_in(folder)
            rows = parse_inbox(prof, page.text, url=page.url, tz=self.tz, now=self.now())
            if since is not None:
                rows = [r for r in rows if r.at is None or r.at >= since - SINCE_SLACK]
            rows.sort(key=lambda r: r.at.timestamp() if r.at else float("inf"), reverse=True)
            for row in rows[:MAX_SENT_ROWS]:
                found = self._marked_message(row, marker)
                if found is not None:
                    return found
        return None

    def _marked_message(self, row: Any, marker: str) -> Published | None:
        f = self._get(row.url)
        try:
            msgs = parse_message_page(self.profile, f.text, url=f.url, tz=self.tz, now=self.now(), row=row,
                                      me=self._me())
        except LayoutChanged:
            if has_marker(f.text, marker):
                return Published(remote_id=row.id, url=clean_url(f.url), at=row.at or self.now())
            return None
        own = [m for m in msgs if m.message_id == row.id] or msgs  # a folder page may show many messages
        mine = [m for m in own if self._is_me(m.sender) or not m.sender]
        for m in mine:
            if has_marker(m.body_html, marker):
                return Published(remote_id=row.id, url=clean_url(f.url), at=m.created_at)
        for m in mine[:RAW_READS]:
            if self._raw_has(self.profile.pm, m.message_id, marker):
                return Published(remote_id=row.id, url=clean_url(f.url), at=m.created_at)
        return None


def page_url(profile: Any, first_url: str, n: int, per_page: int | None) -> str | None:
    """URL of page `n` of a thread from its first page's URL, when the profile says how pages
    are written in the query (links found on pages are preferred by the caller)."""
    p = profile.pagination
    if n == 1:
        return first_url
    if not p.param:
        return None
    if p.kind == "offset":
        per = per_page or p.per_page
        if not per:
            return None
        value = (n - 1) * per
    else:
        value = n
    parts = urlsplit(first_url)
    q = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != p.param]
    q.append((p.param, str(value)))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(q), ""))
