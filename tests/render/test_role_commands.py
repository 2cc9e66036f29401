"""Every PM command a role PM (or a result PM) of lupus-eresia, witch-hunt, one-night and mafia-majority quotes
is one forummod understands in a game of that language.

Role descriptions tell players what to send ("mandami in privato «indago NOME»"); a quoted
command the extraction does not read would leave the GM with an "unparsed PM" for every night
of every player who follows the instructions. Each quoted text (between «», "" or “”) with the
name placeholder filled in must give an action the role may send (or a vote) and no issue.
"""

from __future__ import annotations

import re

import pytest

from forummod.engine.catalog import ACTIONS, ROLES
from forummod.extract import extract_message, extract_post
from forummod.model import ActionIntent, VoteIntent
from forummod.render import LANGUAGES, phrasebook_for

from tests.extract.helpers import ctx, message, post, roster

RULESETS = ("lupus-eresia", "witch-hunt", "one-night", "mafia-majority")
PLACEHOLDER = {"it": "NOME", "en": "NAME", "ru": "ИМЯ", "nl": "NAAM", "zh": "名字", "de": "NAME"}
NAMES = {"it": ("Marco", "Luca"), "en": ("Marco", "Luca"), "nl": ("Marco", "Luca"), "ru": ("Маша", "Игорь"),
         "zh": ("小明", "小红"), "de": ("Marco", "Luca")}
SENDER = "Anna"
QUOTED = re.compile(r"«([^»]+)»|\"([^\"]+)\"|“([^”]+)”|„([^“]+)“")  # „…“: German
NO_TARGET = {"withdraw_secret_vote", "pass", "check_centre"}


def _quotes(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in QUOTED.finditer(text)]


def _fill(command: str, lang: str) -> str:
    out = command
    for name in NAMES[lang]:
        out = out.replace(PLACEHOLDER[lang], name, 1)
    return out


def _read(command: str, lang: str, ruleset: str):
    seats = roster(SENDER, *NAMES["it"], *NAMES["ru"], *NAMES["zh"])
    return extract_message(message(_fill(command, lang), sender=SENDER),
                           ctx(seats, language=lang, ruleset=ruleset, forms=("bold", "plain", "pm")))


def _leaves(entry):
    if isinstance(entry, str):
        yield entry
    elif isinstance(entry, dict):
        for k, v in entry.items():
            if k != "by":
                yield from _leaves(v)


def _role_cases():
    for ruleset in RULESETS:
        for lang in LANGUAGES:
            pb = phrasebook_for(lang, ruleset, "plain")
            for role in ROLES[ruleset]:
                for command in _quotes(str(pb.role_entry(role).get("desc", ""))):
                    yield pytest.param(ruleset, lang, role, command, id=f"{ruleset}-{lang}-{role}-{command}")


@pytest.mark.parametrize("ruleset,lang,role,command", list(_role_cases()))
def test_a_command_quoted_in_a_role_pm_is_understood(ruleset, lang, role, command):
    ex = _read(command, lang, ruleset)
    assert not ex.issues, [i.message for i in ex.issues]
    assert ex.intents, f"{command!r} is not read as anything"
    for intent in ex.intents:
        if isinstance(intent, VoteIntent):
            continue
        assert isinstance(intent, ActionIntent)
        spec = ACTIONS[ruleset][intent.action]
        assert role in spec.roles, f"{command!r} reads as {intent.action}, which a {role} cannot send"
        assert intent.targets or intent.action in NO_TARGET, (command, intent)


def _fact_cases():
    """Commands in result sentences (the last wolf's, a new witch's, the Jager's, the PM vote)."""
    for ruleset in RULESETS:
        for lang in LANGUAGES:
            pb = phrasebook_for(lang, ruleset, "plain")
            for key, entry in pb.data.get("facts", {}).items():
                for text in _leaves(entry):
                    for command in (q for q in _quotes(text) if PLACEHOLDER[lang] in q):
                        yield pytest.param(ruleset, lang, command, id=f"{ruleset}-{lang}-{key}-{command}")


@pytest.mark.parametrize("ruleset,lang,command", list(_fact_cases()))
def test_a_command_quoted_in_a_result_is_understood(ruleset, lang, command):
    ex = _read(command, lang, ruleset)
    assert not ex.issues, [i.message for i in ex.issues]
    assert ex.intents, f"{command!r} is not read as anything"


def test_every_role_with_a_power_quotes_at_least_one_command():
    for ruleset in RULESETS:
        powers = {r for spec in ACTIONS[ruleset].values() for r in spec.roles}
        for lang in LANGUAGES:
            pb = phrasebook_for(lang, ruleset, "plain")
            for role in sorted(powers):
                assert _quotes(str(pb.role_entry(role).get("desc", ""))), (ruleset, lang, role)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_jager_s_shot_as_quoted_also_works_as_a_post_in_the_thread(lang):
    """ON-V4/D9: the lynched Jager may name the target in the thread; a thread post is read
    only with a role prefix (or in bold), so the quoted command carries one."""
    pb = phrasebook_for(lang, "one-night", "plain")
    facts = {**pb.fallback.get("facts", {}), **pb.data.get("facts", {})}  # German: the English source
    quoted = [q for q in _quotes(str(pb.role_entry("hunter")["desc"])) + _quotes(facts["hunter_must_shoot"])
              if PLACEHOLDER[lang] in q and not isinstance(_read(q, lang, "one-night").intents[0], VoteIntent)]
    assert len(quoted) == 2
    seats = roster(SENDER, *NAMES["it"], *NAMES["ru"], *NAMES["zh"])
    for command in quoted:
        ex = extract_post(post(_fill(command, lang), author=SENDER), ctx(seats, language=lang, ruleset="one-night"))
        assert [(i.action, i.targets) for i in ex.intents] == [("shoot", (NAMES[lang][0],))], command
