"""`forummod init`: write a starter config to fill in (never overwrites one).

Everything it writes is checked first: the engine is a known one (the closest is suggested),
the ruleset exists, and a `--thread` address has the engine's shape. The game's id is made from
its thread id (offline; a key two folders never share) and its name in posts (`title`) from the
thread's title when `--from-thread` reads the page; its store is the file beside the config, and the engine decides the
markup of drafts (Markdown for Discourse, FlaskBB, Spirit, Invision) and the login fields
(an API key for Discourse, a password elsewhere). `--example RULESET` fills in a whole example
game of that ruleset (players and roles as its rules write them); `forummod doctor` then says
what is left to fill in.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any
from pathlib import Path

from forummod.errors import UsageError
from forummod.records import frozen

NAME = "init"
HELP = "write a starter config (forummod.toml) for an engine and a ruleset; --example writes a whole example game"

PLACEHOLDER_BASE = "https://forum.example.org/"
PLACEHOLDER_THREAD_ID = "12345"
# what `forummod doctor` reports when still in the file (value -> what belongs there)
PLACEHOLDERS = {
    "forum.example.org": "your forum's address",
    "YourGMAccount": "the GM's forum account name",
    "FirstPlayer": "a player's forum name",
    "SecondPlayer": "a player's forum name",
}

DEFAULTS = {"lupus-eresia": ("it", "Europe/Rome"), "witch-hunt": ("ru", "Europe/Moscow"),
            "one-night": ("nl", "Europe/Amsterdam"), "village": ("zh", "Asia/Shanghai"),
            "mafia-majority": ("en", "UTC")}

# engines whose posts are Markdown (or HTML that takes Markdown-like text), not BBCode
MARKDOWN_ENGINES = frozenset({"discourse", "flaskbb", "spirit", "invision"})

# example games: (player, role as the ruleset's rules write it); centre cards for one-night
EXAMPLES: dict[str, dict] = {
    "mafia-majority": {"players": [("FirstPlayer", "mafia"), ("SecondPlayer", "Mafia Goon"), ("Carol", "cop"),
                                   ("Dave", "doctor"), ("Erin", "town"), ("Frank", "vanilla townie"),
                                   ("Grace", "town")]},
    "lupus-eresia": {"players": [("FirstPlayer", "Lupo Mannaro"), ("SecondPlayer", "lupo mannaro"),
                                 ("Carla", "veggente"), ("Dario", "guardia_gemella"), ("Elena", "guardia_gemella"),
                                 ("Fabio", "contadino"), ("Giulia", "contadino"), ("Ivo", "contadino"),
                                 ("Luca", "contadino")]},
    "witch-hunt": {"players": [("FirstPlayer", "witch"), ("SecondPlayer", "witch"), ("Boris", "herbalist"),
                               ("Vera", "inquisitor"), ("Gleb", "gossip"), ("Dasha", "villager"),
                               ("Egor", "villager")]},
    "one-night": {"players": [("FirstPlayer", "weerwolf"), ("SecondPlayer", "ziener"), ("Daan", "dief"),
                              ("Eva", "onruststoker"), ("Finn", "slapeloze")],
                  "centre": ["werewolf", "tanner", "hunter"]},
    "village": {"players": [("FirstPlayer", "werewolf"), ("SecondPlayer", "werewolf"), ("Chen", "seer"),
                            ("Dong", "witch"), ("Fang", "hunter"), ("Gao", "villager"), ("Hui", "villager")]},
}

STARTER = """# forummod config — written by 'forummod init'. Every setting, its default and a comment
# are in config.example.toml (shipped with forummod, and printed by 'forummod init --print-reference');
# only the ones you need are here. 'forummod doctor' checks this file before the first poll.

[workspace]
# store = "{store}"   # default: {store} beside this file (one store per game folder)

