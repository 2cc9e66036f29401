"""Structural fallback: read a thread page of an engine or style no profile knows.

A thread page repeats one block per post, and every block holds an author (usually a profile
link), a date-like text and a body. `infer_structure` finds the element signature (tag,
classes, id pattern) whose members hold those three most often, then for each field the
relative selector that finds the same element in the most blocks. The result is an ordinary
profile table (`Structure.profile_data`), so the page is read by the same profile engine as
a written profile, `forummod parse --explain` can show the selectors, and
`forummod profile suggest` can write them out as a starter profile. It is a mechanism, not a
list of engines: nothing here names a forum.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable

from forummod.errors import LayoutChanged
from forummod.forum.dates import DateNotUnderstood, parse_attr_value, parse_forum_date
from forummod.forum.profile import Profile, parse_profile
from forummod.forum.structural_blocks import BlockGroup, body_letters, rank_groups

# a link to a member's page, in the URL shapes forum software uses
_PROFILE_HREF = re.compile(
    r"(memberlist\.php\?[^#]*mode=viewprofile|member\.php|/members?/|/members?\.php|[/.]profile[/.?]|profile\.php|"
    r"/users?/|/u/[^/]|showuser|space-uid|[?&](?:u|uid|userid|user_id|user)=\d|/author/|action=profile|"
    r"/membre|/utente|/benutzer|/profil/|/user-\d|/usr/|user_?info\b|user_?profile|memberid=)",
    re.IGNORECASE,
)
# links that carry a user id but lead to an action on the user, not to the user (MyBB's
# reputation.php?uid=, search by author, PM forms): their text is a count or a verb, not a name
_NOT_PROFILE_HREF = re.compile(r"reputation|karma|search\.php|private\.php|sendmessage|newreply|report|warn|"
                               r"thank|like|vote|action=pm|do=add|buddy|friend|donate|points|email|mailto", re.IGNORECASE)
_AUTHOR_CLASS = re.compile(r"author|user|poster|nick|member|name", re.IGNORECASE)
_PICTURE_CLASS = re.compile(r"avatar|photo|picture|thumb|image|img", re.IGNORECASE)
_BODY_CLASS = re.compile(r"content|message|body|text|entry|post_?text|bbcode|comment", re.IGNORECASE)
_QUOTE_CLASS = re.compile(r"quote|blockquote|bbcode_q", re.IGNORECASE)
_NOT_POST_DATE = re.compile(
    r"joined|registered|member since|registriert|dabei seit|iscritt|inscri|membre depuis|регистрац|"
    r"last (?:seen|visit|active)|zuletzt|ultima visita|lid sinds|注册|加入|last edited|edited|bearbeitet|modifi",
    re.IGNORECASE,
)
_DATEISH = re.compile(r"\d{1,2}[:h]\d\d|\b\d{4}\b|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|年|ago|前|fa\b|назад|geleden|"
                      r"today|yesterday|oggi|ieri|heute|gestern|hier|aujourd|сегодня|вчера|vandaag|gisteren|"
                      r"今天|昨天|temu|wczoraj|dzisiaj|il y a|hace|vor \d|"
                      r"\b\d{1,2}(?:st|nd|rd|th|\.)?\s+[^\W\d_]{3,}|\b[^\W\d_]{3,}\.?\s+\d{1,2}(?:st|nd|rd|th)?\b",
                      re.IGNORECASE)  # the last two: a day and a month without year or time ("Thursday 23rd April")
_ID_DIGITS = re.compile(r"\d{2,}")
_DATE_ATTRS = ("datetime", "content", "data-time", "data-timestamp", "data-datestring", "data-date", "title", "data-ts")
_SKIP_TAGS = {"script", "style", "noscript", "head", "title", "option", "select", "textarea", "button"}
_BLOCK_TAGS = {"div", "article", "li", "tr", "table", "section", "dl", "tbody", "td", "form", "dd", "ul"}
_USER_ID_RX = [re.compile(r"[?&;](?:u|uid|userid|user_id|user)=(\d+)"), re.compile(r"membre(\d+)"), re.compile(r"members?/(?:[^/?#]*\.)?(\d+)"),
               re.compile(r"members?/(\d+)-"), re.compile(r"/users?/(\d+)"),
               re.compile(r"member\.php\?(\d+)"), re.compile(r"/profile/(\d+)"), re.compile(r"profile\.php\?\d+,(\d+)"),
               re.compile(r"space-uid-(\d+)"), re.compile(r"[?&;]member_?id=(\d+)", re.IGNORECASE),
               re.compile(r"user_?(?:info|profile)\W(?:\w+\W)?(?:id=)?(\d+)", re.IGNORECASE)]
_NOW = datetime(2100, 1, 1, tzinfo=timezone.utc)  # only whether a text reads as a date matters here


@dataclass(frozen=True)
class FieldChoice:
    """The selector chosen for one field and in how many of the post blocks it found the element."""

    name: str
    selector: Any  # a profile selector (string or table)
    hits: int


@dataclass(frozen=True)
class Structure:
    """What the fallback found: the post blocks' selector, one selector per field, and the profile."""

    container: str
    blocks: int
    fields: tuple[FieldChoice, ...]
    profile_data: dict[str, Any]
    confidence: float = 1.0  # 0..1, see `_confidence`
    doubt: str = ""  # why the blocks are not trusted as posts ("" when they are)
    runner_up: str = ""  # the next best kind of block, for --explain

    def profile(self) -> Profile:
        return parse_profile(self.profile_data)

    def explain(self) -> list[str]:
        lines = [f"post blocks: {self.container}  ({self.blocks} found)"]
        for f in self.fields:
            lines.append(f"  {f.name:<9} {f.selector}  (in {f.hits} of {self.blocks} blocks)")
        lines.append(f"confidence: {self.confidence:.0%}" + (f" (not trusted: {self.doubt})" if self.doubt else ""))
        lines.append(f"runner-up: {self.runner_up or 'none (no other repeated block holds an author and a date)'}")
        return lines


# --------------------------------------------------------------------------- element signatures


_STATE_CLASS = re.compile(r"odd|even|^alt|first|last|online|offline|unread|^new|highlight|sticky|^is-|^has-|"
                          r"selected|active|deleted|moderated|ignored|visible|hidden|mine|own|self", re.IGNORECASE)


