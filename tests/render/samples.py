"""Fixed view models of every post kind, for the golden tests.

The data is fixed; only what a view model carries in the game's language (phase labels,
times, sentences made from facts) comes from the phrasebook, exactly as the builders do it.
Player names include markup injections, so every golden file also shows the escaping.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from forummod.engine.types import Fact
from forummod.render.models import (
    Death, DayEndPost, DayStartPost, GameOverPost, Head, Idle, Link, NightResultPMPost, PendingProposal,
    ProdPost, RejectedVote, RoleLine, RolePMPost, Vote, VoteCountPost, Wagon, Warning, WarningsPost,
)
from forummod.render.phrases import Phrasebook

TZ = ZoneInfo("Europe/Rome")
RULESET = "mafia-majority"
GAME = "Valfonda #7"

ALDO, BOLD, STAR, UNDER, SCRIPT, MDLINK, FEDE, GINA = (
    "Aldo", "[b]Bianca[/b]", "*Carlo*", "_Dora_", "<script>alert(1)</script>",
    "[Eve](http://evil.example/x)", "Fede", "Gina",
)
PLAYERS = (ALDO, BOLD, STAR, UNDER, SCRIPT, MDLINK, FEDE, GINA)


def t(day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2026, 11, 22 + day, hh, mm, tzinfo=TZ)


def link(n: int) -> Link:
    return Link(f"#{n}", f"https://forum.example/viewtopic.php?p={1000 + n}#p{1000 + n}")


def head(pb: Phrasebook, phase: str) -> Head:
    return Head(GAME, RULESET, phase, pb.phase(phase) if phase not in ("setup", "end") else pb.fmt(phase, phase))


def vote(pb: Phrasebook, voter: str, n: int, day: int, hh: int, mm: int = 0, **kw) -> Vote:
    return Vote(voter, pb.when(t(day, hh, mm), TZ, "vote_time"), link(n), **kw)


def votecount(pb: Phrasebook, public: bool = True) -> VoteCountPost:
    wagons = (
        Wagon(FEDE, False, "3", (vote(pb, BOLD, 12, 2, 10, 40), vote(pb, STAR, 15, 2, 11, 15),
                                  vote(pb, ALDO, 19, 2, 13, 5)), to_majority="2", leading=True),
        Wagon(SCRIPT, False, "2", (vote(pb, MDLINK, 14, 2, 11, 0), vote(pb, FEDE, 21, 2, 14, 30)), to_majority="3"),
        Wagon("", True, "1", (vote(pb, UNDER, 22, 2, 15, 0),), to_majority="4"),
    )
    if not public:
        wagons = (
            Wagon(FEDE, False, "4", (vote(pb, BOLD, 12, 2, 10, 40), vote(pb, STAR, 15, 2, 11, 15),
                                      vote(pb, ALDO, 19, 2, 13, 5, weight="2", note="x2")),
                  to_majority="1", leading=True),
        ) + wagons[1:] + (Wagon(BOLD, False, "1", (vote(pb, GINA, 23, 2, 15, 30, secret=True, note="secret"),),
                                to_majority="4"),)
    return VoteCountPost(
        head=head(pb, "D2"), public=public, as_of=pb.when(t(2, 15, 30 if not public else 0), TZ),
        deadline=pb.when(t(2, 22), TZ, "deadline"), closed=False, living="8", majority="5", wagons=wagons,
        not_voting=(GINA,) if public else (), not_voting_count="1" if public else "0",
        rejected=(RejectedVote("Zeno", FEDE, pb.rejection("non_player"), "non_player",
                               pb.when(t(2, 12), TZ, "vote_time"), link(17)),),
        no_lynch_allowed=True)


def day_start(pb: Phrasebook) -> DayStartPost:
    return DayStartPost(
        head=head(pb, "D2"), night=pb.phase("N1"),
        announcements=(pb.fact(Fact.of("death", player=SCRIPT, cause="night_kill")),),
        deaths=(Death(SCRIPT, pb.role("doctor"), True, pb.text("reveal", player=SCRIPT, role="doctor")),),
        nobody_died=False, living=(ALDO, BOLD, STAR, UNDER, MDLINK, FEDE, GINA), living_count="7", majority="4",
        deadline=pb.when(t(3, 22), TZ, "deadline"))


def first_day(pb: Phrasebook) -> DayStartPost:
    return DayStartPost(head=head(pb, "D1"), night="", announcements=(), deaths=(), nobody_died=True,
                        living=PLAYERS, living_count="8", majority="5", deadline=pb.when(t(1, 22), TZ, "deadline"),
                        first_day=True)


def day_end(pb: Phrasebook) -> DayEndPost:
    return DayEndPost(
        head=head(pb, "D2"),
        announcements=(pb.fact(Fact.of("hammer", player=FEDE, votes=5)), pb.fact(Fact.of("lynched", player=FEDE))),
        deaths=(Death(FEDE, pb.role("mafia"), True, pb.text("reveal", player=FEDE, role="mafia")),),
        no_lynch=False,
        wagons=(Wagon(FEDE, False, "5", (vote(pb, BOLD, 12, 2, 10, 40), vote(pb, STAR, 15, 2, 11, 15),
                                          vote(pb, ALDO, 19, 2, 13, 5), vote(pb, UNDER, 24, 2, 16, 0),
                                          vote(pb, GINA, 25, 2, 16, 10))),
                Wagon(BOLD, False, "1", (vote(pb, FEDE, 21, 2, 14, 30),))),
        next_phase=pb.phase("N2"), next_start=pb.when(t(2, 22), TZ, "deadline"))


def no_lynch_day_end(pb: Phrasebook) -> DayEndPost:
    return DayEndPost(head=head(pb, "D3"), announcements=(pb.fact(Fact.of("no_lynch", reason="tie")),), deaths=(),
                      no_lynch=True, wagons=(), next_phase=pb.phase("N3"), next_start=pb.when(t(3, 22), TZ, "deadline"))


def role_pm(pb: Phrasebook) -> RolePMPost:
    return RolePMPost(head=head(pb, "setup"), player=SCRIPT, role=pb.role("mafia"), role_id="mafia",
                      description=pb.role_desc("mafia", player=SCRIPT), faction=pb.faction("mafia"),
                      partners=(FEDE,), first_phase=pb.phase("D1"), first_deadline=pb.when(t(1, 22), TZ, "deadline"))


def night_result(pb: Phrasebook) -> NightResultPMPost:
    return NightResultPMPost(head=head(pb, "N1"), player=STAR, night=pb.phase("N1"),
                             results=(pb.fact(Fact.of("cop_result", target=MDLINK, verdict="not_guilty")),))


def warnings(pb: Phrasebook) -> WarningsPost:
    fact = Fact.of("death", player=SCRIPT, cause="night_kill")
    return WarningsPost(
        head=head(pb, "D2"),
        findings=(Warning("finding", "warning", "dead_posting", "LUP-G2", SCRIPT,
                          "a dead player posted in the game thread", pb.when(t(2, 9, 30), TZ), link(11)),),
        issues=(Warning("issue", "warning", "unknown_name", "", GINA, "vote for an unknown name 'Bianc'",
                        pb.when(t(2, 15, 20), TZ), link(13),
                        quote="[/quote][b]VOTE: Bianc[/b] <script>alert('quoted')</script>"),),
        rejections=(Warning("rejection", "warning", "late", "", UNDER, "vote → Fede: the vote of D1 is closed",
                            pb.when(t(2, 22, 5), TZ), link(30)),),
        pending=(PendingProposal("night:N1", "night", "N1", "kill " + SCRIPT, (pb.fact(fact),), "1",
                                 "forummod gm --game g approve night:N1", "forummod gm --game g reject night:N1"),),
        waiting=("VoteClose D2",), total="4", empty=False)


def empty_warnings(pb: Phrasebook) -> WarningsPost:
    return WarningsPost(head=head(pb, "D1"), findings=(), issues=(), rejections=(), pending=(), waiting=(),
                        total="0", empty=True)


def prod(pb: Phrasebook) -> ProdPost:
    return ProdPost(head=head(pb, "D2"),
                    players=(Idle(UNDER, "", None, "60"),
                             Idle(MDLINK, pb.when(t(1, 9), TZ), link(3), "54")),
                    threshold_hours="48", deadline=pb.when(t(3, 22), TZ, "deadline"))


def game_over(pb: Phrasebook) -> GameOverPost:
    winners = (ALDO, BOLD, STAR, UNDER, SCRIPT, MDLINK)
    roles = tuple(
        RoleLine(p, pb.role(r), r, pb.faction("mafia" if r == "mafia" else "town"), alive, pb.phase(died) if died else "",
                 p in winners, replaced)
        for p, r, alive, died, replaced in (
            (ALDO, "town", True, "", ()), (BOLD, "cop", True, "", ()), (STAR, "town", True, "", ("Old*Name",)),
            (UNDER, "town", False, "D3", ()), (SCRIPT, "doctor", False, "N1", ()), (MDLINK, "town", True, "", ()),
            (FEDE, "mafia", False, "D2", ()), (GINA, "mafia", False, "D4", ())))
    return GameOverPost(head=head(pb, "end"),
                        result=pb.fact(Fact.of("game_over", result="town", winners=winners)),
                        result_key="town", winners=winners, roles=roles)


#: (case name, kind, builder); every kind has at least one case.
CASES = (
    ("votecount", "votecount", votecount),
    ("votecount_gm", "votecount", lambda pb: votecount(pb, public=False)),
    ("day_start", "day_start", day_start),
    ("day_start_first", "day_start", first_day),
    ("day_end", "day_end", day_end),
    ("day_end_no_lynch", "day_end", no_lynch_day_end),
    ("role_pm", "role_pm", role_pm),
    ("night_result", "night_result", night_result),
    ("warnings", "warnings", warnings),
    ("warnings_empty", "warnings", empty_warnings),
    ("prod", "prod", prod),
    ("game_over", "game_over", game_over),
)
