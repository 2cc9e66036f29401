"""What the GM needs to see about a night, built once from an analysis (issue 14, item 7).

`status` (text and JSON) prints it and a GM console can show the same record: the night actions
received so far (who sent what, valid or not, which one counts), every private result with its
recipient, the protections, the rotating rights and titles, the tokens and one-shot powers left,
and who still owes a required action. Pure: a function of a `service.GameAnalysis`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from forummod.engine.events import ActionEvent
from forummod.engine.ruleset import GmNote
from forummod.engine.types import Phase
from forummod.model import ActionIntent
from forummod.records import frozen

#: Verbs whose counted action protects its target for the night.
PROTECT_VERBS = frozenset({"protect", "heal"})


@frozen
class ReceivedAction:
    """One action PM (or day-power post) as the engine took it."""

    actor: str
    verb: str
    targets: tuple[str, ...]
    at: datetime
    source: str  # "PM m12" or "post #57"
    status: str  # "counts" | "replaced" (a later one of the same kind counts) | "rejected"
    reason: str = ""  # the rejection code, e.g. "late", "wrong_role"
    rule: str | None = None
    message: str = ""


@frozen
class PrivateResultView:
    """A private result and who it is for; `pending` while its proposal waits for the GM."""

    phase: str
    to: str
    key: str
    params: tuple[tuple[str, Any], ...]
    pending: bool = False


@frozen
class OwedAction:
    players: tuple[str, ...]  # any of them settles it
    actions: tuple[str, ...]
    rule: str | None
    message: str


@frozen
class NightView:
    """The GM's night desk: one night's inputs and everything only the state knows."""

    night: str  # the night shown ("" when the game has none yet)
    actions: tuple[ReceivedAction, ...]
    results: tuple[PrivateResultView, ...]
    protections: tuple[GmNote, ...]  # counted protect/heal actions and the ruleset's own
    notes: tuple[GmNote, ...]  # rotating rights, titles, tokens and one-shot powers
    owed: tuple[OwedAction, ...]


def _label(src: Any) -> str:
    if src is None:
        return ""
    if src.kind == "message":
        return f"PM {src.id}"
    if src.kind == "post":
        return f"post #{src.number if src.number is not None else src.id}"
    if src.kind == "gm":
        return f"GM #{src.id}"  # entered with `gm action` or the console (its event number)
    return src.kind


def night_of_interest(a: Any) -> Phase | None:
    """The current night, or during a day the night before it."""
    st = a.run.state
    ph = st.phase
    if ph is None:
        return None
    if ph.kind == "night":
        return ph
    nights = [p for p in a.run.phases if p.kind == "night" and p.start <= ph.start]
    return nights[-1] if nights else None


def received_actions(a: Any, night: Phase) -> tuple[ReceivedAction, ...]:
    """Every action intent the engine took for this night (or found too late for it), received up
    to the analysis's `now`, each marked counted, replaced or rejected. A faction's shared choice
    (`Ruleset.factional_actions`) is replaced by any member's later PM."""
    rs = a.ruleset

    def slot(i: ActionIntent) -> tuple[str, str]:
        if i.action in rs.factional_actions:
            return ("", i.action)
        return (i.actor, rs.action_slot(ActionEvent.of(i, 0.0)))

    rejections = {(r.kind, r.actor, r.source): r for r in a.run.rejections}
    nights = by_source(a.run)
    inside = [i for i in (*a.intents, *gm_entered_actions(a)) if isinstance(i, ActionIntent)
              and i.at <= a.now and action_night(a.run, i, nights) == night.name]
    inside.sort(key=lambda i: i.at)
    last: dict[tuple[str, str], ActionIntent] = {}
    for i in inside:
        if (i.action, i.actor, i.source) not in rejections:
            last[slot(i)] = i
    out = []
    for i in inside:
        r = rejections.get((i.action, i.actor, i.source))
        if r is not None:
            status, reason, rule, msg = "rejected", r.reason, r.rule, r.message
        else:
            counts = last.get(slot(i)) is i
            status, reason, rule, msg = ("counts" if counts else "replaced"), "", None, ""
        out.append(ReceivedAction(i.actor, i.action, i.targets, i.at, _label(i.source), status, reason, rule, msg))
    return tuple(out)


