"""Action grammar: night (and day) powers as players write them to the GM.

A line may start with a role prefix (``Veggente:``, ``Ziener:``, ``白狼：``, or a building
such as ``理发师：``); then comes an action keyword of the ruleset's language or English,
then the targets. The result uses exactly the verbs and args of
`forummod.engine.catalog.ACTIONS`; the engine validates them (alive, allowed role, repeat
rules). A prefix with no keyword uses the role's only power (``Ziener: Links en Rechts`` is
the Seer's centre look, ``Veggente: Marco`` a check). Targets: one name, or two joined by
"and" in any language; ``me`` / ``a me stesso`` / ``себя`` / ``自己`` is the sender.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from forummod.engine.catalog import ACTIONS, ROLES, ActionSpec, canonical_role
from forummod.extract.lexicon import PSEUDO_ROLE_VERBS, Act, Lexicon, lexicon
from forummod.extract.names import NameIndex, NameMatch
from forummod.extract.normalize import fold, has_cjk
from forummod.records import frozen

_PREFIX = re.compile(r"^\s*(?P<role>[^:：\n]{1,40}?)\s*[:：]\s*")
_SEP = " \t:：=-–—>»→~,，。.;；!！?？、"
#: Prepositions between an action keyword and its target in any language ("swap with X",
#: "ruil met X", "indago su X", "молюсь за X", "огонь на X"), besides the lexicon's connectors.
_ACTION_CONNECTORS = ("a", "su", "met", "with", "on", "за", "на")


@frozen
class ParsedAction:
    """One action read from a line: verb, resolved targets, fixed args and problems."""

    verb: str
    targets: tuple[str, ...]
    role_hint: str | None
    args: tuple[tuple[str, str], ...]
    raw: str
    problems: tuple[NameMatch, ...] = ()  # unresolved names (no intent is made)
    missing: bool = False  # fewer targets than the verb needs


def _word(p: str) -> str:
    """A keyword pattern with word boundaries where the script has words."""
    return p if has_cjk(p) else r"(?<!\w)(?:" + p + r")(?!\w)"


class ActionGrammar:
    """The compiled action grammar of one ruleset in one language (plus English)."""

    def __init__(self, lex: Lexicon, ruleset: str) -> None:
        self.ruleset = ruleset
        self.specs: dict[str, ActionSpec] = ACTIONS.get(ruleset, {})
        self.acts: list[tuple[Act, re.Pattern]] = [
            (a, re.compile(_word(a.pattern), re.I)) for a in lex.actions.get(ruleset, ()) if a.verb in self.specs]
        w = lex.words
        self.words = w
        self.conj = re.compile(r"\s*(?:" + "|".join(_word(c) if c[-1].isalpha() else c for c in w.conj) + r")\s*", re.I)
        self.self_re = re.compile(r"(?:" + "|".join(sorted((_word(s) for s in w.self_words), key=len, reverse=True)) + r")", re.I)
        conn = list(w.connectors) + list(_ACTION_CONNECTORS)
        self.connector = re.compile(r"(?:" + "|".join(
            (c + r"(?=\s*\S)") if has_cjk(c) else (c + r"\s+") for c in sorted(set(conn), key=len, reverse=True)) + r")", re.I)
        self.joiner = re.compile(r"\s*(?:" + "|".join(_word(j) for j in w.building_joiner) + r")\s*", re.I) \
            if w.building_joiner else None
        self.defaults = _default_verbs(ruleset)

    # ------------------------------------------------------------------ roles

    def role_of(self, word: str) -> str | None:
        """A role id (or a building/title pseudo-role) for a prefix word, else None."""
        rid = canonical_role(self.ruleset, word)
        if rid:
            return rid
        key = " ".join(word.strip().lower().split())
        rid = self.words.roles.get(key)
        if rid in ROLES.get(self.ruleset, ()) or rid in PSEUDO_ROLE_VERBS:
            return rid
        return None

    # ------------------------------------------------------------------ lines

    def parse_line(self, line: str, index: NameIndex, sender: str | None, *, at: datetime | None = None,
                   cutoff: int = 80, margin: int = 10, verbs: frozenset[str] | None = None,
                   need_prefix: bool = False, anchored: bool = False, plain: bool = False) -> list[ParsedAction]:
        """Every action of one line, in order.

        `verbs` limits the verbs (day powers in posts); `need_prefix` reads only lines with a
        role prefix; `anchored` wants the first keyword at the start of the line; `plain` reads
        only the phrases marked `Act.plain` (a thread line with neither prefix nor bold).
        """
        role = None
        rest = line
        m = _PREFIX.match(line)
        if m:
            role = self.role_of(m.group("role"))
            if role:
                rest = line[m.end():]
        if need_prefix and role is None:
            return []
        out: list[ParsedAction] = []
        pos = 0
        while True:
            hit = self._next_verb(rest, pos, role, verbs, plain)
            if hit is None:
                if not out and role is not None and pos == 0 and not plain:
                    verb = self._default_for(role, verbs)
                    if verb:
                        out.append(self._build(verb, Act(verb, ""), rest, 0, 0, role, index, sender, line,
                                               at, cutoff, margin)[0])
                return out
            act, mt = hit
            if anchored and not out and rest[pos:mt.start()].strip(_SEP):
                return out
            verb = self._remap(act.verb, role)
            parsed, end = self._build(verb, act, rest, mt.end(), pos, role, index, sender, line, at, cutoff,
                                      margin, kw_start=mt.start())
            if parsed.problems and self._keyword_follows(rest, mt.end(), role, verbs, plain):
                # "Cambio vittima: sbraniamo X": a keyword used as a noun, and the real one follows;
                # its "target" is the next phrase, read on its own (no false unknown-name issue)
                pos = mt.end()
                continue
            out.append(parsed)
            pos = max(end, mt.end())

    def _next_verb(self, text: str, pos: int, role: str | None,
                   verbs: frozenset[str] | None, plain: bool = False) -> tuple[Act, re.Match] | None:
        best = None
        for order, (act, rx) in enumerate(self.acts):
            if act.prefix is not None and act.prefix != role:
                continue
            if plain and not act.plain:
                continue
            if verbs is not None and act.verb not in verbs:
                continue
            mt = rx.search(text, pos)
            if mt is None:
                continue
            key = (mt.start(), 0 if act.prefix else 1, -len(mt.group(0)), order)
            if best is None or key < best[0]:
                best = (key, act, mt)
        return (best[1], best[2]) if best else None

    def _keyword_follows(self, text: str, pos: int, role: str | None, verbs: frozenset[str] | None,
                         plain: bool) -> bool:
        """Whether another action keyword starts right after `pos` (separators skipped)."""
        start = len(text) - len(text[pos:].lstrip(_SEP))
        hit = self._next_verb(text, start, role, verbs, plain)
        return hit is not None and hit[1].start() == start

    def _default_for(self, role: str, verbs: frozenset[str] | None) -> str | None:
        verb = PSEUDO_ROLE_VERBS.get(role) or self.defaults.get(role)
        if verb is None or (verbs is not None and verb not in verbs) or verb not in self.specs:
            return None
        return verb

    def _remap(self, verb: str, role: str | None) -> str:
        # ON-N5/ON-N6: "Dief: wissel met X" is the Robber's swap, "Onruststoker: ruil X en Y" the Troublemaker's
        if verb in ("rob", "swap") and role in ("robber", "troublemaker") and "rob" in self.specs:
            return "rob" if role == "robber" else "swap"
        return verb

    # ------------------------------------------------------------------ targets

    def _build(self, verb: str, act: Act, text: str, pos: int, start: int, role: str | None, index: NameIndex,
               sender: str | None, line: str, at, cutoff, margin, kw_start: int = 0) -> tuple[ParsedAction, int]:
        spec = self.specs[verb]
        args = dict(act.args)
        hint = role if role in ROLES.get(self.ruleset, ()) else (spec.roles[0] if len(spec.roles) == 1 else None)
        tail = text[pos:]
        consumed = pos
        # ON-N4: the Seer's look at two centre cards instead of a player
        if verb == "check" and "check_centre" in self.specs:
            positions = self._positions(tail)
            if positions and not index.longest_at_start(self._clean(tail), at):
                verb, spec = "check_centre", self.specs["check_centre"]
                args["positions"] = ",".join(positions)
                return ParsedAction(verb, (), hint, tuple(sorted(args.items())), line.strip()), len(text)
        if "card" in spec.args and "card" not in args:
            card = self._lookup_word(tail, self.words.cards)
            if card:
                args["card"] = card
        if "mode" in spec.args:
            mode = self._lookup_word(tail, self.words.modes)
            if mode:
                args["mode"] = mode
        targets: list[str] = []
        problems: list[NameMatch] = []
        if spec.max_targets > 0:
            targets, problems, used = self._names(tail, spec.max_targets, index, sender, at, cutoff, margin,
                                                  optional=spec.min_targets == 0)
            consumed = pos + used
            head = text[start:kw_start].strip(_SEP)
            if act.before and not targets and head:
                # VIL-A-43 "X 报刀": the name stands before the keyword
                targets, problems, _ = self._names(head, spec.max_targets, index, sender, at, cutoff, margin,
                                                   optional=False)
        if "building" in spec.args:
            b = self._building(text[consumed:])
            if b:
                args["building"] = b
        missing = not problems and len(targets) < spec.min_targets
        return ParsedAction(verb, tuple(targets), hint, tuple(sorted(args.items())), line.strip(),
                            tuple(problems), missing), consumed

    def _clean(self, t: str) -> str:
        t = t.lstrip(_SEP)
        while True:
            m = self.connector.match(t)
            if not m:
                return t
            t = t[m.end():].lstrip(_SEP)

    def _names(self, text: str, limit: int, index: NameIndex, sender: str | None, at, cutoff, margin,
               optional: bool) -> tuple[list[str], list[NameMatch], int]:
        names: list[str] = []
        problems: list[NameMatch] = []
        rest = text
        after_conj = False
        while len(names) < limit:
            t = self._clean(rest)
            offset = len(rest) - len(t)
            if not t.strip():
                break
            hit = index.longest_at_start(t, at) or index.exact(t, at)
            sm = self.self_re.match(t)
            if sm and sender and (hit is None or hit.consumed < sm.end()):
                hit = NameMatch(t, "matched", sender, "self", 100.0, (sender,), sm.end())
            if hit is None:
                if (names and not after_conj) or (optional and not _looks_like_name(t)):
                    break
                hit = index.resolve(t, at=at, cutoff=cutoff, margin=margin)
            if not hit.ok:
                problems.append(hit)
                break
            names.append(hit.name)
            rest = rest[offset + hit.consumed:]
            cm = self.conj.match(rest)
            after_conj = bool(cm and cm.group(0).strip())
            if cm and cm.end() > 0:
                rest = rest[cm.end():]
            elif not rest.startswith((" ", "\u3000")) and not has_cjk(rest[:1]):
                break
        return names, problems, len(text) - len(rest)

    def _positions(self, text: str) -> list[str]:
        order = {"links": 0, "midden": 1, "rechts": 2}
        found = []
        for w in re.findall(r"[^\W\d_]+", fold(text)):
            p = self.words.positions.get(w)
            if p and p not in found:
                found.append(p)
        return sorted(found, key=order.get)

    def _lookup_word(self, text: str, table) -> str | None:
        f = fold(text)
        for key in sorted(table, key=len, reverse=True):
            k = fold(key)
            if has_cjk(k) or not k.isalnum():
                if k in f:
                    return table[key]
            elif re.search(r"(?<!\w)" + re.escape(k) + r"(?!\w)", f):
                return table[key]
        return None

    def _building(self, text: str) -> str | None:
        if self.joiner is not None:
            m = self.joiner.search(text)
            if m:
                text = text[m.end():]
        return self._lookup_word(text, self.words.buildings)


def _looks_like_name(t: str) -> bool:
    return bool(t.strip()) and len(t.split()) <= 3


#: Secondary choices a bare role prefix never implies (they need their own words).
_NOT_DEFAULT = frozenset({"check_centre", "withdraw_secret_vote", "thief_keep", "no_potion", "pass", "ww_kill",
                          "pack_submitter"})


def _default_verbs(ruleset: str) -> dict[str, str]:
    """A role's power when a PM gives only the role prefix ("Veggente: Marco"): its only main verb."""
    by_role: dict[str, list[str]] = {}
    for verb, spec in ACTIONS.get(ruleset, {}).items():
        if verb in _NOT_DEFAULT:
            continue
        for r in spec.roles:
            by_role.setdefault(r, []).append(verb)
    out = {r: vs[0] for r, vs in by_role.items() if len(vs) == 1}
    if ruleset == "village":
        out["white_werewolf"] = "ww_kill"  # VIL-N-09: "白狼：X" is the solo kill
    return out


@lru_cache(maxsize=None)
def action_grammar(language: str, ruleset: str) -> ActionGrammar:
    return ActionGrammar(lexicon(language), ruleset)
