"""The config's bounds and sanity checks (issue 34, item 7): plain values in, an error out.

Each check here refused nothing before and let a bad setting through to fail later, or
worse, run: a forum read with no pause, a poll interval the daemon raised behind the GM's
back, a password inside a URL kept in the store, a name with a newline, a store in /proc.
They take plain values (no config classes, so `forummod.config` imports this module and not
the other way round) and raise `SettingError` (one key of the table being built) or
`ConfigError` (a dotted path), always naming what to write instead.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from forummod.errors import ConfigError
from forummod.schema import Duration, SettingError

#: Bounds the config enforces (each key's doc says so, and config.example.toml with it).
MAX_RETRIES = 10  # the waits double up to a minute: 10 retries already wait ~5 minutes on one page
MIN_REQUEST_INTERVAL = 0.5  # seconds between two requests to a forum other people use
MIN_POLL_INTERVAL = Duration(30)  # the daemon polls a game at most this often
SYSTEM_DIRS = (Path("/proc"), Path("/sys"), Path("/dev"))  # the kernel's: never a place for the store

# a line break, tab or other control character: never part of a forum name or an HTTP header
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# --------------------------------------------------------------------------- one key


def no_credentials(key: str, url: str, account: str) -> None:
    """SettingError at `key` when `url` has `user:password@` before its host (with or without a
    scheme). Checked where the URL enters a config object, so no address with credentials is
    ever sent, logged or kept in the store's snapshots; the URL is never echoed."""
    if "@" in url.split("://", 1)[-1].split("/", 1)[0]:
        raise SettingError(key, "has a user name or password before '@': credentials never go in an address (it is "
                                f"sent with every request and kept in the store); put the account in {account} and "
                                "the name of the variable holding its password in password_env, and write the "
                                "address without them, e.g. https://forum.example.org/")


def one_line(key: str, value: str, what: str) -> None:
    """SettingError at `key` when `value` holds a line break or another control character."""
    m = _CONTROL.search(value)
    if m:
        raise SettingError(key, f"{value!r} contains the control character {m.group()!r}: {what}")


def retries_in_range(retries: int) -> None:
    if not 0 <= retries <= MAX_RETRIES:
        raise SettingError("retries", f"{retries} is out of range: give 0 to {MAX_RETRIES} (the default is 4; the "
                                      f"waits between retries double up to a minute, so {MAX_RETRIES} already wait "
                                      "about 5 minutes on one failing page)")


def poll_interval_long_enough(key: str, interval: Duration, base_url: str) -> None:
    """The daemon's minimum, said by the config instead of applied silently by the scheduler;
    a forum on this machine (the demo, a test's forum) may be polled as often as wanted."""
    if interval < MIN_POLL_INTERVAL and not is_loopback(urlsplit(base_url).hostname or ""):
        raise ConfigError(key, (
            f"{str(interval)!r} is shorter than the daemon's minimum of {str(MIN_POLL_INTERVAL)!r} (each poll reads "
            f"the forum): give at least \"{MIN_POLL_INTERVAL}\", e.g. \"10m\" (the default)"))


# --------------------------------------------------------------------------- workspace


def folders_exist(adapters_dir: Path | None, templates_dir: Path | None) -> None:
    """A folder of your own adapters or templates that is not there would silently leave the
    bundled ones in use: your changes would never show, with nothing said."""
    for key, folder, what in (("adapters_dir", adapters_dir, "adapter profiles (*.toml)"),
                              ("templates_dir", templates_dir, "templates")):
        if folder is None or folder.is_dir():
            continue
        state = "is a file, not a folder" if folder.exists() else "does not exist"
        raise ConfigError(f"workspace.{key}", f"{folder} {state}: create the folder with your {what}, "
                                              f"or leave {key} empty to use the bundled ones")


def store_path_usable(store: Path) -> None:
    """The store must be a regular file the GM can keep: a path into the kernel's folders
    (/proc, /sys, /dev), a device or a pipe fails deep inside SQLite, or worse, does not fail.
    Whether its folder is writable shows when it is created (a read-only store still reads)."""
    key = "workspace.store"
    try:
        real = store.resolve()  # a symlink into /proc is refused as well
    except (OSError, RuntimeError):
        real = store.absolute()
    for top in SYSTEM_DIRS:
        if real == top or top in real.parents:
            raise ConfigError(key, f"{store} is inside {top}, the kernel's folder, not a place for files: set store "
                                   "to a file in a folder you own, or leave it empty (the store goes beside the config)")
    if real.is_dir():
        raise ConfigError(key, f"{store} is a folder, not a file: name the store file, e.g. {store / 'forummod.sqlite'}")
    if real.exists() and not real.is_file():
        raise ConfigError(key, f"{store} is not a regular file (a device, a pipe or a socket): name a file in a "
                               "folder you own, or leave store empty (the store goes beside the config)")


# --------------------------------------------------------------------------- sites and threads


