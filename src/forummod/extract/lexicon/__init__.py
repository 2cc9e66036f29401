"""Per-language word lists for the vote and action grammars (data only, no logic).

Each language module (`en`, `it`, `ru`, `nl`, `zh`, `de`) defines ``WORDS`` (a `Words`) and
``ACTIONS`` (ruleset -> `Act` phrases). Patterns are regular-expression fragments matched
case-insensitively; ``\\s+`` between words lets players type any spacing. `lexicon(lang)`
merges the language with English, which is always accepted.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Mapping

from forummod.extract.lexicon.words import Act, Words
from forummod.records import frozen

__all__ = ["Act", "LANGUAGES", "Lexicon", "PSEUDO_ROLE_VERBS", "Words", "lexicon"]


#: Prefixes that are buildings or titles, not roles: the day power they imply (village).
PSEUDO_ROLE_VERBS: Mapping[str, str] = MappingProxyType({
    "barber": "barber", "confessor": "confess", "bonesetter": "restore", "bailiff": "assign",
    "schoolmarm": "silence", "lord": "pardon", "sheriff": "sheriff_choice", "baker": "watch",
})


@frozen
class Lexicon:
    """One language merged with English: what the grammars compile."""

    language: str
    words: Words
    actions: Mapping[str, tuple[Act, ...]]


def _merge_words(a: Words, b: Words) -> Words:
    def cat(x: tuple[str, ...], y: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(x + y))

    def mp(x: Mapping[str, str], y: Mapping[str, str]) -> Mapping[str, str]:
        return MappingProxyType({**y, **x})

    return Words(
        vote=cat(a.vote, b.vote), unvote=cat(a.unvote, b.unvote), abstain=cat(a.abstain, b.abstain),
        no_lynch=cat(a.no_lynch, b.no_lynch), connectors=cat(a.connectors, b.connectors),
        stop=cat(a.stop, b.stop), self_words=cat(a.self_words, b.self_words),
        conj=cat(a.conj, b.conj), alt=cat(a.alt, b.alt), roles=mp(a.roles, b.roles),
        positions=mp(a.positions, b.positions), cards=mp(a.cards, b.cards), modes=mp(a.modes, b.modes),
        buildings=mp(a.buildings, b.buildings), building_joiner=cat(a.building_joiner, b.building_joiner),
    )


LANGUAGES = ("en", "it", "ru", "nl", "zh", "de")


@lru_cache(maxsize=None)
def lexicon(language: str) -> Lexicon:
    """The merged lexicon for `language` (unknown languages fall back to English)."""
    from forummod.extract.lexicon import de, en, it, nl, ru, zh

    mods = {"en": en, "it": it, "ru": ru, "nl": nl, "zh": zh, "de": de}
    mod = mods.get(language, en)
    words = mod.WORDS if mod is en else _merge_words(mod.WORDS, en.WORDS)
    actions: dict[str, tuple[Act, ...]] = {}
    for ruleset in set(mod.ACTIONS) | set(en.ACTIONS):
        own = mod.ACTIONS.get(ruleset, ()) if mod is not en else ()
        actions[ruleset] = tuple(own) + tuple(en.ACTIONS.get(ruleset, ()))
    return Lexicon(mod.__name__.rsplit(".", 1)[-1], words, MappingProxyType(actions))
