"""lupus-eresia: every scenario LUP-X1..X22 of the spec, then the rules and decisions they do not
cover, then each option's non-default behaviour. Phases come from the ruleset's own default
schedule in Europe/Rome (night 1 opens 1 Dec 2026 18:00; votes close 22:00, days end 22:15,
actions are due and the night ends at 22:30, D20); the GM posts each dawn at 09:00 the next
morning, which opens the next night's action window (D17)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.engine import catalog
from forummod.engine.events import ActionEvent
from forummod.engine.registry import load_ruleset_options
from forummod.engine.ruleset import Setup
from forummod.engine.rulesets.lupus_eresia import LupusEresia
from forummod.engine.schedule import build_phases
from forummod.engine.types import GameRun, PhaseId
from forummod.errors import ConfigError
from forummod.model import Source

from tests.engine.scenario import Scenario, dead, rejected

ROME = ZoneInfo("Europe/Rome")
START = datetime(2026, 12, 1, 18, 0, tzinfo=ROME).astimezone(timezone.utc)

#: the seed's 19-player setup (LUP-S2), one name per seat
FULL = {
    "Vera": "seer", "Paolo": "postman", "Bruno": "gravedigger", "Gemma": "twin_guard", "Gino": "twin_guard",
    "Carlo": "farmer", "Cesare": "farmer", "Chiara": "farmer", "Clara": "farmer", "Cosimo": "farmer",
    "Corrado": "farmer", "Ines": "inquisitor", "Boris": "executioner", "Teo": "templar",
    "Luca": "werewolf", "Lara": "werewolf", "Leo": "werewolf", "Sergio": "grumpy_wolf", "Marta": "martyr",
}
FARMERS = ["Carlo", "Cesare", "Chiara", "Clara", "Cosimo", "Corrado"]


class Lupus(Scenario):
    """A Scenario whose phases come from the ruleset's default timing; times are local clock times."""

    def __init__(self, roles: dict[str, str] | None = None, **options):
        roles = roles or FULL
        super().__init__("lupus-eresia", list(roles), roles, options=options)
        timing = self.rs.default_timing(self.rs.options)
        self.phases = list(build_phases(timing, start=START, tz=ROME, now=START + timedelta(days=12)))
        self.dawn_posts: list[datetime] | None = [self.at(p.name, "09:00") for p in self.phases if p.kind == "day"]

    def run(self, now: datetime | None = None, approve_all: bool = True) -> GameRun:
        """The run with the GM's dawn posts known (D17: each opens the next night's window)."""
        from forummod.engine.core import ListPlan, run_game

        plan = ListPlan(self.phases)
        plan.gm_posts = tuple(sorted(self.dawn_posts)) if self.dawn_posts is not None else None
        end = now or self.phases[-1].end + timedelta(seconds=1)
        return run_game(self.rs, self.setup, plan, list(self.events), now=end, approve_all=approve_all)

    def ph(self, name: str):
        return next(p for p in self.phases if p.name == name)

    def at(self, phase: str, hhmm: str, second: int = 0) -> datetime:
        """The first local `hh:mm` at or after the phase's start (night times may fall next morning)."""
        start = self.ph(phase).start.astimezone(ROME)
        h, m = map(int, hhmm.split(":"))
        t = start.replace(hour=h, minute=m, second=second, microsecond=0)
        if t < start:
            t = (start + timedelta(days=1)).replace(hour=h, minute=m, second=second, microsecond=0)
        return t.astimezone(timezone.utc)

    def v(self, phase: str, hhmm: str, voter: str, target: str) -> "Lupus":
        return self.vote(voter, target, at=self.at(phase, hhmm))

    def a(self, phase: str, hhmm: str, actor: str, action: str, *targets: str, **kw) -> "Lupus":
        return self.act(actor, action, *targets, at=self.at(phase, hhmm), **kw)

    def gm_action(self, phase: str, hhmm: str, actor: str, action: str, *targets: str) -> "Lupus":
        self.seq += 1
        self.events.append(ActionEvent(at=self.at(phase, hhmm), seq=self.seq, actor=actor, action=action,
                                       targets=targets, source=Source("gm"), channel="gm", by_gm=True))
        return self

    def upto(self, phase: str) -> GameRun:
        """Run until the end of `phase` (its resolution approved)."""
        return self.run(now=self.ph(phase).end)

    def lynch(self, phase: str, victim: str, voters: list[str], hhmm: str = "12:00") -> "Lupus":
        for i, v in enumerate(voters):
            self.vote(v, victim, at=self.at(phase, hhmm) + timedelta(minutes=i))
        return self


def pms(run: GameRun, to: str | None = None, key: str | None = None) -> list[tuple[str, str, dict]]:
    return [(r.to, r.fact.key, dict(r.fact.params)) for _, r in run.private
            if (to is None or r.to == to) and (key is None or r.fact.key == key)]


def facts(run: GameRun, key: str) -> list[dict]:
    return [dict(f.params) for _, f in run.facts if f.key == key]


def reasons(run: GameRun, actor: str) -> list[str]:
    return [r.reason for r in run.rejections if r.actor == actor]


def tally(run: GameRun, phase: str):
    return run.tally_for(phase)


# =========================================================================== scenarios LUP-X1..X22


def test_LUP_X1_postino_names_itself_and_gets_the_seers_result_the_seer_gets_nothing():
    """LUP-X1: the Postino names itself and gets the Veggente's result; the Veggente gets nothing."""
    g = Lupus().a("N1", "19:00", "Vera", "check", "Luca").a("N1", "19:05", "Paolo", "deliver", "Paolo")
    run = g.upto("N1")
    assert pms(run, "Paolo") == [("Paolo", "delivered_result", {"target": "Luca", "verdict": "LOSCO"})]  # D13
    assert pms(run, "Vera") == []


def test_LUP_X2_boia_secret_vote_voids_its_public_vote_and_weighs_three_on_a_wolf():
    """LUP-X2: the Boia's secret vote voids its public vote and weighs three on a wolf."""
    g = Lupus().v("D1", "10:00", "Boris", "Carlo").a("D1", "11:00", "Boris", "secret_vote", "Luca")
    run = g.run(now=g.at("D1", "21:00"))
    t = run.current_tally
    assert t.total_for("Carlo") == 0
    assert t.total_for("Luca") == 3
    [boia] = [c for c in t.candidates if c.name == "Luca"][0].voters
    assert boia.voter == "Boris" and boia.weight == 3 and boia.secret
    public = g.rs.tally(run.state, g.at("D1", "21:00"), public=True)  # D11: as posted, weight 1
    assert public.total_for("Carlo") == 1 and public.total_for("Luca") == 0


def test_LUP_X3_tie_lynches_the_candidate_whose_latest_standing_vote_came_first():
    """LUP-X3: tie lynches the candidate whose latest standing vote came first."""
    g = Lupus()
    for hhmm, v in (("10:00", "Carlo"), ("11:00", "Cesare"), ("12:00", "Chiara")):
        g.v("D1", hhmm, v, "Clara")
    g.v("D1", "21:10", "Cosimo", "Clara")  # A = Clara: 4 votes, latest 21:10 ...
    g.unvote("Carlo", at=g.at("D1", "21:11"))  # ... back to 3, latest still 21:10
    for hhmm, v in (("09:30", "Bruno"), ("10:30", "Gemma"), ("20:50", "Gino")):
        g.v("D1", hhmm, v, "Corrado")  # B = Corrado: 3 votes, latest 20:50
    run = g.upto("D1")
    t = tally(run, "D1")
    assert t.total_for("Clara") == t.total_for("Corrado") == 3
    assert dead(run) == {"Corrado"}  # LUP-V4


