"""`forummod doctor`: what would stop the first poll, found before it.

Checks, in order: the config loads; no placeholder of the starter config is left; each forum's
host answers (one try, a short timeout, one line: no retries, no traceback); each secret the
config names is set (by its variable name, with the command to set it); the thread address
has the engine's shape; the login works; the zone the forum shows its times in agrees with
`sites.x.timezone` (stated on the page, or inferred from a post of the last hour against the
server's clock; else "cannot tell"); each alert channel can deliver (an Apprise URL set and
known to Apprise, a forum PM channel on a forum whose profile sends PMs, with a recipient;
nothing is sent); the store is sound (SQLite's quick check) and belongs to this config's games. Exit 0 when
all is well, 1 when something needs fixing, 2 when the config does not load.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from forummod.cli import add_common
from forummod.commands._common import config_path, print_json
from forummod.records import frozen

NAME = "doctor"
HELP = "check a config before the first poll: placeholders, unreachable forums, unset secrets, failing login"

PROBE_TIMEOUT = 10.0  # seconds for the one reachability try

# hosts that can never be a real forum (RFC 2606 / 6761 names)
_RESERVED_HOST = re.compile(r"(?:^|\.)(?:example\.(?:org|com|net)|example|invalid|test|localhost\.invalid)$")


@frozen
class Finding:
    check: str  # placeholder, host, secret, thread, login, zone, alerts, store
    ok: bool
    message: str
    where: str = ""  # key path or file:line


def add_arguments(p) -> None:
    add_common(p)
    p.add_argument("--offline", action="store_true", help="skip the checks that contact the forum (host, login)")


def run(args) -> int:
    from forummod.config import load_config

    path = config_path(args)
    cfg = load_config(path)  # a ConfigError exits 2 with the key path, as every command does
    found = placeholders(path)
    for name, site in cfg.sites.items():
        if site.engine == "archive":
            continue
        reach = None if args.offline else probe(name, site.base_url)
        if reach is not None:
            found.append(reach)
        secret = secret_finding(name, site)
        if secret is not None:
            found.append(secret)
        if not args.offline and (reach is None or reach.ok) and (secret is None or secret.ok) and site.username:
            found.append(login_finding(cfg, name, site))
    found.extend(thread_findings(cfg))
    if not args.offline:
        reachable = {f.where for f in found if f.check in ("host", "login") and not f.ok}
        found.extend(zone_findings(cfg, skip_sites={w.split(".")[1] for w in reachable if w.startswith("sites.")}))
    found.extend(alert_findings(cfg))
    found.append(store_finding(cfg, adopt=getattr(args, "adopt", False)))
    problems = [f for f in found if not f.ok]
    if args.json:
        print_json("doctor", {"config": path, "ok": not problems,
                              "checks": [{"check": f.check, "ok": f.ok, "message": f.message, "where": f.where or None}
                                         for f in found]})
    else:
        for f in found:
            mark = "ok " if f.ok else "!! "
            print(f"{mark}{f.check:<11} {f.message}" + (f"  [{f.where}]" if f.where and not f.ok else ""))
        print("ready for 'forummod poll'" if not problems else
              f"{len(problems)} problem{'s' if len(problems) != 1 else ''} to fix before the first poll")
    return 1 if problems else 0


def placeholders(path: Path) -> list[Finding]:
    """Values of the starter config (or example hosts) still in the file."""
    from forummod.commands.init import PLACEHOLDERS

    lines: dict[str, list[int]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = "" if line.lstrip().startswith("#") else line.split("#", 1)[0]
        for token in PLACEHOLDERS:
            if token in text:
                lines.setdefault(token, []).append(n)
    out = [Finding("placeholder", False, f"{token!r} is a placeholder: put {PLACEHOLDERS[token]} there",
                   f"{path.name} line{'s' if len(ns) > 1 else ''} {', '.join(map(str, ns))}")
           for token, ns in lines.items()]
    return out or [Finding("placeholder", True, "no placeholder left")]


def probe(site_name: str, url: str) -> Finding:
    """One GET of the forum's address: a clear line for DNS, connection, TLS or HTTP failures."""
    from urllib.parse import urlsplit

    import requests

    from forummod import __version__

    host = urlsplit(url).hostname or ""
    where = f"sites.{site_name}.base_url"
    if _RESERVED_HOST.search(host):
        return Finding("host", False, f"{host} is an example address, not a forum: set the forum's base_url", where)
    import socket

    parts = urlsplit(url)
    try:
        socket.getaddrinfo(host, parts.port or (443 if parts.scheme == "https" else 80))
    except socket.gaierror:
        return Finding("host", False, f"{host}: no such host (DNS lookup failed)", where)
    try:
        r = requests.get(url, timeout=PROBE_TIMEOUT, allow_redirects=True,
                         headers={"User-Agent": f"forummod/{__version__} (doctor)"})
    except requests.exceptions.SSLError:
        return Finding("host", False, f"{host}: the TLS certificate was refused", where)
    except requests.exceptions.ConnectionError:
        return Finding("host", False, f"{host}: cannot connect (refused or unreachable)", where)
    except requests.exceptions.Timeout:
        return Finding("host", False, f"{host}: no answer within {PROBE_TIMEOUT:g} s", where)
    except requests.exceptions.RequestException as e:
        return Finding("host", False, f"{host}: {type(e).__name__}", where)
    if r.status_code >= 500:
        return Finding("host", False, f"{url} answered HTTP {r.status_code} (the forum is down?)", where)
    moved = f" (redirected to {r.url})" if r.url.rstrip("/") != url.rstrip("/") else ""
    return Finding("host", True, f"{host} answers (HTTP {r.status_code}){moved}")