def _classes(el: Any) -> tuple[str, ...]:
    """Class tokens that name a kind of element: no digits ('post-123', 'bg2') and no states
    ('rowodd', 'firstpost', 'offline'), which vary from one post to the next."""
    out = set()
    for c in (el.get("class") or "").split():
        base = c.rstrip("0123456789")  # windowbg2 and windowbg, bg1 and bg2 alternate: one kind
        if base and base[-1] not in "-_" and not any(ch.isdigit() for ch in base) \
                and re.fullmatch(r"[A-Za-z_-][\w-]*", base) and not _STATE_CLASS.search(base):
            out.add(base if base == c else base + "*")
    return tuple(sorted(out))


def _id_pattern(el: Any) -> str | None:
    """'post#' for id="post123": ids that carry a number mark one block of a repeated kind."""
    i = el.get("id") or ""
    m = _ID_DIGITS.search(i)
    if not m or not re.fullmatch(r"[A-Za-z_-]*\d+[A-Za-z_-]*", i):
        return None
    return i[: m.start()] + "#" + i[m.end():]


def _signature(el: Any) -> tuple[str, tuple[str, ...], str | None]:
    idp = _id_pattern(el)
    return (el.tag, (), idp) if idp else (el.tag, _classes(el), None)


def _block_kind(el: Any) -> tuple:
    """The grouping key of a candidate block: its signature, and for an anonymous tag ("tr") the
    named ancestor it hangs from with the tags between ("table.tbl > tr" and "table.similar > tr"
    are two kinds: the thread's rows and a list of other threads)."""
    sig = _signature(el)
    if sig[1] or sig[2]:
        return sig
    steps: list[str] = []
    up = el.getparent()
    for _ in range(3):
        if up is None or not isinstance(up.tag, str):
            break
        usig = _signature(up)
        if usig[1] or usig[2]:
            return (*sig, (usig, tuple(reversed(steps))))
        steps.append(up.tag)
        up = up.getparent()
    return sig


def _container_xpath(sig: tuple) -> str:
    if len(sig) > 3:  # an anonymous tag under a named ancestor
        anchor, steps = sig[3]
        return _container_xpath(anchor) + "".join(f"/{t}" for t in steps) + f"/{sig[0]}"
    tag, classes, idp = sig
    conds = [f"contains(concat(' ', normalize-space(@class)), ' {c[:-1]}')" if c.endswith("*")
             else f"contains(concat(' ', normalize-space(@class), ' '), ' {c} ')" for c in classes]
    if idp:
        pre, post = idp.split("#")
        conds.append(f"starts-with(@id, '{pre}')" if pre else "@id")
        body = f"substring(@id, {len(pre) + 1}, string-length(@id) - {len(pre) + len(post)})"
        conds.append(f"translate({body}, '0123456789', '') = ''")
        if post:
            conds.append(f"substring(@id, string-length(@id) - {len(post) - 1}) = '{post}'")
    return f"//{tag}" + "".join(f"[{c}]" for c in conds)


def _anchored_xpath(root: Any, sig: tuple, blocks: list[Any]) -> str:
    """The container XPath; for an anonymous tag ("tr", "table") one that finds the blocks and
    not the layout rows around them: the path from the nearest ancestor with a name (a class or
    a numbered id) that every block shares ("//table[@class='posts']/tr"). The plain tag when
    no such ancestor exists within four levels."""
    plain = _container_xpath(sig)
    if sig[1] or sig[2] or len(sig) > 3 or not blocks:
        return plain
    steps: list[str] = []
    level = list(blocks)
    for _ in range(4):
        parents = [b.getparent() for b in level]
        if any(p is None or not isinstance(p.tag, str) for p in parents):
            break
        psigs = {_signature(p) for p in parents}
        if len(psigs) != 1:
            break
        psig = next(iter(psigs))
        if psig[1] or psig[2]:
            xp = _container_xpath(psig) + "".join(f"/{t}" for t in reversed(steps)) + f"/{sig[0]}"
            found = root.xpath(xp)
            ids = {id(b) for b in blocks}
            if ids <= {id(f) for f in found} and not any(id(a) in ids for f in found for a in f.iterancestors()):
                return xp
            break
        steps.append(psig[0])
        level = parents
    return plain


def _css_step(el: Any) -> str:
    return el.tag + "".join(f"[class*='{c[:-1]}']" if c.endswith("*") else "." + c for c in _classes(el))


# --------------------------------------------------------------------------- candidates


def _in_quote(el: Any, stop: Any = None) -> bool:
    for a in el.iterancestors():
        if a is stop:
            return False
        if a.tag == "blockquote" or _QUOTE_CLASS.search(a.get("class") or ""):
            return True
    return False


def _short_text(el: Any) -> str:
    return " ".join(el.text_content().split())


def _author_candidates(root: Any) -> list[Any]:
    """Profile links with a name, then named elements whose class says author/user/poster."""
    out = []
    for a in root.iter("a"):
        href = a.get("href") or ""
        if _PROFILE_HREF.search(href) and not _NOT_PROFILE_HREF.search(href) \
                and not _PICTURE_CLASS.search(a.get("class") or ""):
            t = _short_text(a)
            if t and len(t) <= 60 and not t.startswith("@") and not re.fullmatch(r"[\d.,\s+-]+", t):
                out.append(a)
    seen = {id(a) for a in out}
    named = []
    for el in root.iter("a", "span", "strong", "b", "div", "dt", "cite", "h3", "h4", "td", "p"):
        if id(el) in seen or not _AUTHOR_CLASS.search(el.get("class") or ""):
            continue
        t = _short_text(el)
        if t and len(t) <= 40 and len(el) <= 3:
            named.append(el)
    # the innermost of nested named elements: "div.user > h4.username" names the name, not the card
    held = {id(a) for el in named for a in el.iterancestors()}
    return out + [el for el in named if id(el) not in held]


def _any_name_links(root: Any) -> list[Any]:
    """Links with a short text that is not a permalink's date or number ("2019-09-29 10:46:47", "#3")."""
    return [a for a in root.iter("a") if (a.get("href") or "#")[:1] not in "#" and not
            (a.get("href") or "").startswith("javascript") and 0 < len(t := _short_text(a)) <= 40
            and not _in_quote(a) and not re.fullmatch(r"[#№]?\s*[\d.,]+", t) and not _reads_as_date(t)]


