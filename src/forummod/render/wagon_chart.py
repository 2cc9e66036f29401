"""The wagon chart of one day (issue 32): each candidate's votes over the day as steps, the
majority line, the hammer marked. Pure: a `DayHistory` to a `WagonChart` (the numbers and the
words), then to plain SVG here or to PNG in `wagon_png.py`, so both pictures say the same.

The SVG is written by hand, not by a plotting library: it must be readable with no script
(the console's CSP allows none for it), stand inside an HTML file with nothing external (the
post-game archive) and escape every player's name; a few dozen elements do that.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo
from typing import Sequence

from markupsafe import escape

from forummod.engine.history import DayHistory
from forummod.i18n import gm_language, pgettext, phase_label
from forummod.model import NO_LYNCH
from forummod.records import frozen

#: Okabe-Ito's colour-blind-safe palette (its yellow left out: too light on white), then greys;
#: past these a colour comes back with a dashed line.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#7F7F7F")
DASHES = ("", "6 3", "2 3")


@frozen
class Series:
    """One candidate's wagon: (instant, votes) steps from the day's start to its end."""

    name: str  # the candidate as the count has it (NO_LYNCH for no lynch)
    label: str  # as the chart writes it
    colour: str
    dash: str
    steps: tuple[tuple[datetime, float], ...]
    final: float
    peak: float


@frozen
class WagonChart:
    """Everything a picture of the day shows, its words already in the game's language."""

    title: str
    start: datetime
    end: datetime
    series: tuple[Series, ...]
    majority: tuple[tuple[datetime, float], ...]  # empty where the ruleset has no majority
    hammer: tuple[datetime, float, str] | None  # (instant, votes, candidate label)
    y_max: int
    x_ticks: tuple[tuple[datetime, str], ...]
    votes_label: str
    majority_label: str
    hammer_label: str
    public: bool
    description: str  # what a screen reader says of the picture


