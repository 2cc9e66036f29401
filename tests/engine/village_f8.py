"""Fixture F8 of village.md §8 on top of `Scenario`: seats P1..P8, P5 and P6 werewolves,
buildings by code, `alive`, `state` presets, and the §8 assertion vocabulary.

Each phase is played with the spec's default timings: a night lasts 30 h (Wave 1 closes at 24 h),
a day votes from 36 h to 48 h after its dawn and ends 30 h after the vote (room for the tie-break,
re-vote and pardon windows). Phases are 1 s apart, so every phase's events are a clean segment.
Inputs go into time slots: night PMs from nightfall, morning answers from the dawn, day powers
from 14 h, election ballots once the election is open, votes from the vote opening, reactions
after the vote closes. `expect` checks a segment like §8: night segments after the dawn and the
Bailiff's morning (13 h into the next day), day segments after the execution or pardon.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from forummod.engine.types import GameRun, Phase, PhaseId

from tests.engine.scenario import T0, Scenario

H = timedelta(hours=1)
M = timedelta(minutes=1)
S = timedelta(seconds=1)

PLAYERS = [f"P{i}" for i in range(1, 9)]

#: §8 power names -> catalog verbs
VERB = {"pack": "kill", "guardian": "protect", "white_werewolf": "ww_kill", "scandalmonger": "poster",
        "confessor": "confess", "bonesetter": "restore", "barber": "barber", "schoolmarm": "silence",
        "pyromaniac": "burn", "seer": "check", "vote": "vote", "election": "elect", "piper": "charm",
        "cupid": "link", "witch": "heal", "poison": "poison", "bailiff": "assign"}


def nested(options: dict[str, Any]) -> dict[str, Any]:
    """`{"pyromaniac.anchor": "owner"}` -> `{"pyromaniac": {"anchor": "owner"}}`."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        *path, last = key.split(".")
        d = out
        for p in path:
            d = d.setdefault(p, {})
        d[last] = value
    return out


@dataclass
class Segment:
    phase: Phase
    day: Phase | None  # night segments: the day whose morning belongs to them
    prefix: GameRun
    check_at: datetime
    slots: Counter = field(default_factory=Counter)

    @property
    def kind(self) -> str:
        return self.phase.kind


