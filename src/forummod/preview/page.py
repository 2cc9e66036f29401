"""The preview page's HTML (pure): drafts as the forum would show them, raw markup, buttons.

Per game, the vote count first, then the drafts in the order the GM acts on them
(`next_step`); open drafts of an earlier phase or a finished game are folded away (a closed
`<details>`), and only their unfolded form can publish them (it carries `folded_ok`, which the
server asks for). Everything works without JavaScript: Publish opens a confirmation (a
`<details>`), buttons are plain forms posting to the same origin with the access token, the
raw text sits in a readonly textarea, "Preview" re-renders the page with the unsaved edit.
The one small script (`DRAFTS_JS`, inline; the CSP allows exactly it by its hash,
`SCRIPT_SOURCE`, so no other script can run) adds the copy buttons and the live preview.
`drafts_section` is the drafts part alone, for a page that embeds it (the console).
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Mapping, Sequence

from jinja2 import Environment
from markupsafe import Markup

from forummod.draft_state import NEXT_STEP, Position, past_reason  # noqa: F401
from forummod.draft_state import next_step as desk_next_step
from forummod.preview.html import render_markup
from forummod.records import frozen
from forummod.render.catalog import catalog
from forummod.render.models import GM_KINDS


@frozen
class DraftCard:
    """One draft on the page."""

    id: int
    game: str
    kind: str
    phase: str
    status: str  # draft, published, discarded
    target: str
    title: str
    markup: str
    lang: str
    body: str
    html: Markup  # sanitized rendering
    publication: str  # "" or sending / sent / failed
    remote: str  # remote id or URL once published
    error: str
    edited: bool
    updated: str
    publishable: bool
    engine_markup: str = ""  # what the game's forum renders ("" = not known, e.g. an archive)
    state: str = "fresh"  # draft_state.State: fresh, stale, parts, sending, uncertain, failed, published, ...
    changed: str = ""  # stale: what changed since the draft was rendered
    diff: str = ""  # stale: the stored text (the GM's edit) to the fresh render, a unified diff
    url: str = ""  # the published post or PM, once the forum gave its link
    past: str = ""  # why an open draft belongs to the past (earlier phase, finished game): folded away
    game_phase: str = ""  # the game's phase now ("" not known)
    outgoing: str = ""  # exactly what the forum gets, marker included, once an attempt recorded its marker
    by_hand: str = ""  # when the GM took the text to post it by hand ("" not)
    slot: str = ""  # the store key's slot ("thread", a player, "thread:correction"...)

    @property
    def markup_mismatch(self) -> bool:
        return bool(self.engine_markup) and self.engine_markup != self.markup

    @property
    def shown_markup(self) -> str:
        """The markup the rendering uses: the forum's when the draft's does not match it."""
        return self.engine_markup if self.markup_mismatch else self.markup

    @property
    def gm_only(self) -> bool:
        return self.kind in GM_KINDS or self.target == "gm"

    @property
    def todo(self) -> str:
        """What the GM does next with this draft, in a few words (English)."""
        return todo_words(self, words("en"))


def todo_words(c: DraftCard, T: "Words") -> str:
    """What the GM does next with draft `c`, in the words of `T` ("" for a draft that is done)."""
    if c.status != "draft":
        return ""
    if c.gm_only:
        return T("Read: your notes, never posted")
    if c.by_hand and c.state in ("uncertain", "sending"):
        return T("Posted by hand? The next poll finds it by its marker")
    if c.state in ("uncertain", "sending"):
        return T("Settle: the last send may have reached the forum")
    if c.state == "failed":
        return T("Retry: the last send failed")
    where = T("PM to %(to)s", to=c.target[3:]) if c.target.startswith("pm:") else T("reply in the game thread")
    if c.state == "stale":
        return T("Check, then send: stale since rendered (%(where)s)", where=where)
    return T("Send (%(where)s)", where=where)


def state_name(c: DraftCard, T: "Words") -> str:
    """The draft's `draft_state.State` in the words of `T`."""
    names = {"fresh": T("fresh"), "stale": T("stale"), "parts": T("parts"), "sending": T("sending"),
             "uncertain": T("uncertain"), "failed": T("failed"), "published": T("published"),
             "discarded": T("discarded")}
    return names.get(c.state, c.state)


