"""Who an unresolved name probably means: the evidence behind an alias proposal (issue 27, item 3).

Name resolution (`names`) never guesses: "KTS", "fitz" or "pecan" stay `unknown_name` issues.
This module looks at such a spelling once more, with rules too loose to count a vote by
themselves but good enough to *ask* the GM, and says which seat it probably means and why:

========================  ====================================================  ===========
rule                      what it checks (on folded names, aliases, replaced      specific?
                          players' names of every seat)
========================  ====================================================  ===========
``initials``              the spelling is a non-empty start of every word of a    yes
                          CamelCase / spaced / underscored name, in order
                          ("KTS" KingTheSlayer, "JJB" jj_bean, "nevil"
                          Necessary Evil); trailing digits may be left out
``word``                  the spelling is a whole word of the name ("Om" Om of    yes
                          the Nom, "mb" mb53)
``prefix``                the spelling starts the name or one of its words        >= 3 letters
``part``                  the spelling is inside the name: 4+ letters anywhere    yes
                          ("fitz" havingfitz), 3 at its end or a word's start
``edits``                 one typing slip (a swap of two letters is one) from     yes
                          the name or from its start of
                          the same length (two in names of 7+ letters; 4+
                          letters typed)
``fuzzy``                 rapidfuzz ratio >= 70 (>= 60 when the first letters     yes
                          agree), 10 ahead of every other seat
``letters``               the name's first letter, then the others in order,      >= 3 letters
                          never side by side ("rbt" Riceballtail, "womc"
                          WeaponsofMassConstruction)
``capitals``              a two-letter spelling written in capitals ("TS"), as    ranks only
                          abbreviations are
``voter_vote``            the voter's own nearest vote (before or after, later    backs a rule
                          first) went to that seat
``same_spelling``         other players wrote the same spelling                   ranks only
========================  ====================================================  ===========

A rule that fits more than `MAX_CANDIDATES` seats says nothing; a spelling holding a seat's
whole name ("scum Hiraki", "Ann or Bob") is the vote's wording, not a nickname. A seat is
proposed with `NEEDED` points (`points`): a specific rule alone, or a weak one (two letters:
a prefix or letters in order) backed by the voter's own vote for that seat, or written in
capitals by two players. The seats with the
best score are the candidates: one is a plain proposal; two or three tie and the GM picks.
Nothing here counts a vote: the GM's approval (an `alias` event in the log) does.

Pure: roster, issues and intents in, records out; words are applied at the faces.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Iterable, Mapping

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from forummod.extract.normalize import compact, fold
from forummod.model import Issue, Roster, Source, VoteIntent
from forummod.records import frozen

#: Issue codes whose spelling may be settled by an alias.
NAME_CODES = ("unknown_name", "ambiguous_name")
#: A rule fitting more seats than this is no evidence; a tie of up to this many is proposed.
MAX_CANDIDATES = 3
#: Longest spelling looked at (a name, not a sentence), in characters and words.
MAX_CHARS, MAX_WORDS = 30, 3
#: A fuzzy likeness: this ratio (or `FUZZY_SAME_START` when the first letters agree: a slip rarely
#: hits the first letter) and this lead over every other seat.
FUZZY_MIN, FUZZY_SAME_START, FUZZY_LEAD = 70.0, 60.0, 10.0

#: A proposal needs this many points: a specific rule alone, or a weak one and a backing one.
NEEDED = 3
_TOKENS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")
_TRAILING_DIGITS = re.compile(r"\d+$")


@frozen
class Evidence:
    """One reason to think `spelling` means `player`: the `rule`, the name or alias it matched
    (`form`), a number (letters matched, edits, ratio, votes) and the post it comes from."""

    rule: str
    player: str
    form: str = ""
    value: float = 0.0
    source: Source | None = None


@frozen
class NameUse:
    """One unresolved use of a spelling: who wrote it, when, where."""

    voter: str
    at: datetime | None
    source: Source | None
    code: str


@frozen
class AliasGuess:
    """A spelling no seat matches and the seats it probably means (best first; more than one:
    a tie, the GM picks), with every reason and every use of the spelling."""

    key: str  # "alias:kts": the spelling folded, spaces as "_"
    spelling: str  # as most often written
    candidates: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    uses: tuple[NameUse, ...]

    @property
    def voters(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.voter for u in self.uses if u.voter))

    @property
    def first_at(self) -> datetime | None:
        times = [u.at for u in self.uses if u.at is not None]
        return min(times) if times else None


def alias_key(spelling: str) -> str:
    """The proposal key of a spelling: `alias:` and the folded spelling, spaces as `_`."""
    return "alias:" + fold(spelling).replace(" ", "_")


# --------------------------------------------------------------------------- the rules


def _forms(roster: Roster) -> list[tuple[str, str]]:
    """(seat, text) for every name a seat answers to: its name, aliases and replaced players."""
    out = []
    for slot in roster.players:
        for text in (slot.name, *slot.aliases, *(r.previous for r in slot.replacements)):
            if compact(fold(text)):
                out.append((slot.name, text))
    return out


def _tokens(text: str) -> list[str]:
    return [fold(t) for t in _TOKENS.findall(text) if fold(t)]


def is_initials(spelling: str, name: str) -> bool:
    """`spelling` is a non-empty start of each word of `name`, in order (trailing numbers may be
    left out): "kts" KingTheSlayer, "jjb" jj_bean, "nevil" Necessary Evil. Two words at least."""
    s = compact(fold(spelling))
    words = _tokens(name)
    while s and len(s) <= 12 and len(words) >= 2:
        if _starts(s, words):
            return True
        if not words[-1].isdigit():
            return False
        words = words[:-1]
    return False


def _starts(s: str, words: list[str]) -> bool:
    if not words:
        return not s
    if not s:
        return False
    w = words[0]
    for n in range(min(len(w), len(s)), 0, -1):
        if s[:n] == w[:n] and _starts(s[n:], words[1:]):
            return True
    return False


def in_order(spelling: str, name: str) -> bool:
    """The name's first letter, then each further letter of `spelling` later in the name and not
    right after the one before ("rbt" Riceballtail, "womc" WeaponsofMassConstruction; not "neil"
    in Necessary Evil, whose "il" sit side by side). Abbreviations are short: six letters at most."""
    s, n = compact(fold(spelling)), compact(fold(name))
    if not 2 <= len(s) <= 6 or len(s) >= len(n) or s[0] != n[0]:
        return False
    failed: set[tuple[int, int]] = set()

    def fit(i: int, last: int) -> bool:
        if i == len(s):
            return True
        if (i, last) in failed:
            return False
        if any(fit(i + 1, j) for j in range(last + 2, len(n)) if n[j] == s[i]):
            return True
        failed.add((i, last))
        return False

    return fit(1, 0)


def _rule_hits(s: str, form: str) -> list[tuple[str, float]]:
    """(rule, value) of every text rule `s` (compact, folded) fits against one name."""
    f = compact(fold(form))
    if not f or s == f:
        return []
    hits: list[tuple[str, float]] = []
    words = [compact(w) for w in fold(form).split()] + _tokens(form)
    if len(s) >= 2 and s in words:
        hits.append(("word", len(s)))  # a whole word of the name: "Om" Om of the Nom, "mb" mb53
    digits = _TRAILING_DIGITS.search(f)
    if digits and s.endswith(digits.group()) and len(s) > len(digits.group()):
        # the name's own number typed too ("EPM18" evilpacman18): the letters before it decide
        hits += [h for h in _rule_hits(s[: -len(digits.group())], form[: len(form.rstrip("0123456789"))] or form)
                 if h[0] in ("initials", "letters")]
    if is_initials(s, form):
        hits.append(("initials", len(s)))
    if len(s) >= 2 and len(s) < len(f) and (f.startswith(s) or any(w.startswith(s) for w in words)):
        hits.append(("prefix", len(s)))
    elif len(s) >= 4 and s in f[1:] or len(s) == 3 and (f.endswith(s) or any(w.startswith(s) for w in words[1:])):
        hits.append(("part", len(s)))  # three letters only at the end or at a word's start ("bob" in archaebob)
    if len(s) >= 4:
        slips = 2 if len(s) >= 7 else 1
        d = min(OSA.distance(s, f, score_cutoff=slips + 1), OSA.distance(s, f[: len(s)]))  # a swap is one slip
        if d <= slips:
            hits.append(("edits", d))
    if in_order(s, form) and not any(r in ("initials", "prefix") for r, _ in hits):
        hits.append(("letters", len(s)))
    return hits


def is_specific(e: Evidence) -> bool:
    """A text rule precise enough to propose a seat alone (see the module's table)."""
    return e.rule in ("initials", "edits", "fuzzy", "word") or (e.rule in ("prefix", "part", "letters") and e.value >= 3)


#: Letters of a name typed exactly (a prefix or a part) from which that outweighs a likeness.
LONG_PART = 4


def points(e: Evidence) -> int:
    """What one reason weighs: initials, a whole word of the name, or four or more of its letters
    typed exactly 4 (ahead of a likeness: "aceofspades" is theaceofspades, not jackofspades), another
    specific rule 3, a weak one 1, the voter's own vote 2 (only behind a seat whose text evidence
    is weak: a voter changes votes, so it never outweighs the letters typed), other voters writing
    the same spelling 1, two letters in capitals 1."""
    if e.rule == "voter_vote":
        return 2
    if e.rule in ("same_spelling", "capitals"):
        return 1
    if e.rule in ("initials", "word") or (e.rule in ("prefix", "part") and e.value >= LONG_PART):
        return 4
    return 3 if is_specific(e) else 1


def score(evidence: Iterable[Evidence]) -> int:
    """A seat's points: each rule counted once, with its best evidence."""
    best: dict[str, int] = {}
    for e in evidence:
        best[e.rule] = max(best.get(e.rule, 0), points(e))
    text = sum(v for r, v in best.items() if r != "voter_vote")
    return text + (best.get("voter_vote", 0) if text < NEEDED else 0)


@lru_cache(maxsize=4096)
def _text_evidence(spelling: str, roster: Roster) -> tuple[Evidence, ...]:
    s = compact(fold(spelling))
    if not s or len(spelling) > MAX_CHARS or len(spelling.split()) > MAX_WORDS:
        return ()
    per_rule: dict[str, dict[str, Evidence]] = {}
    for seat, form in _forms(roster):
        for rule, value in _rule_hits(s, form):
            best = per_rule.setdefault(rule, {}).get(seat)
            if best is None or (rule == "edits" and value < best.value):
                per_rule[rule][seat] = Evidence(rule, seat, form, value)
    out = [ev for seats in per_rule.values() if len(seats) <= MAX_CANDIDATES for ev in seats.values()]
    if len(s) >= 3:  # fuzzy ratio over whole names: only one seat clearly ahead
        scores: dict[str, tuple[float, str]] = {}
        for seat, form in _forms(roster):
            r = fuzz.ratio(s, compact(fold(form)))
            if r > scores.get(seat, (-1.0, ""))[0]:
                scores[seat] = (r, form)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1][0])
        if ranked and (len(ranked) == 1 or ranked[0][1][0] - ranked[1][1][0] >= FUZZY_LEAD):
            seat, (r, form) = ranked[0]
            if r >= FUZZY_MIN or r >= FUZZY_SAME_START and compact(fold(form))[:1] == s[:1]:
                out.append(Evidence("fuzzy", seat, form, round(r, 1)))
    return tuple(out)


