"""When a long run may try to log in again (issue 34, item 2).

Two kinds of failed login call for opposite answers. A forum that says the credentials are
wrong must not see that password again: forums lock an account after a few wrong attempts, so
the guard refuses further attempts with it until the GM sets another one (a new value in the
keyring or the environment is tried at once). Anything else (a 503, a timeout, a connection
reset, a maintenance page without the login form) says nothing about the password: the next
pass tries again, waiting twice as long after each failure in a row (1 min, 2, 4... at most an
hour), so a forum that is down is not hammered with logins either.

One guard per adapter, so a daemon remembers across passes; a cron run starts afresh (its
next tick is the next attempt). Of a refused password only a digest is kept, in memory.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

from forummod.errors import CredentialsRefused, LoginFailed, LoginUnanswered, NetworkError

FIRST_WAIT = 60.0  # seconds after the first failed attempt
MAX_WAIT = 3600.0  # the longest wait between two attempts


def _digest(password: str) -> bytes:
    return hashlib.sha256(password.encode("utf-8", "surrogatepass")).digest()


def _span(seconds: float) -> str:
    s = max(1, round(seconds))
    return f"{s} s" if s < 120 else f"{s // 60} min"


@dataclass
class LoginGuard:
    """Says whether a login may be attempted now, runs it, and words its failure."""

    site: str
    clock: Callable[[], float]  # monotonic seconds (the HTTP client's, injectable in tests)
    where: str = "the keyring"  # where the GM changes the password, for the message
    first_wait: float = FIRST_WAIT
    max_wait: float = MAX_WAIT
    refused: bytes | None = None  # digest of the password the forum called wrong
    refused_why: str = ""
    failures: int = 0  # other failures in a row
    failed_at: float = 0.0
    retry_at: float = 0.0
    last: LoginFailed | None = None  # the last of those failures, as first worded

    def attempt(self, password: str, login: Callable[[], None]) -> None:
        """Run `login()` unless this password was refused or a wait is on. A failure raises
        `CredentialsRefused` (stop: change the password) or `LoginUnanswered` / `LoginFailed`
        (tried again at a later pass), each saying which it is."""
        digest = _digest(password)
        if digest == self.refused:
            raise CredentialsRefused(self.refused_why)
        now = self.clock()
        if self.last is not None and now < self.retry_at:
            raise type(self.last)(f"{self.last}, {_span(now - self.failed_at)} ago; will try again in "
                                  f"{_span(self.retry_at - now)}")
        try:
            login()
        except CredentialsRefused as e:
            self.refused = digest
            self.refused_why = (f"{e}; not trying this password again (forums lock an account after a few wrong "
                                f"attempts): correct it in {self.where}")
            self.failures, self.last = 0, None
            raise CredentialsRefused(self.refused_why) from None
        except (NetworkError, LoginFailed) as e:  # a NetworkError: the login page or POST got no answer
            failure = e if isinstance(e, LoginFailed) else \
                LoginUnanswered(f"{self.site}: the forum did not answer the login ({e.reason or e})")
            self.failures += 1
            self.failed_at, self.last = self.clock(), failure
            wait = min(self.max_wait, self.first_wait * 2 ** (self.failures - 1))
            self.retry_at = self.failed_at + wait
            raise type(failure)(f"{failure}; will try again at the next pass (not before {_span(wait)})") from None
        self.refused, self.failures, self.last = None, 0, None
