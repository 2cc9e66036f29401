"""Night resolution of `witch-hunt` (WH-N1..WH-N7) as a pure function of validated choices.

The ruleset collects each role's last valid PM, works out who holds the recruitment right,
and hands everything here as a `NightInput`. `resolve` walks the steps of the ruleset's
`NIGHT_ORDER` one by one over a working record, then returns the effects (status changes
before deaths, D15), the public dawn facts and the private results. All choices are
simultaneous (D13): the order only fixes how conflicts are computed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from forummod.engine.types import Fact, Kill, PrivateResult, SetStatus
from forummod.i18n import join_names, pgettext
from forummod.records import frozen

CONVERTED = "converted"  # WH-S3 обращён
PRAYED = "prayed"  # WH-S3 отмолен

# Recruitment results (what happened to the holder's right tonight).
R_CONVERTED, R_SAVED, R_FAILED, R_PASSED, R_BLOCKED, R_NO_HOLDER = (
    "converted", "soul_saved", "failed", "passed", "blocked", "no_holder")

_DEATH_RULE = {"witches": "WH-K1", "holy_fire": "WH-I6", "witches_and_fire": "WH-H5"}


@frozen
class NightInput:
    """Everything the night needs, already validated (targets alive, roles entitled)."""

    night: str
    roles: Mapping[str, str]  # player -> card; a converted player keeps the former card (WH-C11)
    living: frozenset[str]  # alive when the night resolves, before its own deaths (D13)
    coven: tuple[str, ...]  # witches and converted members before tonight, in join order (D18)
    prayed: frozenset[str]  # отмолен before tonight
    victims: tuple[tuple[str, str], ...] = ()  # (witch, named victim)
    holder: str | None = None  # who holds the recruitment right tonight (None: blocked or none)
    blocked: bool = False  # WH-C8: the night after a conversion
    recruit: str | None = None  # the holder's target; None: pass or nothing sent (D19)
    recruit_missing: bool = False  # the holder sent nothing (D19: counts as a pass)
    inquisitor: str | None = None
    inquisitor_action: str | None = None  # "pray" | "fire"; None: no action (D6: prayer on nobody)
    inquisitor_target: str | None = None
    herbalist: str | None = None
    heal: str | None = None
    gossip: str | None = None
    gossip_target: str | None = None
    heal_announce: str = "any"  # D14 option
    blocked_night_post: str = "silent"  # D17 option
    saved_soul_pm: bool = False  # D22 option


@dataclass
class _Work:
    """The night's working record, filled step by step (local to one `resolve` call)."""

    inp: NightInput
    victim: str | None = None
    attempt: str | None = None
    recruitment: str = ""
    converted: str | None = None
    pray: str | None = None
    new_prayed: str | None = None
    fire: str | None = None
    deaths: list[tuple[str, str]] = field(default_factory=list)  # (player, cause)
    saved_from: list[str] = field(default_factory=list)  # "witches" | "holy_fire"
    gossip: tuple[str, str, str] | None = None  # (target, role, status)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (rule, text) for the GM's log

    @property
    def coven_now(self) -> frozenset[str]:
        """The coven after tonight's conversion, which stands before deaths (WH-N5, D15)."""
        return frozenset(self.inp.coven) | ({self.converted} if self.converted else set())

    def note(self, rule: str, text: str) -> None:
        self.notes.append((rule, text))


@frozen
class NightOutcome:
    holder: str | None
    recruitment: str  # one of the R_* results
    converted: str | None
    victim: str | None
    deaths: tuple[tuple[str, str], ...]
    effects: tuple[Any, ...]
    facts: tuple[Fact, ...]
    private: tuple[PrivateResult, ...]
    notes: tuple[tuple[str, str], ...]

    @property
    def summary(self) -> str:
        died = ", ".join(f"{p} ({c})" for p, c in self.deaths) or "nobody dies"
        return f"{died}; recruitment: {self.recruitment}"


# --------------------------------------------------------------------------- steps


