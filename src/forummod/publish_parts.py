"""Posts that fit the forum: a draft longer than the forum accepts is published in numbered parts.

The limit is the site's `max_post_chars` / `max_pm_chars`, else the engine profile's default
(`adapters/*.toml`; 0 = none known). A draft over it is split at section boundaries: blocks
separated by a blank line, never inside a BBCode tag pair (`[quote]...[/quote]` spanning blank
lines), a Markdown list, quote or fenced code block. Each part starts with "(i/n)", carries its
own marker and is published exactly once and in order: before part i is sent, the store records
it as sending (a crash leaves the trace); after, its remote id. A later `publish` searches for a
part left "sending" by its marker before sending it again (or needs `--resend` where the forum
cannot be searched). The adapter's write path keeps the site's flood interval between parts.
When one section alone cannot fit, the GM is told before anything is sent (`drafts`,
`publish --dry-run`, `publish`): never a POST the forum refuses at the deadline.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Any

from forummod.draft_state import SEARCH_SCHEDULE, sent_not_recorded
from forummod.errors import ForumError, PublishError, SentNotRecorded, StoreError
from forummod.forum.base import ThreadRef
from forummod.forum.write import PublishUncertain
from forummod.records import frozen
from forummod.render.marker import embed_marker


#: Room kept for "(12/12)" and the blank line after it.
HEADER_ROOM = len("(99/99)\n\n")
_MARKER_ROOM = len(f"fm-999999-{'0' * 10}")

_BB_TAG = re.compile(r"\[(/?)([a-zA-Z]+)(?:=[^\]\n]*)?\]")
_MD_LIST = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")


class PostTooLong(PublishError):
    """A section of the draft is longer than the forum accepts even as a part of its own."""


@frozen
class Split:
    limit: int  # 0: no limit known
    parts: tuple[str, ...]  # one part: the draft fits (its text unchanged)

    @property
    def split(self) -> bool:
        return len(self.parts) > 1


def limit_for(ws: Any, draft: Any) -> int:
    """The longest post (or PM, for a PM draft) the draft's forum accepts; 0 = no limit known."""
    from forummod.forum.registry import find_profile

    site = ws.cfg.site_of(draft.game)
    pm = draft.target.startswith("pm:")
    own = site.max_pm_chars if pm else site.max_post_chars
    if own:
        return own
    prof = find_profile(site.engine, ws.cfg.workspace.adapters_dir)
    if prof is None:
        return 0
    return prof.max_pm_chars if pm else prof.max_post_chars


def marker_form_for(ws: Any, draft: Any) -> str:
    """The engine profile's marker form (issue 15: invisible on that engine) when the draft is in
    the engine's markup; "" (the markup's default form) otherwise or when the profile has none."""
    from forummod.forum.registry import find_profile

    site = ws.cfg.site_of(draft.game)
    prof = find_profile(site.engine, ws.cfg.workspace.adapters_dir)
    if prof is None or not prof.marker_form or prof.markup != draft.markup:
        return ""
    return prof.marker_form


def _bb_depth(text: str) -> int:
    """Open BBCode tag pairs left at the end of `text` (`[*]` has no closing tag)."""
    depth = 0
    for close, name in _BB_TAG.findall(text):
        if name == "*":
            continue
        depth += -1 if close else 1
    return depth


def _md_open(prev: str, nxt: str) -> bool:
    """`nxt` continues the Markdown list, quote or fenced code block that `prev` ends in."""
    if prev.count("```") % 2 or prev.count("~~~") % 2:
        return True
    last = prev.splitlines()[-1] if prev.strip() else ""
    first = nxt.splitlines()[0] if nxt.strip() else ""
    if last.lstrip().startswith(">") and first.lstrip().startswith(">"):
        return True
    in_list = any(_MD_LIST.match(ln) for ln in prev.splitlines())
    return in_list and bool(_MD_LIST.match(first) or first.startswith(("  ", "\t")))


def sections(body: str, markup: str) -> list[str]:
    """The draft's blocks, joined where a blank line falls inside a tag pair, list or quote."""
    out: list[str] = []
    for block in re.split(r"\n[ \t]*\n", body.strip("\n")):
        if not block.strip():
            continue
        if out and ((markup == "bbcode" and _bb_depth(out[-1]) > 0) or (markup == "markdown" and _md_open(out[-1], block))):
            out[-1] += "\n\n" + block
        else:
            out.append(block)
    return out


def split_body(body: str, markup: str, limit: int, *, marker: bool = True, form: str = "") -> Split:
    """`body` as it fits under `limit` (marker in `form` and part header included); PostTooLong
    names the section that cannot fit."""
    room = len(embed_marker("", "fm-" + "0" * _MARKER_ROOM, markup, form)) if marker else 0
    if not limit or len(body) + room <= limit:
        return Split(limit, (body,))
    budget = limit - room - HEADER_ROOM
    chunks: list[str] = []
    for i, sec in enumerate(sections(body, markup), 1):
        if len(sec) > budget:
            raise PostTooLong(f"section {i} ({sec.strip().splitlines()[0][:60]!r}...) is {len(sec)} characters; the "
                              f"forum accepts {limit} per post ({budget} once the part number and marker are in): "
                              "shorten it or split it with a blank line (outside quotes and lists)")
        if chunks and len(chunks[-1]) + 2 + len(sec) <= budget:
            chunks[-1] += "\n\n" + sec
        else:
            chunks.append(sec)
    n = len(chunks)
    return Split(limit, tuple(f"({i}/{n})\n\n{c}\n" for i, c in enumerate(chunks, 1)))