def _bold_names(root: Any) -> list[Any]:
    return [el for el in root.iter("strong", "b") if 0 < len(_short_text(el)) <= 40 and not _in_quote(el)]


def _plain_author_candidates(block: Any) -> list[Any]:
    """A block without any profile link (guests, static archives): short bold names."""
    return [el for el in block.iter("strong", "b") if 0 < len(_short_text(el)) <= 40 and not _in_quote(el, block)]


def _reads_as_date(text: str) -> bool:
    if not (6 <= len(text) <= 90) or not _DATEISH.search(text) or not re.search(r"\d|前|ago|today|yesterday", text, re.I):
        return False
    for order in ("DMY", "MDY"):  # "02-13-2016" is a date too: the order is learnt from the page later
        try:
            parse_forum_date(text, tz=timezone.utc, now=_NOW, order=order, allow_dateparser=False)
        except DateNotUnderstood:
            continue
        return True
    return False


@dataclass(frozen=True)
class _DateCand:
    el: Any
    attr: str | None  # "": the element's own text; None: its whole text
    quality: int  # 3 machine-readable, 2 date and time, 1 date only
    time_el: Any = None  # the element beside it holding its time of day ("<span class=time>")


def _own_text(el: Any) -> str:
    return " ".join("".join(t for t in [el.text, *(c.tail for c in el)] if t).split())


def _date_candidates(root: Any) -> list[_DateCand]:
    out: list[_DateCand] = []
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP_TAGS:
            continue
        for attr in _DATE_ATTRS:
            v = el.get(attr)
            if not v:
                continue
            if attr == "title" and not _reads_as_date(v):
                continue
            if attr != "title" and parse_attr_value(v, timezone.utc) is None and not _reads_as_date(v):
                continue
            out.append(_DateCand(el, attr, 3 if attr != "title" else 2))
            break
        else:
            own = _own_text(el)
            kind = ""
            if not (own and _reads_as_date(own)) and 0 < len(el) <= 4 and all(c.tag in _INLINE for c in el):
                own, kind = " ".join(el.text_content().split()), None  # "<b>9:00am</b> On <b>Apr 24</b>"
                if not _reads_as_date(own):
                    continue
            elif not own or not _reads_as_date(own):
                continue
            parent = el.getparent()
            label = (parent.text_content()[:80] if parent is not None else "") + own
            if _NOT_POST_DATE.search(label[:120]) and _NOT_POST_DATE.search(own + " " + label[:60]):
                continue
            if _labelled_as_other_date(el, own):
                continue
            if _HAS_TIME.search(own):
                out.append(_DateCand(el, kind, 2))
                continue
            beside = _time_beside(el)
            if beside is el:  # the time is a child: the element's whole text holds both
                out.append(_DateCand(el, None, 2))
            else:
                out.append(_DateCand(el, kind, 2, beside) if beside is not None else _DateCand(el, kind, 1))
    return out


_HAS_TIME = re.compile(r"\d[:h]\d\d")
_BARE_TIME = re.compile(r"\[?\(?\s*(?:at|um|à|alle|в)?\s*\d{1,2}[:h.]\d\d(?::\d\d)?\s*(?:[ap]\.?m\.?|uhr|h)?\s*\)?\]?",
                        re.IGNORECASE)


def _time_beside(el: Any) -> Any:
    """Where the time of a date printed without one is: the date element itself when the time is
    its child ("20. Apr 2004, <span class=time>09:16</span>"), else the element just after it
    when that holds only a time ("<span>16 Jun 2020</span> <span>16:12</span>"); None when no
    time is beside it (the date has no time of day)."""
    if any(isinstance(c.tag, str) and _BARE_TIME.fullmatch(_short_text(c)) for c in el):
        return el
    nxt = _element_after(el)
    if nxt is not None and _BARE_TIME.fullmatch(_short_text(nxt)):
        return nxt
    return None


_INLINE = {"b", "strong", "i", "em", "span", "a", "abbr", "time", "small", "font", "u", "br"}
_NOT_POST_CLASS = re.compile(r"join|regist|since|last-?visit|last-?activ|birthday|member-?date", re.IGNORECASE)


def _labelled_as_other_date(el: Any, own: str) -> bool:
    """A date its own label calls a join, visit or edit date: "<dd class=profile-joined><strong>Joined:
    </strong> 17 Jul 2011</dd>", "<dt>Join Date</dt><dd>Jun 2007</dd>" (the label is the element's
    class, its text before the date, or the previous sibling's text)."""
    if _NOT_POST_CLASS.search(el.get("class") or ""):
        return True
    whole = _short_text(el)
    at = whole.find(own) if own else -1
    lead = whole[:at] if at > 0 else ""
    prev = el.getprevious()
    prev_text = _short_text(prev)[-40:] if prev is not None and isinstance(prev.tag, str) \
        and prev.tag not in _SKIP_TAGS else ""
    return bool(_NOT_POST_DATE.search(f"{prev_text} {lead[-40:]}"))


def _element_after(el: Any) -> Any:
    """The element just after `el`, past comments and processing instructions, or None."""
    for sib in el.itersiblings():
        if isinstance(sib.tag, str):
            return sib
    return None


def _counts_below(cands: Iterable[Any]) -> dict[int, int]:
    """For every element, how many of `cands` are it or below it."""
    below: dict[int, int] = defaultdict(int)
    for c in cands:
        el = c
        while el is not None:
            below[id(el)] += 1
            el = el.getparent()
    return below


# --------------------------------------------------------------------------- blocks


def _best_blocks(root: Any, authors: list[Any], dates: list[_DateCand]) -> list[BlockGroup]:
    """The candidate kinds of post block, best first (see `structural_blocks`)."""
    a_below = _counts_below(authors)
    d_below = _counts_below(d.el for d in dates)
    groups: dict[tuple, list[Any]] = defaultdict(list)
    for el in root.iter(*_BLOCK_TAGS):
        if a_below.get(id(el)) and d_below.get(id(el)):
            groups[_block_kind(el)].append(el)
    if not groups:
        return []
    # a date read from an attribute may sit on a whole post or page (`<article data-time>`), and
    # short elements are the name or the date ("Post 2 by ann: vote today" reads as a date too)
    banned = {id(a) for a in authors if len(a.text_content()) <= 60} | \
        {id(d.el) for d in dates if (len(d.el) == 0 if d.attr else _mostly_date(d.el.text_content()))}
    return rank_groups(groups, a_below, body_letters(root, banned), _element_after)