[sites.myforum]
engine = "{engine}"             # {engines}
base_url = "{base_url}"
timezone = "{site_timezone}"         # the timezone the forum shows times in{site_zone_note}
language = "{language}"         # language of the forum's date words
username = "YourGMAccount"
{auth}
[games.{game}]                  # the id: "game-" and the thread's id (two folders' games never share one)
title = {title}{title_note}
site = "myforum"
thread = "{thread}"
graveyard = ""                  # the cemetery/graveyard thread, if any
ruleset = "{ruleset}"           # {rulesets}
markup = "{markup}"             # posts on {engine} are {markup}
timezone = "{timezone}"
gm = ["YourGMAccount"]
{players}
[games.{game}.schedule]
start = "{start}"   # {start_note}

[games.{game}.votes]
forms = []                      # empty = the ruleset's: bold 'VOTE: X', [vote]X[/vote] (one-night: and PM votes, ON-V1); or list them, e.g. ["bold", "tag", "plain"], or a community's preset: ["mafiascum"], ["mafiauniverse"], ["teamliquid"]
"""

STARTER_PLAYERS = '''roles_file = ""                 # keep secret roles in a separate file: Name = "role"

[[games.{game}.players]]
name = "FirstPlayer"
aliases = ["first"]

[[games.{game}.players]]
name = "SecondPlayer"
'''


def add_arguments(p) -> None:
    from forummod.engine.registry import RulesetNames
    from forummod.cli import add_global

    add_global(p)  # -v, -q, --config after the command name too

    p.add_argument("path", nargs="?", type=Path, default=None,
                   help="where to write (default: --config, else $FORUMMOD_CONFIG, else ./forummod.toml)")
    # the names are listed when the help is shown (RulesetNames): building the parser imports no ruleset
    p.add_argument("--ruleset", default="mafia-majority", choices=RulesetNames(), metavar="RULESET",
                   help="the game's rules: %(choices)s (default %(default)s)")
    p.add_argument("--engine", default=None,
                   help="forum engine profile (default: recognised from the --from-thread page, else from the "
                        "--thread address's shape, else phpbb; see 'forummod doctor')")
    p.add_argument("--thread", metavar="URL", help="the game thread's address: sets the forum's base_url and the game's id")
    p.add_argument("--from-thread", metavar="URL",
                   help="as --thread, and read the (public) thread once: its posters become the candidate players, "
                        "its first poster the GM")
    p.add_argument("--example", metavar="RULESET", choices=RulesetNames(),
                   help="write a whole example game of RULESET (players and roles) instead of a starter")
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("--print-reference", action="store_true",
                   help="print config.example.toml (every setting, its default and a comment) and exit")


def run(args) -> int:
    if args.print_reference:
        from forummod.resources import bundled_file

        print(bundled_file("config.example.toml").read_text(encoding="utf-8"), end="")
        return 0
    from forummod.commands._common import config_path

    args.path = args.path or config_path(args)
    if args.path.exists() and not args.force:
        raise UsageError(f"{args.path} exists; use --force to overwrite it")
    thread = args.from_thread or args.thread
    engine, how = choose_engine(args.engine, thread, read_page=bool(args.from_thread))
    if how:
        print(f"engine: {engine} ({how}; --engine NAME to choose another)")
    survey = thread_survey(engine, thread) if args.from_thread else None
    ruleset = args.example or args.ruleset
    site_zone = survey_zone(survey, ruleset) if survey else None
    if survey:
        print(f"timezone: {site_zone} (stated by the thread page: {survey.zone.label}, {survey.zone.how})" if site_zone
              else "timezone: the thread page states no zone: set sites.myforum.timezone to the zone your forum "
              "account shows times in ('forummod doctor' checks it)")
    text = starter_text(engine=engine, ruleset=ruleset, thread=thread,
                        example=bool(args.example), store=_store_name(args.path),
                        posters=survey.posters if survey else None,
                        opened_at=survey.opened_at if survey else None, site_zone=site_zone,
                        title=survey.title if survey else "")
    _check_loads(text, args.path)
    args.path.write_text(text, encoding="utf-8")
    todo = ("the forum, the account and the players" if not thread else
            "the account; keep only the players among the posters" if survey and survey.posters else "the account and the players")
    print(f"wrote {args.path}: fill in {todo}, then run 'forummod doctor' and 'forummod poll'")
    return 0


def _store_name(path: Path) -> str:
    from forummod.store_location import beside_config

    return beside_config(path).name


def known_engines() -> list[str]:
    from forummod.forum.registry import known_engines as engines

    return sorted(engines() | {"archive", "auto"})


def check_engine(engine: str) -> None:
    from forummod.schema import _did_you_mean

    engines = known_engines()
    if engine not in engines or engine in ("archive", "auto"):
        if engine in ("archive", "auto"):
            raise UsageError(f"'init' writes a config for a live forum; engine {engine!r} is set by hand "
                             "(README: 'Archive files' and 'Engine detection')")
        raise UsageError(f"unknown engine {engine!r}" + _did_you_mean(engine, engines)
                         + f" (known: {', '.join(e for e in engines if e not in ('archive', 'auto'))})")


def engines_for_address(url: str) -> list[str]:
    """The engines whose thread addresses look like `url` (offline, by their URL patterns)."""
    from forummod.forum.registry import profiles

    if "://" not in url:
        return []
    return sorted(name for name, prof in profiles().items() if prof.match_thread(url))


def choose_engine(given: str | None, url: str | None, *, read_page: bool) -> tuple[str, str]:
    """(engine, how it was chosen; "" when given). A GM pasting a thread address should not
    have to know the engine's profile name: `--from-thread` reads the page anyway, so its
    engine is recognised from the page (as engine "auto" does); `--thread` works offline,
    from the address's shape when exactly one engine's addresses look like it."""
    if given:
        return given, ""
    if not url:
        return "phpbb", ""
    by_address = engines_for_address(url)
    problem = ""
    if read_page:
        engine, problem = _engine_of_page(url)
        if engine and by_address and engine not in by_address:
            raise UsageError(f"the page at {url} looks like {engine}, but the address like a "
                             f"{' or '.join(by_address)} thread: pass --engine NAME")
        if engine:
            return engine, "recognised from the thread page"
    if len(by_address) == 1:
        return by_address[0], "from the address's shape" + (f"; {problem}" if problem else "")
    known = ", ".join(e for e in known_engines() if e not in ("archive", "auto"))
    if by_address:
        raise UsageError(f"{url!r} could be a thread of {', '.join(by_address)}: pass --engine NAME"
                         + (f" ({problem})" if problem else ""))
    raise UsageError(f"no engine's thread addresses look like {url!r}" + (f" and {problem}" if problem else "")
                     + f": pass --engine NAME (known: {known})")


def _engine_of_page(url: str) -> tuple[str | None, str]:
    """(engine recognised from the page at `url`, or None and what went wrong)."""
    from urllib.parse import urlsplit

    from forummod.config import SiteConfig
    from forummod.errors import ForummodError
    from forummod.forum.detect import detect_engine
    from forummod.forum.http import HttpClient
    from forummod.forum.registry import profiles

    parts = urlsplit(url)
    site = SiteConfig(engine="auto", base_url=f"{parts.scheme}://{parts.netloc}/", retries=0, timeout=15.0,
                      request_interval=1.0)
    try:
        page = HttpClient.from_site("init", site).get(url, check_login=False)
        return detect_engine(profiles(), page.text, where=url), ""
    except ForummodError as e:
        return None, f"the page was not recognised: {str(e)[:300]}"


def thread_parts(engine: str, url: str) -> tuple[str, str]:
    """(base_url, thread id) of a thread address, offline, by the engine's URL patterns."""
    from forummod.forum.registry import get_profile

    prof = get_profile(engine)
    m = prof.match_thread(url) if "://" in url else None
    if m is None:
        shape = prof.example_urls[0] if prof.example_urls else prof.thread_url
        raise UsageError(f"{url!r} is not a {engine} thread address; it looks like {shape}")
    base = url[:m.start()].rstrip("/") + "/"
    return base, m.group("thread")


