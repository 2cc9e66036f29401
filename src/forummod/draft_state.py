"""The one state model of a draft's publication, shared by `drafts`, `draft`, `publish`, the
preview page and their JSON (issue 15, item 3).

A draft is, in this order of precedence:

- discarded: the GM (or the game moving on) dropped it; nothing to publish;
- published: the forum has it (a sent publication);
- sending / uncertain / failed: an attempt exists and its outcome decides what happens next
  (`publish` looks for the marker first; `--resend` only after the GM checked the forum);
- stale: a re-render from the posts and events known now differs from the render its text
  comes from (`publish` refuses unless `--stale-ok`);
- parts: fresh, but longer than the forum takes: it goes out as numbered parts;
- fresh: what `publish` would send is what a render would write now.

Every state that stops `publish` names the one flag that overrides it (`State.flag`), so the
CLI, the page and the JSON give the GM the same words. Pure: the caller reads the store and
renders; this module only decides.
"""

from __future__ import annotations

import difflib
import hashlib
import shlex
from dataclasses import replace
from datetime import timedelta
from enum import Enum
from typing import Any

from forummod.errors import SentNotRecorded
from forummod.records import frozen

#: When, after an uncertain send, the marker is searched for (by `publish`, `poll` and `tick`).
#: Nothing found at the last point rules the post out: a forum that applies a POST late does it
#: within seconds, and shows it in the thread or the sent folder by then. Whole drafts and
#: each part of a split one follow the same schedule.
SEARCH_SCHEDULE = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10))


def sent_not_recorded(draft_id: int, kind: str, marker: str | None, remote_id: str | None, url: str | None,
                      e: Exception, part: str = "") -> SentNotRecorded:
    """The post is on the forum, the store does not say so: what happened and what the GM does.

    The publication record stays "sending" (written before the send), so the next `publish`
    of the draft, and `poll`/`tick` from 30 s after the send, find the post by its marker
    and record it; nothing sends it a second time meanwhile."""
    where = url or (f"post id {remote_id}" if remote_id else "the forum")
    found = (f"finds the post by its marker {marker} and records it as published" if marker else
             "cannot recognise it (publish.marker is off): discard the draft with 'forummod discard "
             f"{draft_id}' once the store can be written")
    return SentNotRecorded(
        f"draft {draft_id} ({kind}){part} was posted to the forum at {where}, but not recorded: {e}. Do not post "
        f"it again. Once the store can be written, 'forummod publish {draft_id}' (or the next poll or tick) "
        f"{found}.", draft_id=draft_id, url=url, remote_id=remote_id)


class State(str, Enum):
    FRESH = "fresh"
    STALE = "stale"
    PARTS = "parts"
    SENDING = "sending"
    UNCERTAIN = "uncertain"
    FAILED = "failed"
    PUBLISHED = "published"
    DISCARDED = "discarded"

    @property
    def flag(self) -> str | None:
        """The `publish` flag that sends despite this state (None: nothing to override)."""
        return _FLAGS.get(self)


_FLAGS = {State.STALE: "--stale-ok", State.SENDING: "--resend", State.UNCERTAIN: "--resend"}


@frozen
class Source:
    """What a render was made from: the phase, the last post number and the last event id
    counted, and the hash of the text it produced."""

    phase: str
    last_post: int | None
    last_event: int | None
    render_hash: str

    def describe(self) -> str:
        posts = f"posts up to #{self.last_post}" if self.last_post is not None else "no posts"
        events = f"GM events up to #{self.last_event}" if self.last_event is not None else "no GM events"
        return f"{self.phase}, {posts}, {events}"

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "last_post": self.last_post, "last_event": self.last_event,
                "render_hash": self.render_hash}


@frozen
class Fresh:
    """A re-render of a stored draft now: its text (None when the draft no longer applies)."""

    title: str | None
    body: str | None
    source: Source


