"""The GM's decisions as events: built and checked once, for `forummod gm` and the console.

    rec = plan(ws, "g", "set-vote", {"voter": "Bob", "target": "Ann"}, at)
    done = record(ws, "g", rec)          # appends the event; done.message says what it did

`plan` validates the request against the game (known players, ruleset verbs and roles, pending
proposals, phase ids) and returns the event to append, or a no-op with its reason (approving a
proposal twice changes nothing). `params` uses the names of the `gm` subcommand's options, so
the CLI passes `vars(args)` and a console form passes its fields. Only `record` writes.
"""

from __future__ import annotations

from dataclasses import field
from datetime import datetime
from typing import Any, Mapping

from forummod.errors import UsageError
from forummod.records import frozen

#: Every `gm` subcommand `plan` understands.
COMMANDS = ("approve", "reject", "alias", "kill", "modkill", "revive", "replace", "set-vote", "set-role", "set-votes", "extend", "end",
            "start", "pause", "resume", "end-game", "undo", "action", "revote-deadline", "override", "note")


@frozen
class GmRecord:
    """One GM event to append (`kind`, `payload` at `at`), or `noop`: why nothing is needed."""

    command: str
    kind: str = ""
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: datetime | None = None
    noop: str = ""


@frozen
class GmDone:
    """What `record` did: the event number (None for a no-op), its words, correction drafts."""

    record: GmRecord
    event_id: int | None
    message: str
    corrections: tuple[Mapping[str, Any], ...] = ()


def _p(params: Mapping[str, Any], key: str, default: Any = None) -> Any:
    v = params.get(key, default)
    return default if v is None else v


