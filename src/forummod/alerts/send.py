"""Alerts to their channels: once per channel, recorded in the store, a failed send retried.

The tick/run output is the always-present channel `OUTPUT` (the GM's own terminal or cron
mail, so private); configured channels are forum PMs and Apprise URLs read from environment
variables. Apprise is imported only when an Apprise channel has something to send.
"""

from __future__ import annotations

import logging
import os
from datetime import datetime
from typing import Any, Sequence

from forummod.alerts.decide import Alert, AlertFacts, AlertRules, alert_label, needs_gm
from forummod.i18n import join_names
from forummod.logsafe import redact, register_secret
from forummod.records import frozen

log = logging.getLogger("forummod")

OUTPUT = "output"  # the tick/run output: what `tick` prints, once per alert


@frozen
class AlertOutcome:
    new: tuple[Alert, ...] = ()  # alerts not shown before: tick prints them
    sent: tuple[tuple[str, str], ...] = ()  # (channel, alert key) delivered in this pass
    failures: tuple[str, ...] = ()  # "channel: key: why" for each failed send (retried next pass)


def alert_pass(ws: Any, a: Any, now: datetime) -> AlertOutcome:
    """Decide what needs the GM in this analysed game and deliver it where it has not gone yet."""
    cfg = ws.cfg.alerts
    rules = AlertRules(cfg.deadline_warning.td, cfg.poll_failing.td, cfg.disabled)
    alerts = needs_gm(a, poll_facts(ws.store, a.game_id), rules)
    lang = getattr(getattr(a, "game", None), "language", "") or getattr(getattr(a, "ruleset", None), "language", "")
    return deliver(ws, a.game_id, alerts, now, lang=lang)


def poll_facts(store: Any, game_id: str) -> AlertFacts:
    """Since when the polls of this game have failed without a success in between."""
    from forummod.store import from_iso

    since, error = None, ""
    for run in store.poll_runs(game_id, limit=500):  # newest first
        if run["status"] != "failed":
            break
        since, error = from_iso(run["started_at"]), error or (run.get("error") or "")
    return AlertFacts(since, error)


def deliver(ws: Any, game_id: str, alerts: Sequence[Alert], now: datetime, *, lang: str = "") -> AlertOutcome:
    """Record new alerts for every channel, then send what each channel has not got yet (in
    `lang`, the language `needs_gm` words them in: the titles' kind labels)."""
    store = ws.store
    cfg = ws.cfg.alerts
    done = store.alert_deliveries(game_id)
    new = []
    for x in alerts:
        if (x.key, OUTPUT) not in done:
            store.record_alert_delivery(game_id, x.key, OUTPUT, kind=x.kind, phase=x.phase, text=x.text,
                                        state="sent", at=now)
            new.append(x)
            log.info("%s: alert %s: %s", game_id, x.kind, x.text)  # the daemon's output channel
    channels = {n: ch for n, ch in cfg.channels.items() if not ch.games or game_id in ch.games}
    for name, ch in channels.items():
        for x in alerts:
            if (x.key, name) in done:
                continue
            text = x.text_for(ch.private)  # a secret never reaches a channel that is not private
            store.record_alert_delivery(game_id, x.key, name, kind=x.kind, phase=x.phase, text=text or "",
                                        state="pending" if text else "skipped", at=now)
    due: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for (key, name), row in sorted(store.alert_deliveries(game_id).items()):
        if name in channels and row["state"] in ("pending", "failed") and row["attempts"] < cfg.max_attempts:
            due.setdefault(name, []).append((key, row))
    sent, failures = [], []
    for name, rows in due.items():
        # a forum PM channel gets the pass's alerts in one PM: the forum's flood interval (a
        # minute or two between two messages of the account) would hold the pass once per alert
        for batch in ([rows] if channels[name].kind == "forum_pm" else [[r] for r in rows]):
            try:
                _send(ws, game_id, channels[name], [(row["kind"], row["text"]) for _, row in batch], lang)
            except _Uncertain as e:  # may have gone out: never sent twice
                for key, row in batch:
                    store.record_alert_delivery(game_id, key, name, kind=row["kind"], phase=row["phase"],
                                                text=row["text"], state="uncertain", at=now, error=str(e),
                                                attempted=True)
                    failures.append(f"{name}: {key}: {e} (may have been sent; not retried)")
            except Exception as e:  # any channel fault is reported and retried, never stops the pass
                why = redact(str(e)) or type(e).__name__
                for key, row in batch:
                    store.record_alert_delivery(game_id, key, name, kind=row["kind"], phase=row["phase"],
                                                text=row["text"], state="failed", at=now, error=why, attempted=True)
                    left = cfg.max_attempts - row["attempts"] - 1
                    failures.append(f"{name}: {key}: {why}" + (f" (retried at the next pass, {left} attempts left)"
                                                               if left else " (no attempts left)"))
                    log.warning("%s: alert %s not sent to %s: %s", game_id, key, name, why)
            else:
                for key, row in batch:
                    store.record_alert_delivery(game_id, key, name, kind=row["kind"], phase=row["phase"],
                                                text=row["text"], state="sent", at=now, attempted=True)
                    sent.append((name, key))
    return AlertOutcome(tuple(new), tuple(sent), tuple(failures))


class _Uncertain(Exception):
    pass


def _send(ws: Any, game_id: str, ch: Any, alerts: Sequence[tuple[str, str]], lang: str) -> None:
    """One message with `alerts` ((kind, text) pairs): titled by their kinds, a paragraph each."""
    if not lang:
        try:
            lang = ws.cfg.game(game_id).language
        except Exception:  # a game no longer in the config: its alerts still go out, in English
            lang = ""
    labels = dict.fromkeys(alert_label(kind, lang or "en") for kind, _ in alerts)
    title = f"forummod {game_id}: {join_names(labels)}"
    text = "\n\n".join(text for _, text in alerts)
    if ch.kind == "apprise":
        _send_apprise(ch.url_env, title, text)
    else:
        _send_forum_pm(ws, game_id, title, text)


def _send_apprise(url_env: str, title: str, body: str) -> None:
    url = os.environ.get(url_env, "").strip()
    if not url:
        raise RuntimeError(f"environment variable {url_env} is not set (it must hold the Apprise URL)")
    register_secret(url)  # an Apprise URL carries the service's token: never in a log or an error
    import apprise  # lazily: tick without an Apprise channel never loads it

    ap = apprise.Apprise()
    if not ap.add(url):
        raise RuntimeError(f"{url_env} does not hold an Apprise URL that Apprise knows")
    with apprise.LogCapture(level=logging.WARNING) as captured:
        ok = ap.notify(title=title, body=body)
    if not ok:
        detail = " ".join(line.strip() for line in captured.getvalue().splitlines() if line.strip())[-300:]
        raise RuntimeError(f"the service behind {url_env} refused or did not answer" + (f": {redact(detail)}" if detail else ""))


def _send_forum_pm(ws: Any, game_id: str, title: str, body: str) -> None:
    from forummod.forum.write import PublishUncertain

    site = ws.cfg.site_of(game_id)
    to = ws.cfg.alerts.pm_to or site.username or (ws.cfg.game(game_id).gm[:1] or ("",))[0]
    if not to:
        raise RuntimeError("no recipient: set alerts.pm_to or the site's username")
    try:
        ws.adapter(ws.cfg.game(game_id).site).send_pm(to, title, body)
    except PublishUncertain as e:
        raise _Uncertain(redact(str(e))) from None
