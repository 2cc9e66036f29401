"""Peers: other vote counters run on the same days as forummod, outside its process.

Two ways, both optional:

* `--peer`: donbot-python (GPL-3.0) is probed in its own venv (never imported into forummod's
  process nor copied): the probe finds the package's vote counter by looking for it (any public
  callable whose name mentions votes, in any of its modules). Releases 0.2.0 and 0.2.1 have
  none, so the probe says so and there is no figure.
* `--peer-cmd "CMD ..."`: any vote counter behind a command that speaks the **forummod-peer/1**
  protocol below. Nothing of the peer lives in this repository: the command, its build and its
  adapter are the operator's (benchmarks/README.md, "Peers").

The protocol: the harness runs CMD (split like a shell command line, no shell) once per game,
writes one JSON object on its stdin and reads the answer, one JSON object, from the last non-empty
line of its stdout (earlier lines are ignored: a peer's own logging). A non-zero exit status is a
failed game, reported with the end of its stderr.

Request::

    {"protocol": "forummod-peer/1",
     "game": {"thread": "15787", "title": "Game 1091: Mafia Mania", "site": "mafiascum"},
     "moderators": ["Nobody Special"],            # accounts that run the game
     "players": [{"seat": "Antihero",             # the harness's seat key (echo not required)
                  "name": "Antihero",             # the name to report the seat by (its last holder)
                  "user_id": "1234",
                  "aliases": ["old name"],        # names the GM's config gives (renamed accounts)
                  "replaces": [{"name": "caelum", "user_id": "99", "at_post": 120}],  # oldest first
                  "died_at": 484,                 # the post of its death (lynch: the day's end), or null
                  "votes": 1}],                   # vote weight (2: a double voter)
     "days": [{"day": 1,
               "start_post": 3,                   # the moderator's post that opened the day
               "end_post": 484,                   # the post that ended it (null: unknown)
               "counts_after": [120, 300],        # standings wanted after these posts (posts <= N)
               "outcome_after": 483}],            # the post after which the day's outcome is read (or null)
     "posts": [{"number": 0, "user": "...", "user_id": "...", "html": "...", "time": "Tue Dec 07, 2010 9:28 am"}]}

`posts` is the whole thread in order, numbered from 0 as the forum numbers them; `html` is the
post body as the forum served it, `time` the board's display time (no zone).

Answer::

    {"protocol": "forummod-peer/1",
     "peer": {"name": "owner/repo", "commit": "...", "licence": "..."},
     "days": [{"day": 1,
               "counts": [{"after": 120, "votes": {"Antihero": "Beefster", "Dekes": null},
                           "no_lynch": ["Mariyta"]}],   # voters on no lynch (optional)
               "lynch": "Beefster",               # the player the peer has lynched (majority), or null
               "no_lynch": false,                 # true: the peer decided no lynch
               "hammer_post": 480}],              # where that was decided, or null
     "notes": ["..."]}

`votes` maps a voter to its target (null: not voting), `no_lynch` lists the voters on no lynch;
names are any name of the request's players (the harness maps them back to seats,
case-insensitively; a name it cannot map counts as a wrong entry). A count the peer cannot give
is `"votes": null` (with an optional `"why"`). Extra keys are kept in the report's JSON.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

_PROBE = r"""
import importlib, inspect, json, pkgutil, sys
out = {"python": sys.executable}
try:
    import donbot
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
    print(json.dumps(out)); sys.exit(0)
from importlib.metadata import version
out["version"] = version("donbot-python")
mods = {"donbot": donbot}
for m in pkgutil.walk_packages(donbot.__path__, "donbot."):
    try:
        mods[m.name] = importlib.import_module(m.name)
    except Exception as exc:
        out.setdefault("import_errors", {})[m.name] = str(exc)
out["modules"] = sorted(mods)
names = sorted({f"{n}.{a}" for n, m in mods.items() for a, v in vars(m).items()
                if not a.startswith("_") and callable(v) and getattr(v, "__module__", "").startswith("donbot")})
out["callables"] = names
for n, m in mods.items():
    for a, v in vars(m).items():
        if inspect.isclass(v) and v.__module__.startswith("donbot"):
            out["callables"] += [f"{n}.{a}.{x}" for x in vars(v) if not x.startswith("_")]
