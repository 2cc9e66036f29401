"""Why a count or a day differs: a class for every miss, found by rules, never by hand.

The rules look at the voter's latest post before the count that forummod read something in or
that holds a vote phrase (a "vote:" or a short "vote X" line, a bold run with a vote word;
outside quotes), in this order: a moderator error (`compare`); a seat
forummod has dead where the moderator counts it (forummod's hammer before the moderator saw
one, an earlier wrong lynch, a death's timing); an account of the seat the harness could not find on the forum; forummod's own
finding on that post (an unresolved or ambiguous name, with its suggestions, sub-classed by how
the written name relates to the moderator's player: initials, prefix, part, misspelling, other
nickname; a vote by an account outside its seat's time: replacement timing; a form not
counted); forummod's rejection of the vote (late, dead target, ...); the vote's written form
(``##vote``, one ``#``, a bracketed name, a bold run holding several statements, a plain
unbolded vote); a vote posted just before the count (the count crossed it); a name forummod
matched to another player than the moderator did; else "unexplained".
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

import lxml.html

from benchmarks.accuracy.compare import Diff
from benchmarks.accuracy.modcounts import NO_LYNCH, NOT_VOTING
from benchmarks.accuracy.runner import Reading
from benchmarks.accuracy.text import key, post_lines

_QUERY = re.compile(r"“([^”]*)”")
_VOTE_WORD = re.compile(r"(?i)\b(?:un)?vote\b")
_VOTE_LINE = re.compile(r"(?i)(?:^|\s)#{0,2}\s*(?:un)?vote\s*:|^\s*#{0,2}\s*(?:un)?vote\b(?:\s+\S+){0,3}\s*$")
_HASH = re.compile(r"(?i)##\s*(?:un)?vote")
_ONE_HASH = re.compile(r"(?i)(?<!#)#\s*(?:un)?vote\b")
_BRACKET = re.compile(r"(?i)\bvote\s*:?\s*\[[^\]\n]+\]")
_PLAIN = re.compile(r"(?i)^\s*(?:un)?vote\b")


@dataclass(frozen=True)
class Why:
    """A miss's class, the post it was found in (None: none), and the evidence in words."""

    cls: str
    post: int | None
    evidence: str
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Context:
    """What the rules read: posts' HTML and times, forummod's readings, seats' posts and names."""

    html: Mapping[int, str]
    times: Mapping[int, datetime]
    readings: Mapping[int, Reading]
    seat_posts: Mapping[str, Sequence[int]]
    seat_names: Mapping[str, tuple[str, ...]]  # seat key -> every name it is known by
    unmatched_seats: frozenset[str]
    replaced_at: Mapping[str, tuple[int, ...]]
    fm_lynch: Mapping[str, tuple[str | None, int | None]]  # phase -> (seat forummod lynched, hammer post)
    archive_lynch: Mapping[str, str | None]  # phase -> seat the archive lynched


def name_relation(written: str, names: Sequence[str]) -> str:
    """How a written name relates to a player's names: initials (of a CamelCase or spaced name,
    or up to four letters in order from its first: "KBW" for Keybladewielder), prefix,
    short_prefix (under three letters), part, misspelling, nickname."""
    w = key(written)
    if not w:
        return "nickname"
    best = "nickname"
    for n in names:
        k = key(n)
        if not k:
            continue
        parts = re.split(r"[\s_\-.]+", re.sub(r"(?<=[a-z])(?=[A-Z0-9])", " ", n))
        caps = "".join(part[0] for part in parts if part).lower()
        if len(w) >= 2 and (w == caps or w == re.sub(r"\d", "", caps) or (
                len(w) <= 4 and w[0] == k[0] and not k.startswith(w) and _subsequence(w, k))):
            return "initials"
        if k.startswith(w):
            best = "short_prefix" if len(w) < 3 else "prefix"
        elif w in k and best == "nickname":
            best = "part"
        elif difflib.SequenceMatcher(None, w, k).ratio() >= 0.7 and best == "nickname":
            best = "misspelling"
    return best