def _kill(w: _Work) -> None:
    """WH-N1, WH-K1/K2/K3, D7: the player named by at least two witches and by more witches
    than anyone else dies; a tie between such players, or a lone witch, kills nobody."""
    inp = w.inp
    counts = Counter(v for _, v in inp.victims)
    if not counts:
        return
    best = max(counts.values())
    top = [p for p, n in counts.items() if n == best]
    if best >= 2 and len(top) == 1:
        w.victim = top[0]
    elif len(set(inp.coven) & inp.living) == 1:
        w.note("WH-K3", pgettext("gm-note", "a lone witch cannot kill"))
    elif best >= 2:
        w.note("WH-K2", pgettext("gm-note", "the witches' choices split evenly (%(names)s): nobody dies (D7)", names=join_names(sorted(top))))
    else:
        w.note("WH-K1", pgettext("gm-note", "no player was named by two witches: nobody dies"))


def _recruit(w: _Work) -> None:
    """WH-N2, WH-C1..C3, C8: the holder converts someone, passes, or has no turn tonight."""
    inp = w.inp
    if inp.blocked:
        w.recruitment = R_BLOCKED  # WH-C8
    elif inp.holder is None:
        w.recruitment = R_NO_HOLDER
    elif inp.recruit is not None:
        w.attempt = inp.recruit  # decided against prayer at WH-N5
    else:
        w.recruitment = R_PASSED  # WH-C2; D19: nothing sent counts as a pass
        if inp.recruit_missing:
            w.note("D19", pgettext("gm-note", "%(holder)s sent no recruitment: counted as a pass", holder=inp.holder))


def _inquisitor(w: _Work) -> None:
    """WH-N3, WH-I2/I3: prayer makes a non-witch отмолен; prayer on a witch does nothing."""
    inp = w.inp
    if inp.inquisitor_action is None:
        if inp.inquisitor is not None:
            w.note("D6", pgettext("gm-note", "%(inquisitor)s sent no action: a prayer on nobody", inquisitor=inp.inquisitor))
        return
    t = inp.inquisitor_target
    if inp.inquisitor_action == "fire":
        w.fire = t
        return
    w.pray = t
    if t in inp.coven:
        w.note("WH-I3", pgettext("gm-note", "prayer on %(player)s, a witch: nothing happens", player=t))  # WH-X24
    else:
        w.new_prayed = t


def _heal(w: _Work) -> None:
    """WH-N4, WH-H1: recorded here, weighed against the attacks at WH-N5."""


def _holy_fire_blocked(w: _Work) -> bool:
    """WH-I7: with only the Inquisitor and the last witch alive, fire cannot kill her."""
    inp = w.inp
    coven = w.coven_now & inp.living
    return len(inp.living) == 2 and len(coven) == 1 and inp.inquisitor in inp.living and w.fire in coven


def _resolve(w: _Work) -> None:
    """WH-N5: recruitment against prayer and unconvertible targets, the conversion standing
    before deaths (D15), then deaths against healing (WH-H2, H3, H5, I5)."""
    inp = w.inp
    if w.attempt is not None:
        t = w.attempt
        if w.pray == t:
            w.recruitment = R_SAVED  # WH-I4: the prayer met the recruiter
        elif t in inp.prayed or inp.roles.get(t) == "inquisitor":
            w.recruitment = R_FAILED  # WH-C6, WH-I1
        else:
            w.recruitment, w.converted = R_CONVERTED, t  # WH-C4, WH-C10
    fire = w.fire
    if fire is not None and _holy_fire_blocked(w):
        w.note("WH-I7", pgettext("gm-note", "holy fire cannot kill %(fire)s, the last witch facing the Inquisitor", fire=fire))
        fire = None
    heal = inp.heal
    coven = w.coven_now
    if fire is not None and fire != w.victim:
        if fire in coven:
            w.deaths.append((fire, "holy_fire"))  # WH-I5, WH-H3: no heal saves a witch
            if heal == fire:
                w.note("WH-H3", pgettext("gm-note", "the heal on %(fire)s fails against holy fire", fire=fire))
        elif heal == fire:
            w.saved_from.append("holy_fire")  # WH-H2
        else:
            w.deaths.append((fire, "holy_fire"))  # WH-I5: "from an excess of grace"
    if w.victim is not None:
        if w.victim == fire:
            w.deaths.append((w.victim, "witches_and_fire"))  # WH-H5: both sides, no heal saves
        elif heal == w.victim:
            w.saved_from.append("witches")  # WH-H2, also a player converted tonight (WH-C10)
        else:
            w.deaths.append((w.victim, "witches"))