def test_LUP_X4_twins_may_not_protect_the_same_player_two_nights_running():
    """LUP-X4: twins may not protect the same player two nights running."""
    g = Lupus().a("D1", "12:00", "Gemma", "protect", "Carlo")
    g.a("D2", "12:00", "Gino", "protect", "Carlo").a("D2", "12:05", "Luca", "kill", "Carlo")
    run = g.upto("N3")
    assert ("protect", "Gino", "repeat") in rejected(run)  # D4
    assert "Carlo" in dead(run)  # unprotected on night 3
    assert dict(run.state.x.protected) == {"N2": "Carlo"}


def test_LUP_X5_martyr_eaten_blocks_the_next_kill_only_and_wins_with_the_winner():
    """LUP-X5: martyr eaten blocks the next kill only and wins with the winner."""
    g = Lupus().a("D2", "12:00", "Luca", "kill", "Marta")
    g.a("D3", "12:00", "Luca", "kill", "Carlo")  # night 4: refused
    g.a("D4", "12:00", "Luca", "kill", "Cesare")  # night 5: allowed
    run = g.upto("N5")
    assert ("kill", "Luca", "martyr_block") in rejected(run)
    assert dead(run) == {"Marta", "Cesare"}
    # the wolves win later: the Martire is among the winners (LUP-W5)
    small = {"Marta": "martyr", "Luca": "werewolf", "Carlo": "farmer", "Vera": "seer"}
    g = Lupus(small).a("D1", "12:00", "Luca", "kill", "Marta").lynch("D2", "Vera", ["Luca", "Carlo"])
    run = g.upto("D2")
    assert run.state.outcome.result == "pack" and set(run.state.outcome.winners) == {"Luca", "Marta"}
    # and with Heresy
    g = Lupus(small).a("D1", "12:00", "Luca", "kill", "Marta").lynch("D2", "Luca", ["Vera", "Carlo"])
    run = g.upto("D2")
    assert run.state.outcome.result == "heresy" and "Marta" in run.state.outcome.winners


def test_LUP_X6_lynched_templare_takes_a_designated_heretic_unless_last_inquisition_member():
    """LUP-X6: lynched templare takes a designated heretic unless last inquisition member."""
    g = Lupus().a("D1", "15:00", "Teo", "designate", "Vera").lynch("D1", "Teo", FARMERS)
    run = g.upto("D1")
    assert dead(run) == {"Teo", "Vera"}
    assert facts(run, "death") == [{"player": "Vera", "cause": "templar", "role": "seer",
                                    "faction": "VILLAGGIO/ERESIA"}]
    g = Lupus().lynch("D1", "Ines", FARMERS).lynch("D2", "Boris", FARMERS)
    g.a("D3", "15:00", "Teo", "designate", "Vera").lynch("D3", "Teo", FARMERS)
    run = g.upto("D3")
    assert dead(run) == {"Ines", "Boris", "Teo"}  # last inquisition member: nothing


def test_LUP_X7_inquisitore_learns_eretico_or_non_eretico():
    """LUP-X7: inquisitore learns eretico or non eretico."""
    g = Lupus().a("N1", "19:00", "Ines", "check", "Carlo").a("D1", "12:00", "Ines", "check", "Gemma")
    run = g.upto("N2")
    assert [p["verdict"] for _, _, p in pms(run, "Ines", "inquisitor_result")] == ["NON ERETICO", "ERETICO"]


def test_LUP_X8_pack_wins_at_once_when_wolves_equal_humans_after_a_lynch():
    """LUP-X8: pack wins at once when wolves equal humans after a lynch."""
    roles = {"Luca": "werewolf", "Lara": "werewolf", "Leo": "werewolf", "Sergio": "grumpy_wolf",
             "Vera": "seer", "Carlo": "farmer", "Cesare": "farmer", "Ines": "inquisitor", "Boris": "executioner"}
    g = Lupus(roles).lynch("D1", "Carlo", ["Luca", "Lara", "Leo", "Sergio"])
    run = g.upto("D1")
    out = run.state.outcome
    assert out.result == "pack" and out.rule == "LUP-W1"
    assert set(out.winners) == {"Luca", "Lara", "Leo", "Sergio"}


def test_LUP_X9_scorbutico_learns_the_names_of_the_players_who_checked_it():
    """LUP-X9: scorbutico learns the names of the players who checked it."""
    g = Lupus().a("N1", "19:00", "Vera", "check", "Sergio").a("N1", "19:01", "Ines", "check", "Sergio")
    run = g.upto("N1")
    assert pms(run, "Sergio") == [("Sergio", "visitors", {"players": ("Ines", "Vera")})]


def test_LUP_X10_a_vote_at_2201_or_shown_as_2200_is_late():
    """LUP-X10: a vote at 22:01, or shown as 22:00 (D18), is late."""
    g = Lupus().v("D1", "12:00", "Carlo", "Cesare").v("D1", "22:00", "Chiara", "Clara")
    g.v("D1", "22:00", "Clara", "Clara").v("D1", "22:01", "Cosimo", "Clara")
    run = g.upto("D1")
    assert dead(run) == {"Cesare"}
    assert {(a, r) for k, a, r in rejected(run) if k == "vote"} == {("Chiara", "late"), ("Clara", "late"),
                                                                   ("Cosimo", "late")}


def test_LUP_X11_boia_secret_vote_is_timed_at_its_public_vote():
    """LUP-X11: the Boia's secret vote is timed at its public vote (D10)."""
    g = Lupus().v("D1", "11:40", "Boris", "Carlo").a("D1", "20:30", "Boris", "secret_vote", "Luca")
    g.v("D1", "09:05", "Cesare", "Luca").v("D1", "10:50", "Chiara", "Luca")
    for hhmm, v in (("12:00", "Clara"), ("13:00", "Cosimo"), ("14:00", "Corrado"), ("15:00", "Bruno"),
                    ("18:20", "Gemma")):
        g.v("D1", hhmm, v, "Carlo")
    run = g.upto("D1")
    t = tally(run, "D1")
    assert t.total_for("Luca") == t.total_for("Carlo") == 5
    boia = [r for r in t.candidates[0].voters if r.voter == "Boris"][0]
    assert boia.at == g.at("D1", "11:40") and boia.weight == 3
    assert dead(run) == {"Luca"}


def test_LUP_X12_a_pm_only_boia_vote_counts_as_the_last_vote_cast():
    """LUP-X12: a PM-only Boia vote counts as the last vote cast (D10)."""
    g = Lupus().a("D1", "09:30", "Boris", "secret_vote", "Carlo").v("D1", "09:40", "Cesare", "Carlo")
    g.v("D1", "10:00", "Chiara", "Cosimo").v("D1", "21:50", "Clara", "Cosimo")
    run = g.upto("D1")
    t = tally(run, "D1")
    assert t.total_for("Carlo") == t.total_for("Cosimo") == 2
    assert [r.voter for r in t.candidates[1].voters][-1] == "Boris"  # listed last too
    assert dead(run) == {"Cosimo"}