def bold_runs(html: str) -> list[str]:
    """Texts of bold elements and vote tags outside quotes."""
    try:
        root = lxml.html.fragment_fromstring(re.sub(r"(?i)<br\s*/?>", "\n", html), create_parent="div")
    except Exception:  # noqa: BLE001
        return []
    for bq in list(root.iter("blockquote")):
        if bq.getparent() is not None:
            bq.getparent().remove(bq)
    out = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        style = (el.get("style") or "").replace(" ", "").lower()
        if el.tag in ("b", "strong") or "font-weight:bold" in style or "bbvote" in (el.get("class") or ""):
            out.append(el.text_content())
    return out


def classify_diff(d: Diff, count_post: int, day_start: int, mod_error: bool, living: frozenset[str],
                  next_agrees: bool, ctx: Context) -> Why:
    if mod_error:
        return Why("moderator_error", None, f"the moderator's adjacent count gives {d.voter} {d.forummod}, "
                                            f"with no post by {d.voter} in between")
    for who in (d.voter, d.moderator):
        if who not in (NO_LYNCH, NOT_VOTING) and who not in living:
            return _dead_in_forummod(who, count_post, ctx)
    if d.voter in ctx.unmatched_seats or d.moderator in ctx.unmatched_seats:
        return Why("harness_account_unmatched", None, "an account of this seat was not found on the forum")
    posts = [n for n in ctx.seat_posts.get(d.voter, ()) if day_start <= n < count_post]
    relevant = None
    for n in reversed(posts):
        r = ctx.readings.get(n)
        if (r and (any(v == d.voter for v, _, _ in r.intents) or any(p == d.voter for _, p, _, _ in r.issues)
                   or any(a == d.voter for a, _, _ in r.rejections))) \
                or any(_VOTE_LINE.search(ln) for ln in post_lines(ctx.html.get(n, ""))) \
                or any(_VOTE_WORD.search(b) for b in bold_runs(ctx.html.get(n, ""))):
            relevant = n
            break
    # replacement: a vote by an account outside its seat's time (the issue names the author's seat)
    for n in reversed(posts):
        r = ctx.readings.get(n)
        if r and any(code == "non_player_vote" for code, _, _, _ in r.issues):
            return Why("replacement_timing", n, _issue_text(r, "non_player_vote"))
    if relevant is None:
        if ctx.replaced_at.get(d.voter) and any(day_start <= p <= count_post for p in ctx.replaced_at[d.voter]):
            return Why("replacement_timing", None, "the seat was replaced during this day; no vote post of its own")
        return Why("unexplained_no_post", None, f"no post of {d.voter} with a vote word since the day began "
                                                f"(moderator: {d.moderator}, forummod: {d.forummod})")
    r = ctx.readings.get(relevant) or Reading((), (), ())
    text = " / ".join(post_lines(ctx.html.get(relevant, "")))[:300]
    for code, player, cands, details in r.issues:
        if code in ("unknown_name", "ambiguous_name", "homoglyph_name"):
            query = _QUERY.findall(details)
            q = query[0] if query else details
            written = _written_name(details)
            names = ctx.seat_names.get(d.moderator, ())
            rel = name_relation(written, names) if d.moderator not in (NO_LYNCH, NOT_VOTING) else "other"
            sub = "ambiguous" if code == "ambiguous_name" else rel
            return Why(f"unresolved_name:{sub}", relevant, f"“{written}” for {d.moderator}: {q}", tuple(cands))
    for actor, reason, target in r.rejections:
        if actor == d.voter:
            return Why(f"rejected:{reason}", relevant, f"forummod refused {actor} -> {target or '?'} ({reason}): {text}")
    html = ctx.html.get(relevant, "")
    lines = post_lines(html)
    own = "\n".join(lines)
    if _HASH.search(own):
        return Why("form:hash_vote", relevant, text)
    if _ONE_HASH.search(own):
        return Why("form:single_hash", relevant, text)
    runs = bold_runs(html)
    if any(_BRACKET.search(b) for b in runs) or _BRACKET.search(own):
        return Why("form:bracketed_name", relevant, text)
    if any(len(_VOTE_WORD.findall(b)) >= 2 or (_VOTE_WORD.search(b) and re.search(r"[;.!]\s*\S", b.strip()))
           for b in runs):
        return Why("form:multi_statement_bold", relevant, " | ".join(b for b in runs if _VOTE_WORD.search(b))[:300])
    if any(code == "vote_form_not_counted" for code, _, _, _ in r.issues):
        return Why("form:not_counted", relevant, _issue_text(r, "vote_form_not_counted"))
    if not any(_VOTE_WORD.search(b) for b in runs) and any(_PLAIN.search(ln) for ln in lines):
        return Why("form:plain_vote", relevant, text)
    if next_agrees and relevant is not None and (count_post - relevant <= 2 or (
            relevant in ctx.times and count_post in ctx.times
            and (ctx.times[count_post] - ctx.times[relevant]).total_seconds() <= 900)):
        return Why("crossed_post", relevant, f"posted just before the count (#{relevant}); the moderator's next "
                                              f"count agrees with forummod: {text}")
    mine = [t for v, k, t in r.intents if v == d.voter and k == "vote"]
    if mine and d.moderator not in (NO_LYNCH, NOT_VOTING) and mine[-1] not in (d.moderator,):
        return Why("name_matched_elsewhere", relevant, f"forummod read a vote for {mine[-1]}, the moderator "
                                                        f"{d.moderator}: {text}")
    if d.forummod != NOT_VOTING and d.moderator == NOT_VOTING:
        return Why("vote_moderator_did_not_list", relevant, text)
    return Why("unexplained", relevant, text)


