"""Two real MafiaScum games replayed whole, offline, by `forummod replay CONFIG --json --approve-all`
(issue 5, items 7 and 8).

The posts come from ``../shared/corpus/mafia/`` (read through the `corpus_dir` fixture, never
copied here) and are converted to archive JSONL in a temporary folder (`donbot.py`). Each game's
config is what its moderator's own posts say: the roster with its replacements (at the post
where the moderator announced them), the roles of the final role list, a pin for every day and
night — a day from the post after the one that opened it to the moderator's lynch post, a night
to the moderator's dawn post — and, as GM events, only what no vote can produce: the night
kills, at the dawn post that announced them, and the endgame. No lynch is entered: every day's
lynch comes out of forummod's own count of the real posts, under the ruleset's majority rule.

Expected values come from the archive's index (``MAFIA-mafiascum-archive-game-index.txt``) and,
for the vote counts, from the moderators' final vote counts in the threads — never from
forummod.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forummod.config import load_config
from forummod.service import Workspace, analyse_game, poll_game
from forummod.store import Store

from . import donbot
from .donbot import GameSpec, GmEvent, Pin, Seat

# --------------------------------------------------------------------------- the games, as their moderators posted them

# Game 1360 (Mini 1360, thread 22828), moderator Battousai. Rules post #1: "You may vote for a
# no lynch" (no_lynch), rule 17: "At deadline, majority is cut in half rounded up ... If there is
# a tie, the player with the most votes first, will be lynched" — a deadline plurality with the
# first to reach the top count winning a tie (deadline "plurality", tie "first_to_reach");
# forummod has no "half the majority at the deadline" threshold, which no day needed: all three
# ended at once by majority (4 of 7, 3 of 5, 2 of 3).
G1360 = GameSpec(
    game_id="game1360",
    title="Mini 1360",
    corpus_file="MAFIA-mafiascum-t22828-posts.jsonl",
    gm="Battousai",
    seats=(
        Seat("Thor665", "town"),
        Seat("Konowa", "town"),
        Seat("rblinker123", "mafia"),
        Seat("evilpacman18", "town"),
        Seat("iD-DTMaster", "town"),
        Seat("DTMaster", "mafia"),
        # #46 "gorckat replaces rapidcanyon effective immediately"; a Sane Day Cop: no night action
        Seat("gorckat", "cop", (("rapidcanyon", 46),)),
    ),
    phases=(
        Pin("D1", 3, 46),  # #2 "D1 starts now!"; #46 "DTMaster -Mafia Goon- has been lynched D1"
        Pin("N1", 47, 47),  # #47 "N1 End: Konowa -vanilla townie- has been killed N1 / It is now D2"
        Pin("D2", 48, 148),  # #148 "End of D2 ... gorckat -Sane Day Cop- has been lynched D2"
        Pin("N2", 149, 149),  # #149 "N2 End: evilpacman18 -vanilla townie- has been killed N2"
        Pin("D3", 150, 247),  # #247 "rblinker123 -Mafia Goon- has been lynched D3 / Town ... wins!"
    ),
    events=(
        GmEvent("kill", 47, "Konowa", "night_kill", "mafia kill, announced at dawn (#47)"),
        GmEvent("kill", 149, "evilpacman18", "night_kill", "mafia kill, announced at dawn (#149)"),
    ),
    options={"first_phase": "day", "no_lynch": True, "deadline": "plurality", "tie": "first_to_reach",
             "reveal_roles": True},
)

# Game 1091 (Mafia Mania, thread 15787), moderator Nobody Special. Rules post #1: rule 20 "No-lynch
# requires a simple majority" (no_lynch), rule 21 "If the required number of votes is not
# reached by deadline, there will be NO LYNCH" (deadline "no_lynch"), rule 22 a true majority of
# the living. Every day ended at majority (7 of 12, 5 of 9, 4 of 7, 4 of 6, 3 of 4).
G1091 = GameSpec(
    game_id="game1091",
    title="Mafia Mania",
    corpus_file="MAFIA-mafiascum-game1091-t15787-posts.jsonl",
    gm="Nobody Special",
    seats=(
        Seat("Beefster", "town"),
        Seat("werewolf555", "town", (("Hiraki", 249),)),  # #249 "werewolf555 replaces Hiraki"
        Seat("Substrike22", "mafia"),  # Mafia Watcher
        Seat("Antihero", "mafia", (("caelum", 96), ("Lateralus22", 790))),  # #96, #790
        Seat("boberz", "town"),
        Seat("Mariyta", "town"),
        Seat("brokenscraps", "town", (("LordChronos", 222),)),  # Town Tracker; #222
        Seat("AntB", "town"),
        Seat("pappums rat", "doctor", (("Mr Wright", 373),)),  # Town Doctor; #373
        Seat("Ant_to_the_max", "town"),
        Seat("Dekes", "mafia"),  # Mafia Bulletproof Goon
        Seat("Empking", "town", (("moose200x", 836), ("Xtoxm", 938))),  # Town JOAT; #836, #938
    ),
    phases=(
        Pin("D1", 3, 470),  # #2 the game starts at nine confirmations; #470 "Beefster ... has been lynched"
        Pin("N1", 471, 471),  # #471 werewolf555 dismembered, brokenscraps shot; "Day Two begins now"
        Pin("D2", 472, 685),  # #685 "Substrike22, Mafia Watcher, has been lynched"
        Pin("N2", 686, 686),  # #686 "pappums rat, Town Doctor, has been shot"
        Pin("D3", 687, 883),  # #883 "AntB, Vanilla Townie, has been lynched"
        Pin("N3", 884, 884),  # #884 "But there is none." (the JOAT blocked the mafia's killer)
        Pin("D4", 885, 951),  # #951 "Antihero, Mafia Goon, has been lynched"
        Pin("N4", 952, 952),  # #952 "Empking, Town Jack of All Trades, has been shot"
        Pin("D5", 953, 970),  # #970 "boberz ... has been lynched. CONGRATULATIONS MAFIA"
    ),
    events=(
        # #973, the moderator's list of night actions: "JOAT (moose) kills werewolf555",
        # "Mafia Kills brokenscraps" (N1), "Mafia kills pappums rat" (N2), "Mafia (Dekes) kills
        # Empking" (N4); N3's kill was blocked.
        GmEvent("kill", 471, "werewolf555", "vigilante", "the town JOAT's shot"),
        GmEvent("kill", 471, "brokenscraps", "night_kill"),
        GmEvent("kill", 686, "pappums rat", "night_kill"),
        GmEvent("kill", 952, "Empking", "night_kill"),
        # After boberz's lynch the Bulletproof Goon faces two townies with no vigilante left:
        # the moderator ends the game (#0 "killed in endgame"). Nothing in the votes says so.
        GmEvent("kill", 970, "Mariyta", "endgame"),
        GmEvent("kill", 970, "Ant_to_the_max", "endgame"),
    ),
    options={"first_phase": "day", "no_lynch": True, "deadline": "no_lynch", "reveal_roles": True},
)

GAMES = {"game1360": (G1360, 22828), "game1091": (G1091, 15787)}

# The moderators' final vote count of each day: day -> (post, lynched, {candidate: voters}).
# Seats are named by who held them at that moment, as the moderator wrote them (moose200x for
# Empking's seat until #836, Lateralus22 for Antihero's until #790; issue 14, item 3).
MOD_FINAL_COUNTS = {
    "game1360": {
        "D1": (46, "DTMaster", {"DTMaster": {"iD-DTMaster", "Konowa", "evilpacman18", "rblinker123"},
                                "evilpacman18": {"Thor665"}, "rblinker123": {"DTMaster"}}),
        "D2": (148, "gorckat", {"gorckat": {"rblinker123", "iD-DTMaster", "evilpacman18"},
                                "Thor665": {"gorckat"}, "rblinker123": {"Thor665"}}),
        "D3": (247, "rblinker123", {"rblinker123": {"iD-DTMaster", "Thor665"}, "iD-DTMaster": {"rblinker123"}}),
    },
    "game1091": {
        "D1": (469, "Beefster", {
            "Beefster": {"brokenscraps", "Ant_to_the_max", "Mariyta", "werewolf555", "AntB", "Substrike22", "boberz"},
            "werewolf555": {"Dekes", "moose200x", "Lateralus22", "Beefster"},
            "moose200x": {"pappums rat"}}),
        "D2": (684, "Substrike22", {
            "Substrike22": {"Ant_to_the_max", "Dekes", "pappums rat", "moose200x", "boberz"},
            "boberz": {"AntB"}, "AntB": {"Mariyta"}, "moose200x": {"Substrike22"}}),
        "D3": (882, "AntB", {"AntB": {"boberz", "Dekes", "Mariyta", "Ant_to_the_max"}, "Antihero": {"AntB"}}),
        "D4": (950, "Antihero", {"Antihero": {"Dekes", "Ant_to_the_max", "Mariyta", "Antihero"}}),
        "D5": (969, "boberz", {"boberz": {"Mariyta", "Ant_to_the_max", "Dekes"}}),
    },
}

# what each fate word of the index may be as a death in `status --json`
FATE_CAUSES = {"lynched": {"lynch"}, "killed": {"night_kill", "vigilante"}, "endgamed": {"endgame"},
               "modkilled": {"modkill"}}


# --------------------------------------------------------------------------- running them


class Replayed:
    def __init__(self, spec: GameSpec, index: donbot.IndexGame, config: Path):
        self.spec, self.index, self.config = spec, index, config
        self.status = donbot.replay(config)  # the real CLI
        self._analysis = None

    @property
    def analysis(self):
        """The same game through the library (for the per-day counts the status does not print)."""
        if self._analysis is None:
            with Workspace(load_config(self.config), Store(":memory:")) as ws:
                assert poll_game(ws, self.spec.game_id).ok
                self._analysis = analyse_game(ws, self.spec.game_id, approve_all=True)
        return self._analysis


@pytest.fixture(scope="module")
def replays(corpus_dir: Path, tmp_path_factory):
    """game id -> its replay, each game converted and replayed once for the module."""
    done: dict[str, Replayed] = {}

    def get(game_id: str) -> Replayed:
        if game_id not in done:
            spec, thread = GAMES[game_id]
            mafia = corpus_dir / "mafia"
            if not (mafia / spec.corpus_file).is_file() or not (mafia / donbot.INDEX_FILE).is_file():
                pytest.skip(f"{spec.corpus_file} or the game index is not in the corpus")
            workdir = tmp_path_factory.mktemp(game_id)
            done[game_id] = Replayed(spec, donbot.read_index(corpus_dir, thread),
                                     donbot.write_game(spec, corpus_dir, workdir))
        return done[game_id]

    return get


@pytest.fixture(params=sorted(GAMES))
def game(request, replays) -> Replayed:
    return replays(request.param)


# --------------------------------------------------------------------------- the config agrees with the index


def test_config_seats_replacements_and_factions_are_the_index_ones(game: Replayed):
    seats = {s.name: s for s in game.spec.seats}
    assert set(seats) == {p.name for p in game.index.players}
    for p in game.index.players:
        assert tuple(n for n, _ in seats[p.name].replaces) == p.replaced, p.name
        assert ("mafia" if seats[p.name].role == "mafia" else "town") == p.faction, p.name
    assert game.spec.gm == game.index.moderator
    assert not [e for e in game.spec.events if e.kind in ("lynch", "no_lynch", "set_vote")], \
        "lynches must come from the vote count, not from GM events"


# --------------------------------------------------------------------------- the replay against the index


def test_every_days_lynch_comes_out_of_forummods_own_vote_count(game: Replayed):
    expected = {p.phase: p.name for p in game.index.players if p.fate == "lynched"}
    assert donbot.lynches(game.status) == expected


def test_every_night_kill_is_in_its_night_and_no_one_else_died_at_night(game: Replayed):
    expected = {p.name: p.phase for p in game.index.players if p.fate == "killed"}
    got = {name: phase for name, (phase, cause) in donbot.deaths(game.status).items() if cause != "lynch"
           and phase.startswith("N")}
    assert got == expected


def test_dead_players_have_the_index_phase_cause_and_role(game: Replayed):
    dead = {d["player"]: d for d in game.status["dead"]}
    expected_dead = [p for p in game.index.players if p.fate != "survived"]
    assert set(dead) == {p.name for p in expected_dead}
    for p in expected_dead:
        d = dead[p.name]
        assert d["phase"] == p.phase, p.name
        assert d["cause"] in FATE_CAUSES[p.fate], (p.name, d["cause"], p.fate)
        assert d["revealed"] and (d["role"] == "mafia") == (p.faction == "mafia"), (p.name, d["role"])


def test_survivors_are_the_index_survivors(game: Replayed):
    assert set(game.status["alive"]) == {p.name for p in game.index.players if p.fate == "survived"}


def test_the_game_ends_with_the_index_winner_and_its_whole_faction(game: Replayed):
    st = game.status
    assert st["game_over"] is True
    assert st["result"] == game.index.result
    assert set(st["winners"]) == {p.name for p in game.index.players if p.faction == game.index.result}
    assert st["pending"] == [] and st["waiting"] == []
    # the game stops in the day of its last lynch: nothing after the end reopens it
    assert st["phase"] == max((p.phase for p in game.index.players if p.fate == "lynched"),
                              key=lambda ph: int(ph[1:]))


# --------------------------------------------------------------------------- the counts against the moderators'


def test_each_day_closes_on_the_moderators_final_vote_count(game: Replayed):
    tallies = {t.phase: t for t in game.analysis.run.tallies}
    for day, (post, lynched, counts) in MOD_FINAL_COUNTS[game.spec.game_id].items():
        t = tallies[day]
        got = {c.name: {v.voter for v in c.voters} for c in t.candidates}
        assert got == counts, f"{day}: moderator's count in #{post}"
        assert t.candidates[0].name == lynched and t.candidates[0].total == t.majority, day


def test_game1091_boberzs_bold_vote_for_the_dead_beefster_is_refused_not_counted_for_someone_else(replays):
    """The index's note on D2: its votecounter took boberz's "[b]vote beefster[/b]" (post 484,
    Beefster lynched on Day 1) as a vote for someone else. forummod refuses it, and the
    moderator's count in #518 has boberz on AntB only."""
    game = replays("game1091")
    assert "post 484" in game.index.notes
    refused = [(r.actor, r.target, r.reason) for r in game.analysis.run.rejections
               if r.source is not None and r.source.number == 484]
    assert refused == [("boberz", "Beefster", "dead_target")]
    assert game.status["rejection_count"] == 1