def test_LUP_X13_postino_naming_the_veggente_changes_nothing_visible():
    """LUP-X13: postino naming the veggente changes nothing visible."""
    g = Lupus().a("N1", "19:00", "Paolo", "deliver", "Vera").a("N1", "19:01", "Vera", "check", "Carlo")
    run = g.upto("N1")
    assert pms(run, "Vera") == [("Vera", "seer_result", {"target": "Carlo", "verdict": "INNOCENTE"})]
    assert [p for p in pms(run) if p[0] not in ("Vera", "Sergio")] == []


def test_LUP_X14_protected_victim_survives_and_a_protected_martire_blocks_nothing():
    """LUP-X14: protected victim survives and a protected martire blocks nothing."""
    g = Lupus().a("D1", "12:00", "Luca", "kill", "Carlo").a("D1", "12:01", "Gemma", "protect", "Carlo")
    run = g.upto("N2")
    assert dead(run) == set()
    assert facts(run, "nobody_died") == [{}] * 2  # N1 and N2; never "protected" (D8)
    g = Lupus().a("D1", "12:00", "Luca", "kill", "Marta").a("D1", "12:01", "Gemma", "protect", "Marta")
    g.a("D2", "12:00", "Lara", "kill", "Cesare")
    run = g.upto("N3")
    assert dead(run) == {"Cesare"}  # D7


def test_LUP_X15_survivor_twin_loses_the_power_when_the_other_is_lynched():
    """LUP-X15: survivor twin loses the power when the other is lynched."""
    g = Lupus().lynch("D2", "Gemma", FARMERS, hhmm="10:00").a("D2", "22:05", "Gino", "protect", "Carlo")
    run = g.upto("N3")
    assert ("protect", "Gino", "twin_dead") in rejected(run)
    # a PM sent before the lynch is dropped at the deadline
    g = Lupus().a("D2", "09:30", "Gino", "protect", "Carlo").lynch("D2", "Gemma", FARMERS, hhmm="10:00")
    g.a("D2", "12:00", "Luca", "kill", "Carlo")
    run = g.upto("N3")
    assert ("protect", "Gino", "twin_dead") in rejected(run)
    assert "Carlo" in dead(run)


def test_LUP_X16_last_wolf_lynched_with_a_heretic_alive_heresy_wins():
    """LUP-X16, LUP-W4, LUP-W7: last wolf lynched with a heretic alive: Heresy wins with the
    Contadini, dead ones included."""
    roles = {"Vera": "seer", "Gemma": "twin_guard", "Carlo": "farmer", "Cesare": "farmer", "Boris": "executioner",
             "Teo": "templar", "Marta": "martyr", "Luca": "werewolf"}
    g = Lupus(roles).a("D1", "12:00", "Luca", "kill", "Cesare").lynch("D2", "Luca", ["Vera", "Carlo", "Boris"])
    run = g.upto("D2")
    out = run.state.outcome
    assert out.result == "heresy" and out.rule == "LUP-W2"
    assert set(out.winners) == {"Vera", "Gemma", "Carlo", "Cesare"}  # dead Contadino included; no Martire
    assert "Boris" not in out.winners and "Teo" not in out.winners


def test_LUP_X17_inquisition_wins_without_heretics_and_heresy_when_both_are_gone():
    """LUP-X17: inquisition wins without heretics and heresy when both are gone."""
    roles = {"Vera": "seer", "Carlo": "farmer", "Cesare": "farmer", "Boris": "executioner", "Luca": "werewolf",
             "Marta": "martyr"}
    g = Lupus(roles).lynch("D1", "Vera", ["Luca", "Carlo", "Marta"]).lynch("D2", "Luca", ["Boris", "Carlo", "Cesare"])
    run = g.upto("D2")
    out = run.state.outcome
    assert out.result == "inquisition" and out.rule == "LUP-W3"
    assert set(out.winners) == {"Boris", "Carlo", "Cesare"}
    g = Lupus(roles).lynch("D1", "Vera", ["Luca", "Carlo", "Marta"]).lynch("D2", "Boris", ["Luca", "Carlo", "Cesare"])
    g.lynch("D3", "Luca", ["Carlo", "Cesare", "Marta"])
    run = g.upto("D3")
    assert run.state.outcome.result == "heresy"  # no heretic alive, but no inquisition either
    assert set(run.state.outcome.winners) == {"Vera", "Carlo", "Cesare"}


def _x18(g: Lupus) -> Lupus:
    return g.a("D1", "15:00", "Teo", "designate", "Vera").a("D1", "22:05", "Teo", "designate", "Paolo")


def test_LUP_X18_templare_designation_deadline_depends_on_how_it_dies():
    """LUP-X18: templare designation deadline depends on how it dies."""
    run = _x18(Lupus()).lynch("D1", "Teo", FARMERS).upto("D1")
    assert dead(run) == {"Teo", "Vera"}  # the 22:05 PM is after LUP-T1
    run = _x18(Lupus()).a("D1", "12:00", "Luca", "kill", "Teo").upto("N2")
    assert dead(run) == {"Teo", "Paolo"}  # before LUP-T3 of the night it is killed
    assert [f["player"] for f in facts(run, "death")] == ["Teo", "Paolo"]


def test_LUP_X19_scorbutico_as_postino_recipient_protected_by_both_twins():
    """LUP-X19: scorbutico as postino recipient protected by both twins."""
    g = Lupus().a("D2", "12:00", "Paolo", "deliver", "Sergio").a("D2", "12:01", "Gemma", "protect", "Sergio")
    g.a("D2", "12:02", "Vera", "check", "Carlo")
    run = g.upto("N3")
    n3 = [r for ph, r in run.private if ph == "N3"]
    assert [(r.to, r.fact.key, dict(r.fact.params)) for r in n3 if r.to == "Sergio"] == [
        ("Sergio", "delivered_result", {"target": "Carlo", "verdict": "INNOCENTE"}),
        ("Sergio", "visitors", {"players": ("Gemma", "Gino", "Paolo")}),
    ]


def test_LUP_X20_scorbutico_told_it_is_the_last_wolf_and_kills_from_the_next_night():
    """LUP-X20: scorbutico told it is the last wolf and kills from the next night."""
    roles = dict(FULL, Lara="farmer", Leo="farmer")  # one Lupo Mannaro and the Scorbutico
    g = Lupus(roles).a("D2", "12:00", "Sergio", "kill", "Carlo").lynch("D2", "Luca", FARMERS)
    g.a("D2", "22:05", "Sergio", "kill", "Cesare")
    run = g.upto("N3")
    assert ("kill", "Sergio", "not_entitled") in rejected(run)  # before the lynch
    assert [(ph, key) for ph, r in run.private for key in [r.fact.key] if r.to == "Sergio"
            and key == "last_wolf"] == [("D2", "last_wolf")]  # with the lynch post
    assert dead(run) == {"Luca", "Cesare"}


def test_LUP_X21_boia_public_vote_on_a_heretic_weighs_three():
    """LUP-X21: the Boia's public vote on a heretic weighs three."""
    g = Lupus().v("D1", "10:00", "Boris", "Gemma")
    run = g.run(now=g.at("D1", "12:00"))
    assert run.current_tally.total_for("Gemma") == 3


