"""`forummod drafts`: list the stored drafts (id, kind, phase, status, target, last update).

Each open draft is rendered again from what the store knows now, so the list says which are
stale (`draft_state`: a newer render reads differently) and, for a stale draft the GM edited,
`--show` prints the edit against the fresh render as a unified diff."""

from __future__ import annotations

from forummod.cli import add_common
from forummod.commands._common import open_workspace, print_json

NAME = "drafts"
HELP = "list drafts: id, kind, phase, status (draft / published / discarded), target, updated"


def add_arguments(p) -> None:
    add_common(p, game=True)
    p.add_argument("--status", choices=("draft", "published", "discarded"), help="only drafts in this status")
    p.add_argument("--show", type=int, metavar="ID", help="print one draft's text and history")


def run(args) -> int:
    from forummod.drafting import draft_states

    with open_workspace(args, reads=True) as ws:
        if args.show is not None:
            return _show(ws, args)
        gid = args.game
        if gid is not None:
            ws.cfg.game(gid)
        rows = ws.store.drafts(gid, status=args.status)
        pubs = {r.id: ws.store.publication(r.id) for r in rows}
        analyses: dict = {}
        states = draft_states(ws, rows, analyses=analyses)
        rows, past = desk_order(ws, rows, states, analyses)
        if args.json:
            print_json("drafts", {"drafts": [dict(_row(r, pubs[r.id]), draft_state=states[r.id].to_json(),
                                                  past=past.get(r.id) or None) for r in rows]})
            return 0
        if not rows:
            print("no drafts (render them with 'forummod draft all')")
            return 0
        print(f"{'id':>5}  {'game':<10} {'kind':<13} {'phase':<6} {'status':<10} {'target':<20} updated")
        for r in rows:
            st = states[r.id]
            status = st.state.value
            edited = " (edited)" if r.edited_by_gm else ""
            print(f"{r.id:>5}  {r.game:<10} {r.kind:<13} {r.phase:<6} {status:<10} {r.target:<20} "
                  f"{r.updated_at:%Y-%m-%d %H:%M}{edited}")
            fit = _fit(ws, r)
            if fit:
                print(f"{'':>7}{fit}")
            if past.get(r.id):
                print(f"       earlier: {past[r.id]} (listed after what you do now)")
            if st.stale:
                print(f"       stale: {st.changed}; 'forummod publish {r.id} --stale-ok' sends it as it is"
                      + (f", 'forummod drafts --show {r.id}' shows your edit against the fresh render"
                         if st.edited else ""))
        return 0


def desk_order(ws, rows, states, analyses) -> tuple[list, dict[int, str]]:
    """The drafts in the console's and preview's order (the README's "what you do next"): per
    game, the open drafts of now by `draft_state.next_step`, then the open ones of the past, then
    the published and discarded, newest first; and why each past one is past."""
    from forummod.draft_state import desk_group, next_step, past_reason
    from forummod.freshness import game_position
    from forummod.render.models import GM_KINDS

    positions = {g: game_position(ws, g, analyses.get(g)) for g in {r.game for r in rows if r.status == "draft"}}
    past = {r.id: past_reason(r.kind, r.phase, r.status, positions.get(r.game), r.slot) for r in rows}

    def key(r):
        group = desk_group(r.kind, r.phase, r.status, positions.get(r.game), r.slot)
        gm_only = r.kind in GM_KINDS or r.target == "gm"
        inner = next_step(r.kind, states[r.id].state.value, gm_only, r.id, r.slot) if group == 0 else (-r.id,)
        return (r.game, group, inner)

    return sorted(rows, key=key), {k: v for k, v in past.items() if v}


def _fit(ws, r) -> str:
    """For an open draft to post: whether it is split into parts or cannot fit the forum."""
    from forummod.publish_parts import describe
    from forummod.render.models import GM_KINDS

    if r.status != "draft" or r.kind in GM_KINDS or r.target == "gm" or r.game not in ws.cfg.games:
        return ""
    return describe(ws, r)


def _row(r, p) -> dict:
    return {"id": r.id, "game": r.game, "kind": r.kind, "phase": r.phase, "slot": r.slot, "status": r.status,
            "target": r.target, "title": r.title, "markup": r.markup, "lang": r.lang, "edited_by_gm": r.edited_by_gm,
            "created_at": r.created_at, "updated_at": r.updated_at,
            "publication": None if p is None else {"state": p.state, "remote_id": p.remote_id, "url": p.url,
                                                   "error": p.error, "started_at": p.started_at}}


def _show(ws, args) -> int:
    from forummod.drafting import draft_states
    from forummod.errors import UsageError

    r = ws.store.draft(args.show)
    if r is None:
        raise UsageError(f"no draft {args.show}")
    hist = ws.store.draft_history(r.id)
    st = draft_states(ws, [r])[r.id]
    if args.json:
        print_json("drafts", {"draft": dict(_row(r, ws.store.publication(r.id)), body=r.body, draft_state=st.to_json(),
                                            history=[{k: h[k] for k in ("rev", "status", "at", "note")} for h in hist])})
        return 0
    print(f"draft {r.id}: {r.kind} {r.phase} → {r.target} [{st.state.value}]  {r.title}\n")
    if st.stale:
        print(f"STALE: {st.changed}; 'forummod publish {r.id} --stale-ok' sends it as it is\n")
    print(r.body)
    if st.diff:
        print(("\nyour edit" if st.edited else "\nthe stored text") + " against the fresh render:\n" + st.diff)
    for h in hist:
        print(f"  rev {h['rev']} {h['at']} {h['status']}: {h['note']}")
    return 0
