"""The console's HTML (pure): a `view.GameConsole` and the drafts section to one page.

Plain forms posting to the same origin with the access token; every GM action first shows a
confirmation page (`confirm_page`) saying what will be recorded. The only script is the
countdown (`COUNTDOWN_JS`, allowed by its hash in the CSP); without it the page shows the time
left as of the analysis and is otherwise the same.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from jinja2 import Environment
from markupsafe import Markup

from forummod.console.labels import Labels
from forummod.model import NO_LYNCH

#: Rewrites every `[data-deadline]`'s time left once a minute, from the analysis time the page
#: was rendered at (`data-now`), so the countdown follows the workspace's clock, not the browser's.
COUNTDOWN_JS = """(function(){
var root=document.documentElement,now=Date.parse(root.getAttribute('data-now')),t0=Date.now();
function span(s){var m=Math.floor(Math.abs(s)/60),d=Math.floor(m/1440),h=Math.floor(m%1440/60);m=m%60;
return (d?d+' d ':'')+(d||h?h+' h ':'')+m+' min';}
function tick(){var n=now+(Date.now()-t0);document.querySelectorAll('[data-deadline]').forEach(function(e){
var s=(Date.parse(e.getAttribute('data-deadline'))-n)/1000,o=e.querySelector('.left');if(!o)return;
o.textContent=s>0?e.getAttribute('data-in')+' '+span(s):e.getAttribute('data-passed');
e.classList.toggle('soon',s>0&&s<7200);});}
tick();setInterval(tick,30000);})();"""

CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1180px;padding:1em;color:#1b1b1b;background:#f6f6f3}
h1{font-size:1.35em;margin:.2em 0} h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid #bbb}
h3{font-size:1em;margin:.8em 0 .3em} .box>h2:first-child{margin-top:.2em}
nav.games a{margin-right:.8em} .meta{color:#555;font-size:.9em}
.grid{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1em}
@media (max-width:760px){.grid{grid-template-columns:1fr}}
.box{background:#fff;border:1px solid #c8c8c8;border-radius:6px;padding:.6em 1em}
table{border-collapse:collapse;width:100%} td,th{text-align:left;padding:.25em .4em;border-bottom:1px solid #e3e3e3;vertical-align:top}
.mark{margin-left:.5em;font-weight:bold;border-radius:3px;padding:0 .35em;font-size:.85em;white-space:nowrap}
.mark.hammer{background:#8b1a1a;color:#fff} .mark.l_minus_1{background:#7a4a00;color:#fff}
tr.hammer td{background:#fbe3e3} tr.l_minus_1 td{background:#fff1d6}
.deadline .left{font-weight:bold} .deadline.soon .left{color:#8b1a1a}
.flash{background:#fff6d6;border:1px solid #c9a93a;padding:.5em 1em} .flash.error{background:#fde2e1;border-color:#b55}
.note.warning,.note.error{border-left:4px solid #b55;padding-left:.5em} .note{margin:.3em 0;overflow-wrap:anywhere}
.note.info{border-left:4px solid #99a;padding-left:.5em}
form.row{display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:flex-end;margin:.4em 0}
form.row label{display:flex;flex-direction:column;font-size:.9em;color:#333;max-width:100%;min-width:0}
form.inline{display:inline}
input,select{font:inherit;padding:.2em .3em;max-width:100%}
button{font:inherit;background:#fff;color:#1b1b1b;border:1px solid #666;border-radius:4px;padding:.3em .9em;cursor:pointer}
button.primary{background:#1a5e3f;color:#fff;border-color:#1a5e3f}
button.danger{background:#8b1a1a;color:#fff;border-color:#8b1a1a}
details.fix{background:#fff;border:1px solid #c8c8c8;border-radius:6px;margin:.4em 0;padding:.3em .8em}
details.fix summary{cursor:pointer;font-weight:bold}
.grid>div>.box+.box{margin-top:1em} .logline{display:flex;gap:1em;align-items:center;justify-content:space-between}
.logline button{padding:.1em .7em;font-size:.9em;white-space:nowrap} .logline>span{min-width:0;overflow-wrap:anywhere}
.topbar{display:flex;flex-wrap:wrap;gap:.6em;align-items:center;justify-content:space-between}
"""

