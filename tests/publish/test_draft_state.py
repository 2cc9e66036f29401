"""The one state model of a draft's publication (issue 15, item 3): precedence of the states
and the flag each refusal names."""

from dataclasses import dataclass

from forummod.draft_state import Fresh, Source, State, content_key, draft_state, render_command


@dataclass(frozen=True)
class Row:
    id: int = 7
    kind: str = "votecount"
    phase: str = "D1"
    title: str = "Vote Count"
    body: str = "Eve (2)"
    status: str = "draft"
    edited_by_gm: bool = False
    slot: str = "thread"


@dataclass(frozen=True)
class Pub:
    state: str


WAS = Source("D1", 3, None, content_key("Vote Count", "Eve (2)"))


def fresh(body: str, last_post: int = 4) -> Fresh:
    return Fresh("Vote Count", body, Source("D1", last_post, None, content_key("Vote Count", body)))


def test_an_identical_rerender_is_fresh_and_a_different_one_stale_naming_stale_ok():
    assert draft_state(Row(), None, WAS, fresh("Eve (2)")).state == State.FRESH
    st = draft_state(Row(), None, WAS, fresh("Eve (3)"))
    assert st.state == State.STALE and st.state.flag == "--stale-ok"
    assert "--stale-ok" in st.refusal() and "--resend" not in st.refusal()
    assert "posts up to #3" in st.changed and "posts up to #4" in st.changed
    assert "-Eve (2)" in st.diff and "+Eve (3)" in st.diff


def test_an_unsettled_publication_outranks_staleness_and_names_resend():
    for pub in ("sending", "uncertain"):
        st = draft_state(Row(), Pub(pub), WAS, fresh("Eve (3)"))
        assert st.state == State(pub) and st.state.flag == "--resend" and st.refusal() is None  # publish explains


def test_published_discarded_parts_and_unchecked_drafts():
    assert draft_state(Row(status="published"), Pub("sent"), WAS, None).state == State.PUBLISHED
    assert draft_state(Row(status="discarded"), None, WAS, fresh("x")).state == State.DISCARDED
    assert draft_state(Row(), None, WAS, fresh("Eve (2)"), parts=2).state == State.PARTS
    assert draft_state(Row(), None, WAS, None).state == State.FRESH  # not re-rendered: nothing says stale


def test_a_draft_from_before_render_records_is_compared_by_its_own_text():
    """Store migration 6 gives an open draft of an older store a record without a hash: its
    stored text itself is what a render now must write, else the draft is stale (never fresh
    unseen). A draft with no record at all (a GM correction, no render's text) stays as it is."""
    legacy = Source("D1", None, None, "")
    assert draft_state(Row(), None, legacy, fresh("Eve (2)")).state == State.FRESH
    st = draft_state(Row(), None, legacy, fresh("Eve (3)"))
    assert st.state == State.STALE and "not recorded" in st.changed and "+Eve (3)" in st.diff
    assert "--stale-ok" in st.refusal()
    assert draft_state(Row(edited_by_gm=True, body="mine"), None, legacy, fresh("Eve (2)")).state == State.STALE
    assert draft_state(Row(), None, legacy, Fresh(None, None, Source("D1", 9, 2, ""))).state == State.STALE
    assert draft_state(Row(), None, legacy, None).state == State.FRESH  # not re-rendered: nothing says stale
    assert draft_state(Row(), None, None, fresh("Eve (3)")).state == State.FRESH  # no record: not a render's text


def test_a_draft_that_no_longer_applies_is_stale():
    gone = Fresh(None, None, Source("D1", 9, 2, ""))
    st = draft_state(Row(), None, WAS, gone)
    assert st.state == State.STALE and "no longer applies" in st.changed


def test_the_advice_of_a_stale_draft_renders_that_very_draft_its_phase_and_player():
    """Issue 34: "render it again with forummod draft votecount" rendered today's count, not the
    stale draft's. The advice names the draft's phase, and its player for a PM."""
    assert render_command("votecount", "D2", "thread") == "forummod draft votecount --phase D2"
    assert render_command("night_result", "N1", "Ann") == "forummod draft night_result --phase N1 --to Ann"
    assert render_command("role_pm", "setup", "Mister X") == "forummod draft role_pm --to 'Mister X'"
    assert render_command("game_over", "end", "thread") == "forummod draft game_over"
    st = draft_state(Row(kind="night_result", phase="N1", slot="Ann"), None, WAS, fresh("Eve (3)"))
    assert "Render it again with 'forummod draft night_result --phase N1 --to Ann'." in st.refusal()
    edited = draft_state(Row(edited_by_gm=True, body="mine"), None, WAS, fresh("Eve (3)"))
    assert "'forummod draft votecount --phase D1 --revert'" in edited.refusal()


def test_a_draft_that_no_longer_applies_is_refused_with_discard_not_a_render_that_cannot_make_it():
    gone = Fresh(None, None, Source("D1", 9, 2, ""))
    for row in (Row(), Row(edited_by_gm=True, body="mine"), Row(kind="retired_kind")):
        msg = draft_state(row, None, WAS, gone).refusal()
        assert "no longer applies" in msg and "No command renders it again" in msg
        assert "forummod discard 7" in msg and "forummod publish 7 --stale-ok" in msg
        assert "Render it again" not in msg and "--revert" not in msg
    assert "'forummod draft votecount' drafts what applies now" in draft_state(Row(), None, WAS, gone).refusal()
    assert "forummod draft retired_kind" not in draft_state(Row(kind="retired_kind"), None, WAS, gone).refusal()
