"""`forummod demo`: the main job end to end on the bundled demo game, with no setup.

It serves the demo forum (phpBB markup) on 127.0.0.1 in-process, writes a config for it in
a workspace folder, polls the thread, the cemetery and the GM's inbox over real HTTP, polls
again after a player edits a vote (incremental: only the changed page), records the GM's
approvals of the first lynch and dawn, and prints what the pipeline makes of it: the vote
count, the rejected votes, the warnings and the drafts. The workspace stays, so the GM can
open the drafts with `forummod preview --config <folder>/forummod.toml` or run the day from
`forummod console --config <folder>/forummod.toml`.
"""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Callable

from forummod.demo import script as S
from forummod.demo.site import PhpbbSite, RunningSite, SitePM, SiteThread, thread_url

PASSWORD_ENV = "FORUMMOD_DEMO_PASSWORD"
GAME_THREAD, CEMETERY = 7, 8


def build_site(until: datetime) -> PhpbbSite:
    """The demo forum as it stood at `until`: posts and PMs up to then, edits not yet made."""
    site = PhpbbSite(users={S.GM: "demo-password"})
    site.threads[GAME_THREAD] = SiteThread(GAME_THREAD, S.TITLE)
    site.threads[CEMETERY] = SiteThread(CEMETERY, S.GRAVEYARD_TITLE)
    advance(site, until)
    return site


def advance(site: PhpbbSite, until: datetime) -> int:
    """Play the script forward to `until`: new posts and PMs appear, edits are made. Returns edits."""
    edits = 0
    for thread_id, script in ((GAME_THREAD, S.GAME), (CEMETERY, S.GRAVEYARD)):
        posts = site.threads[thread_id].posts
        for i, p in enumerate(script):
            if p.at > until:
                break
            if i >= len(posts):
                site.add_post(thread_id, p.author, p.at, p.bbcode)
            if p.edited_bbcode is not None and p.edited_at is not None and p.edited_at <= until \
                    and posts[i].edited_at is None:
                posts[i].bbcode, posts[i].edited_at = p.edited_bbcode, p.edited_at
                edits += 1
    known = {pm.pm_id for pm in site.pms}
    for i, pm in enumerate(S.PMS):
        if pm.at <= until and 500 + i not in known:
            site.pms.append(SitePM(500 + i, pm.sender, S.GM, pm.at, pm.subject, pm.body))
    return edits


def game_toml(thread: str, graveyard: str) -> str:
    """The demo game's table (roster, ruleset, schedule), whatever site serves its threads: the
    demo's local phpBB, or an archive in the tests."""
    players = "\n".join(
        f'[[games.demo.players]]\nname = "{name}"\nrole = "{role}"\n'
        + (f"aliases = [{', '.join(repr(a).replace(chr(39), chr(34)) for a in aliases)}]\n" if aliases else "")
        for name, role, aliases in S.PLAYERS)
    return f"""[games.demo]
site = "demo"
thread = "{thread}"
graveyard = "{graveyard}"
title = "{S.TITLE}"
ruleset = "lupus-eresia"
timezone = "Europe/Rome"
gm = ["{S.GM}"]
seed = 7

{players}
[games.demo.schedule]
start = "{S.GAME[0].at.isoformat()}"
night_end = "09:00"  # the GM's longer night (LUP D20 option): the dawn the next morning
"""


def config_text(base_url: str, folder: Path) -> str:
    return f"""# Written by 'forummod demo' for its bundled game; a real config looks the same.
[workspace]
store = "{folder / 'store.sqlite'}"

[sites.demo]
engine = "phpbb"
base_url = "{base_url}"
timezone = "Europe/Rome"
language = "it"
username = "{S.GM}"
password_env = "{PASSWORD_ENV}"
request_interval = 0.0

{game_toml(thread_url(base_url, GAME_THREAD), thread_url(base_url, CEMETERY))}
[games.demo.checks]
prod_after = "20h"
"""


