"""The text model's result types: a post's own words with bold, vote-tag and hidden parts.

`text.post_text` (HTML) and `bbcode.apply_bbcode` (literal BBCode) both build them; they
live apart from both so neither imports the other's module for its types.
"""

from __future__ import annotations

from forummod.records import frozen



@frozen
class Span:
    """A run of `PostText.text`: ``kind`` is ``bold`` or ``vote``/``unvote`` (a vote tag)."""

    start: int
    end: int
    kind: str = "bold"


@frozen
class Hidden:
    """Material left out of the player's own text, kept for checks and diagnostics.

    `kind`: quote, spoiler, code, signature, strike or hidden; `author` is the quoted
    player when the markup says (``data-fm-author``, ``<cite>X wrote:</cite>``).
    """

    kind: str
    text: str
    author: str | None = None


@frozen
class PostText:
    """The player's own words of one post body, with bold and vote-tag positions."""

    text: str
    bold: tuple[Span, ...] = ()
    tags: tuple[Span, ...] = ()
    hidden: tuple[Hidden, ...] = ()

    def lines(self) -> tuple[tuple[int, int], ...]:
        """(start, end) offsets of every line of `text`."""
        out = []
        pos = 0
        for line in self.text.split("\n"):
            out.append((pos, pos + len(line)))
            pos += len(line) + 1
        return tuple(out)

    def line_at(self, pos: int) -> tuple[int, int]:
        start = self.text.rfind("\n", 0, pos) + 1
        end = self.text.find("\n", pos)
        return start, (len(self.text) if end < 0 else end)

    def bold_at(self, pos: int) -> Span | None:
        for s in self.bold:
            if s.start <= pos < s.end:
                return s
        return None


def merge_spans(spans) -> tuple[Span, ...]:
    """(start, end) pairs as sorted bold `Span`s, overlapping or touching runs joined, empty ones dropped."""
    out: list[list[int]] = []
    for s, e in sorted(spans):
        if e <= s:
            continue
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return tuple(Span(s, e) for s, e in out)