_PAGE = """<!doctype html>
<html lang="{{ g.lang }}" data-now="{{ g.analysed_at.isoformat() }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ g.title }} — {{ L('title') }}</title>
<style>{{ drafts.style }}</style>
<style>{{ css }}</style>
</head>
<body>
<div class="topbar">
<h1>{{ g.title }} · {{ g.phase_label or L('not_started') }}</h1>
<form method="post" action="/poll" class="inline"><input type="hidden" name="token" value="{{ token }}">
<input type="hidden" name="game" value="{{ g.game }}">
<button type="submit" class="primary" id="poll">{{ L('poll') }}</button></form>
</div>
{% if games|length > 1 %}<nav class="games" aria-label="{{ L('games') }}">{% for gid in games %}
<a href="/?token={{ token }}&amp;game={{ gid }}"{% if gid == g.game %} aria-current="page"{% endif %}>{{ gid }}</a>{% endfor %}</nav>{% endif %}
<p class="meta">{{ L('analysed', at=g.analysed_local) }} · {{ g.ruleset }} · {{ g.lang }} · {{ history_nav(g.game, g.lang, token) }}</p>
{% if message %}<p class="flash{% if error %} error{% endif %}" id="flash" role="status">{{ message }}{% if link %}
<a href="{{ link }}" id="flash-link" rel="noreferrer">{{ link }}</a>{% endif %}</p>{% endif %}
{% if g.game_over %}<p class="flash" id="game-over">{{ L('game_over', result=g.result, winners=', '.join(g.winners) or '—') }}</p>{% endif %}
{% if g.paused_at %}<p class="flash" id="paused">{{ L('paused', at=g.paused_at) }}</p>{% endif %}

<div class="grid">
<section class="box" id="votecount" aria-labelledby="votecount-h">
<h2 id="votecount-h">{{ L('vote_count', phase=g.count_label or '—') }}</h2>
{% if g.majority %}<p id="majority">{{ L('majority_line', majority=g.majority, living=g.living) }}</p>{% endif %}
{% if not g.votes and g.majority is none %}<p>{{ L('no_vote') }}</p>
{% elif not g.votes %}<p>{{ L('no_votes') }}</p>
{% else %}<table><tbody>
{% for v in g.votes %}<tr class="wagon {{ v.mark }}" data-candidate="{{ v.name }}" data-total="{{ num(v.total) }}" data-mark="{{ v.mark }}">
<th scope="row">{{ L('no_lynch') if v.no_lynch else v.name }}</th><td>{{ num(v.total) }}{% if v.mark %}
<span class="mark {{ v.mark }}">{{ L('hammer') if v.mark == 'hammer' else L('l_minus_1') }}</span>{% endif %}</td>
<td>{{ ', '.join(v.voters) }}</td></tr>
{% endfor %}</tbody></table>{% endif %}
{% if g.not_voting %}<p id="not-voting"><b>{{ not_voting_label }}</b> {{ ', '.join(g.not_voting) }}</p>{% endif %}
{% if g.rejected %}<h3>{{ L('not_counted') }}</h3>{% for n in g.rejected %}<p class="note warning">{{ n.text }}{% if n.rule %} [{{ n.rule }}]{% endif %}</p>{% endfor %}{% endif %}
</section>

<div>
<section class="box" id="phase" aria-labelledby="phase-h">
<h2 id="phase-h">{{ L('phase') }}</h2>
{% for d in g.deadlines %}<p class="deadline{% if 0 < d.seconds_left < 7200 %} soon{% endif %}" id="deadline-{{ d.label }}"
 data-deadline="{{ d.at.isoformat() }}" data-in="{{ L('in') }}" data-passed="{{ L('passed') }}">
{{ L(d.label) }}: <time datetime="{{ d.at.isoformat() }}">{{ d.local }}</time>{% if d.label != 'phase_start' %} ·
<span class="left">{% if d.seconds_left > 0 %}{{ L('in') }} {{ span(d.seconds_left) }}{% else %}{{ L('passed') }}{% endif %}</span>{% endif %}</p>
{% endfor %}
</section>
<section class="box" id="pending" aria-labelledby="pending-h">
<h2 id="pending-h">{{ L('pending') }}</h2>
{% if not g.pending %}<p>{{ L('no_pending') }}</p>{% endif %}
{% for p in g.pending %}<div class="proposal" id="proposal-{{ p.key|replace(':', '-') }}"><p><b>{{ p.key }}</b> — {{ p.summary }}</p>
{% if p.candidates|length > 1 %}{% for c in p.candidates %}<form method="post" action="/gm/approve" class="inline">
{{ hidden(g.game) }}<input type="hidden" name="key" value="{{ p.key }}"><input type="hidden" name="player" value="{{ c }}">
<button type="submit" class="primary" id="approve-{{ p.key|replace(':', '-') }}-{{ loop.index }}">{{ L('approve_as', player=c) }}</button></form>{% endfor %}
<form method="post" action="/gm/reject" class="inline">{{ hidden(g.game) }}<input type="hidden" name="key" value="{{ p.key }}">
<button type="submit" class="danger" id="reject-{{ p.key|replace(':', '-') }}">{{ L('reject') }}</button></form>
{% else %}{% for verb, cls in (('approve', 'primary'), ('reject', 'danger')) %}<form method="post" action="/gm/{{ verb }}" class="inline">
{{ hidden(g.game) }}<input type="hidden" name="key" value="{{ p.key }}">
<button type="submit" class="{{ cls }}" id="{{ verb }}-{{ p.key|replace(':', '-') }}">{{ L(verb) }}</button></form>{% endfor %}{% endif %}
</div>{% endfor %}
</section>
</div>
</div>

<section id="notes" aria-labelledby="notes-h">
<h2 id="notes-h">{{ L('notes', phase=g.phase_label or '—') }}</h2>
{% if not g.notes %}<p>{{ L('no_notes') }}</p>{% endif %}
{% for n in g.notes %}<p class="note {{ n.severity }}" data-code="{{ n.kind }}">{{ n.text }}{% if n.rule %} [{{ n.rule }}]{% endif %}{% if n.link %}
<a href="{{ n.link }}" rel="noreferrer">↗</a>{% endif %}</p>{% endfor %}
{% for u in g.unread %}{% set i = loop.index %}
<form method="post" action="/gm/{{ 'set-vote' if u.via == 'post' else 'action' }}" class="row box settle" id="settle-{{ i }}">
{{ hidden(g.game) }}<input type="hidden" name="at" value="{{ u.at.isoformat() }}">
<input type="hidden" name="{{ 'voter' if u.via == 'post' else 'actor' }}" value="{{ u.player }}">
<span>{{ u.message }}</span>
<label for="settle-{{ i }}-target">{{ L('settle_as') }}<select id="settle-{{ i }}-target" name="{{ 'target' if u.via == 'post' else 'target1' }}">
{% for c in u.candidates %}<option>{{ c }}</option>{% endfor %}</select></label>
{% if u.via != 'post' %}<label for="settle-{{ i }}-verb">{{ L('verb') }}<select id="settle-{{ i }}-verb" name="verb">{% for v in g.verbs %}<option>{{ v }}</option>{% endfor %}</select></label>{% endif %}
<button type="submit" id="settle-{{ i }}-go">{{ L('submit_check') }}</button></form>
{% endfor %}
</section>

<section id="corrections" aria-labelledby="corrections-h">
<h2 id="corrections-h">{{ L('corrections') }}</h2>
<details class="fix" id="fix-vote"><summary>{{ L('set_vote') }}</summary>
<form method="post" action="/gm/set-vote" class="row">{{ hidden(g.game) }}
<label for="sv-voter">{{ L('voter') }}<select id="sv-voter" name="voter">{% for p in g.alive %}<option>{{ p }}</option>{% endfor %}</select></label>
<label for="sv-target">{{ L('target') }}<select id="sv-target" name="target">{% for p in g.alive %}<option>{{ p }}</option>{% endfor %}
<option value="{{ no_lynch }}">{{ L('no_lynch') }}</option><option value="">{{ L('withdraw') }}</option></select></label>
<label for="sv-at">{{ L('when') }}<input id="sv-at" name="at" type="datetime-local"></label>
<button type="submit" id="sv-go">{{ L('submit_check') }}</button></form></details>

<details class="fix" id="fix-action"><summary>{{ L('action') }}</summary>
<form method="post" action="/gm/action" class="row">{{ hidden(g.game) }}
<label for="ac-actor">{{ L('actor') }}<select id="ac-actor" name="actor">{% for p in g.players %}<option>{{ p }}</option>{% endfor %}</select></label>
<label for="ac-verb">{{ L('verb') }}<select id="ac-verb" name="verb">{% for v in g.verbs %}<option>{{ v }}</option>{% endfor %}</select></label>
<label for="ac-t1">{{ L('target1') }}<select id="ac-t1" name="target1"><option value="">{{ L('none') }}</option>{% for p in g.players %}<option>{{ p }}</option>{% endfor %}</select></label>
<label for="ac-t2">{{ L('target2') }}<select id="ac-t2" name="target2"><option value="">{{ L('none') }}</option>{% for p in g.players %}<option>{{ p }}</option>{% endfor %}</select></label>
<label for="ac-at">{{ L('when') }}<input id="ac-at" name="at" type="datetime-local"></label>
<button type="submit" id="ac-go">{{ L('submit_check') }}</button></form></details>

<details class="fix" id="fix-replace"><summary>{{ L('replace') }}</summary>
<form method="post" action="/gm/replace" class="row">{{ hidden(g.game) }}
<label for="rp-player">{{ L('seat') }}<select id="rp-player" name="player">{% for p in g.players %}<option>{{ p }}</option>{% endfor %}</select></label>
<label for="rp-new">{{ L('new_name') }}<input id="rp-new" name="new_name" required></label>
<label for="rp-post">{{ L('at_post') }}<input id="rp-post" name="post" inputmode="numeric" pattern="[0-9]*"></label>
<button type="submit" id="rp-go">{{ L('submit_check') }}</button></form></details>

{% if g.phase %}<details class="fix" id="fix-extend"><summary>{{ L('extend') }} ({{ g.phase_label }})</summary>
<form method="post" action="/gm/extend" class="row">{{ hidden(g.game) }}<input type="hidden" name="phase" value="{{ g.phase }}">
<label for="ex-until">{{ L('until') }}<input id="ex-until" name="until" type="datetime-local"></label>
<label for="ex-close">{{ L('close') }}<input id="ex-close" name="close" type="datetime-local"></label>
<button type="submit" id="ex-go">{{ L('submit_check') }}</button></form></details>

<details class="fix" id="fix-end"><summary>{{ L('end_phase') }} ({{ g.phase_label }})</summary>
<form method="post" action="/gm/end" class="row">{{ hidden(g.game) }}<input type="hidden" name="phase" value="{{ g.phase }}">
<label for="en-at">{{ L('end_at') }}<input id="en-at" name="when" type="datetime-local"></label>
<label for="en-post">{{ L('end_post') }}<input id="en-post" name="post" inputmode="numeric" pattern="[0-9]*"></label>
<button type="submit" id="en-go">{{ L('submit_check') }}</button></form></details>{% endif %}

<details class="fix" id="fix-note"><summary>{{ L('note') }}</summary>
<form method="post" action="/gm/note" class="row">{{ hidden(g.game) }}
<label for="nt-text">{{ L('note_text') }}<input id="nt-text" name="text" size="50" required></label>
<button type="submit" id="nt-go">{{ L('submit_check') }}</button></form></details>
</section>

<div class="grid">
<section class="box" id="night" aria-labelledby="night-h">
<h2 id="night-h">{% if g.night_label %}{{ L('night', night=g.night_label) }}{% else %}{{ L('night_none') }}{% endif %}</h2>
{% if not g.night.actions %}<p>{{ L('no_actions') }}</p>{% else %}<table><tbody>
{% for x in g.night.actions %}<tr class="action {{ x.status }}" data-source="{{ x.source }}"><td>{{ x.actor }}</td><td>{{ x.verb }} {{ ', '.join(x.targets) }}</td>
<td>{{ x.status }}{% if x.message %}: {{ x.message }}{% endif %}{% if x.rule %} [{{ x.rule }}]{% endif %}</td><td class="meta">{{ x.source }}</td></tr>
{% endfor %}</tbody></table>{% endif %}
{% if g.night.owed %}<h3>{{ L('owed') }}</h3>{% for o in g.night.owed %}<p class="note warning">{{ ' / '.join(o.players) }}: {{ ' / '.join(o.actions) }}{% if o.message %} — {{ o.message }}{% endif %}</p>{% endfor %}{% endif %}
{% if g.results %}<h3>{{ L('results') }}</h3>{% for r in g.results %}<p class="note info">{{ r.to }} ({{ r.phase }}): {{ r.text }}</p>{% endfor %}{% endif %}
{% for n in g.night.protections + g.night.notes %}<p class="note info">{{ n.player }}{% if n.player %}: {% endif %}{{ n.what }} {{ n.detail }}</p>{% endfor %}
</section>
<section class="box" id="prod" aria-labelledby="prod-h">
<h2 id="prod-h">{{ L('prod', phase=g.phase_label or '—') }}</h2>
{% if not g.prod %}<p>{{ L('no_prod') }}</p>{% endif %}
{% for c in g.prod %}<p class="prod-row" data-player="{{ c.player }}"><b>{{ c.player }}</b> — {{ L('silent_since', at=c.silent_since) }};
{{ L('posts', phase=c.posts_phase, game=c.posts_game) }}</p>{% endfor %}
</section>
</div>

{% if g.gm_log %}<section id="log" aria-labelledby="log-h"><h2 id="log-h">{{ L('log') }}</h2>
{% for e in g.gm_log[-12:] %}<div class="note info logline" data-event="{{ e.id }}"><span>#{{ e.id }} · {{ e.summary }}</span>{% if e.undone_by %}
<span class="meta">({{ L('undone', by=e.undone_by) }})</span>{% elif e.kind != 'undo' %}
<form method="post" action="/gm/undo" class="inline">{{ hidden(g.game) }}<input type="hidden" name="event" value="{{ e.id }}">
<button type="submit" id="undo-{{ e.id }}">{{ L('undo') }}</button></form>{% endif %}</div>{% endfor %}
</section>{% endif %}

<section class="drafts" id="drafts" aria-labelledby="drafts-h">
<h2 id="drafts-h">{{ L('drafts') }}</h2>
{{ drafts.html }}
</section>
<script>{{ js }}</script>
</body></html>
"""

