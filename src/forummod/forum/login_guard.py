"""When a run may try to log in again (issue 34, item 2).

Two kinds of failed login call for opposite answers. A forum that says the credentials are
wrong must not see that password again: forums lock an account after a few wrong attempts, so
the guard refuses further attempts with it until the GM sets another one (a new value in the
keyring or the environment is tried at once). Anything else (a 503, a timeout, a connection
reset, a maintenance page without the login form) says nothing about the password: the next
pass tries again, waiting twice as long after each failure in a row (1 min, 2, 4... at most an
hour), so a forum that is down is not hammered with logins either.

What the guard knows is kept where the session cookies are (`keep`: the store, owner-only), so
the next cron `tick` obeys it like the daemon's next pass. Of a refused password it keeps only
a salted scrypt hash, to tell whether the password has changed since.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import Any, Callable

from forummod.errors import CredentialsRefused, LoginFailed, LoginUnanswered, NetworkError

FIRST_WAIT = 60.0  # seconds after the first failed attempt
MAX_WAIT = 3600.0  # the longest wait between two attempts


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt, n=1 << 14, r=8, p=1, dklen=32)


def _span(seconds: float) -> str:
    s = max(1, round(seconds))
    return f"{s} s" if s < 120 else f"{s // 60} min"


@dataclass
class LoginGuard:
    """Says whether a login may be attempted now, runs it, and words its failure."""

    site: str
    clock: Callable[[], float]  # wall-clock seconds (the HTTP client's, injectable in tests)
    where: str = "the keyring"  # where the GM changes the password, for the message
    keep: Any = None  # a CookieStore with load_login_state/save_login_state, or None (this process only)
    first_wait: float = FIRST_WAIT
    max_wait: float = MAX_WAIT

    def __post_init__(self) -> None:
        state = self._load()
        refused = state.get("refused") or {}
        self.refused: tuple[bytes, bytes, str] | None = (
            (bytes.fromhex(refused["salt"]), bytes.fromhex(refused["hash"]), str(refused["why"]))
            if refused.get("salt") and refused.get("hash") else None)
        self.failures = int(state.get("failures") or 0)
        self.failed_at = float(state.get("failed_at") or 0.0)
        self.retry_at = float(state.get("retry_at") or 0.0)
        last = state.get("last") or {}
        kind = LoginUnanswered if last.get("kind") == "unanswered" else LoginFailed
        self.last: LoginFailed | None = kind(str(last["text"])) if last.get("text") else None

    def attempt(self, password: str, login: Callable[[], None]) -> None:
        """Run `login()` unless this password was refused or a wait is on. A failure raises
        `CredentialsRefused` (stop: change the password) or `LoginUnanswered` / `LoginFailed`
        (tried again at a later pass), each saying which it is."""
        if self.refused is not None:
            salt, digest, why = self.refused
            if hmac.compare_digest(_hash(password, salt), digest):
                raise CredentialsRefused(why)
        now = self.clock()
        if self.last is not None and now < self.retry_at:
            raise type(self.last)(f"{self.last}, {_span(now - self.failed_at)} ago; will try again in "
                                  f"{_span(self.retry_at - now)}")
        try:
            login()
        except CredentialsRefused as e:
            salt = os.urandom(16)
            why = (f"{e}; not trying this password again (forums lock an account after a few wrong attempts): "
                   f"correct it in {self.where}")
            self.refused, self.failures, self.last = (salt, _hash(password, salt), why), 0, None
            self._save()
            raise CredentialsRefused(why) from None
        except (NetworkError, LoginFailed) as e:  # a NetworkError: the login page or POST got no answer
            failure = e if isinstance(e, LoginFailed) else \
                LoginUnanswered(f"{self.site}: the forum did not answer the login ({e.reason or e})")
            self.failures += 1
            self.failed_at, self.last = self.clock(), failure
            wait = min(self.max_wait, self.first_wait * 2 ** (self.failures - 1))
            self.retry_at = self.failed_at + wait
            self._save()
            raise type(failure)(f"{failure}; will try again at the next pass (not before {_span(wait)})") from None
        if self.refused is not None or self.failures:
            self.refused, self.failures, self.last = None, 0, None
            self._save()

    # ---- kept between runs

    def _load(self) -> dict[str, Any]:
        load = getattr(self.keep, "load_login_state", None)
        return (load(self.site) or {}) if load is not None else {}

    def _save(self) -> None:
        save = getattr(self.keep, "save_login_state", None)
        if save is None:
            return
        refused = None
        if self.refused is not None:
            salt, digest, why = self.refused
            refused = {"salt": salt.hex(), "hash": digest.hex(), "why": why}
        last = None
        if self.last is not None:
            last = {"kind": "unanswered" if isinstance(self.last, LoginUnanswered) else "failed", "text": str(self.last)}
        save(self.site, {"refused": refused, "failures": self.failures, "failed_at": self.failed_at,
                         "retry_at": self.retry_at, "last": last})
