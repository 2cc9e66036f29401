"""The moderator vote-count reader of the accuracy harness, on the forms moderators write."""

from __future__ import annotations

import pytest

from benchmarks.accuracy.classify import name_relation
from benchmarks.accuracy.modcounts import NO_LYNCH, NOT_VOTING, SeatNames, read_count, wagon_of


@pytest.mark.parametrize("line, target, n, voters", [
    ("AGar - 2 (Reckamonic, Thor665)", "AGar", 2, ("Reckamonic", "Thor665")),
    ("AGar- 3 (Reckamonic, Seraphim)", "AGar", 3, ("Reckamonic", "Seraphim")),
    ("Trivium (6)- Garmr, grayfoxxxx", "Trivium", 6, ("Garmr", "grayfoxxxx")),
    ("(3) Whiskers: Friend, Substrike22 [L-4]", "Whiskers", 3, ("Friend", "Substrike22")),
    ("Day 1 VotecountRobbnva (3): mykonian, rb", "Robbnva", 3, ("mykonian", "rb")),
    ("Name - 3 - a, b, c", "Name", 3, ("a", "b", "c")),
    ("subgenius (L-5): Erratus Apathos, GreyICE", "subgenius", None, ("Erratus Apathos", "GreyICE")),
    ("Necro (2/7): Tchill13, lovelife", "Necro", 2, ("Tchill13", "lovelife")),
    ("FireScreamer - Pants98, Transcend (L-3)", "FireScreamer", None, ("Pants98", "Transcend")),
    ("[L~4] Garmr - [JarJarDrinks, Gamma Emerald]", "Garmr", None, ("JarJarDrinks", "Gamma Emerald")),
    ("thezmon221 (L-1!!!) - ICEninja, BP", "thezmon221", None, ("ICEninja", "BP")),
    ("Not Voting (4)- Trivium, toolenduso", "Not Voting", 4, ("Trivium", "toolenduso")),
    ("Bob: a (unvoted), c", "Bob", None, ("c",)),
    ("(6) [LYNCH!] BlueBloodedToffee — Malakittens, ika", "BlueBloodedToffee", 6, ("Malakittens", "ika")),
    ("(4) (NOT VOTING) — shaddowez, AxleGreaser", "NOT VOTING", 4, ("shaddowez", "AxleGreaser")),
    ("LlamaFluff (1) (L-2) - Mulch (1689)", "LlamaFluff", 1, ("Mulch",)),
    ("Arugula      6 votes [Agar] [Oman] [BBMolla]", "Arugula", 6, ("Agar", "Oman", "BBMolla")),
    ("Terata [LYNCHED] I am Innocent, HavingFitz", "Terata", None, ("I am Innocent", "HavingFitz")),
])
def test_wagon_forms(line, target, n, voters):
    w = wagon_of(line)
    assert w is not None and (w.target, w.n, w.voters) == (target, n, voters)


def test_prose_is_no_wagon():
    assert wagon_of("With 13 alive, it takes 7 to lynch.") is None


def test_a_count_reads_seats_not_voting_and_no_lynch_and_reports_non_seat_wagons():
    names = SeatNames({"Alice": "Alice", "Bob Smith": "Bob Smith", "carol": "carol", "Dave": "Dave"})
    html = ("<b>Vote Count 2.1</b><br>Alice (2): Bob Smith, carol<br>No Lynch (1): Alic<br>"
            "Deadline Extension - 1 (Dave)<br>Not voting: Dave<br>Deadline: Monday, 3 pm")
    c = read_count(12, html, names)
    assert c is not None and c.unread == ("Deadline Extension",) and not c.complete  # compared on named seats
    assert dict(c.votes) == {"Bob Smith": "Alice", "carol": "Alice", "Alice": NO_LYNCH, "Dave": NOT_VOTING}


def test_names_without_commas_are_split_on_known_names():
    names = SeatNames({n: n for n in ("My Milked Eek", "GreyICE", "JJcoolPants")})
    c = read_count(3, "Vote count<br>GreyICE (2): My Milked Eek JJcoolPants", names)
    assert c is not None and dict(c.votes) == {"My Milked Eek": "GreyICE", "JJcoolPants": "GreyICE"}


@pytest.mark.parametrize("written, name, relation", [
    ("KTS", "KingTheSlayer", "initials"), ("KBW", "Keybladewielder", "initials"), ("AA", "ArcAngel9", "initials"),
    ("bob", "boberz", "prefix"), ("ep", "epicness", "short_prefix"), ("fitz", "havingfitz", "part"),
    ("evilpakman", "evilpacman18", "misspelling"), ("pecan", "Nachomamma8", "nickname"),
])
def test_name_relation(written, name, relation):
    assert name_relation(written, [name]) == relation
