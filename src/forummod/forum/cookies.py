"""Where login cookies live between runs.

The service backs `CookieStore` with the SQLite store (owner-only permissions); tests and
one-off commands use `MemoryCookieStore`. A cookie is a plain dict: name, value, domain,
path, expires, secure.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable


@runtime_checkable
class CookieStore(Protocol):
    def load(self, site: str) -> list[dict]:
        """Cookies saved for `site` (empty list when none)."""

    def save(self, site: str, cookies: list[dict]) -> None:
        """Replace the cookies of `site`."""


class MemoryCookieStore:
    """Process-local cookie store."""

    def __init__(self) -> None:
        self._data: dict[str, list[dict]] = {}
        self._lock = threading.Lock()

    def load(self, site: str) -> list[dict]:
        with self._lock:
            return [dict(c) for c in self._data.get(site, [])]

    def save(self, site: str, cookies: list[dict]) -> None:
        with self._lock:
            self._data[site] = [dict(c) for c in cookies]