def alert_findings(cfg) -> list[Finding]:
    """Whether each alert channel could deliver, checked without sending anything (issue 28,
    item 10): a failing channel otherwise shows only when the first alert is due."""
    out = []
    for name, ch in cfg.alerts.channels.items():
        where = f"alerts.channels.{name}"
        games = [g for g in (ch.games or tuple(cfg.games)) if g in cfg.games]
        if ch.kind == "apprise":
            out.append(_apprise_finding(ch.url_env, where))
        else:
            out.extend(_forum_pm_findings(cfg, games, where))
    return out


def _apprise_finding(url_env: str, where: str) -> Finding:
    import os

    from forummod.logsafe import register_secret

    url = os.environ.get(url_env, "").strip()
    if not url:
        return Finding("alerts", False, f"{url_env} is not set: it must hold the channel's Apprise URL "
                                        f"(export {url_env}='discord://...')", where)
    register_secret(url)  # it carries the service's token
    try:
        import apprise
    except ImportError:
        return Finding("alerts", False, "Apprise is not installed (pip install apprise)", where)
    if not apprise.Apprise().add(url):
        return Finding("alerts", False, f"{url_env} does not hold a URL Apprise knows (see its list of services)", where)
    return Finding("alerts", True, f"{where.rsplit('.', 1)[-1]}: {url_env} holds an Apprise URL (nothing sent)")


def _forum_pm_findings(cfg, games: list[str], where: str) -> list[Finding]:
    from forummod.forum.registry import find_profile

    out = []
    for site_name in sorted({cfg.games[g].site for g in games}):
        site = cfg.sites[site_name]
        prof = find_profile(site.engine, cfg.workspace.adapters_dir)
        gm = next((n for g in games if cfg.games[g].site == site_name for n in cfg.games[g].gm), "")
        to = cfg.alerts.pm_to or site.username or gm  # as alerts.send does
        if site.engine != "archive" and (prof is None or not prof.pm.enabled):
            out.append(Finding("alerts", False, f"{site.engine} cannot send private messages (its profile has no "
                                                f"[pm] form): use an Apprise channel", where))
        elif not to:
            out.append(Finding("alerts", False, "no recipient for the alert PMs: set alerts.pm_to or "
                                                f"sites.{site_name}.username", where))
        else:
            out.append(Finding("alerts", True, f"{where.rsplit('.', 1)[-1]}: PMs on {site_name} to {to}"
                                               + (" (a forum may refuse a PM to oneself: alerts.pm_to names "
                                                  "another account)" if not cfg.alerts.pm_to else "")))
    return out


