"""One game through forummod's own analysis, offline, as the command line runs it.

The derived config and the thread's posts (archive JSON Lines) go to a temporary folder; the
game is polled from the `archive` engine into an in-memory store and analysed with every
proposal approved (`forummod replay --approve-all`, `service.analyse_game`). Each moderator
count is compared with the count just before its post: `service.analyse` with `until_post`
and `now` at that post, `report.tally_report` of it — exactly what `forummod tally --at N
--approve-all` prints (the inputs are loaded once and the extraction results reused, which
changes nothing in the result: `tests/benchmarks/test_accuracy.py` checks some against the
real command).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from benchmarks.accuracy.derive import Derived
from benchmarks.accuracy.gameconfig import write_game
from benchmarks.accuracy.modcounts import NO_LYNCH, NOT_VOTING


@dataclass(frozen=True)
class DayResult:
    """forummod's outcome of one day: "lynch" (seat), "no lynch", or None (no decision)."""

    day: int
    outcome: str | None
    seat: str | None
    post: int | None  # the hammer post (None: decided at the day's end, or not at all)
    reason: str  # hammer, deadline, no_votes, tie, ...


@dataclass(frozen=True)
class Standing:
    """forummod's count just before a post: voter seat -> target seat, NO_LYNCH or NOT_VOTING."""

    post: int
    phase: str
    votes: Mapping[str, str]
    living: frozenset[str]


@dataclass(frozen=True)
class Reading:
    """What forummod read in one post: intents (voter, kind, target) and issues (code, player,
    candidates, details), in seat keys where a seat is named."""

    intents: tuple[tuple[str, str, str], ...]
    issues: tuple[tuple[str, str, tuple[str, ...], str], ...]
    rejections: tuple[tuple[str, str, str], ...]  # (actor, reason, target)


@dataclass(frozen=True)
class ForummodRun:
    days: tuple[DayResult, ...]
    standings: Mapping[int, Standing]
    readings: Mapping[int, Reading]
    error: str = ""


def run_game(derived: Derived, records: Sequence[Mapping[str, Any]], count_posts: Sequence[int]) -> ForummodRun:
    """forummod's day outcomes and its count before each post of `count_posts`."""
    from forummod.config import load_config
    from forummod.model import NO_LYNCH as FM_NO_LYNCH
    from forummod.report import tally_report
    from forummod.service import Workspace, analyse, analyse_game, load_inputs, poll_game
    from forummod.store import Store

    seat_of = derived.seat_of_config_name()

    def seat(name: str | None) -> str:
        if name is None:
            return ""
        if name == FM_NO_LYNCH:
            return NO_LYNCH
        return seat_of.get(name, name)

    with tempfile.TemporaryDirectory(prefix="fm-accuracy-") as tmp:
        cfg_path = write_game(derived.spec, records, Path(tmp), store=":memory:")
        cfg = load_config(cfg_path)
        with Workspace(cfg, Store(":memory:")) as ws:
            gid = derived.spec.game_id
            rep = poll_game(ws, gid)
            if not rep.ok:
                return ForummodRun((), {}, {}, error=f"poll failed: {rep}")
            a = analyse_game(ws, gid, approve_all=True)
            days = _days(a, derived, seat)
            readings = _readings(a, seat)
            inputs = load_inputs(ws, gid)
            from forummod.extract.saved import context_fingerprint
            from forummod.service import extract_context

            saved = ws.store.saved_extractions(gid, context_fingerprint(extract_context(inputs, a.ruleset)))
            times = {p.number: p.created_at for p in inputs.posts.get("game", ())}
            standings = {}
            for n in count_posts:
                if n not in times:
                    continue
                b = analyse(inputs, now=times[n], approve_all=True, until_post=n, saved=saved)
                t = tally_report(b)
                tally = t["tally"]
                if not tally or t.get("phase_kind") != "day":
                    continue
                votes = {}
                for c in tally["candidates"]:
                    for v in c["voters"]:
                        votes[seat(v["voter"])] = seat(c["name"])
                for nv in tally["not_voting"]:
                    votes.setdefault(seat(nv), NOT_VOTING)
                living = frozenset(seat(p.name) for p in b.run.state.players if p.alive)
                standings[n] = Standing(n, t["phase"], votes, living)
    return ForummodRun(days, standings, readings)


def _days(a, derived: Derived, seat) -> tuple[DayResult, ...]:
    st = a.run.state
    hammers = {}
    for e in a.run.log:
        if e.kind == "hammer" and e.source is not None and e.source.number is not None:
            ph = next((p.name for p in a.run.phases if p.kind == "day" and p.start <= e.at
                       and (p.end is None or e.at <= p.end)), None)
            if ph:
                hammers.setdefault(ph, e.source.number)
    out = []
    for d in derived.days:
        prop = st.proposal(f"lynch:D{d.day}")
        if prop is None or prop.status != "approved":
            out.append(DayResult(d.day, None, None, None, "undecided"))
            continue
        reason = next((dict(f.params).get("reason") for f in prop.facts if f.key == "no_lynch"), None)
        if prop.effects:
            name = prop.effects[0].player
            out.append(DayResult(d.day, "lynch", seat(name), hammers.get(f"D{d.day}"),
                                 "hammer" if f"D{d.day}" in hammers else "deadline"))
        else:
            out.append(DayResult(d.day, "no lynch", None, hammers.get(f"D{d.day}"), str(reason or "no lynch")))
    return tuple(out)


def _readings(a, seat) -> dict[int, Reading]:
    from forummod.model import UnvoteIntent, VoteIntent

    intents: dict[int, list] = {}
    for it in a.intents:
        src = getattr(it, "source", None)
        if src is None or src.number is None:
            continue
        if isinstance(it, VoteIntent):
            intents.setdefault(src.number, []).append((seat(it.voter), "vote", seat(it.target)))
        elif isinstance(it, UnvoteIntent):
            intents.setdefault(src.number, []).append((seat(it.voter), "unvote", seat(it.target) if it.target else ""))
    issues: dict[int, list] = {}
    for i in a.extraction_issues:
        if i.source is None or i.source.number is None or i.code == "date_guessed":
            continue
        issues.setdefault(i.source.number, []).append((i.code, seat(i.player) if i.player else "",
                                                        tuple(seat(c) for c in i.candidates), i.details or i.message))
    rejections: dict[int, list] = {}
    for r in a.run.rejections:
        if r.source is None or r.source.number is None:
            continue
        rejections.setdefault(r.source.number, []).append((seat(r.actor), r.reason, seat(r.target) if r.target else ""))
    keys = set(intents) | set(issues) | set(rejections)
    return {n: Reading(tuple(intents.get(n, ())), tuple(issues.get(n, ())), tuple(rejections.get(n, ())))
            for n in keys}
