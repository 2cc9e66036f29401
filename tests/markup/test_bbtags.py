"""The one BBCode tag grammar (`markup.bbtags`) and its two readers: HTML and extraction spans."""

from __future__ import annotations

from forummod.extract.bbcode import apply_bbcode
from forummod.extract.spans import PostText
from forummod.markup.bbcode import to_html
from forummod.markup.bbtags import Close, Loose, Open, pair, tokenize


def test_tokenize_reads_name_argument_and_position():
    (tag,) = tokenize('say [QUOTE="Ann"] hi')
    assert (tag.name, tag.closing, tag.arg, tag.start, tag.end, tag.raw) == (
        "quote", False, '"Ann"', 4, 17, '[QUOTE="Ann"]')


def test_tokenize_limited_to_names_leaves_other_brackets_as_text():
    # "[foo=[b]": an unknown tag does not swallow the bold tag in its argument
    assert [t.raw for t in tokenize("[foo=[b]x[/b]", frozenset({"b"}))] == ["[b]", "[/b]"]
    assert [t.raw for t in tokenize("[foo=[b]x[/b]")] == ["[foo=[b]", "[/b]"]


def test_a_closing_tag_pairs_with_the_nearest_open_tag_of_its_name():
    steps, still_open = pair(tokenize("[b][i]x[/b][/i]"))
    assert [type(s) for s in steps] == [Open, Open, Close, Loose]
    assert steps[2].opener.name == "b" and [t.name for t in steps[2].inner] == ["i"]
    assert still_open == ()


def test_unaccepted_openers_and_unopened_closers_pair_with_nothing():
    steps, still_open = pair(tokenize("[/b][color=red]x[/color][u]"), opens=lambda t: t.name != "color")
    assert [type(s) for s in steps] == [Loose, Loose, Loose, Open]
    assert [t.name for t in still_open] == ["u"]


def test_inside_a_verbatim_tag_only_its_own_closing_tag_counts():
    steps, _ = pair(tokenize("[code][b]x[/code][/b]"), verbatim=frozenset({"code"}))
    assert [type(s) for s in steps] == [Open, Loose, Close, Loose]


def test_html_and_extraction_read_the_same_pairs():
    text = "[b]VOTE: Ann[/b] [quote=Bob]vote: Cy[/quote] [b]open"
    assert to_html(text).startswith("<strong>VOTE: Ann</strong> <blockquote")
    pt = apply_bbcode(PostText(text))
    assert pt.text == "VOTE: Ann\n[b]open"  # only paired tags count; the quote is hidden
    assert [(s.start, s.end) for s in pt.bold] == [(0, 9)]
    assert [h.kind for h in pt.hidden] == ["quote"]


def test_the_readers_differ_only_in_what_they_do_with_unpaired_tags():
    # HTML closes the tag left open inside [b]...[/b]; extraction keeps it as text
    assert to_html("[b][s]x[/b]") == "<strong><s>x</s></strong>"
    pt = apply_bbcode(PostText("[b][s]x[/b]"))
    assert pt.text == "[s]x" and [(s.start, s.end) for s in pt.bold] == [(0, 4)]
