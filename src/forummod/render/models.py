"""View models: what each post template receives as `post`.

All counting, sorting and number/date formatting is done when these are built (in Python,
see `build.py`): templates only lay them out. Strings are plain text (player names, times,
counts already formatted for the language) and are escaped for the markup when a template
prints them; `Safe` values (sentences from the phrasebook) are markup already.

Public models never carry a secret: a public vote count has no weights, notes or secret
votes, and a dawn or lynch post carries a role only when the rules reveal it.
"""

from __future__ import annotations


from forummod.records import frozen
from forummod.render.escape import Safe

KINDS = ("votecount", "day_start", "day_end", "role_pm", "night_result", "warnings", "prod", "game_over")
PUBLIC_KINDS = ("votecount", "day_start", "day_end", "prod", "game_over")  # posted in the game thread
PM_KINDS = ("role_pm", "night_result")  # one PM per player, secret
GM_KINDS = ("warnings",)  # for the GM's eyes only, never posted


@frozen
class Head:
    """What every post knows about its game."""

    game: str  # the game's title
    ruleset: str  # ruleset id, e.g. "mafia-majority" (templates may vary wording on it)
    phase_id: str  # "D2", "N1", "setup", "" before the game starts
    phase: str  # localized label: "Giorno 2", "Night 1"


@frozen
class Link:
    """A link to a post or PM: `label` like "#57", `url` a safe http(s) URL or ""."""

    label: str
    url: str = ""


@frozen
class Vote:
    """One standing vote, in the order votes were cast."""

    voter: str
    at: str  # local time of the vote, formatted
    link: Link | None
    weight: str = ""  # GM view: "2" when the vote counts double; "" at weight 1 and in public
    note: str = ""  # GM view: "Boia x3", "secret"...; always "" in public
    secret: bool = False  # GM view only: a vote the thread does not see


@frozen
class Wagon:
    """A candidate with the votes on them ("wagon" in forum slang)."""

    name: str  # player name; "" for no lynch
    no_lynch: bool
    count: str  # formatted total, e.g. "3" or "2,5"
    voters: tuple[Vote, ...]
    to_majority: str = ""  # "1" for L-1; "" when the ruleset has no majority or it is reached
    at_majority: bool = False  # the wagon has reached the majority
    bonus: str = ""  # GM view: score without voters, e.g. "+2"
    bonus_note: str = ""
    leading: bool = False  # among the highest totals


@frozen
class RejectedVote:
    """A vote the engine did not count, with the reason in words."""

    voter: str
    target: str  # player name; "" for no lynch or none
    reason: str  # localized reason, plain text
    code: str  # stable reason code, e.g. "late"
    at: str
    link: Link | None
    no_lynch: bool = False


@frozen
class PostCount:
    """A living player's posts in the counted day and in the whole game (issue 32)."""

    player: str
    phase: str
    game: str


@frozen
class VoteCountPost:
    """kind "votecount": the count of one day, public (thread) or GM view."""

    head: Head
    public: bool
    as_of: str  # time of the latest vote this count includes
    deadline: str  # when the vote closes ("" if unknown)
    closed: bool  # final count: the vote is over
    living: str  # number of living players
    majority: str  # votes needed to end the day at once, "" when the ruleset has no majority
    wagons: tuple[Wagon, ...]  # highest total first, ties by who got there first
    not_voting: tuple[str, ...]
    not_voting_count: str
    rejected: tuple[RejectedVote, ...] = ()
    round: str = ""  # "2" for a second ballot; "" for the first
    restricted_to: tuple[str, ...] = ()  # candidates allowed in this ballot
    no_lynch_allowed: bool = False
    post_counts: tuple[PostCount, ...] = ()  # `[games.x.drafts] post_counts = true`; else empty


@frozen
class Death:
    """A player who died, with the role shown in the post ("" when the rules hide it)."""

    player: str
    role: str = ""  # localized role name, only when revealed
    revealed: bool = False
    sentence: Safe = Safe("")  # "Fede era un Lupo." / "Il ruolo resta segreto." / ""