def past_words(c: DraftCard, T: "Words") -> str:
    """Why `c` belongs to the past (`draft_state.past_reason`'s English), in the words of `T`."""
    if c.past == "the game is over":
        return T("the game is over")
    if c.past and c.game_phase:
        return T("of %(phase)s; the game is in %(now)s now", phase=c.phase, now=c.game_phase)
    return c.past


#: The msgctxt of the drafts section's own words in the catalogs (msgid: the English text).
CONTEXT = "preview"


@frozen
class Words:
    """The drafts section's words in `lang`: `T("Discard")`, `T("updated %(at)s", at=...)`."""

    lang: str

    def __call__(self, text: str, **params: object) -> str:
        out = catalog(self.lang).gettext(text, CONTEXT) if self.lang != "en" else text
        return out % params if params else out


def words(lang: str) -> Words:
    return Words(lang or "en")


def next_step(c: DraftCard) -> tuple[int, int, int]:
    """Sort key of the open drafts of now (`draft_state.next_step`, the order `drafts` lists too)."""
    return desk_next_step(c.kind, c.state, c.gm_only, c.id, c.slot)


def engine_markup(cfg: Any, game_id: str) -> str:
    """The markup the game's forum renders, from its engine profile ("" when unknown)."""
    from forummod.forum.registry import find_profile

    try:
        site = cfg.site_of(game_id)
    except Exception:  # a draft of a game no longer in the config
        return ""
    prof = find_profile(site.engine, cfg.workspace.adapters_dir)
    return prof.markup if prof is not None else ""


def card(row: Any, pub: Any, engine: str = "", st: Any = None, position: Position | None = None,
         outgoing: str = "", by_hand: str = "") -> DraftCard:
    """`engine`: the forum's markup. When the draft's differs, the card shows what the forum
    would really display: the draft's text read as the forum's markup (raw tags and all).
    `st`: the draft's `draft_state.DraftState` (the page shows the same state as `drafts`).
    `position`: where the game stands (folds away drafts of the past). `outgoing`: the text
    with its marker, once an attempt recorded one; `by_hand`: when the GM took it by hand."""
    if row.kind in GM_KINDS or row.target == "gm":
        engine = ""  # the GM's own notes are never posted: shown as written
    shown = engine if engine and engine != row.markup else row.markup
    return DraftCard(
        id=row.id, game=row.game, kind=row.kind, phase=row.phase, status=row.status, target=row.target,
        title=row.title, markup=row.markup, lang=row.lang, body=row.body,
        html=Markup(render_markup(row.body, shown)),
        publication=pub.state if pub is not None else "", remote=(pub.url or pub.remote_id or "") if pub else "",
        error=(pub.error or "") if pub is not None else "", edited=row.edited_by_gm,
        updated=f"{row.updated_at:%Y-%m-%d %H:%M}",
        publishable=row.status == "draft" and row.kind not in GM_KINDS and row.target != "gm",
        engine_markup=engine,
        state=st.state.value if st is not None else row.status, changed=st.changed if st is not None else "",
        diff=st.diff if st is not None else "", url=(pub.url or "") if pub is not None else "",
        past=past_reason(row.kind, row.phase, row.status, position, getattr(row, "slot", "")),
        game_phase=position.phase if position is not None else "", outgoing=outgoing, by_hand=by_hand,
        slot=getattr(row, "slot", ""))