def test_LUP_X22_last_wolf_pm_counts_and_a_late_twins_pm_is_not_carried_over():
    """LUP-X22: the last wolf PM counts (D2) and a late Twins PM is not carried over (D17)."""
    g = Lupus().a("N2", "22:16", "Luca", "kill", "Carlo").a("N2", "22:24", "Lara", "kill", "Cesare")
    g.a("N2", "22:40", "Gemma", "protect", "Chiara").a("D2", "12:00", "Leo", "kill", "Chiara")
    run = g.upto("N3")
    assert dead(run) == {"Cesare", "Chiara"}
    assert ("protect", "Gemma", "late") in rejected(run)
    assert any(e.kind == "superseded" and "Luca" in e.text and "Carlo" in e.text for e in run.log)


# =========================================================================== setting and schedule


def test_LUP_S1_votes_count_in_the_thread_and_powers_only_by_pm():
    """LUP-S1: votes count in the thread and powers only by pm."""
    g = Lupus()
    g.vote("Carlo", "Cesare", at=g.at("D1", "12:00"), channel="pm")
    g.a("N1", "19:00", "Vera", "check", "Luca", channel="thread")
    run = g.upto("D1")
    assert dead(run) == set()
    assert ("check", "Vera", "not_by_pm") in rejected(run)


def test_LUP_S2_default_setup_has_nineteen_players_and_other_counts_play():
    """LUP-S2: default setup has nineteen players and other counts play."""
    setup = LupusEresia.DEFAULT_SETUP
    assert sum(setup.values()) == 19 and set(setup) == set(catalog.ROLES["lupus-eresia"])
    rs = LupusEresia()
    dealt = rs.deal(Setup(tuple(f"P{i}" for i in range(19)), {}, seed=7), setup)
    assert sorted(dealt.roles.values()) == sorted(r for r, n in setup.items() for _ in range(n))
    assert dealt == rs.deal(Setup(tuple(f"P{i}" for i in range(19)), {}, seed=7), setup)  # replayable
    small = {"Luca": "werewolf", "Vera": "seer", "Carlo": "farmer", "Cesare": "farmer", "Ines": "inquisitor"}
    run = Lupus(small).lynch("D1", "Luca", ["Vera", "Carlo"]).upto("D1")
    assert run.state.outcome.result == "heresy"


def test_LUP_S3_the_game_opens_with_night_one_for_information_roles_only():
    """LUP-S3: D1: no kill and no protection on night 1; Veggente, Postino, Inquisitore act."""
    g = Lupus()
    assert [p.name for p in g.phases[:3]] == ["N1", "D1", "N2"]
    g.a("N1", "19:00", "Luca", "kill", "Carlo").a("N1", "19:00", "Gemma", "protect", "Carlo")
    g.a("N1", "19:01", "Vera", "check", "Carlo")
    run = g.upto("N1")
    assert ("kill", "Luca", "not_yet") in rejected(run) and ("protect", "Gemma", "not_yet") in rejected(run)
    assert pms(run, "Vera", "seer_result")
    cards = {r.to: r.fact for r in g.rs.role_pms(run.state)}  # roles are handed out by PM
    assert cards["Vera"].get("role") == "seer" and cards["Vera"].get("seen_as") == "INNOCENTE"


def test_LUP_S4_G2_G3_R3_cemetery_readers_and_posting_violations():
    """LUP-S4, LUP-G2, LUP-G3, LUP-R3: cemetery readers and posting violations."""
    run = Lupus().lynch("D1", "Carlo", FARMERS[1:]).upto("D1")
    rs, st = LupusEresia(), run.state
    assert set(rs.cemetery_readers(st)) == {"Carlo", "Bruno"}  # the dead and the living Becchino
    assert rs.posting_violation(st, "Carlo", "game") == "LUP-G2"  # dead posting in the game thread
    assert rs.posting_violation(st, "Vera", "graveyard") == "LUP-G2"  # living in the cemetery
    assert rs.posting_violation(st, "Bruno", "graveyard") == "LUP-G3"  # Becchino reads, never writes
    assert rs.posting_violation(st, "Carlo", "graveyard") is None
    assert rs.posting_violation(st, "Vera", "game") is None


def test_LUP_G1_R4_R6_R9_R10_role_pms_state_who_knows_whom():
    """LUP-G1, LUP-R4, LUP-R6, LUP-R9, LUP-R10: the role PMs state who knows whom."""
    st = Lupus().upto("N1").state
    cards = {r.to: r.fact for r in LupusEresia().role_pms(st)}
    assert cards["Luca"].get("allies") == ("Lara", "Leo") and cards["Luca"].get("grumpy") == ("Sergio",)
    assert cards["Sergio"].get("allies") == ()  # the Scorbutico knows nobody
    assert cards["Gemma"].get("allies") == ("Gino",)
    assert cards["Ines"].get("allies") == ("Boris", "Teo")  # the pair, not which is which
    assert cards["Boris"].get("allies") == () and cards["Teo"].get("allies") == ()
    assert LupusEresia.SETUP_INFO["private_channels"] == (("werewolf",), ("twin_guard",))


def test_LUP_R9_R10_the_role_pm_facts_of_a_player_are_its_role_pm():
    """LUP-R9, LUP-R10: `role_pm_facts` (what the drafted role PM adds) is that player's own
    `role` fact: a Lupo Mannaro's names the Scorbutico, the Scorbutico's names no wolf."""
    st = Lupus().upto("N1").state
    rs = LupusEresia()
    (luca,) = rs.role_pm_facts(st, "Luca")
    (sergio,) = rs.role_pm_facts(st, "Sergio")
    assert luca.key == "role" and luca.get("grumpy") == ("Sergio",) and luca.get("allies") == ("Lara", "Leo")
    assert sergio.get("role") == "grumpy_wolf" and sergio.get("allies") == () and sergio.get("grumpy") is None
    assert rs.role_pm_facts(st, "Nobody") == ()


def test_LUP_G4_G5_abstaining_is_allowed_and_a_bare_vote_counts():
    """LUP-G4, LUP-G5: abstaining is allowed and a bare vote counts."""
    g = Lupus().v("D1", "12:00", "Carlo", "Cesare")
    run = g.run(now=g.at("D1", "13:00"))
    t = run.current_tally
    assert t.total_for("Cesare") == 1  # no motivation needed
    assert "Carlo" not in t.not_voting and "Vera" in t.not_voting and len(t.not_voting) == 18
    assert LupusEresia.SETUP_INFO["abstention_allowed"] and not LupusEresia.SETUP_INFO["vote_motivation_required"]


def test_LUP_G6_G7_no_taverns_and_medium_difficulty():
    """LUP-G6, LUP-G7: no taverns and medium difficulty."""
    assert LupusEresia.SETUP_INFO["taverns"] is False
    assert LupusEresia.SETUP_INFO["difficulty"] == "media"
    assert not any("tavern" in verb for verb in catalog.ACTIONS["lupus-eresia"])


def test_LUP_T1_T2_T3_T4_D20_default_schedule_the_night_ends_at_LUP_T3_the_same_evening():
    """LUP-T1, LUP-T2, LUP-T3, LUP-T4, D20: votes close 22:00, the day ends 22:15, the night's
    actions are due and the night ends at 22:30 the same evening (night 1: the first 22:30 after
    the opening post); the next day runs from there to 22:15 of the next evening."""
    g = Lupus()
    local = lambda dt: dt.astimezone(ROME).strftime("%d %H:%M")  # noqa: E731
    n1, d1, n2 = g.ph("N1"), g.ph("D1"), g.ph("N2")
    assert local(n1.action_deadline) == "01 22:30" and local(n1.end) == "01 22:30"
    assert local(d1.start) == "01 22:30" and local(d1.vote_close) == "02 22:00" and local(d1.end) == "02 22:15"
    assert local(n2.start) == "02 22:15" and local(n2.action_deadline) == "02 22:30" and local(n2.end) == "02 22:30"