@frozen
class DayStartPost:
    """kind "day_start": the dawn post that opens a day."""

    head: Head
    night: str  # label of the night before ("" for a first day)
    announcements: tuple[Safe, ...]  # the night's public facts as sentences, in order
    deaths: tuple[Death, ...]
    nobody_died: bool
    living: tuple[str, ...]
    living_count: str
    majority: str  # "" when the ruleset has no majority
    deadline: str  # when the day's vote closes
    pending: bool = False  # drafted from a proposal the GM has not approved yet
    first_day: bool = False


@frozen
class DayEndPost:
    """kind "day_end": the lynch result (or no lynch) and the reveal."""

    head: Head
    announcements: tuple[Safe, ...]
    deaths: tuple[Death, ...]  # lynched, and anyone their death took along (rules' triggers)
    no_lynch: bool
    wagons: tuple[Wagon, ...]  # the final public count
    next_phase: str  # label of the phase that follows ("" if unknown)
    next_start: str  # when it starts
    pending: bool = False


@frozen
class RolePMPost:
    """kind "role_pm": one player's secret role at setup."""

    head: Head
    player: str
    role: str  # localized name
    role_id: str
    description: Safe  # what the role does, from the phrasebook
    faction: str  # localized faction name
    partners: tuple[str, ...]  # teammates this role is told about (e.g. the other mafia)
    first_phase: str
    first_deadline: str
    # what else the rules tell this player at setup, one sentence each (`Ruleset.role_pm_facts`):
    # the village building and its power, the lupus-eresia Lupo Scorbutico's name...
    notes: tuple[Safe, ...] = ()
    # a replacement's PM speaks of now, not of the game's opening (issue 28, item 10): the seat's
    # earlier holders, the phase the game is in and its next deadline
    replaces: tuple[str, ...] = ()
    now_phase: str = ""
    now_deadline: str = ""


@frozen
class NightResultPMPost:
    """kind "night_result": what one acting player learns from a night."""

    head: Head
    player: str
    night: str
    results: tuple[Safe, ...]
    pending: bool = False


@frozen
class Warning:
    """One thing for the GM to look at (a finding, an extraction issue, a rejected input)."""

    category: str  # "finding", "issue", "rejection"
    severity: str  # info, warning, error
    code: str
    rule: str
    player: str
    message: str  # plain text (may quote a post: escaped like any text)
    at: str
    link: Link | None
    quote: str = ""  # post text the finding is about, if any


@frozen
class PendingProposal:
    """A proposal waiting for the GM's approval, with what it would announce."""

    key: str
    kind: str
    phase: str
    summary: str
    announcements: tuple[Safe, ...]
    private_count: str
    approve: str  # the command that approves it
    reject: str


@frozen
class WarningsPost:
    """kind "warnings": the GM's to-do list for the phase; never posted."""

    head: Head
    findings: tuple[Warning, ...]
    issues: tuple[Warning, ...]
    rejections: tuple[Warning, ...]
    pending: tuple[PendingProposal, ...]
    waiting: tuple[str, ...]  # resolutions held until a proposal is decided
    total: str
    empty: bool


@frozen
class Idle:
    """A living player who has been silent too long."""

    player: str
    last_post: str  # formatted time of their last post, "" if they never posted
    link: Link | None
    hours: str  # hours of silence, formatted


@frozen
class ProdPost:
    """kind "prod": a public reminder to players who have not posted."""

    head: Head
    players: tuple[Idle, ...]
    threshold_hours: str
    deadline: str


@frozen
class RoleLine:
    """One seat in the final role list."""

    player: str
    role: str  # localized
    role_id: str
    faction: str  # localized
    alive: bool
    died: str  # localized phase of death, "" if alive
    winner: bool
    replaced: tuple[str, ...] = ()  # earlier occupants of the seat


@frozen
class GameOverPost:
    """kind "game_over": the winners and the full role list."""

    head: Head
    result: Safe  # the game_over fact as a sentence
    result_key: str  # outcome key, e.g. "town", "mafia", "draw"
    winners: tuple[str, ...]
    roles: tuple[RoleLine, ...]  # seat order
    reveals: tuple[Safe, ...] = ()  # what else the final reveal shows, as sentences (ON D15: the centre cards)


ViewModel = (VoteCountPost | DayStartPost | DayEndPost | RolePMPost | NightResultPMPost | WarningsPost
             | ProdPost | GameOverPost)
