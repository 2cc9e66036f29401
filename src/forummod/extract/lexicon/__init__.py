"""Per-language word lists for the vote and action grammars (data only, no logic).

Each language module (`en`, `it`, `ru`, `nl`, `zh`, `de`) defines ``WORDS`` (a `Words`) and
``ACTIONS`` (ruleset -> `Act` phrases). Patterns are regular-expression fragments matched
case-insensitively; ``\\s+`` between words lets players type any spacing. `lexicon(lang)`
merges the language with English, which is always accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True)
class Act:
    """One way to say an action verb of `forummod.engine.catalog.ACTIONS`.

    `pattern` is the keyword; the targets follow it. `args` are fixed extra arguments the
    phrase itself carries (``换第一张`` -> card 1). `prefix` restricts the phrase to lines
    that start with that role or building prefix (``理发师：杀 X`` is the Barber, not a kill).
    `before`: the name may also come *before* the keyword (``X 报刀``).
    """

    verb: str
    pattern: str
    args: tuple[tuple[str, str], ...] = ()
    prefix: str | None = None
    before: bool = False


@dataclass(frozen=True)
class Words:
    """Vote vocabulary and small function words of one language."""

    vote: tuple[str, ...] = ()  # keywords introducing a vote
    unvote: tuple[str, ...] = ()  # withdraw a vote (optionally naming whom)
    abstain: tuple[str, ...] = ()  # declared abstention: same effect as a general unvote
    no_lynch: tuple[str, ...] = ()  # targets meaning "no lynch"
    connectors: tuple[str, ...] = ()  # skipped between keyword and name ("for", "per", "за")
    stop: tuple[str, ...] = ()  # first word after a keyword showing it was a noun ("vote count")
    self_words: tuple[str, ...] = ()  # "me", "a me stesso": the sender of a PM
    conj: tuple[str, ...] = ()  # "and" between two targets
    alt: tuple[str, ...] = ()  # "or" between names: an undecided vote
    roles: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # extra role/building prefixes
    positions: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # centre cards (ON-N4)
    cards: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # Thief's card words (VIL-N-01)
    modes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # Little Girl's risk (VIL-N-07)
    buildings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # building words -> code
    building_joiner: tuple[str, ...] = ()  # between the Vagabond and the building ("入住", "into")


#: Prefixes that are buildings or titles, not roles: the day power they imply (village).
PSEUDO_ROLE_VERBS: Mapping[str, str] = MappingProxyType({
    "barber": "barber", "confessor": "confess", "bonesetter": "restore", "bailiff": "assign",
    "schoolmarm": "silence", "lord": "pardon", "sheriff": "sheriff_choice", "baker": "watch",
})


@dataclass(frozen=True)
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