class F8:
    def __init__(self, roles: dict[str, str] | None = None, buildings: dict[str, str] | None = None,
                 alive: list[str] | None = None, state: dict[str, Any] | None = None,
                 options: dict[str, Any] | None = None, thief_cards: tuple[str, ...] = (), seed: int = 1):
        r = {p: "villager" for p in PLAYERS}
        r.update({"P5": "werewolf", "P6": "werewolf"})
        r.update(roles or {})
        st = dict(state or {})
        if alive is not None:
            st["alive"] = list(alive)
        extra = {"buildings": dict(buildings or {}), "state": st, "thief_cards": list(thief_cards)}
        self.g = Scenario("village", PLAYERS, r, options=nested(options or {}), seed=seed, extra=extra)
        self.segments: list[Segment] = []

    # ------------------------------------------------------------------ phases
    def _add(self, pid: PhaseId) -> Phase:
        start = self.g.cursor + S if self.g.phases else T0
        if pid.kind == "night":
            self.g.phase(str(pid), start=start, deadline=start + 24 * H, end=start + 30 * H)
        else:
            self.g.phase(str(pid), start=start, deadline=start + 48 * H, end=start + 78 * H)
        return self.g.phases[-1]

    def _reach(self, pid: PhaseId) -> Phase:
        """Create phases up to `pid` (earlier ones pass with no events) and return it."""
        for ph in self.g.phases:
            if ph.id == pid:
                return ph
        if not self.g.phases:
            return self._add(pid)
        while True:
            last = self.g.phases[-1].id
            nxt = PhaseId(last.number, "day") if last.kind == "night" else PhaseId(last.number + 1, "night")
            ph = self._add(nxt)
            if nxt == pid:
                return ph

    def night(self, n: int, **act: Any) -> Segment:
        ph = self._reach(PhaseId(n, "night"))
        day = self._reach(PhaseId(n, "day"))
        seg = Segment(ph, day, self.g.run(now=ph.start - S), day.start + 13 * H)
        self.segments.append(seg)
        self.act(seg, **act)
        return seg

    def day(self, n: int, **act: Any) -> Segment:
        ph = self._reach(PhaseId(n, "day"))
        seg = Segment(ph, None, self.g.run(now=ph.start - S), ph.end - S)
        self.segments.append(seg)
        self.act(seg, **act)
        return seg

    # ------------------------------------------------------------------ inputs
    def _slot(self, seg: Segment, slot: str) -> datetime:
        seg.slots[slot] += 1
        k = seg.slots[slot] * M
        ph = seg.phase
        if seg.kind == "night":
            if slot in ("morning", "dawn"):
                return seg.day.start + k
            return ph.start + k
        if slot == "day":
            return ph.start + 14 * H + k
        if slot == "vote":
            return ph.vote_close - 12 * H + k
        if slot == "close":
            return ph.vote_close + 10 * M + k
        if slot == "morning":
            return ph.start + k
        if slot == "election":
            probe = self.g.run(now=ph.start + S).state.x
            if probe.election is None and probe.morning is not None and probe.morning.open:
                return probe.morning.until + k
            return ph.start + S + k
        raise KeyError(slot)

    def _do(self, seg: Segment, slot: str, actor: str, verb: str, *targets: str, **args: str) -> None:
        self.g.clock = self._slot(seg, slot)
        self.g.act(actor, verb, *targets, at=self.g.clock, channel="thread" if seg.kind == "day" else "pm",
                   **args)

    def pack_member(self, seg: Segment) -> str:
        st = seg.prefix.state
        return next(p.name for p in st.players if p.alive and p.role in ("werewolf", "white_werewolf"))

    def holder(self, seg: Segment, code: str) -> str:
        st = seg.prefix.state
        return next(b.holder for b in st.x.buildings if b.code == code and not b.destroyed)

    def role_holder(self, seg: Segment, role: str) -> str:
        return next(p.name for p in seg.prefix.state.players if p.role == role)

    def act(self, seg: Segment, **act: Any) -> None:
        """Inputs in the §8 short forms, placed in their time slots in the given order."""
        for key, value in act.items():
            getattr(self, f"_in_{key}")(seg, value)

    def then(self, seg: Segment, *steps: dict[str, Any]) -> None:
        """`then_act` as a list of one-key maps, in timestamp order."""
        for step in steps:
            self.act(seg, **step)

    # night inputs
    def _in_pack(self, seg, v):
        target = v["target"] if isinstance(v, dict) else v
        self._do(seg, "night", self.pack_member(seg), "kill", target)

    def _in_pack_target(self, seg, v):
        self._in_pack(seg, v)

    def _in_guardian(self, seg, v):
        self._do(seg, "night", self.role_holder(seg, "guardian"), "protect", v["target"])

    def _in_white_werewolf(self, seg, v):
        self._do(seg, "night", self.role_holder(seg, "white_werewolf"), "ww_kill", v["target"])

    def _in_scandalmonger(self, seg, v):
        self._do(seg, "night", self.role_holder(seg, "scandalmonger"), "poster", v["target"])

    def _in_pyromaniac(self, seg, v):
        self._do(seg, "night", self.role_holder(seg, "pyromaniac"), "burn", v["building_of"])

    def _in_witch(self, seg, v):
        w = self.role_holder(seg, "witch")
        if v.get("heal"):
            self._do(seg, "night", w, "heal")
        if v.get("poison"):
            self._do(seg, "night", w, "poison", v["poison"])
        if not v.get("heal") and not v.get("poison"):
            self._do(seg, "night", w, "no_potion")

    # morning / dawn
    def _in_morning(self, seg, v):
        slot = "morning"
        for key, val in v.items():
            if key == "bailiff":
                for bid, vag in val["offer"].items():
                    self._do(seg, slot, self.holder(seg, "bailiff"), "assign", vag, building=bid)
            else:
                self._do(seg, slot, key, val)  # Vagabond: accept | refuse

    def _in_dawn(self, seg, v):
        for key, val in v.items():
            getattr(self, f"_in_{key}")(seg, val, slot="dawn")

    # day inputs
    def _in_votes(self, seg, v):
        self._in_votes_in_order(seg, list(v.items()))

    def _in_votes_in_order(self, seg, pairs):
        for voter, target in pairs:
            self.g.clock = self._slot(seg, "vote")
            self.g.vote(voter, target, at=self.g.clock)

    def _in_schoolmarm(self, seg, v):
        self._do(seg, "day", self.holder(seg, "school"), "silence", *v["silence"])

    def _day_power(self, seg, code, verb, v):
        self._do(seg, "day", self.holder(seg, code), verb, v["target"])

    def _in_confessor(self, seg, v):
        self._day_power(seg, "church", "confess", v)

    def _in_bonesetter(self, seg, v):
        self._day_power(seg, "hovel", "restore", v)

    def _in_bonesetter_in_order(self, seg, vs):
        for v in vs:
            self._in_bonesetter(seg, v)

    def _in_barber(self, seg, v):
        self._day_power(seg, "barbershop", "barber", v)

    def _in_election(self, seg, v):
        for voter, cand in v.items():
            self._do(seg, "election", voter, "elect", cand)

    def _in_plea(self, seg, v):
        self._do(seg, "close", v, "plead")

    def _in_lord(self, seg, v):
        self._do(seg, "close", self.holder(seg, "manor"), "pardon", v["pardon"])

    def _in_sheriff_choice(self, seg, v):
        sheriff = self.g.run(now=seg.phase.vote_close + S).state.x.sheriff
        self._do(seg, "close", sheriff, "sheriff_choice", v)

    def _in_sheriff_successor(self, seg, v, slot="close"):
        if v == "timeout":
            return
        at = self._slot(seg, slot)
        run = self.g.run(now=at - S)
        w = next(w for w in run.state.x.windows if w.kind == "successor")
        self.g.act(w.player, "successor", v, at=at, channel="thread")

    def _in_hunter_shot(self, seg, v, slot=None):
        at = self.g.clock + M if slot is None else self._slot(seg, slot)
        run = self.g.run(now=at - S)
        w = next(w for w in run.state.x.windows if w.kind == "hunter")
        self.g.act(w.player, "shoot", v, at=at, channel="thread")
        self.g.clock = at

    # ------------------------------------------------------------------ assertions
    def run_at(self, seg: Segment) -> GameRun:
        return self.g.run(now=seg.check_at)

    def expect(self, seg: Segment, **exp: Any) -> GameRun:
        run = self.run_at(seg)
        check(run, seg, exp)
        return run