def game_id(thread_id: str) -> str:
    """A TOML bare key naming the game after its thread (two folders' games never share an id)."""
    return "game-" + (re.sub(r"[^A-Za-z0-9_-]+", "-", thread_id).strip("-") or "1")


@frozen
class ThreadSurvey:
    """What `init --from-thread` reads of a thread: its posters in order of their first post (the
    first taken as the GM) and the time of its first post (the GM's opening post, the game's start)."""

    posters: tuple[str, ...]
    opened_at: datetime | None
    zone: Any = None  # forum.page_zone.PageZone: the zone the last page states, if it states one
    title: str = ""  # the thread's title as its page shows it (the game's name in posts)


def thread_posters(engine: str, url: str) -> list[str]:
    """The thread's posters in order of their first post: the GM's candidate player list."""
    return list(thread_survey(engine, url).posters)


def thread_survey(engine: str, url: str) -> ThreadSurvey:
    """The thread read once (public pages, no login, no retries): posters and opening time."""
    from forummod.config import SiteConfig
    from forummod.errors import ForummodError
    from forummod.forum.base import ThreadRef
    from forummod.forum.registry import make_adapter
    from forummod.store import Store, StoreCookieJar

    check_engine(engine)
    base, _ = thread_parts(engine, url)
    site = SiteConfig(engine=engine, base_url=base, retries=0, timeout=15.0, request_interval=1.0)
    scratch = Store(":memory:")
    try:
        adapter = make_adapter("init", site, cookie_store=StoreCookieJar(scratch))
        poll = adapter.poll_thread(ThreadRef(url, "game"), None)
        zone = _stated_zone(adapter, poll)
    except ForummodError as e:
        raise UsageError(f"could not read {url}: {e}") from None
    finally:
        scratch.close()
    seen: dict[str, None] = {}
    ordered = sorted(poll.posts, key=lambda p: (p.number is None, p.number or 0, p.created_at))
    for p in ordered:
        seen.setdefault(p.author, None)
    if not seen:
        raise UsageError(f"{url} shows no posts")
    first = ordered[0]
    opened = None if getattr(first, "date_guessed", False) else first.created_at
    return ThreadSurvey(tuple(seen), opened, zone, _page_title(adapter, poll))


