"""`forummod init`: write a starter config to fill in (never overwrites one).

Everything it writes is checked first: the engine is a known one (the closest is suggested),
the ruleset exists, and a `--thread` address has the engine's shape. The game is named from
its thread id (offline), its store is the file beside the config, and the engine decides the
markup of drafts (Markdown for Discourse, FlaskBB, Spirit, Invision) and the login fields
(an API key for Discourse, a password elsewhere). `--example RULESET` fills in a whole example
game of that ruleset (players and roles as its rules write them); `forummod doctor` then says
what is left to fill in.
"""

from __future__ import annotations

import re
from datetime import datetime
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
timezone = "{timezone}"         # the timezone the forum shows times in
language = "{language}"         # language of the forum's date words
username = "YourGMAccount"
{auth}
[games.{game}]
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
forms = []                      # empty = the ruleset's: bold 'VOTE: X', [vote]X[/vote] (one-night: and PM votes, ON-V1); or list them, e.g. ["bold", "tag", "plain"]
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
    p.add_argument("--engine", default="phpbb", help="forum engine profile (default phpbb; see 'forummod doctor')")
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
    survey = thread_survey(args.engine, thread) if args.from_thread else None
    text = starter_text(engine=args.engine, ruleset=args.example or args.ruleset, thread=thread,
                        example=bool(args.example), store=_store_name(args.path),
                        posters=survey.posters if survey else None,
                        opened_at=survey.opened_at if survey else None)
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
    return ThreadSurvey(tuple(seen), opened)


def starter_text(*, engine: str, ruleset: str, thread: str | None = None, example: bool = False,
                 store: str = "forummod.sqlite", posters: list[str] | None = None,
                 opened_at: datetime | None = None) -> str:
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
                          base_url=base, timezone=tz, language=lang, auth=auth, game=gid, thread=thread,
                          ruleset=ruleset, rulesets=", ".join(ruleset_names()), markup=markup, players=players,
                          store=store, start=_start_text(opened_at, tz),
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