@frozen
class DraftState:
    draft_id: int
    kind: str
    state: State
    edited: bool
    rendered_from: Source | None  # the render the draft's text comes from
    fresh: Fresh | None  # the render now (None: not checked)
    publication: str | None  # the publication record's state, if any
    diff: str = ""  # stale: the stored text (the GM's edit, if edited) to the fresh render, a unified diff
    stored_hash: str = ""  # the stored text's own hash: what a draft from before render records is compared by
    phase: str = ""  # the draft's phase and slot: what `render_command` renders it again with
    slot: str = ""

    @property
    def stale(self) -> bool:
        return self.state == State.STALE

    @property
    def changed(self) -> str:
        """What changed since the draft was rendered, in the GM's words ("" when fresh)."""
        if self.fresh is None or not self._differs:
            return ""
        now = self.fresh.source
        if self.fresh.body is None:
            return f"it no longer applies (now {now.describe()})"
        was = ("an earlier render (not recorded: a draft from before this version)"
               if self.rendered_from is None or not self.rendered_from.render_hash else self.rendered_from.describe())
        return f"rendered from {was}; a render from {now.describe()} reads differently"

    @property
    def _differs(self) -> bool:
        f, was = self.fresh, self.rendered_from
        if f is None or was is None:
            # no record at all: a text no render wrote (a GM correction): nothing to compare with
            return False
        if not was.render_hash:
            # recorded without a hash: a draft from before renders were recorded (store migration
            # 6 marks them); its own text is all there is, so it is fresh only when a render now
            # writes exactly it
            return f.source.render_hash != self.stored_hash
        return f.source.render_hash != was.render_hash

    @property
    def gone(self) -> bool:
        """A render now writes no such draft at all: it no longer applies."""
        return self.fresh is not None and self.fresh.body is None and self._differs

    def refusal(self) -> str | None:
        """Why `publish` must not send this draft as it stands, naming the flag (None: send)."""
        if self.state != State.STALE:
            return None
        if self.gone:  # nothing renders it again: advice to re-render would lead nowhere
            from forummod.render.models import KINDS

            now = f" ('{render_command(self.kind, '', '')}' drafts what applies now)" if self.kind in KINDS else ""
            edit = (f"No command renders it again: discard it with 'forummod discard {self.draft_id}'{now}.")
        elif self.edited:
            edit = (f"Your edit is kept; 'forummod drafts --show {self.draft_id}' shows it against the fresh "
                    f"render, and '{render_command(self.kind, self.phase, self.slot)} --revert' replaces it by "
                    "that render.")
        else:
            edit = f"Render it again with '{render_command(self.kind, self.phase, self.slot)}'."
        return "\n".join([f"draft {self.draft_id} ({self.kind}) is stale: {self.changed}.", *self._changed_lines(),
                          f"{edit} To publish it as it is: 'forummod publish {self.draft_id} {State.STALE.flag}'"])

    def _changed_lines(self, limit: int = 10) -> list[str]:
        lines = [ln for ln in self.diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
        said = {"-": "  draft: ", "+": "  now:   "}
        more = [f"  … {len(lines) - limit} more changed lines"] if len(lines) > limit else []
        return [said[ln[0]] + ln[1:] for ln in lines[:limit]] + more

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state.value, "flag": self.state.flag, "edited": self.edited,
                "publication": self.publication, "changed": self.changed or None,
                "rendered_from": self.rendered_from.to_json() if self.rendered_from else None,
                "fresh_from": self.fresh.source.to_json() if self.fresh else None,
                "diff": self.diff or None}


#: Phases and slots that `forummod draft` takes no option for (render.plan's SETUP, END, THREAD, GM).
_NO_PHASE, _NO_SLOT = ("setup", "end", ""), ("thread", "gm", "")


def render_command(kind: str, phase: str, slot: str) -> str:
    """The `forummod draft` command that renders a draft of this kind, phase and slot again
    (the draft desk stores each draft by them); phase and slot "" for the kind's draft now."""
    words = ["forummod draft", kind]
    if phase not in _NO_PHASE:
        words.append(f"--phase {phase}")
    if slot not in _NO_SLOT and not slot.endswith(":correction"):
        words.append(f"--to {shlex.quote(slot)}")
    return " ".join(words)


def content_key(title: str, body: str) -> str:
    """The hash a render is known by (over title and text)."""
    return hashlib.sha256((title + "\0" + body).encode("utf-8", "surrogatepass")).hexdigest()


