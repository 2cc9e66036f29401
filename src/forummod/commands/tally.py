"""`forummod tally`: the vote count now, or as it stood before a post or at a moment."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json
from forummod.errors import UsageError

NAME = "tally"
HELP = "show the current vote count (GM view; --public for the thread view)"


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("--at", metavar="POST_NUMBER|TIME",
                   help="the count just before game-thread post POST_NUMBER ('after N' or 'N+': just after it; "
                        "one past the last post: after the last), or at TIME (ISO 8601)")
    p.add_argument("--public", action="store_true", help="the count as the thread may see it (secret votes hidden)")
    p.add_argument("--approve-all", action="store_true", help="approve every proposal as it is made (what-if view)")


def at_options(args, ws, gid):
    """(now, until_post) from --at / --now. `--at N` is the count just before post N; `--at after N`
    (or `N+`), and `N` one past the last stored post, the count after post N (issue 28, item 10)."""
    import re

    game = ws.cfg.game(gid)
    now = parse_time(args.now, game.tz) if getattr(args, "now", None) else None
    until = None
    text = (getattr(args, "at", None) or "").strip()
    point = re.fullmatch(r"(after[\s:]*)?(\d+)(\+)?", text, re.IGNORECASE)
    if point:
        from forummod.service import load_inputs

        after = bool(point.group(1) or point.group(3))
        number = int(point.group(2))
        times = {p.number: p.created_at for p in load_inputs(ws, gid).posts.get("game", ()) if p.number is not None}
        last = max(times, default=None)
        if after and number in times:
            number += 1  # after post N = before post N+1, or after the last post
        elif after:
            number = -1  # no such post to count after
        if number in times:
            return times[number], number
        if last is not None and number == last + 1:
            return times[last], number  # after the last post: everything it holds, nothing later
        hint = f" (the last is {last}: '--at after {last}' or '--at {last + 1}' counts after it)" if last else ""
        raise UsageError(f"no game-thread post number {point.group(2)} in the store{hint} (poll first?)")
    if text:
        now = parse_time(text, game.tz)
    return now, until


def run(args) -> int:
    from forummod.kept_reports import keep_report, kept_report

    with open_workspace(args, reads=True) as ws:
        gid = ws.only_game(args.game)
        kind = "tally_public" if args.public else "tally"
        plain = not args.approve_all and not (getattr(args, "at", None) or "").strip()
        kept = None
        if plain:  # nothing new since the last count: the kept one (issue 30)
            now = parse_time(args.now, ws.cfg.game(gid).tz) if getattr(args, "now", None) else None
            kept = kept_report(ws, gid, kind, now)
        if kept is not None:
            rep, lang = kept
        else:
            from forummod.report import tally_report
            from forummod.service import analyse_game

            now, until = at_options(args, ws, gid)
            a = analyse_game(ws, gid, now=now, until_post=until, approve_all=args.approve_all)
            rep, lang = tally_report(a, public=args.public), a.game.language or a.ruleset.language
            if plain:
                keep_report(ws, a, kind, rep, own_now=now is None)
        if args.json:
            print_json("tally", rep)
        else:
            print(format_tally(rep, lang=lang))
        return 0


def format_tally(rep, lang: str | None = None) -> str:
    """The count as the GM reads it, its fixed words in `lang` (the game's language, issue 20;
    `tally --json` keeps the codes): English is today's text."""
    from forummod.i18n import gm_language

    with gm_language(lang):
        return _format_tally(rep)


def _format_tally(rep) -> str:
    from forummod.i18n import code_text, current_language, pgettext, phase_label

    closes = ""
    if rep.get("vote_close_at"):
        from datetime import datetime
        from zoneinfo import ZoneInfo

        local = datetime.fromisoformat(rep["vote_close_at"]).astimezone(ZoneInfo(rep.get("timezone") or "UTC"))
        # English keeps its day and month names; other languages get numbers (no names typed by hand)
        when = f"{local:%a %d %b %H:%M %Z}" if current_language() == "en" else f"{local:%Y-%m-%d %H:%M %Z}"
        closes = pgettext("gm-tally", " (vote closes %(time)s)", time=when)
    phase = phase_label(rep["phase"]) if rep["phase"] else pgettext("gm-tally", "no phase yet")
    lines = [f"{rep['game']} — {phase}{closes}"]
    t = rep["tally"]
    if t is None:
        lines.append("  " + pgettext("gm-tally", "no vote in progress"))
    else:
        if t["majority"]:
            lines.append("  " + pgettext("gm-tally", "majority: %(majority)s of %(living)s",
                                         majority=t["majority"], living=t["living"]))
        for c in t["candidates"]:
            name = pgettext("gm-tally", "No lynch") if c["no_lynch"] else c["name"]
            voters = ", ".join(v["voter"] + (f" x{v['weight']:g}" if v["weight"] != 1 else "") for v in c["voters"])
            extra = f" (+{c['bonus']:g} {c['bonus_note']})" if c["bonus"] else ""
            lines.append(f"  {name} ({c['total']:g}){extra}: {voters}")
        if t["not_voting"]:
            lines.append("  " + pgettext("gm-tally", "not voting (%(n)s): %(names)s", n=len(t["not_voting"]),
                                         names=", ".join(t["not_voting"])))
    for seat in rep.get("seats") or ():
        lines.append("  " + pgettext("gm-tally", "seat: %(holder)s (replacing %(replaced)s)", holder=seat["holder"],
                                     replaced=", ".join(seat["replaced"])))
    for r in rep["rejected_votes"]:
        lines.append(f"  ✗ {r['voter']} → {r['target']}: {code_text(r['reason'])}" + (f" [{r['rule']}]" if r["rule"] else ""))
    for i in rep["issues"]:
        lines.append(f"  ! {i['message']}")
    return "\n".join(lines)
