"""Literal BBCode in a post's text, for forums (and archives) that left it unrendered.

``[b]VOTE: x[/b]`` becomes a bold span, ``[vote]x[/vote]`` a vote tag, and ``[quote]``,
``[spoiler]``, ``[code]``, ``[s]`` blocks (nested too) are removed like their HTML
counterparts. Only *paired* tags count: ``[b] vote:slaxx[\\b]`` stays plain text, which is
also what the MafiaScum moderator ruled (archive index, Slaxx post 1150). Other formatting
markers (``[color=red]``, ``[size=3]``, ``[u]``...) are dropped so they do not hide a vote
keyword. Positions of the spans found in the HTML are carried over. The tag grammar is the
one `markup.bbcode` renders to HTML with (`markup.bbtags`).
"""

from __future__ import annotations

import bisect
import re

from forummod.extract.spans import Hidden, PostText, Span, merge_spans
from forummod.markup.bbtags import Close, Loose, pair, tokenize

_EXCLUDE = {"quote": "quote", "spoiler": "spoiler", "spoil": "spoiler", "hide": "spoiler",
            "code": "code", "php": "code", "s": "strike", "strike": "strike", "del": "strike",
            "sig": "signature", "signature": "signature"}
_BOLD = frozenset({"b", "strong"})
_VOTE = {"vote": "vote", "voto": "vote", "unvote": "unvote"}
_FORMAT = frozenset({"i", "u", "em", "color", "colour", "size", "font", "url", "center", "left",
                     "right", "justify", "highlight", "sub", "sup", "big", "small", "align", "indent",
                     "list", "*", "email", "noparse"})
_NAMES = frozenset(_EXCLUDE) | _BOLD | frozenset(_VOTE) | _FORMAT


def apply_bbcode(pt: PostText) -> PostText:
    """`pt` with literal BBCode applied (unchanged when the text has none).

    The tags are read by the shared grammar (`markup.bbtags`), not through HTML: formatting
    markers take no part in pairing and are dropped; a tag left unpaired stays plain text."""
    if "[" not in pt.text:
        return pt
    tokens = tokenize(pt.text, _NAMES)
    if not tokens:
        return pt
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in old coordinates
    bold: list[tuple[int, int]] = []
    tags: list[tuple[int, int, str]] = []
    hidden: list[Hidden] = []
    for step in pair(tokens, opens=lambda t: t.name not in _FORMAT)[0]:
        if isinstance(step, Loose):
            if step.tag.name in _FORMAT:
                edits.append((step.tag.start, step.tag.end, ""))
            continue  # any other unpaired tag (a closing one nobody opened...) stays plain text
        if not isinstance(step, Close):
            continue
        opener, tok, name = step.opener, step.closer, step.closer.name
        if name in _EXCLUDE:
            inner = pt.text[opener.end:tok.start]
            hidden.append(Hidden(_EXCLUDE[name], " ".join(inner.split()), _author(opener.raw)))
            edits.append((opener.start, tok.end, "\n"))
        elif name in _BOLD:
            edits += [(opener.start, opener.end, ""), (tok.start, tok.end, "")]
            bold.append((opener.end, tok.start))
        else:
            edits += [(opener.start, opener.end, ""), (tok.start, tok.end, "")]
            tags.append((opener.end, tok.start, _VOTE[name]))
    if not edits:
        return pt
    edits = _outermost(edits)
    text, remap = _rewrite(pt.text, edits)
    new_bold = [(remap(s.start), remap(s.end)) for s in pt.bold] + [(remap(s), remap(e)) for s, e in bold]
    new_tags = [Span(remap(s.start), remap(s.end), s.kind) for s in pt.tags]
    new_tags += [Span(remap(s), remap(e), k) for s, e, k in tags]
    text, trim = _tidy(text)
    return PostText(
        text,
        merge_spans((trim(s), trim(e)) for s, e in new_bold),
        tuple(sorted((Span(trim(t.start), trim(t.end), t.kind) for t in new_tags
                      if trim(t.end) > trim(t.start)), key=lambda t: t.start)),
        pt.hidden + tuple(hidden),
    )


def _author(opener: str) -> str | None:
    m = re.match(r'\[\w+=\s*(?:"([^"\]]+)"|([^\]\s;]+))', opener)
    return (m.group(1) or m.group(2)) if m else None


def _outermost(edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Edits sorted, with those inside a removed block dropped (nested quotes, tags in quotes)."""
    out: list[tuple[int, int, str]] = []
    for s, e, r in sorted(edits, key=lambda x: (x[0], -x[1])):
        if out and s < out[-1][1]:
            continue
        out.append((s, e, r))
    return out


def _rewrite(text: str, edits: list[tuple[int, int, str]]):
    """Apply non-overlapping edits; return the new text and an old->new position map."""
    pieces: list[str] = []
    old_starts: list[int] = []
    new_starts: list[int] = []
    old_ends: list[int] = []
    prev = 0
    new_len = 0
    for s, e, r in edits:
        pieces.append(text[prev:s])
        new_len += s - prev
        old_starts.append(s)
        old_ends.append(e)
        new_starts.append(new_len)
        pieces.append(r)
        new_len += len(r)
        prev = e
    pieces.append(text[prev:])

    def remap(p: int) -> int:
        i = bisect.bisect_right(old_starts, p) - 1
        if i < 0:
            return p
        if p < old_ends[i]:
            return new_starts[i]  # inside a removed stretch: its start
        return new_starts[i] + len(edits[i][2]) + (p - old_ends[i])

    return "".join(pieces), remap


def _tidy(text: str):
    """Collapse the blank lines and spaces left by removed blocks; returns text and a position map."""
    keep: list[int] = []  # old index of each kept char
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch == " " and (not out or out[-1] in " \n"):
            continue
        if ch == "\n":
            if out and out[-1] == " ":
                out.pop()
                keep.pop()
            if not out or out[-1] == "\n":
                continue
        out.append(ch)
        keep.append(i)
    while out and out[-1] in " \n":
        out.pop()
        keep.pop()

    def trim(p: int) -> int:
        return bisect.bisect_left(keep, p)

    return "".join(out), trim
