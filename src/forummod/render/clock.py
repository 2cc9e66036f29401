"""When a draft can next read otherwise with the clock alone (issue 30).

A draft is a pure function of a `GameView` (analysis, findings, `now`). Beyond what the analysis
and the checks already bound (analysis_clock.py, checks/clock.py), the builders read `now` in
the prod post only (`build.build_prod`): the living players of the prod findings, else on a day
those silent at least `prod_after` since their last post (or the game's first phase), each with
the whole hours of their silence. So `next_change(gv)` is the first after `gv.now` of: the next
whole hour of each such silence, and (on a day without prod findings) a living seat's silence
reaching `prod_after`. Phases begun and ended (the export) are the analysis's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from forummod.render.build import PROD_CODES
from forummod.render.view import GameView

HOUR = timedelta(hours=1)


def next_change(gv: GameView) -> datetime | None:
    """The first instant after `gv.now` at which a draft of `gv` may read otherwise (None: none)."""
    now = gv.now
    st = gv.state
    if st.phase is None or st.outcome is not None:
        return None  # no prod post, and nothing else here reads the clock
    found: list[datetime] = []
    # `build_prod`: the idle from the prod findings (hours since each silence's start), else on a
    # day from the posts; the findings themselves change on the checks' clock
    starts = [f.at for f in gv.findings if getattr(f, "code", "") in PROD_CODES and getattr(f, "at", None)
              and getattr(f, "player", None) and st.is_alive(f.player)]
    if not starts and st.phase.kind == "day":
        first = gv.run.phases[0].start if gv.run.phases else now
        last: dict[str, datetime] = {}
        for post in gv.posts:
            if post.created_at <= now and getattr(post, "deleted_at", None) is None:
                key = post.author.casefold()
                if key not in last or post.created_at > last[key]:
                    last[key] = post.created_at
        for p in st.living():
            since = last.get(p.name.casefold(), first)
            if now - since >= gv.prod_after:
                starts.append(since)
            else:
                found.append(since + gv.prod_after)
    for s in starts:
        found.append(s + ((now - s) // HOUR + 1) * HOUR if now >= s else s)
    ahead = [t for t in found if t > now]
    return min(ahead) if ahead else None