def _mostly_date(text: str) -> bool:
    """A text that is a date with at most a label ("erstellt: 21. Apr 2020, 19:40"), not a post
    that mentions a day ("I vote somebody today")."""
    return len(text) <= 60 and len(re.findall(r"[^\W\d_]{3,}", text)) <= 4


def _relative_css(block: Any, el: Any) -> list[str]:
    """Selectors from `block` to `el`, most general first (the element's own step, then with its
    nearest classed ancestor, then the whole child chain)."""
    chain = []
    for a in [el, *el.iterancestors()]:
        if a is block:
            break
        chain.append(a)
    chain.reverse()
    if not chain:
        return [":self"]
    last = _css_step(chain[-1])
    out = [last]
    for a in reversed(chain[:-1]):
        if _classes(a):
            out.append(f"{_css_step(a)} {last}")
            break
    out.append(" > ".join(_css_step(a) for a in chain))
    # the element among same-kind siblings ("Posted:" is the second unclassed div of its cell)
    parent = chain[-1].getparent()
    same = [c for c in parent if c.tag == chain[-1].tag] if parent is not None else []
    if len(same) > 1:
        nth = f"{last}:nth-of-type({same.index(chain[-1]) + 1})"
        up = next((a for a in reversed(chain[:-1]) if _classes(a)), None)
        out.append(f"{_css_step(up)} {nth}" if up is not None else nth)
    return list(dict.fromkeys(out))


def _choose(name: str, blocks: list[Any], picks: list[Any | None], extra: dict[str, Any] | None = None,
            fallbacks: int = 0) -> FieldChoice | None:
    """Relative selectors whose first match gives the picked element's value: the one right in
    the most blocks, then (up to two) fallbacks for the blocks it misses (an admin's coloured
    name, a guest without a profile link)."""
    from forummod.forum.profile import _compile_extractor

    votes: Counter[str] = Counter()
    for b, p in zip(blocks, picks):
        if p is not None:
            for css in _relative_css(b, p):
                votes[css] += 1
    scored = []
    for rank, (css, _) in enumerate(votes.most_common(16)):
        ex = _compile_extractor({"css": css, **(extra or {})}, name)
        right = set()
        for i, (b, p) in enumerate(zip(blocks, picks)):
            if p is None:
                continue
            found = ex.elements(b)
            if found and (found[0] is p or (ex.first(b) or "") == (ex.value_of(p) or "") != ""):
                right.add(i)
        scored.append((css, right))
    chosen: list[str] = []
    covered: set[int] = set()
    for _ in range(1 + fallbacks):
        best = max(scored, key=lambda c: len(c[1] - covered), default=None)
        if best is None or not best[1] - covered:
            break
        chosen.append(best[0])
        covered |= best[1]
    if not chosen:
        return None
    sels = [c if not extra else {"css": c, **extra} for c in chosen]
    return FieldChoice(name, sels[0] if len(sels) == 1 else sels, len(covered))


_DATA_ID = re.compile(r"data-(?:pid|post-?id|node-?id|comment-?id|message-?id)", re.IGNORECASE)
_DATA_AUTHOR = re.compile(r"data-(?:username|user-?name|author|poster)", re.IGNORECASE)
_DATA_UID = re.compile(r"data-(?:uid|user-?id|author-?id|poster-?id)", re.IGNORECASE)


def _own_attr(blocks: list[Any], names: re.Pattern[str], fits: Any) -> str | None:
    """The first attribute of the blocks' own whose name matches `names` and whose values, one a
    block, pass `fits` (all of them)."""
    for name in (a for a in blocks[0].attrib if names.fullmatch(a)) if blocks else ():
        if fits([b.get(name) or "" for b in blocks]):
            return name
    return None


def _own_data_id(blocks: list[Any]) -> str | None:
    """A post-id data attribute every block carries, numeric and distinct (NodeBB's `data-pid`,
    vBulletin 5's `data-node-id`): the post's id, where a numbered anchor inside may be a
    position (`data-index`) or found in a few blocks only."""
    return _own_attr(blocks, _DATA_ID, lambda vs: all(v.isdigit() for v in vs) and len(set(vs)) == len(vs))


def _own_author_fields(blocks: list[Any]) -> list[FieldChoice]:
    """Author (and id) from the blocks' own data attributes (NodeBB's `data-username`/`data-uid`,
    XenForo 2's `data-author`): the name itself, where the first link of a block may be an
    avatar showing one letter."""
    name = _own_attr(blocks, _DATA_AUTHOR, lambda vs: all(v.strip() for v in vs))
    if name is None:
        return []
    fields = [FieldChoice("author", {"css": ":self", "attr": name}, len(blocks))]
    uid = _own_attr(blocks, _DATA_UID, lambda vs: all(v.isdigit() for v in vs))
    if uid:
        fields.append(FieldChoice("author_id", [{"css": ":self", "attr": uid, "regex": r"^(\d+)$"}], len(blocks)))
    return fields


_POST_NUMBER = re.compile(r"(?:#|№|post\s*#?|beitrag\s*#?|reply\s*#?|msg\s*#?)\s*(\d{1,6})", re.IGNORECASE)


def _number_choice(blocks: list[Any]) -> FieldChoice | None:
    """The forum's own post number where each block prints one ("#11", "Post #11"): an element
    whose whole text is that number, the same selector in most blocks, counting up by one from
    block to block (a page of a thread starts anywhere). None when the page prints none."""
    picks = []
    for b in blocks:
        pick = None
        for el in b.iter("a", "span", "strong", "b", "em", "div", "small", "td", "li"):
            t = _short_text(el)
            if len(t) <= 16 and _POST_NUMBER.fullmatch(t) and not _in_quote(el, b):
                pick = el
                break
        picks.append(pick)
    nums = [int(_POST_NUMBER.fullmatch(_short_text(p)).group(1)) if p is not None else None for p in picks]
    known = [n for n in nums if n is not None]
    steps = sum(1 for a, b in zip(nums, nums[1:]) if a is not None and b is not None and b == a + 1)
    if len(known) * 2 < len(blocks) or (len(known) > 1 and steps * 2 < len(known) - 1):
        return None
    chosen = _choose("number", blocks, picks, {"regex": _POST_NUMBER.pattern})
    return chosen if chosen is not None and chosen.hits * 2 >= len(blocks) else None


