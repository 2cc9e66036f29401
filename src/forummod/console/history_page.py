"""The console's vote-history page and player page (issue 32), as HTML (pure).

No script: the wagon charts are inline SVG, the tables plain HTML, so both pages read the same
with JavaScript off (the console's CSP allows only the countdown's script, which these pages do
not need). Words in the game's language: the drafts' own catalog entries where the sentence is
theirs ("Vote Count — %(phase)s"), else msgctxt `history`.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from forummod.console.page import CSS
from forummod.i18n import gm_language, npgettext, pgettext, pgettext_noop
from forummod.render.wagon_chart import chart_svg

EXTRA_CSS = """
.wagon-chart{display:block;width:100%;height:auto;background:#fff}
figure.chart{max-width:640px;overflow-x:auto;margin:.5em 0}.chart svg{min-width:400px}
.scroll{overflow-x:auto} tr.refused td{color:#6b3a00;background:#fff7e8} tr.hammer td{background:#fbe3e3;font-weight:bold}
.views a,.players a{margin-right:.6em;display:inline-block} .views a[aria-current]{font-weight:bold}
.post{background:#fff;border:1px solid #d0d0d0;border-radius:6px;padding:.4em .8em;margin:.5em 0}
.post pre{white-space:pre-wrap;font:inherit;margin:.3em 0;overflow-wrap:anywhere}
.post.graveyard{background:#f3f3f3} .state-missed td{background:#fde2e1} .state-open td{background:#fff6d6}
"""


def W(msgid: str, **params: Any) -> str:
    """A word of these pages in the current language (msgctxt `history`)."""
    return pgettext("history", msgid, **params)


def drafts_sentence(lang: str, msgid: str, **params: Any) -> str:
    """A sentence the drafts already have ("Vote Count — %(phase)s"), from their catalog entry."""
    from forummod.render.catalog import catalog

    text = msgid if lang == "en" else catalog(lang).gettext(msgid)
    return text % params if params else text


_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)

_HEAD = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ heading }} — {{ title }}</title><style>{{ css }}</style></head>
<body>
<p class="meta"><a href="/?token={{ token }}&amp;game={{ game|urlencode }}" id="back">← {{ W('Back to the console') }}</a></p>
<h1>{{ heading }} · {{ title }}</h1>
<p class="players" id="players"><b>{{ W('Players:') }}</b> {% for p in players %}<a href="/player?token={{ token }}&amp;game={{ game|urlencode }}&amp;name={{ p|urlencode }}">{{ p }}</a> {% endfor %}</p>
"""

_HISTORY = _ENV.from_string(_HEAD + """
<p class="views" id="views">{% for pub, label in ((false, W('GM view')), (true, W('Thread view (no secret vote, no hidden weight)'))) %}
<a href="/history?token={{ token }}&amp;game={{ page.game|urlencode }}{% if pub %}&amp;view=public{% endif %}"{% if pub == page.public %} aria-current="page"{% endif %}>{{ label }}</a>{% endfor %}</p>
{% if not page.days %}<p>{{ W('No day has begun yet.') }}</p>{% endif %}
{% for d in page.days %}
<section class="box" id="day-{{ d.phase }}" aria-labelledby="day-{{ d.phase }}-h">
<h2 id="day-{{ d.phase }}-h">{{ vote_count(d.label) }}{% if d.open %} · {{ W('still open') }}{% endif %}</h2>
{% if d.final %}<ul class="final">{% for w in d.final %}<li><b>{{ w.name }}</b> ({{ w.total }}): {{ ', '.join(w.voters) }}</li>{% endfor %}</ul>{% endif %}
{% if d.majority %}<p>{{ W('Majority: %(majority)s.', majority=d.majority) }}</p>{% endif %}
{% if d.hammer %}<p class="hammer-line"><b>{{ d.hammer }}</b></p>{% endif %}
<figure class="chart">{{ svg(d) }}</figure>
{% if page.png %}<p><a href="/history/chart.png?token={{ token }}&amp;game={{ page.game|urlencode }}&amp;day={{ d.phase }}{% if page.public %}&amp;view=public{% endif %}" download="{{ page.game }}-{{ d.phase }}{% if page.public %}-public{% endif %}.png" id="png-{{ d.phase }}">{{ W('Chart as PNG (to attach to a post)') }}</a></p>{% endif %}
<h3>{{ W('Every vote change') }}</h3>
{% if not d.rows %}<p>{{ W('No vote yet.') }}</p>{% else %}
<div class="scroll"><table class="history"><thead><tr><th>{{ W('Time') }}</th><th>{{ W('Post') }}</th><th>{{ W('Voter') }}</th><th>{{ W('From → to') }}</th><th>{{ W('Weight') }}</th><th>{{ W('Notes') }}</th></tr></thead><tbody>
{% for r in d.rows %}<tr class="{% if not r.counted %}refused{% endif %}{% if r.hammer %} hammer{% endif %}" data-codes="{{ ' '.join(r.codes) }}"><td>{{ r.time }}</td>
<td>{% if r.link and r.link.url %}<a href="{{ r.link.url }}" rel="noreferrer">{{ r.link.label }}</a>{% elif r.link %}{{ r.link.label }}{% endif %}</td>
<td>{{ r.voter }}</td><td>{{ r.before }} → {{ r.after }}</td><td>{{ r.weight }}</td><td>{{ '; '.join(r.notes) }}</td></tr>
{% endfor %}</tbody></table></div>{% endif %}
</section>
{% endfor %}
</body></html>
""")

_PLAYER = _ENV.from_string(_HEAD + """
<p id="fate">{{ page.role }} — {% if page.alive %}{{ W('alive') }}{% else %}{{ W('dead: %(when)s', when=page.death) }}{% endif %}{% if page.replaced %} · {{ W('replacing %(names)s', names=', '.join(page.replaced)) }}{% endif %}</p>
<section class="box" id="counts" aria-labelledby="counts-h"><h2 id="counts-h">{{ W('Posts per phase') }}</h2>
<div class="scroll"><table><thead><tr>{% for ph in page.phases %}<th>{{ ph }}</th>{% endfor %}<th>{{ W('In the game') }}</th></tr></thead>
<tbody><tr>{% for n in page.counts %}<td>{{ n }}</td>{% endfor %}<td><b>{{ page.total }}</b></td></tr></tbody></table></div>
</section>
<section class="box" id="activity" aria-labelledby="activity-h"><h2 id="activity-h">{{ W('Activity blocks of %(hours)s h', hours=page.block_hours) }}</h2>
<p class="meta">{% if page.activity_on %}{{ W('The activity rule is on: a post in every block.') }}{% else %}{{ W('The activity rule is off for this game: the blocks are for information.') }}{% endif %}</p>
{% if not page.blocks %}<p>{{ W('No block yet.') }}</p>{% else %}<div class="scroll"><table><tbody>
{% for b in page.blocks %}<tr class="state-{{ b.state }}" data-state="{{ b.state }}"><td>{{ b.label }}</td><td>{{ b.span }}</td><td>{{ posts(b.posts) }}</td><td>{{ block_state(b.state) }}</td></tr>
{% endfor %}</tbody></table></div>{% endif %}
</section>
<section class="box" id="votes" aria-labelledby="votes-h"><h2 id="votes-h">{{ W('Votes') }}</h2>
{% if not page.votes %}<p>{{ W('No vote yet.') }}</p>{% else %}<div class="scroll"><table><tbody>
{% for v in page.votes %}{% set r = v.row %}<tr class="{% if not r.counted %}refused{% endif %}{% if r.hammer %} hammer{% endif %}"><td>{{ v.phase }}</td><td>{{ r.time }}</td>
<td>{% if r.link and r.link.url %}<a href="{{ r.link.url }}" rel="noreferrer">{{ r.link.label }}</a>{% elif r.link %}{{ r.link.label }}{% endif %}</td>
<td>{{ r.before }} → {{ r.after }}{% if r.weight %} ×{{ r.weight }}{% endif %}</td><td>{{ '; '.join(r.notes) }}</td></tr>
{% endfor %}</tbody></table></div>{% endif %}
</section>
<section class="box" id="actions" aria-labelledby="actions-h"><h2 id="actions-h">{{ W('Night actions by PM (GM only)') }}</h2>
{% if not page.actions %}<p>{{ W('No night action.') }}</p>{% else %}<div class="scroll"><table><tbody>
{% for x in page.actions %}<tr class="action {{ x.status }}"><td>{{ x.phase }}</td><td>{{ x.time }}</td><td>{{ x.verb }}{% if x.targets %} → {{ ', '.join(x.targets) }}{% endif %}</td>
<td>{{ action_state(x.status) }}{% if x.reason %}: {{ x.reason }}{% endif %}</td><td class="meta">{{ x.source }}</td></tr>
{% endfor %}</tbody></table></div>{% endif %}
</section>
<section id="posts" aria-labelledby="posts-h"><h2 id="posts-h">{{ W('Posts, in order (%(n)s)', n=page.posts|length) }}</h2>
{% if not page.posts %}<p>{{ W('No post yet.') }}</p>{% endif %}
{% for p in page.posts %}<article class="post {{ p.thread }}" id="post-{{ p.thread }}-{{ p.number }}">
<p class="meta">{% if p.url %}<a href="{{ p.url }}" rel="noreferrer">#{{ p.number }}</a>{% else %}#{{ p.number }}{% endif %} · {{ p.time }} · {{ p.phase }}{% if p.thread != 'game' %} · {{ p.thread }}{% endif %}{% if p.edited %} · <b>{{ W('edited %(when)s', when=p.edited) }}</b>{% endif %}</p>
<pre>{{ p.text }}</pre>
{% if p.earlier %}<details><summary>{{ W('Earlier versions (%(n)s)', n=p.earlier|length) }}</summary>{% for seen, text in p.earlier %}<p class="meta">{{ W('seen %(when)s', when=seen) }}</p><pre>{{ text }}</pre>{% endfor %}</details>{% endif %}
</article>{% endfor %}
</section>
</body></html>
""")


#: Every word of these pages (msgctxt `history`), so the catalog tools find the ones the
#: templates above ask for with W('...'); a test holds the two lists together.
MESSAGES = (
    pgettext_noop("history", "Activity blocks of %(hours)s h"),
    pgettext_noop("history", "Back to the console"),
    pgettext_noop("history", "Chart as PNG (to attach to a post)"),
    pgettext_noop("history", "Earlier versions (%(n)s)"),
    pgettext_noop("history", "Every vote change"),
    pgettext_noop("history", "From → to"),
    pgettext_noop("history", "GM view"),
    pgettext_noop("history", "In the game"),
    pgettext_noop("history", "Majority: %(majority)s."),
    pgettext_noop("history", "Night actions by PM (GM only)"),
    pgettext_noop("history", "No block yet."),
    pgettext_noop("history", "No day has begun yet."),
    pgettext_noop("history", "No night action."),
    pgettext_noop("history", "No post yet."),
    pgettext_noop("history", "No vote yet."),
    pgettext_noop("history", "Notes"),
    pgettext_noop("history", "Players:"),
    pgettext_noop("history", "Post"),
    pgettext_noop("history", "Posts per phase"),
    pgettext_noop("history", "Posts, in order (%(n)s)"),
    pgettext_noop("history", "The activity rule is off for this game: the blocks are for information."),
    pgettext_noop("history", "The activity rule is on: a post in every block."),
    pgettext_noop("history", "Thread view (no secret vote, no hidden weight)"),
    pgettext_noop("history", "Time"),
    pgettext_noop("history", "Vote history"),
    pgettext_noop("history", "Voter"),
    pgettext_noop("history", "Votes"),
    pgettext_noop("history", "Weight"),
    pgettext_noop("history", "alive"),
    pgettext_noop("history", "counted"),
    pgettext_noop("history", "dead: %(when)s"),
    pgettext_noop("history", "edited %(when)s"),
    pgettext_noop("history", "missed"),
    pgettext_noop("history", "not required"),
    pgettext_noop("history", "posted"),
    pgettext_noop("history", "refused"),
    pgettext_noop("history", "replaced by a later one"),
    pgettext_noop("history", "replacing %(names)s"),
    pgettext_noop("history", "seen %(when)s"),
    pgettext_noop("history", "still open"),
    pgettext_noop("history", "still running"),
)


def render_history_page(page: Any, token: str) -> str:
    with gm_language(page.lang):
        heading = W("Vote history")
        return _HISTORY.render(
            page=page, token=token, lang=page.lang, title=page.title, heading=heading, game=page.game,
            players=page.players, css=Markup(CSS + EXTRA_CSS), W=W,
            vote_count=lambda label: drafts_sentence(page.lang, "Vote Count — %(phase)s", phase=label),
            svg=lambda d: Markup(chart_svg(d.chart, element_id=f"chart-{d.phase}")))


def render_player_page(page: Any, token: str) -> str:
    states = {"posted": lambda: W("posted"), "missed": lambda: W("missed"), "open": lambda: W("still running"),
              "free": lambda: W("not required")}
    actions = {"counts": lambda: W("counted"), "replaced": lambda: W("replaced by a later one"),
               "rejected": lambda: W("refused")}
    with gm_language(page.lang):
        return _PLAYER.render(
            page=page, token=token, lang=page.lang, title=page.title, heading=page.player, game=page.game,
            players=page.players, css=Markup(CSS + EXTRA_CSS), W=W,
            block_state=lambda s: states[s]() if s in states else s,
            posts=lambda n: npgettext("history", "%(n)s post", "%(n)s posts", n),
            action_state=lambda s: actions[s]() if s in actions else s)
