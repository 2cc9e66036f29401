"""What the console's vote-history and player pages show, gathered from the service (issue 32).

I/O edge: reads the store through one analysis with the vote-history recorder. Every number
comes from the function the CLI prints: the history of `forummod history`, the posts per phase
of `status`, the night desk's actions, the activity blocks of `check`. Opening a page records
nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from forummod.records import frozen


@frozen
class HistoryPage:
    game: str
    title: str
    lang: str
    public: bool
    days: tuple[Any, ...]  # render.history_view.DayHistoryView
    players: tuple[str, ...]
    png: bool  # matplotlib is there: offer the PNG


@frozen
class PostEntry:
    """One of the player's posts: its latest text, and the earlier versions when edited."""

    number: int | None
    url: str
    time: str
    phase: str
    thread: str
    text: str
    edited: str  # when it was edited ("" when it was not)
    earlier: tuple[tuple[str, str], ...]  # (seen at, text) of each earlier version, oldest first


@frozen
class VoteEntry:
    phase: str
    row: Any  # render.history_view.HistoryRow


@frozen
class ActionEntry:
    phase: str
    time: str
    verb: str
    targets: tuple[str, ...]
    source: str
    status: str
    reason: str


@frozen
class BlockEntry:
    phase: str
    label: str  # "block 2 of Day 1 (24–48 h)"
    span: str  # local start – end
    posts: int
    state: str


@frozen
class PlayerPage:
    game: str
    title: str
    lang: str
    player: str
    alive: bool
    role: str
    death: str  # "Day 2 (lynch)" or ""
    replaced: tuple[str, ...]
    players: tuple[str, ...]
    posts: tuple[PostEntry, ...]
    votes: tuple[VoteEntry, ...]
    actions: tuple[ActionEntry, ...]
    phases: tuple[str, ...]  # phase labels of the post counts
    counts: tuple[int, ...]
    total: int
    activity_on: bool
    block_hours: int
    blocks: tuple[BlockEntry, ...]


def history_page(ws: Any, gid: str, *, public: bool, now: datetime | None = None) -> HistoryPage:
    from forummod.game_history import analyse_with_history, history_views
    from forummod.render.wagon_png import png_available

    a, h = analyse_with_history(ws, gid, now=now)
    return HistoryPage(gid, a.game.title or gid, a.game.language or a.ruleset.language, public,
                       history_views(ws, a, h, public=public), tuple(p.name for p in a.state.players),
                       png_available())


def chart_png_of(ws: Any, gid: str, day: str, *, public: bool) -> bytes | None:
    """The PNG of one day's chart (None: no such day)."""
    from forummod.game_history import analyse_with_history, history_views
    from forummod.render.wagon_png import chart_png

    a, h = analyse_with_history(ws, gid)
    views = history_views(ws, a, h, public=public, days=(day,))
    return chart_png(views[0].chart) if views else None


def player_page(ws: Any, gid: str, player: str, now: datetime | None = None) -> PlayerPage | None:
    """The GM's page of one player (None: not a player of the game)."""
    from forummod.checks.context import CheckContext
    from forummod.checks.player_activity import player_activity
    from forummod.checks.phase_posts import posts_per_phase
    from forummod.checks.words import post_text
    from forummod.game_history import analyse_with_history, history_views
    from forummod.gamestate_view import received_actions
    from forummod.i18n import gm_language
    from forummod.render import phrasebook_for
    from forummod.render.archive import cause_word

    a, h = analyse_with_history(ws, gid, now=now)
    st = a.state
    if not st.has_player(player):
        return None
    game = a.game
    lang = game.language or a.ruleset.language
    pb = phrasebook_for(lang, game.ruleset, game.markup, ws.cfg.workspace.templates_dir).with_tz(game.tz)
    ctx = CheckContext.from_analysis(a)
    p = st.player(player)

    def when(t: datetime | None) -> str:
        return pb.when(t, game.tz, "datetime") if t is not None else ""

    posts = []
    mine = ctx.posts_by_player(("game", "graveyard")).get(player, [])
    for post in mine:
        if post.deleted_at is not None and post.deleted_at <= a.now:
            continue
        latest = post.versions[-1]
        earlier = tuple((when(v.fetched_at), post_text(v.html).text) for v in post.versions[:-1])
        phase = ctx.phase_at(post.created_at)
        posts.append(PostEntry(post.number, post.url or "", when(post.created_at), pb.phase(phase) if phase else "",
                               ctx.role_of(post), post_text(latest.html).text,
                               when(latest.edited_at) if post.is_edited and latest.edited_at else
                               ("✓" if post.is_edited else ""), earlier))
    votes = tuple(VoteEntry(d.label, r) for d in history_views(ws, a, h, public=False)
                  for r in d.rows if r.voter == player or r.voter in p.replaced)
    actions = []
    for ph in a.run.phases:
        if ph.kind != "night" or ph.start > a.now:
            continue
        for x in received_actions(a, ph):
            if x.actor == player:
                actions.append(ActionEntry(pb.phase(ph.name), when(x.at), x.verb, tuple(x.targets), x.source,
                                           x.status, pb.rejection(x.reason) if x.reason else ""))
    counts = posts_per_phase(ctx)
    row = counts.of(player)
    act = player_activity(ctx, player)
    with gm_language(lang):
        blocks = tuple(BlockEntry(pb.phase(m.block.phase), m.block.label,
                                  f"{when(m.block.start)} – {when(m.block.end)}", m.posts, m.state) for m in act.marks)
    death = ""
    if p.death is not None:
        death = f"{pb.phase(p.death.phase)} ({cause_word(p.death.cause, lang)})" if p.death.phase else \
            cause_word(p.death.cause, lang)
    return PlayerPage(
        game=gid, title=game.title or gid, lang=lang, player=player, alive=p.alive, role=pb.role(p.role),
        death=death, replaced=p.replaced, players=tuple(q.name for q in st.players), posts=tuple(posts),
        votes=votes, actions=tuple(actions), phases=tuple(pb.phase(x) for x in counts.phases),
        counts=row.counts if row else (), total=row.total if row else 0, activity_on=act.enabled,
        block_hours=act.block_hours, blocks=blocks)
