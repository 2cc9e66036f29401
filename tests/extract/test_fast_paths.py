"""Shortcuts of the extraction code give what the long way gives (issue 17: first recount)."""

from __future__ import annotations

import random

from forummod.extract import normalize, text
from forummod.extract.names import NameIndex, name_index
from forummod.extract.normalize import INVISIBLE
from forummod.extract.text import post_text
from forummod.extract.votes import grammar
from tests.extract.helpers import roster


def _fold_map_char_by_char(s: str) -> tuple[str, tuple[int, ...]]:
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(s):
        for c in normalize._fold_char(ch):
            if c == " " and (not out or out[-1] == " "):
                continue
            out.append(c)
            idx.append(i)
    while out and out[-1] == " ":
        out.pop()
        idx.pop()
    idx.append(len(s))
    return "".join(out), tuple(idx)


def test_ascii_names_fold_as_character_by_character():
    rng = random.Random(5)
    chars = [chr(i) for i in range(128)]
    for _ in range(20_000):
        s = "".join(rng.choice(chars) for _ in range(rng.randint(0, 10)))
        assert normalize._fold_map.__wrapped__(s) == _fold_map_char_by_char(s), repr(s)
    assert normalize.fold_map("Ember_Fox") == ("ember fox", tuple(range(10)))


def test_text_spaces_collapse_as_the_full_substitution_does():
    rng = random.Random(7)
    chars = [" ", "a", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\u200b", "\x1c", "\x85", "\u2028", "  "]
    for _ in range(20_000):
        s = "".join(rng.choice(chars) for _ in range(rng.randint(0, 8)))
        b = text._Builder()
        b.add(s)
        ref = text._Builder()
        t = text._WS.sub(" ", s.translate(INVISIBLE))
        if t[:1] == " ":
            t = t[1:]
        if t:
            ref.parts.append(t)
        assert "".join(b.parts) == "".join(ref.parts), repr(s)


def test_ascii_texts_with_runs_at_the_ends_collapse_as_the_substitution_does():
    """The strip shortcut for ASCII markup indents and line breaks (around one line of text)."""
    rng = random.Random(11)
    chars = [" ", "  ", "\n", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x00", "\x07", "a", "bc", "x y", "."]
    for _ in range(50_000):
        s = "".join(rng.choice(chars) for _ in range(rng.randint(1, 8)))
        for last in ("", " ", "\n", "a"):
            b = text._Builder()
            b.last = last
            b.add(s)
            t = text._WS.sub(" ", s)
            if t[:1] == " " and last in ("", " ", "\n"):
                t = t[1:]
            assert "".join(b.parts) == t, repr(s)
            assert b.pos == len(t) and (b.last == (t[-1] if t else last))


def test_plain_lines_are_read_only_where_a_keyword_is_and_find_the_same():
    """`find` reads as plain-form segments only the lines one scan of the text found a keyword
    in; reading every line gives the same phrases."""
    idx = name_index(roster("Bob", "Luca"), "en")
    rng = random.Random(11)
    words = ["vote Bob", "VOTE: Luca", "unvote", "i am voting Bob", "abstain", "we should", "Bob", "votes",
             "devote", "  ", "-", "*", "##vote Luca", "\n", "\n", "lynch", "Stem op Bob"]
    for language in ("en", "nl"):
        g = grammar(language)
        for _ in range(1500):
            pt = post_text("\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
                                     for _ in range(rng.randint(1, 5))))
            fast = g.find(pt, idx)
            g.scan_lines = False
            try:
                slow = g.find(pt, idx)
            finally:
                g.scan_lines = True
            assert fast == slow, pt.text


def test_no_keyword_starts_with_a_lead_character():
    """`_segment` reads a segment that must start with a keyword only when one matches at its
    lead: that is the first match of the whole scan only if no keyword can begin inside the lead."""
    from forummod.extract.lexicon import lexicon
    from forummod.extract.votes import _LEAD

    for language in ("en", "it", "ru", "nl", "zh", "de"):
        w = lexicon(language).words
        for p in (*w.unvote, *w.abstain, *w.vote):
            assert p[:1].isalpha() and _LEAD.match(p[:1]).end() == 0, (language, p)


def test_long_texts_skip_prefix_and_fuzzy_matching_with_the_same_answers():
    """A text longer than every key is no key's prefix, and too long to score near any key:
    those stages are skipped for it, with the answers the full comparison gives."""
    idx = name_index(roster("Bob", "Luca Rossi", "Ember_Fox", "Kestrel"), "en")
    full = NameIndex(roster("Bob", "Luca Rossi", "Ember_Fox", "Kestrel"), "en")  # (not the shared one)
    full.max_len = full.max_compact = full.max_word = full.max_fuzzy = 10**9  # the comparisons always made
    rng = random.Random(3)
    pieces = ["bob", "luca", "rossi", "ember", "fox", "kes", "trel", " ", "_", "x", "because", "!", "lucarossi"]
    for _ in range(3000):
        q = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        for cutoff, margin in ((80, 10), (60, 40), (95, 5), (40, 0)):
            assert idx.fuzzy(q, cutoff, margin) == full.fuzzy(q, cutoff, margin), q
        assert idx.prefix(q) == full.prefix(q), q


def test_the_line_finder_answers_as_the_text_model_does():
    """`find` asks `PostText.line_at` for a few bold runs and the bisecting finder for many."""
    from forummod.extract.spans import PostText
    from forummod.extract.votes import _line_finder

    rng = random.Random(1)
    for _ in range(3000):
        t = "".join(rng.choice("ab\n ") for _ in range(rng.randint(0, 12)))
        finder, pt = _line_finder(t), PostText(t)
        assert [finder(p) for p in range(len(t) + 1)] == [pt.line_at(p) for p in range(len(t) + 1)], repr(t)