def _distinct_in_blocks(blocks: list[Any], sel: dict[str, Any]) -> bool:
    """Whether the selector reads a different value in every block that has one."""
    from forummod.forum.profile import _compile_extractor

    ex = _compile_extractor(sel, "id")
    values = [v for v in (ex.first(b) for b in blocks) if v]
    return len(set(values)) == len(values)


def _post_id_choice(blocks: list[Any]) -> Any:
    """The block's numbered id, a numbered anchor inside it, or a permalink; else the position."""
    if all(_id_pattern(b) for b in blocks):
        return {"css": ":self", "attr": "id", "regex": r"(\d+)"}, len(blocks)
    own = _own_data_id(blocks)
    if own:
        return {"css": ":self", "attr": own, "regex": r"^(\d+)$"}, len(blocks)
    inner: Counter[str] = Counter()
    for b in blocks:  # the numbered id pattern found in the most blocks (once per block)
        kinds = []
        for el in b.iter():
            for attr in ("id", "name"):
                v = el.get(attr) or ""
                if re.fullmatch(r"[A-Za-z_-]{0,12}\d{2,}", v):
                    kinds.append(f"{el.tag}[{attr}]|" + re.sub(r"\d+", "#", v))
                    break
        inner.update(set(kinds))
    for key, n in inner.most_common(4):
        sel, pattern = key.split("|")
        pre = pattern.split("#")[0]
        tag, attr = sel.rstrip("]").split("[")
        choice = {"css": f"{tag}[{attr}^='{pre}']" if pre else sel, "attr": attr, "regex": r"(\d+)"}
        if _distinct_in_blocks(blocks, choice):  # not a user's anchor (a#user_17), the same in their posts
            return choice, n
    perma = re.compile(r"(?:#p|#post|#msg|[?&]p=|[?&]pid=|/post/|/posts/|#comment-|showpost\.php\?p=|#reply)(\d+)")
    hits = sum(1 for b in blocks if any(perma.search(a.get("href") or "") for a in b.iter("a")))
    if hits:
        return {"css": "a[href]", "attr": "href", "regex": perma.pattern}, hits
    return None, 0


def infer_structure(root: Any, *, url: str = "") -> Structure:
    """The post blocks of a page and the selectors that read them; LayoutChanged when the page
    repeats no block with an author and a date (not a thread page, or nothing to read)."""
    # lxml makes element proxies on demand and id() of a dropped proxy is reused: holding every
    # element for the length of the call makes id() a stable key (and `is` a node identity)
    keep_alive = list(root.iter())  # noqa: F841
    authors = [a for a in _author_candidates(root) if not _in_quote(a)]
    dates = [d for d in _date_candidates(root) if not _in_quote(d.el)]
    ranked = _best_blocks(root, authors, dates)
    weak = False
    if not ranked or ranked[0].share < SURE_SHARE:
        # pages whose author links say nothing of profiles, or show names without links
        weak_authors = _any_name_links(root) + _bold_names(root)
        weak_ranked = _best_blocks(root, weak_authors, dates)
        if weak_ranked and (not ranked or (weak_ranked[0].share, weak_ranked[0].words) > (ranked[0].share, ranked[0].words)):
            weak, authors, ranked = True, weak_authors, weak_ranked
    if not ranked:
        raise LayoutChanged("structural", url, "repeated blocks with an author and a date",
                            "no repeated post blocks found")
    best = ranked[0]
    sig, blocks = best.sig, list(best.blocks)
    groups = {g.sig: list(g.blocks) for g in ranked}
    container = _anchored_xpath(root, sig, blocks)
    a_ids = {id(a) for a in authors}
    # a profile link names the author before any other candidate; among weak candidates (any link,
    # any bold) the first in the block does: the name heads a post, links in its body come later
    link_ids = {id(a) for a in authors if a.tag == "a"} if not weak else set()
    d_by_el = {id(d.el): d for d in dates}
    author_picks, date_picks, body_picks = [], [], []
    for b in blocks:
        a = next((el for el in b.iter("a") if id(el) in link_ids and not _in_quote(el, b)), None)
        if a is None:
            a = next((el for el in b.iter() if id(el) in a_ids and not _in_quote(el, b)), None)
        if a is None:
            a = next(iter(_plain_author_candidates(b)), None)
        ds = [d_by_el[id(el)] for el in b.iter() if id(el) in d_by_el and not _in_quote(el, b)]
        # the first date of the best quality: headers come before bodies that mention dates
        best_quality = max((c.quality for c in ds), default=None)
        d = next((c for c in ds if c.quality == best_quality), None)
        a = _name_inside(a) if a is not None and a.tag != "a" else a
        author_picks.append(a)
        date_picks.append(d)
        others = [el for el in b.iter() if id(el) in a_ids and not _in_quote(el, b)] if not weak else []
        body_picks.append(_body_of(b, [*others, a] if a is not None else others, d.el if d else None))
    fields: list[FieldChoice] = []
    id_sel, id_hits = _post_id_choice(blocks)
    position = {"xpath": f"concat('n', count(preceding::{sig[0]}))"}
    if id_sel is None:
        id_sel, id_hits = position, len(blocks)
    elif id_hits * 2 < len(blocks):  # an id in a few blocks (a permalink in some posts) is not the posts' id
        id_sel, id_hits = [id_sel, position], len(blocks)
    fields.append(FieldChoice("id", id_sel, id_hits))
    number = _number_choice(blocks)
    if number is not None:
        fields.append(number)
    own = _own_author_fields(blocks)
    fields.extend(own)
    author = _choose("author", blocks, author_picks, fallbacks=2)
    if author:
        if not own:
            fields.append(author)
        link_like = sum(1 for a in author_picks if a is not None and a.tag == "a")
        if link_like * 2 >= len(blocks) and not any(f.name == "author_id" for f in own):
            hrefs = [a.get("href") or "" for a in author_picks if a is not None and a.tag == "a"]
            fields.append(FieldChoice("author_id", _author_id_selector(author.selector, hrefs), link_like))
    date_fields = _date_choice(blocks, date_picks)
    fields.extend(date_fields)
    body = _choose("body", blocks, body_picks)
    if body is None or body.hits * 2 < len(blocks):
        # the post is two rows (header with author and date, then the body): the next row
        rows = [_element_after(b) for b in blocks]
        nxt = sum(1 for r in rows if r is not None and len(r.text_content().strip()) > 0)
        if nxt * 2 >= len(blocks) and rows[0] is not None:
            body = FieldChoice("body", f"xpath:following-sibling::{rows[0].tag}[1]", nxt)
    if body:
        fields.append(body)
    data = profile_table(container, {f.name: f.selector for f in fields}, f"{sig[0]} blocks")
    order = _numeric_order([_short_text(d.el) if d.attr is None else _own_text(d.el) for d in date_picks
                            if d is not None and d.attr in ("", None)])
    if order:
        data["dates"].update(order=order, pin=True)
    more = _same_shaped(data, sig, blocks, groups)
    if not more:
        opening = _opening_post(root, ranked, blocks, fields, a_ids, d_by_el)
        if opening is not None:
            more, fields = opening
    if more:  # the opening post often has a block of its own kind ("div.lead" before "li.reply")
        container = " | ".join([container, *(_container_xpath(s2) for s2, _ in more)])
        data = profile_table(container, {f.name: f.selector for f in fields}, f"{sig[0]} blocks")
        if order:
            data["dates"].update(order=order, pin=True)
    n = len(blocks) + sum(len(m) for _, m in more)
    runner = ranked[1] if len(ranked) > 1 else None
    doubt = _doubt(best, fields) or _unnamed(root, container, blocks, fields)
    found = Structure(container=container, blocks=n, fields=tuple(fields), profile_data=data,
                      confidence=0.0 if doubt else _confidence(best, fields), doubt=doubt,
                      runner_up=(f"{_container_xpath(runner.sig)}  ({len(runner.blocks)} found, {runner.complete} "
                                 "with an author, a date and a body)") if runner else "")
    if found.doubt:
        raise StructureUnsure(found, url)
    return found


