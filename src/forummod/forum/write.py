"""The write side shared by every form-driven engine: fill a form, post it once, read the answer.

Publishing must be exactly once, so this module is strict about three things:
- a POST is sent once and never again: a network error or an answer that neither confirms
  nor refuses the post is `PublishUncertain`, and only `find_published` may settle it;
- the forum's own flood rules are respected before posting (a minimum age of the form and
  a minimum interval between two writes of one account), because a "you posted too fast"
  page is a failure the GM has to look at;
- the forum's own error message is what the GM sees, not a guess.

Everything except `FloodGate` and `follow_answer` (which GETs redirect targets) is pure.
"""

from __future__ import annotations

import html as htmlmod
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from urllib.parse import urljoin, urlsplit, urlunsplit

import lxml.html

from forummod.errors import PublishError
from forummod.forum.base import FM_ATTR
from forummod.forum.html_engine import first, first_element, parse_html
from forummod.forum.http import Fetched
from forummod.forum.login import form_fields
from forummod.forum.profile import WriteSpec
from forummod.logsafe import register_secret

REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_HOPS = 5


class PublishUncertain(PublishError):
    """The POST left this machine but the forum's answer neither confirmed nor refused it.

    The post may exist. The caller must run `find_published` before anything else and must
    not send the same text again on its own.
    """


# --------------------------------------------------------------------------- flood control


class FloodGate:
    """When one forum account last wrote (reply or PM), shared by every adapter of the process.

    Engines count posts and PMs against one "last post time" (phpBB's user_lastpost_time,
    vBulletin's floodcheck), so one gate per account covers both.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: float | None = None

    def reserve(self, interval: float, not_before: float, clock: Callable[[], float],
                sleep: Callable[[float], None]) -> float:
        """Wait until `interval` seconds after the last write and not before `not_before`;
        returns the seconds waited. The slot counts as a write at once, so two threads of one
        process get consecutive slots, never the same one."""
        with self._lock:
            now = clock()
            at = max(now, not_before)
            if self._last is not None:
                at = max(at, self._last + interval)
            self._last = at
        wait = at - now
        if wait > 0:
            sleep(wait)
        return max(0.0, wait)

    def mark(self, when: float) -> None:
        """A write was attempted at `when` (the forum may have counted it even if it failed)."""
        with self._lock:
            self._last = when if self._last is None else max(self._last, when)


_GATES: dict[str, FloodGate] = {}
_GATES_LOCK = threading.Lock()


def flood_gate(site_key: str, account: str) -> FloodGate:
    key = f"{site_key.lower()}|{account.lower()}"
    with _GATES_LOCK:
        gate = _GATES.get(key)
        if gate is None:
            gate = _GATES[key] = FloodGate()
        return gate


def reset_flood_gates() -> None:
    """Forget every account's last write (tests)."""
    with _GATES_LOCK:
        _GATES.clear()


# --------------------------------------------------------------------------- forms


def find_form(spec: WriteSpec, root: Any) -> Any | None:
    """The profile's form, or else the first form on the page that has a textarea."""
    if spec.form:
        return first_element(spec.form, root)
    forms = root.xpath("//form[.//textarea]")
    return forms[0] if forms else None


def _controls(form: Any) -> list[Any]:
    return form.xpath(".//input[@name] | .//select[@name] | .//textarea[@name] | .//button[@name]")


def pick_field(candidates: tuple[str, ...], form: Any, drop: tuple[str, ...] = ()) -> str | None:
    """The first candidate name the form has; with no candidates, the form's only textarea."""
    names = {el.get("name") for el in _controls(form)}
    for c in candidates:
        if c in names:
            return c
    if not candidates:
        areas = [el.get("name") for el in form.xpath(".//textarea[@name]") if el.get("name") not in drop]
        if len(areas) >= 1:
            return areas[0]
    return None


def form_action(form: Any, page_url: str) -> str:
    return urljoin(page_url, form.get("action") or page_url)


def meta_token(root: Any, name: str) -> str | None:
    if not name:
        return None
    found = root.xpath("//meta[@name=$n]/@content", n=name)
    return str(found[0]) if found else None