def plan(ws: Any, gid: str, cmd: str, params: Mapping[str, Any], at: datetime) -> GmRecord:
    """The event `gm CMD` with `params` appends at `at`, checked; a `UsageError` names what is wrong."""
    from forummod.engine.registry import get_ruleset_class, make_ruleset
    from forummod.service import analyse_game

    game = ws.cfg.game(gid)
    players = {p.name for p in game.players}
    if cmd in ("approve", "reject") and str(_p(params, "key", "")).strip().lower().startswith("alias:"):
        return _alias_verdict(ws, gid, cmd, str(params["key"]).strip(), str(_p(params, "player", "") or ""), at)
    if cmd == "alias":
        return _alias(ws, gid, str(_p(params, "spelling", "")), str(_p(params, "player", "")), at)
    if cmd in ("approve", "reject"):
        key = str(_p(params, "key", "")).strip()
        if _p(params, "player", ""):
            raise UsageError(f"--player picks the player of an alias proposal (alias:…), not of {key}")
        a = analyse_game(ws, gid, now=at)
        prop = a.run.state.proposal(key)
        if prop is None:
            keys = ", ".join(p.key for p in a.run.state.pending()) or "none"
            raise UsageError(f"no proposal {key!r} (pending: {keys})")
        if prop.status != "pending":
            return GmRecord(cmd, noop=f"{key} is already {prop.status}; nothing to do")
        return GmRecord(cmd, "decision", {"key": key, "verdict": "approve" if cmd == "approve" else "reject"}, at)
    if cmd in ("kill", "modkill", "revive"):
        player = _p(params, "player", "")
        _known(player, players)
        return GmRecord(cmd, "override", {"kind": cmd, "player": player, "cause": _p(params, "cause", cmd) or cmd}, at)
    if cmd == "replace":
        when, post = _p(params, "when"), _p(params, "post")
        if when and post is not None:
            raise UsageError("gm replace: give --at TIME or --post N, not both")
        if when:
            at = _time(when, game.tz)
        payload = _replacement(ws, gid, _p(params, "player", ""), _p(params, "new_name", ""), post)
        if post is not None:
            at = post_time(ws, gid, int(post))
        return GmRecord(cmd, "override", payload, at)
    if cmd == "set-vote":
        voter = _p(params, "voter", "")
        _known(voter, players)
        return GmRecord(cmd, "override", {"kind": "set_vote", "player": voter, "target": _p(params, "target", "")}, at)
    if cmd == "set-role":
        player, role_text = _p(params, "player", ""), _p(params, "role", "")
        _known(player, players)
        rs = get_ruleset_class(game.ruleset)
        role = rs.canonical_role(role_text)  # as the rules write it: 'Lupo Mannaro', 'guardia_gemella'
        if role not in rs.role_ids():
            from forummod.schema import _did_you_mean

            raise UsageError(f"unknown role {role_text!r} for {game.ruleset}" + _did_you_mean(role_text, rs.role_ids())
                             + f" (roles: {', '.join(sorted(rs.role_ids() - set(_aliases(game.ruleset))))})")
        return GmRecord(cmd, "override", {"kind": "set_role", "player": player, "role": role}, at)
    if cmd == "set-votes":
        return _set_votes(game, players, _p(params, "player", ""), _p(params, "votes", None), at)
    if cmd == "extend":
        phase = _p(params, "phase", "")
        _phase_id(phase)
        until, close = _p(params, "until"), _p(params, "close")
        if not until and not close:
            raise UsageError("gm extend needs --until TIME (the phase end) and/or --close TIME (the vote close)")
        payload: dict[str, Any] = {"phase": phase}
        if until:
            payload["until"] = _time(until, game.tz).isoformat()
        if close:
            payload["close"] = _time(close, game.tz).isoformat()
        return GmRecord(cmd, "extend", payload, at)
    if cmd in ("end", "start"):
        pid = _phase_id(_p(params, "phase", ""))
        when, post = _p(params, "when"), _p(params, "post")
        if when and post is not None:
            raise UsageError(f"gm {cmd}: give --at TIME or --post N, not both")
        payload = {"action": cmd, "phase": str(pid)}
        if post is not None:
            at = post_time(ws, gid, int(post))
            payload["post"] = int(post)
        else:
            at = _time(when, game.tz) if when else at
            payload["at"] = at.isoformat()
        return GmRecord(cmd, "phase", payload, at)
    if cmd in ("pause", "resume"):
        paused = analyse_game(ws, gid, now=at).run.paused_since
        if cmd == "pause" and paused is not None:
            raise UsageError(f"the game is already paused since {paused.isoformat()}")
        if cmd == "resume" and paused is None:
            raise UsageError("the game is not paused")
        return GmRecord(cmd, "phase", {"action": cmd}, at)
    if cmd == "end-game":
        winners = list(_p(params, "winners", ()) or ())
        for w in winners:
            _known(w, players)
        result = "draw" if params.get("draw") else "abandoned" if params.get("abandoned") else \
            (_p(params, "result", "") or "gm")
        return GmRecord(cmd, "phase", {"action": "end_game", "result": result, "winners": winners,
                                       "note": _p(params, "note", "")}, at)
    if cmd == "undo":
        return GmRecord(cmd, "undo", _undo(ws, gid, int(_p(params, "event", 0))), at)
    if cmd == "action":
        actor, verb = _p(params, "actor", ""), _p(params, "verb", "")
        _known(actor, players)
        verbs = make_ruleset(game.ruleset, game.options).actions
        if verbs and verb not in verbs:
            from forummod.schema import _did_you_mean

            raise UsageError(f"unknown action {verb!r} for {game.ruleset}" + _did_you_mean(verb, verbs)
                             + f" (actions: {', '.join(sorted(verbs))})")
        targets = [t for t in (_p(params, "targets", ()) or ()) if t]
        for t in targets:
            _known(t, players)
        extra = dict(a.split("=", 1) for a in (_p(params, "arg", ()) or ()) if "=" in a)
        return GmRecord(cmd, "action", {"actor": actor, "action": verb, "targets": targets, "args": extra}, at)
    if cmd == "revote-deadline":
        return GmRecord(cmd, "override", {"kind": "revote_deadline", "player": "",
                                          "note": _time(_p(params, "until", ""), game.tz).isoformat(),
                                          "target": _p(params, "phase", "")}, at)
    if cmd == "override":
        for name in (_p(params, "player", ""), _p(params, "target", "")):
            if name:
                _known(name, players)
        return GmRecord(cmd, "override", {"kind": _p(params, "kind", ""), "player": _p(params, "player", ""),
                                          "target": _p(params, "target", ""), "note": _p(params, "note", "")}, at)
    if cmd == "note":
        return GmRecord(cmd, "override", {"kind": "note", "note": _p(params, "text", "")}, at)
    raise UsageError(f"unknown GM action {cmd!r} (one of: {', '.join(COMMANDS)})")