SURE_SHARE = 0.5  # below: most "posts" would lack an author, a date or a body


def _confidence(best: BlockGroup, fields: list[FieldChoice]) -> float:
    """How sure the fallback is: the share of blocks with an author, a date and a body, times the
    share in which the chosen selectors read each of those (one block alone repeats nothing)."""
    n = len(best.blocks)
    hits = {f.name: f.hits for f in fields}
    read = min(hits.get("author", 0), hits.get("date", 0), hits.get("body", 0)) / n if n else 0.0
    return round(best.share * min(1.0, read) * (1.0 if n > 1 else 0.8), 2)


def _doubt(best: BlockGroup, fields: list[FieldChoice]) -> str:
    """Why the blocks found are not to be trusted as the thread's posts ("" when they are)."""
    names = {f.name for f in fields}
    missing = [k for k in ("author", "date", "body") if k not in names]
    if missing:
        return f"no selector reads the {' and the '.join(missing)} of the repeated blocks"
    if best.share < SURE_SHARE:
        return (f"only {best.complete} of the {len(best.blocks)} repeated blocks hold an author, a date and a "
                "body: they look like a list, not posts")
    return ""


def _unnamed(root: Any, container: str, blocks: list[Any], fields: list[FieldChoice]) -> str:
    """Why the container cannot be given as the posts' selector: the blocks carry no id and no
    name finds them alone, so every other element the XPath finds (a layout row, a row inside a
    post) would be read as a post numbered by its position."""
    id_field = next(f for f in fields if f.name == "id")
    sels = id_field.selector if isinstance(id_field.selector, list) else [id_field.selector]
    if not any(isinstance(x, dict) and "xpath" in x for x in sels):
        return ""  # elements without the posts' id are skipped
    mine = {id(b) for b in blocks}
    around = {id(a) for b in blocks for a in b.iterancestors()}
    inside = {id(el) for b in blocks for el in b.iter()}
    # a layout element around the posts or a part of one; a post beside them is a post
    extra = sum(1 for el in root.xpath(container.split(" | ")[0])
                if id(el) not in mine and (id(el) in around or id(el) in inside))
    if extra:
        return (f"the {len(blocks)} post blocks have no id and no class or named ancestor that finds them alone "
                f"(their selector finds {extra} other elements)")
    return ""


class StructureUnsure(LayoutChanged):
    """The fallback's best reading of a page is too unsure to give as its posts; `structure`
    holds it for `forummod profile suggest` to write out as a starting point."""

    def __init__(self, structure: Structure, url: str):
        self.structure = structure
        self.reason = structure.doubt
        LayoutChanged.__init__(self, "structural", url, structure.container, structure.doubt)


_NUMERIC_DATE = re.compile(r"(?<![\d.:/-])(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})(?![\d./-])")


def _numeric_order(texts: list[str]) -> str | None:
    """The day/month order the page's own dates prove: "13-02-2016" can only be day-first,
    "02-13-2016" only month-first (MyBB's default); None when no date tells or they disagree."""
    dmy = mdy = False
    for t in texts:
        for m in _NUMERIC_DATE.finditer(t):
            a, b = int(m.group(1)), int(m.group(2))
            dmy |= a > 12 >= b
            mdy |= b > 12 >= a
    return "DMY" if dmy and not mdy else "MDY" if mdy and not dmy else None


def _same_shaped(data: dict[str, Any], sig: tuple, blocks: list[Any], groups: dict[tuple, list[Any]]) -> list:
    """Other block kinds, outside the chosen blocks, in which every chosen field reads a value."""
    fields = parse_profile(data).posts
    inside = {id(el) for b in blocks for el in b.iter()}
    above = {id(a) for b in blocks for a in b.iterancestors()}
    out = []
    for sig2, members in groups.items():
        if sig2 == sig or len(members) > len(blocks):
            continue
        if any(id(m) in inside or id(m) in above for m in members):
            continue
        if all(any(ex.first(m) for ex in fs) for m in members
               for fs in (fields.id, fields.author, fields.body) if fs):
            out.append((sig2, members))
    # nested kinds (a lead post's wrapper and its inner box): keep the outermost
    chosen = {id(m) for _, ms in out for m in ms}
    return [(s2, ms) for s2, ms in out if not any(id(a) in chosen for m in ms for a in m.iterancestors())]


