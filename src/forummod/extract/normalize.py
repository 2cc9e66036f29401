"""String folding shared by the text model and name matching.

Names are compared after *folding*: Unicode compatibility forms (full-width letters typed
with a Chinese IME become ASCII), accents dropped (``Nicolò`` = ``Nicolo``, ``ё`` = ``е``),
case folded, ``_`` read as a space, runs of spaces collapsed and invisible characters
(zero-width spaces and joiners, soft hyphens, direction marks) removed: players paste names
from profiles full of them. `fold_map` also returns where each folded character came from,
so a match in folded text can be cut out of the raw text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Characters that render as nothing; stripped everywhere (text model and names).
INVISIBLE = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f"
             "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    None,
)


def strip_invisible(s: str) -> str:
    return s.translate(INVISIBLE)


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    if ord(ch) in INVISIBLE:
        return ""
    if ch == "_" or ch.isspace():
        return " "
    decomposed = unicodedata.normalize("NFKD", ch)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return kept.casefold()


def fold(s: str) -> str:
    """Case-, accent- and width-insensitive form of `s` with single spaces, stripped."""
    return fold_map(s)[0]


def fold_map(s: str) -> tuple[str, tuple[int, ...]]:
    """`fold(s)` plus, for each folded character, the index of the raw character it came from.

    The map has one extra entry at the end (the raw length), so `raw[:m[k]]` is the raw text
    behind the first `k` folded characters. Cached: the same names are folded for every vote.
    """
    return _fold_map(s) if len(s) <= 64 else _fold_map.__wrapped__(s)


#: ASCII whitespace other than the space, and "_": each folds to a space (`_fold_char`).
_ASCII_SPACES = str.maketrans({c: " " for c in "_\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"})


@lru_cache(maxsize=8192)
def _fold_map(s: str) -> tuple[str, tuple[int, ...]]:
    if s.isascii():
        # ASCII folds to its lowercase with "_" and whitespace as spaces (no invisible, accented
        # or wide characters): when no spaces are to be collapsed, every character maps to itself
        t = s.translate(_ASCII_SPACES).lower()
        if "  " not in t and t[:1] != " " and t[-1:] != " ":
            return t, tuple(range(len(s) + 1))
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(s):
        f = _fold_char(ch)
        for c in f:
            if c == " " and (not out or out[-1] == " "):
                continue
            out.append(c)
            idx.append(i)
    while out and out[-1] == " ":
        out.pop()
        idx.pop()
    idx.append(len(s))
    return "".join(out), tuple(idx)


def compact(s: str) -> str:
    """A folded name with spaces, hyphens, dots and apostrophes removed (``red tail`` = ``redtail``)."""
    if s.isascii():  # (in ASCII, `str.isalnum` is exactly these)
        return _ASCII_NOT_ALNUM.sub("", s)
    return "".join(c for c in s if c.isalnum())


_ASCII_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]+")


# --------------------------------------------------------------------------- scripts


def is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF
            or 0x3040 <= o <= 0x30FF or 0xAC00 <= o <= 0xD7AF or 0x20000 <= o <= 0x2FA1F)


def has_cjk(s: str) -> bool:
    return not s.isascii() and any(is_cjk(c) for c in s)


def has_cyrillic(s: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in s)


def word_char(ch: str) -> bool:
    """A character that continues a Latin/Cyrillic word (CJK never needs a word boundary)."""
    return ch.isalnum() and not is_cjk(ch)


#: Letters that look like Latin letters (Cyrillic and Greek lookalikes), for homoglyph checks.
_CONFUSABLE = str.maketrans({
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ɡ": "g", "ο": "o", "α": "a", "ν": "v", "ρ": "p", "κ": "k", "ι": "i", "ε": "e", "τ": "t",
    "υ": "u", "χ": "x", "β": "b", "η": "n", "ӏ": "l", "ѵ": "v", "ү": "y", "һ": "h",
})


def skeleton(folded: str) -> str:
    """Folded text with look-alike Cyrillic/Greek letters mapped to Latin ones."""
    return folded.translate(_CONFUSABLE)
