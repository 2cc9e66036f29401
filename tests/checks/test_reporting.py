"""A finding is reported once, not on every poll, unless it changes (real SQLite store)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from forummod.check_store import gm_pms_from_store, new_findings, unreported
from forummod.checks import Finding
from forummod.adapter_records import RawMessage
from forummod.store import Store

from tests.checks.helpers import T0, ctx, day, h


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "store.sqlite")
    yield s
    s.close()


A = Finding(code="dead_post", key="dead_post:1:55", message="Aldo is dead but posted", rule="LUP-G2", player="Aldo",
            at=h(3))
B = Finding(code="prod", key="prod:Bea:x", message="Bea is silent", player="Bea", severity="info", at=h(4))


def test_findings_are_reported_once_across_polls(store):
    assert new_findings(store, "g1", [A, B], h(5)) == [A, B]
    assert new_findings(store, "g1", [A, B], h(6)) == []
    assert new_findings(store, "g1", [A, B], h(7)) == []


def test_a_changed_finding_is_reported_again_and_a_new_one_alongside_old_ones(store):
    new_findings(store, "g1", [A], h(5))
    changed = replace(A, message="Aldo is dead but posted (since deleted)")
    assert new_findings(store, "g1", [changed, B], h(6)) == [changed, B]
    assert new_findings(store, "g1", [changed, B], h(7)) == []


def test_findings_are_kept_per_game(store):
    new_findings(store, "g1", [A], h(5))
    assert new_findings(store, "g2", [A], h(5)) == [A]


def test_unmarked_findings_stay_new_until_someone_reports_them(store):
    assert new_findings(store, "g1", [A], h(5), mark=False) == [A]
    assert new_findings(store, "g1", [A], h(6), mark=False) == [A]
    assert new_findings(store, "g1", [A], h(7)) == [A]
    assert new_findings(store, "g1", [A], h(8)) == []


def test_unreported_peeks_without_writing(store):
    assert unreported(store, "g1", [A]) == [A]
    assert store.finding("g1", A.key) is None
    new_findings(store, "g1", [A], h(5))
    assert unreported(store, "g1", [A]) == []
    assert unreported(store, "g1", [replace(A, severity="error")]) != []


def test_gm_pms_are_read_from_stored_messages_the_gm_sent_and_published_pm_drafts(store):
    store.save_messages("forum", [
        RawMessage("m1", "GM", T0, "<p>You are the Seer.</p>", recipients=("aldo",)),
        RawMessage("m2", "Aldo", T0, "<p>check Bea</p>", recipients=("GM",)),
        RawMessage("m3", "GM", T0, "<p>hi</p>", recipients=("Stranger",)),
    ], T0)
    did, _ = store.upsert_draft(game="g1", kind="role_pm", phase="N1", slot="Bea", target="pm:Bea", markup="bbcode",
                                lang="en", title="Your role", body="[b]You are town.[/b]", at=T0)
    store.set_draft_status(did, "published", h(1))
    c = ctx(["Aldo", "Bea"], phases=(day(1, T0),), now=h(2))
    pms = gm_pms_from_store(store, c)
    assert {k: [p.text for p in v] for k, v in pms.items()} == {
        "Aldo": ["<p>You are the Seer.</p>"], "Bea": ["[b]You are town.[/b]"]}
    assert pms["Aldo"][0].source.id == "m1"