def base_url_usable(key: str, url: str, engine: str) -> None:
    """A forum address with a scheme and a host (credentials are refused by `no_credentials`)."""
    if not url:
        raise ConfigError(key, f"engine {engine!r} needs the forum's base_url, e.g. https://forum.example.org/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(key, f"{url!r} must start with http:// or https://, e.g. https://forum.example.org/")
    if _CONTROL.search(url) or any(ch.isspace() for ch in url):
        raise ConfigError(key, f"{url!r} contains a space or a line break: copy the address as the browser shows it")
    parts = urlsplit(url)
    try:
        host, _port = parts.hostname, parts.port
    except ValueError as e:  # a port that is not a number
        raise ConfigError(key, f"{url!r} is not a valid address ({e}), e.g. https://forum.example.org/") from None
    if not host:
        raise ConfigError(key, f"{url!r} has no host: write the forum's address, e.g. https://forum.example.org/")


def is_loopback(host: str) -> bool:
    """A host on this machine (the demo's or a test's forum): nobody else's server to spare."""
    import ipaddress

    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def pace_polite(key: str, base_url: str, request_interval: float) -> None:
    """A forum other people use gets at least MIN_REQUEST_INTERVAL between two requests; only a
    forum on this machine (the demo, the tests' servers) may be read as fast as it answers."""
    host = urlsplit(base_url).hostname or ""
    if request_interval >= MIN_REQUEST_INTERVAL or is_loopback(host):
        return
    raise ConfigError(key, (
        f"{request_interval:g} seconds between requests is too fast for {host}, a forum other people use: give at "
        f"least {MIN_REQUEST_INTERVAL:g} (the default is 2.0); only a forum on this machine (localhost, 127.0.0.1, "
        "::1) may be read faster"))


def thread_on_site(key: str, url: str, base_url: str, site_name: str) -> None:
    """An absolute thread address on the site's own forum: it is read with that site's account,
    cookies and pace. Case and a leading 'www.' do not make another forum; a port does."""
    thread, base = urlsplit(url), urlsplit(base_url)
    if (_forum_host(thread.hostname), _port(thread)) == (_forum_host(base.hostname), _port(base)):
        return
    raise ConfigError(key, (
        f"{url!r} is on {thread.netloc}, not on this game's forum {base.netloc} (sites.{site_name}.base_url): "
        f"a game's threads are read with that site's account and pace; give a thread of {base.netloc}, or add a "
        f"[sites.<name>] for the other forum and set site = \"<name>\""))


def _forum_host(host: str | None) -> str:
    host = (host or "").lower()
    return host[4:] if host.startswith("www.") else host


def _port(parts: SplitResult) -> int | None:
    """The explicit port of a split URL (None when the scheme's default applies, or not a number)."""
    try:
        return parts.port
    except ValueError:
        return None


# --------------------------------------------------------------------------- games


def enough_players(key: str, count: int, ruleset: str) -> None:
    from forummod.engine.registry import get_ruleset_class

    need = get_ruleset_class(ruleset).min_players
    if count < need:
        have = f"{count} player" + ("" if count == 1 else "s")
        raise ConfigError(key, f"{have}: a {ruleset} game needs at least {need}; list every seat, "
                               f"e.g. players = [{{ name = \"Ann\" }}, {{ name = \"Bob\" }}, ...]")


def schedule_consistent(p: str, ruleset: str, options: Any, written: dict[str, str]) -> None:
    """Deadlines that fit together, with the ruleset's defaults filling what the config leaves
    empty (`written`: the [schedule] keys as given, '' = not set). An end before its deadline
    (day_end "24h", vote_close "48h") was read as "24 h after the close": a silent guess at a
    72 h day. Clock times are not compared: a clock end earlier than the close means the next
    one, the engine's documented reading (`engine.schedule.PhasePlan.phase`)."""
    from forummod.engine.registry import get_ruleset_class
    from forummod.engine.schedule import merged_timing

    timing = merged_timing(get_ruleset_class(ruleset).default_timing(options), written)
    for key, value in written.items():
        offset = timing.spec(key).offset
        if value and offset is not None and offset.seconds == 0:
            raise ConfigError(f"{p}.{key}", f"{value!r} would end it the moment the phase starts: give an offset like "
                                            "\"48h\" or a clock time like \"22:00\"")

    def shown(key: str) -> str:
        return f"{key} = \"{getattr(timing, key)}\"" + ("" if written[key] else f" (the {ruleset} default)")

    for deadline, end, phase in (("vote_close", "day_end", "day"), ("action_deadline", "night_end", "night")):
        due, stop = timing.spec(deadline).offset, timing.spec(end).offset
        if due is None or stop is None or stop >= due:
            continue
        key = end if written[end] or not written[deadline] else deadline  # the one the GM wrote
        raise ConfigError(f"{p}.{key}", (f"{shown(end)} ends the {phase} before {shown(deadline)}: set {end} to "
                                         f"\"{due}\" or later, or {deadline} to \"{stop}\" or earlier"))
