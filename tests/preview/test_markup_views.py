"""Issue 15 item 2: the preview shows a draft as the game's forum will show it. A BBCode draft
for a BBCode forum and a Markdown draft for a Markdown forum are rendered; a draft whose markup
is not the engine's shows what the forum would really display (its raw tags) with a note."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

from forummod.preview.page import card, render_page

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def _row(body: str, markup: str, id: int = 1):
    return SimpleNamespace(id=id, game="g", kind="votecount", phase="D1", status="draft", target="thread",
                           title="Vote count", markup=markup, lang="en", body=body, edited_by_gm=False,
                           updated_at=AT)


def test_bbcode_for_a_bbcode_forum_and_markdown_for_a_markdown_forum_are_rendered():
    bb = card(_row("[b]Eve[/b] 3", "bbcode"), None, "bbcode")
    md = card(_row("**Eve** 3", "markdown"), None, "markdown")
    assert "<strong>Eve</strong>" in bb.html or "<b>Eve</b>" in bb.html
    assert "<strong>Eve</strong>" in md.html
    assert not bb.markup_mismatch and not md.markup_mismatch
    page = render_page([bb], "tok")
    assert 'id="mismatch-1"' not in page


def test_a_bbcode_draft_on_a_markdown_forum_shows_its_raw_tags_with_a_note():
    c = card(_row("[b]Eve[/b] 3", "bbcode"), None, "markdown")
    assert c.markup_mismatch and "[b]Eve[/b]" in c.html and "<b>" not in c.html
    page = render_page([c], "tok")
    assert 'id="mismatch-1"' in page and "the forum" in page and 'markup = "markdown"' in page


def test_a_markdown_draft_on_a_bbcode_forum_shows_the_asterisks():
    c = card(_row("**Eve** 3", "markdown"), None, "bbcode")
    assert c.markup_mismatch and "**Eve**" in c.html and "<strong>" not in c.html


def test_an_engine_of_unknown_markup_renders_the_drafts_own():
    c = card(_row("[b]Eve[/b]", "bbcode"), None, "")
    assert not c.markup_mismatch and "Eve</" in c.html and "[b]" not in c.html


def test_the_gms_own_notes_are_shown_as_written_whatever_the_forum_renders():
    row = _row("[b]Notes[/b]", "bbcode")
    row.kind, row.target = "warnings", "gm"
    c = card(row, None, "markdown")
    assert not c.markup_mismatch and "[b]" not in c.html
