"""`Finding`: one thing the GM should know about, as data.

A finding carries a stable `key` so the next poll recognises it: the key names *what* was
found (a post, a block of a phase, a rejected vote), never *when* it was computed, so the
store can tell a new or changed finding from one already reported (see `forummod.check_store`).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from forummod.model import Severity, Source
from forummod.records import frozen


@frozen
class Finding:
    """A rule the tool saw broken (or about to be), with a link to the evidence.

    `code` is the stable machine name of the check (``activity_missed``, ``dead_post``...),
    `rule` the ruleset rule id it enforces (None for a generic forum-game check), `at` the
    instant it is about (the post, the rejected vote, the deadline), `message` for the GM
    in the game's language (`forummod.i18n`; `code` and `key` are the same in every language).
    Findings are GM-only: they may name roles and secret votes.
    """

    code: str
    key: str
    message: str
    rule: str | None = None
    player: str | None = None
    source: Source | None = None
    at: datetime | None = None
    severity: Severity = "warning"
    phase: str | None = None
    quote: str = ""  # the words of the post concerned (an excerpt), for the GM's warnings
    details: str = ""  # more lines for the GM (e.g. both versions of an edited vote)

    @property
    def link(self) -> str | None:
        return self.source.url if self.source is not None else None

    def payload(self) -> dict[str, Any]:
        """What must stay equal for the finding to count as unchanged (hashed by the store)."""
        return {
            "rule": self.rule, "code": self.code, "player": self.player, "phase": self.phase,
            "time": _iso(self.at), "message": self.message, "severity": self.severity,
            "source": _source_dict(self.source), "details": self.details,
        }

    def to_dict(self, new: bool | None = None) -> dict[str, Any]:
        """The documented JSON shape of `forummod check --json`."""
        return {
            "rule": self.rule, "code": self.code, "player": self.player, "phase": self.phase,
            "link": self.link, "source": _source_dict(self.source), "at": _iso(self.at),
            "message": self.message, "severity": self.severity, "key": self.key, "new": new,
            "quote": self.quote, "details": self.details,
        }


def _iso(dt: datetime | None) -> str | None:
    return None if dt is None else dt.astimezone(timezone.utc).isoformat()


def _source_dict(src: Source | None) -> dict[str, Any] | None:
    if src is None:
        return None
    return {"kind": src.kind, "id": src.id, "number": src.number, "thread": src.thread, "url": src.url,
            "label": src.label()}


def source_key(src: Source | None, at: datetime | None) -> str:
    """A stable identity for where something came from (post/PM id, else its time)."""
    if src is not None and src.id:
        return f"{src.kind}:{src.thread or ''}:{src.id}"
    return f"at:{_iso(at) or '?'}"