def fill_form(spec: WriteSpec, form: Any, root: Any, page_url: str, *, body: str, subject: str | None = None,
              to: str | None = None) -> tuple[str, dict[str, str]]:
    """The POST target and the fields a browser would send, with our text filled in.

    Hidden fields (tokens, post hashes, timestamps) and checked defaults come from the form
    itself; `drop` removes controls we must not send (a rich editor's HTML twin).
    """
    data = form_fields(form)
    for name in spec.drop:
        data.pop(name, None)
    field_body = pick_field(spec.body, form, spec.drop) or (spec.body[0] if spec.body else None)
    if field_body is None:
        raise PublishError(f"the form at {page_url} has no text field ({', '.join(spec.body) or 'textarea'})")
    data[field_body] = smileys_as_text(list_items_as(body, spec.list_items), spec.smileys)
    if subject is not None and spec.subject:
        data[pick_field(spec.subject, form) or spec.subject[0]] = subject
    if to is not None:
        if not spec.to:
            raise PublishError(f"the profile names no recipient field for {page_url}")
        data[pick_field(spec.to, form) or spec.to[0]] = to
    token = meta_token(root, spec.csrf_meta)
    if token and not data.get(spec.csrf_field):
        data[spec.csrf_field] = token
    data.update(spec.fields)
    data.update(spec.no_smileys)
    data.update(spec.submit)
    return form_action(form, page_url), data


def flood_interval(site: Any, spec: WriteSpec) -> float:
    """Seconds between two writes of the account: `sites.x.flood_interval` when set (a board
    configured otherwise, a moderator exempt), else the engine profile's."""
    own = getattr(site, "flood_interval", None)
    return spec.flood_interval if own is None else float(own)


#: Invisible, unbreakable and not a space: a smiley code with it inside is no longer the code.
WORD_JOINER = "\u2060"


_ITEM_LINE = re.compile(r"^\[\*\](.*)$", re.MULTILINE)


def list_items_as(body: str, form: str) -> str:
    """`body` with each `[*]item` line of a BBCode list written `[li]item[/li]` when the form
    wants it (`list_items = "li"`: SMF reads its [*] shorthand only where smileys are on)."""
    return _ITEM_LINE.sub(lambda m: f"[li]{m.group(1)}[/li]", body) if form == "li" else body


def smileys_as_text(body: str, codes: tuple[str, ...]) -> str:
    """`body` with every smiley code of `codes` kept text (a WORD JOINER after its first
    character), for a form that turns codes into images with no option to stop it. A code counts
    where the engines look for one: not inside a word (SMF: after a space, a bracket or
    punctuation, before a non-alphanumeric character); longest codes first ("::)" before ":)")."""
    codes = tuple(c for c in codes if len(c) > 1)
    if not codes:
        return body
    alternatives = "|".join(re.escape(c) for c in sorted(codes, key=len, reverse=True))
    pattern = re.compile(rf"(?<![^\W_])({alternatives})(?![^\W_])")
    return pattern.sub(lambda m: m.group(1)[0] + WORD_JOINER + m.group(1)[1:], body)


_CHARSET_META = re.compile(r"""<meta[^>]+charset\s*=\s*["']?([\w-]+)""", re.IGNORECASE)


def page_charset(page: Fetched, form: Any | None = None) -> str:
    """The charset a browser would encode the form in: accept-charset, then the page's."""
    if form is not None:
        acc = (form.get("accept-charset") or "").replace(",", " ").split()
        if acc:
            return acc[0].lower()
    ctype = page.headers.get("Content-Type") or page.headers.get("content-type") or ""
    m = re.search(r"charset=([\w-]+)", ctype, re.IGNORECASE)
    if m:
        return m.group(1).lower()
    m = _CHARSET_META.search(page.text[:4096])
    return m.group(1).lower() if m else "utf-8"


_WINDOWS_1252 = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "windows-1252"})


def encode_fields(data: Mapping[str, str], charset: str) -> dict[str, str | bytes]:
    """Field values in the page's charset; characters it lacks become &#NNNN; as browsers do."""
    cs = charset.lower()
    if cs in ("utf-8", "utf8"):
        return dict(data)
    if cs in _WINDOWS_1252:  # what browsers really use for these labels (WHATWG Encoding)
        cs = "cp1252"
    try:
        "".encode(cs)
    except LookupError:
        return dict(data)
    return {k: v.encode(cs, errors="xmlcharrefreplace") for k, v in data.items()}


# --------------------------------------------------------------------------- answers


@dataclass(frozen=True)
class Answer:
    """What the forum said to a POST: "ok" (id may be None), "error", "refused" or "unknown"."""

    kind: str
    remote_id: str | None = None
    url: str | None = None
    message: str = ""


_REFRESH = re.compile(r"url\s*=\s*['\"]?([^'\"]+)", re.IGNORECASE)


def meta_refresh_url(root: Any, base: str) -> str | None:
    for content in root.xpath("//meta[translate(@http-equiv,'REFSH','refsh')='refresh']/@content"):
        m = _REFRESH.search(str(content))
        if m:
            return urljoin(base, htmlmod.unescape(m.group(1).strip()))
    return None


def match_id(spec: WriteSpec, url: str | None) -> str | None:
    if not url:
        return None
    url = htmlmod.unescape(url)
    for rx in spec.id:
        m = rx.search(url)
        if m:
            return m.group(1) if m.groups() else m.group(0)
    return None