def _opening_post(root: Any, ranked: list[BlockGroup], blocks: list[Any], fields: list[FieldChoice],
                  a_ids: set[int], d_by_el: dict[int, _DateCand]) -> tuple[list, list[FieldChoice]] | None:
    """The opening post printed in a box of its own before the replies (a lead article, then a
    list of answers): a lone block with an author and a date before the first reply, widened to
    the largest box around it that holds no reply (its body often sits beside its header). Its
    body selector is added after the replies' own when theirs does not read it."""
    order = {id(el): i for i, el in enumerate(root.iter())}
    first = order[id(blocks[0])]
    in_blocks = {id(el) for b in blocks for el in b.iter()}
    above = {id(a) for b in blocks for a in b.iterancestors()}
    lone = next((g.blocks[0] for g in ranked if len(g.blocks) == 1 and order[id(g.blocks[0])] < first
                 and id(g.blocks[0]) not in in_blocks and id(g.blocks[0]) not in above), None)
    if lone is None:
        return None
    box = lone
    while box.getparent() is not None and id(box.getparent()) not in above:
        box = box.getparent()
    sig = _signature(box)
    if not (sig[1] or sig[2]) or len(root.xpath(_container_xpath(sig))) != 1:
        return None  # no name that finds this box alone
    prof = parse_profile(profile_table(_container_xpath(sig), {f.name: f.selector for f in fields}, "opening post"))
    if not all(any(ex.first(box) for ex in fs) for fs in (prof.posts.author, prof.posts.date) if fs):
        return None
    first_reply = [next((ex.first(blocks[0]) for ex in fs if ex.first(blocks[0])), None)
                   for fs in (prof.posts.author, prof.posts.date)]
    if first_reply == [next((ex.first(box) for ex in fs if ex.first(box)), None)
                       for fs in (prof.posts.author, prof.posts.date)]:
        return None  # the thread's header ("started by ann, 5 May") repeating its first post
    out = list(fields)
    if prof.posts.id and not any(ex.first(box) for ex in prof.posts.id):  # no id of the replies' kind
        old_id = next(f for f in out if f.name == "id")
        # the position, for this box only (a fallback the replies would also match would stick)
        only_here = "self::" + _container_xpath(sig)[2:]
        sels = [*(old_id.selector if isinstance(old_id.selector, list) else [old_id.selector]),
                {"xpath": f"substring(concat('n', count(preceding::{box.tag})), 1, 99 * boolean({only_here}))"}]
        out[out.index(old_id)] = FieldChoice("id", sels, old_id.hits + 1)
    if prof.posts.body and not any(ex.first(box) for ex in prof.posts.body):
        author = next((el for el in box.iter() if id(el) in a_ids), None)
        date = next((d.el for el in box.iter() if (d := d_by_el.get(id(el))) is not None), None)
        body = _body_of(box, [author] if author is not None else [], date)
        if body is None:
            return None
        old = next(f for f in out if f.name == "body")
        sels = [*(old.selector if isinstance(old.selector, list) else [old.selector]), _relative_css(box, body)[-1]]
        out[out.index(old)] = FieldChoice("body", sels, old.hits + 1)
    return [(sig, [box])], out


def _author_id_selector(author_sel: Any, hrefs: list[str]) -> list[dict[str, Any]]:
    """The author link's user id: the id pattern that most of this page's author links follow,
    else the last path segment of a profile-like link (a name in the URL)."""
    sels = author_sel if isinstance(author_sel, list) else [author_sel]
    best = max(_USER_ID_RX, key=lambda rx: sum(1 for h in hrefs if rx.search(h)))
    rx = best.pattern if any(best.search(h) for h in hrefs) else _NAME_IN_URL
    return [{"css": sel if isinstance(sel, str) else sel["css"], "attr": "href", "regex": rx} for sel in sels]


_NAME_IN_URL = r"(?:(?:profile|members?|users?|/u|membre|utente|benutzer)[/.=]|^/)([^/?#&]+)/?(?:[?#].*)?$"


def _date_choice(blocks: list[Any], picks: list[_DateCand | None]) -> list[FieldChoice]:
    attr_votes = Counter(p.attr for p in picks if p is not None)
    if not attr_votes:
        return []
    attr = attr_votes.most_common(1)[0][0]
    extra = {"attr": attr} if attr else ({"own": True} if attr == "" else None)
    chosen = _choose("date", blocks, [p.el if p is not None and p.attr == attr else None for p in picks], extra,
                     fallbacks=1)
    timed = [p.time_el if p is not None and p.attr == attr else None for p in picks]
    if chosen and attr == "" and sum(1 for t in timed if t is not None) * 2 >= len(blocks):
        time = _choose("time", blocks, timed)
        if time is not None:  # the date and the time beside it, read as one text
            day_css = chosen.selector["css"] if isinstance(chosen.selector, dict) else chosen.selector[0]["css"]
            both = (f"concat(normalize-space(({_css_xpath(day_css)})[1]/text()), ' ', "
                    f"normalize-space(({_css_xpath(time.selector)})[1]))")
            return [FieldChoice("date", {"xpath": both}, min(chosen.hits, time.hits))]
    return [chosen] if chosen else []


def _css_xpath(css: str) -> str:
    from forummod.forum.profile import _TRANSLATOR

    return _TRANSLATOR.css_to_xpath(css, prefix="descendant-or-self::")


def _name_inside(el: Any) -> Any:
    """The element holding just the name in a named box ("<span class=author><b>Ann</b> 5</span>")."""
    while True:
        kids = [c for c in el if isinstance(c.tag, str) and _short_text(c)]
        if not kids or (el.text or "").strip():
            return el
        el = kids[0]


def _body_of(block: Any, authors: list[Any], date: Any) -> Any:
    """The element with the most text that holds neither an author nor the date."""
    banned: set[int] = set()
    for x in (*authors, date):
        if x is not None:
            banned.update(id(a) for a in x.iterancestors())
            banned.add(id(x))
    best, best_key = None, (-1, 0)
    for el in block.iter():
        if not isinstance(el.tag, str) or el.tag in _SKIP_TAGS or id(el) in banned or el is block:
            continue
        if el.tag in ("a", "img", "br", "span", "b", "strong", "i", "em", "blockquote"):
            continue
        n = len(el.text_content().strip())
        cls = el.get("class") or ""
        # a vote post is short: a content class outweighs the longer text of a profile column
        score = n * (3 if _BODY_CLASS.search(cls) else 1)
        if _PROFILE_PART.search(cls) or any(_PROFILE_PART.search(a.get("class") or "")
                                            for a in el.iterancestors() if a is not block and id(a) not in banned):
            score //= 5
        if _CHROME_PART.search(cls):  # a row of buttons ("Quote", "Report") is no body
            score //= 10
        key = (score, 1 if _BODY_CLASS.search(cls) else 0)
        if key > best_key:
            best, best_key = el, key
    return best


