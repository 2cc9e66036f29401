"""Issue 15, items 1 and 4: the drafts as the GM handles them on the page, at the HTML level.

Per game the vote count comes first, then what the GM does next (a send to settle, posts to
the thread, PMs, their own notes); drafts of an earlier phase or a finished game are folded
away in a closed `<details>` and only the unfolded form can publish them; the raw text to post
by hand is in a readonly textarea (with its marker once recorded); the editor renders an
unsaved edit for the no-JS Preview; `drafts_section` renders that part alone for the console.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from types import SimpleNamespace

import lxml.html

from forummod.draft_state import Position, draft_state, past_reason
from forummod.preview.page import DRAFTS_JS, card, drafts_section, next_step, render_page

AT = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
NOW = Position("D2")


def _row(id: int, kind: str, phase: str = "D2", target: str = "thread", status: str = "draft", body: str = "",
         game: str = "g"):
    return SimpleNamespace(id=id, game=game, kind=kind, phase=phase, status=status, target=target,
                           title=f"{kind} {phase}", markup="bbcode", lang="en", body=body or f"[b]{kind}[/b]",
                           edited_by_gm=False, updated_at=AT)


def _pub(state: str):
    return SimpleNamespace(state=state, url=None, remote_id=None, error=None)


def _ids_in(root, css_xpath: str) -> list[int]:
    return [int(s.get("data-id")) for s in root.xpath(css_xpath)]


def test_the_vote_count_comes_first_then_what_the_gm_does_next():
    rows = [_row(1, "warnings", target="gm"), _row(2, "night_result", target="pm:Ann"), _row(3, "day_start"),
            _row(4, "role_pm", phase="setup", target="pm:Bob"), _row(5, "day_end"), _row(6, "votecount"),
            _row(7, "prod")]
    pubs = {7: _pub("uncertain")}
    cards = [card(r, pubs.get(r.id), st=draft_state(r, pubs.get(r.id), None, None), position=NOW) for r in rows]
    root = lxml.html.fromstring(str(drafts_section(cards, "tok")))
    order = _ids_in(root, "//section[@class='game']/section[contains(@class, 'draft')]")
    # the count; the uncertain send to settle; close the day, the night's results, role PMs, the new day;
    # the GM's notes
    assert order == [6, 7, 5, 2, 4, 3, 1]
    assert sorted(cards, key=next_step)[0].kind == "votecount"
    todo = {int(e.get("id")[5:]): e.text_content() for e in root.xpath("//p[@class='todo']")}
    assert todo[2] == "Send (PM to Ann)" and todo[5] == "Send (reply in the game thread)"
    assert todo[7].startswith("Settle") and todo[1].startswith("Read: your notes")


def test_drafts_of_an_earlier_phase_are_folded_away_and_publish_only_from_the_unfolded_form():
    rows = [_row(1, "votecount", phase="D1"), _row(2, "day_start", phase="D1"), _row(3, "votecount"),
            _row(4, "role_pm", phase="setup", target="pm:Bob"), _row(5, "votecount", phase="D1", status="published")]
    cards = [card(r, None, position=NOW) for r in rows]
    page = render_page(cards, "tok", positions={"g": NOW})
    root = lxml.html.fromstring(page)
    [past] = root.xpath("//details[contains(@class, 'folded past')]")
    assert past.get("open") is None and "Drafts of earlier phases: 2 open" in past.find("summary").text_content()
    assert sorted(_ids_in(past, ".//section[contains(@class, 'draft')]")) == [1, 2]
    [done] = root.xpath("//details[contains(@class, 'folded done')]")
    assert done.get("open") is None and _ids_in(done, ".//section") == [5]
    assert _ids_in(root, "//section[@class='game']/section[contains(@class, 'draft')]") == [3, 4]  # now: unfolded
    for did in (1, 2):  # the publish form is inside the fold only, and carries the fold's consent
        [form] = root.xpath(f"//form[@action='/drafts/{did}/publish']")
        assert form.xpath("ancestor::details[contains(@class, 'folded')]")
        assert form.xpath(".//input[@name='folded_ok']/@value") == ["1"]
    [now] = root.xpath("//form[@action='/drafts/3/publish']")
    assert not now.xpath("ancestor::details[contains(@class, 'folded')]") and not now.xpath(".//input[@name='folded_ok']")
    assert "the game is in D2 now" in root.get_element_by_id("draft-1").text_content()


def test_what_must_be_sent_after_a_phase_change_stays_on_top_until_sent_or_discarded():
    """Issue 28, item 8: in D2, D1's closing post and N1's result PMs are not "earlier phases"; they
    come right after the count, in the README's order, before the new day's dawn post."""
    rows = [_row(1, "votecount", phase="D1"), _row(2, "day_end", phase="D1"), _row(3, "votecount"),
            _row(4, "night_result", phase="N1", target="pm:Cat"), _row(5, "day_start"),
            _row(6, "day_end", phase="D1", target="thread"), _row(7, "night_result", phase="N1", status="discarded")]
    rows[5].slot = "thread:correction"  # a correction of a published post is as current as that post
    cards = [card(r, None, position=NOW) for r in rows]
    root = lxml.html.fromstring(render_page(cards, "tok", positions={"g": NOW}))
    assert _ids_in(root, "//section[@class='game']/section[contains(@class, 'draft')]") == [3, 6, 2, 4, 5]
    [past] = root.xpath("//details[contains(@class, 'folded past')]")
    assert _ids_in(past, ".//section[contains(@class, 'draft')]") == [1]
    assert past_reason("day_end", "D1", "draft", Position("D3")) == ""  # until sent or discarded
    assert past_reason("day_end", "D1", "discarded", NOW) == ""  # done: folded with the done ones


def test_a_finished_game_folds_everything_but_its_game_over_post_and_its_last_announcements():
    over = Position("D3", finished=True)
    rows = [_row(1, "votecount", phase="D3"), _row(2, "game_over", phase="end"), _row(3, "day_end", phase="D3"),
            _row(4, "day_start", phase="D3")]
    root = lxml.html.fromstring(render_page([card(r, None, position=over) for r in rows], "tok",
                                            positions={"g": over}))
    # the lynch that ended the game, then the game-over post
    assert _ids_in(root, "//section[@class='game']/section[contains(@class, 'draft')]") == [3, 2]
    [past] = root.xpath("//details[contains(@class, 'folded past')]")
    assert "Drafts of the finished game: 2 open" in past.find("summary").text_content()
    assert "game over" in root.xpath("//h2")[0].text_content()
    assert past_reason("votecount", "D3", "draft", over) == "the game is over"
    assert past_reason("day_end", "D2", "draft", over) == "the game is over"
    assert past_reason("game_over", "end", "draft", over) == ""
    assert past_reason("votecount", "D1", "published", NOW) == ""  # done drafts are not "past": nothing to send


def test_the_raw_text_is_selectable_without_script_and_taken_by_hand_with_its_marker():
    body = "[b]Vote count[/b]\nEve (3)"
    fresh = card(_row(1, "votecount", body=body), None, position=NOW)
    marked = body + "\n[size=1]fm-2-0a1b2c3d4e[/size]\n"
    row2 = _row(2, "day_end", body=body)
    taken = card(row2, _pub("uncertain"), st=draft_state(row2, _pub("uncertain"), None, None), position=NOW,
                 outgoing=marked, by_hand="2026-03-02 09:10")
    root = lxml.html.fromstring(str(drafts_section([fresh, taken], "tok")))
    raw1, raw2 = root.get_element_by_id("raw-1"), root.get_element_by_id("raw-2")
    assert raw1.get("readonly") is not None and raw1.text == body  # no attempt yet: the draft's text
    [hand] = root.xpath("//form[@action='/drafts/1/by-hand']")
    assert "with its marker" in hand.text_content() and hand.get("data-raw") == "raw-1"
    assert raw2.get("readonly") is not None and raw2.text == marked  # recorded: exactly what the forum gets
    copy = root.get_element_by_id("copy-2")
    assert copy.get("data-copy") == "raw-2" and copy.get("hidden") is not None  # shown by the script only
    note = root.get_element_by_id("marker-note-2").text_content()
    assert "marker" in note and "next poll recognises the post" in note
    assert "took this text at 2026-03-02 09:10" in " ".join(root.get_element_by_id("taken-2").text_content().split())
    assert root.xpath("//form[@action='/drafts/2/publish']//input[@name='resend']/@value") == ["1"]


def test_the_editor_renders_an_unsaved_edit_and_is_wired_for_the_live_preview():
    c = card(_row(1, "votecount", body="[b]stored[/b]"), None, position=NOW)
    plain = lxml.html.fromstring(str(drafts_section([c], "tok")))
    area = plain.get_element_by_id("body-1")
    assert area.get("data-url") == "/drafts/1/preview" and area.get("data-preview") == "live-1"
    assert plain.xpath("//label[@for='body-1']") and area.text == "[b]stored[/b]"
    assert plain.xpath("//button[@id='preview-1']/@formaction") == ["/drafts/1/preview"]
    assert plain.get_element_by_id("live-1").xpath(".//strong")[0].text == "stored"

    shown = lxml.html.fromstring(str(drafts_section([c], "tok", previewing={1: ("[b]new[/b]", "<strong>new</strong>")})))
    assert shown.xpath("//details[contains(@class, 'edit')]")[0].get("open") is not None
    assert shown.get_element_by_id("body-1").text == "[b]new[/b]"
    assert shown.get_element_by_id("live-1").xpath(".//strong")[0].text == "new"


def test_the_drafts_section_alone_has_no_page_around_it_and_the_page_loads_the_one_script():
    c = card(_row(1, "votecount"), None, position=NOW)
    section = str(drafts_section([c], "tok"))
    assert section.lstrip().startswith('<div class="drafts" id="drafts"') and "<html" not in section
    assert "<script" not in section
    page = render_page([c], "tok", lang="it")
    assert '<html lang="it">' in page
    assert re.findall(r"<script[^>]*>(.*?)</script>", page, re.S) == [DRAFTS_JS]
    assert "No drafts yet" in render_page([], "tok")
