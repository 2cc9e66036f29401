"""The store side of the checks: once-only reporting and the GM's sent PMs.

The checks are pure functions of a `CheckContext`; this module, used by the service layer
(pipeline, `check` command, demo), reads what they need from the store and records what they
found, so `forummod.checks` imports no store.

"A finding is reported once, not on every poll, unless it changes": `new_findings` records
every finding (`Store.record_finding` keeps a hash of its payload per key) and returns those
never reported or changed since their report, then marks them reported. `unreported` answers
the same question without writing (for `check --now`, a look at the past).
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from typing import Any, Iterable, Sequence

from forummod.checks.context import CheckContext, GmPm
from forummod.checks.findings import Finding
from forummod.errors import StoreError
from forummod.model import Source
from forummod.store import Store, content_hash

#: Draft kinds the GM sends one player by PM (the texts a post must not copy, ON-D4).
PM_DRAFT_KINDS = ("role_pm", "night_result")


def new_findings(store: Store, game_id: str, findings: Sequence[Finding], now: datetime, *,
                 mark: bool = True) -> list[Finding]:
    """Findings new or changed since they were last reported; recorded, and marked reported
    unless `mark` is False (then the next call returns them again)."""
    fresh: list[Finding] = []
    with store.transaction():
        for f in findings:
            changed = store.record_finding(game_id, f.key, f.payload(), now)
            row = store.finding(game_id, f.key)
            if changed or (row is not None and row["reported_at"] is None):
                fresh.append(f)
        if mark and fresh:
            store.mark_findings_reported(game_id, [f.key for f in fresh], now)
    return fresh


def unreported(store: Store, game_id: str, findings: Sequence[Finding]) -> list[Finding]:
    """What `new_findings` would return, without writing anything."""
    out = []
    for f in findings:
        row = store.finding(game_id, f.key)
        if row is None or row["reported_at"] is None or row["fhash"] != _fhash(f.payload()):
            out.append(f)
    return out


def _fhash(payload: dict[str, Any]) -> str:
    # the same serialisation as Store.record_finding
    return content_hash(json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str))


def gm_pms_from_store(store: Store, ctx: CheckContext, gm_accounts: Iterable[str] = ()) -> dict[str, tuple[GmPm, ...]]:
    """Seat name -> texts the GM sent that player: published PM drafts and stored PMs whose
    sender is a GM account (conversation inboxes keep both sides)."""
    gms = {g.casefold() for g in (*ctx.game.gm, *ctx.roster.gms, *gm_accounts) if g}
    out: dict[str, list[GmPm]] = {}
    for d in store.drafts(ctx.game_id, status="published"):
        if d.kind not in PM_DRAFT_KINDS:
            continue
        player = ctx.player_of(_target_account(d.target))
        if player is None:
            continue
        pub = store.publication(d.id)
        at = (pub.finished_at if pub is not None and pub.finished_at is not None else d.updated_at)
        src = Source("message", id=f"draft:{d.id}", url=pub.url if pub is not None else None)
        out.setdefault(player, []).append(GmPm(player, d.body, at, src))
    if gms:
        for m in store.messages(ctx.game.site):
            if m.sender.casefold() not in gms:
                continue
            for r in m.recipients:
                player = ctx.player_of(r)
                if player is not None:
                    out.setdefault(player, []).append(
                        GmPm(player, m.body_html, m.created_at, Source("message", id=m.message_id, url=m.url)))
    return {k: tuple(sorted(v, key=lambda p: p.at)) for k, v in out.items()}


def _target_account(target: str) -> str:
    t = target.strip()
    for prefix in ("pm:", "user:", "@"):
        if t.lower().startswith(prefix):
            return t[len(prefix):].strip()
    return t


def check_context(store: Store, analysis: Any, gm_accounts: Iterable[str] = ()) -> CheckContext:
    """The context of an analysed game with the GM's sent PMs read from the store up front
    (`gm_accounts` adds the site's GM login to the game's `gm` names) and the texts of the
    bodies it quotes remembered there (`PostTexts`; `save_texts` writes the new ones)."""
    ctx = CheckContext.from_analysis(analysis)
    return replace(ctx, gm_pms=gm_pms_from_store(store, ctx, gm_accounts),
                   texts=PostTexts(store, analysis.game_id, analysis.now))


def run_checks_saving(store: Store, analysis: Any, gm_accounts: Iterable[str] = ()) -> tuple[CheckContext, list[Finding]]:
    """(context, every finding) of an analysed game, the texts the checks quoted for the first
    time written to the store once, at the end (not once per text: issue 30)."""
    from forummod.checks import run_checks

    ctx = check_context(store, analysis, gm_accounts)
    findings = run_checks(ctx)
    save_texts(ctx)
    return ctx, findings


def save_texts(ctx: CheckContext) -> None:
    """Write the texts `ctx`'s checks read for the first time (a context without `PostTexts`:
    nothing to write)."""
    if isinstance(ctx.texts, PostTexts):
        ctx.texts.save()


class PostTexts:
    """The text model's text of the post bodies the checks quote (a dead player's post, a
    living one's in the graveyard), kept in the store by the body's SHA-256 and the extraction
    code's version (`extract.saved.CODE_VERSION`, which hashes the text model's source): a cron
    tick that has quoted them once reads no HTML for them again, and so imports neither lxml
    nor the text model (about 15 ms of a cold recount's checks). A body changed by an edit has
    another hash; changed extraction code drops every text.

    New texts are collected and written by `save`, once a pass: writing the whole record
    again for each missing text made a first check of a big game quadratic (issue 30: a
    200,000-post recount with approvals had not finished after 5 minutes). A store that cannot
    be written (read-only) is read and not written."""

    KEY = "check_post_texts"

    def __init__(self, store: Store, game_id: str, at: datetime):
        from forummod.extract.saved import CODE_VERSION

        self._store, self._game, self._at, self._code = store, game_id, at, CODE_VERSION
        saved = store.snapshot(game_id, self.KEY)
        known = saved.get("texts") if isinstance(saved, dict) and saved.get("code") == CODE_VERSION else None
        self._known: dict[str, str] = dict(known) if isinstance(known, dict) else {}
        self.missing = 0  # texts read from HTML since the last `save`

    def text(self, html: str) -> str:
        h = content_hash(html)
        text = self._known.get(h)
        if not isinstance(text, str):
            from forummod.checks.words import post_text

            text = self._known[h] = post_text(html).text
            self.missing += 1
        return text

    def save(self) -> None:
        """Write the record when a text was read since the last save (one write, whatever the count)."""
        if not self.missing:
            return
        try:
            self._store.remember(self._game, self.KEY, {"code": self._code, "texts": self._known}, self._at)
            self.missing = 0
        except StoreError:
            pass  # a read-only store: the texts are read again next time
