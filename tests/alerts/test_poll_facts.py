"""What the store says about a game's polls, for the poll alerts: since when they fail, and,
once they work again, the failure the GM was alerted to (and only that one)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forummod.alerts.send import OUTPUT, poll_facts
from forummod.store import Store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
M = timedelta(minutes=1)


def runs(store: Store, *statuses: str) -> list[datetime]:
    """One poll run a minute from T0 with these statuses; their start times."""
    times = []
    for i, status in enumerate(statuses):
        at = T0 + i * M
        run = store.start_poll_run("g", at)
        store.finish_poll_run(run, at, status, error="HTTP 503" if status == "failed" else None)
        times.append(at)
    return times


def test_a_run_of_failures_is_dated_from_its_first(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        t = runs(s, "ok", "failed", "failed")
        facts = poll_facts(s, "g")
    assert facts.poll_failing_since == t[1] and facts.poll_error == "HTTP 503" and facts.recovered_since is None


def test_the_failure_before_a_good_poll_counts_as_recovered_only_if_its_alert_was_sent(tmp_path):
    with Store(tmp_path / "s.sqlite") as s:
        t = runs(s, "ok", "failed", "failed", "ok", "ok")
        assert poll_facts(s, "g").recovered_since is None  # a hiccup nobody was told of
        s.record_alert_delivery("g", f"poll_failing:{t[1].isoformat()}", OUTPUT, kind="poll_failing", phase="D1",
                                text="polling has failed", state="sent", at=t[2])
        facts = poll_facts(s, "g")
    assert (facts.poll_failing_since, facts.recovered_since, facts.recovered_at) == (None, t[1], t[3])
