"""`forummod draft KIND`: render one kind of post for a game now and store it as a draft.

`draft all` re-renders every kind that applies (what a poll does). The GM view of the vote
count (`draft votecount --gm`) shows secret votes and weights: it is printed, never stored.
`--print` shows the stored draft's text (a GM's edit stays the text under its id) and its
state (`draft_state`): a stale edit says so and what changed.
"""

from __future__ import annotations

import sys

from forummod.cli import add_common
from forummod.commands._common import open_workspace, parse_time, print_json

NAME = "draft"
HELP = "render a post now (votecount, day_start, day_end, role_pm, night_result, warnings, prod, game_over, all)"


def add_arguments(p) -> None:
    add_common(p, game=True, now=True)
    p.add_argument("kind", choices=_Kinds(), metavar="KIND", help="one of: %(choices)s")
    p.add_argument("--phase", metavar="P", help="the phase it is about, e.g. D2 or N1 (default: the current one)")
    p.add_argument("--to", metavar="PLAYER", help="role_pm / night_result: only this player's PM")
    p.add_argument("--print", action="store_true", dest="print_body", help="print the text of the draft")
    p.add_argument("--gm", action="store_true", help="votecount: the GM view (secret votes, weights); not stored")
    p.add_argument("--approve-all", action="store_true", help="approve every proposal as it is made first")
    p.add_argument("--revert", action="store_true",
                   help="drop your edit of the open draft and render it again (an edited draft is otherwise kept)")


class _Kinds:
    """The KIND choices, read from the renderer only when argparse checks or shows them: building
    the command line for another command (a cron `tally`) does not import Jinja."""

    def _all(self) -> tuple[str, ...]:
        from forummod.render.models import KINDS

        return KINDS + ("all",)

    def __contains__(self, kind: object) -> bool:
        return kind in self._all()

    def __iter__(self):
        return iter(self._all())


def run(args) -> int:
    from forummod.drafting import draft_now, draft_state_of, refresh_drafts
    from forummod.service import analyse_game

    with open_workspace(args, writes=not args.gm) as ws:
        gid = ws.only_game(args.game)
        now = parse_time(args.now, ws.cfg.game(gid).tz) if args.now else None
        a = analyse_game(ws, gid, now=now, approve_all=args.approve_all)
        if args.kind == "all":
            ids = refresh_drafts(ws, gid, a)
            rows = [ws.store.draft(i) for i in ids]
            if args.json:
                print_json("draft", {"drafts": [{"id": r.id, "game": gid, "kind": r.kind, "phase": r.phase,
                                                 "target": r.target, "title": r.title, "body": r.body} for r in rows]})
            else:
                for r in rows:
                    print(f"draft {r.id}: {r.kind} {r.phase} → {r.target}  {r.title}")
                    if args.print_body:
                        print(r.body)
                if not rows:
                    print("nothing to draft now")
            return 0
        made = draft_now(ws, gid, args.kind, analysis=a, phase=args.phase, player=args.to, public=not args.gm)
        if args.revert:
            made = _reverted(ws, a, made)
        for did, d, _ in made:
            again = second_of_kind(ws, gid, d.kind, d.phase, d.slot, did)
            if again:
                print(again, file=sys.stderr)
        states = {did: draft_state_of(ws, ws.store.draft(did), a) for did, _, _ in made if did is not None}
        if args.json:
            print_json("draft", {"drafts": [{"id": did, "game": gid, "kind": d.kind, "phase": d.phase,
                                             "target": d.target, "title": d.title, "body": body,
                                             "draft_state": states[did].to_json() if did in states else None}
                                            for did, d, body in made]})
            return 0
        if not made:
            print(f"no {args.kind} applies to {gid} now" + (f" for {args.phase}" if args.phase else ""))
            return 1
        for did, d, body in made:
            label = f"draft {did}" if did is not None else "not stored (GM view)"
            st = states.get(did)
            mark = f" [{st.state.value}{', edited' if st.edited else ''}]" if st is not None else ""
            print(f"{label}: {d.kind} {d.phase} → {d.target}  {d.title}{mark}")
            if st is not None and st.stale:
                print(f"  stale (your edit is kept): {st.changed}; 'forummod drafts --show {did}' "
                      "shows it against the fresh render")
            if args.print_body or did is None:
                print(body)
        return 0


#: Posts a phase has once: a second one of the same phase is a mistake more often than not.
ONCE_A_PHASE = ("day_end", "day_start", "night_result", "game_over")


def second_of_kind(ws, gid: str, kind: str, phase: str, slot: str, draft_id) -> str:
    """A warning when a post of this kind, phase and slot was already published (issue 28, item
    10: after a rejected D2 lynch the GM re-made D1's day-end unawares); "" otherwise."""
    if kind not in ONCE_A_PHASE:
        return ""
    sent = [r for r in ws.store.drafts(gid, status="published")
            if (r.kind, r.phase, r.slot) == (kind, phase, slot) and r.id != draft_id]
    if not sent:
        return ""
    r = sent[-1]
    return (f"warning: a {kind} of {phase} was already published (draft {r.id}, {r.updated_at:%Y-%m-%d %H:%M}); "
            f"draft {draft_id} would be a second one. Discard it ('forummod discard {draft_id}') unless you mean "
            "to post it again")


def _reverted(ws, analysis, made):
    """`--revert`: each edited open draft rendered again from now, the GM's edit dropped."""
    from forummod.drafting import revert_to_render

    out = []
    for did, d, body in made:
        row = ws.store.draft(did) if did is not None else None
        if row is not None and row.edited_by_gm and row.status == "draft":
            revert_to_render(ws, did, analysis)
            body = ws.store.draft(did).body
        out.append((did, d, body))
    return out