def wagon_chart(day: DayHistory, *, tz: tzinfo, lang: str = "en", title: str = "") -> WagonChart:
    """The chart of `day` (either view: the public one never holds a secret vote or weight)."""
    with gm_language(lang):
        no_lynch = drafts_word(lang, "No Lynch")
        names = day.candidates()
        series = []
        for i, name in enumerate(names):
            steps = [(p.at, _total(p.tally, name)) for p in day.points]
            series.append(Series(name, no_lynch if name == NO_LYNCH else name, PALETTE[i % len(PALETTE)],
                                 DASHES[(i // len(PALETTE)) % len(DASHES)], tuple(_dedupe(steps)),
                                 steps[-1][1] if steps else 0.0, max((v for _, v in steps), default=0.0)))
        series.sort(key=lambda s: (-s.final, -s.peak, names.index(s.name)))
        majority = tuple(_dedupe([(p.at, float(p.tally.majority)) for p in day.points if p.tally.majority]))
        top = max([s.peak for s in series] + [m for _, m in majority] + [1.0])
        hammer = None
        if day.hammer is not None:
            label = no_lynch if day.hammer.candidate == NO_LYNCH else day.hammer.candidate
            hammer = (day.hammer.at, day.hammer.total, label)
        heading = title or pgettext("history", "Wagons — %(phase)s", phase=phase_label(day.phase))
        desc = pgettext("history", "Votes on each candidate over %(phase)s, from %(start)s to %(end)s.",
                        phase=phase_label(day.phase), start=_local(day.start, tz), end=_local(day.end, tz))
        return WagonChart(
            title=heading, start=day.start, end=max(day.end, day.start + timedelta(minutes=1)),
            series=tuple(series), majority=majority, hammer=hammer, y_max=int(top) + 1,
            x_ticks=time_ticks(day.start, max(day.end, day.start + timedelta(minutes=1)), tz),
            votes_label=pgettext("history", "votes"), majority_label=pgettext("history", "majority"),
            hammer_label="HAMMER" if lang == "en" else drafts_word(lang, "MAJORITY"),
            public=day.public, description=desc)


def drafts_word(lang: str, msgid: str) -> str:
    """A word the drafts already use ("No Lynch", "MAJORITY"), from their catalog entry."""
    from forummod.render.catalog import catalog

    return msgid if lang == "en" else catalog(lang).gettext(msgid)


def _total(t, name: str) -> float:
    return next((c.total for c in t.candidates if c.name == name), 0.0)


def _dedupe(steps: Sequence[tuple[datetime, float]]) -> list[tuple[datetime, float]]:
    """Keep a step only where the value moves (the first always)."""
    out: list[tuple[datetime, float]] = []
    for at, v in steps:
        if out and out[-1][1] == v:
            continue
        if out and out[-1][0] == at:
            out[-1] = (at, v)
            continue
        out.append((at, v))
    return out


def _local(at: datetime, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def time_ticks(start: datetime, end: datetime, tz: tzinfo, count: int = 5) -> tuple[tuple[datetime, str], ...]:
    """About `count` round local times between start and end (whole hours when the day allows),
    labelled "14:00", or "25/11 14:00" when the day spans more than one date."""
    span = (end - start).total_seconds()
    step = max(span / count, 60.0)
    for nice in (300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400):
        if nice >= step:
            step = nice
            break
    first = start.astimezone(tz)
    base = first.replace(minute=0, second=0, microsecond=0)
    ticks = []
    t = base
    while t <= end.astimezone(tz):
        if t >= first:
            ticks.append(t)
        t = t + timedelta(seconds=step)
    several_days = first.date() != end.astimezone(tz).date()
    return tuple((t, t.strftime("%d/%m %H:%M") if several_days else t.strftime("%H:%M")) for t in ticks)


# --------------------------------------------------------------------------- SVG

WIDTH, PLOT_H = 520, 230
LEFT, RIGHT, TOP = 40, 16, 58
LEGEND_COLS, LEGEND_ROW = 2, 24
CHAR_W = 8.4  # about the width of a character of the 15 px labels


def chart_svg(chart: WagonChart, *, element_id: str = "") -> str:
    """Plain SVG (no script, no external reference), scaled by its `viewBox` to any width."""
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, TOP + PLOT_H
    span = (chart.end - chart.start).total_seconds() or 1.0
    rows = -(-len(chart.series) // LEGEND_COLS) if chart.series else 1
    height = y1 + 40 + rows * LEGEND_ROW + 8

    def x(at: datetime) -> float:
        return round(x0 + (x1 - x0) * min(max((at - chart.start).total_seconds() / span, 0.0), 1.0), 1)

    def y(v: float) -> float:
        return round(y1 - (y1 - y0) * v / chart.y_max, 1)

    def path(steps: Sequence[tuple[datetime, float]]) -> str:
        if not steps:
            return ""
        d = [f"M{x(steps[0][0])},{y(steps[0][1])}"]
        for at, v in steps[1:]:
            d.append(f"H{x(at)}V{y(v)}")
        d.append(f"H{x(chart.end)}")
        return "".join(d)

    e = escape
    ident = f' id="{e(element_id)}"' if element_id else ""
    out = [f'<svg{ident} class="wagon-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
           f'width="100%" role="img" aria-labelledby="{e(element_id or "chart")}-t {e(element_id or "chart")}-d" '
           f'font-family="system-ui, sans-serif" font-size="15" data-public="{str(chart.public).lower()}">',
           f'<title id="{e(element_id or "chart")}-t">{e(chart.title)}</title>',
           f'<desc id="{e(element_id or "chart")}-d">{e(chart.description)}</desc>',
           f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#fff"/>',
           f'<text x="8" y="24" font-size="17" font-weight="bold" fill="#1b1b1b">{e(chart.title)}</text>']
    step = max(1, -(-chart.y_max // 8))
    for v in range(0, chart.y_max + 1, step):  # horizontal grid and the votes axis
        out.append(f'<line x1="{x0}" x2="{x1}" y1="{y(v)}" y2="{y(v)}" stroke="#e3e3e3"/>'
                   f'<text x="{x0 - 8}" y="{y(v) + 5}" text-anchor="end" fill="#444">{v}</text>')
    right = x0 - 10.0  # where the last label drawn ends: labels never overlap nor leave the picture
    for at, label in chart.x_ticks:
        half = len(label) * CHAR_W / 2
        if x(at) - half < right + 8 or x(at) + half > WIDTH - 2:
            continue
        right = x(at) + half
        out.append(f'<line x1="{x(at)}" x2="{x(at)}" y1="{y1}" y2="{y1 + 5}" stroke="#444"/>'
                   f'<text x="{x(at)}" y="{y1 + 22}" text-anchor="middle" fill="#444">{e(label)}</text>')
    out.append(f'<line x1="{x0}" x2="{x1}" y1="{y1}" y2="{y1}" stroke="#444"/>'
               f'<line x1="{x0}" x2="{x0}" y1="{y0}" y2="{y1}" stroke="#444"/>')
    out.append(f'<text x="8" y="{y0 - 14}" fill="#444" font-size="13">{e(chart.votes_label)}</text>')
    if chart.majority:
        m = chart.majority
        out.append(f'<path class="majority" d="{path(m)}" fill="none" stroke="#8b1a1a" stroke-width="1.5" '
                   f'stroke-dasharray="7 4"/>')
        out.append(f'<text x="{x0 + 6}" y="{y(m[0][1]) - 6}" fill="#8b1a1a" font-size="13">'
                   f'{e(chart.majority_label)} {_num(m[0][1])}</text>')  # at the left: the hammer's mark is right
    for s in chart.series:
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        out.append(f'<path class="wagon" data-candidate="{e(s.name)}" data-final="{_num(s.final)}" '
                   f'd="{path(s.steps)}" fill="none" stroke="{s.colour}" stroke-width="3"{dash}/>')
    if chart.hammer is not None:
        at, v, label = chart.hammer
        out.append(f'<g class="hammer" data-candidate="{e(label)}"><circle cx="{x(at)}" cy="{y(v)}" r="7" '
                   f'fill="#8b1a1a" stroke="#fff" stroke-width="2"/>'
                   f'<text x="{x(at) - 10}" y="{y(v) - 12}" text-anchor="end" fill="#8b1a1a" font-weight="bold">'
                   f'{e(chart.hammer_label)}: {e(label)}</text></g>')
    col_w = (WIDTH - LEFT) / LEGEND_COLS
    for i, s in enumerate(chart.series):
        lx = LEFT + (i % LEGEND_COLS) * col_w
        ly = y1 + 44 + (i // LEGEND_COLS) * LEGEND_ROW
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        out.append(f'<g class="legend"><line x1="{lx}" x2="{lx + 22}" y1="{ly - 5}" y2="{ly - 5}" stroke="{s.colour}" '
                   f'stroke-width="3"{dash}/><text x="{lx + 28}" y="{ly}" fill="#1b1b1b">{e(_short(s.label))} '
                   f'({_num(s.final)})</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def _num(v: float) -> str:
    return f"{v:g}"


def _short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
