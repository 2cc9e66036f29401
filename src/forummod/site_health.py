"""How a forum is doing across the daemon's passes: when it may be asked again (pure).

A forum that asks us to wait (Retry-After) or keeps failing (5xx, timeouts, no connection;
`errors.SiteBackoff`) is not asked again before `until`. Each failed try in a row doubles the
pause, from the forum's poll interval up to `MAX_BACKOFF`, with a little jitter so that
forums down together are not all tried again in the same second (exponential back-off, as
pip, curl --retry and gallery-dl do); the forum's own Retry-After wins when it is longer.
The first success ends it, and says so (`recovered`), so the daemon can tell the GM that
polling works again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from forummod.records import frozen

MAX_BACKOFF = timedelta(minutes=15)  # a down forum is still tried every quarter of an hour
JITTER = 0.25  # a pause is lengthened by up to this fraction


@frozen
class SiteHealth:
    """A forum's state between passes: healthy when `failures` is 0."""

    failures: int = 0  # failed tries in a row
    until: datetime | None = None  # no request before this
    down_since: datetime | None = None  # the first failure of the run
    error: str = ""  # the last failure, as the poll reported it

    def blocked(self, now: datetime) -> bool:
        """Whether the forum must not be asked at `now`."""
        return self.until is not None and now < self.until


def failed(h: SiteHealth, now: datetime, *, error: str, retry_at: datetime | None, base: timedelta,
           jitter: float = 0.0, cap: timedelta = MAX_BACKOFF) -> SiteHealth:
    """`h` after a failed try at `now`. `base` is the first pause (the forum's shortest poll
    interval: the first failure costs no more than one round), `jitter` a draw in [0, 1)."""
    n = h.failures + 1
    cap = max(cap, base)
    pause = min(cap, base * 2 ** min(n - 1, 30)) * (1 + JITTER * jitter)
    until = now + min(pause, cap * (1 + JITTER))
    if retry_at is not None and retry_at > until:
        until = retry_at
    return SiteHealth(n, until, h.down_since or now, error)


def succeeded(h: SiteHealth) -> tuple[SiteHealth, bool]:
    """A healthy forum, and whether it had been failing (it recovered just now)."""
    return SiteHealth(), h.failures > 0