_CHROME_PART = re.compile(r"button|action|menu|toolbar|control|footer|reaction|likes|share|under_?message|"
                          r"moderat|report|keyinfo|posthead|postfoot|bottom|meta", re.IGNORECASE)
_PROFILE_PART = re.compile(r"profile|userinfo|user-info|user_info|usertitle|userstats|poster-?info|rank|"
                           r"signature|join|avatar|extra", re.IGNORECASE)


# --------------------------------------------------------------------------- profile table

GENERIC_MARKS: list[dict[str, Any]] = [
    # vBulletin 4 and XenForo build the post body itself from a blockquote: not a quote
    {"kind": "quote", "css": "blockquote:not([class*='postcontent']):not([class*='messageText']):not([class*='messagetext'])"
                             ":not([class*='bbWrapper']):not([class*='message-body']), div[class*='quote'], table[class*='quote']",
     "author": [{"css": "cite", "regex": r"^@?(.+?)(?:\s+(?:wrote|said|schrieb|ha scritto|a écrit|написал|schreef)\b.*)?:?$"}]},
    # any engine's quote: an element whose class (in any case: "forumQuote") or own name (a custom
    # <content-quote>) says quote, or <q>; a vote quoted from another player must not count
    {"kind": "quote", "xpath": ".//*[(contains(translate(@class, 'QUOTE', 'quote'), 'quote') or "
                               "contains(local-name(), 'quote') or self::q) and not(" + " or ".join(
                                   f"contains(@class, '{c}')" for c in ("postcontent", "messageText", "messagetext",
                                                                        "bbWrapper", "message-body")) + ")]"},
    {"kind": "spoiler", "css": "[class*='spoiler']"},
    {"kind": "code", "css": "pre, code"},
    {"kind": "signature", "css": "[class*='signature'], div.sig"},
]


def profile_table(container: str, fields: dict[str, Any], why: str, name: str = "structural") -> dict[str, Any]:
    """A profile table (the TOML shape) around the selectors found."""
    post = {k: (v if isinstance(v, list) else [v]) for k, v in fields.items() if v is not None}
    return {
        "name": name,
        "title": f"structural fallback ({why})",
        "verified": "inferred from one page by forummod's structural fallback",
        "thread": {"posts": [f"xpath:{container}"], "title": ["h1", "title"], "need_author_or_date": True},
        # inferred selectors may land on a date without its time: such a post is flagged, never silently wrong
        "dates": {"flag_imprecise": True},
        "post": post,
        "body": {"remove": ["script", "style"], "marks": GENERIC_MARKS},
        "pagination": {"links": ["a[href*='page'], a[href*='start=']"]},
    }


def to_toml(data: dict[str, Any]) -> str:
    """The profile table as TOML a GM can edit (selectors only: no TOML writer is in the stack)."""
    lines: list[str] = []

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, str):
            if "'" not in v and "\n" not in v:
                return f"'{v}'"
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {val(x)}" for k, x in v.items()) + " }"
        raise TypeError(v)

    for k, v in data.items():
        if not isinstance(v, dict):
            lines.append(f"{k} = {val(v)}")
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"\n[{k}]")
            for k2, v2 in v.items():
                if k2 == "marks":
                    continue
                lines.append(f"{k2} = {val(v2)}")
            for m in v.get("marks", ()):
                lines.append(f"\n[[{k}.marks]]")
                lines.extend(f"{k3} = {val(v3)}" for k3, v3 in m.items())
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- filling a profile's gaps


def fill_from_structure(page: Any, html: str, *, url: str, tz: Any, now: datetime) -> Any:
    """A profile that found the posts but not some of their dates or authors (a customised
    style moved them): the structural fallback reads the same page, and where it reads the same
    post id with a date or an author the profile missed, that is taken. Dates are taken only
    when, together with the profile's own, they run in post order and not past the fetch: a date
    that cannot be checked so stays guessed (a guessed date never decides a deadline). The GM is
    told what was filled; nothing is changed when the page gives the fallback nothing to read."""
    from dataclasses import replace

    from forummod.forum.html_engine import parse_html, parse_thread_page
    from forummod.model import Issue

    guessed = {p.post_id for p in page.posts if p.date_guessed}
    nameless = {p.post_id for p in page.posts if not p.author}
    if not guessed and not nameless:
        return page
    try:
        other = parse_thread_page(infer_structure(parse_html(html), url=url).profile(), html, url=url, tz=tz, now=now)
    except LayoutChanged:
        return page
    theirs = {p.post_id: p for p in other.posts}
    dates = {pid: theirs[pid].created_at for pid in guessed if pid in theirs and not theirs[pid].date_guessed}
    timeline = [dates.get(p.post_id) if p.post_id in guessed else p.created_at for p in page.posts]
    known = [t for t in timeline if t is not None]
    if any(b < a for a, b in zip(known, known[1:])) or any(t > now for t in dates.values()):
        dates = {}  # out of post order or in the future: not the posts' dates
    names = {pid: theirs[pid].author for pid in nameless if pid in theirs and theirs[pid].author}
    if not dates and not names:
        return page
    posts = tuple(replace(p, created_at=dates[p.post_id], date_guessed=False) if p.post_id in dates else p
                  for p in page.posts)
    posts = tuple(replace(p, author=names[p.post_id]) if p.post_id in names else p for p in posts)
    issues = [i for i in page.issues
              if not (i.code == "date_unreadable" and any(i.message.startswith(f"post {pid}:") for pid in dates))]
    if not any(p.author for p in page.posts) and names:
        issues = [i for i in issues if i.code != "author_unreadable"]
    filled = [f"{len(dates)} date(s)" if dates else "", f"{len(names)} author(s)" if names else ""]
    issues.append(Issue("read_by_structure", f"{' and '.join(f for f in filled if f)} the profile could not read "
                        "were read from the page's repeated post blocks (check them; `forummod parse --explain` "
                        "shows the selectors)", severity="warning", details=url))
    return replace(page, posts=posts, issues=tuple(issues))