def test_D20_option_a_longer_night_is_the_gms_schedule_setting():
    """D20 option: `[schedule] night_end = "09:00"` keeps the night to the next morning (actions
    still due at LUP-T3); with `action_deadline` too ("24h15m") the night runs to the next LUP-T3."""
    from forummod.engine.schedule import merged_timing

    local = lambda dt: dt.astimezone(ROME).strftime("%d %H:%M")  # noqa: E731
    timing = LupusEresia.default_timing(LupusEresia().options)
    morning = build_phases(merged_timing(timing, {"night_end": "09:00"}), start=START, tz=ROME,
                           now=START + timedelta(days=3))
    n2 = next(p for p in morning if p.name == "N2")
    assert local(n2.action_deadline) == "02 22:30" and local(n2.end) == "03 09:00"
    long = build_phases(merged_timing(timing, {"night_end": "24h15m", "action_deadline": "24h15m"}),
                        start=START, tz=ROME, now=START + timedelta(days=4))
    n2 = next(p for p in long if p.name == "N2")
    assert local(n2.start) == "02 22:15" and local(n2.action_deadline) == "03 22:30" and local(n2.end) == "03 22:30"


def test_LUP_X22_D17_a_pm_after_LUP_T3_and_before_the_dawn_post_counts_for_no_night():
    """D17, D20: the night ends at 22:30; a PM at 23:00, before the GM's dawn post of 09:00, is
    late for night 2 (rule D17) and not used on night 3; one after the dawn post is for night 3."""
    g = Lupus().a("N2", "23:00", "Gemma", "protect", "Chiara").a("D2", "10:00", "Gino", "protect", "Carlo")
    run = g.run(now=g.at("D2", "12:00"))
    late = [r for r in run.rejections if r.actor == "Gemma"]
    assert [(r.reason, r.rule) for r in late] == [("late", "D17")]
    nights = {actor: night for (_, actor, _), night in run.action_nights.items()}
    assert nights == {"Gemma": "N2", "Gino": "N3"}


def test_D17_a_pm_stamped_in_the_dawn_posts_minute_is_for_the_next_night():
    """D17, D18: a PM the forum stamps "09:00" (minute stamps: phpBB, MyBB, SMF inbox pages)
    after the GM's dawn post of 09:00:25 is not known to be before it: it counts for night 3
    (seen live on phpBB, tests/realforum/test_live_games.py); a PM stamped 08:59 is late."""
    g = Lupus().a("D2", "09:00", "Gino", "protect", "Carlo").a("D2", "08:59", "Gemma", "protect", "Chiara")
    g.dawn_posts = [t + timedelta(seconds=25) for t in g.dawn_posts]
    run = g.run(now=g.at("D2", "12:00"))
    nights = {actor: night for (_, actor, _), night in run.action_nights.items()}
    assert nights == {"Gino": "N3", "Gemma": "N2"}
    assert [(r.actor, r.reason, r.rule) for r in run.rejections] == [("Gemma", "late", "D17")]


def test_D17_without_known_gm_posts_the_day_opens_the_next_nights_window():
    """D17: when the GM's posts are not known (no GM in the config), the day's start opens it."""
    g = Lupus().a("N2", "23:00", "Gemma", "protect", "Chiara")
    g.dawn_posts = None
    run = g.run(now=g.at("D2", "12:00"))
    assert not [r for r in run.rejections if r.actor == "Gemma"]
    assert list(run.action_nights.values()) == ["N3"]


def test_LUP_F1_role_table_matches_the_spec():
    """LUP-F1: role table matches the spec."""
    expect = {
        "seer": ("VILLAGGIO/ERESIA", "INNOCENTE", "UMANO"), "postman": ("VILLAGGIO/ERESIA", "INNOCENTE", "UMANO"),
        "gravedigger": ("VILLAGGIO/ERESIA", "INNOCENTE", "UMANO"),
        "twin_guard": ("VILLAGGIO/ERESIA", "INNOCENTE", "UMANO"), "farmer": ("VILLAGGIO", "INNOCENTE", "UMANO"),
        "inquisitor": ("VILLAGGIO/INQUISIZIONE", "INNOCENTE", "UMANO"),
        "executioner": ("VILLAGGIO/INQUISIZIONE", "LOSCO", "UMANO"),
        "templar": ("VILLAGGIO/INQUISIZIONE", "INNOCENTE", "UMANO"), "werewolf": ("BRANCO", "LOSCO", "LUPO"),
        "grumpy_wolf": ("BRANCO", "LOSCO", "LUPO"), "martyr": ("SOLITARIO", "INNOCENTE", "UMANO"),
    }
    assert {r: (s.faction, s.seen_as, s.counts_as) for r, s in LupusEresia.ROLES.items()} == expect


# =========================================================================== roles


def test_LUP_R1_veggente_learns_the_seen_attribute_and_may_not_check_itself():
    """LUP-R1: veggente learns the seen attribute and may not check itself."""
    g = Lupus().a("N1", "19:00", "Vera", "check", "Vera").a("N1", "19:01", "Vera", "check", "Boris")
    g.a("D1", "12:00", "Vera", "check", "Teo")
    run = g.upto("N2")
    assert ("check", "Vera", "self_target") in rejected(run)
    assert [p["verdict"] for _, _, p in pms(run, "Vera")] == ["LOSCO", "INNOCENTE"]  # the Boia is LOSCO


def test_LUP_R2_postino_without_a_seer_check_delivers_nothing_and_a_dead_recipient_still_receives():
    """LUP-R2: postino without a seer check delivers nothing and a dead recipient still receives."""
    run = Lupus().a("N1", "19:00", "Paolo", "deliver", "Carlo").upto("N1")
    assert pms(run, "Carlo") == [] and pms(run, "Paolo") == []
    g = Lupus().a("D1", "12:00", "Paolo", "deliver", "Carlo").a("D1", "12:01", "Vera", "check", "Lara")
    g.a("D1", "12:02", "Luca", "kill", "Carlo")
    run = g.upto("N2")
    assert "Carlo" in dead(run)
    assert pms(run, "Carlo") == [("Carlo", "delivered_result", {"target": "Lara", "verdict": "LOSCO"})]


def test_LUP_R4_twins_protect_only_from_the_wolves_never_themselves():
    """LUP-R4: The Templare's trigger kills a heretic the Twins protected; a twin cannot be protected."""
    g = Lupus().a("D1", "12:00", "Gemma", "protect", "Gino").a("D1", "12:01", "Gino", "protect", "Vera")
    g.a("D1", "12:02", "Teo", "designate", "Vera").a("D1", "12:03", "Luca", "kill", "Teo")
    run = g.upto("N2")
    assert ("protect", "Gemma", "twin_target") in rejected(run)
    assert dead(run) == {"Teo", "Vera"}


def test_LUP_R4_D3_twins_disagreeing_the_last_pm_counts():
    """LUP-R4, D3: twins disagreeing: the last PM counts."""
    g = Lupus().a("D1", "12:00", "Gemma", "protect", "Carlo").a("D1", "12:05", "Gino", "protect", "Cesare")
    g.a("D1", "12:10", "Luca", "kill", "Cesare")
    run = g.upto("N2")
    assert dead(run) == set() and dict(run.state.x.protected) == {"N2": "Cesare"}


