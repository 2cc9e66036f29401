"""`forummod status`: phase, who is alive, who died how, pending proposals, winners."""

from __future__ import annotations

import re

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json
from forummod.i18n import code_text, current_language, npgettext, pgettext, pgettext_noop, phase_label, readable_instant

NAME = "status"
HELP = "show the game's state: phase, living and dead players, pending proposals, winners"


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("--approve-all", action="store_true", help="approve every proposal (what-if view)")


def run(args) -> int:
    from forummod.kept_reports import keep_report, kept_report

    with open_workspace(args, reads=True) as ws:
        gid = ws.only_game(args.game)
        now = parse_time(args.now, ws.cfg.game(gid).tz) if args.now else None
        kept = None if args.approve_all else kept_report(ws, gid, "status", now)
        if kept is not None:  # nothing new since the last status (issue 30)
            print_status(kept[0], lang=kept[1], as_json=args.json)
            return 0
        from forummod.report import status_report
        from forummod.service import analyse_game

        a = analyse_game(ws, gid, now=now, approve_all=args.approve_all)
        rep = status_report(a)
        if not args.approve_all:
            keep_report(ws, a, "status", rep, own_now=now is None)
        print_status(rep, lang=status_language(a), as_json=args.json)
        return 0


def status_language(a) -> str:
    return getattr(a.game, "language", "") or getattr(a.ruleset, "language", "")


def show_status(a, *, as_json: bool, command: str = "status") -> None:
    """Print an analysed game's status as JSON or as text (status and replay)."""
    from forummod.report import status_report

    print_status(status_report(a), lang=status_language(a), as_json=as_json, command=command)


def print_status(rep, *, lang: str, as_json: bool, command: str = "status") -> None:
    if as_json:
        print_json(command, rep)
    else:
        print(format_status(rep, lang=lang))


def format_status(rep, lang: str | None = None) -> str:
    """The status as the GM reads it, its fixed words in `lang` (the game's language; issue 20):
    the report's values that are codes (a cause, a status, a note's label) are shown through the
    catalog too, while `status --json` keeps them as codes."""
    from forummod.i18n import gm_language

    with gm_language(lang):
        return _format_status(rep)


def _format_status(rep) -> str:
    phase = phase_label(rep["phase"]) if rep["phase"] else pgettext("gm-status", "not started")
    lines = [pgettext("gm-status", "%(game)s (%(ruleset)s) — %(phase)s", game=rep["game"], ruleset=rep["ruleset"],
                      phase=phase)]
    if rep.get("stalled_at"):
        lines[0] += pgettext("gm-status", "  (stalled since %(time)s: no post for two phase lengths)",
                             time=readable_instant(rep["stalled_at"]))
    lines.append(pgettext("gm-status", "  alive (%(n)s): %(players)s", n=len(rep["alive"]),
                          players=", ".join(rep["alive"])))
    for d in rep["dead"]:
        lines.append(pgettext("gm-status", "  dead: %(player)s — %(role)s (%(cause)s, %(phase)s)", player=d["player"],
                              role=d["role"] or "?", cause=code_text(d["cause"]) if d["cause"] else d["cause"],
                              phase=phase_label(d["phase"]) if d["phase"] else d["phase"]))
    names = {n["key"]: n for n in rep.get("names") or ()}
    for p in rep["pending"]:
        if p["key"] in names:
            lines.append(name_line(names[p["key"]]))
            continue
        lines.append(pgettext("gm-status", "  pending: %(key)s — %(summary)s  (approve: forummod gm approve %(key)s)",
                              key=p["key"], summary=p["summary"]))
    if rep["game_over"]:
        lines.append(pgettext("gm-status", "  GAME OVER: %(result)s — winners: %(winners)s", result=rep["result"],
                              winners=", ".join(rep["winners"]) or pgettext("gm-status", "nobody")))
    lines.extend(format_clock(rep))
    lines += format_night_desk(rep.get("night_desk") or {})
    from forummod.checks.phase_posts import format_post_counts  # issue 32

    lines += format_post_counts(rep.get("posts_per_phase"), phase_label)
    return "\n".join(lines)