def _stated_zone(adapter: Any, poll: Any) -> Any:
    """The zone the thread's last page states (in words, `<time>` elements or its clock against
    the server's), for `sites.x.timezone` (issue 28); None when it states none or the engine
    gives times in UTC (JSON engines)."""
    from forummod.forum.page_zone import page_zone

    if not poll.pages or not hasattr(adapter, "profile") or not hasattr(adapter, "parse_page"):
        return None
    return page_zone(adapter.profile, poll.pages[-1][1], http_date=getattr(adapter, "_http_date", None),
                     now=adapter.now())


def survey_zone(survey: ThreadSurvey, ruleset: str) -> str | None:
    """The `sites.x.timezone` to write: the zone the page states, named (the ruleset's zone when
    its offset agrees now, since an IANA name knows summer time); None when the page states none."""
    from forummod.forum.page_zone import zone_name

    if survey.zone is None:
        return None
    _lang, tz = DEFAULTS.get(ruleset, ("en", "UTC"))
    return zone_name(survey.zone, tz, datetime.now(timezone.utc))


def _page_title(adapter, poll) -> str:
    """The thread's title from its first fetched page ("" when the engine's page gives none)."""
    parse = getattr(adapter, "parse_page", None)
    for url, body in poll.pages[:1]:
        try:
            return " ".join(str(parse(body, url).title or "").split()) if parse else ""
        except Exception:  # a title is a convenience: never fail init for it
            return ""
    return ""