def test_LUP_R5_contadino_has_no_power():
    """LUP-R5: contadino has no power."""
    run = Lupus().a("N1", "19:00", "Carlo", "check", "Luca").upto("N1")
    assert ("check", "Carlo", "wrong_role") in rejected(run)


def test_LUP_R6_inquisitore_may_not_check_itself():
    """LUP-R6: inquisitore may not check itself."""
    run = Lupus().a("N1", "19:00", "Ines", "check", "Ines").upto("N1")
    assert ("check", "Ines", "self_target") in rejected(run)


def test_LUP_R7_boia_changes_its_secret_vote_until_the_close_and_rejections_stay_private():
    """LUP-R7: boia changes its secret vote until the close and rejections stay private."""
    g = Lupus().a("D1", "10:00", "Boris", "secret_vote", "Carlo").a("D1", "11:00", "Boris", "secret_vote", "Luca")
    g.a("D1", "22:00", "Boris", "secret_vote", "Carlo").a("N1", "20:00", "Boris", "secret_vote", "Carlo")
    g.a("D1", "12:00", "Carlo", "secret_vote", "Luca")
    run = g.upto("D1")
    assert dead(run) == {"Luca"}
    assert set(reasons(run, "Boris")) == {"late", "no_vote_now"} and reasons(run, "Carlo") == ["wrong_role"]
    assert all(not r.public for r in run.rejections if r.kind == "secret_vote")  # D11


def test_LUP_R8_designation_of_itself_or_a_non_heretic_does_nothing():
    """LUP-R8: D9: a non-heretic is not harmed; a self-designation has no effect."""
    g = Lupus().a("D1", "12:00", "Teo", "designate", "Carlo").lynch("D1", "Teo", FARMERS[1:])
    assert dead(g.upto("D1")) == {"Teo"}
    g = Lupus().a("D1", "12:00", "Teo", "designate", "Vera").a("D1", "13:00", "Teo", "designate", "Teo")
    assert dead(g.lynch("D1", "Teo", FARMERS).upto("D1")) == {"Teo"}
    run = Lupus().a("D1", "12:00", "Carlo", "designate", "Vera").upto("D1")
    assert ("designate", "Carlo", "wrong_role") in rejected(run)


def test_LUP_R8_W6_gm_kill_of_the_templare_applies_the_trigger_and_checks_the_win():
    """LUP-R8, LUP-W6: a GM kill of the Templare applies the trigger and checks the win."""
    g = Lupus().a("D1", "12:00", "Teo", "designate", "Vera")
    g.gm("kill", "Teo", at=g.at("D1", "13:00"))
    run = g.run(now=g.at("D1", "14:00"))
    assert dead(run) == {"Teo", "Vera"}
    roles = {"Luca": "werewolf", "Vera": "seer", "Carlo": "farmer", "Cesare": "farmer", "Boris": "executioner"}
    g = Lupus(roles)
    g.gm("kill", "Luca", at=g.at("D1", "13:00"))
    assert g.run(now=g.at("D1", "14:00")).state.outcome.result == "heresy"


def test_LUP_W6_lynch_and_its_templare_trigger_are_checked_together():
    """LUP-W6: lynch and its templare trigger are checked together."""
    roles = {"Luca": "werewolf", "Lara": "werewolf", "Teo": "templar", "Vera": "seer", "Boris": "executioner",
             "Carlo": "farmer"}
    g = Lupus(roles).a("D1", "12:00", "Teo", "designate", "Vera").lynch("D1", "Teo", ["Luca", "Lara", "Carlo"])
    run = g.upto("D1")
    assert dead(run) == {"Teo", "Vera"}  # 2 wolves, 2 humans: only after both deaths
    assert run.state.outcome.result == "pack"


def test_LUP_R9_wolves_may_not_eat_a_wolf_nor_a_dead_player():
    """LUP-R9: D19 and D4; the Lupo Scorbutico counts as a wolf."""
    g = Lupus().a("D1", "12:00", "Luca", "kill", "Sergio").lynch("D1", "Carlo", FARMERS[1:])
    g.a("D1", "22:05", "Lara", "kill", "Carlo")
    run = g.upto("N2")
    assert ("kill", "Luca", "wolf_target") in rejected(run) and ("kill", "Lara", "dead_target") in rejected(run)
    assert dead(run) == {"Carlo"}


def test_LUP_R10_scorbutico_kill_rejected_while_other_wolves_live_and_never_a_visit():
    """LUP-R10: scorbutico kill rejected while other wolves live and never a visit."""
    g = Lupus().a("D1", "12:00", "Sergio", "kill", "Carlo").a("D1", "12:01", "Luca", "kill", "Sergio")
    run = g.upto("N2")
    assert ("kill", "Sergio", "not_entitled") in rejected(run)
    assert pms(run, "Sergio", "visitors")[-1][2] == {"players": ()}  # "nessuno"


def test_LUP_R11_martire_eaten_is_recorded_as_a_wolf_kill():
    """LUP-R11: martire eaten is recorded as a wolf kill."""
    run = Lupus().a("D1", "12:00", "Luca", "kill", "Marta").upto("N2")
    assert run.state.player("Marta").death.cause == "wolves"
    assert run.state.x.no_kill_nights == {"N3"}


def test_LUP_N1_N2_N3_N4_N5_N6_one_night_in_order():
    """LUP-N1, LUP-N2, LUP-N3, LUP-N4, LUP-N5, LUP-N6: Postino before Veggente (redirect),
    Inquisitore, Twins before the wolves, then the dawn:
    deaths, Templare trigger, the Scorbutico's visitors, each actor's private result."""
    g = Lupus().a("D1", "12:00", "Paolo", "deliver", "Gino").a("D1", "12:01", "Vera", "check", "Sergio")
    g.a("D1", "12:02", "Ines", "check", "Sergio").a("D1", "12:03", "Gemma", "protect", "Carlo")
    g.a("D1", "12:04", "Luca", "kill", "Teo").a("D1", "12:05", "Teo", "designate", "Gemma")
    run = g.upto("N2")
    n2 = [(r.to, r.fact.key) for ph, r in run.private if ph == "N2"]
    assert n2 == [("Gino", "delivered_result"), ("Ines", "inquisitor_result"), ("Sergio", "visitors")]
    assert pms(run, "Sergio", "visitors")[-1][2] == {"players": ("Ines", "Vera")}
    assert [(f["player"], f["cause"]) for f in facts(run, "death")] == [("Teo", "wolves"), ("Gemma", "templar")]
    assert run.state.proposal("night:N2").status == "approved"


# =========================================================================== day


def test_LUP_V1_one_vote_per_living_player_replaced_withdrawn_and_dead_votes_ignored():
    """LUP-V1: D16: later vote replaces, unvote withdraws, votes by/for the dead and non-players rejected."""
    g = Lupus().v("D1", "10:00", "Cesare", "Chiara").v("D1", "10:05", "Cesare", "Clara")
    g.v("D1", "10:10", "Cosimo", "Clara").unvote("Cosimo", at=g.at("D1", "10:20"))
    g.v("D1", "10:30", "Corrado", "Nessuno").v("D1", "10:40", "Corrado", "Corrado")  # a vote for oneself counts
    run = g.run(now=g.at("D1", "21:00"))
    t = run.current_tally
    assert t.total_for("Clara") == 1 and t.total_for("Chiara") == 0 and t.total_for("Corrado") == 1
    assert ("vote", "Corrado", "non_player_target") in rejected(run)
    g = Lupus().lynch("D1", "Carlo", FARMERS[1:]).v("D2", "12:00", "Carlo", "Luca").v("D2", "12:01", "Cesare", "Carlo")
    run = g.upto("D2")
    assert ("vote", "Carlo", "dead_voter") in rejected(run) and ("vote", "Cesare", "dead_target") in rejected(run)