def name_words(n) -> str:
    """An alias proposal (`status --json` `names[]`) in words: the spelling, who it probably
    means (or the tied players) and why, and how many votes are so written."""
    from forummod.checks.names import evidence_words

    votes = npgettext("gm-status", "%(n)s vote so written", "%(n)s votes so written", len(n["uses"]))
    why = evidence_words(n["evidence"])
    if len(n["candidates"]) > 1:
        return pgettext("gm-status", "“%(spelling)s” is %(players)s? (%(why)s; %(votes)s)", spelling=n["spelling"],
                        players=pgettext("gm-status", " or ").join(n["candidates"]), why=why, votes=votes)
    return pgettext("gm-status", "“%(spelling)s” means %(player)s? (%(why)s; %(votes)s)", spelling=n["spelling"],
                    player=n["candidates"][0], why=why, votes=votes)


def name_line(n) -> str:
    """A pending alias proposal as a line of `forummod status`, with the command that settles it:
    one candidate is approved as it stands, several need `--player`."""
    if len(n["candidates"]) > 1:
        return pgettext("gm-status", "  pending: %(key)s — %(proposal)s  (pick: forummod gm approve %(key)s "
                        "--player NAME; or gm reject %(key)s)", key=n["key"], proposal=name_words(n))
    return pgettext("gm-status", "  pending: %(key)s — %(proposal)s  (approve: forummod gm approve %(key)s; "
                    "or gm reject %(key)s)", key=n["key"], proposal=name_words(n))


def format_clock(rep) -> list[str]:
    """The phase's real start and end, a pause, and the GM's last events (numbers for `gm undo`)."""
    lines = []
    if rep.get("phase_start_at"):
        lines.append(pgettext("gm-status", "  %(phase)s: from %(start)s to %(end)s", phase=phase_label(rep["phase"]),
                              start=readable_instant(rep["phase_start_at"]),
                              end=readable_instant(rep["phase_end_at"]) if rep.get("phase_end_at") else "?"))
    if rep.get("paused_at"):
        lines.append(pgettext("gm-status", "  PAUSED since %(time)s: no deadline passes until 'forummod gm resume'",
                              time=readable_instant(rep["paused_at"])))
    events = rep.get("gm_events") or []
    for e in events[-10:]:
        undone = pgettext("gm-status", "  (undone by #%(id)s)", id=e["undone_by"]) if e.get("undone_by") else ""
        lines.append(f"  gm #{e['id']} {readable_instant(e['at'])}: {e['summary']}{undone}")
    return lines


def format_night_desk(desk) -> list[str]:
    """The GM's night view (gamestate_view.NightView as JSON): actions, results, powers, owed."""
    lines = []
    if desk.get("actions"):
        lines.append(pgettext("gm-status", "  night actions (%(night)s):", night=phase_label(desk["night"])))
        for x in desk["actions"]:
            why = f" — {code_text(x['reason'])}" + (f" [{x['rule']}]" if x["rule"] else "") + \
                (f": {x['message']}" if x["message"] else "") if x["status"] == "rejected" else ""
            lines.append(f"    {x['actor']}: {x['verb']} {', '.join(x['targets'])} ({note_word(x['source'])}, "
                         f"{readable_instant(x['at'])}) {note_word(x['status'])}{why}")
    for r in desk.get("private_results", ()):
        params = ", ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
                           for k, v in r["params"].items())
        pending = pgettext("gm-status", ", pending") if r["pending"] else ""
        lines.append(pgettext("gm-status", "  result for %(player)s (%(phase)s%(pending)s): %(result)s",
                              player=r["to"], phase=phase_label(r["phase"]) if r["phase"] else r["phase"], pending=pending, result=r["key"])
                     + (f" ({params})" if params else ""))
    for n in desk.get("protections", ()):
        lines.append(pgettext("gm-status", "  protection: %(player)s — %(what)s %(detail)s", player=n["player"],
                              what=note_word(n["what"]), detail=note_word(n["detail"])).rstrip())
    for n in desk.get("notes", ()):
        who = f"{n['player']}: " if n["player"] else ""
        kind = note_word(n["kind"]).replace("_", " ")
        lines.append(f"  {kind}: {who}{note_word(n['what'])} {note_word(n['detail'])}".rstrip())
    for o in desk.get("owed", ()):
        lines.append(pgettext("gm-status", "  owed: %(players)s — %(actions)s",
                              players=pgettext("gm-status", " or ").join(o["players"]), actions=" / ".join(o["actions"]))
                     + (f" [{o['rule']}]" if o["rule"] else "") + (f": {o['message']}" if o["message"] else ""))
    return lines