_CONFIRM = """<!doctype html>
<html lang="{{ lang }}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ L('confirm_title') }} — {{ title }}</title><style>{{ css }}</style></head>
<body><h1>{{ L('confirm_title') }}</h1>
<p class="flash" id="confirm-what">{{ what }}</p>
<form method="post" action="{{ action }}" class="inline">
<input type="hidden" name="token" value="{{ token }}"><input type="hidden" name="confirm" value="1">
{% for k, v in fields %}<input type="hidden" name="{{ k }}" value="{{ v }}">{% endfor %}
<button type="submit" class="primary" id="confirm">{{ L('confirm') }}</button></form>
<a href="/?token={{ token }}&amp;game={{ game }}" id="cancel">{{ L('cancel') }}</a>
</body></html>
"""

_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
_TEMPLATE = _ENV.from_string(_PAGE)
_CONFIRM_T = _ENV.from_string(_CONFIRM)


def span(seconds: int) -> str:
    """'2 d 3 h 5 min', the countdown's words without script (the same as COUNTDOWN_JS)."""
    m = abs(int(seconds)) // 60
    d, h, m = m // 1440, m % 1440 // 60, m % 60
    return (f"{d} d " if d else "") + (f"{h} h " if d or h else "") + f"{m} min"


def _num(x: float) -> str:
    return f"{x:g}"