def test_LUP_V2_public_count_shows_public_votes_only_gm_view_shows_time_weight_and_secret():
    """LUP-V2: public count shows public votes only gm view shows time weight and secret."""
    g = Lupus().v("D1", "10:00", "Boris", "Carlo").a("D1", "11:00", "Boris", "secret_vote", "Gemma")
    g.v("D1", "10:30", "Cesare", "Gemma")
    run = g.run(now=g.at("D1", "12:00"))
    gm = run.current_tally
    assert not gm.public and gm.total_for("Gemma") == 4 and gm.total_for("Carlo") == 0
    boia = [r for r in gm.candidates[0].voters if r.voter == "Boris"][0]
    assert boia.at == g.at("D1", "10:00") and boia.weight == 3 and boia.secret and "Boia x3" in boia.note
    pub = g.rs.tally(run.state, g.at("D1", "12:00"), public=True)
    assert pub.public and pub.total_for("Carlo") == 1 and pub.total_for("Gemma") == 1
    assert all(not r.secret and r.weight == 1 for c in pub.candidates for r in c.voters)


def test_LUP_V3_V6_most_votes_is_lynched_and_the_role_is_revealed():
    """LUP-V3, LUP-V6: most votes is lynched and the role is revealed (D5)."""
    g = Lupus().lynch("D1", "Luca", ["Carlo", "Cesare"]).v("D1", "13:00", "Lara", "Carlo")
    run = g.upto("D1")
    assert dead(run) == {"Luca"}
    assert facts(run, "lynched") == [{"player": "Luca", "role": "werewolf", "faction": "BRANCO"}]
    assert run.state.player("Luca").death.revealed == "werewolf"


def test_LUP_V4_D10_same_timestamp_goes_by_thread_order_and_revoting_keeps_the_earlier_time():
    """LUP-V4, D10: same timestamp goes by thread order and revoting keeps the earlier time."""
    g = Lupus().v("D1", "10:00", "Carlo", "Clara").v("D1", "10:00", "Cesare", "Cosimo")  # same minute
    run = g.upto("D1")
    assert dead(run) == {"Clara"}  # Carlo's post came first
    g = Lupus().v("D1", "10:00", "Carlo", "Clara").v("D1", "11:00", "Cesare", "Cosimo")
    g.v("D1", "12:00", "Carlo", "Clara")  # a repeat: still 10:00
    assert dead(g.upto("D1")) == {"Clara"}
    g = Lupus().v("D1", "10:00", "Carlo", "Clara").v("D1", "11:00", "Cesare", "Cosimo")
    g.unvote("Carlo", at=g.at("D1", "11:30")).v("D1", "12:00", "Carlo", "Clara")  # cast again: new time
    assert dead(g.upto("D1")) == {"Cosimo"}
    g = Lupus().v("D1", "10:00", "Carlo", "Clara").v("D1", "09:00", "Cesare", "Cosimo")
    g.v("D1", "11:00", "Chiara", "Corrado")  # three tied: the same rule picks one
    assert dead(g.upto("D1")) == {"Cosimo"}


def test_LUP_V5_nobody_voted_nobody_is_lynched():
    """LUP-V5: nobody voted nobody is lynched."""
    run = Lupus().upto("D1")
    assert dead(run) == set() and facts(run, "no_lynch") == [{"reason": "no_votes"}]


# =========================================================================== decisions and options


def test_D1_option_first_phase_day_opens_with_day_one():
    g = Lupus(first_phase="day")
    assert [p.name for p in g.phases[:3]] == ["D1", "N1", "D2"]
    g.a("D1", "20:00", "Luca", "kill", "Carlo").a("D2", "12:00", "Luca", "kill", "Cesare")
    run = g.upto("N2")
    assert ("kill", "Luca", "not_yet") in rejected(run) and dead(run) == {"Cesare"}


def test_D2_option_no_kill_when_the_wolves_disagree():
    g = Lupus(wolves_disagree="no_kill").a("D1", "12:00", "Luca", "kill", "Carlo")
    g.a("D1", "12:01", "Lara", "kill", "Cesare")
    assert dead(g.upto("N2")) == set()
    g = Lupus(wolves_disagree="no_kill").a("D1", "12:00", "Luca", "kill", "Carlo")
    g.a("D1", "12:01", "Lara", "kill", "Carlo")
    assert dead(g.upto("N2")) == {"Carlo"}


def test_D4_gm_entered_action_overrides_the_target_rules():
    g = Lupus().a("D1", "12:00", "Gemma", "protect", "Carlo").gm_action("D2", "12:00", "Gino", "protect", "Carlo")
    g.a("D2", "12:01", "Luca", "kill", "Carlo")
    run = g.upto("N3")
    assert "Carlo" not in dead(run) and rejected(run) == []


def test_D5_option_roles_hidden_at_death():
    g = Lupus(reveal_roles=False).lynch("D1", "Luca", ["Carlo", "Cesare"])
    run = g.upto("D1")
    assert facts(run, "lynched") == [{"player": "Luca"}] and run.state.player("Luca").death.revealed is None


def test_D11_option_show_real_totals_exposes_the_secret_vote():
    g = Lupus(show_real_totals=True).v("D1", "10:00", "Boris", "Carlo").a("D1", "11:00", "Boris", "secret_vote", "Luca")
    run = g.run(now=g.at("D1", "12:00"))
    pub = g.rs.tally(run.state, g.at("D1", "12:00"), public=True)
    assert pub.public and pub.total_for("Luca") == 3 and pub.total_for("Carlo") == 0


def test_D12_withdrawn_secret_vote_restores_the_public_vote_or_abstains_with_the_option():
    def play(**opt):
        g = Lupus(**opt).v("D1", "10:00", "Boris", "Luca").a("D1", "11:00", "Boris", "secret_vote", "Carlo")
        g.a("D1", "12:00", "Boris", "withdraw_secret_vote").a("D1", "12:30", "Boris", "withdraw_secret_vote")
        return g.run(now=g.at("D1", "13:00"))
    run = play()
    assert run.current_tally.total_for("Luca") == 3 and reasons(run, "Boris") == ["no_secret_vote"]
    run = play(secret_withdrawal="abstains")
    assert run.current_tally.candidates == () and "Boris" in run.current_tally.not_voting


def test_D13_options_verdict_only_delivery_and_nessun_responso_for_the_seer():
    g = Lupus(delivery_names_target=False, seer_told_when_redirected=True)
    g.a("N1", "19:00", "Paolo", "deliver", "Carlo").a("N1", "19:01", "Vera", "check", "Luca")
    run = g.upto("N1")
    assert pms(run, "Carlo") == [("Carlo", "delivered_result", {"verdict": "LOSCO"})]
    assert pms(run, "Vera") == [("Vera", "no_result", {})]