def plan(ws: Any, draft: Any) -> Split:
    """How `draft` will be published (for `drafts`, `publish --dry-run` and `publish`)."""
    game = ws.cfg.game(draft.game)
    return split_body(draft.body, draft.markup, limit_for(ws, draft), marker=game.publish.marker,
                      form=marker_form_for(ws, draft))


def describe(ws: Any, draft: Any) -> str:
    """One line for the GM: '' when the draft fits as one post."""
    try:
        s = plan(ws, draft)
    except PostTooLong as e:
        return f"too long for the forum: {e}"
    return f"published in {len(s.parts)} parts (the forum accepts {s.limit} characters)" if s.split else ""


# ------------------------------------------------------------------ publishing the parts


def _key(draft_id: int) -> str:
    return f"publication-parts:{draft_id}"


def _new_marker(draft_id: int) -> str:
    return f"fm-{draft_id}-{secrets.token_hex(5)}"


def publish_split(ws: Any, draft: Any, pub: Any, adapter: Any, split: Split, base_marker: str, *,
                  resend: bool = False) -> tuple[str | None, str | None]:
    """Send the parts not sent yet, in order, each exactly once; returns the first part's
    (remote id, url). The draft is recorded published once the last part is sent."""
    game = ws.cfg.game(draft.game)
    if pub is None:
        pub = ws.store.begin_publication(draft.id, draft.game, base_marker, ws.clock())
        if pub.marker != base_marker:
            raise PublishError(f"draft {draft.id} is being published by another run; nothing sent")
    state = ws.store.snapshot(draft.game, _key(draft.id)) or {}
    n = len(split.parts)
    if len(state.get("markers", ())) != n:
        if state.get("sent"):
            raise PublishError(f"draft {draft.id}: {len(state['sent'])} of its earlier {len(state['markers'])} parts "
                               f"are on the forum but the draft now splits into {n}; nothing sent")
        state = {"markers": [_new_marker(draft.id) for _ in range(n)], "sent": {}, "sending": {}}
    pm = draft.target.startswith("pm:")
    thread = None if pm else ThreadRef(game.thread, "game")

    def save() -> None:
        ws.store.remember(draft.game, _key(draft.id), state, ws.clock())

    for i, text in enumerate(split.parts):
        k = str(i)
        if k in state["sent"]:
            continue
        marker = state["markers"][i]
        if k in state["sending"]:  # an earlier run may have posted it: look before sending again
            found = _look(adapter, draft, marker, thread, datetime.fromisoformat(state["sending"][k]["at"]), resend, i, n)
            if found is not None:
                state["sent"][k] = [found.remote_id, found.url]
                save()
                continue
            since = datetime.fromisoformat(state["sending"][k]["at"])
            if state["sending"][k].get("uncertain") and not resend and ws.clock() - since < SEARCH_SCHEDULE[-1]:
                raise PublishError(f"draft {draft.id}: part {i + 1}/{n} got no clear answer at {since:%H:%M:%S} and "
                                   f"the forum does not show it yet (marker {marker}); forums apply such posts "
                                   f"late. Try again after {since + SEARCH_SCHEDULE[-1]:%H:%M:%S}, or "
                                   f"'forummod publish {draft.id} --resend' if you are sure it is not there")
        state["sending"][k] = {"at": ws.clock().isoformat()}
        save()
        body = embed_marker(text, marker, draft.markup, marker_form_for(ws, draft)) if game.publish.marker else text
        try:
            if pm:
                prefix = game.publish.pm_subject_prefix
                subject = f"{prefix} {draft.title}".strip() if prefix else draft.title
                res = adapter.send_pm(draft.target[3:], f"{subject} ({i + 1}/{n})", body, marker)
            else:
                res = adapter.reply(thread, body, marker)
        except Exception as e:  # recorded; the next publish looks for this part before sending it again
            uncertain = isinstance(e, PublishUncertain)
            state["sending"][k]["uncertain"] = uncertain
            save()
            ws.store.finish_publication(draft.id, ws.clock(), remote_id=None, url=None, state="failed",
                                        error=f"part {i + 1}/{n}: {e}"[:500])
            raise PublishError(f"draft {draft.id} ({draft.kind}): part {i + 1}/{n} was "
                               f"{'maybe posted' if uncertain else 'not confirmed'}: {e}. Parts before it are on "
                               f"the forum; 'forummod publish {draft.id}' looks for part {i + 1} (marker {marker}) "
                               "and sends the rest") from e
        state["sent"][k] = [res.remote_id, res.url]
        del state["sending"][k]
        try:
            save()
        except StoreError as e:  # this part is out; its record still says "sending": the next run looks for it
            raise _not_recorded(game, draft, marker, res.remote_id, res.url, e, f", part {i + 1}/{n},") from None
    first = state["sent"]["0"]
    try:
        ws.store.finish_publication(draft.id, ws.clock(), remote_id=first[0], url=first[1])
    except StoreError as e:
        raise _not_recorded(game, draft, state["markers"][0], first[0], first[1], e, f" (all {n} parts)") from None
    return first[0], first[1]


def _not_recorded(game: Any, draft: Any, marker: str, remote_id: Any, url: Any, e: StoreError,
                  part: str) -> SentNotRecorded:
    return sent_not_recorded(draft.id, draft.kind, marker if game.publish.marker else None, remote_id, url, e, part)


def _look(adapter: Any, draft: Any, marker: str, thread: Any, since: datetime, resend: bool, i: int, n: int) -> Any:
    try:
        return adapter.find_published(marker, thread, since=since)
    except (NotImplementedError, ForumError) as e:
        if resend:
            return None
        raise PublishError(f"draft {draft.id}: part {i + 1}/{n} may have reached the forum and it cannot be "
                           f"checked ({e}). Look for marker {marker}; if that part is not there, run "
                           f"'forummod publish {draft.id} --resend'") from None
