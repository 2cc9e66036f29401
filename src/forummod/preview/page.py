"""The preview page's HTML (pure): drafts as the forum would show them, raw markup, buttons.

No JavaScript at all: Publish opens a confirmation (a `<details>`), buttons are plain forms posting to the same origin with the access
token, so the page works under a CSP that allows no script, and anything a sanitizer
missed still could not run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from jinja2 import Environment
from markupsafe import Markup

from forummod.preview.html import render_markup
from forummod.render.models import GM_KINDS


@dataclass(frozen=True)
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

    @property
    def markup_mismatch(self) -> bool:
        return bool(self.engine_markup) and self.engine_markup != self.markup


def engine_markup(cfg: Any, game_id: str) -> str:
    """The markup the game's forum renders, from its engine profile ("" when unknown)."""
    from forummod.forum.registry import profiles

    try:
        site = cfg.site_of(game_id)
    except Exception:  # a draft of a game no longer in the config
        return ""
    prof = profiles(cfg.workspace.adapters_dir).get(site.engine)
    return prof.markup if prof is not None else ""


def card(row: Any, pub: Any, engine: str = "", st: Any = None) -> DraftCard:
    """`engine`: the forum's markup. When the draft's differs, the card shows what the forum
    would really display: the draft's text read as the forum's markup (raw tags and all).
    `st`: the draft's `draft_state.DraftState` (the page shows the same state as `drafts`)."""
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
        diff=st.diff if st is not None else "", url=(pub.url or "") if pub is not None else "")


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>forummod — drafts</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em;color:#222;background:#f6f6f3}
h1{font-size:1.4em} h2{margin-top:2em;border-bottom:1px solid #ccc}
.flash{background:#fff6d6;border:1px solid #e0c96a;padding:.5em 1em}
.flash.error{background:#fde2e1;border-color:#d88}
.draft{background:#fff;border:1px solid #ccc;border-radius:6px;margin:1em 0;padding:.8em 1em}
.draft.published{opacity:.75} .draft.discarded{opacity:.5}
.draft.stale{border-color:#c60} .stale-note{background:#fff0e0;border:1px solid #c60;padding:.4em .8em}
pre.diff{background:#f4f4f4;font:13px/1.4 ui-monospace,monospace;overflow-x:auto;padding:.5em}
.meta{color:#666;font-size:.9em} .status{font-weight:bold}
.rendered{border-left:3px solid #88a;padding:.3em 1em;margin:.6em 0;overflow-wrap:anywhere}
.mismatch{background:#fde2e1;border:1px solid #d88;padding:.4em .8em}
.rendered blockquote{border-left:3px solid #ccc;margin:.5em 0;padding-left:.8em;color:#444}
textarea{width:100%;font:13px/1.4 ui-monospace,monospace;min-height:8em}
form.inline{display:inline} button{margin:.2em .4em .2em 0}
button.publish{background:#2a7;color:#fff;border:0;padding:.4em 1em;border-radius:4px}
details.inline{display:inline-block} summary.publish{display:inline-block;cursor:pointer;background:#2a7;color:#fff;padding:.4em 1em;border-radius:4px;margin:.2em .4em .2em 0}
button.discard{background:#eee;border:1px solid #aaa;padding:.4em 1em;border-radius:4px}
</style></head>
<body>
<h1>forummod — drafts</h1>
{% if message %}<p class="flash{% if error %} error{% endif %}" id="flash">{{ message }}{% if link %}
<a href="{{ link }}" id="flash-link" rel="noreferrer">Open the published post</a>{% endif %}</p>{% endif %}
<form method="post" action="/refresh" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" id="refresh">Re-render drafts from the latest poll</button></form>
{% if not cards %}<p id="empty">No drafts yet. Poll the game, then press the button above
(or run <code>forummod draft all</code>).</p>{% endif %}
{% for game, group in groups %}
<h2>{{ game }}</h2>
{% for c in group %}
<section class="draft {{ c.status }} {{ c.state }}" id="draft-{{ c.id }}" data-id="{{ c.id }}" data-kind="{{ c.kind }}"
 data-status="{{ c.status }}" data-publication="{{ c.publication }}" data-state="{{ c.state }}">
<div class="meta">#{{ c.id }} · <b>{{ c.kind }}</b> · {{ c.phase }} · to {{ c.target }} · {{ c.markup }}/{{ c.lang }}
 · <span class="status">{{ c.state }}</span>
 · updated {{ c.updated }}{% if c.edited %} · edited by you{% endif %}</div>
<h3 class="title">{{ c.title }}</h3>
{% if c.remote %}<p class="meta">Published: {% if c.url.startswith("http") %}<a href="{{ c.url }}" class="published-link" rel="noreferrer">{{ c.url }}</a>{% else %}{{ c.remote }}{% endif %}</p>{% endif %}
{% if c.state == "stale" %}<div class="stale-note" id="stale-{{ c.id }}"><p><b>Stale:</b> {{ c.changed }}.
{% if c.edited %}Your edit is kept; here it is against the fresh render:{% else %}What a render now would change:{% endif %}</p>
<pre class="diff">{{ c.diff }}</pre></div>{% endif %}
{% if c.error %}<p class="flash error">Last attempt: {{ c.error }}</p>{% endif %}
{% if c.kind in gm_kinds %}<p class="meta">Your notes: never posted.</p>{% endif %}
{% if c.markup_mismatch %}<p class="mismatch" id="mismatch-{{ c.id }}">This draft is {{ c.markup }} but the forum
renders {{ c.engine_markup }}: below is what the forum would show, raw tags and all. Set the game's
<code>markup = "{{ c.engine_markup }}"</code> and re-render before publishing.</p>{% endif %}
<div class="rendered" data-markup="{{ c.engine_markup if c.markup_mismatch else c.markup }}">{{ c.html }}</div>
<details><summary>Raw {{ c.markup }} to copy</summary>
<textarea class="raw" readonly rows="10">{{ c.body }}</textarea></details>
{% if c.status == "draft" %}
{% if c.publishable %}
<details class="confirm inline"><summary class="publish" id="ask-publish-{{ c.id }}">Publish…</summary>
<p>Post draft #{{ c.id }} {% if c.target.startswith("pm:") %}as a PM to {{ c.target[3:] }}{% else %}as a reply in the game thread{% endif %}?
It is sent once and cannot be taken back from here.{% if c.state == "stale" %} It is <b>stale</b>: see above.{% endif %}</p>
<form method="post" action="/drafts/{{ c.id }}/publish" class="inline"><input type="hidden" name="token" value="{{ token }}">
{% if c.state == "stale" %}<input type="hidden" name="stale_ok" value="1">{% endif %}
<button type="submit" class="publish" id="publish-{{ c.id }}">Yes, publish{% if c.state == "stale" %} this stale text anyway{% endif %}{% if c.target.startswith("pm:") %} as PM to {{ c.target[3:] }}{% else %} in the thread{% endif %}</button></form>
</details>
{% endif %}
<form method="post" action="/drafts/{{ c.id }}/discard" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" class="discard" id="discard-{{ c.id }}">Discard</button></form>
<details><summary>Edit</summary>
<form method="post" action="/drafts/{{ c.id }}/edit"><input type="hidden" name="token" value="{{ token }}">
<textarea name="body" rows="14">{{ c.body }}</textarea><br>
<button type="submit" id="save-{{ c.id }}">Save my version (later polls will not overwrite it)</button></form>
</details>
{% if c.edited %}<form method="post" action="/drafts/{{ c.id }}/revert" class="inline"><input type="hidden" name="token" value="{{ token }}">
<button type="submit" class="discard" id="revert-{{ c.id }}">Revert to the fresh render (drops your edit)</button></form>{% endif %}
{% endif %}
</section>
{% endfor %}
{% endfor %}
</body></html>
"""

_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
_TEMPLATE = _ENV.from_string(_PAGE)


def render_page(cards: Sequence[DraftCard], token: str, message: str = "", error: bool = False,
                link: str = "") -> str:
    """Open drafts first (newest first), then what was published or discarded, per game."""
    order = {"draft": 0, "published": 1, "discarded": 2}
    groups: dict[str, list[DraftCard]] = {}
    for c in sorted(cards, key=lambda c: (order.get(c.status, 3), -c.id)):
        groups.setdefault(c.game, []).append(c)
    return _TEMPLATE.render(cards=cards, groups=sorted(groups.items()), token=token, message=message, error=error,
                            gm_kinds=GM_KINDS, link=link if link.startswith(("http://", "https://")) else "")