# ---------------------------------------------------------------------- rendering (English stand-in)


def title(role: str) -> str:
    return role.replace("_", " ").title()


def render(fact) -> str:
    p = dict(fact.params)
    if fact.key == "death":
        return f"{p['player']} — {title(p['role'])}" if "role" in p else f"{p['player']} died"
    if fact.key == "building_burned":
        tail = f"; {p['vagabond']} is now a Vagabond" if p.get("vagabond") else ""
        return f"{p['building']} of {p['holder']} burned{tail}"
    if fact.key == "confessor_used":
        return f"the Confessor has used his token on {p['target']}"
    if fact.key == "confessor_result":
        return f"{p['target']}: {title(p['card'])}" if "card" in p else f"{p['target']}: {p['verdict']}"
    return f"{fact.key} " + ", ".join(f"{k}={v}" for k, v in sorted(p.items()))


# ---------------------------------------------------------------------- the §8 assertion vocabulary


def seg_items(run: GameRun, seg: Segment, attr: str) -> list:
    return list(getattr(run, attr))[len(getattr(seg.prefix, attr)):]


def died(run: GameRun, seg: Segment) -> set[str]:
    before = {p.name for p in seg.prefix.state.players if p.alive}
    return {n for n in before if not run.state.is_alive(n)}


def lynch_tally(run: GameRun, seg: Segment):
    name = str(PhaseId(seg.phase.id.number, "day"))
    return next((t for t in seg_items(run, seg, "tallies") if t.phase == name and t.round == 1), None)