#: The fixed words of the night desk's notes (`GmNote` labels and states of the rulesets, an
#: action's status): shown through the catalog in the text output; `status --json` keeps them.
NOTE_WORDS = frozenset((
    # NOTE: the kind of a note on the GM's night desk (`forummod status`)
    pgettext_noop("gm-status", "power"),
    pgettext_noop("gm-status", "night_role"),
    pgettext_noop("gm-status", "title"),
    # NOTE: a power, title or right a note on the GM's night desk is about
    pgettext_noop("gm-status", "heal potion"),
    pgettext_noop("gm-status", "poison potion"),
    pgettext_noop("gm-status", "fire"),
    pgettext_noop("gm-status", "hunter shot"),
    pgettext_noop("gm-status", "lovers"),
    pgettext_noop("gm-status", "sheriff"),
    pgettext_noop("gm-status", "poster"),
    pgettext_noop("gm-status", "protected"),
    pgettext_noop("gm-status", "designation"),
    pgettext_noop("gm-status", "no kill"),
    pgettext_noop("gm-status", "recruiter"),
    pgettext_noop("gm-status", "recruitment order"),
    pgettext_noop("gm-status", "converted"),
    pgettext_noop("gm-status", "protect"),
    pgettext_noop("gm-status", "heal"),
    # NOTE: the state of a power or token on the GM's night desk
    pgettext_noop("gm-status", "left"),
    pgettext_noop("gm-status", "used"),
    pgettext_noop("gm-status", "ready"),
    pgettext_noop("gm-status", "held"),
    pgettext_noop("gm-status", "spent"),
    pgettext_noop("gm-status", "lost"),
    pgettext_noop("gm-status", "destroyed"),
    pgettext_noop("gm-status", "votes x2, breaks ties"),
    pgettext_noop("gm-status", "blocked after a conversion (WH-C8)"),
    pgettext_noop("gm-status", "compulsory: must recruit (WH-C3)"),
    # NOTE: what became of a night action the GM received (`forummod status`)
    pgettext_noop("gm-status", "counts"),
    pgettext_noop("gm-status", "replaced"),
    pgettext_noop("gm-status", "rejected"),
))

_BY = re.compile(r"^by (.+)$")
_NOBODY = re.compile(r"^nobody: (.+)$")
_TOKEN = re.compile(r"^(\w+) token$")
_SOURCE = re.compile(r"^(PM|post|GM) #?(.+)$")


def note_word(text: str) -> str:
    """A night desk's label or state in the GM's language: a listed word, a phase ("N2"), the
    shapes the rulesets and `gamestate_view` build ("by Ann", "nobody: N2", "tavern token", a
    source "PM m3" / "post #57" / "GM #4"); anything else (a player, a count) as it is."""
    if not text or current_language() == "en":
        return text
    if text in NOTE_WORDS:
        return pgettext("gm-status", text)
    if (m := _BY.match(text)) is not None:
        return pgettext("gm-status", "by %(player)s", player=m.group(1))
    if (m := _NOBODY.match(text)) is not None:
        return pgettext("gm-status", "nobody: %(why)s", why=note_word(m.group(1)))
    if (m := _TOKEN.match(text)) is not None:
        return pgettext("gm-status", "%(building)s token", building=m.group(1))
    if (m := _SOURCE.match(text)) is not None:
        kind, ref = m.groups()
        if kind == "PM":
            return pgettext("gm-status", "PM %(id)s", id=ref)
        if kind == "post":
            return pgettext("gm-status", "post #%(number)s", number=ref)
        return pgettext("gm-status", "GM #%(id)s", id=ref)
    return phase_label(text)
