"""Edited posts (issue 4 item 4): policy latest / original / void, always flagged with both versions."""

from __future__ import annotations

import pytest

from forummod.extract import extract_post

from .helpers import T0, codes, ctx, post, roster, votes

R = roster("Anna", "Luca", "Marco")
EDITED = post("<b>VOTE: Luca</b>", "<b>VOTE: Marco</b> (typo)")


@pytest.mark.parametrize("policy, expected, version", [
    ("latest", ["vote:Marco"], 2),
    ("original", ["vote:Luca"], 1),
    ("void", [], None),
])
def test_edit_policy_decides_which_version_counts(policy: str, expected: list[str], version: int | None) -> None:
    ex = extract_post(EDITED, ctx(R, edit_policy=policy))
    assert votes(ex) == expected
    assert [i.source.version for i in ex.intents] == ([version] if version else [])


@pytest.mark.parametrize("policy", ["latest", "original", "void"])
def test_an_edited_vote_is_always_flagged_with_both_versions(policy: str) -> None:
    ex = extract_post(EDITED, ctx(R, edit_policy=policy))
    assert codes(ex) == ["edited_vote"]
    issue = ex.issues[0]
    assert "VOTE: Luca" in issue.details and "VOTE: Marco" in issue.details
    assert issue.player == "Anna" and issue.at == T0


def test_an_edit_that_adds_a_vote_is_flagged() -> None:
    ex = extract_post(post("thinking...", "thinking... <b>VOTE: Luca</b>"), ctx(R, edit_policy="original"))
    assert votes(ex) == [] and codes(ex) == ["edited_vote"]


def test_an_edit_that_leaves_the_votes_alone_is_not_flagged() -> None:
    ex = extract_post(post("<b>VOTE: Luca</b> becuase", "<b>VOTE: Luca</b> because"), ctx(R, edit_policy="void"))
    assert votes(ex) == ["vote:Luca"] and ex.issues == ()


def test_an_edit_mark_without_the_original_is_flagged() -> None:
    p = post("<b>VOTE: Luca</b>", edited_at=T0.replace(hour=13))
    assert p.is_edited and len(p.versions) == 1
    ex = extract_post(p, ctx(R))
    assert votes(ex) == ["vote:Luca"] and codes(ex) == ["edited_vote"]
    assert "not stored" in ex.issues[0].details
    assert votes(extract_post(p, ctx(R, edit_policy="void"))) == []


def test_the_vote_keeps_the_post_creation_time() -> None:
    ex = extract_post(EDITED, ctx(R))
    assert [i.at for i in ex.intents] == [T0]
