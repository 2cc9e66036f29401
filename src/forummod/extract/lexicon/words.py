"""The vocabulary types every language module fills in: `Words` and `Act` (data only).

They live apart from the package `__init__` (which merges the languages) so a language
module imports its types without importing the package that imports it.
"""

from __future__ import annotations

from dataclasses import field
from types import MappingProxyType
from typing import Mapping

from forummod.records import frozen


@frozen
class Act:
    """One way to say an action verb of `forummod.engine.catalog.ACTIONS`.

    `pattern` is the keyword; the targets follow it. `args` are fixed extra arguments the
    phrase itself carries (``换第一张`` -> card 1). `prefix` restricts the phrase to lines
    that start with that role or building prefix (``理发师：杀 X`` is the Barber, not a kill).
    `before`: the name may also come *before* the keyword (``X 报刀``).
    `plain`: the keyword is distinctive enough to be read anywhere in a plain (not bold, not
    prefixed) thread line, as the written forms of VIL §6.8 are (``领主大人，请赦免我！``).
    """

    verb: str
    pattern: str
    args: tuple[tuple[str, str], ...] = ()
    prefix: str | None = None
    before: bool = False
    plain: bool = False


@frozen
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