out["vote_counters"] = [c for c in out["callables"] if "vote" in c.lower()]
print(json.dumps(out))
"""


def probe(python: str) -> dict[str, Any]:
    """What the peer venv holds: donbot-python's version, modules, callables, vote counters."""
    if not Path(python).exists():
        return {"error": f"no Python at {python}"}
    try:
        res = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, timeout=120,
                             env={"PATH": "/usr/bin:/bin", "no_proxy": "*"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    if res.returncode != 0 or not res.stdout.strip():
        return {"error": res.stderr.strip()[-500:] or f"exit {res.returncode}"}
    return json.loads(res.stdout.strip().splitlines()[-1])


def run_peer(corpus: Any, games: Sequence[Any], python: str) -> dict[str, Any]:
    """The peer's per-day figures next to forummod's, or why there are none."""
    found = probe(python)
    if "error" in found:
        return {"available": False, **found,
                "summary": f"The peer is missing: donbot-python could not be imported with {python} "
                           f"({found['error']}). Install it in a separate venv: "
                           f"`python -m venv /tmp/peer-venv && /tmp/peer-venv/bin/pip install donbot-python requests` (0.2.1 imports requests without declaring it)."}
    if not found.get("vote_counters"):
        return {"available": True, "vote_counter": None, **found,
                "summary": f"donbot-python {found.get('version')} is installed ({python}) but ships no vote counter: "
                           f"its modules ({', '.join(found.get('modules', []))}) hold only the site client "
                           f"(login, thread scraping, posting, editing: {len(found.get('callables', []))} public "
                           f"callables, none about votes). The vote counter donbot's archive notes refer to "
                           f"(\"votecounter interpreted ...\") is in the donbot repository, which is held out here. "
                           f"No peer figure."}
    # A release with a vote counter: its call convention is unknown until one exists; report it.
    return {"available": True, "vote_counter": found["vote_counters"], **found,
            "summary": f"donbot-python {found.get('version')} has callables about votes "
                       f"({', '.join(found['vote_counters'])}); the harness has no adapter for them yet."}


# --------------------------------------------------------------------------- a peer command

PROTOCOL = "forummod-peer/1"


@dataclass(frozen=True)
class PeerDay:
    day: int
    expected: str | None  # the archive's: seat, "no lynch", None
    got: str | None  # the peer's: seat, "no lynch", None (no decision)
    forummod: str | None  # forummod's on the same day
    hammer_post: int | None
    right: bool | None  # None: not scored (as forummod's day)
    forummod_right: bool | None


@dataclass(frozen=True)
class PeerCount:
    post: int
    phase: str
    exact: bool
    strict: bool
    forummod_exact: bool
    answered: bool  # False: the peer gave no standing for it (counted as not exact)


@dataclass(frozen=True)
class PeerGame:
    thread: str
    half: str
    days: tuple[PeerDay, ...] = ()
    counts: tuple[PeerCount, ...] = ()
    seconds: float = 0.0
    error: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # the answer's other keys (flags, notes)


def deaths(derived: Any) -> dict[str, int]:
    """Seat key -> the post of its death as the GM records it: a kill or modkill at its event's
    post, a lynch at the day's end post (the archive's lynch, as a GM enters it)."""
    seat_of = derived.seat_of_config_name()
    out: dict[str, int] = {}
    for e in derived.spec.events:
        if e.kind in ("kill", "modkill") and e.player in seat_of:
            out.setdefault(seat_of[e.player], e.at_post)
    ends = {d.day: d.end for d in derived.days}
    for s in derived.seats:
        if s.fate == "lynched" and s.phase.startswith("D") and s.phase[1:].isdigit():
            end = ends.get(int(s.phase[1:]))
            if end is not None:
                out.setdefault(s.key, end)
    return out


def request(derived: Any, records: Sequence[Mapping[str, Any]], counts_after: Mapping[int, Sequence[int]],
            thread: str = "", title: str = "") -> dict[str, Any]:
    """The forummod-peer/1 request of one game: the roster and days of forummod's own config."""
    died = deaths(derived)
    by_name = {a.shown: a for s in derived.seats for a in s.accounts}
    players = []
    for seat, spec in zip(derived.seats, derived.spec.seats):
        players.append({
            "seat": seat.key, "name": spec.name, "user_id": spec.user_id, "aliases": list(spec.aliases),
            "replaces": [{"name": n, "user_id": (by_name[n].user_id or "") if n in by_name else "", "at_post": p}
                         for n, p in spec.replaces],
            "died_at": died.get(seat.key), "votes": spec.votes})
    pins = {p.name: p for p in derived.spec.phases}
    days = []
    for d in derived.days:
        pin = pins.get(f"D{d.day}")
        end = d.end if d.end is not None else (pin.end if pin else None)
        days.append({"day": d.day, "start_post": max(0, d.start - 1), "end_post": end,
                     "counts_after": sorted(set(counts_after.get(d.day, ()))),
                     "outcome_after": d.end - 1 if d.end is not None and d.in_data else None})
    return {"protocol": PROTOCOL,
            "game": {"thread": thread, "title": title, "site": "mafiascum"},
            "moderators": list(derived.mod_names),
            "players": players, "days": days,
            "posts": [{"number": int(r["number"]), "user": r["user"], "user_id": str(r["user_id"]),
                       "html": r["content"], "time": r.get("time", "")} for r in records]}


def call(cmd: str | Sequence[str], req: Mapping[str, Any], timeout: float = 900) -> dict[str, Any]:
    """Run the peer command on one request; its answer, or {"error": ...}."""
    argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
    try:
        res = subprocess.run(argv, input=json.dumps(req, ensure_ascii=False), capture_output=True, text=True,
                             timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    if res.returncode != 0:
        return {"error": f"exit {res.returncode}: {res.stderr.strip()[-800:]}"}
    lines = [ln for ln in res.stdout.splitlines() if ln.strip()]
    try:
        ans = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError as exc:
        return {"error": f"the answer is not JSON ({exc}): {lines[-1][:200]}"}
    if not isinstance(ans, dict) or not isinstance(ans.get("days"), list):
        return {"error": f"the answer has no days: {str(ans)[:200]}"}
    return ans


def evaluate_peer(corpus: Any, thread: str, fm: Any, cmd: str | Sequence[str]) -> PeerGame:
    """The peer on the days and moderator counts forummod was scored on (`fm`, its GameReport):
    the same count posts, compared by the same rules (`compare.check_counts`)."""
    from benchmarks.accuracy.compare import check_counts
    from benchmarks.accuracy.corpus import half_of
    from benchmarks.accuracy.derive import derive
    from benchmarks.accuracy.game import seat_posts
    from benchmarks.accuracy.modcounts import NO_LYNCH, NOT_VOTING, SeatNames, read_counts
    from benchmarks.accuracy.runner import Standing

    t0 = time.time()
    half = half_of(thread)
    if fm.error:
        return PeerGame(thread, half, error="forummod's run failed: no days to compare")
    try:
        game = corpus.archive[thread]
        records = corpus.posts(thread)
        derived = derive(game, records, corpus.day_ends(thread))
        counts = read_counts([(int(r["number"]), r["content"]) for r in records
                              if str(r["user_id"]) in derived.mod_ids], SeatNames(derived.names))
        scored = {c.post: c for c in fm.counts}
        counts = [c for c in counts if c.post in scored]
        ruled = {e.at_post for e in derived.spec.events}
        before = {c.post: c.post + 1 if c.post in ruled else c.post for c in counts}  # as game.evaluate
        wanted: dict[int, list[int]] = {}
        for c in counts:
            wanted.setdefault(int(scored[c.post].phase[1:]), []).append(before[c.post] - 1)
        req = request(derived, records, wanted, thread, game.title)
    except Exception as exc:  # noqa: BLE001
        return PeerGame(thread, half, error=f"request: {type(exc).__name__}: {exc}")
    ans = call(cmd, req)
    if "error" in ans:
        return PeerGame(thread, half, seconds=time.time() - t0, error=ans["error"])

    seat_of: dict[str, str] = {}
    for p in req["players"]:
        for n in [p["name"], *p["aliases"], *(r["name"] for r in p["replaces"])]:
            seat_of.setdefault(n.casefold(), p["seat"])

    def seat(name: Any) -> str:
        if name is None:
            return NOT_VOTING
        return seat_of.get(str(name).casefold(), f"?{name}")

    died = deaths(derived)
    days_ans = {int(d.get("day", 0)): d for d in ans["days"] if isinstance(d, dict)}
    standings: dict[int, Standing] = {}
    answered: set[int] = set()
    for c in counts:
        q = before[c.post]
        phase = scored[c.post].phase
        row = days_ans.get(int(phase[1:]), {})
        got = next((x for x in row.get("counts", ()) if x.get("after") == q - 1), None)
        living = frozenset(p["seat"] for p in req["players"] if p["died_at"] is None or p["died_at"] >= q)
        votes = {}
        if got is not None and isinstance(got.get("votes"), dict):
            answered.add(c.post)
            for v, t in got["votes"].items():
                votes[seat(v)] = seat(t)
            for v in got.get("no_lynch") or ():
                votes[seat(v)] = NO_LYNCH
        standings[c.post] = Standing(c.post, phase, votes, living)
    checks = check_counts(counts, standings, seat_posts(derived, records))
    pcounts = tuple(PeerCount(k.post, k.phase, k.exact and k.post in answered, k.strict and k.post in answered,
                              scored[k.post].exact, k.post in answered) for k in checks)

    fm_days = {d.day: d for d in fm.days}
    pdays = []
    for d in derived.days:
        row = days_ans.get(d.day, {})
        got = NO_LYNCH if row.get("no_lynch") else (seat(row["lynch"]) if row.get("lynch") else None)
        got = "no lynch" if got == NO_LYNCH else got
        f = fm_days.get(d.day)
        is_scored = f is not None and f.right is not None
        pdays.append(PeerDay(d.day, d.expected, got, f.got if f else None, row.get("hammer_post"),
                             (got == d.expected) if is_scored else None, f.right if f else None))
    extra = {k: v for k, v in ans.items() if k not in ("days", "protocol")}
    extra["died_at_known"] = len(died)
    return PeerGame(thread, half, tuple(pdays), pcounts, time.time() - t0, "", extra)


def peer_totals(games: Sequence[PeerGame]) -> dict[str, Any]:
    """The peer's figures and forummod's on the same days and counts."""
    days = [d for g in games for d in g.days if d.right is not None]
    counts = [c for g in games for c in g.counts]
    return {
        "games": len(games),
        "failed_games": sum(1 for g in games if g.error),
        "days_with_outcome": len(days),
        "days_right": sum(1 for d in days if d.right),
        "forummod_days_right": sum(1 for d in days if d.forummod_right),
        "days_undecided": sum(1 for d in days if d.got is None),
        "days_both_right": sum(1 for d in days if d.right and d.forummod_right),
        "days_peer_only": sum(1 for d in days if d.right and not d.forummod_right),
        "days_forummod_only": sum(1 for d in days if d.forummod_right and not d.right),
        "counts": len(counts),
        "counts_answered": sum(1 for c in counts if c.answered),
        "counts_exact": sum(1 for c in counts if c.exact),
        "counts_strict": sum(1 for c in counts if c.strict),
        "forummod_counts_exact": sum(1 for c in counts if c.forummod_exact),
        "seconds": round(sum(g.seconds for g in games), 1),
    }


def command_summary(cmd: str, games: Sequence[PeerGame]) -> dict[str, Any]:
    """The `peer` entry of the report for a peer command: totals, per half, per game."""
    from dataclasses import asdict

    first = next((g.extra.get("peer") for g in games if isinstance(g.extra.get("peer"), dict)), {}) or {}
    tot = peer_totals(games)
    return {"available": True, "command": cmd, "peer": first, "protocol": PROTOCOL,
            "all": tot, "halves": {h: peer_totals([g for g in games if g.half == h]) for h in ("tune", "check")},
            "games": [asdict(g) for g in games],
            "summary": f"Peer `{first.get('name', cmd)}` (commit {first.get('commit', '?')[:12]}) run through "
                       f"`{cmd}` on the same days and moderator counts as forummod "
                       f"({tot['failed_games']} of {tot['games']} games failed)."}
