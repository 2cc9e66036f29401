"""The wagon chart as PNG, for a GM to attach to a forum post or host (issue 32).

Drawn by matplotlib (an optional dependency: `pip install 'forummod[charts]'`) from the same
`WagonChart` as the SVG, so the two pictures hold the same steps, ticks and words. The figure
is made without pyplot (no global state, no display): one `Figure` on the Agg canvas.
"""

from __future__ import annotations

import io
from datetime import datetime

from forummod.errors import UsageError
from forummod.render.wagon_chart import WagonChart


def png_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def chart_png(chart: WagonChart, *, dpi: int = 100) -> bytes:
    """The chart as PNG bytes (about 900 x 540 pixels at the default `dpi`)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("the PNG chart needs matplotlib: pip install 'forummod[charts]' "
                         "(the SVG chart needs nothing)") from None

    def hours(at: datetime) -> float:
        return (at - chart.start).total_seconds() / 3600

    end = hours(chart.end)
    fig = Figure(figsize=(9, 5.4), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    for s in chart.series:
        xs = [hours(at) for at, _ in s.steps] + [end]
        ys = [v for _, v in s.steps] + [s.steps[-1][1] if s.steps else 0.0]
        ax.step(xs, ys, where="post", color=s.colour, linewidth=2.5,
                linestyle=(0, tuple(float(x) for x in s.dash.split())) if s.dash else "-",
                label=f"{s.label} ({s.final:g})")
    if chart.majority:
        xs = [hours(at) for at, _ in chart.majority] + [end]
        ys = [v for _, v in chart.majority] + [chart.majority[-1][1]]
        ax.step(xs, ys, where="post", color="#8b1a1a", linestyle="--", linewidth=1.5,
                label=f"{chart.majority_label} ({chart.majority[-1][1]:g})")
    if chart.hammer is not None:
        at, v, label = chart.hammer
        ax.plot([hours(at)], [v], marker="o", markersize=10, color="#8b1a1a", zorder=5)
        ax.annotate(f"{chart.hammer_label}: {label}", (hours(at), v), textcoords="offset points", xytext=(-8, 10),
                    ha="right", color="#8b1a1a", fontweight="bold")
    ax.set_xlim(0, end)
    ax.set_ylim(0, chart.y_max)
    ax.set_xticks([hours(t) for t, _ in chart.x_ticks], [label for _, label in chart.x_ticks])
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel(chart.votes_label)
    ax.set_title(chart.title, loc="left", fontweight="bold")
    ax.grid(axis="y", color="#e3e3e3")
    ax.spines[["top", "right"]].set_visible(False)
    if chart.series or chart.majority:
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.1), ncol=3, frameon=False)
    fig.text(0.99, 0.01, chart.description, ha="right", va="bottom", fontsize=7, color="#666")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": "forummod"})
    return buf.getvalue()