def secret_finding(site_name: str, site) -> Finding | None:
    from forummod.errors import ConfigError
    from forummod.service import check_secret

    if not (site.password_env or site.api_key_env or site.use_keyring):
        return None
    try:
        check_secret(site_name, site)
    except ConfigError as e:
        return Finding("secret", False, e.message, e.path)
    env = site.api_key_env or site.password_env
    return Finding("secret", True, f"{env or 'the keyring'} is set")


def login_finding(cfg, site_name: str, site) -> Finding:
    """Log in once, without retries, with a throw-away cookie jar."""
    from forummod.errors import ForummodError
    from forummod.logsafe import redact
    from forummod.service import make_site_adapter, utcnow
    from forummod.store import Store

    scratch = Store(":memory:")
    try:
        adapter = make_site_adapter(site_name, replace(site, retries=0, timeout=min(site.timeout, PROBE_TIMEOUT)),
                                    cfg, scratch, utcnow)
        adapter.login()
    except ForummodError as e:
        return Finding("login", False, f"{site.username} cannot log in: {redact(str(e))}", f"sites.{site_name}")
    except Exception as e:  # a network error that is no ForumError: one line, not a traceback
        return Finding("login", False, f"{site.username} cannot log in: {type(e).__name__}: {redact(str(e))}",
                       f"sites.{site_name}")
    finally:
        scratch.close()
    return Finding("login", True, f"{site.username} logs in")


def thread_findings(cfg) -> list[Finding]:
    """Each game's thread (and graveyard) address has the engine's shape: read offline."""
    from forummod.errors import ForummodError
    from forummod.service import Workspace, make_site_adapter, thread_refs, utcnow
    from forummod.store import Store

    out = []
    scratch = Store(":memory:")  # adapters want a cookie jar; this check must not create the store
    ws = Workspace(cfg, adapter_factory=lambda n, s: make_site_adapter(n, s, cfg, scratch, utcnow))
    for gid, game in cfg.games.items():
        if cfg.sites[game.site].engine in ("archive", "auto"):
            continue
        for ref in thread_refs(game):
            try:
                tid = ws.adapter(game.site).thread_id(ref)
            except ForummodError as e:
                out.append(Finding("thread", False, str(e), f"games.{gid}.{'thread' if ref.role == 'game' else 'graveyard'}"))
                continue
            out.append(Finding("thread", True, f"{gid} {ref.role} thread: id {tid}"))
    scratch.close()
    return out


def zone_findings(cfg, *, skip_sites: set[str] = frozenset()) -> list[Finding]:
    """Each game thread's last page, read as `poll` reads it: does the forum's zone agree with
    `sites.x.timezone`? (issue 16: a wrong zone must never pass silently.) The zone the page
    states wins; else the newest post, when less than an hour old, against the HTTP Date of the
    fetch; else "cannot tell", with the key to set. Two or three requests per game."""
    from forummod.errors import ForummodError
    from forummod.logsafe import redact
    from forummod.service import make_site_adapter, utcnow
    from forummod.store import Store

    out = []
    scratch = Store(":memory:")
    try:
        for gid, game in cfg.games.items():
            site = cfg.sites[game.site]
            if site.engine in ("archive", "auto") or game.site in skip_sites:
                continue
            where = f"sites.{game.site}.timezone"
            try:
                adapter = make_site_adapter(game.site, replace(site, retries=0, timeout=min(site.timeout, PROBE_TIMEOUT)),
                                            cfg, scratch, utcnow)
                if not hasattr(adapter, "parse_page"):  # JSON engines (Discourse) give times in UTC
                    continue
                out.append(_zone_of_thread(adapter, gid, game, site, where))
            except ForummodError as e:
                out.append(Finding("zone", False, f"{gid}: cannot read the thread to check the zone: {redact(str(e))}",
                                   where))
            except Exception as e:  # a network error that is no ForumError: one line, not a traceback
                out.append(Finding("zone", False, f"{gid}: cannot read the thread to check the zone: "
                                   f"{type(e).__name__}: {redact(str(e))}", where))
    finally:
        scratch.close()
    return out