def render_console(g: Any, drafts: Any, token: str, games: Sequence[str], message: str = "", error: bool = False,
                   link: str = "") -> str:
    """The console page of one game (`g`: view.GameConsole, `drafts`: drafts.DraftsSection)."""
    L = Labels(g.lang)
    from forummod.render.catalog import catalog

    cat = catalog(g.lang)
    n = len(g.not_voting)
    not_voting_label = cat.ngettext("Not voting (%(num)s):", "Not voting (%(num)s):", n) % {"num": n}

    def hidden(game: str) -> Markup:
        return Markup('<input type="hidden" name="token" value="{}"><input type="hidden" name="game" value="{}">').format(
            token, game)

    return _TEMPLATE.render(g=g, drafts=drafts, token=token, games=list(games), message=message, error=error,
                            link=link if link.startswith(("http://", "https://")) else "", L=L, css=Markup(CSS),
                            js=Markup(COUNTDOWN_JS), num=_num, span=span, hidden=hidden,
                            no_lynch=NO_LYNCH, not_voting_label=not_voting_label, history_nav=_history_nav)


def _history_nav(game: str, lang: str, token: str) -> Markup:
    from forummod.console.history_nav import history_nav  # issue 32

    return history_nav(game, lang, token)


def confirm_page(*, lang: str, title: str, game: str, token: str, action: str, what: str,
                 fields: Mapping[str, str]) -> str:
    """'Record this?': the request's own fields again, with `confirm=1`, and a way back."""
    keep = [(k, v) for k, v in fields.items() if k not in ("token", "confirm")]
    return _CONFIRM_T.render(L=Labels(lang), lang=lang, title=title, game=game, token=token, action=action,
                             what=what, fields=keep, css=Markup(CSS))