def check(run: GameRun, seg: Segment, exp: dict[str, Any]) -> None:
    from forummod.engine.rulesets.village.state import building_by_code, building_of, farmers, is_vagabond

    st, x = run.state, run.state.x
    facts = [f for _, f in seg_items(run, seg, "facts")]
    for key, want in exp.items():
        if key == "dead":
            assert died(run, seg) == set(want), (key, died(run, seg))
        elif key == "revealed":
            got = {n: st.player(n).death.revealed for n in died(run, seg) if st.player(n).death.revealed}
            got.update({f.get("player"): f.get("role") for f in facts if f.key == "idiot_revealed"})
            assert got == want, (key, got)
        elif key == "alive_includes":
            assert all(st.is_alive(n) for n in want), (key, st.living_names())
        elif key == "vagabond_includes":
            assert all(is_vagabond(st, n) for n in want), key
        elif key == "vagabond_excludes":
            assert not any(is_vagabond(st, n) for n in want), key
        elif key in ("empty", "empty_includes"):
            got = {b.id for b in x.buildings if not b.destroyed and not st.is_alive(b.holder)}
            assert (got == set(want)) if key == "empty" else set(want) <= got, (key, got)
        elif key == "destroyed":
            assert {b.id for b in x.buildings if b.destroyed} == set(want), key
        elif key == "building":
            assert {n: building_of(st, n).code for n in want} == want, key
        elif key == "token":
            got = {c: building_by_code(st, c).token for c in want}
            assert got == want, (key, got)
        elif key == "farmers":
            assert set(farmers(st)) == set(want), (key, farmers(st))
        elif key == "sheriff":
            assert x.sheriff == want, (key, x.sheriff)
        elif key == "sheriff_in":
            assert x.sheriff in want, (key, x.sheriff)
        elif key == "sheriff_extinct":
            assert x.sheriff_extinct == want, key
        elif key == "election_held":
            assert x.election_held == want, key
        elif key == "poster":
            assert x.poster == want, (key, x.poster)
        elif key == "silenced":
            assert x.silenced == set(want), (key, x.silenced)
        elif key == "barkeeper":
            assert want == "none" and not any(b.code == "tavern" and not b.destroyed and st.is_alive(b.holder)
                                              for b in x.buildings), key
        elif key == "bailiff_step":
            day = seg.day.id.number if seg.day else seg.phase.id.number
            assert (day, want) in x.mornings, (key, x.mornings)
        elif key == "confessor_uses_total":
            assert x.confessor_uses == want, key
        elif key == "lynched":
            got = [n for n in died(run, seg) if st.player(n).death.cause == "lynch"]
            assert got == ([want] if want else []), (key, got)
        elif key == "day_ends":
            assert (x.lynch.stage == "done") == want, (key, x.lynch)
        elif key == "lynch_still_held":
            assert (x.lynch.outcome != "cancelled") == want, (key, x.lynch)
        elif key == "counted":
            t = lynch_tally(run, seg)
            got = {c.name: len(c.voters) for c in t.candidates if c.voters}
            assert got == want, (key, got)
        elif key == "score":
            t = lynch_tally(run, seg)
            got = {c.name: c.total for c in t.candidates}
            assert got == want, (key, got)
        elif key == "tie":
            ties = [f for f in facts if f.key in ("tie", "election_tie")]
            assert ties and set(ties[0].get("players")) == set(want), (key, ties)
        elif key == "revote_between":
            assert set(x.lynch.revote_between) == set(want), (key, x.lynch)
        elif key == "revote":
            got = any(f.key == "election_open" and f.get("round") == 2 for f in facts) or any(
                f.key == "revote" for f in facts)
            assert got == want, key
        elif key == "sheriff_choice_requested":
            assert any(f.key == "sheriff_choice_requested" and f.get("sheriff") == want for f in facts), key
        elif key == "void_votes":
            assert [list(v) for v in x.lynch.void] == [list(v) for v in want], (key, x.lynch.void)
        elif key == "gm_notified":
            got = [r.to for _, r in seg_items(run, seg, "private") if r.fact.key == "vote_void"]
            assert got == want, (key, got)
        elif key == "rejected":
            got = Counter((r.kind, r.actor if r.kind in ("vote", "elect") else r.target, r.reason)
                          for r in seg_items(run, seg, "rejections") if r.reason != "before_barkeeper")
            wanted = Counter()
            for item in want:
                (kind, who), = [(k, v) for k, v in item.items() if k != "reason"]
                wanted[(VERB[kind], who, item["reason"])] += 1
            assert got == wanted, (key, got)
        elif key == "called":
            rec = next(t for t in x.nights if t.night == seg.phase.id.number)
            assert set(want) <= set(rec.called), (key, rec.called)
        elif key == "not_called":
            rec = next(t for t in x.nights if t.night == seg.phase.id.number)
            assert not set(want) & set(rec.called), (key, rec.called)
        elif key == "attack":
            rec = next(t for t in x.nights if t.night == seg.phase.id.number)
            assert want == "none" and rec.victim is None, (key, rec)
        elif key == "winner":
            got = st.outcome.result if st.outcome else None
            assert got == want, (key, st.outcome)
        elif key == "public_post_contains":
            text = "\n".join(render(f) for f in facts)
            for phrase in want:
                assert phrase in text, (key, phrase, text)
        elif key == "private_to":
            for to, phrase in want.items():
                text = "\n".join(render(r.fact) for _, r in seg_items(run, seg, "private") if r.to == to)
                assert phrase in text, (key, to, phrase, text)
        else:
            raise KeyError(f"unknown assertion {key}")