def _check(w: _Work) -> None:
    """WH-N6, WH-G1: the true card and the status after the witches' and Inquisitor's actions."""
    inp = w.inp
    t = inp.gossip_target
    if inp.gossip is None or t is None:
        return
    role = inp.roles.get(t, "")
    if role == "witch":
        status = "cursed"
    elif t in w.coven_now:
        status = CONVERTED
    elif t in inp.prayed or t == w.new_prayed:
        status = PRAYED
    else:
        status = "innocent"
    w.gossip = (t, role, status)


def _dawn(w: _Work) -> None:
    """WH-N7: nothing to compute; `_outcome` turns the record into facts and PMs."""


STEPS: dict[str, Callable[[_Work], None]] = {
    "kill": _kill, "recruit": _recruit, "inquisitor": _inquisitor, "heal": _heal,
    "resolve": _resolve, "check": _check, "dawn": _dawn,
}


# --------------------------------------------------------------------------- outcome


def _recruitment_facts(w: _Work) -> list[Fact]:
    r = w.recruitment
    if r == R_CONVERTED:
        return [Fact.of("converted", "WH-C4")]
    if r == R_SAVED:
        return [Fact.of("soul_saved", "WH-I4")]
    if r == R_FAILED:
        return [Fact.of("recruit_failed", "WH-C6")]
    if r == R_PASSED:
        return [Fact.of("nobody_converted", "WH-C2")]
    if r == R_BLOCKED and w.inp.blocked_night_post == "nobody_converted":
        return [Fact.of("nobody_converted", "D17")]
    return []  # D17: a blocked night says nothing


def _death_facts(w: _Work) -> list[Fact]:
    out = []
    for p, cause in w.deaths:
        role = w.inp.roles.get(p, "")
        converted = p in w.coven_now and role != "witch"
        out.append(Fact.of("death", "WH-C11" if converted else _DEATH_RULE[cause], player=p, role=role,
                           cause=cause, converted=converted))
    return out


def _private(w: _Work) -> list[PrivateResult]:
    inp = w.inp
    out: list[PrivateResult] = []
    if w.gossip is not None and inp.gossip is not None:
        t, role, status = w.gossip
        out.append(PrivateResult(inp.gossip, Fact.of("gossip_result", "WH-G1", target=t, role=role, status=status)))
    dead = {p for p, _ in w.deaths}
    if w.converted is not None:
        new = w.converted
        others = tuple(p for p in inp.coven if p in inp.living and p not in dead)
        if new not in dead:
            out.append(PrivateResult(new, Fact.of("coven_members", "WH-C4", members=others)))
        for p in others:
            out.append(PrivateResult(p, Fact.of("new_member", "WH-C4", player=new)))
    if w.recruitment == R_SAVED and inp.saved_soul_pm:  # D22 option
        for p in (inp.holder, inp.inquisitor):
            if p is not None:
                out.append(PrivateResult(p, Fact.of("saved_soul", "WH-I4", player=w.attempt)))
    return out


def _effects(w: _Work) -> list[Any]:
    """Status changes first, so a player converted and killed dies as converted (D15)."""
    out: list[Any] = []
    if w.converted is not None:
        out.append(SetStatus(w.converted, add=(CONVERTED,)))
    if w.new_prayed is not None and w.new_prayed not in w.inp.prayed:
        out.append(SetStatus(w.new_prayed, add=(PRAYED,)))
    for p, cause in w.deaths:
        out.append(Kill(p, cause, reveal=True, rule=_DEATH_RULE[cause]))
    return out


def _outcome(w: _Work) -> NightOutcome:
    facts = _recruitment_facts(w) + _death_facts(w)
    announce = w.inp.heal_announce == "any" or "holy_fire" in w.saved_from  # D14
    if w.saved_from and announce:
        facts.append(Fact.of("healed", "WH-H4"))  # D5: names nobody
    if not w.deaths:
        facts.append(Fact.of("nobody_died"))
    return NightOutcome(holder=w.inp.holder, recruitment=w.recruitment, converted=w.converted, victim=w.victim,
                        deaths=tuple(w.deaths), effects=tuple(_effects(w)), facts=tuple(facts),
                        private=tuple(_private(w)), notes=tuple(w.notes))


def resolve(inp: NightInput, order: tuple[str, ...]) -> NightOutcome:
    """Run the night's steps in `order` (the ruleset's NIGHT_ORDER) and report the result."""
    w = _Work(inp)
    for step in order:
        STEPS[step](w)
    return _outcome(w)
