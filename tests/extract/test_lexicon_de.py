"""German vote words (issue 20): "Abstimmung: X", "Stimme für X", "ich stimme für X", the unvote
forms, "keine Hinrichtung"; and the commands the German mafia-majority role PMs quote."""

from __future__ import annotations

import pytest

from forummod.extract import extract_message, extract_post
from forummod.model import NO_LYNCH

from tests.extract.helpers import ctx, message, post, roster, votes

SEATS = roster("Anna", "Bernd", "Clara")


def _thread(html: str):
    return votes(extract_post(post(html, author="Anna"), ctx(SEATS, language="de")))


@pytest.mark.parametrize("html", ["<b>Abstimmung: Bernd</b>", "<b>Stimme für Bernd</b>", "<b>ich stimme für Bernd</b>",
                                  "<b>Ich stimme für Bernd</b>", "<b>Stimme: Bernd</b>", "<b>stimme gegen Bernd</b>"])
def test_a_bold_german_vote_names_its_target(html):
    assert _thread(html) == ["vote:Bernd"]


@pytest.mark.parametrize("html", ["<b>Stimme zurück</b>", "<b>ich ziehe meine Stimme zurück</b>",
                                  "<b>Stimme zurückziehen</b>", "<b>unvote</b>"])
def test_german_unvote_forms_withdraw_the_vote(html):
    assert _thread(html) == ["unvote"]


def test_no_lynch_in_german():
    assert _thread("<b>Abstimmung: keine Hinrichtung</b>") == [f"vote:{NO_LYNCH}"]


def test_english_votes_still_count_in_a_german_game():
    assert _thread("<b>vote Clara</b>") == ["vote:Clara"]


def test_a_vote_in_plain_text_of_a_pm_is_read():
    ex = extract_message(message("Stimme für Clara", sender="Anna"),
                         ctx(SEATS, language="de", forms=("bold", "plain", "pm")))
    assert votes(ex) == ["vote:Clara"]


@pytest.mark.parametrize("text,action", [("untersuche Bernd", "check"), ("beschütze Bernd", "protect"),
                                         ("töte Bernd", "kill")])
def test_the_commands_of_the_german_role_pms_are_actions(text, action):
    ex = extract_message(message(text, sender="Anna"), ctx(SEATS, language="de", forms=("bold", "plain", "pm")))
    assert not ex.issues and [(i.action, i.targets) for i in ex.intents] == [(action, ("Bernd",))]