def name_evidence(spelling: str, roster: Roster) -> tuple[Evidence, ...]:
    """Every text rule that ties `spelling` to a seat (rules fitting too many seats left out)."""
    return _text_evidence(spelling, roster)


# --------------------------------------------------------------------------- proposals


def _names_a_player(spelling: str, roster: Roster) -> bool:
    """A word of the spelling is a seat's whole name (or alias, or replaced player's name)."""
    words = {compact(w) for w in fold(spelling).split()}
    return any(compact(fold(text)) in words for _, text in _forms(roster))


def _chunks(spelling: str) -> list[str]:
    """The spelling and its first one or two words: "KTS because reasons" is "KTS"."""
    words = spelling.split()
    out = [spelling]
    if len(words) >= 3:
        out.append(" ".join(words[:2]))
    if len(words) >= 2:
        out.append(words[0])
    return [c.strip(_JUNK) for c in out if c.strip(_JUNK)]


_JUNK = ",.;:!?()[]{}<>\"'/\\ "


def _nearest_vote(use: NameUse, votes: Mapping[str, list[VoteIntent]]) -> VoteIntent | None:
    mine = votes.get(use.voter) or []
    if use.at is None or not mine:
        return None
    return min(mine, key=lambda v: (abs((v.at - use.at).total_seconds()), v.at < use.at))