def draft_state(draft: Any, publication: Any, rendered_from: Source | None, fresh: Fresh | None,
                *, parts: int = 1) -> DraftState:
    """Decide a draft's state from its store rows, its recorded render and a render now.

    `parts`: how many posts the draft needs on its forum (more than one: `State.PARTS`).
    """
    pub = publication.state if publication is not None else None
    edited = bool(draft.edited_by_gm)
    stored = content_key(draft.title, draft.body)
    base = DraftState(draft.id, draft.kind, State.FRESH, edited, rendered_from, fresh, pub, stored_hash=stored,
                      phase=draft.phase, slot=getattr(draft, "slot", ""))
    if draft.status == "discarded":
        return _with(base, State.DISCARDED)
    if draft.status == "published" or pub == "sent":
        return _with(base, State.PUBLISHED)
    if pub in ("sending", "uncertain", "failed"):
        return _with(base, State(pub))
    if base._differs:
        diff = "".join(difflib.unified_diff(_lines(draft.body), _lines(fresh.body or ""),
                                            "your edit" if edited else "stored draft", "fresh render"))
        return replace(base, state=State.STALE, diff=diff)
    return _with(base, State.PARTS if parts > 1 else State.FRESH)


def _lines(text: str) -> list[str]:
    return [ln + "\n" for ln in text.splitlines()]


def _with(s: DraftState, state: State) -> DraftState:
    return replace(s, state=state)


@frozen
class Position:
    """Where a game stands, for ordering its drafts: its phase now ("setup" before the first)
    and whether it is over (an outcome, or the game switched off in the config)."""

    phase: str
    finished: bool = False


#: Posts that announce what happened (the lynch, the night's private results): they must reach
#: the players, so an open one stays with what the GM does now, whatever phase the game is in,
#: until it is sent or discarded (issue 28, item 8).
ANNOUNCING = frozenset({"day_end", "night_result"})
#: A correction draft's slot ends so (`corrections.SUFFIX`); it is as current as what it corrects.
CORRECTION = ":correction"


def past_reason(kind: str, phase: str, status: str, pos: Position | None, slot: str = "") -> str:
    """Why an open draft belongs to the past ("" when it is part of what the GM does now).

    Such a draft is folded away on the page and published only from the unfolded part: a vote
    count of yesterday or a dawn post of a finished game is rarely what the GM means to send.
    Role PMs stay current (a replacement's comes in any phase); so do the closing post of a day
    and a night's result PMs until sent or discarded, and correction drafts; the game-over post,
    with the closing post and results of the phase the game ended in, is the current step of a
    finished game."""
    if status != "draft" or pos is None:
        return ""
    correction = slot.endswith(CORRECTION)
    if pos.finished:
        last = kind in ANNOUNCING and phase == pos.phase
        return "" if kind == "game_over" or correction or last else "the game is over"
    if kind in ("role_pm", "game_over") or kind in ANNOUNCING or correction or not pos.phase or phase == pos.phase:
        return ""
    return f"of {phase}; the game is in {pos.phase} now"


#: The order of what the GM does around a phase change, the README's "what you do next": the
#: count, then closing the day, the night's results by PM, the game-over post (after the lynch or
#: the night that ended the game), role PMs (before the opening post that says they were sent),
#: the new day, prods; their own notes last (read, never posted).
NEXT_STEP = ("votecount", "day_end", "night_result", "game_over", "role_pm", "day_start", "prod", "warnings")


def next_step(kind: str, state: str, gm_only: bool, draft_id: int, slot: str = "") -> tuple[int, int, int]:
    """Sort key of the open drafts of now, shared by the page, the console and `drafts`: the
    vote count first, then a send to settle (an uncertain or failed attempt), then corrections
    of what was published, then the posts and PMs in `NEXT_STEP` order (earlier phases first
    within a kind: by id), the GM's notes last."""
    rank = NEXT_STEP.index(kind) if kind in NEXT_STEP else len(NEXT_STEP) - 1
    if kind == "votecount":
        return (0, 0, draft_id)
    if state in ("uncertain", "sending", "failed"):
        return (1, rank, draft_id)
    if slot.endswith(CORRECTION):
        return (2, rank, draft_id)
    return (4 if gm_only else 3, rank, draft_id)


def desk_group(kind: str, phase: str, status: str, pos: Position | None, slot: str = "") -> int:
    """0: what the GM does now; 1: open but of the past (folded away); 2: published or discarded."""
    if status != "draft":
        return 2
    return 1 if past_reason(kind, phase, status, pos, slot) else 0