def _dead_in_forummod(who: str, count_post: int, ctx: Context) -> Why:
    """A seat forummod has dead at this count while the moderator counts it: forummod's own
    lynch today (a hammer the moderator did not see then), an earlier day's lynch that differs
    from the archive's, or a death the harness entered at another post (death timing)."""
    for phase, (seat, hammer) in ctx.fm_lynch.items():
        if seat != who:
            continue
        if hammer is not None and hammer < count_post and ctx.archive_lynch.get(phase) == who:
            return Why("hammer_before_moderator", hammer, f"forummod's hammer on {who} at #{hammer} ({phase}, "
                                                          f"the archive's lynch too); the moderator still counts")
        if ctx.archive_lynch.get(phase) != who:
            return Why("after_wrong_lynch", hammer, f"forummod lynched {who} in {phase}; the archive: "
                                                    f"{ctx.archive_lynch.get(phase)}")
    return Why("death_timing", None, f"{who} is dead in forummod's game at this count (a death entered "
                                     f"by the harness, or a lynch at another time)")


def _written_name(details: str) -> str:
    m = re.search(r"(?i)\b(?:un)?vote\b\s*[:\-]?\s*(.+)", details.strip("“”\"' "))
    return (m.group(1) if m else details).strip(" .!:;“”\"'")[:40]


def _issue_text(r: Reading, code: str) -> str:
    return next((d for c, _, _, d in r.issues if c == code), "")


def classify_day(expected: str | None, got: Any, final_classes: Sequence[str], notes: str,
                 limitations: Sequence[str], earlier_wrong: bool) -> str:
    """The class of a wrong day: the classes of the day's last count first, then what the
    archive notes say forummod cannot be told, then an earlier wrong day."""
    if final_classes:
        return final_classes[0]
    low = notes.lower()
    if expected == "no lynch" and "one less for no lynch" in low:
        return "limitation:no_lynch_threshold"
    if any("double voter" in x for x in limitations):
        return "limitation:double_voter"
    if earlier_wrong:
        return "after_wrong_day"
    if got is None or got.outcome is None:
        return "undecided"
    if got.reason not in ("hammer",):
        return f"deadline:{got.reason}"
    return "hammer_on_other"


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)
