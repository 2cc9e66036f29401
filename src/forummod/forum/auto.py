"""Engine "auto": recognise the engine from the forum's front page on first use."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from forummod.config import SiteConfig
from forummod.forum.cookies import CookieStore
from forummod.forum.detect import detect_engine
from forummod.forum.http import HttpClient


class AutoAdapter:
    """Fetches `base_url` once, detects the engine, then delegates everything to its adapter.

    The registry hands in `profiles` (engine name -> profile, by adapters folder) and
    `adapter_from_profile`, so this module does not import the registry that builds it.
    """

    engine = "auto"

    def __init__(self, site_name: str, site: SiteConfig, *, profiles: Callable[[Path | None], Mapping[str, Any]],
                 adapter_from_profile: Callable[..., Any], user_adapters_dir: Path | None = None,
                 http: HttpClient | None = None, cookie_store: CookieStore | None = None,
                 clock: Callable[[], Any] | None = None):
        self._args = (site_name, site, user_adapters_dir, cookie_store, clock)
        self._profiles = profiles
        self._adapter_from_profile = adapter_from_profile
        self.http = http or HttpClient.from_site(site_name, site, cookie_store=cookie_store)
        self._inner: Any = None

    def _adapter(self) -> Any:
        if self._inner is None:
            from dataclasses import replace

            site_name, site, user_dir, cookie_store, clock = self._args
            profs = self._profiles(user_dir)
            page = self.http.get(site.base_url, check_login=False)
            engine = detect_engine(profs, page.text, where=site.base_url)
            self._inner = self._adapter_from_profile(site_name, replace(site, engine=engine), profs[engine],
                                                     http=self.http, cookie_store=cookie_store, clock=clock)
            self.engine = engine
        return self._inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._adapter(), name)

    def thread_id(self, thread: Any) -> str:
        return self._adapter().thread_id(thread)

    def poll_thread(self, thread: Any, cursor: Any, progress: Any = None) -> Any:
        return self._adapter().poll_thread(thread, cursor, progress)

    def poll_inbox(self, cursor: Any, known_ids: frozenset[str] = frozenset()) -> Any:
        return self._adapter().poll_inbox(cursor, known_ids)

    def reply(self, thread: Any, body: str, marker: str | None = None) -> Any:
        return self._adapter().reply(thread, body, marker)

    def send_pm(self, to: str, subject: str, body: str, marker: str | None = None) -> Any:
        return self._adapter().send_pm(to, subject, body, marker)

    def find_published(self, marker: str, thread: Any = None, since: Any = None) -> Any:
        return self._adapter().find_published(marker, thread, since)