def _set_votes(game: Any, players: set[str], player: str, votes: Any, at: datetime) -> GmRecord:
    """A seat's number of votes from `at` on (mafia-majority: a double voter is 2, 0 = none)."""
    from forummod.engine.registry import get_ruleset_class

    _known(player, players)
    if not get_ruleset_class(game.ruleset).seat_votes:
        raise UsageError(f"{game.ruleset} has no per-seat votes; only mafia-majority counts them")
    if not str(votes).strip().isdigit():
        raise UsageError(f"gm set-votes needs the number of votes (0, 1, 2, ...), not {votes!r}")
    return GmRecord("set-votes", "override", {"kind": "set_votes", "player": player, "value": str(int(votes))}, at)


def record(ws: Any, gid: str, rec: GmRecord) -> GmDone:
    """Append `rec`'s event (nothing for a no-op); after an undo, correction drafts for the
    published posts whose stated facts (a death, a role, a lynch, a deadline) the undo changed."""
    if rec.noop:
        return GmDone(rec, None, rec.noop)
    published = _published(ws, gid, _recorded_at(ws, gid, rec.payload.get("event"))) if rec.kind == "undo" else []
    before = None
    if published:  # the game as the published posts may have stated it, to compare facts with
        from forummod.service import analyse_game

        before = analyse_game(ws, gid)
    eid = ws.store.append_event(gid, rec.at, rec.kind, dict(rec.payload), actor="gm")
    corrections = tuple(_corrections(ws, gid, before, published)) if published else ()
    return GmDone(rec, eid, describe_for(ws.cfg.game(gid), rec.command, rec.payload), corrections)


def _time(text: str, tz: Any) -> datetime:
    from forummod.commands._common import parse_time

    return parse_time(str(text), tz)


def _phase_id(text: str):
    from forummod.engine.types import PhaseId

    try:
        return PhaseId.parse(str(text))
    except ValueError as e:
        raise UsageError(str(e)) from None


def post_time(ws: Any, gid: str, number: int) -> datetime:
    """When game-thread post `number` was written (a `UsageError` when it is not in the store)."""
    from forummod.service import load_inputs

    for p in load_inputs(ws, gid).posts.get("game", ()):
        if p.number == number:
            return p.created_at
    raise UsageError(f"no game-thread post number {number} in the store (poll first?)")


def _replacement(ws: Any, gid: str, player: str, new_name: str, post: Any) -> dict:
    """A replacement at a post or a time; refused when the seat is not the old player's now
    (a second identical `gm replace`, or one the config already has)."""
    from forummod.service import roster_with_events

    game = ws.cfg.game(gid)
    new_name = str(new_name).strip()
    if not new_name:
        raise UsageError("gm replace needs the replacement's forum name")
    roster = roster_with_events(game.roster(), ws.store.events(gid))
    seats = {s.name: s for s in roster.players}
    for s in roster.players:
        if player in (r.previous for r in s.replacements) and s.name == new_name:
            raise UsageError(f"{new_name} already replaced {player}; nothing to do")
    if player not in seats:
        held = next((s.name for s in roster.players if player in (r.previous for r in s.replacements)), None)
        if held is not None:
            raise UsageError(f"{player} was already replaced: the seat is {held}'s now "
                             f"(replace {held} instead, or 'gm undo' that replacement)")
        _known(player, set(seats))
    if new_name in seats or any(new_name in s.all_accounts for s in roster.players):
        raise UsageError(f"{new_name} already holds a seat")
    payload: dict[str, Any] = {"kind": "replace", "player": player, "target": new_name}
    if post is not None:
        post_time(ws, gid, int(post))
        payload["at_post"] = int(post)
    return payload


