"""The one HTTP policy every forum request goes through.

Politeness and robustness live here and nowhere else: a clear User-Agent, connect/read
timeouts plus a deadline and a size cap for a whole answer, one request at a time per site
and a minimum interval after each answer, shared by every client of that site in the process
(issue 11 runs many games on few forums in one daemon), an optional hourly budget,
redirects followed hop by hop under the same rules (a loop is an error), retries with
exponential backoff and jitter on connection errors (a reset mid-answer included), timeouts,
429 and 5xx (honouring Retry-After, which then holds back every client of the site) and
pages cut short, never a retry of a POST, request/byte counters, error messages with
secrets redacted, and a clear `LoginRequired` when the forum answers with its login page
instead of the content. The clock and sleep are injectable so tests never wait for real.
"""

from __future__ import annotations

import codecs
import collections
import email.utils
import logging
import random
import re
import threading
import time as _time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Mapping
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from forummod import __version__
from forummod.errors import BudgetExceeded, ForumError, LoginRequired, NetworkError
from forummod.forum.cookies import CookieStore
from forummod.logsafe import redact, register_secret

log = logging.getLogger(__name__)

DEFAULT_USER_AGENT = f"forummod/{__version__} (+https://example.invalid/forummod)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 520, 521, 522, 523, 524})
MAX_RETRY_AFTER = 600.0  # never obey a Retry-After longer than this; fail instead


@dataclass(frozen=True)
class Fetched:
    """One HTTP answer, reduced to what adapters need (the body is decoded text)."""

    url: str  # final URL after redirects
    status: int
    text: str
    headers: Mapping[str, str]
    nbytes: int = 0

    @property
    def etag(self) -> str | None:
        return self.headers.get("ETag") or self.headers.get("etag")

    @property
    def last_modified(self) -> str | None:
        return self.headers.get("Last-Modified") or self.headers.get("last-modified")

    @property
    def not_modified(self) -> bool:
        return self.status == 304


class _Retryable(Exception):
    def __init__(self, status: int, retry_after: float | None, url: str, reason: str = ""):
        super().__init__(reason or f"HTTP {status} from {url}")
        self.status, self.retry_after, self.url, self.reason = status, retry_after, url, reason


MAX_REDIRECTS = 10  # a longer chain (or any loop) is a broken site, reported without retrying
MAX_BODY_BYTES = 64 << 20  # the biggest forum page is a few MB; more is a broken or hostile server
BODY_DEADLINE_FACTOR = 3  # a whole answer must arrive within this many `timeout`s

# Transport failures worth another try: the connection broke (also mid-body: a reset or a short
# read surfaces as ChunkedEncodingError), timed out, or the body could not be decoded.
_TRANSIENT = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError,
              requests.exceptions.ContentDecodingError)


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP-date)."""
    if not value:
        return None
    v = value.strip()
    if v.isdigit():
        return float(v)
    try:
        dt = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError):
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return max(0.0, dt.timestamp() - now)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> str:
    """scheme://host:port of a URL, lower case, the default port spelled out ("" if relative)."""
    parts = urlsplit(url)
    if not parts.netloc or not parts.hostname:
        return ""
    scheme = parts.scheme.lower()
    try:
        port = parts.port or _DEFAULT_PORTS.get(scheme, 0)
    except ValueError:
        return ""
    return f"{scheme}://{parts.hostname.lower()}:{port}"


_C1 = re.compile("[\x80-\x9f]")
_C1_UTF8 = re.compile(b"\xc2[\x80-\x9f]")


def _fix_c1(text: str) -> str:
    """C1 control characters never occur in forum text: they are cp1252 punctuation that a
    latin-1 decoder let through (e.g. \x92 for a right quote)."""
    if not _C1.search(text):
        return text

    def one(m: re.Match[str]) -> str:
        try:
            return m.group(0).encode("latin-1").decode("cp1252")
        except UnicodeDecodeError:
            return m.group(0)

    return _C1.sub(one, text)


def _fix_c1_utf8(m: re.Match[bytes]) -> bytes:
    """`_fix_c1` of one UTF-8 encoded C1 character."""
    try:
        return m.group(0)[1:].decode("cp1252").encode("utf-8")
    except UnicodeDecodeError:
        return m.group(0)