_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em;color:#222;background:#f6f6f3}
h1{font-size:1.4em} h2{margin-top:2em;border-bottom:1px solid #ccc}
.flash{background:#fff6d6;border:1px solid #e0c96a;padding:.5em 1em}
.flash.error{background:#fde2e1;border-color:#d88}
.draft{background:#fff;border:1px solid #ccc;border-radius:6px;margin:1em 0;padding:.8em 1em}
.draft.published{opacity:.75} .draft.discarded{opacity:.5}
.draft.stale{border-color:#c60} .stale-note{background:#fff0e0;border:1px solid #c60;padding:.4em .8em}
.todo{font-weight:bold;color:#1a5e3a} .past-note{background:#eef;border:1px solid #99b;padding:.4em .8em}
pre.diff{background:#f4f4f4;font:13px/1.4 ui-monospace,monospace;padding:.5em;white-space:pre-wrap;overflow-wrap:anywhere}
code{overflow-wrap:anywhere;word-break:break-word}
.meta{color:#595959;font-size:.9em} .status{font-weight:bold}
.rendered{border-left:3px solid #88a;padding:.3em 1em;margin:.6em 0;overflow-wrap:anywhere}
.rendered.live{border-left-color:#1e7a4f;background:#fafffa}
.mismatch{background:#fde2e1;border:1px solid #d88;padding:.4em .8em}
.rendered pre,.rendered code{white-space:pre-wrap;overflow-wrap:anywhere} .rendered table{max-width:100%}
.rendered blockquote{border-left:3px solid #ccc;margin:.5em 0;padding-left:.8em;color:#444}
textarea{width:100%;box-sizing:border-box;font:13px/1.4 ui-monospace,monospace;min-height:8em}
form.inline{display:inline} button{margin:.2em .4em .2em 0}
button.publish{background:#1e7a4f;color:#fff;border:0;padding:.4em 1em;border-radius:4px}
details.inline{display:inline-block} summary.publish{display:inline-block;cursor:pointer;background:#1e7a4f;color:#fff;padding:.4em 1em;border-radius:4px;margin:.2em .4em .2em 0}
button.discard,button.copy,button.plain{background:#eee;color:#222;border:1px solid #888;padding:.4em 1em;border-radius:4px}
details.folded{border:1px dashed #999;border-radius:6px;margin:1em 0;padding:.3em .8em;background:#efefea}
details.folded>summary{cursor:pointer;font-weight:bold;color:#333}
.copied{color:#1a5e3a;font-size:.9em}
@media (max-width:600px){body{padding:.5em} .draft{padding:.6em} summary.publish,button{display:inline-block;margin:.3em .3em .3em 0}}
"""

_DRAFTS = """
{% macro draft_card(c, folded) %}
<section class="draft {{ c.status }} {{ c.state }}" id="draft-{{ c.id }}" data-id="{{ c.id }}" data-kind="{{ c.kind }}"
 data-status="{{ c.status }}" data-publication="{{ c.publication }}" data-state="{{ c.state }}"{% if c.past %} data-past="1"{% endif %}>
<div class="meta">#{{ c.id }} · <b>{{ c.kind }}</b> · {{ c.phase }} · {{ T('to %(target)s', target=c.target) }} · {{ c.markup }}/{{ c.lang }}
 · <span class="status">{{ state(c) }}</span>
 · {{ T('updated %(at)s', at=c.updated) }}{% if c.edited %} · {{ T('edited by you') }}{% endif %}</div>
<h3 class="title">{{ c.title }}</h3>
{% if c.todo %}<p class="todo" id="todo-{{ c.id }}">{{ todo(c) }}</p>{% endif %}
{% if c.past %}<p class="past-note">{{ T('This draft is %(why)s: check it is what you mean to send.', why=past(c)) }}</p>{% endif %}
{% if c.remote %}<p class="meta">{{ T('Published:') }} {% if c.url.startswith("http") %}<a href="{{ c.url }}" class="published-link" rel="noreferrer">{{ c.url }}</a>{% else %}{{ c.remote }}{% endif %}</p>{% endif %}
{% if c.state == "stale" %}<div class="stale-note" id="stale-{{ c.id }}"><p><b>{{ T('Stale:') }}</b> {{ c.changed }}.
{% if c.edited %}{{ T('Your edit is kept; here it is against the fresh render:') }}{% else %}{{ T('What a render now would change:') }}{% endif %}</p>
<pre class="diff">{{ c.diff }}</pre></div>{% endif %}
{% if c.by_hand and c.state in ("uncertain", "sending") %}<p class="stale-note" id="taken-{{ c.id }}">{{ T('You took this text at %(at)s to post it by hand.', at=c.by_hand) }}
{{ T('Once it is posted, the next poll finds it by its marker and records it as published. Not posted after all? Publish it from here: forummod looks for it on the forum first and sends it only if it is not there.') }}</p>
{% elif c.error %}<p class="flash error">{{ T('Last attempt: %(error)s', error=c.error) }}</p>{% endif %}
{% if c.gm_only %}<p class="meta">{{ T('Your notes: never posted.') }}</p>{% endif %}
{% if c.markup_mismatch %}<p class="mismatch" id="mismatch-{{ c.id }}">{{ T("This draft is %(markup)s but the forum renders %(engine)s: below is what the forum would show, raw tags and all. Set the game's markup and re-render before publishing:", markup=c.markup, engine=c.engine_markup) }}
<code>markup = "{{ c.engine_markup }}"</code></p>{% endif %}
<div class="rendered" data-markup="{{ c.shown_markup }}">{{ c.html }}</div>
{{ raw_text(c, folded) }}
{% if c.status == "draft" %}
{% if c.publishable %}
<details class="confirm inline"><summary class="publish" id="ask-publish-{{ c.id }}">{{ T('Publish…') }}</summary>
<p>{% if c.target.startswith("pm:") %}{{ T('Post draft #%(id)s as a PM to %(to)s?', id=c.id, to=c.target[3:]) }}{% else %}{{ T('Post draft #%(id)s as a reply in the game thread?', id=c.id) }}{% endif %}
 {{ T('It is sent once and cannot be taken back from here.') }}{% if c.state == "stale" %} {{ T('It is stale: see above.') }}{% endif %}{% if c.past %} {{ T('It is %(why)s.', why=past(c)) }}{% endif %}</p>
<form method="post" action="/drafts/{{ c.id }}/publish" class="inline"><input type="hidden" name="token" value="{{ token }}">
{% if c.state == "stale" %}<input type="hidden" name="stale_ok" value="1">{% endif %}
{% if folded %}<input type="hidden" name="folded_ok" value="1">{% endif %}
{% if c.state in ("uncertain", "sending") and c.by_hand %}<input type="hidden" name="resend" value="1">{% endif %}
<button type="submit" class="publish" id="publish-{{ c.id }}">{% if c.state == "stale" %}{{ T('Yes, publish this stale text anyway') }}{% else %}{{ T('Yes, publish') }}{% endif %}{% if c.target.startswith("pm:") %} {{ T('as PM to %(to)s', to=c.target[3:]) }}{% else %} {{ T('in the thread') }}{% endif %}{% if c.by_hand and c.state in ("uncertain", "sending") %} {{ T('(it is not on the forum)') }}{% endif %}</button></form>
</details>
{% endif %}
<form method="post" action="/drafts/{{ c.id }}/discard" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" class="discard" id="discard-{{ c.id }}">{{ T('Discard') }}</button></form>
{{ editor(c) }}
{% if c.edited %}<form method="post" action="/drafts/{{ c.id }}/revert" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" class="discard" id="revert-{{ c.id }}">{{ T('Revert to the fresh render (drops your edit)') }}</button></form>{% endif %}
{% endif %}
</section>
{% endmacro %}

{% macro raw_text(c, folded) %}
<details class="raw-box"{% if c.id == opened %} open{% endif %}><summary>{% if c.gm_only %}{{ T('Raw %(markup)s text', markup=c.markup) }}{% else %}{{ T('Raw %(markup)s text to post by hand', markup=c.markup) }}{% endif %}</summary>
{% if c.outgoing %}
<p class="meta" id="marker-note-{{ c.id }}">{{ T('This is exactly what the forum gets, its marker on the last line. Paste it as it is: the marker is how the next poll recognises the post and records this draft as published.') }}{% if c.target.startswith("pm:") %}
 {{ T('Send it as a PM to %(to)s, subject “%(subject)s”.', to=c.target[3:], subject=c.title) }}{% endif %}</p>
<textarea class="raw" id="raw-{{ c.id }}" readonly rows="10" aria-label="{{ T('Raw text of draft #%(id)s with its marker', id=c.id) }}">{{ c.outgoing }}</textarea>
<button type="button" class="copy" id="copy-{{ c.id }}" data-copy="raw-{{ c.id }}" hidden>{{ T('Copy the text') }}</button>
<span class="copied" id="copied-{{ c.id }}" role="status"></span>
{% else %}
<textarea class="raw" id="raw-{{ c.id }}" readonly rows="10" aria-label="{{ T('Raw text of draft #%(id)s', id=c.id) }}">{{ c.body }}</textarea>
{% if c.status == "draft" and c.publishable %}
<p class="meta">{{ T('To post it by hand, take it with its marker (the last line): forummod records that you post it, and the next poll recognises the post by the marker and marks this draft published; it is then never sent twice.') }}</p>
<form method="post" action="/drafts/{{ c.id }}/by-hand" class="inline by-hand" data-raw="raw-{{ c.id }}" data-status="copied-{{ c.id }}">
<input type="hidden" name="token" value="{{ token }}">
{% if c.state == "stale" %}<input type="hidden" name="stale_ok" value="1">{% endif %}
{% if folded %}<input type="hidden" name="folded_ok" value="1">{% endif %}
<button type="submit" class="copy" id="by-hand-{{ c.id }}">{% if c.state == "stale" %}{{ T('Post this stale text by hand anyway: copy it with its marker') }}{% else %}{{ T('Copy with its marker to post by hand') }}{% endif %}</button></form>
<span class="copied" id="copied-{{ c.id }}" role="status"></span>
{% else %}
<button type="button" class="copy" id="copy-{{ c.id }}" data-copy="raw-{{ c.id }}" hidden>{{ T('Copy the text') }}</button>
<span class="copied" id="copied-{{ c.id }}" role="status"></span>
{% endif %}
{% endif %}
</details>
{% endmacro %}

{% macro editor(c) %}
{% set unsaved = previewing.get(c.id) %}
<details class="edit"{% if unsaved is not none %} open{% endif %}><summary>{{ T('Edit') }}</summary>
<form method="post" action="/drafts/{{ c.id }}/edit"><input type="hidden" name="token" value="{{ token }}">
<label for="body-{{ c.id }}">{{ T('Your version of draft #%(id)s (%(markup)s)', id=c.id, markup=c.markup) }}</label>
<textarea name="body" id="body-{{ c.id }}" class="edit" rows="14" data-preview="live-{{ c.id }}"
 data-url="/drafts/{{ c.id }}/preview">{{ c.body if unsaved is none else unsaved[0] }}</textarea><br>
<button type="submit" id="save-{{ c.id }}">{{ T('Save my version (later polls will not overwrite it)') }}</button>
<button type="submit" class="plain" id="preview-{{ c.id }}" formaction="/drafts/{{ c.id }}/preview">{{ T('Preview (not saved)') }}</button>
</form>
<p class="meta">{% if unsaved is not none %}<b>{{ T('Preview of your unsaved edit:') }}</b> {{ T('Save to keep it.') }}{% else %}{{ T('As the forum will show it (updates while you type):') }}{% endif %}</p>
<div class="rendered live" id="live-{{ c.id }}" data-markup="{{ c.shown_markup }}" aria-live="polite">{{ c.html if unsaved is none else unsaved[1] }}</div>
</details>
{% endmacro %}

<div class="drafts" id="drafts" data-copied="{{ T('Copied.') }}" data-selected="{{ T('Selected: press Ctrl+C (Cmd+C) to copy.') }}"
 data-copied-marker="{{ T('Copied with its marker: paste it as it is. The next poll records the post.') }}"
 data-not-recorded="{{ T('Not recorded: %(why)s', why='') }}">
{% if not groups %}<p id="empty">{{ T('No drafts yet. Poll the game, then re-render the drafts (or run this command):') }}
<code>forummod draft all</code></p>{% endif %}
{% for g in groups %}
<section class="game" id="game-{{ g.game }}">
<h2>{{ g.game }}{% if g.phase %} · {{ g.phase }}{% endif %}{% if g.finished %} · {{ T('game over') }}{% endif %}</h2>
{% for c in g.now %}{{ draft_card(c, False) }}{% endfor %}
{% if not g.now %}<p class="meta" id="nothing-now-{{ g.game }}">{{ T('Nothing to send now.') }}</p>{% endif %}
{% if g.past %}
<details class="folded past" id="past-{{ g.game }}"><summary>{% if g.finished %}{{ T('Drafts of the finished game: %(n)s open — open this to see or publish them', n=g.past|length) }}{% else %}{{ T('Drafts of earlier phases: %(n)s open — open this to see or publish them', n=g.past|length) }}{% endif %}</summary>
{% for c in g.past %}{{ draft_card(c, True) }}{% endfor %}
</details>
{% endif %}
{% if g.done %}
<details class="folded done" id="done-{{ g.game }}"><summary>{{ T('Published and discarded: %(n)s', n=g.done|length) }}</summary>
{% for c in g.done %}{{ draft_card(c, True) }}{% endfor %}
</details>
{% endif %}
</section>
{% endfor %}
</div>
"""

_PAGE = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>forummod — {{ T('drafts') }}</title>
<style>{{ style }}</style></head>
<body>
<h1>forummod — {{ T('drafts') }}</h1>
{% if message %}<p class="flash{% if error %} error{% endif %}" id="flash" role="status">{{ message }}{% if link %}
<a href="{{ link }}" id="flash-link" rel="noreferrer">{{ T('Open the published post') }}</a>{% endif %}</p>{% endif %}
<form method="post" action="/refresh" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" id="refresh">{{ T('Re-render drafts from the latest poll') }}</button></form>
{{ drafts }}
{{ script }}
</body></html>
"""

_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
_DRAFTS_TEMPLATE = _ENV.from_string(_DRAFTS)
_TEMPLATE = _ENV.from_string(_PAGE)

#: The page's one script, inline and allowed by its hash (`SCRIPT_SOURCE` in the CSP): no
#: other script runs, injected or not. It only adds to what the forms already do without it:
#: copy buttons, and a live rendering of an edit through the same-origin preview route.
DRAFTS_JS = r"""(function () {
  "use strict";
  function say(id, text) { var el = document.getElementById(id); if (el) { el.textContent = text; } }
  var root = document.getElementById("drafts");
  function word(key, english) { return (root && root.dataset[key]) || english; }  // the page's language
  function copy(text, area) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      area.focus(); area.select();
      try { if (document.execCommand("copy")) { resolve(); } else { reject(new Error("copy refused")); } }
      catch (e) { reject(e); }
    });
  }
  function post(url, form, extra) {
    var data = new URLSearchParams(new FormData(form));
    Object.keys(extra).forEach(function (k) { data.set(k, extra[k]); });
    return fetch(url, {method: "POST", body: data, credentials: "same-origin"}).then(function (r) {
      return r.text().then(function (t) { if (!r.ok) { throw new Error(t || r.statusText); } return t; });
    });
  }
  function manual(area, status) {  // the clipboard refused: the text is selected, the GM copies it
    area.closest("details").open = true; area.focus(); area.select();
    say(status, word("selected", "Selected: press Ctrl+C (Cmd+C) to copy."));
  }
  document.querySelectorAll("button.copy[data-copy]").forEach(function (b) {
    var area = document.getElementById(b.dataset.copy), status = "copied-" + b.id.slice(5);
    b.hidden = false;
    b.addEventListener("click", function () {
      copy(area.value, area).then(function () { say(status, word("copied", "Copied.")); }, function () { manual(area, status); });
    });
  });
  document.querySelectorAll("form.by-hand").forEach(function (f) {
    f.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var area = document.getElementById(f.dataset.raw);
      post(f.action, f, {js: "1"}).then(function (text) {
        area.value = text;
        return copy(text, area).then(function () {
          say(f.dataset.status, word("copiedMarker", "Copied with its marker: paste it as it is. The next poll records the post."));
        }, function () { manual(area, f.dataset.status); });
      }).catch(function (e) { say(f.dataset.status, word("notRecorded", "Not recorded: ") + e.message); });
    });
  });
  document.querySelectorAll("textarea.edit[data-preview]").forEach(function (area) {
    var out = document.getElementById(area.dataset.preview), timer = null, seq = 0;
    function render() {
      var n = ++seq;
      post(area.dataset.url, area.form, {js: "1"}).then(function (html) {
        if (n === seq) { out.innerHTML = html; out.dataset.state = "live"; }  // sanitized by the server
      }, function () { if (n === seq) { out.dataset.state = "error"; } });
    }
    area.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(render, 250); });
  });
})();
"""


@frozen
class GameGroup:
    """One game's drafts on the page: what the GM does now (in order), the past, what is done."""

    game: str
    phase: str
    finished: bool
    now: tuple[DraftCard, ...]
    past: tuple[DraftCard, ...]
    done: tuple[DraftCard, ...]


def group_cards(cards: Sequence[DraftCard], positions: Mapping[str, Position] | None = None) -> list[GameGroup]:
    """Per game (sorted by id): open drafts of now by `next_step`, then the past and the done ones
    (newest first)."""
    by_game: dict[str, list[DraftCard]] = {}
    for c in cards:
        by_game.setdefault(c.game, []).append(c)
    out = []
    for game, cs in sorted(by_game.items()):
        pos = (positions or {}).get(game)
        phase = pos.phase if pos is not None else next((c.game_phase for c in cs if c.game_phase), "")
        now = sorted((c for c in cs if c.status == "draft" and not c.past), key=next_step)
        past = sorted((c for c in cs if c.status == "draft" and c.past), key=lambda c: -c.id)
        done = sorted((c for c in cs if c.status != "draft"), key=lambda c: -c.id)
        finished = pos.finished if pos is not None else any(c.past == "the game is over" for c in cs)
        out.append(GameGroup(game, phase, finished, tuple(now), tuple(past), tuple(done)))
    return out


def drafts_section(cards: Sequence[DraftCard], token: str, *, positions: Mapping[str, Position] | None = None,
                   previewing: Mapping[int, tuple[str, str]] | None = None, opened: int | None = None,
                   lang: str = "en") -> Markup:
    """The drafts part of a page (for the preview page and the console): per game, the vote
    count first, then what the GM does next; the past and the done folded away. `previewing`:
    draft id → (unsaved text, its rendering), shown in that card's open editor (the no-JS
    Preview). `opened`: a card whose raw text box starts open. Needs `script_tag()` on
    the page (, allowed by `SCRIPT_SOURCE`) for the copy buttons and the live
    preview; everything works without. `lang`: the language of its words (the game's)."""
    shown = {k: (text, Markup(html)) for k, (text, html) in (previewing or {}).items()}  # sanitized already
    T = words(lang)
    return Markup(_DRAFTS_TEMPLATE.render(groups=group_cards(cards, positions), token=token,
                                          gm_kinds=GM_KINDS, previewing=shown, opened=opened, T=T,
                                          todo=lambda c: todo_words(c, T), past=lambda c: past_words(c, T),
                                          state=lambda c: state_name(c, T)))


def script_source(code: str) -> str:
    """The CSP source allowing exactly this inline script ('sha256-...')."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


SCRIPT_SOURCE = script_source(DRAFTS_JS)


def script_tag() -> Markup:
    """The `<script>` element of `DRAFTS_JS`, at the end of the page (the CSP allows it by `SCRIPT_SOURCE`)."""
    return Markup("<script>" + DRAFTS_JS + "</script>")


def render_page(cards: Sequence[DraftCard], token: str, message: str = "", error: bool = False,
                link: str = "", *, positions: Mapping[str, Position] | None = None,
                previewing: Mapping[int, tuple[str, str]] | None = None, opened: int | None = None,
                lang: str = "en") -> str:
    """The whole preview page: the flash message, the refresh button and `drafts_section`."""
    return _TEMPLATE.render(style=Markup(_STYLE), drafts=drafts_section(cards, token, positions=positions,
                                                                         previewing=previewing, opened=opened,
                                                                         lang=lang),
                            script=script_tag(), token=token, message=message, error=error, lang=lang,
                            T=words(lang),
                            link=link if link.startswith(("http://", "https://")) else "")