def _alias_verdict(ws: Any, gid: str, cmd: str, key: str, player: str, at: datetime) -> GmRecord:
    """`gm approve alias:kts [--player P]` / `gm reject alias:kts`: the GM's verdict on an alias
    proposal, as one `alias` event (undone by `gm undo` like any other)."""
    from forummod.names_settled import find
    from forummod.service import analyse_game

    a = analyse_game(ws, gid, now=at)
    prop = find(a.names, key)
    if prop is None:
        keys = ", ".join(p.key for p in a.pending_names()) or "none"
        raise UsageError(f"no name proposal {key!r} (pending: {keys}); 'forummod gm alias SPELLING PLAYER' "
                         "settles any spelling")
    if prop.status != "pending":
        return GmRecord(cmd, noop=f"{prop.key} is already {prop.status}"
                        + (f" ({prop.spelling} = {prop.player})" if prop.player else "") + "; nothing to do")
    payload: dict[str, Any] = {"key": prop.key, "spelling": prop.spelling, "candidates": list(prop.candidates),
                               "rules": sorted({e.rule for e in prop.evidence}),
                               "verdict": "approve" if cmd == "approve" else "reject"}
    if cmd == "reject":
        if player:
            raise UsageError("gm reject takes no --player (to settle the name for another player: gm alias)")
        return GmRecord(cmd, "alias", payload, at)
    if not player:
        if prop.ambiguous:
            raise UsageError(f"{prop.key}: “{prop.spelling}” could be {' or '.join(prop.candidates)}; pick one: "
                             f"forummod gm approve {prop.key} --player {prop.candidates[0]!r}")
        player = prop.candidates[0]
    _known(player, _seat_names(ws, gid))
    return GmRecord(cmd, "alias", {**payload, "player": _seat_of(ws, gid, player)}, at)


def _alias(ws: Any, gid: str, spelling: str, player: str, at: datetime) -> GmRecord:
    """`gm alias SPELLING PLAYER`: settle any spelling by hand (proposed or not)."""
    from forummod.extract.aliases import alias_key
    from forummod.extract.names import resolve_name
    from forummod.service import roster_with_events

    spelling = spelling.strip()
    key = alias_key(spelling)
    if key == "alias:":
        raise UsageError("gm alias needs the spelling as the players write it, e.g. gm alias KTS KingTheSlayer")
    _known(player, _seat_names(ws, gid))
    game = ws.cfg.game(gid)
    roster = roster_with_events(game.roster(), ws.store.events(gid))
    seat = _seat_of(ws, gid, player)
    m = resolve_name(spelling, roster, language=game.language or "en", cutoff=game.votes.fuzzy_cutoff,
                     margin=game.votes.fuzzy_margin)
    if m.ok and m.via in ("exact", "alias", "replacement"):
        if m.name == seat:
            return GmRecord("alias", noop=f"“{spelling}” already means {seat}; nothing to do")
        raise UsageError(f"“{spelling}” is already {m.name}'s " + ("name" if m.via == "exact" else m.via)
                         + f"; it cannot mean {seat} too")
    return GmRecord("alias", "alias", {"key": key, "spelling": spelling, "player": seat, "verdict": "approve",
                                       "candidates": [seat], "rules": ["gm"]}, at)


def _seat_names(ws: Any, gid: str) -> set[str]:
    """Every name a seat had or has (a replaced player's too): what an alias may point at."""
    from forummod.service import roster_with_events

    roster = roster_with_events(ws.cfg.game(gid).roster(), ws.store.events(gid))
    return {n for s in roster.players for n in s.all_accounts}


def _seat_of(ws: Any, gid: str, player: str) -> str:
    """The seat's current name for any of its holders' names."""
    from forummod.service import roster_with_events

    roster = roster_with_events(ws.cfg.game(gid).roster(), ws.store.events(gid))
    return next((s.name for s in roster.players if player in s.all_accounts), player)


def _undo(ws: Any, gid: str, number: int) -> dict:
    from forummod.service import undone_by

    stored = ws.store.events(gid)
    ev = next((e for e in stored if e.id == number), None)
    if ev is None:
        raise UsageError(f"no event #{number} in the log of {gid} (see 'forummod status')")
    by = undone_by(stored).get(number)
    if by is not None:
        raise UsageError(f"event #{number} is already undone by #{by} (undo #{by} to restore it)")
    return {"event": number, "kind": ev.kind, "what": ev.payload}