def refusal(spec: WriteSpec, url: str | None) -> str | None:
    if not url:
        return None
    for rx, why in spec.refused:
        if rx.search(url):
            return why
    return None


def _short(text: str, n: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def read_page_answer(spec: WriteSpec, page: Fetched, *, redirected: bool = False) -> Answer:
    """The verdict of one answer page (not a redirect). Pure.

    A 4xx answer to the POST itself is a refusal (bad token, rate limit); a 4xx or 5xx page
    reached by following the POST's redirect says nothing about the post."""
    root = parse_html(page.text)
    err = first(spec.error, root) if spec.error else None
    if page.status >= 500 or (redirected and page.status >= 400):
        return Answer("unknown", url=page.url, message=f"HTTP {page.status}" + (f": {_short(err)}" if err else ""))
    if page.status >= 400:
        return Answer("error", url=page.url, message=f"HTTP {page.status}" + (f": {_short(err)}" if err else ""))
    refresh = meta_refresh_url(root, page.url)
    why = refusal(spec, refresh)
    if why:
        return Answer("refused", url=refresh, message=why)
    rid = match_id(spec, refresh)
    if rid:
        return Answer("ok", rid, refresh)
    succeeded = bool(spec.success) and first_element(spec.success, root) is not None
    if err and not succeeded:
        return Answer("error", url=page.url, message=_short(err))
    for ex in spec.links:
        for value in ex.values(root):
            rid = match_id(spec, value)
            if rid:
                # an href is the post's link; another value (SMF 2.1's `id="msg43"` of the post the
                # "new" anchor sits in) only names it: the profile's post_url writes the link
                link = urljoin(page.url, htmlmod.unescape(value)) if ex.attr in ("href", "action") else None
                return Answer("ok", rid, link)
    if succeeded:
        return Answer("ok", None, page.url)
    return Answer("unknown", url=page.url)


def location_of(page: Fetched) -> str | None:
    loc = page.headers.get("Location") or page.headers.get("location")
    return urljoin(page.url, loc) if loc else None


def follow_answer(spec: WriteSpec, answer: Fetched, get: Callable[[str], Fetched]) -> Answer:
    """Read the POST's answer, following redirects with GETs (safe to repeat) until a page
    or a URL that names the new post."""
    page = answer
    for hop in range(MAX_HOPS + 1):
        if page.status not in REDIRECTS:
            return read_page_answer(spec, page, redirected=hop > 0)
        loc = location_of(page)
        if not loc:
            return Answer("unknown", url=page.url, message=f"HTTP {page.status} without a Location")
        why = refusal(spec, loc)
        if why:
            return Answer("refused", url=loc, message=why)
        rid = match_id(spec, loc)
        if rid:
            return Answer("ok", rid, loc)
        page = get(loc)
    return Answer("unknown", url=page.url, message="too many redirects")


# --------------------------------------------------------------------------- markers


def has_marker(html: str, marker: str) -> bool:
    """The marker anywhere in a body: text, attributes or comments, escaped or not."""
    return bool(marker) and (marker in html or marker in htmlmod.unescape(html))


def marker_outside_quotes(html: str, marker: str) -> bool:
    """The marker in the body itself, not only inside a quote of someone's post."""
    if not has_marker(html, marker):
        return False
    try:
        frag = lxml.html.fragment_fromstring(html, create_parent="div")
    except Exception:  # unparsable fragment: the plain test is all we have
        return True
    for q in frag.xpath(f".//*[@{FM_ATTR}='quote']"):
        if q.getparent() is not None:
            q.drop_tree()
    return has_marker(lxml.html.tostring(frag, encoding="unicode"), marker)


_SECRET_FIELD = re.compile(r"sid|token|hash|key|csrf|auth|session|security", re.IGNORECASE)
_SESSION_RX = re.compile(r"(?:^|[&;])(?:sid|s)=[0-9a-f]{16,}(?=[&;]|$)", re.IGNORECASE)


def register_form_secrets(form: Any) -> None:
    """Hidden tokens and session ids of a form never reach a log line."""
    for el in form.xpath(".//input[@type='hidden'][@name]"):
        if _SECRET_FIELD.search(el.get("name", "")):
            register_secret(el.get("value"))


def clean_url(url: str | None) -> str | None:
    """A post URL without a session id in its query (phpBB `sid=`, vBulletin `s=`), so the
    stored permalink carries no secret and works for anyone. Nothing else is re-encoded."""
    if not url:
        return url
    parts = urlsplit(url)
    query = _SESSION_RX.sub("", parts.query).lstrip("&;")
    if query == parts.query:
        return url
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


def site_key(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.netloc else url.lower()
