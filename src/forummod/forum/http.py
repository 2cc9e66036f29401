"""The one HTTP policy every forum request goes through.

Politeness and robustness live here and nowhere else: a clear User-Agent, connect/read
timeouts, a minimum interval between requests to one site shared by every client of that
site in the process (issue 11 runs many games on few forums in one daemon), an optional
hourly budget, retries with exponential backoff and jitter on connection errors, timeouts,
429 and 5xx (honouring Retry-After), never a retry of a POST, request/byte counters, and a
clear `LoginRequired` when the forum answers with its login page instead of the content.
The clock and sleep are injectable so tests never wait for real.
"""

from __future__ import annotations

import collections
import email.utils
import logging
import random
import re
import threading
import time as _time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping
from urllib.parse import urljoin, urlsplit

import requests
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from forummod import __version__
from forummod.errors import BudgetExceeded, ForumError, LoginRequired, NetworkError
from forummod.forum.cookies import CookieStore
from forummod.logsafe import register_secret

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
    def __init__(self, status: int, retry_after: float | None, url: str):
        super().__init__(f"HTTP {status} from {url}")
        self.status, self.retry_after, self.url = status, retry_after, url


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


_C1 = re.compile("[\x80-\x9f]")


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


def decode_body(content: bytes, declared: str | None) -> str:
    """Text of a page. UTF-8 when the bytes are valid UTF-8 (many pages declare latin-1 and
    send UTF-8), else the declared charset, else cp1252 which never fails."""
    try:
        return _fix_c1(content.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    for enc in (declared, "cp1252", "latin-1"):
        if not enc:
            continue
        try:
            return content.decode(enc)
        except (LookupError, UnicodeDecodeError):
            continue
    return content.decode("utf-8", errors="replace")


# ------------------------------------------------------------------ per-site politeness


class SiteLimiter:
    """Minimum interval and hourly budget for one site, shared by all its clients (thread-safe)."""

    def __init__(self, interval: float, hourly_budget: int, clock: Callable[[], float],
                 sleep: Callable[[float], None]):
        self.interval = interval
        self.hourly_budget = hourly_budget
        self.clock, self.sleep = clock, sleep
        self._lock = threading.Lock()
        self._next_at = 0.0
        self._recent: collections.deque[float] = collections.deque()
        self.requests = 0
        self.bytes = 0

    def acquire(self) -> None:
        """Reserve the next slot (waiting outside the lock so other sites are not blocked)."""
        with self._lock:
            now = self.clock()
            if self.hourly_budget:
                while self._recent and self._recent[0] <= now - 3600:
                    self._recent.popleft()
                if len(self._recent) >= self.hourly_budget:
                    raise BudgetExceeded(
                        f"hourly budget of {self.hourly_budget} requests used up; "
                        f"next slot in {int(self._recent[0] + 3600 - now)} s")
            at = max(now, self._next_at)
            self._next_at = at + self.interval
            self._recent.append(at)
            self.requests += 1
        wait = at - now
        if wait > 0:
            self.sleep(wait)

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
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}".lower() if parts.netloc else ""

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
            register_secret(str(c.get("value", "")))
            self.session.cookies.set(c["name"], c.get("value", ""), domain=c.get("domain", ""),
                                     path=c.get("path", "/"))

    def save_cookies(self) -> None:
        if self.cookie_store is None or self.session is None:
            return
        cookies = []
        for c in self.session.cookies:
            register_secret(c.value)
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
        self.stats.requests += 1
        assert self.session is not None
        log.debug("%s %s", method, url)
        resp = self.session.request(method, url, timeout=(min(10.0, self.timeout), self.timeout), **kw)
        n = len(resp.content or b"")
        self.stats.bytes += n
        self.limiter.count_bytes(n)
        return resp

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
            check_login: bool = True) -> Fetched:
        """GET with conditional headers; 304 comes back as `Fetched(status=304)`."""
        url = self.absolute(url)
        hdrs = dict(headers or {})
        if etag:
            hdrs["If-None-Match"] = etag
        if last_modified:
            hdrs["If-Modified-Since"] = last_modified

        def attempt() -> Fetched:
            try:
                resp = self._send("GET", url, headers=hdrs, params=params)
            except (requests.ConnectionError, requests.Timeout) as e:
                raise _Retryable(0, None, url) from e
            if resp.status_code in RETRY_STATUSES:
                ra = parse_retry_after(resp.headers.get("Retry-After"), self.wall_clock())
                if ra is not None and ra > MAX_RETRY_AFTER:
                    raise NetworkError(f"{url}: HTTP {resp.status_code}, server asks to wait {int(ra)} s")
                raise _Retryable(resp.status_code, ra, url)
            return self._to_fetched(resp)

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
            what = f"HTTP {e.status}" if e.status else f"{type(cause).__name__}: {cause}"
            raise NetworkError(f"GET {url} failed after {self.retries + 1} attempts ({what})") from None
        if fetched.status in (401, 403) and check_login and self.login_page is not None \
                and self.login_page(fetched.url, fetched.text):
            raise LoginRequired(f"{self.site}: {url} needs a login (HTTP {fetched.status})")
        if fetched.status == 200 and check_login and self.login_page is not None \
                and self.login_page(fetched.url, fetched.text):
            raise LoginRequired(f"{self.site}: {url} answered with the login page; the session expired or a login is needed")
        return fetched

    def _count_retry(self, state: RetryCallState) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        log.info("%s: retry %d after %s", self.site, state.attempt_number, exc)

    def post(self, url: str, data: Mapping[str, Any] | None = None, *, json: Any = None,
             headers: Mapping[str, str] | None = None, allow_redirects: bool = True) -> Fetched:
        """POST once: a POST is never retried (it may have been applied)."""
        url = self.absolute(url)
        try:
            resp = self._send("POST", url, data=data, json=json, headers=dict(headers or {}),
                              allow_redirects=allow_redirects)
        except (requests.ConnectionError, requests.Timeout) as e:
            raise NetworkError(f"POST {url} failed ({type(e).__name__}); not retried") from None
        return self._to_fetched(resp)

    def now(self) -> datetime:
        """Wall-clock time as aware UTC (adapters pass it to pure parsers as `now`)."""
        return datetime.fromtimestamp(self.wall_clock(), tz=timezone.utc)