def _zone_of_thread(adapter, gid: str, game, site, where: str) -> Finding:
    from datetime import timezone

    from forummod.forum.base import ThreadRef
    from forummod.forum.html_engine import first_page_url, parse_html, read_pagination
    from forummod.forum.html_write import page_url
    from forummod.forum.page_locale import check_zone, same_offset
    from forummod.forum.page_zone import page_zone, zone_name

    first = first_page_url(adapter.profile, adapter.thread_url(ThreadRef(game.thread, "game")))
    f = adapter._get_remembering_date(first)
    info = read_pagination(adapter.profile, parse_html(f.text), f.url)
    if info.last and info.last > (info.current or 1):
        last = info.links.get(info.last) or page_url(adapter.profile, first, info.last, info.per_page)
        if last:
            f = adapter._get_remembering_date(last)
    key = f"set {where} to the zone your forum account shows times in"
    now = adapter.now()
    http_date = getattr(adapter, "_http_date", None)
    # the page's own word first: a zone in words, <time> elements, or its clock against the
    # server's (issue 28: a post a minute old under a wrong zone looks an hour old)
    found = page_zone(adapter.profile, f.text, http_date=http_date, now=now)
    if found is not None:
        said = found.label + ("" if found.how == "stated" else f" ({found.how})")
        if same_offset(found.zone, site.tz, now):
            return Finding("zone", True, f"{gid}: the forum states its times are {said}, as {where} = {site.timezone!r}")
        name = zone_name(found, "", now)
        hint = f" (e.g. {where} = \"{name}\")" if name else ""
        return Finding("zone", False, f"{gid}: the forum states its times are {said}, but {where} is "
                       f"{site.timezone!r}: {key}{hint}", where)
    page = adapter.parse_page(f.text, f.url)
    dated = [p for p in page.posts if not p.date_guessed]
    if not dated or http_date is None:
        return Finding("zone", True, f"{gid}: cannot tell the forum's zone (the page states none and gives no "
                       f"dated post or server clock); make sure {where} = {site.timezone!r} is the zone your "
                       "forum account shows")
    newest = max(p.created_at for p in dated)
    shown = newest.astimezone(adapter.tz).replace(tzinfo=timezone.utc)  # the wall time the page printed
    check = check_zone(shown, http_date, adapter.tz, site.timezone)
    if check.verdict == "consistent":
        return Finding("zone", True, f"{gid}: the newest post ({shown:%H:%M}) agrees with {where} = "
                       f"{site.timezone!r} and the server's clock ({http_date:%H:%M} UTC)")
    if check.verdict == "wrong":
        return Finding("zone", False, f"{gid}: {check.message}", where)
    return Finding("zone", True, f"{gid}: cannot tell the forum's zone (the page states none and its newest post "
                   f"is more than an hour old); make sure {where} = {site.timezone!r} is the zone your forum "
                   "account shows")


def store_finding(cfg, *, adopt: bool) -> Finding:
    from forummod.errors import ForummodError
    from forummod.service import Workspace

    path = cfg.workspace.store_path()
    if not path.exists():
        return Finding("store", True, f"{path} (created by the first poll)")
    ws = Workspace(cfg, adopt=adopt, notify=lambda _m: None, store_check="always")
    try:
        ws.store  # opens it (SQLite's quick check included) and checks that its games are this config's
    except ForummodError as e:
        return Finding("store", False, str(e).split(": ", 1)[-1], "workspace.store")
    finally:
        ws.close()
    if cfg.store_note:
        return Finding("store", False, cfg.store_note, "workspace.store")
    return Finding("store", True, str(path))