def guess(spelling: str, uses: tuple[NameUse, ...], roster: Roster,
          votes: Mapping[str, list[VoteIntent]] | None = None) -> AliasGuess | None:
    """The proposal for one spelling (or for its first words), or None when the evidence is not
    specific enough (`NEEDED` points) or fits more than `MAX_CANDIDATES` seats equally."""
    votes = votes or {}
    if _names_a_player(spelling, roster):
        return None  # "scum Hiraki", "Ann or Bob": the vote's wording, not a nickname
    order = {slot.name: i for i, slot in enumerate(roster.players)}
    voters = tuple(dict.fromkeys(u.voter for u in uses if u.voter))
    for chunk in _chunks(spelling):
        found = list(name_evidence(chunk, roster))
        if not found:
            continue
        seats = sorted({e.player for e in found}, key=lambda s: order.get(s, len(order)))
        for u in uses:
            v = _nearest_vote(u, votes)
            if v is not None and v.target in seats:
                found.append(Evidence("voter_vote", v.target, u.voter, 1, v.source))
        if len(voters) >= 2:
            found += [Evidence("same_spelling", seat, "", len(voters)) for seat in seats]
        if len(compact(chunk)) == 2 and chunk.isupper():
            found += [Evidence("capitals", e.player, e.form, 2) for e in found if e.rule in ("prefix", "letters")]
        scores = {seat: score(e for e in found if e.player == seat) for seat in seats}
        best = max(scores.values())
        top = [seat for seat in seats if scores[seat] == best]
        if best < NEEDED or len(top) > MAX_CANDIDATES:
            continue
        kept = tuple(dict.fromkeys(e for e in found if e.player in top))
        return AliasGuess(alias_key(chunk), chunk, tuple(top), kept, uses)
    return None


