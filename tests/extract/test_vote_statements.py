"""The vote grammar as mechanisms (issue 27 item 2): a hash vote ends at its line, a bold run
holding several statements is read statement by statement, a name made of punctuation or
written in brackets is found, a form the game does not count is reported, and a community's
preset names its forms."""

from __future__ import annotations

import typing

import pytest

from forummod.config import VoteForm
from forummod.extract import extract_post
from forummod.extract.context import FORMS, PRESETS, expand_forms

from .helpers import codes, ctx, post, roster, votes

R = roster("Anna", "Luca", "-L-", "KingTheSlayer", "Marco", "hp [leaves]")


@pytest.mark.parametrize("html, expected", [
    ("##Unvote<br>##Vote: Luca", ["unvote", "vote:Luca"]),  # two lines: two statements
    ("##unvote\n##vote Marco", ["unvote", "vote:Marco"]),
    ("#unvote", ["unvote"]),  # one '#'
    ("#vote Luca", ["vote:Luca"]),
    ("##vote Luca<br>and that is final", ["vote:Luca"]),  # the name ends with its line
])
def test_a_hash_vote_ends_at_its_line(html: str, expected: list[str]) -> None:
    ex = extract_post(post(html), ctx(R, forms=("hash",)))
    assert votes(ex) == expected
    assert "unknown_name" not in codes(ex)


def test_a_heading_hash_is_no_vote() -> None:
    assert votes(extract_post(post("# Vote count\nnothing here"), ctx(R, forms=("hash",)))) == []


def test_a_bold_hash_vote_is_a_bold_vote_read_once() -> None:
    ex = extract_post(post("<b>##Vote: Luca</b>"), ctx(R, forms=("bold", "tag")))
    assert votes(ex) == ["vote:Luca"] and codes(ex) == []


@pytest.mark.parametrize("html, expected, issue", [
    ("<b>unvote; vote: Zorro</b>", ["unvote"], "unknown_name"),  # the nickname is reported, not dropped
    ("<b>Unvote. Vote: Zorro</b>", ["unvote"], "unknown_name"),
    ("<b>unvote; vote: Luca</b>", ["unvote", "vote:Luca"], None),
    ("<b>vote: Luca; unvote</b>", ["vote:Luca", "unvote"], None),
])
def test_a_bold_run_is_read_statement_by_statement(html: str, expected: list[str], issue: str | None) -> None:
    ex = extract_post(post(html), ctx(R))
    assert votes(ex) == expected
    assert (issue in codes(ex)) if issue else "unknown_name" not in codes(ex)


def test_a_word_inside_a_sentence_is_still_no_statement() -> None:
    ex = extract_post(post("<b>I am not going to vote Zorro</b>"), ctx(R))
    assert ex.intents == () and ex.issues == ()


@pytest.mark.parametrize("html", ["<b>VOTE: -L-</b>", "<b>VOTE: [L]</b>", "<b>VOTE: L</b>", "[vote]-L-[/vote]",
                                  "<b>vote -L-, obviously</b>"])
def test_a_name_of_punctuation_or_in_brackets_is_voteable(html: str) -> None:
    assert votes(extract_post(post(html), ctx(R))) == ["vote:-L-"]


def test_a_short_name_without_punctuation_still_needs_its_letters() -> None:
    ex = extract_post(post("<b>VOTE: Lu</b>"), ctx(roster("Lu", "Anna", "Al")))
    assert votes(ex) == ["vote:Lu"]
    assert votes(extract_post(post("<b>VOTE: A</b>"), ctx(roster("Al", "Anna")))) == []


def test_a_bracketed_name_keeps_its_brackets_when_they_are_its_own() -> None:
    assert votes(extract_post(post("<b>VOTE: hp [leaves]</b>"), ctx(R))) == ["vote:hp [leaves]"]


def test_a_certain_vote_in_an_uncounted_form_is_reported_even_with_an_unknown_name() -> None:
    ex = extract_post(post("Vote: Zorro"), ctx(R, forms=("bold", "tag")))
    assert ex.intents == () and codes(ex) == ["vote_form_not_counted"]


def test_a_loose_phrase_in_an_uncounted_form_stays_quiet() -> None:
    ex = extract_post(post("vote zorro maybe later"), ctx(R, forms=("bold", "tag")))
    assert ex.intents == () and ex.issues == ()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_preset_expands_to_known_forms(preset: str) -> None:
    assert expand_forms((preset,)) == PRESETS[preset]
    assert set(PRESETS[preset]) <= set(FORMS)


def test_presets_and_forms_are_one_list_with_the_config_type() -> None:
    assert set(typing.get_args(VoteForm)) == set(FORMS) | set(PRESETS)


def test_expanding_keeps_order_and_drops_repeats() -> None:
    assert expand_forms(("mafiauniverse", "bold", "pm")) == ("hash", "bold", "pm")


def test_the_teamliquid_preset_counts_a_bold_and_a_bare_hash_vote() -> None:
    c = ctx(R, forms=expand_forms(("teamliquid",)))
    assert votes(extract_post(post("<b>##Vote: Luca</b>"), c)) == ["vote:Luca"]
    assert votes(extract_post(post("##vote Marco"), c)) == ["vote:Marco"]


@pytest.mark.parametrize("html, expected", [("<b>VOTE: lynch Marco</b>", ["vote:Marco"]),
                                            ("<b>vote to lynch Marco</b>", ["vote:Marco"]),
                                            ("<b>VOTE: no lynch</b>", ["vote:__no_lynch__"])])
def test_lynch_before_the_name_is_part_of_the_phrase(html: str, expected: list[str]) -> None:
    assert votes(extract_post(post(html), ctx(R))) == expected
