"""Word runs for the verbatim-copy check (ON-D4, D4).

D4: "a run of 12 or more consecutive words identical (case- and space-insensitive) to a PM
the GM sent that player". Words are letter/digit runs, casefolded; punctuation and markup
between them are ignored, so re-wrapping or dropping the bold of a copied line does not hide
it. Chinese and Japanese script has no spaces: each ideograph or kana counts as a word there.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from forummod.records import frozen

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*")


def post_text(html: str):
    """Extraction's text model (`forummod.extract.text.post_text`): the player's own words."""
    try:
        from forummod.extract import post_text as pt  # type: ignore[attr-defined]
    except ImportError:
        from forummod.extract.text import post_text as pt
    return pt(html)


def words(text: str) -> tuple[str, ...]:
    return tuple(w.casefold() for w in _WORD.findall(text))


def _grams(ws: Sequence[str], n: int) -> Iterable[tuple[str, ...]]:
    return (tuple(ws[i:i + n]) for i in range(len(ws) - n + 1))


@frozen
class Copy:
    """The longest run of `post` words found word for word in a reference text."""

    length: int
    start: int  # index in the post's words
    ref: int  # which reference text
    excerpt: str


def longest_copy(post: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> Copy | None:
    """The longest run of at least `n` consecutive post words that occurs in one of `refs`."""
    if n <= 0 or len(post) < n:
        return None
    best: Copy | None = None
    for ri, ref in enumerate(refs):
        grams = set(_grams(ref, n))
        if not grams:
            continue
        i = 0
        while i <= len(post) - n:
            if tuple(post[i:i + n]) not in grams:
                i += 1
                continue
            # extend while the next n-gram also occurs: every n words of the run are copied
            # (enough for the rule; the run's length is what the GM is shown)
            j = i + 1
            while j <= len(post) - n and tuple(post[j:j + n]) in grams:
                j += 1
            length = j - i + n - 1
            if best is None or length > best.length:
                shown = post[i:i + length]
                excerpt = " ".join(shown[:20]) + (" …" if length > 20 else "")
                best = Copy(length, i, ri, excerpt)
            i = j
    return best