def decode_body(content: bytes, declared: str | None) -> str:
    """Text of a page. UTF-8 when the bytes are valid UTF-8 (many pages declare latin-1 and
    send UTF-8), else the declared charset, else cp1252 which never fails.

    A UTF-8 page with a few broken bytes (a post cut mid-character, a bad paste) stays UTF-8,
    the broken bytes becoming U+FFFD: read as cp1252, every accented name on the page would
    turn to mojibake and stop matching its player."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:  # a C1 character in UTF-8 is the bytes C2 80..9F: found and fixed in the bytes, 100x cheaper
        return _C1_UTF8.sub(_fix_c1_utf8, content).decode("utf-8") if _has_c1_utf8(content) else text
    declared_utf8 = _codec(declared) == "utf-8"
    if declared and not declared_utf8:
        try:
            return content.decode(declared)
        except (LookupError, UnicodeDecodeError):
            pass
    text = content.decode("utf-8", errors="replace")
    broken = text.count("\ufffd")
    multibyte = len(text) - len(text.encode("ascii", "ignore")) - broken  # the characters beyond ASCII, counted in C
    if declared_utf8 or broken <= multibyte:
        return _fix_c1(text)
    for enc in ("cp1252", "latin-1"):
        try:
            return content.decode(enc)
        except UnicodeDecodeError:
            continue
    return text


def _has_c1_utf8(content: bytes) -> bool:
    """`_C1_UTF8.search(content)`, told at once (memchr) for the pages without any C2 byte: the
    regex walks every byte of a page (~60 us for 180 kB) where the search for C2 takes 2 us."""
    return b"\xc2" in content and _C1_UTF8.search(content) is not None


def decode_utf8_body(content: bytes) -> tuple[str, bytes | None]:
    """`decode_body(content, None)` and, when the bytes are UTF-8 (most pages), that text's
    UTF-8 form (`content` itself, or its copy with C1 characters fixed), else None: the parser
    reads the bytes, which spares encoding the text again."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return decode_body(content, None), None
    if _has_c1_utf8(content):  # decode_body's fix, made here on the bytes, which stay the text's UTF-8
        fixed = _C1_UTF8.sub(_fix_c1_utf8, content)
        return fixed.decode("utf-8"), fixed
    return text, content


