"""Where login cookies live between runs, and what the login guard knows (`login_guard`).

The service backs `CookieStore` with the SQLite store (owner-only permissions); tests and
one-off commands use `MemoryCookieStore`. A cookie is a plain dict: name, value, domain,
path, expires, secure. The login state is a JSON-able dict (a refused password's salted
hash, the failures in a row and when the next attempt may go).
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

    def load_login_state(self, site: str) -> dict:
        """The login guard's state for `site` (empty dict when none)."""

    def save_login_state(self, site: str, state: dict) -> None:
        """Replace the login guard's state for `site`."""


class MemoryCookieStore:
    """Process-local cookie store."""

    def __init__(self) -> None:
        self._data: dict[str, list[dict]] = {}
        self._login: dict[str, dict] = {}
        self._lock = threading.Lock()

    def load_login_state(self, site: str) -> dict:
        with self._lock:
            return dict(self._login.get(site, {}))

    def save_login_state(self, site: str, state: dict) -> None:
        with self._lock:
            self._login[site] = dict(state)

    def load(self, site: str) -> list[dict]:
        with self._lock:
            return [dict(c) for c in self._data.get(site, [])]

    def save(self, site: str, cookies: list[dict]) -> None:
        with self._lock:
            self._data[site] = [dict(c) for c in cookies]
