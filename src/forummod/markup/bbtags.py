"""The BBCode tag grammar: one tokenizer and one pairing, shared by its two readers.

`markup.bbcode` turns the steps into HTML (archives, the preview); `extract.bbcode` turns
them into text spans (literal BBCode left in a post). Both read a text the same way:

- a tag is ``[name]``, ``[name=arg]`` or ``[/name]``; the reader says which names it knows
  (`tokenize`), anything else is text;
- an opening tag takes part in pairing only when the reader accepts it (`pair`'s `opens`);
- a closing tag pairs with the nearest open tag of its name; the tags opened inside it and
  still open are left unclosed (`Close.inner`); a closing tag nobody opened pairs with nothing;
- inside a `verbatim` tag (``[code]`` for HTML) only its own closing tag counts.

What a reader does with an unpaired tag is its own rule: HTML prints it and closes what is
left open, the extraction keeps it as plain text (only paired tags count).
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Callable, Iterable, NamedTuple, Union

_ARG = r"(?:=([^\]\n]{0,200}))?"
_ANY = re.compile(r"\[(/?)([a-zA-Z*]+)" + _ARG + r"\]")


class Tag(NamedTuple):
    """One tag as written: `name` lower-cased, `arg` the text after ``=`` (None without).

    Tags and steps are named tuples, not dataclasses: a long post has thousands and they are
    made on every read of it."""

    name: str
    closing: bool
    arg: str | None
    start: int
    end: int
    raw: str


class Loose(NamedTuple):
    """A tag that pairs with nothing: not accepted, never opened, or inside a verbatim tag."""

    tag: Tag


class Open(NamedTuple):
    tag: Tag


class Close(NamedTuple):
    """`closer` (also `tag`, like the other steps) closes `opener`; `inner` are the tags opened
    after it and still open, innermost first."""

    tag: Tag
    opener: Tag
    inner: tuple[Tag, ...] = ()

    @property
    def closer(self) -> Tag:
        return self.tag


Step = Union[Loose, Open, Close]


@lru_cache(maxsize=8)
def _pattern(names: frozenset[str] | None) -> re.Pattern[str]:
    if names is None:
        return _ANY
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"\[(/?)(" + alternatives + r")" + _ARG + r"\]", re.I)


def tokenize(text: str, names: frozenset[str] | None = None) -> list[Tag]:
    """The tags of `text` in order; `names` (lower-case) limits them to those names (None: any
    ``[a-zA-Z*]+``)."""
    return [_tag((m[2].lower(), m[1] == "/", m[3], m.start(), m.end(), m[0])) for m in _pattern(names).finditer(text)]


_tag = partial(tuple.__new__, Tag)  # Tag(*fields) without the named tuple's Python-level __new__


def pair(tags: Iterable[Tag], *, opens: Callable[[Tag], bool] = lambda t: True,
         verbatim: frozenset[str] = frozenset()) -> tuple[list[Step], tuple[Tag, ...]]:
    """One step per tag in order, and the tags still open at the end (innermost first)."""
    steps: list[Step] = []
    stack: list[Tag] = []
    for tag in tags:
        if stack and stack[-1].name in verbatim and not (tag.closing and tag.name == stack[-1].name):
            steps.append(Loose(tag))
        elif tag.closing:
            at = len(stack) - 1
            while at >= 0 and stack[at].name != tag.name:
                at -= 1
            if at < 0:
                steps.append(Loose(tag))
            else:
                steps.append(Close(tag, stack[at], tuple(reversed(stack[at + 1:]))))
                del stack[at:]
        elif opens(tag):
            stack.append(tag)
            steps.append(Open(tag))
        else:
            steps.append(Loose(tag))
    return steps, tuple(reversed(stack))

