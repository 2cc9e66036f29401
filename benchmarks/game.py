"""A synthetic, engine-neutral Mafia game: who posts what and when, day by day.

Deterministic for a seed and a size. The shape follows a real forum game played with the
`mafia-majority` ruleset: 25 players and a GM, 72 h days and 24 h nights, about a quarter of
the day posts carrying a bold vote (re-votes, unvotes, the odd "no lynch"), one post in five
quoting an earlier post (often one with a vote in it, which must not count), spoilers and
signatures, a few edited posts, a non-player and a dead player posting now and then. The
generator keeps its own count of standing votes so wagons never reach a majority (no hammer)
and the day's plurality leader, a town player, is lynched at the deadline: the engine, fed
the same posts, finds the same lynches (a tie means nobody), so the game runs its full length.

Renderers (`benchmarks.markup`) turn a `SynthPost` into phpBB or XenForo markup.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
DAY = timedelta(hours=72)
NIGHT = timedelta(hours=24)
GM = "Moderator"
GM_ID = 2
OUTSIDER = "Lurker_Lou"  # posts now and then; not in the game

PLAYERS = (
    "Aurora", "Bramble", "Cinder", "DarkStar", "Ember_Fox", "Falconer", "Gideon", "Hollow Oak",
    "Ivy", "Jasper", "Kestrel", "Lumen", "Marco Rossi", "Nightjar", "Obsidian", "Pippin",
    "Quill", "RedTail", "Sable", "Thistle", "Umbra", "Vesper", "Wren", "Xanadu", "Yarrow",
)
ROLES = {"Cinder": "mafia", "Obsidian": "mafia", "Vesper": "mafia", "Kestrel": "cop", "Ivy": "doctor"}

_WORDS = (
    "I", "think", "the", "vote", "on", "is", "really", "scummy", "town", "read", "wagon", "because",
    "they", "said", "yesterday", "that", "we", "should", "look", "at", "quiet", "players", "and", "not",
    "tunnel", "anyone", "but", "this", "feels", "like", "a", "bus", "from", "mafia", "to", "me", "honestly",
    "maybe", "case", "posts", "early", "late", "pressure", "reaction", "tone", "null", "lean", "claim",
    "role", "night", "kill", "doctor", "cop", "check", "lynch", "today", "tomorrow", "again", "why",
    "would", "you", "do", "that", "if", "were", "scum", "reads", "list", "updated", "agree", "disagree",
)


@dataclass(frozen=True)
class Quote:
    author: str
    author_id: int
    post_id: int
    at: datetime
    text: str
    vote: str | None  # the quoted post's bold vote line, which sits inside the quote


@dataclass(frozen=True)
class SynthPost:
    number: int  # 1-based position in the thread
    post_id: int
    author: str
    author_id: int
    at: datetime
    paragraphs: tuple[str, ...]
    vote: str | None = None  # bold text: "VOTE: Wren", "UNVOTE", "vote: no lynch"
    quote: Quote | None = None
    spoiler: str | None = None
    signature: str | None = None
    edited_at: datetime | None = None


@dataclass
class SynthGame:
    """The whole thread, plus what the generator decided (for reports and sanity checks)."""

    posts: list[SynthPost]
    days: int
    lynched: list[tuple[int, str | None]] = field(default_factory=list)  # (day, player or None for a tie)
    votes: int = 0

    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    @property
    def end(self) -> datetime:
        return self.posts[-1].at


def user_id(name: str) -> int:
    if name == GM:
        return GM_ID
    if name == OUTSIDER:
        return 999
    return 10 + PLAYERS.index(name)


def days_for(n_posts: int) -> int:
    """Game days for a thread of n posts (about 1,000 posts a day, 3 to 15 days)."""
    return max(3, min(15, round(n_posts / 1000)))


def make_game(n_posts: int, *, seed: int = 7) -> SynthGame:
    """A game thread of exactly `n_posts` posts (at least 20)."""
    n_posts = max(20, n_posts)
    rng = random.Random(seed * 1_000_003 + n_posts)
    days = days_for(n_posts)
    per_cycle = n_posts / days
    alive = list(PLAYERS)
    chatty = {p: rng.uniform(0.3, 3.0) for p in PLAYERS}
    posts: list[SynthPost] = []
    game = SynthGame(posts, days)
    for d in range(1, days + 1):
        start = START + (d - 1) * (DAY + NIGHT)
        count = round(per_cycle * d) - round(per_cycle * (d - 1))
        n_day = max(2, int(count * 0.92))
        n_night = count - n_day
        if d == days:
            n_day = n_posts - len(posts) - n_night
        _play_day(rng, game, d, start, n_day, alive, chatty)
        _play_night(rng, game, d, start + DAY, n_night, alive, chatty)
    assert len(posts) == n_posts, (len(posts), n_posts)
    return game


def _times(rng: random.Random, start: datetime, span: timedelta, n: int) -> list[datetime]:
    secs = sorted(rng.uniform(60, span.total_seconds() - 60) for _ in range(n))
    return [start + timedelta(seconds=int(s)) for s in secs]


def _text(rng: random.Random, sentences: int) -> tuple[str, ...]:
    out = []
    for _ in range(sentences):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 22))]
        s = " ".join(words)
        out.append(s[0].upper() + s[1:] + rng.choice((".", ".", "?", "!")))
    paras: list[str] = []
    while out:
        k = rng.randint(1, 3)
        paras.append(" ".join(out[:k]))
        out = out[k:]
    return tuple(paras)


def _author(rng: random.Random, alive: list[str], chatty: dict[str, float], dead: list[str]) -> str:
    r = rng.random()
    if r < 0.002:
        return OUTSIDER
    if r < 0.004 and dead:
        return rng.choice(dead)  # a dead player who forgot: the checks flag it
    weights = [chatty[p] for p in alive]
    return rng.choices(alive, weights)[0]


def _vote_text(rng: random.Random, target: str) -> str:
    r = rng.random()
    shown = target
    if r < 0.1:
        shown = target.lower()
    elif r < 0.15 and len(target) > 5:
        shown = target[:4]  # a unique prefix
    elif r < 0.2:
        shown = target.replace("_", " ")
    kw = rng.choice(("VOTE: ", "VOTE: ", "VOTE: ", "Vote: ", "vote ", "VOTE "))
    return kw + shown


def _play_day(rng: random.Random, game: SynthGame, d: int, start: datetime, n: int, alive: list[str],
              chatty: dict[str, float]) -> None:
    posts = game.posts
    dead = [p for p in PLAYERS if p not in alive]
    majority = len(alive) // 2 + 1
    town = [p for p in alive if ROLES.get(p) != "mafia"]
    target = rng.choice(town)
    votes: dict[str, str] = {}
    times = _times(rng, start, DAY, n)
    for i, at in enumerate(times):
        num = len(posts) + 1
        if i == 0:
            posts.append(_gm_post(num, at, f"Day {d} begins. With {len(alive)} alive, it takes {majority} to lynch."))
            continue
        author = _author(rng, alive, chatty, dead)
        vote = None
        late = i > n * 0.8
        if author in alive or author == OUTSIDER:
            r = rng.random()
            if r < 0.22:
                others = [p for p in alive if p != author]
                pick = target if (late and author != target) or rng.random() < 0.15 else rng.choice(others[:12] if d % 2 else others[-12:])
                if pick == author:
                    pick = rng.choice(others)
                counts = _counts(votes)
                if counts.get(pick, 0) + (0 if votes.get(author) == pick else 1) < majority:
                    vote = _vote_text(rng, pick)
                    if author in alive:
                        votes[author] = pick
            elif r < 0.235:
                vote = "UNVOTE"
                votes.pop(author, None)
            elif r < 0.24:
                vote = "VOTE: no lynch"
                votes[author] = "__nolynch__"
        posts.append(_post(rng, num, author, at, vote, posts))
        if vote:
            game.votes += 1
    counts = _counts(votes)
    counts.pop("__nolynch__", None)
    lynched = None
    if counts:
        top = max(counts.values())
        leaders = [p for p, c in counts.items() if c == top]
        if len(leaders) == 1:
            lynched = leaders[0]
    game.lynched.append((d, lynched))
    if lynched:
        alive.remove(lynched)


def _play_night(rng: random.Random, game: SynthGame, d: int, start: datetime, n: int, alive: list[str],
                chatty: dict[str, float]) -> None:
    if n <= 0:
        return
    posts = game.posts
    dead = [p for p in PLAYERS if p not in alive]
    for i, at in enumerate(_times(rng, start, NIGHT, n)):
        num = len(posts) + 1
        if i == 0:
            who = game.lynched[-1][1]
            posts.append(_gm_post(num, at, f"{who} was lynched. Night {d} begins." if who else
                                  f"Nobody was lynched. Night {d} begins."))
            continue
        posts.append(_post(rng, num, _author(rng, alive, chatty, dead), at, None, posts))


def _counts(votes: dict[str, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in votes.values():
        out[t] = out.get(t, 0) + 1
    return out


def _gm_post(num: int, at: datetime, text: str) -> SynthPost:
    return SynthPost(num, 100_000 + 3 * num, GM, GM_ID, at, (text, "Please keep votes bold."))


def _post(rng: random.Random, num: int, author: str, at: datetime, vote: str | None,
          posts: list[SynthPost]) -> SynthPost:
    quote = None
    if rng.random() < 0.2 and len(posts) > 3:
        back = [p for p in posts[-30:] if p.author != GM]
        src = rng.choice(back) if back else posts[-1]
        quote = Quote(src.author, src.author_id, src.post_id, src.at, src.paragraphs[0], src.vote)
    spoiler = " ".join(rng.choice(_WORDS) for _ in range(8)) if rng.random() < 0.02 else None
    signature = f"{author} | town until proven otherwise" if user_id(author) % 5 == 0 else None
    edited = at + timedelta(minutes=rng.randint(1, 30)) if rng.random() < 0.01 else None
    return SynthPost(num, 100_000 + 3 * num, author, user_id(author), at, _text(rng, rng.randint(1, 5)),
                     vote=vote, quote=quote, spoiler=spoiler, signature=signature, edited_at=edited)


def config_players() -> list[tuple[str, str]]:
    """(name, role) of every seat, in seat order."""
    return [(p, ROLES.get(p, "town")) for p in PLAYERS]
