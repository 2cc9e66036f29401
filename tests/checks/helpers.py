"""Hand-built inputs for check tests: a game config, posts, a `GameRun` and a `CheckContext`.

Nothing here runs extraction or an unfinished ruleset: states, phases, rejections and tallies
are written out, so each test shows exactly the situation it judges.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Mapping

from forummod.checks import CheckContext, GmPm
from forummod.config import ChecksConfig, GameConfig, PlayerConfig, ReplacementConfig, ScheduleConfig
from forummod.engine.registry import make_ruleset
from forummod.engine.types import Death, GameRun, GameState, Phase, PhaseId, Player, Rejection, Tally
from forummod.model import Post, PostVersion, Source

UTC = timezone.utc
T0 = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)  # a Monday, 20:00


def h(n: float, base: datetime = T0) -> datetime:
    return base + timedelta(hours=n)


def game_cfg(players: Iterable[str], *, ruleset: str = "mafia-majority", tz: str = "UTC",
             replaces: Mapping[str, list[tuple[str, datetime]]] | None = None, gm: tuple[str, ...] = ("GM",),
             schedule: ScheduleConfig | None = None, **checks: Any) -> GameConfig:
    replaces = replaces or {}
    pcs = tuple(PlayerConfig(name=n, replaces=tuple(ReplacementConfig(name=o, at=t) for o, t in replaces.get(n, ())))
                for n in players)
    return GameConfig(site="forum", thread="1", ruleset=ruleset, timezone=tz, gm=gm, players=pcs,
                      checks=ChecksConfig(**checks), schedule=schedule or ScheduleConfig())


_seq = [1000]


def post(author: str, at: datetime, *, pid: str | None = None, number: int | None = None, html: str = "text",
         thread: str = "1", versions: tuple[str, ...] = (), deleted_at: datetime | None = None) -> Post:
    _seq[0] += 1
    pid = pid or str(_seq[0])
    bodies = versions or (html,)
    vs = tuple(PostVersion(i + 1, b, f"h{i}", at) for i, b in enumerate(bodies))
    return Post(site="forum", thread=thread, post_id=pid, author=author, created_at=at, versions=vs,
                number=number if number is not None else int(pid) if pid.isdigit() else None,
                url=f"https://forum.example.org/p/{pid}", deleted_at=deleted_at)


def day(n: int, start: datetime, hours: float | None = 72, vote_close: datetime | None = None) -> Phase:
    end = start + timedelta(hours=hours) if hours is not None else None
    return Phase(PhaseId(n, "day"), start, end, vote_close=vote_close or end)


def night(n: int, start: datetime, hours: float | None = 24, deadline: datetime | None = None) -> Phase:
    end = start + timedelta(hours=hours) if hours is not None else None
    return Phase(PhaseId(n, "night"), start, end, action_deadline=deadline or end)


def players(names: Iterable[str], roles: Mapping[str, str] | None = None,
            dead: Mapping[str, Death] | None = None) -> tuple[Player, ...]:
    roles, dead = roles or {}, dead or {}
    return tuple(Player(n, roles.get(n, "town"), i + 1, alive=n not in dead, death=dead.get(n))
                 for i, n in enumerate(names))


def ctx(names: Iterable[str], *, phases: tuple[Phase, ...], now: datetime, game_posts: Iterable[Post] = (),
        graveyard: Iterable[Post] = (), ruleset: str = "mafia-majority", rs: Any = None,
        roles: Mapping[str, str] | None = None, dead: Mapping[str, Death] | None = None,
        current: Phase | None = None, rejections: tuple[Rejection, ...] = (), tallies: tuple[Tally, ...] = (),
        intents: tuple[Any, ...] = (), issues: tuple[Any, ...] = (), gm_pms: Mapping[str, tuple[GmPm, ...]] = {},
        game: GameConfig | None = None, closed: frozenset[str] = frozenset(), outcome: Any = None,
        actions: tuple[Any, ...] = (), run: GameRun | None = None, **cfg: Any) -> CheckContext:
    names = list(names)
    game = game or game_cfg(names, ruleset=ruleset, **cfg)
    started = [p for p in phases if p.start <= now]
    st = GameState(ruleset=ruleset, players=players(names, roles, dead),
                   phase=current if current is not None else (started[-1] if started else None),
                   closed=closed, outcome=outcome, actions=actions)
    run = run or GameRun(state=st, phases=phases, tallies=tallies, rejections=rejections, log=())
    return CheckContext(game=game, ruleset=rs or make_ruleset("mafia-majority", {}), run=run, roster=game.roster(),
                        now=now, posts={"game": tuple(game_posts), "graveyard": tuple(graveyard)},
                        gm_pms=gm_pms, intents=intents, issues=issues, game_id="g1")


def codes(findings) -> list[tuple[str, str | None]]:
    return [(f.code, f.player) for f in findings]


def src(pid: str, kind: str = "post") -> Source:
    return Source(kind, id=pid, number=int(pid) if pid.isdigit() else None,  # type: ignore[arg-type]
                  thread="game" if kind == "post" else None, url=f"https://forum.example.org/p/{pid}")
