"""From stored posts and PMs to intents and issues: the public face of extraction.

Pure functions of (post or message, context): no I/O, no clock. Parsing never applies
anything — a vote for a dead player is still a `VoteIntent` (the engine rejects it with a
reason); what extraction cannot read with certainty becomes an `Issue` instead of a guess.

Issue codes (severity): ``gm_vote`` (info), ``non_player_vote`` (warning),
``vote_outside_game_thread`` (info), ``unknown_name`` / ``ambiguous_name`` /
``homoglyph_name`` (warning), ``multiple_votes`` (info), ``edited_vote`` (warning),
``vote_form_not_counted`` (info), ``no_lynch_not_counted`` (info), ``pm_vote_not_counted``
(info), ``missing_target`` (warning), ``unparsed_action`` (warning), ``non_player_message``
(warning).

The issue messages are worded here, in the game's language (`ctx.language`, set by
`gm_language` around each extraction; msgctxt `gm-issue`), and not when they are shown: every
reader (`tally`, `check`, the console, an alert) shows `Issue.message` as it is, like the
engine's notes. A saved result (`saved.py`) is therefore keyed by the language (it is part of
the context) and by the hash of that language's catalog, so a new translation rewords it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from datetime import datetime

from forummod.engine.catalog import ACTIONS
from forummod.i18n import gm_language, npgettext, pgettext
from forummod.extract.actions import ParsedAction, action_grammar
from forummod.extract.context import ExtractContext
from forummod.extract.names import NameIndex, NameMatch, name_index
from forummod.extract.normalize import INVISIBLE
from forummod.extract.text import PostText, post_text, read_post_text
from forummod.extract.votes import VoteAction, grammar
from forummod.model import (
    NO_LYNCH, ActionIntent, Extraction, Intent, Issue, Message, PlayerSlot, Post, PostVersion, Roster, Source,
    UnvoteIntent, VoteIntent,
)

#: Rule that says how votes are cast, per ruleset (cited on vote issues).
_VOTE_RULE = {"lupus-eresia": "LUP-V1", "witch-hunt": "WH-D7", "one-night": "ON-V1", "village": "VIL-V-2"}
#: Day powers never read from a thread post: secret by nature (LUP-R7, LUP-R8).
_NOT_IN_POSTS = frozenset({"secret_vote", "withdraw_secret_vote", "designate"})
_SUBJECT_RE = re.compile(r"^\s*(?:(?:re|r|aw|sv|antw|ответ|回复|回覆|答复)\s*(?:\[\d+\])?\s*[:：]\s*)+", re.I)


_INVISIBLE_CHARS = tuple(chr(c) for c in INVISIBLE)

# --------------------------------------------------------------------------- posts


def extract_post(post: Post, ctx: ExtractContext) -> Extraction:
    """Votes, unvotes (and bold or role-prefixed day powers) of one thread post.

    A pure function of (post, ctx), so results are remembered: a recount after a poll (the
    daemon's tick, `tally` then `check` in one process) reads again only the posts that are
    new or changed (`post_key`: every field, bodies by their content hash)."""
    memo = _memo_for(ctx)
    key = post_key(post)
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= _MEMO_POSTS:
            memo.clear()
        hit = memo[key] = _extract_post(post, ctx)
    return hit


def post_key(post: Post) -> tuple:
    """What extraction reads of a post, compactly: bodies by their content hash (hashing and
    comparing whole HTML bodies would cost more than the memo saves, and keep them in memory)."""
    vs = post.versions
    if len(vs) == 1:  # most posts (no generator)
        v = vs[0]
        versions: tuple = ((v.version, v.content_hash or v.html, v.edited_at, v.edited),)
    else:
        versions = tuple((v.version, v.content_hash or v.html, v.edited_at, v.edited) for v in vs)
    return (post.site, post.thread, post.post_id, post.number, post.author, post.author_id, post.created_at,
            post.url, versions)


#: Posts remembered for one game (a key and the extraction, no bodies): a 50,000-post game fits.
#: Other games' posts are dropped, oldest game first, when they hold more than half as many;
#: so a daemon keeps at most ~90,000 (~125 MB). `clear_caches()` forgets them all.
_MEMO_POSTS = 60_000
_MEMOS: dict[ExtractContext, dict[tuple, Extraction]] = {}  # oldest context first
_LAST_MEMO: list = [None, None]  # the last context object and its memo: one lookup per analysis


def _memo_for(ctx: ExtractContext) -> dict[tuple, Extraction]:
    if _LAST_MEMO[0] is ctx:
        return _LAST_MEMO[1]
    memo = _MEMOS.pop(ctx, None)
    if memo is None:
        memo = {}
    _MEMOS[ctx] = memo  # (re)inserted last: the most recently used
    total = sum(len(m) for m in _MEMOS.values())
    while total > _MEMO_POSTS // 2 and len(_MEMOS) > 1:  # room for this game's posts: drop the oldest games
        total -= len(_MEMOS.pop(next(iter(_MEMOS))))
    _LAST_MEMO[:] = [ctx, memo]
    return memo


_NOTHING = Extraction((), ())


def _extract_post(post: Post, ctx: ExtractContext) -> Extraction:
    versions = post.versions
    g = grammar(ctx.language)
    # every body is read the long way: the tree walk costs no more than a test on the parsed
    # tree that could skip it (issue 17), and a text without a keyword leaves `find` at once
    index = name_index(ctx.roster, ctx.language)
    if len(versions) == 1:  # most posts
        v = versions[0]
        pt = read_post_text(v.html)
        acts = g.find(pt, index, at=post.created_at, cutoff=ctx.fuzzy_cutoff, margin=ctx.fuzzy_margin)
        texts, read = {v.version: pt}, {v.version: acts}
    else:
        texts = {v.version: read_post_text(v.html) for v in versions}
        read = {v: g.find(pt, index, at=post.created_at, cutoff=ctx.fuzzy_cutoff,
                          margin=ctx.fuzzy_margin) for v, pt in texts.items()}
    if not any(read.values()) and not _day_verbs(ctx.ruleset):
        # no version holds a vote phrase and the thread holds no day power: no edit to report,
        # no author to check (what follows would find nothing; most posts end here)
        return _NOTHING
    with gm_language(ctx.language):  # (the issues are worded in the game's language)
        return _post_extraction(post, ctx, texts, read, index)


def _post_extraction(post: Post, ctx: ExtractContext, texts: dict[int, PostText], read: dict[int, list[VoteAction]],
                     index: NameIndex) -> Extraction:
    """The intents and issues of a post whose versions were read (`read`: their vote phrases)."""
    versions = post.versions
    chosen, edit_issues = _apply_edit_policy(post, ctx, read)
    acts = read[chosen.version] if chosen is not None else []
    forms = set(ctx.forms)
    counted = [a for a in acts if a.forms & forms]
    src = _post_source(post, ctx, chosen or versions[-1])
    gate = _gate(post, ctx, counted, src)
    if isinstance(gate, Issue) or gate is None:
        return Extraction((), (gate,) if gate else ())
    voter = gate.name
    issues = [replace(i, player=voter) for i in edit_issues]
    intents: list[Intent] = []
    for a in counted:
        r = _vote_to_intent(a, voter, post.created_at, src, ctx, "thread")
        if isinstance(r, Issue):
            issues.append(r)
        elif r is not None:
            intents.append(r)
    votes = [i for i in intents if isinstance(i, VoteIntent)]
    body = (chosen or versions[-1]).html
    if votes and not body.isascii() and any(ch in body for ch in _INVISIBLE_CHARS):  # (none is ASCII)
        # names are matched with invisible characters removed; a name padded with them may be
        # an impersonation attempt (issue 11): count it, but never silently
        issues.append(Issue("invisible_characters",
                            pgettext("gm-issue", "%(voter)s's post with a vote for %(targets)s contains invisible "
                                     "(zero-width) characters; they were ignored to read the name: check the vote "
                                     "was meant", voter=voter, targets=", ".join(_target_label(v.target) for v in votes)),
                            post.created_at, src, voter,
                            rule=_VOTE_RULE.get(ctx.ruleset), details=_quote(counted)))
    if len(votes) > 1:
        issues.append(Issue("multiple_votes",
                            npgettext("gm-issue", "%(voter)s cast %(n)s vote in one post; the last one counts: %(targets)s",
                                      "%(voter)s cast %(n)s votes in one post; the last one counts: %(targets)s",
                                      len(votes), voter=voter,
                                      targets=", ".join(_target_label(v.target) for v in votes)),
                            post.created_at, src, voter,
                            rule=_VOTE_RULE.get(ctx.ruleset), severity="info", details=_quote(counted)))
    # a phrase in a form the game does not count is never dropped silently when it reads as a
    # vote: a player named, no lynch, or a certain phrase ("Vote: Zorro" on its own line)
    skipped = [a for a in acts if not (a.forms & forms)
               and (a.no_lynch or (a.match is not None and a.match.ok) or a.strong)]
    if skipped:
        issues.append(Issue("vote_form_not_counted",
                            pgettext("gm-issue", "%(voter)s wrote a vote in a form this game does not count "
                                     "(%(forms)s; counted: %(counted)s): %(quoted)s", voter=voter,
                                     forms="/".join(sorted(skipped[0].forms)), counted=", ".join(ctx.forms),
                                     quoted=_quote(skipped)),
                            post.created_at, src, voter, rule=_VOTE_RULE.get(ctx.ruleset), severity="info",
                            details=_quote(skipped)))
    a_int, a_iss = _day_actions(post, texts[(chosen or versions[-1]).version], voter, ctx, index, src)
    intents += a_int
    issues += a_iss
    return Extraction(tuple(intents), tuple(issues))


def _gate(post: Post, ctx: ExtractContext, counted: list[VoteAction], src: Source) -> PlayerSlot | Issue | None:
    """The author's seat, or why this post gives no intents (an issue when it holds a vote)."""
    author = post.author
    # only a vote that reads as one (a player named, no lynch, an explicit unvote) is worth
    # reporting for a GM or a non-player: a GM's own "Vote Count:" header names nobody
    readable = [a for a in counted if _readable(a)]
    quoted = _quote(readable)
    if _is_gm(ctx.roster, author):
        return Issue("gm_vote", pgettext("gm-issue", "the GM %(gm)s posted a vote phrase: %(quoted)s", gm=author,
                                         quoted=quoted), post.created_at, src, author,
                     severity="info", details=quoted) if readable else None
    slot = _slot_for(ctx.roster, author, post.author_id)
    if slot is None:
        return Issue("non_player_vote", pgettext("gm-issue", "%(author)s is not a player of this game: %(quoted)s",
                                                 author=author, quoted=quoted), post.created_at, src,
                     author, details=quoted) if readable else None
    if ctx.thread_role != "game":
        return Issue("vote_outside_game_thread",
                     pgettext("gm-issue", "vote phrase in the %(thread)s thread, not counted: %(quoted)s",
                              thread=_thread_label(ctx.thread_role), quoted=quoted), post.created_at, src, slot.name, severity="info", details=quoted) if counted else None
    return slot


def _readable(a: VoteAction) -> bool:
    return a.no_lynch or (a.match is not None and a.match.ok) or (a.kind == "unvote" and a.strong)


def _apply_edit_policy(post: Post, ctx: ExtractContext,
                       read: dict[int, list[VoteAction]]) -> tuple[PostVersion | None, list[Issue]]:
    """The version whose votes count, and the ``edited_vote`` flag when an edit touched votes.

    latest: the newest version; original: the first stored one; void: none when the votes
    changed (or when the post shows an edit mark but its original was never stored).
    """
    versions = post.versions
    if len(versions) == 1 and not versions[0].shows_edit:  # most posts: one version, no edit mark
        return versions[0], []
    forms = set(ctx.forms)
    sig = {v.version: tuple(a.key() for a in read[v.version] if a.forms & forms) for v in versions}
    first, last = versions[0], versions[-1]
    changed = len(set(sig.values())) > 1
    unseen = len(versions) == 1 and last.shows_edit and bool(sig[last.version])
    if not (changed or unseen):
        return last, []
    src = _post_source(post, ctx, last)
    old = _quote([a for a in read[first.version] if a.forms & forms]) or pgettext("gm-issue", "(no vote)")
    new = _quote([a for a in read[last.version] if a.forms & forms]) or pgettext("gm-issue", "(no vote)")
    if changed:
        msg = pgettext("gm-issue", "%(author)s edited the votes of %(post)s: original %(old)s -> latest %(new)s; "
                       "policy '%(policy)s'", author=post.author, post=_source_label(src), old=old, new=new,
                       policy=ctx.edit_policy)
        details = pgettext("gm-issue", "original (v%(version)s): %(votes)s", version=first.version, votes=old) + "\n" \
            + pgettext("gm-issue", "latest (v%(version)s): %(votes)s", version=last.version, votes=new)
        if len(versions) > 2:
            details += "\n" + npgettext("gm-issue", "(%(n)s version stored)", "(%(n)s versions stored)", len(versions))
    else:
        when = pgettext("gm-issue", " (at %(time)s)", time=f"{last.edited_at:%Y-%m-%d %H:%M}") \
            if last.edited_at is not None else ""
        msg = pgettext("gm-issue", "%(author)s edited %(post)s%(when)s, which has a vote: %(new)s; the original "
                       "version was not stored; policy '%(policy)s'", author=post.author, post=_source_label(src),
                       when=when, new=new, policy=ctx.edit_policy)
        details = pgettext("gm-issue", "latest (v%(version)s): %(votes)s", version=last.version, votes=new) + "\n" \
            + pgettext("gm-issue", "original: not stored")
    issue = Issue("edited_vote", msg, post.created_at, src, post.author, details=details)
    if ctx.edit_policy == "void":
        return None, [issue]
    if ctx.edit_policy == "original":
        return first, [issue]
    return last, [issue]


def _vote_to_intent(a: VoteAction, voter: str, at: datetime, src: Source, ctx: ExtractContext,
                    channel: str) -> Intent | Issue | None:
    rule = _VOTE_RULE.get(ctx.ruleset)
    if a.kind == "unvote":
        target = a.match.name if a.match is not None and a.match.ok else None
        return UnvoteIntent(voter, at, src, target, a.raw, channel)
    if a.no_lynch:
        if not ctx.count_no_lynch:
            return Issue("no_lynch_not_counted",
                         pgettext("gm-issue", "%(voter)s voted for no lynch, which this game does not count: "
                                  "“%(raw)s”", voter=voter, raw=a.raw), at, src, voter, rule=rule, severity="info", details=a.raw)
        return VoteIntent(voter, NO_LYNCH, at, src, a.raw, channel)
    m = a.match
    if m is None:
        return None
    if m.ok:
        return VoteIntent(voter, m.name, at, src, a.raw, channel)
    if m.status == "unknown" and not a.strong:
        return None
    return _name_issue(m, a.raw, voter, at, src, rule)


def _name_issue(m: NameMatch, raw: str, who: str, at: datetime, src: Source, rule: str | None,
                verdict: str | None = None) -> Issue:
    """An unresolved name; `verdict` says what was not done with it (a vote is "not counted",
    an action "not read as check"), so a PM's sentence is not reported as a vote."""
    query = m.query.strip().rstrip(".,;:!?…。，；：！？")
    if verdict is None:
        verdict = pgettext("gm-issue", "not counted")
    names = ", ".join(m.candidates)
    if m.status == "homoglyph":
        return Issue("homoglyph_name",
                     pgettext("gm-issue", "“%(query)s” looks like %(names)s but uses look-alike letters from another "
                              "alphabet: %(verdict)s: “%(raw)s”", query=query, names=names, verdict=verdict, raw=raw),
                     at, src, who, m.candidates, rule, details=raw, spelling=query)
    if m.status == "ambiguous":
        return Issue("ambiguous_name", pgettext("gm-issue", "“%(query)s” could be %(names)s: %(verdict)s: “%(raw)s”",
                                                query=query, names=names, verdict=verdict, raw=raw),
                     at, src, who, m.candidates, rule, details=raw, spelling=query)
    hint = pgettext("gm-issue", " (closest: %(names)s)", names=names) if m.candidates else ""
    return Issue("unknown_name", pgettext("gm-issue", "“%(query)s” is not a player of this game%(hint)s: "
                                          "%(verdict)s: “%(raw)s”", query=query, hint=hint, verdict=verdict, raw=raw),
                 at, src, who, m.candidates, rule, details=raw, spelling=query)


def _day_actions(post: Post, pt: PostText, actor: str, ctx: ExtractContext, index: NameIndex,
                 src: Source) -> tuple[list[Intent], list[Issue]]:
    """Day powers written in the thread (village buildings, the Jager's shot, ON D9):
    only lines with a role or building prefix, or bold lines starting with the keyword."""
    verbs = _day_verbs(ctx.ruleset)
    if not verbs:
        return [], []
    ag = action_grammar(ctx.language, ctx.ruleset)
    parsed: list[ParsedAction] = []
    for s, e in pt.lines():
        parsed += ag.parse_line(pt.text[s:e], index, actor, at=post.created_at, cutoff=ctx.fuzzy_cutoff,
                                margin=ctx.fuzzy_margin, verbs=verbs, need_prefix=True)
    if not parsed:
        for b in pt.bold:
            piece = pt.text[b.start:b.end].strip()
            parsed += ag.parse_line(piece, index, actor, at=post.created_at, cutoff=ctx.fuzzy_cutoff,
                                    margin=ctx.fuzzy_margin, verbs=verbs, anchored=True)
    if not parsed:
        # VIL §6.8: the written forms (领主大人，请赦免我！, 禁止 X 和 Y 今天投票) are plain text; their
        # keywords are read anywhere in a line, and names they cannot resolve become issues
        for s, e in pt.lines():
            parsed += ag.parse_line(pt.text[s:e], index, actor, at=post.created_at, cutoff=ctx.fuzzy_cutoff,
                                    margin=ctx.fuzzy_margin, verbs=verbs, plain=True)
    return _actions_to_intents(parsed, actor, post.created_at, src, "thread")


@lru_cache(maxsize=None)
def _day_verbs(ruleset: str) -> frozenset[str]:
    """The day powers a thread post can hold in this ruleset (none in most)."""
    specs = ACTIONS.get(ruleset, {})
    return frozenset(v for v, s in specs.items() if s.when in ("day", "any") and v not in _NOT_IN_POSTS)


# --------------------------------------------------------------------------- messages


def extract_message(msg: Message, ctx: ExtractContext) -> Extraction:
    """Actions (and, when "pm" is among the forms, votes: ON-V1) of one PM to the GM."""
    with gm_language(ctx.language):
        return _extract_message(msg, ctx)


def _extract_message(msg: Message, ctx: ExtractContext) -> Extraction:
    if _is_gm(ctx.roster, msg.sender):
        return Extraction()
    index = name_index(ctx.roster, ctx.language)
    src = Source("message", msg.message_id, url=msg.url)
    slot = _slot_for(ctx.roster, msg.sender, msg.sender_id)
    pt = post_text(msg.body_html)
    text = pt.text
    if slot is None:
        return Extraction((), (Issue("non_player_message",
                                     pgettext("gm-issue", "PM from %(sender)s, who is not a player: “%(text)s”",
                                              sender=msg.sender, text=_cut(text)),
                                     msg.created_at, src, msg.sender, details=text),))
    sender = slot.name
    intents, issues = _read_pm_text(text, sender, msg, ctx, index, src)
    if not intents and not issues and msg.subject:
        subject = _SUBJECT_RE.sub("", msg.subject)
        intents, issues = _read_pm_text(subject, sender, msg, ctx, index, src)
    if not intents and not issues:
        issues.append(Issue("unparsed_action", pgettext("gm-issue", "PM from %(sender)s not understood as an action: "
                                                        "“%(text)s”", sender=sender, text=_cut(text)),
                            msg.created_at, src, sender, details=(msg.subject + "\n" + text).strip()))
    return Extraction(tuple(intents), tuple(issues))


def _read_pm_text(text: str, sender: str, msg: Message, ctx: ExtractContext, index: NameIndex,
                  src: Source) -> tuple[list[Intent], list[Issue]]:
    ag = action_grammar(ctx.language, ctx.ruleset)
    parsed: list[ParsedAction] = []
    action_lines: set[int] = set()
    for i, line in enumerate(text.split("\n")):
        found = ag.parse_line(line, index, sender, at=msg.created_at, cutoff=ctx.fuzzy_cutoff,
                              margin=ctx.fuzzy_margin)
        if found:
            action_lines.add(i)
            parsed += found
    intents, issues = _actions_to_intents(parsed, sender, msg.created_at, src, "pm")
    votes = grammar(ctx.language).find_in_lines(text, index, "pm", at=msg.created_at, cutoff=ctx.fuzzy_cutoff,
                                                margin=ctx.fuzzy_margin, skip=frozenset(action_lines))
    if "pm" in ctx.forms:
        for a in votes:
            r = _vote_to_intent(a, sender, msg.created_at, src, ctx, "pm")
            if isinstance(r, Issue):
                issues.append(r)
            elif r is not None:
                intents.append(r)
    else:
        readable = [a for a in votes if a.no_lynch or a.kind == "unvote" or (a.match is not None and a.match.ok)]
        if readable:
            issues.append(Issue("pm_vote_not_counted",
                                pgettext("gm-issue", "%(sender)s sent a vote by PM, which this game does not count "
                                         "(votes go in the thread): %(quoted)s", sender=sender,
                                         quoted=_quote(readable)), msg.created_at, src, sender,
                                rule=_VOTE_RULE.get(ctx.ruleset), severity="info", details=_quote(readable)))
    return intents, issues


def _actions_to_intents(parsed: list[ParsedAction], actor: str, at: datetime, src: Source,
                        channel: str) -> tuple[list[Intent], list[Issue]]:
    intents: list[Intent] = []
    issues: list[Issue] = []
    for p in parsed:
        if p.problems:
            verdict = pgettext("gm-issue", "not read as %(action)s", action=p.verb)
            issues += [_name_issue(m, p.raw, actor, at, src, None, verdict) for m in p.problems]
        elif p.missing:
            issues.append(Issue("missing_target",
                                pgettext("gm-issue", "%(actor)s: “%(raw)s” reads as %(action)s but names too few "
                                         "players", actor=actor, raw=p.raw, action=p.verb),
                                at, src, actor, details=p.raw))
        else:
            intents.append(ActionIntent(actor, p.verb, at, src, p.targets, p.role_hint, p.args, p.raw, channel))
    return intents, issues


# --------------------------------------------------------------------------- helpers


def _slot_for(roster: Roster, account: str, account_id: str | None) -> PlayerSlot | None:
    """The seat an account plays, remembered per roster (every post asks, for a few accounts)."""
    seats = _known(roster)[0]
    key = (account, account_id)
    if key not in seats:
        seats[key] = _find_slot(roster, account, account_id)
    return seats[key]


def _is_gm(roster: Roster, account: str) -> bool:
    """`roster.is_gm(account)`, remembered per roster like the seats."""
    gms = _known(roster)[1]
    if account not in gms:
        gms[account] = roster.is_gm(account)
    return gms[account]


_Known = tuple[dict[tuple[str, str | None], PlayerSlot | None], dict[str, bool]]
_KNOWN: dict[int, tuple[Roster, _Known]] = {}


def _known(roster: Roster) -> _Known:
    hit = _KNOWN.get(id(roster))
    if hit is None or hit[0] is not roster:
        if len(_KNOWN) >= 64:
            _KNOWN.clear()
        hit = _KNOWN[id(roster)] = (roster, ({}, {}))
    return hit[1]


def _find_slot(roster: Roster, account: str, account_id: str | None) -> PlayerSlot | None:
    if account_id:
        for p in roster.players:
            if p.user_id and p.user_id == account_id:
                return p
    return roster.slot_of_account(account)


def _post_source(post: Post, ctx: ExtractContext, v: PostVersion) -> Source:
    return Source("post", post.post_id, post.number, ctx.thread_role, post.url, v.version)


def _quote(acts: list[VoteAction]) -> str:
    return "; ".join(f"“{a.raw}”" for a in acts)


def _target_label(t: str) -> str:
    return pgettext("gm-issue", "no lynch") if t == NO_LYNCH else t


def _thread_label(role: str) -> str:
    """A thread's role as the GM reads it ("graveyard"; another role as it is configured)."""
    return pgettext("gm-issue", "graveyard") if role == "graveyard" else role


def _source_label(src: Source) -> str:
    """`Source.label()` in the GM's language ("post #12", "PM 7")."""
    if src.kind == "post":
        return pgettext("gm-issue", "post #%(number)s", number=src.number) if src.number is not None \
            else pgettext("gm-issue", "post %(id)s", id=src.id)
    if src.kind == "message":
        return pgettext("gm-issue", "PM %(id)s", id=src.id)
    return src.kind


def _cut(text: str, n: int = 300) -> str:
    t = " ".join(text.split())
    return t if len(t) <= n else t[: n - 1] + "…"
