"""Which engines exist, which one a URL belongs to, and building the adapter for a site.

Engines are the profiles on the adapters search path (user folder first) plus "archive"
(local JSONL files). `make_adapter` is the one place the service gets adapters from.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from forummod.config import SiteConfig
from forummod.errors import UnknownEngine
from forummod.forum.base import ForumAdapter
from forummod.forum.cookies import CookieStore
from forummod.forum.http import HttpClient
from forummod.forum.profile import Profile, load_profiles
from forummod.forum_engines import ARCHIVE
from forummod.resources import search_path


@lru_cache(maxsize=16)
def _profiles_cached(user_dir: str | None) -> dict[str, Profile]:
    return load_profiles(search_path("adapters", Path(user_dir) if user_dir else None))


@lru_cache(maxsize=64)
def _profile_cached(engine: str, user_dir: str | None) -> Profile | None:
    """The first profile named `engine` on the search path, the only one compiled: its name is
    read from the file's head (`forum_engines.profile_head`), so a site's adapter costs one
    profile's selectors, not all thirteen (issue 30: 0.18 s of a cron poll's 0.5 s)."""
    from forummod.forum.profile import load_profile_file
    from forummod.forum_engines import profile_files, profile_head, profile_name

    for path in profile_files(search_path("adapters", Path(user_dir) if user_dir else None)):
        if profile_name(profile_head(path), str(path)) == engine:
            return load_profile_file(path)
    return None


def profiles(user_adapters_dir: Path | None = None) -> dict[str, Profile]:
    """Profiles by engine name (a user profile replaces the bundled one of the same name)."""
    return dict(_profiles_cached(str(user_adapters_dir) if user_adapters_dir else None))


def clear_cache() -> None:
    _profiles_cached.cache_clear()
    _profile_cached.cache_clear()


def known_engines(user_adapters_dir: Path | None = None) -> set[str]:
    return set(profiles(user_adapters_dir)) | {ARCHIVE}


def find_profile(engine: str, user_adapters_dir: Path | None = None) -> Profile | None:
    """The profile of `engine` (the user's folder first), or None for an engine without one."""
    return _profile_cached(engine, str(user_adapters_dir) if user_adapters_dir else None)


def get_profile(engine: str, user_adapters_dir: Path | None = None) -> Profile:
    prof = find_profile(engine, user_adapters_dir)
    if prof is None:
        from forummod.forum_engines import known_engines as names

        known = sorted(names(user_adapters_dir) - {ARCHIVE})
        raise UnknownEngine(f"no profile for engine {engine!r} (known: {', '.join(known)})")
    return prof


def engines_for_url(url: str, user_adapters_dir: Path | None = None) -> list[str]:
    return sorted(name for name, p in profiles(user_adapters_dir).items() if p.match_thread(url))


def adapter_for_url(url: str, user_adapters_dir: Path | None = None) -> str:
    """The engine whose thread URL patterns match `url`; UnknownEngine when none or several do."""
    found = engines_for_url(url, user_adapters_dir)
    if len(found) == 1:
        return found[0]
    if not found:
        raise UnknownEngine(f"no engine recognises the URL {url!r}; set the site's engine in the config")
    raise UnknownEngine(f"the URL {url!r} could belong to {', '.join(found)}; set the site's engine in the config")


def make_adapter(site_name: str, site: SiteConfig, *, user_adapters_dir: Path | None = None,
                 http: HttpClient | None = None, cookie_store: CookieStore | None = None,
                 clock: Callable[[], Any] | None = None) -> ForumAdapter:
    """The adapter for one configured site."""
    if site.engine == ARCHIVE:
        from forummod.forum.archive import make_adapter as make_archive

        return make_archive(site_name, site, clock=clock)
    if site.engine == "auto":
        from forummod.forum.auto import AutoAdapter

        return AutoAdapter(site_name, site, profiles=profiles, adapter_from_profile=adapter_from_profile,
                           user_adapters_dir=user_adapters_dir, http=http, cookie_store=cookie_store, clock=clock)
    prof = get_profile(site.engine, user_adapters_dir)
    return adapter_from_profile(site_name, site, prof, http=http, cookie_store=cookie_store, clock=clock)


def adapter_from_profile(site_name: str, site: SiteConfig, prof: Profile, *, http: HttpClient | None = None,
                         cookie_store: CookieStore | None = None, clock: Callable[[], Any] | None = None) -> ForumAdapter:
    if prof.adapter == "discourse":
        from forummod.forum.discourse import DiscourseAdapter

        return DiscourseAdapter(site_name, site, prof, http=http, cookie_store=cookie_store, clock=clock)
    if prof.adapter != "html":
        raise UnknownEngine(f"profile {prof.name!r}: unknown adapter kind {prof.adapter!r} (html or discourse)")
    from forummod.forum.html_adapter import HtmlAdapter

    return HtmlAdapter(site_name, site, prof, http=http, cookie_store=cookie_store, clock=clock)