def _recorded_at(ws: Any, gid: str, number: Any) -> datetime | None:
    """When event `number` was written into the log (not the time it takes effect, `--at`)."""
    return next((e.recorded_at for e in ws.store.events(gid) if e.id == number), None)


def _published(ws: Any, gid: str, since: datetime | None = None) -> list[Any]:
    """The published posts a correction may be due for; with `since` (when the undone event was
    recorded) only those published after it: a post sent before the GM recorded the event never
    stated what it changed, so taking it back leaves that post true (a dawn post stating the
    vote close, then an extension and its undo)."""
    from forummod.corrections import CORRECTABLE

    rows = [r for r in ws.store.drafts(gid, status="published") if r.kind in CORRECTABLE]
    if since is None:
        return rows
    sent = {r.id: ws.store.publication(r.id) for r in rows}
    return [r for r in rows if sent[r.id] is None or sent[r.id].started_at >= since]


def _corrections(ws: Any, gid: str, before: Any, rows: list[Any]) -> list[Mapping[str, Any]]:
    """Correction drafts for the published `rows` whose facts the undo just recorded changed."""
    from forummod.corrections import due_corrections, store_corrections
    from forummod.service import analyse_game

    after = analyse_game(ws, gid)
    return store_corrections(ws, gid, after, due_corrections(ws, gid, before, after, rows))


def _aliases(ruleset: str):
    from forummod.engine import catalog

    return catalog.ROLE_ALIASES.get(ruleset, {})


def _readable(value: Any, tz: Any = None) -> str:
    """A recorded ISO instant in the game's zone ("2026-01-05 16:00 CET"); UTC without one."""
    from datetime import datetime

    from forummod.i18n import readable_instant

    try:
        at = datetime.fromisoformat(str(value))
    except (TypeError, ValueError):
        return str(value)
    if tz is None or at.tzinfo is None:
        return readable_instant(value)
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M %Z")


def describe_for(game: Any, cmd: str, p: Mapping[str, Any]) -> str:
    """`describe` in the game's language, its times in the game's zone (the CLI's and the
    console's confirmations; issue 28, item 10)."""
    from forummod.engine.registry import get_ruleset_class
    from forummod.i18n import gm_language

    lang = game.language or get_ruleset_class(game.ruleset).language
    with gm_language(lang):
        return describe(cmd, p, game.tz)


def correction_lines(game: Any, corrections: Any) -> list[str]:
    """"published day_end D1 states a fact the undo changed: correction draft 7", one per
    correction, in the game's language."""
    from forummod.engine.registry import get_ruleset_class
    from forummod.i18n import gm_language, pgettext, phase_label

    with gm_language(game.language or get_ruleset_class(game.ruleset).language):
        return [pgettext("gm-confirm", "published %(kind)s %(phase)s states a fact the undo changed: "
                         "correction draft %(draft)s", kind=c["kind"], phase=phase_label(c["phase"]), draft=c["draft"])
                for c in corrections]