def name_uses(issues: Iterable[Issue]) -> dict[str, tuple[str, tuple[NameUse, ...]]]:
    """Unresolved names by proposal key: (the spelling most written, its uses in order)."""
    groups: dict[str, list[tuple[str, NameUse]]] = {}
    for i in issues:
        if i.code not in NAME_CODES or not i.spelling.strip():
            continue
        groups.setdefault(alias_key(i.spelling), []).append((i.spelling.strip(), NameUse(i.player or "", i.at, i.source, i.code)))
    out = {}
    for key, rows in groups.items():
        counts: dict[str, int] = {}
        for text, _ in rows:
            counts[text] = counts.get(text, 0) + 1
        out[key] = (max(counts, key=lambda t: (counts[t], -len(t))), tuple(u for _, u in rows))
    return out


def alias_guesses(issues: Iterable[Issue], intents: Iterable[object], roster: Roster) -> tuple[AliasGuess, ...]:
    """A proposal for every unresolved spelling the evidence supports, first written first.
    Several spellings whose first word is the same name ("KTS", "KTS pls") merge into one."""
    votes: dict[str, list[VoteIntent]] = {}
    for it in intents:
        if isinstance(it, VoteIntent) and it.target:
            votes.setdefault(it.voter, []).append(it)
    merged: dict[str, AliasGuess] = {}
    for spelling, uses in name_uses(issues).values():
        g = guess(spelling, uses, roster, votes)
        if g is None:
            continue
        old = merged.get(g.key)
        if old is None:
            merged[g.key] = g
        else:
            merged[g.key] = AliasGuess(g.key, old.spelling, old.candidates,
                                       old.evidence + tuple(e for e in g.evidence if e not in old.evidence),
                                       old.uses + g.uses)
    return tuple(sorted(merged.values(), key=lambda g: (g.first_at.timestamp() if g.first_at else float("inf"), g.key)))
