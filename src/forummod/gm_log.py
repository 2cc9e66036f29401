"""The GM's event log read through its undos (pure): what still stands, and what undid what.

Nothing is ever deleted from the log: `gm undo N` appends an event. `service` reads every
analysis through `effective_events`; the night desk (`gamestate_view`) and the status report
use these too, without importing the service.
"""

from __future__ import annotations

from typing import Any, Iterable


def effective_events(stored: Iterable[Any]) -> list[Any]:
    """The log without the events a `gm undo` took back (an undo of an undo restores the event).

    Nothing is deleted: `gm undo N` appends an event, and every analysis reads the log through
    this, so `replay` reproduces the undo exactly."""
    stored = list(stored)
    undone = undone_by(stored)
    return [ev for ev in stored if ev.id not in undone and ev.kind != "undo"]


def undone_by(stored: Iterable[Any]) -> dict[int, int]:
    """Event id -> the id of the `gm undo` that took it back (undos that were undone do not count)."""
    undone: dict[int, int] = {}
    for ev in sorted(stored, key=lambda e: e.id, reverse=True):
        if ev.kind == "undo" and ev.id not in undone:
            undone[int(ev.payload["event"])] = ev.id
    return undone


def settled_names(stored: Iterable[Any]) -> dict[str, Any]:
    """Proposal key ("alias:kts") -> the `alias` event that settles it now (the latest one not
    undone): its payload says the spelling, the verdict and, when approved, the player."""
    out: dict[str, Any] = {}
    for ev in effective_events(stored):
        if ev.kind == "alias" and ev.payload.get("key"):
            out[ev.payload["key"]] = ev
    return out