def run_demo(folder: Path | None = None, *, out: Callable[[str], None] = print) -> int:
    from forummod.config import load_config
    from forummod.progress import progress_printer
    from forummod.service import Workspace, analyse_game, poll_game

    folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="forummod-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    os.environ[PASSWORD_ENV] = "demo-password"
    site = build_site(S.FIRST_POLL)
    with RunningSite(site) as server:
        cfg_path = folder / "forummod.toml"
        cfg_path.write_text(config_text(server.base_url, folder), encoding="utf-8")
        out(f"Demo forum (phpBB markup) serving on {server.base_url}")
        out(f"Workspace: {folder}")
        clock = {"now": S.FIRST_POLL}
        with Workspace(load_config(cfg_path), clock=lambda: clock["now"]) as ws:
            with progress_printer("demo") as prog:
                first = poll_game(ws, "demo", progress=prog)
            out(f"Poll at {S.FIRST_POLL:%a %d %H:%M}: {first.new_posts} posts, {first.new_messages} PMs "
                f"({first.requests} requests)")
            edits = advance(site, S.NOW)
            clock["now"] = S.NOW
            second = poll_game(ws, "demo")
            out(f"Poll at {S.NOW:%a %d %H:%M}: {second.new_posts} new posts, {second.edited_posts} edited "
                f"({edits} edit made on the forum), {second.new_messages} new PMs ({second.requests} requests: "
                "only the last known page and the new ones)")
            for at, key in S.DECISIONS:
                ws.store.append_event("demo", at, "decision", {"key": key, "verdict": "approve"}, actor="gm")
            a = analyse_game(ws, "demo", now=S.NOW)
            _show(ws, a, cfg_path, out)
    return 0


def _show(ws, a, cfg_path: Path, out: Callable[[str], None]) -> None:
    from forummod.commands.status import format_status
    from forummod.commands.tally import format_tally
    from forummod.report import status_report, tally_report

    out("")
    out("== Game status ==")
    out(format_status(status_report(a)))
    out("")
    out("== Vote count (GM view: the Boia's secret vote weighs 3 on a wolf) ==")
    out(format_tally(tally_report(a)))
    closed = a.run.tally_for("D1")
    if closed is not None:
        out("")
        out(f"== Day 1 closed: {', '.join(f'{c.name} {c.total:g}' for c in closed.candidates)} ==")
    issues = [i for i in a.extraction_issues if i.severity != "info"]
    if issues:
        out("")
        out(f"== Posts and PMs the tool would not guess ({len(issues)}) ==")
        for i in issues:
            out(f"  [{i.code}] {i.message}")
    findings = _findings(ws, a)
    out("")
    out(f"== Warnings for the GM ({len(findings)}) ==")
    for f in findings:
        out(f"  [{f.rule or f.code}] {f.message}")
    drafts = _drafts(ws, a, findings)
    out("")
    out(f"== Drafts ({len(drafts)}) ==")
    for d in drafts:
        out(f"  #{d.id} {d.kind} {d.phase} → {d.target}" + (f" ({d.slot})" if d.slot else ""))
    vc = next((d for d in drafts if d.kind == "votecount"), None)
    if vc is not None:
        out("")
        out("== The vote count draft (BBCode, ready to post) ==")
        out(vc.body)
    out("")
    out(f"Preview the drafts in your browser:  forummod preview --config {cfg_path}")
    out(f"Or run the day from the GM console:  forummod console --config {cfg_path}")
    out(f"Everything else works on this workspace too, e.g.  forummod tally --config {cfg_path} --at 12")


def _findings(ws, a) -> list:
    from forummod.check_store import run_checks_saving

    return list(run_checks_saving(ws.store, a)[1])


def _drafts(ws, a, findings) -> list:
    from forummod.drafting import refresh_drafts

    refresh_drafts(ws, a.game_id, a, findings)
    return ws.store.drafts(a.game_id, status="draft")