def test_D14_option_only_the_twin_who_sent_the_pm_visits():
    g = Lupus(twin_visitors="senders").a("D1", "12:00", "Gino", "protect", "Sergio")
    run = g.upto("N2")
    assert pms(run, "Sergio", "visitors")[-1][2] == {"players": ("Gino",)}
    run = Lupus().a("D1", "12:00", "Gino", "protect", "Sergio").upto("N2")
    assert pms(run, "Sergio", "visitors")[-1][2] == {"players": ("Gemma", "Gino")}


def test_D15_option_an_eaten_contadino_does_not_win():
    roles = {"Vera": "seer", "Carlo": "farmer", "Cesare": "farmer", "Boris": "executioner", "Luca": "werewolf"}
    def play(**opt):
        g = Lupus(roles, **opt).a("D1", "12:00", "Luca", "kill", "Cesare").lynch("D2", "Luca", ["Vera", "Carlo"])
        return g.upto("D2").state.outcome
    assert "Cesare" in play().winners
    out = play(eaten_farmer_wins=False)
    assert out.result == "heresy" and "Cesare" not in out.winners and "Carlo" in out.winners


def test_D17_pms_sent_during_the_day_are_for_the_next_night_and_a_dead_actor_has_none():
    g = Lupus().a("D1", "09:30", "Luca", "kill", "Carlo").lynch("D1", "Luca", FARMERS[1:])
    run = g.upto("N2")
    assert ("kill", "Luca", "dead_actor") in rejected(run) and dead(run) == {"Luca"}
    g = Lupus().a("D1", "09:30", "Vera", "check", "Carlo")
    queued = g.rs.actions_for(g.run(now=g.at("D1", "10:00")).state, PhaseId(2, "night"))
    assert [(a.actor, a.target) for a in queued] == [("Vera", "Carlo")]


def test_D18_option_a_stamp_equal_to_the_deadline_counts():
    def play(**opt):
        g = Lupus(**opt).v("D1", "12:00", "Carlo", "Cesare").v("D1", "22:00", "Chiara", "Clara")
        g.v("D1", "22:00", "Clara", "Clara").a("D1", "22:00", "Boris", "secret_vote", "Clara")
        g.a("D1", "22:00", "Teo", "designate", "Vera").v("D1", "22:00", "Teo", "Teo").v("D1", "22:00", "Cosimo", "Teo")
        g.v("D1", "22:00", "Corrado", "Teo").a("N2", "22:30", "Luca", "kill", "Bruno")
        g.vote("Bruno", "Cesare", at=g.at("D1", "22:00", second=1))  # a second later: late either way
        return g.upto("N2")
    run = play()
    assert dead(run) == {"Cesare"} and ("kill", "Luca", "late") in rejected(run)
    run = play(deadline_stamp_counts=True)
    # Teo: 3 votes at 22:00 (Teo first in thread order) and Clara: 2 + Boia 1 (a farmer) = 3 → Clara's decisive
    # vote is the PM-only Boia's (last), so Teo dies, with Vera (designated at 22:00); Bruno eaten at 22:30
    assert dead(run) == {"Teo", "Vera", "Bruno"}
    assert ("vote", "Bruno", "late") in rejected(run)


def test_D18_option_boundary_shared_with_a_phase_end_counts_for_the_ending_phase():
    def play(**opt):
        g = Lupus(**opt)
        d1 = g.ph("D1")
        g.phases[g.phases.index(d1)] = d1 = replace(d1, vote_close=d1.end)  # votes close with the day
        g.vote("Carlo", "Cesare", at=d1.end)
        return g.upto("D1")
    run = play()
    assert dead(run) == set() and ("vote", "Carlo", "no_vote_now") in rejected(run)  # already night 2
    run = play(deadline_stamp_counts=True)
    assert dead(run) == {"Cesare"} and run.state.phase.name == "N2"


def test_D18_option_votes_after_the_deadline_stay_late_while_the_gm_has_not_approved_the_dawn():
    g = Lupus(deadline_stamp_counts=True).v("D1", "12:00", "Carlo", "Cesare").v("D1", "22:01", "Cesare", "Carlo")
    run = g.run(now=g.ph("D1").end, approve_all=False)
    assert run.state.proposal("night:N1").status == "pending" and run.state.proposal("lynch:D1") is None
    assert ("vote", "Cesare", "late") in rejected(run)
    g.decide("night:N1", at=g.at("D1", "22:05"))
    run = g.run(now=g.ph("D1").end, approve_all=False)
    assert run.state.proposal("lynch:D1").summary == "lynch Cesare"


def test_pending_lynch_holds_the_dawn_and_the_templare_deadline_stays_at_the_vote_close():
    """LUP-R8 with the GM approving the lynch late: designations after LUP-T1 still do not count."""
    g = _x18(Lupus()).lynch("D1", "Teo", FARMERS).a("D1", "22:10", "Luca", "kill", "Carlo")
    g.decide("night:N1", at=g.at("D1", "08:00")).decide("lynch:D1", at=g.at("N2", "23:00"))
    before = g.run(now=g.at("N2", "22:45"), approve_all=False)
    assert dead(before) == set() and before.state.proposal("night:N2") is None  # the dawn waits
    run = g.run(now=g.at("N2", "23:01"), approve_all=False)
    assert dead(run) == {"Teo", "Vera"} and run.state.proposal("night:N2").status == "pending"
    assert "Carlo" in run.state.proposal("night:N2").summary


def test_D19_no_kill_pm_is_flagged_before_the_deadline_and_the_option_allows_a_wolf_victim():
    g = Lupus()
    run = g.run(now=g.at("D1", "12:00"))
    need = g.rs.required_actions(run.state, run.state.phase)
    assert [(set(r.owed_by), r.rule) for r in need] == [({"Luca", "Lara", "Leo"}, "D19")]  # one shared duty
    assert g.rs.required_actions(run.state, g.ph("N1")) == ()  # night 1: no kill
    g.a("D1", "12:30", "Lara", "kill", "Carlo")
    run = g.run(now=g.at("D1", "13:00"))
    assert g.rs.required_actions(run.state, run.state.phase) == ()
    run = Lupus(wolf_victim_allowed=True).a("D1", "12:00", "Luca", "kill", "Sergio").upto("N2")
    assert dead(run) == {"Sergio"}


def test_options_are_validated_by_the_config_loader():
    opts = load_ruleset_options("lupus-eresia", {"wolves_disagree": "no_kill", "deadline_stamp_counts": True})
    assert opts.wolves_disagree == "no_kill" and opts.deadline_stamp_counts
    with pytest.raises(ConfigError):
        load_ruleset_options("lupus-eresia", {"wolves_disagre": "no_kill"})
    with pytest.raises(ConfigError):
        load_ruleset_options("lupus-eresia", {"twin_visitors": "one"})


def test_gm_replacement_keeps_the_boia_secret_vote_and_the_templare_designation():
    g = Lupus().a("D1", "10:00", "Boris", "secret_vote", "Luca").a("D1", "10:05", "Teo", "designate", "Vera")
    g.gm("replace", "Boris", "Bianca", at=g.at("D1", "11:00")).gm("replace", "Teo", "Tina", at=g.at("D1", "11:01"))
    g.v("D1", "12:00", "Carlo", "Tina").v("D1", "12:01", "Cesare", "Tina").v("D1", "12:02", "Chiara", "Tina")
    g.v("D1", "12:03", "Clara", "Tina")
    run = g.upto("D1")
    assert tally(run, "D1").total_for("Luca") == 3  # Bianca inherits the Boia's secret vote
    assert dead(run) == {"Tina", "Vera"}  # and Tina the Templare's designation
