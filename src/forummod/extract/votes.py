"""Vote grammar: which phrases of a post are votes, unvotes or votes for "no lynch".

The *forms* (config ``[games.<id>.votes].forms``; default ``("bold", "tag")``) say which
kinds of writing count:

``bold``
    a bold run starting with a vote keyword (``VOTE: name``, ``Voto: X``, ``Голосую за X``,
    ``Stem: X``, ``投票 X``), or containing one right after a comma or full stop
    (``Cross fingers, vote X``); a bold keyword whose name follows unbolded
    (``<b>Vote:</b> X``); a keyword at the start of a line followed by a bold name
    (``Голосую за <b>Маша</b>``, witch-hunt §6).
``tag``
    a vote tag: ``[vote]name[/vote]`` (also ``[voto]``, ``[unvote]``) rendered or literal,
    and MafiaScum's rendered ``<span class="bbvote">VOTE: name</span>``.
``hash``
    ``##vote name`` / ``##unvote`` (Mafia Universe style), anywhere on a line.
``plain``
    a vote phrase at the start of a line, without any markup. Off by default: "I would vote
    X but..." must not count, and only the start of a line is ever read.
``pm``
    votes sent to the GM by private message (one-night ON-V1); read by `extract_message`.

A phrase found in a form the game does not count is reported to the GM (info) when it names
a player, so a player who forgot the bold hears about it. Phrases inside quotes, spoilers,
code, signatures and struck-through text never reach this module (see `text`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from datetime import datetime
from typing import Literal

from forummod.extract.context import DEFAULT_FORMS, FORMS  # noqa: F401 (the forms, defined there)
from forummod.extract.lexicon import Lexicon, lexicon
from forummod.extract.names import NameIndex, NameMatch
from forummod.extract.normalize import has_cjk
from forummod.extract.text import PostText
from forummod.records import frozen

_LEAD = re.compile(r"[\s*•·~«\"'(\[\-–—_#]*")  # (a bold "##Vote: X" is a bold vote: '#' leads)
_SEP = " \t:：=-–—>»→~.,;!|"
_MAX_HEAD = 256  # characters looked at before a vote phrase (no vote needs more; bounds huge posts)
_AFTER_SEP = tuple(",;.!?|/，。；！？、:：")
_SEGMENTS = 10_000  # remembered segments per language (a vote line and its answer each: a few MB)


@frozen
class VoteAction:
    """One vote phrase as read, before the author or the game's forms are considered.

    `kind` is vote or unvote (an abstention is an unvote). `match` is the resolved target
    (None for a general unvote and for no lynch). `strong` marks phrases that are certainly
    meant as votes (tags, hash, bold at the start): only those report unknown names.
    """

    kind: Literal["vote", "unvote"]
    raw: str
    start: int
    forms: frozenset[str]
    target_text: str = ""
    match: NameMatch | None = None
    no_lynch: bool = False
    strong: bool = True
    abstain: bool = False

    def key(self) -> tuple[str, str | None]:
        """What the phrase does, for comparing two versions of a post."""
        if self.no_lynch:
            return (self.kind, "__no_lynch__")
        if self.match is not None and self.match.ok:
            return (self.kind, self.match.name)
        return (self.kind, self.target_text.casefold() or None)


def _alternation(patterns: tuple[str, ...]) -> str:
    ordered = sorted(patterns, key=len, reverse=True)
    return "|".join(p + ("" if has_cjk(p) else r"(?!\w)") for p in ordered)


class VoteGrammar:
    """The compiled vote grammar of one language (plus English)."""

    def __init__(self, lex: Lexicon) -> None:
        w = lex.words
        self.lex = lex
        self.keyword = re.compile(
            r"(?<![^\W\d_])(?:(?P<unvote>" + _alternation(w.unvote) + r")|(?P<abstain>"
            + _alternation(w.abstain) + r")|(?P<vote>" + _alternation(w.vote) + r"))", re.I)
        self.connector = re.compile(
            r"(?:" + "|".join(c + (r"(?=\s*\S)" if has_cjk(c) else r"\s+") for c in
                              sorted(w.connectors, key=len, reverse=True)) + r")", re.I)
        self.no_lynch = re.compile(r"(?:" + _alternation(w.no_lynch) + r")", re.I)
        self.alt = re.compile(r"\s*(?:" + "|".join(
            a + ("" if not a[-1].isalpha() or has_cjk(a) else r"(?!\w)") for a in w.alt) + r")\s*", re.I)
        self.stop = frozenset(s.casefold() for s in w.stop)
        # "##vote X" (or "#vote X"): the name ends with its line, so "##unvote" on one line and
        # "##vote X" on the next are two statements (the separator never crosses a line break)
        self.hash = re.compile(r"(?<!#)(?:##[ \t]*|#)(?P<kw>(?P<kind>un)?vote)(?!\w)[ \t:：]*(?P<arg>[^\n]*)", re.I)
        # The keywords without their word-boundary checks: where this finds nothing in a post,
        # no bold run, line or piece of it can hold a keyword (most posts hold none). It runs on
        # lowercased ASCII text, where that equals matching without case (and costs far less).
        loose = "|".join((*w.unvote, *w.abstain, *w.vote))
        plain = loose == loose.lower() and not any(x in loose for x in ("(?=", "(?!", "(?<"))
        self.maybe = re.compile(loose) if plain else None
        # Anchors would read a line alone differently from the same line inside the text; without
        # them, one scan of the whole text finds every line holding a keyword (`find`).
        self.scan_lines = not any(a in p for p in (*w.unvote, *w.abstain, *w.vote) for a in ("^", "$", "\\A", "\\Z"))
        self._segments: dict[tuple, tuple[int, list[VoteAction]]] = {}  # `_segment`'s remembered answers

    def _may_hold_keyword(self, text: str) -> bool:
        if self.maybe is None or not text.isascii():
            return True
        return self.maybe.search(text.lower()) is not None

    # ------------------------------------------------------------------ reading a post

    def find(self, pt: PostText, index: NameIndex, *, at: datetime | None = None,
             cutoff: int = 80, margin: int = 10) -> list[VoteAction]:
        """Every vote phrase of the post in any form, in text order (forms merged per phrase)."""
        text = pt.text
        # the loose keywords on lowercase ASCII text (far cheaper than the keyword scan): they
        # match wherever a keyword does (`_may_hold_keyword`)
        low = text.lower() if self.maybe is not None and text.isascii() else None
        keywords = low is None or self.maybe.search(low) is not None
        if not keywords and not pt.tags and "##" not in text:
            return []  # no tag, no keyword and no hash form: most posts
        found: dict[int, VoteAction] = {}

        def add(acts: list[VoteAction]) -> None:
            for a in acts:
                old = found.get(a.start)
                if old is None:
                    found[a.start] = a
                else:
                    found[a.start] = VoteAction(old.kind, old.raw, old.start, old.forms | a.forms, old.target_text,
                                                old.match, old.no_lynch, old.strong or a.strong, old.abstain)

        resolve = lambda s: index.resolve(s, at=at, cutoff=cutoff, margin=margin)  # noqa: E731
        rkey = (index, at if index.timed else None, cutoff, margin)  # what `resolve` answers depend on
        for t in pt.tags:
            add(self._segment(text, t.start, t.end, "tag", resolve, default=t.kind, rkey=rkey))
        if keywords and pt.bold:
            # pt.line_at scans the text: quadratic over a huge one-line post with many bold runs
            line_at = pt.line_at if len(pt.bold) <= 4 else _line_finder(text)
        for b in (pt.bold if keywords else ()):
            for s, e in _line_pieces(text, b.start, b.end):
                add(self._segment(text, s, e, "bold", resolve, anywhere=True, extend=True, rkey=rkey))
            ls, le = line_at(b.start)
            if b.start - ls > _MAX_HEAD:  # "VOTE: [b]name[/b]" has a short head; a long one is no such vote
                continue
            head = text[ls:b.start]
            m = self.keyword.match(head, _LEAD.match(head).end())
            if m and not self._clean(head[m.end():]):
                add(self._segment(text, ls, le, "bold", resolve, rkey=rkey))
        for m in (self.hash.finditer(text) if "#" in text else ()):
            kind = "unvote" if m.group("kind") else "vote"
            # (started at its keyword: the same phrase read as bold or plain is one phrase, forms merged)
            add([self._action(kind, m.group(0), m.start("kw"), "hash", m.group("arg"), resolve, strong=True)])
        if keywords:
            # A whole line reads the same in the text as alone (a newline or the text's edge on
            # both sides), so a keyword in a line is part of a keyword match in the whole text:
            # one scan finds them all, and only lines a match touches are read as segments.
            # (on lowercase ASCII the loose keywords: the lines they touch include every line with a keyword)
            scan, text_ = (self.keyword, text) if low is None else (self.maybe, low)
            spans = [m.span() for m in scan.finditer(text_)] if self.scan_lines else None
            ends = [e for _, e in spans] if spans else []
            for s, e in (pt.lines() if spans or spans is None else ()):
                i = bisect_left(ends, s)
                if spans is None or (i < len(spans) and spans[i][0] <= e):
                    add(self._segment(text, s, e, "plain", resolve, rkey=rkey))
        return [found[k] for k in sorted(found)]

    def find_in_lines(self, text: str, index: NameIndex, form: str, *, at: datetime | None = None,
                      cutoff: int = 80, margin: int = 10, skip: frozenset[int] = frozenset()) -> list[VoteAction]:
        """Vote phrases in plain lines (PMs): at a line start, or after a comma or full stop."""
        resolve = lambda s: index.resolve(s, at=at, cutoff=cutoff, margin=margin)  # noqa: E731
        out: list[VoteAction] = []
        if not self._may_hold_keyword(text):
            return out
        pos = 0
        for i, line in enumerate(text.split("\n")):
            if i not in skip:
                out += self._segment(text, pos, pos + len(line), form, resolve, anywhere=True)
            pos += len(line) + 1
        return out

    # ------------------------------------------------------------------ one segment

    def _segment(self, text: str, s: int, e: int, form: str, resolve, *, anywhere: bool = False,
                 extend: bool = False, default: str | None = None, rkey: tuple | None = None) -> list[VoteAction]:
        """The phrases of ``text[s:e]``. With `rkey` (what `resolve` depends on), answers are
        remembered: players write the same vote lines again and again."""
        seg = text[s:e]
        lead = _LEAD.match(seg).end()
        if not anywhere and default is None and self.keyword.match(seg, lead) is None:
            # only a keyword at the lead could start a phrase here, and none does (no keyword
            # starts with a lead character, so no match of the scan below begins before it)
            return []
        if rkey is None:
            return self._read_segment(text, s, e, seg, lead, form, resolve, anywhere, extend, default)
        tail = None
        if extend:  # what `_read_segment` may read after the segment
            line_end = text.find("\n", e, e + _MAX_HEAD)
            tail = text[e: e + _MAX_HEAD if line_end < 0 else line_end]
        key = (seg, form, anywhere, tail, default, rkey)
        hit = self._segments.get(key)
        if hit is None:
            if len(self._segments) >= _SEGMENTS:
                self._segments.clear()
            hit = self._segments[key] = (s, self._read_segment(text, s, e, seg, lead, form, resolve, anywhere, extend,
                                                                default))
        base, acts = hit
        if base == s:
            return list(acts)
        return [VoteAction(a.kind, a.raw, a.start - base + s, a.forms, a.target_text, a.match, a.no_lynch, a.strong,
                           a.abstain) for a in acts]

    def _read_segment(self, text: str, s: int, e: int, seg: str, lead: int, form: str, resolve, anywhere: bool,
                      extend: bool, default: str | None) -> list[VoteAction]:
        matches = list(self.keyword.finditer(seg))
        first = next((m for m in matches if m.start() == lead), None)
        strong = first is not None
        if first is None and anywhere:
            first = next((m for m in matches if _after_sep(seg, m.start())), None)
        if first is None:
            if default is not None and seg[lead:].strip():
                return [self._action(default, seg.strip(), s + lead, form, seg[lead:], resolve, strong=True)]
            return []
        out: list[VoteAction] = []
        cur = first
        at = matches.index(first)
        while cur is not None:
            kind = _kind(cur)
            # the scan goes on from the current phrase, never from the start: linear in the phrases
            j = next((k for k in range(at + 1, len(matches)) if matches[k].start() >= cur.end()
                      and (_after_sep(seg, matches[k].start()) or kind != "vote")), None)
            nxt = matches[j] if j is not None else None
            arg = seg[cur.end(): nxt.start() if nxt else len(seg)]
            raw = seg[cur.start(): nxt.start() if nxt else len(seg)].strip().rstrip(",;，；")
            if extend and nxt is None and not arg.strip(_SEP):
                line_end = text.find("\n", e, e + _MAX_HEAD)  # "[b]VOTE:[/b] name": the name is near
                arg = text[e: e + _MAX_HEAD if line_end < 0 else line_end]
                raw = (raw + " " + arg.strip()).strip()
            single = has_cjk(cur.group(0)) and len(cur.group(0).strip()) == 1
            # each statement of a run ("unvote; vote: X") is as certain as its first: a later
            # phrase that opens a statement (after ; , . and the like) reports its own unknown name
            opens = cur is first or (form == "bold" and _after_sep(seg, cur.start()))
            is_strong = (strong and opens and not single and (form != "plain" or ":" in arg[:3] or "：" in arg[:3])) \
                or form in ("tag", "hash")
            out.append(self._action(kind, raw, s + cur.start(), form, arg, resolve, strong=is_strong,
                                    abstain=cur.group("abstain") is not None))
            cur, at = nxt, (j if j is not None else at)
        return out

    def _action(self, kind: str, raw: str, start: int, form: str, arg: str, resolve, *, strong: bool,
                abstain: bool = False) -> VoteAction:
        if kind == "abstain":
            kind, abstain = "unvote", True
        target = self._clean(arg)
        forms = frozenset({form})
        if kind == "unvote":
            if abstain or not target:
                return VoteAction("unvote", raw, start, forms, strong=strong, abstain=abstain)
            m = resolve(target)
            return VoteAction("unvote", raw, start, forms, target, m if m.ok else None, strong=strong)
        if not target:
            return VoteAction("vote", raw, start, forms, "", None, strong=False)
        first_word = target.split()[0].casefold().strip(".,;:!?") if target.split() else ""
        if first_word in self.stop and not resolve(target).ok:
            return VoteAction("vote", raw, start, forms, target, None, strong=False)
        nl = self.no_lynch.match(target)
        if nl:
            m = resolve(target)
            if not (m.ok and m.consumed >= nl.end()):
                return VoteAction("vote", raw, start, forms, target, None, no_lynch=True, strong=strong)
        m = self._resolve_target(arg, target, resolve)
        if m.ok:
            m = self._undecided(m, target, resolve)
        return VoteAction("vote", raw, start, forms, target, m, strong=strong)

    def _resolve_target(self, arg: str, target: str, resolve) -> NameMatch:
        """The name, tried as cleaned and as written: cleaning drops the dashes and brackets a
        name may be made of ("-L-", "[L]"), so the name as written wins when it is a player's
        own name (or alias), and serves when the cleaned one names nobody."""
        m = resolve(target)
        written = self._clean_connectors(arg)
        if written == target or not written:
            return m
        w = resolve(written)
        if w.ok and (not m.ok or w.via in ("exact", "alias", "replacement")):
            return w
        return m

    def _clean_connectors(self, arg: str) -> str:
        """`arg` without what precedes a name (spaces, colons, "for"), its own characters kept."""
        t = arg.strip().lstrip(" \t:：=>»→~").strip()
        while True:
            m = self.connector.match(t)
            if not m:
                break
            t = t[m.end():].lstrip(" \t:：=>»→~").strip()
        return t.rstrip(" .,;!?\"'»”")

    def _clean(self, arg: str) -> str:
        t = arg.strip().lstrip(_SEP + "([{\"'«“").strip()
        while True:
            m = self.connector.match(t)
            if not m:
                break
            t = t[m.end():].lstrip(_SEP).strip()
        return t.rstrip(" .,;!?)]}\"'»”")

    def _undecided(self, m: NameMatch, target: str, resolve) -> NameMatch:
        """``X / or / Y``: two names joined by "or" are an undecided vote, reported as ambiguous."""
        rest = target[m.consumed:]
        a = self.alt.match(rest)
        if not a:
            return m
        rest = rest[a.end():]
        while True:
            a2 = self.alt.match(rest)
            if not a2 or a2.end() == 0:
                break
            rest = rest[a2.end():]
        other = resolve(rest)
        if other.ok and other.name != m.name:
            return NameMatch(target, "ambiguous", None, "alternative", 0.0, (m.name, other.name), len(target))
        return m


def _kind(m: re.Match) -> str:
    if m.group("unvote") is not None:
        return "unvote"
    if m.group("abstain") is not None:
        return "abstain"
    return "vote"


def _after_sep(seg: str, pos: int) -> bool:
    before = seg[max(0, pos - _MAX_HEAD):pos].rstrip()  # a bounded look back: linear over a huge line
    return before.endswith(_AFTER_SEP)


def _line_finder(text: str):
    """`PostText.line_at` from the newline positions found once (bisect, not a scan per call)."""
    from bisect import bisect_left

    nls = [m.start() for m in re.finditer("\n", text)]

    def line_at(pos: int) -> tuple[int, int]:
        i = bisect_left(nls, pos)
        return (nls[i - 1] + 1 if i else 0), (nls[i] if i < len(nls) else len(text))

    return line_at


def _line_pieces(text: str, s: int, e: int) -> list[tuple[int, int]]:
    out = []
    while s < e:
        nl = text.find("\n", s, e)
        end = e if nl < 0 else nl
        if end > s:
            out.append((s, end))
        s = end + 1
    return out


def grammar(language: str) -> VoteGrammar:
    """The compiled grammar of a language, built once."""
    g = _GRAMMARS.get(language)
    if g is None:
        g = _GRAMMARS[language] = VoteGrammar(lexicon(language))
    return g


_GRAMMARS: dict[str, VoteGrammar] = {}


def forget_segments() -> None:
    """Drop every grammar's remembered segments (`extract.clear_caches`)."""
    for g in _GRAMMARS.values():
        g._segments.clear()