def describe(cmd: str, p: Mapping[str, Any], tz: Any = None) -> str:
    """A GM decision in words, for the confirmation line (in the current `gm_language`)."""
    from forummod.i18n import npgettext, pgettext, phase_label

    if cmd in ("approve", "reject") and p.get("spelling"):
        return (pgettext("gm-confirm", "%(key)s approved: “%(spelling)s” means %(player)s", key=p["key"],
                         spelling=p["spelling"], player=p.get("player", "")) if p.get("verdict") == "approve"
                else pgettext("gm-confirm", "%(key)s rejected: “%(spelling)s” is not asked again", key=p["key"],
                              spelling=p["spelling"]))
    if cmd == "alias":
        return pgettext("gm-confirm", "“%(spelling)s” means %(player)s (every vote written so counts for %(player)s)",
                        spelling=p["spelling"], player=p["player"])
    if cmd in ("approve", "reject"):
        return (pgettext("gm-confirm", "%(key)s approved", key=p["key"]) if cmd == "approve"
                else pgettext("gm-confirm", "%(key)s rejected", key=p["key"]))
    if cmd == "kill":
        if p.get("cause") not in ("", "gm", None):
            return pgettext("gm-confirm", "%(player)s killed (cause: %(cause)s)", player=p["player"], cause=p["cause"])
        return pgettext("gm-confirm", "%(player)s killed", player=p["player"])
    if cmd == "modkill":
        return pgettext("gm-confirm", "%(player)s modkilled", player=p["player"])
    if cmd == "revive":
        return pgettext("gm-confirm", "%(player)s revived", player=p["player"])
    if cmd == "replace":
        return pgettext("gm-confirm", "%(new)s replaces %(old)s", new=p["target"], old=p["player"])
    if cmd == "set-vote":
        if p["target"]:
            return pgettext("gm-confirm", "%(player)s now votes %(target)s", player=p["player"], target=p["target"])
        return pgettext("gm-confirm", "%(player)s's vote withdrawn", player=p["player"])
    if cmd == "set-role":
        return pgettext("gm-confirm", "%(player)s's role set to %(role)s", player=p["player"], role=p["role"])
    if cmd == "set-votes":
        n = int(p["value"])
        return npgettext("gm-confirm", "%(player)s now casts %(n)s vote", "%(player)s now casts %(n)s votes", n,
                         player=p["player"])
    if cmd == "extend":
        moved = []
        if p.get("until"):
            moved.append(pgettext("gm-confirm", "end moved to %(time)s", time=_readable(p["until"], tz)))
        if p.get("close"):
            moved.append(pgettext("gm-confirm", "vote close moved to %(time)s", time=_readable(p["close"], tz)))
        return f"{phase_label(p['phase'])}: " + pgettext("gm-confirm", " and ").join(moved)
    if cmd in ("end", "start"):
        phase = phase_label(p["phase"])
        if cmd == "end" and p.get("post") is not None:
            return pgettext("gm-confirm", "%(phase)s ends after post %(post)s", phase=phase, post=p["post"])
        if p.get("post") is not None:
            return pgettext("gm-confirm", "%(phase)s starts with post %(post)s", phase=phase, post=p["post"])
        when = _readable(p.get("at"), tz)
        return (pgettext("gm-confirm", "%(phase)s ends at %(time)s", phase=phase, time=when) if cmd == "end"
                else pgettext("gm-confirm", "%(phase)s starts at %(time)s", phase=phase, time=when))
    if cmd == "pause":
        return pgettext("gm-confirm", "game paused: no deadline passes until 'forummod gm resume'")
    if cmd == "resume":
        return pgettext("gm-confirm", "game resumed: the deadlines keep the time they had left")
    if cmd == "end-game":
        winners = ", ".join(p.get("winners") or ()) or pgettext("gm-confirm", "nobody named")
        return pgettext("gm-confirm", "game ended by ruling: %(result)s (winners: %(winners)s)", result=p["result"],
                        winners=winners)
    if cmd == "undo":
        return pgettext("gm-confirm", "event #%(event)s (%(kind)s) undone", event=p["event"], kind=p["kind"])
    if cmd == "action":
        targets = " and ".join(p["targets"])
        extra = "".join(f", {k}={v}" for k, v in p["args"].items())
        return f"{p['actor']}: {p['action']}" + (f" {targets}" if targets else "") + extra
    if cmd == "revote-deadline":
        return pgettext("gm-confirm", "revote deadline of %(phase)s set to %(time)s", phase=phase_label(p["target"]),
                        time=_readable(p["note"], tz))
    if cmd == "override":
        who = " → ".join(x for x in (p.get("player"), p.get("target")) if x)
        return f"override {p['kind']}" + (f": {who}" if who else "") + (f" ({p['note']})" if p.get("note") else "")
    return pgettext("gm-confirm", "note: %(text)s", text=p.get("note", ""))


def _known(name: str, players: set[str]) -> None:
    if name not in players:
        from forummod.schema import _did_you_mean

        raise UsageError(f"{name!r} is not a player" + _did_you_mean(name, players))
