"""Name resolution: the order of issue 4 item 3, and never a silent guess."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from forummod.extract import resolve_name
from forummod.model import PlayerSlot, Replacement, Roster

ROSTER = Roster((
    PlayerSlot("Marco"),
    PlayerSlot("Marco Rossi", aliases=("Rossi", "MR")),
    PlayerSlot("Nicolò"),
    PlayerSlot("moose200x"),
    PlayerSlot("Ant_to_the_max"),
    PlayerSlot("AntB"),
    PlayerSlot("Mr Wright"),
    PlayerSlot("werewolf555", replacements=(Replacement("Hiraki"),)),
    PlayerSlot("Scott Brosius"),
    PlayerSlot("redtail896"),
    PlayerSlot("[Mod]Luca"),
    PlayerSlot("x[b]y"),
    PlayerSlot("Маша"),
    PlayerSlot("Саша"),
    PlayerSlot("Пётр"),
    PlayerSlot("Игорь"),
    PlayerSlot("Андрей"),
    PlayerSlot("Мария"),
    PlayerSlot("Павел"),
    PlayerSlot("小明"),
    PlayerSlot("小明明"),
), gms=("GM",))


@pytest.mark.parametrize("typed, seat, via", [
    ("marco", "Marco", "exact"),
    ("MARCO ROSSI", "Marco Rossi", "exact"),  # a name that is a prefix of another: exact wins
    ("Nicolo", "Nicolò", "exact"),  # accent-insensitive
    ("ｍｏｏｓｅ２００ｘ", "moose200x", "exact"),  # full-width IME input
    ("Ant to the max", "Ant_to_the_max", "exact"),
    ("mo\u200bose200x", "moose200x", "exact"),  # zero-width space stripped
    ("Rossi", "Marco Rossi", "alias"),
    ("Hiraki", "werewolf555", "replacement"),  # a vote for the replaced player goes to the replacement
    ("Moose", "moose200x", "prefix"),
    ("ScottBro", "Scott Brosius", "prefix"),
    ("Brosius", "Scott Brosius", "prefix"),
    ("red tail", "redtail896", "prefix"),
    ("AttM", "Ant_to_the_max", "initials"),
    ("Машу", "Маша", "declension"),  # WH D8: "за Машу"
    ("Сашу", "Саша", "declension"),
    ("Петра", "Пётр", "declension"),
    ("Игорю", "Игорь", "declension"),
    ("Андрея", "Андрей", "declension"),
    ("Марию", "Мария", "declension"),
    ("Павла", "Павел", "declension"),
    ("Moos200x", "moose200x", "fuzzy"),
    ("[Mod]Luca", "[Mod]Luca", "exact"),  # BBCode characters in a name
    ("x[b]y", "x[b]y", "exact"),
    ("小明明", "小明明", "exact"),
])
def test_resolution_stage(typed: str, seat: str, via: str) -> None:
    m = resolve_name(typed, ROSTER, language="ru")
    assert (m.status, m.name, m.via) == ("matched", seat, via)


@pytest.mark.parametrize("typed, seat", [
    ("Marco Rossi, obviously", "Marco Rossi"),
    ("Marco is scum", "Marco"),
    ("Mr Wright please", "Mr Wright"),
    ("小明明的房子", "小明明"),  # Chinese: the longest roster name after the keyword
    ("小明的房子", "小明"),
])
def test_trailing_words_after_a_name(typed: str, seat: str) -> None:
    assert resolve_name(typed, ROSTER).name == seat


def test_prefix_of_two_players_is_ambiguous_with_candidates() -> None:
    m = resolve_name("Ant", ROSTER)
    assert m.status == "ambiguous"
    assert set(m.candidates) == {"Ant_to_the_max", "AntB"}


def test_unknown_name_lists_suggestions_never_guesses() -> None:
    m = resolve_name("boberz", Roster((PlayerSlot("Beefster"), PlayerSlot("Mariyta"))))
    assert m.status == "unknown" and m.name is None
    m = resolve_name("saalndar", Roster((PlayerSlot("Slandaar"), PlayerSlot("T S O"))))
    assert m.status == "unknown" and m.candidates == ("Slandaar",)


def test_fuzzy_margin_makes_close_calls_ambiguous() -> None:
    r = Roster((PlayerSlot("jonathan1"), PlayerSlot("jonathon12")))  # ratios 82 and 78
    m = resolve_name("Jonathin", r)
    assert m.status == "ambiguous" and set(m.candidates) == {"jonathan1", "jonathon12"}
    assert resolve_name("Jonathin", r, margin=3).name == "jonathan1"
    tie = Roster((PlayerSlot("jonathan"), PlayerSlot("jonathen")))  # 87.5 each: a tie is never a pick
    assert resolve_name("jonathon", tie, margin=0).status == "ambiguous"


def test_fuzzy_cutoff() -> None:
    r = Roster((PlayerSlot("evilpacman18"),))
    assert resolve_name("epicpacman", r).status == "unknown"
    assert resolve_name("epicpacman", r, cutoff=70).name == "evilpacman18"


@pytest.mark.parametrize("typed", ["Mаrco", "Marcо", "MARCО"])  # Cyrillic а / о inside a Latin name
def test_homoglyphs_are_reported_not_matched(typed: str) -> None:
    m = resolve_name(typed, ROSTER)
    assert m.status == "homoglyph" and m.name is None and m.candidates == ("Marco",)


def test_replaced_name_used_by_two_seats_is_decided_by_time() -> None:
    t = datetime(2024, 1, 10, tzinfo=timezone.utc)
    r = Roster((PlayerSlot("A2", replacements=(Replacement("Old", at=t),)),
                PlayerSlot("B2", replacements=(Replacement("Old", at=datetime(2024, 2, 1, tzinfo=timezone.utc)),))))
    assert resolve_name("Old", r).status == "ambiguous"
    assert resolve_name("Old", r, at=datetime(2024, 1, 20, tzinfo=timezone.utc)).name == "B2"


def test_current_name_beats_alias_and_replaced_name() -> None:
    r = Roster((PlayerSlot("Luca", aliases=("Bob",)), PlayerSlot("Bob"),
                PlayerSlot("New", replacements=(Replacement("Luca"),))))
    assert resolve_name("bob", r).name == "Bob"
    assert resolve_name("luca", r).name == "Luca"