def starter_text(*, engine: str, ruleset: str, thread: str | None = None, example: bool = False,
                 store: str = "forummod.sqlite", posters: list[str] | None = None,
                 opened_at: datetime | None = None, site_zone: str | None = None, title: str = "") -> str:
    from forummod.engine.registry import ruleset_names
    from forummod.forum.registry import get_profile

    check_engine(engine)
    if ruleset not in ruleset_names():
        raise UsageError(f"unknown ruleset {ruleset!r} (known: {', '.join(ruleset_names())})")
    if thread:
        base, tid = thread_parts(engine, thread)
    else:
        base, tid = PLACEHOLDER_BASE, PLACEHOLDER_THREAD_ID
        thread = get_profile(engine).thread_url.format(base=base, thread=tid) or f"{base}?t={tid}"
    gid = game_id(tid)
    lang, tz = DEFAULTS.get(ruleset, ("en", "UTC"))
    markup = "markdown" if engine in MARKDOWN_ENGINES else "bbcode"
    if engine == "discourse":
        auth = ('api_key_env = "FORUMMOD_MYFORUM_API_KEY"     # the NAME of an environment variable holding a user API key\n'
                '# password_env = "FORUMMOD_MYFORUM_PASSWORD"  # or a password, when the forum gives no API key\n')
    else:
        auth = 'password_env = "FORUMMOD_MYFORUM_PASSWORD"   # the NAME of an environment variable, not the password\n'
    gm = "YourGMAccount"
    if posters and len(posters) > 1:
        gm, players = posters[0], _poster_players(posters[1:], gid)
    elif posters:
        gm, players = posters[0], STARTER_PLAYERS.format(game=gid)
    else:
        players = _example_players(ruleset, gid) if example else STARTER_PLAYERS.format(game=gid)
    return STARTER.format(engine=engine, engines=", ".join(e for e in known_engines() if e not in ("archive", "auto")),
                          base_url=base, timezone=tz, site_timezone=site_zone or tz,
                          site_zone_note=" (read from the thread page)" if site_zone else "",
                          language=lang, auth=auth, game=gid, thread=thread,
                          ruleset=ruleset, rulesets=", ".join(ruleset_names()), markup=markup, players=players,
                          store=store, start=_start_text(opened_at, tz), title=_toml_str(title),
                          title_note=("   # the game's name in its posts: the thread's title" if title else
                                      "   # the game's name in its posts (empty: the id above)"),
                          start_note="the GM's opening post, read from the thread" if opened_at
                          else "the GM's opening post").replace('gm = ["YourGMAccount"]', f"gm = [{_toml_str(gm)}]")


def _start_text(opened_at: datetime | None, tz: str) -> str:
    """The schedule's start: the thread's first post in the game's zone, else the example time."""
    if opened_at is None:
        return "2026-12-01T21:00:00+01:00"
    from zoneinfo import ZoneInfo

    return opened_at.astimezone(ZoneInfo(tz)).replace(microsecond=0).isoformat()


def _toml_str(s: str) -> str:
    import json

    return json.dumps(s, ensure_ascii=False)  # a TOML basic string is a JSON string


def _poster_players(names: list[str], gid: str) -> str:
    lines = ['roles_file = ""                 # keep secret roles in a separate file: Name = "role"',
             "# the thread's posters after the first (taken as the GM): remove who does not play", ""]
    for name in names:
        lines += [f"[[games.{gid}.players]]", f"name = {_toml_str(name)}", ""]
    return "\n".join(lines)


def _example_players(ruleset: str, gid: str) -> str:
    ex = EXAMPLES[ruleset]
    lines = ["# an example table: roles as the rules write them (role ids: README, 'Role ids')"]
    if ex.get("centre"):
        lines += [f"[games.{gid}.setup]", "centre = [" + ", ".join(f'"{c}"' for c in ex["centre"]) + "]", ""]
    for name, role in ex["players"]:
        lines += [f"[[games.{gid}.players]]", f'name = "{name}"', f'role = "{role}"', ""]
    return "\n".join(lines)


def _check_loads(text: str, path: Path) -> None:
    """What init writes must load (placeholders aside): a broken starter is init's bug, not the GM's."""
    from forummod.config import parse_config

    parse_config(text)  # raises ConfigError naming the key