def _codec(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


# ------------------------------------------------------------------ per-site politeness


class SiteLimiter:
    """Minimum interval and hourly budget for one site, shared by all its clients (thread-safe).

    One request at a time per site, and a pause of at least `interval` between the end of one
    answer and the next request: measured from the end, the forum sees the interval between
    arrivals however late a busy process got a reserved slot onto the wire.
    """

    def __init__(self, interval: float, hourly_budget: int, clock: Callable[[], float],
                 sleep: Callable[[float], None]):
        self.interval = interval
        self.hourly_budget = hourly_budget
        self.clock, self.sleep = clock, sleep
        self._lock = threading.Lock()
        self._turn = threading.Lock()  # held from acquire() to release(): one request in flight
        self._free_at = 0.0
        self._recent: collections.deque[float] = collections.deque()
        self.requests = 0
        self.bytes = 0

    def acquire(self) -> None:
        """Wait for this site's turn and its interval; BudgetExceeded when the hour is used up.
        Every acquire() that returns must be followed by release()."""
        self._turn.acquire()
        try:
            with self._lock:
                now = self.clock()
                if self.hourly_budget:
                    while self._recent and self._recent[0] <= now - 3600:
                        self._recent.popleft()
                    if len(self._recent) >= self.hourly_budget:
                        raise BudgetExceeded(
                            f"hourly budget of {self.hourly_budget} requests used up; "
                            f"next slot in {int(self._recent[0] + 3600 - now)} s")
                wait = self._free_at - now
            if wait > 0:
                self.sleep(wait)  # other sites are not blocked: each has its own turn
            with self._lock:
                self._recent.append(self.clock())
                self.requests += 1
        except BaseException:
            self._turn.release()
            raise

    def release(self) -> None:
        """The answer is in (or the request failed): the next one may go after the interval."""
        with self._lock:
            self._free_at = self.clock() + self.interval
        self._turn.release()

    def defer(self, seconds: float) -> None:
        """No request to this site for `seconds` (a Retry-After applies to every game on it)."""
        with self._lock:
            self._free_at = max(self._free_at, self.clock() + seconds)

    def count_bytes(self, n: int) -> None:
        with self._lock:
            self.bytes += n


_LIMITERS: dict[str, SiteLimiter] = {}
_LIMITERS_LOCK = threading.Lock()


def site_limiter(key: str, interval: float, hourly_budget: int, clock: Callable[[], float],
                 sleep: Callable[[float], None]) -> SiteLimiter:
    """The process-wide limiter of a site (by scheme+host), created on first use."""
    with _LIMITERS_LOCK:
        lim = _LIMITERS.get(key)
        if lim is None:
            lim = _LIMITERS[key] = SiteLimiter(interval, hourly_budget, clock, sleep)
        else:  # the strictest setting wins when two configs name one forum
            lim.interval = max(lim.interval, interval)
            if hourly_budget:
                lim.hourly_budget = min(lim.hourly_budget or hourly_budget, hourly_budget)
        return lim


def reset_limiters() -> None:
    """Forget every site's limiter (tests)."""
    with _LIMITERS_LOCK:
        _LIMITERS.clear()


# ------------------------------------------------------------------ client


def _pieces(resp: requests.Response) -> Iterator[bytes]:
    """The body as it arrives (`read1`: whatever is there, not a full 64 KB block), with
    urllib3's errors turned into the requests errors the retry policy knows."""
    read1 = getattr(resp.raw, "read1", None)
    if read1 is None:
        yield from resp.iter_content(65536)
        return
    try:
        while True:
            piece = read1(65536, decode_content=True)
            if not piece:
                return
            yield piece
    except urllib3.exceptions.ProtocolError as e:
        raise requests.exceptions.ChunkedEncodingError(e) from e
    except urllib3.exceptions.ReadTimeoutError as e:
        raise requests.exceptions.ConnectionError(e) from e
    except urllib3.exceptions.DecodeError as e:
        raise requests.exceptions.ContentDecodingError(e) from e
    except urllib3.exceptions.SSLError as e:
        raise requests.exceptions.SSLError(e) from e


def _register_cookie(value: str) -> None:
    """Session cookies are secrets; short values ("1", "true", a style name) are not, and
    registering them would blank those words out of every log line and error message."""
    if len(value) >= 8:
        register_secret(value)


@dataclass
class HttpStats:
    requests: int = 0
    bytes: int = 0
    retries: int = 0


@dataclass
class HttpClient:
    """GET with retries and politeness, POST without retries, for one forum site.

    `login_page` (set by the adapter from its profile) says whether a page is the forum's
    login form; a GET that lands on one raises `LoginRequired`.
    """

    site: str
    base_url: str = ""
    user_agent: str = ""
    timeout: float = 30.0
    retries: int = 4
    request_interval: float = 2.0
    hourly_budget: int = 0
    clock: Callable[[], float] = _time.monotonic
    wall_clock: Callable[[], float] = _time.time
    sleep: Callable[[float], None] = _time.sleep
    session: requests.Session | None = None
    cookie_store: CookieStore | None = None
    login_page: Callable[[str, str], bool] | None = None
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    stats: HttpStats = field(default_factory=HttpStats)
    site_headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.session is None:
            self.session = requests.Session()
        self.session.headers["User-Agent"] = self.user_agent or DEFAULT_USER_AGENT
        self.session.headers.setdefault("Accept-Language", "en;q=0.5")
        key = self._site_key(self.base_url) or self.site
        self.limiter = site_limiter(key, self.request_interval, self.hourly_budget, self.clock, self.sleep)
        if self.cookie_store is not None:
            self.load_cookies()

    # -------------------------------------------------------------- helpers

    @staticmethod
    def _site_key(url: str) -> str:
        return origin(url)

    @property
    def site_origin(self) -> str:
        """The forum's own origin (scheme, host, port): the only place credentials may go."""
        return origin(self.absolute(self.base_url or "/"))

    def same_origin(self, url: str) -> bool:
        """`url` (relative to the site) is on the forum's own origin."""
        mine = self.site_origin
        return bool(mine) and origin(self.absolute(url)) == mine

    def set_site_header(self, name: str, value: str) -> None:
        """A header sent only to the site's own origin (an API key): never to another host a
        link or a redirect points at. SECURITY.md, rule CRED-3."""
        register_secret(value)
        self.site_headers[name] = value

    def absolute(self, url: str) -> str:
        return urljoin(self.base_url, url) if self.base_url else url

    @classmethod
    def from_site(cls, site_name: str, site: Any, **kw: Any) -> "HttpClient":
        """A client configured from a `SiteConfig`."""
        return cls(site=site_name, base_url=site.base_url, user_agent=site.user_agent,
                   timeout=site.timeout, retries=site.retries, request_interval=site.request_interval,
                   hourly_budget=site.hourly_budget, **kw)

    # -------------------------------------------------------------- cookies

    def load_cookies(self) -> None:
        assert self.cookie_store is not None and self.session is not None
        for c in self.cookie_store.load(self.site):
            _register_cookie(str(c.get("value", "")))
            self.session.cookies.set(c["name"], c.get("value", ""), domain=c.get("domain", ""),
                                     path=c.get("path", "/"))

    def save_cookies(self) -> None:
        if self.cookie_store is None or self.session is None:
            return
        cookies = []
        for c in self.session.cookies:
            _register_cookie(c.value or "")
            cookies.append({"name": c.name, "value": c.value, "domain": c.domain, "path": c.path,
                            "expires": c.expires, "secure": c.secure})
        self.cookie_store.save(self.site, cookies)

    def clear_cookies(self) -> None:
        assert self.session is not None
        self.session.cookies.clear()
        if self.cookie_store is not None:
            self.cookie_store.save(self.site, [])

    # -------------------------------------------------------------- requests

    def _send(self, method: str, url: str, **kw: Any) -> requests.Response:
        self.limiter.acquire()
        try:
            self.stats.requests += 1
            assert self.session is not None
            log.debug("%s %s", method, url)
            if self.site_headers and self.same_origin(url):  # CRED-3: API keys to the site only
                kw["headers"] = {**self.site_headers, **(kw.get("headers") or {})}
            resp = self.session.request(method, url, timeout=(min(10.0, self.timeout), self.timeout),
                                        stream=True, **kw)
            for c in resp.cookies:  # a new session id is a secret before the next log line names it
                _register_cookie(c.value or "")
            n = self._read_body(resp, url)
        finally:
            self.limiter.release()
        self.stats.bytes += n
        self.limiter.count_bytes(n)
        return resp

    def _read_body(self, resp: requests.Response, url: str) -> int:
        """Read the whole answer within a total deadline and a size cap.

        The read timeout only bounds the wait for each piece: a server trickling a byte at a
        time would hold the poll (and a daemon's every game) forever, and one sending without
        end would fill the memory. Too slow is a timeout (retried); too big is an error."""
        deadline = _time.monotonic() + BODY_DEADLINE_FACTOR * self.timeout  # real time, like the socket's
        chunks, n = [], 0
        try:
            for chunk in _pieces(resp):
                chunks.append(chunk)
                n += len(chunk)
                if n > MAX_BODY_BYTES:
                    raise NetworkError(redact(f"{url}: the answer is larger than {MAX_BODY_BYTES >> 20} MB; "
                                              "not a forum page"))
                if _time.monotonic() > deadline:
                    raise requests.exceptions.ReadTimeout(
                        f"the answer was still arriving after {BODY_DEADLINE_FACTOR * self.timeout:g} s")
        except BaseException:
            resp.close()
            raise
        resp._content = b"".join(chunks)  # what `resp.content` returns from now on
        resp._content_consumed = True
        return n

    def _to_fetched(self, resp: requests.Response) -> Fetched:
        text = decode_body(resp.content or b"", resp.encoding if "charset" in resp.headers.get("Content-Type", "") else None)
        return Fetched(url=resp.url, status=resp.status_code, text=text, headers=dict(resp.headers),
                       nbytes=len(resp.content or b""))

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Retryable) and exc.retry_after is not None:
            return exc.retry_after
        expo = min(self.backoff_max, self.backoff_base * (2 ** (state.attempt_number - 1)))
        return expo + random.uniform(0, expo / 2)

    def get(self, url: str, *, etag: str | None = None, last_modified: str | None = None,
            headers: Mapping[str, str] | None = None, params: Mapping[str, Any] | None = None,
            check_login: bool = True, complete: Callable[[str], bool] | None = None) -> Fetched:
        """GET with conditional headers; 304 comes back as `Fetched(status=304)`.

        Redirects are followed here, each hop through the site's limiter, and a loop is an
        error. `complete(text)` says whether a 200 body is whole: a page cut short (a server
        dying mid-render, an empty answer) is retried like a 5xx instead of being parsed.
        """
        url = self.absolute(url)
        hdrs = dict(headers or {})
        if etag:
            hdrs["If-None-Match"] = etag
        if last_modified:
            hdrs["If-Modified-Since"] = last_modified

        def attempt() -> Fetched:
            try:
                resp = self._follow(url, hdrs, params)
            except _TRANSIENT as e:
                raise _Retryable(0, None, url) from e
            except requests.RequestException as e:  # bad URL, too many redirects...: not transient
                raise NetworkError(redact(f"GET {url} failed ({type(e).__name__}: {e})")) from None
            if resp.status_code in RETRY_STATUSES:
                ra = parse_retry_after(resp.headers.get("Retry-After"), self.wall_clock())
                if ra is not None:
                    self.limiter.defer(min(ra, MAX_RETRY_AFTER))  # the forum asked everyone of us to wait
                if ra is not None and ra > MAX_RETRY_AFTER:
                    raise NetworkError(redact(f"{url}: HTTP {resp.status_code}, server asks to wait {int(ra)} s"))
                raise _Retryable(resp.status_code, ra, url)
            fetched = self._to_fetched(resp)
            if complete is not None and fetched.status == 200 and not complete(fetched.text):
                raise _Retryable(200, None, url, reason=f"the page came back incomplete ({fetched.nbytes} bytes, "
                                                        "empty or cut short before its end)")
            return fetched

        retrying = Retrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=self._wait,
            retry=retry_if_exception(lambda e: isinstance(e, _Retryable)),
            sleep=self.sleep,
            reraise=True,
            before_sleep=lambda st: self._count_retry(st),
        )
        try:
            fetched = retrying(attempt)
        except _Retryable as e:
            cause = e.__cause__
            what = e.reason or (f"HTTP {e.status}" if e.status else f"{type(cause).__name__}: {cause}")
            short = "an incomplete page" if e.reason else f"HTTP {e.status}" if e.status else type(cause).__name__
            raise NetworkError(redact(f"GET {url} failed after {self.retries + 1} attempts ({what})"),
                               reason=short) from None
        if fetched.status in (401, 403) and check_login and self.login_page is not None \
                and self.login_page(fetched.url, fetched.text):
            raise LoginRequired(redact(f"{self.site}: {url} needs a login (HTTP {fetched.status})"))
        if fetched.status == 200 and check_login and self.login_page is not None \
                and self.login_page(fetched.url, fetched.text):
            raise LoginRequired(redact(f"{self.site}: {url} answered with the login page; the session expired or a login is needed"))
        return fetched

    def _follow(self, url: str, headers: Mapping[str, str], params: Mapping[str, Any] | None) -> requests.Response:
        """GET `url` and follow its redirects one polite request at a time; a loop is an error."""
        resp = self._send("GET", url, headers=headers, params=params, allow_redirects=False)
        return self._redirects(resp, "GET", url, headers)

    def _redirects(self, resp: requests.Response, method: str, url: str,
                   headers: Mapping[str, str]) -> requests.Response:
        """Follow `resp`'s redirects with GETs, each through the site's limiter (never inside
        requests, where no interval applies); a loop or a chain over MAX_REDIRECTS is an error.
        A 307/308 answer to a POST is not followed: that would send the POST again."""
        seen = [resp.url]
        while resp.is_redirect and not (method == "POST" and resp.status_code in (307, 308)):
            nxt = urljoin(resp.url, resp.headers["Location"])
            if nxt in seen or len(seen) > MAX_REDIRECTS:
                what = "in a loop" if nxt in seen else f"more than {MAX_REDIRECTS} times"
                chain = " -> ".join([*seen, nxt])
                raise NetworkError(redact(f"{method} {url}: the forum redirects {what} ({chain}); not retried"))
            seen.append(nxt)
            hop_headers = headers if method == "GET" else {k: v for k, v in headers.items()
                                                           if k.lower() != "content-type"}
            resp = self._send("GET", nxt, headers=hop_headers, allow_redirects=False)
        return resp

    def _count_retry(self, state: RetryCallState) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        log.info("%s: retry %d after %s", self.site, state.attempt_number, exc)

    def post(self, url: str, data: Mapping[str, Any] | None = None, *, json: Any = None,
             headers: Mapping[str, str] | None = None, allow_redirects: bool = True) -> Fetched:
        """POST once: a POST is never retried (it may have been applied).

        `allow_redirects`: follow the answer's redirects with GETs, each through the site's
        limiter like any other request; False returns the redirect itself."""
        url = self.absolute(url)
        hdrs = dict(headers or {})
        try:
            resp = self._send("POST", url, data=data, json=json, headers=hdrs, allow_redirects=False)
        except requests.RequestException as e:
            raise NetworkError(redact(f"POST {url} failed ({type(e).__name__}); not retried"),
                               reason=type(e).__name__) from None
        if allow_redirects and resp.is_redirect:
            try:
                resp = self._redirects(resp, "POST", url, hdrs)
            except requests.RequestException as e:
                raise NetworkError(redact(f"POST {url}: following its redirect failed ({type(e).__name__}); "
                                          "the POST itself went through")) from None
        return self._to_fetched(resp)

    def now(self) -> datetime:
        """Wall-clock time as aware UTC (adapters pass it to pure parsers as `now`)."""
        return datetime.fromtimestamp(self.wall_clock(), tz=timezone.utc)