def action_night(run: Any, i: ActionIntent, nights: Mapping[tuple[str, Any], str]) -> str:
    """The night an action belongs to as the engine took it (LUP D17: PMs sent during the day
    before count for the night after it; a late one shows on the night it was late for). An
    action the engine never took as a night action (a refused thread post, a day power, one the
    run did not reach) shows on the night whose hours it was sent in. `nights`: `by_source(run)`."""
    known = nights.get((i.action, i.source)) if i.source is not None else None
    if known:
        return known
    for ph in run.phases:
        if ph.kind == "night" and ph.start <= i.at and (ph.end is None or i.at < ph.end):
            return ph.name
    return ""


def by_source(run: Any) -> dict[tuple[str, Any], str]:
    """`GameRun.action_nights` keyed by (action, source): the engine names the seat's holder at
    the time, extraction the seat's latest name, and a source is one PM or post either way."""
    return {(action, src): night for (action, _actor, src), night in getattr(run, "action_nights", {}).items()}


def gm_entered_actions(a: Any) -> tuple[ActionIntent, ...]:
    """The actions the GM entered (`gm action`, the console) and did not undo, as intents, so the
    night desk lists them beside the PMs, in time order, with the same counts/replaced marks."""
    from forummod.model import Source
    from forummod.gm_log import effective_events

    return tuple(ActionIntent(p["actor"], p["action"], ev.at, Source("gm", id=str(ev.id)),
                              targets=tuple(p.get("targets", ())), args=tuple(sorted((p.get("args") or {}).items())),
                              channel="gm")
                 for ev in effective_events(getattr(a.inputs, "events", ())) if ev.kind == "action"
                 for p in (ev.payload,))


def private_results(a: Any) -> tuple[PrivateResultView, ...]:
    out = [PrivateResultView(ph, r.to, r.fact.key, r.fact.params) for ph, r in a.run.private]
    for p in a.run.state.proposals:
        if p.status == "pending":
            out += [PrivateResultView(p.phase, r.to, r.fact.key, r.fact.params, pending=True) for r in p.private]
    return tuple(out)


def owed_actions(a: Any) -> tuple[OwedAction, ...]:
    st = a.run.state
    if st.phase is None or st.outcome is not None:
        return ()
    from forummod.i18n import gm_language

    lang = getattr(getattr(a, "game", None), "language", "") or getattr(a.ruleset, "language", "")
    with gm_language(lang):  # issue 20: in the GM's language
        return tuple(OwedAction(r.owed_by, r.actions, r.rule, r.message)
                     for r in a.ruleset.required_actions(st, st.phase))


def night_view(a: Any) -> NightView:
    """Build the GM's night view of an analysed game once; `status` and a console share it."""
    night = night_of_interest(a)
    actions = received_actions(a, night) if night is not None else ()
    notes = a.ruleset.gm_notes(a.run.state, night)
    counted = tuple(GmNote("protection", t, x.verb, f"by {x.actor}") for x in actions
                    if x.status == "counts" and x.verb in PROTECT_VERBS for t in x.targets)
    return NightView(
        night=night.name if night is not None else "", actions=actions, results=private_results(a),
        protections=counted + tuple(n for n in notes if n.kind == "protection"),
        notes=tuple(n for n in notes if n.kind != "protection"), owed=owed_actions(a))


def night_view_json(v: NightView) -> dict[str, Any]:
    """The documented `status --json` form of the night view (key `night_desk`)."""
    def note(n: GmNote) -> dict[str, Any]:
        return {"kind": n.kind, "player": n.player, "what": n.what, "detail": n.detail, "rule": n.rule}

    return {
        "night": v.night or None,
        "actions": [{"actor": x.actor, "verb": x.verb, "targets": list(x.targets), "at": x.at.isoformat(),
                     "source": x.source, "status": x.status, "reason": x.reason or None, "rule": x.rule,
                     "message": x.message or None} for x in v.actions],
        "private_results": [{"phase": r.phase, "to": r.to, "key": r.key, "params": dict(r.params),
                             "pending": r.pending} for r in v.results],
        "protections": [note(n) for n in v.protections],
        "notes": [note(n) for n in v.notes],
        "owed": [{"players": list(o.players), "actions": list(o.actions), "rule": o.rule, "message": o.message}
                 for o in v.owed],
    }
