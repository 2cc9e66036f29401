"""Stored posts re-dated after `sites.x.timezone` changed (issue 28, item 5).

A post's date is read from its page in the site's zone when it is first stored. When the GM
finds the zone was wrong and fixes the key, the next poll reads every saved page of the site
again in the new zone, as of when it was fetched (so "Today, 10:47" and "5 minutes ago" mean
what they meant then), and records each date that changed beside the post (`post_dates`):
the stored versions keep the date as first read, the game uses the new one. A date the page
gave with its own offset (a `<time datetime>`, a zone the page states) reads the same and is
left alone. The zone the stored dates were read in is remembered per game and site.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from forummod.errors import ForummodError
from forummod.model import Issue

ZONE_KEY = "dates_zone:"  # snapshot key + site name: the zone the stored posts' dates were read in


def redate_after_zone_change(ws: Any, game_id: str, adapter: Any, thread_ids: Sequence[str],
                             now: datetime) -> Issue | None:
    """Re-date the posts of the game's threads (`thread_ids`, as the store keys them) when the
    site's zone changed since the last poll; an info issue saying how many changed (None when
    the zone is the one they were read in). `ws`: a `service.Workspace`."""
    game = ws.cfg.game(game_id)
    site_name = game.site
    site = ws.cfg.sites[site_name]
    key = ZONE_KEY + site_name
    read_in = ws.store.snapshot(game_id, key)
    if read_in == site.timezone:
        return None
    if read_in is None or site.engine == "archive" or not hasattr(adapter, "parse_page_at"):
        ws.store.remember(game_id, key, site.timezone, now)  # read in this zone from now on
        return None
    dates: dict[str, datetime] = {}
    for url, body, fetched in ws.store.page_bodies(site_name):
        try:
            page = adapter.parse_page_at(body, url, fetched or now)
        except (ForummodError, ValueError):
            continue  # not a thread page (a login form, an inbox page)
        dates.update((p.post_id, p.created_at) for p in page.posts if not p.date_guessed)
    changed = 0
    with ws.store.transaction():
        for thread in thread_ids:
            changed += ws.store.redate_posts(site_name, thread, dates, site.timezone, now)
        ws.store.remember(game_id, key, site.timezone, now)
    return Issue("zone_redated", f"sites.{site_name}.timezone is now {site.timezone!r} (the stored posts were read in "
                 f"{read_in!r}): {changed} stored post(s) re-dated from their saved pages", at=now, severity="info")
