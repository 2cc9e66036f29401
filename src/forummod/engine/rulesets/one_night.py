"""`one-night`: Dutch One Night Werewolf on a forum (spec `../shared/rules/one-night.md`).

Players + 3 cards; the three left over lie in the centre at Links, Midden, Rechts (ON-S2). One
night, then one day (ON-D1). At night every player acts as the card they were DEALT while the
cards themselves move (ON-S3): the night is resolved on one table of card positions, step by
step in `NIGHT_ORDER` (ON-N1..N7), and the result is one proposal whose `SetRole` effects move
each player's card, so after the GM approves it `Player.role` is the FINAL card: the lynch
reveals it (ON-V3), the Jager is whoever holds the Jager card (ON-V4) and wins follow it
(ON-W5). Votes count by PM only (ON-V1); thread votes are declarations kept for the ON-V2
check. The lynch kills every tied leader and nobody when no one has more than one vote (D2).
A lynched Jager shoots before any winner is named (D9). The last facts reveal every final card
and the centre (D15).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from typing import Any, Literal, Mapping

from forummod.engine.events import ActionEvent, Override, Timer, UnvoteEvent, VoteEvent
from forummod.engine.ruleset import Requirement, RoleSpec, Ruleset, RunContext, Setup, Timing
from forummod.engine.types import (
    Fact, GameState, Kill, Outcome, Phase, PhaseId, Player, PrivateResult, Proposal, SetRole, VoteRecord,
)
from forummod.errors import ConfigError
from forummod.model import Source
from forummod.records import frozen
from forummod.schema import setting
from forummod.i18n import join_names, pgettext, phase_label

#: The centre positions in table order (ON-S2); ids are the Dutch words players write.
POSITIONS: tuple[str, ...] = ("links", "midden", "rechts")
_POSITION_WORDS = {
    "links": "links", "l": "links", "left": "links",
    "midden": "midden", "m": "midden", "middle": "midden", "centre": "midden", "center": "midden",
    "rechts": "rechts", "r": "rechts", "right": "rechts",
}

#: ON-S1: the seed's deck for five players.
DEFAULT_DECK: Mapping[str, int] = {"tanner": 1, "hunter": 1, "werewolf": 2, "seer": 1, "robber": 1,
                                   "troublemaker": 1, "insomniac": 1}

VILLAGE_CARDS = frozenset({"hunter", "seer", "robber", "troublemaker", "insomniac"})  # ON-W2, D8
WEREWOLVES_WIN_CARDS = frozenset({"seer", "robber", "troublemaker", "insomniac"})  # ON-W1

NIGHT = PhaseId(1, "night")
DAY = PhaseId(1, "day")


@frozen
class OneNightOptions:
    tie: Literal["all_die", "nobody"] = setting("all_die", "D2: a tie for most votes kills every tied player, or nobody")
    lone_wolf_peek: bool = setting(False, "D1: a werewolf with no partner among the players may look at one centre card")
    werewolf_sees_position: bool = setting(False, "D6: a werewolf whose partner card is in the centre is told its position")
    troublemaker_confirm: bool = setting(False, "ON-N8: send the Onruststoker a PM confirming their swap")
    self_vote: bool = setting(False, "D11: a PM vote for oneself counts")
    hunter_hours: int = setting(24, "D9: remind the GM when a lynched Jager has not shot after this many hours")
    hunter_preselect: bool = setting(False, "D9: a standing shot sent by PM during the day counts for a lynched Jager")
    hunter_chain: bool = setting(False, "D10: a Jager named by a Jager (custom decks) shoots too")
    reveal: Literal["all", "killed_and_winners"] = setting("all", "D15: the final post reveals every final card and the centre, or only the killed players' and winners' cards")

    def __post_init__(self) -> None:
        if self.hunter_hours <= 0:
            raise ValueError("hunter_hours must be a positive number of hours")


@frozen
class OneNightX:
    """The table and the day's progress; player-keyed data as sorted pairs so it stays frozen."""

    dealt: tuple[tuple[str, str], ...] = ()  # player -> dealt card, seat order (ON-S3)
    centre: tuple[tuple[str, str], ...] = ()  # position -> card, Links/Midden/Rechts (ON-S2)
    deal_source: str = "seeded"  # "seeded" (ON-S4) or "gm" (the GM entered the deal)
    deal_seed: int = 0  # the seed the shuffle used, recorded (ON-S4)
    night_done: bool = False
    day_done: bool = False  # the lynch (or no-lynch) was applied
    lynched: tuple[str, ...] = ()
    awaiting: tuple[str, ...] = ()  # revealed Jagers who still have to shoot (ON-V4)
    named: tuple[tuple[str, str], ...] = ()  # Jager -> target named, proposal pending (D9)
    shots: tuple[tuple[str, str], ...] = ()  # Jager -> target, applied
    preselect: tuple[tuple[str, str], ...] = ()  # player -> standing shot (D9 option)
    declared: tuple[VoteRecord, ...] = ()  # thread vote declarations, in order (ON-V2); target "" = withdrawn
    reminded: tuple[str, ...] = ()  # Jagers the GM was reminded about (D9)

    def dealt_card(self, player: str) -> str | None:
        return dict(self.dealt).get(player)


def _set(pairs: tuple[tuple[str, str], ...], key: str, value: str) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in pairs if k != key) + ((key, value),)


def _drop(pairs: tuple[tuple[str, str], ...], key: str) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in pairs if k != key)


def parse_positions(text: str | None) -> tuple[str, ...] | None:
    """"links,rechts" / "Links en Rechts" -> ("links", "rechts"); None if a word is no position."""
    if not text:
        return None
    words = text.replace(",", " ").replace("/", " ").replace("+", " ").lower().split()
    out = []
    for w in words:
        if w in ("en", "and", "&"):
            continue
        pos = _POSITION_WORDS.get(w)
        if pos is None:
            return None
        out.append(pos)
    return tuple(out) or None


class OneNight(Ruleset):
    vote_forms = ("bold", "tag", "pm")  # ON-V1: the PM is the vote; thread votes are declarations (ON-V2)
    name = "one-night"
    title = "One Night Weerwolven"
    language = "nl"
    Options = OneNightOptions
    has_no_lynch = False
    vote_rule = "ON-V1"
    late_action_rule = "ON-N9"  # a late action is no action (D16)
    activity_blocks = True  # ON-D2 (checked by the checks module, D12)
    max_phases = 2  # ON-D1: one night, then one day; the game ends with that day
    game_over_facts = frozenset({"centre_card"})  # D15: the game-over post shows the centre cards too
    TIMING = Timing(first_phase="night", action_deadline="24h", night_end="24h",
                    vote_close="72h", day_end="72h")  # ON-D1: one night, then one 72 h day
    ROLES = {
        "tanner": RoleSpec("tanner", "tanner", rule="ON-W3"),
        "hunter": RoleSpec("hunter", "village", rule="ON-V4"),
        "werewolf": RoleSpec("werewolf", "werewolves", rule="ON-N3"),
        "seer": RoleSpec("seer", "village", rule="ON-N4"),
        "robber": RoleSpec("robber", "village", rule="ON-N5"),
        "troublemaker": RoleSpec("troublemaker", "village", rule="ON-N6"),
        "insomniac": RoleSpec("insomniac", "village", rule="ON-N7"),
    }
    NIGHT_ORDER = (
        "tanner",  # ON-N1: no night action
        "hunter",  # ON-N2: no night action
        "werewolf",  # ON-N3: learns the partner, or "in the centre" (D6); D1 option: one centre card
        "seer",  # ON-N4: one other player's card, or two centre cards
        "robber",  # ON-N5: swaps with another player, then sees the new card
        "troublemaker",  # ON-N6: swaps two other players' cards, no look
        "insomniac",  # ON-N7: sees their own card at the end of the night
    )
    FACTS = {
        "role_card": "private, card: the card a player was dealt (the role PM, ON-S2)",
        "werewolf_partner": "private, partners (tuple of names): the players dealt the other werewolf card(s) (ON-N3)",
        "werewolf_centre": "private, position ('' unless option D6): the other werewolf card lies in the centre (ON-N3, D6)",
        "werewolf_alone": "private: there is no other werewolf card in the game (custom decks, ON-N3)",
        "werewolf_peek": "private, position, card: a lone werewolf's look at one centre card (D1 option)",
        "seer_player": "private, target, card: the card the Ziener saw in that player's hands (ON-N4)",
        "seer_centre": "private, positions, cards (tuples in the same order): the two centre cards the Ziener saw (ON-N4)",
        "robber_result": "private, target, card: the Dief swapped with target and now holds card (ON-N5)",
        "troublemaker_done": "private, first, second: the Onruststoker's swap was made (ON-N8 option)",
        "insomniac_result": "private, card: the card the Slapeloze holds at the end of the night (ON-N7)",
        "day_begins": "public: the night is over, nobody died, the day begins (ON-N8)",
        "lynched": "public, player, card, votes: killed by the vote; card is the card they held at the end of the night (ON-V3)",
        "no_lynch": "public, reason (no_votes | no_player_over_one | tie | gm): nobody dies at the end of the day (D2, D5)",
        "hunter_must_shoot": "public, player: the lynched player holds the Jager card and must name a target now (ON-V4)",
        "hunter_shot": "public, hunter, target, card: the Jager's shot kills target, who held card (ON-V4, ON-W4)",
        "game_over": "public, result (village | werewolves | tanner | tanner_village | nobody), winners (names, alive or dead)",
        "final_card": "public, player, card, dealt, moved (bool: the final card is not the dealt one): a player's final card and dealt card (D15)",
        "centre_card": "public, position (links | midden | rechts), card: a centre card (D15)",
    }

    # ================================================================== setup (ON-S1, ON-S2, ON-S4)
    @classmethod
    def cards_needed(cls, n_players: int, options: Mapping[str, Any]) -> int:
        return n_players + 3  # ON-S2: always players + 3 cards

    @classmethod
    def check_setup(cls, game: Any, roles: Mapping[str, str]) -> tuple[str, str] | None:
        """The deck must be players + 3 known cards with a werewolf; a GM deal must name the centre."""
        if getattr(game.schedule, "first_phase", "") == "day":
            return ("schedule.first_phase", "one-night opens with its night (ON-D1)")
        n = len(game.players)
        setup = game.setup
        if setup.deal == "random":
            if setup.centre:
                return ("setup.centre", "a random deal draws the centre itself; leave centre empty or use deal = 'config'")
            deck = {cls.canonical_role(r): c for r, c in setup.roles.items()} or dict(DEFAULT_DECK)
            return cls._deck_problem(Counter(deck), n, "setup.roles")
        missing = [p.name for p in game.players if p.name not in roles]
        if missing:
            return ("players", f"the GM's deal gives no card to {', '.join(missing)}; set each player's role "
                               "or use setup.deal = 'random' (ON-S4)")
        if len(setup.centre) != 3:
            return ("setup.centre", f"give exactly the three centre cards (Links, Midden, Rechts), not {len(setup.centre)}")
        centre = [cls.canonical_role(c) for c in setup.centre]
        bad = [w for w, c in zip(setup.centre, centre) if c not in cls.ROLES]
        if bad:
            return ("setup.centre", f"unknown card {bad[0]!r} (cards: {', '.join(sorted(cls.ROLES))})")
        deck = Counter(cls.canonical_role(r) for r in roles.values()) + Counter(centre)
        if setup.roles:
            want = Counter({cls.canonical_role(r): c for r, c in setup.roles.items() if c})
            if deck != want:
                return ("setup.centre", "the players' cards and the centre do not make up setup.roles")
        return cls._deck_problem(deck, n, "setup.centre")

    @classmethod
    def _deck_problem(cls, deck: Counter, n_players: int, path: str) -> tuple[str, str] | None:
        total = sum(deck.values())
        if total != n_players + 3:
            return (path, f"{n_players} players need {n_players + 3} cards (players + 3, ON-S2), the deck has {total}")
        unknown = [r for r in deck if r not in cls.ROLES]
        if unknown:
            return (path, f"unknown card {unknown[0]!r} (cards: {', '.join(sorted(cls.ROLES))})")
        if deck.get("werewolf", 0) < 1:
            return (path, "the deck needs at least one Weerwolf card")
        return None

    @staticmethod
    def shuffled_deck(seed: int, pool: Mapping[str, int]) -> list[str]:
        """The seeded shuffle (ON-S4): the same seed and deck always give the same order."""
        cards = [r for r, n in sorted(pool.items()) for _ in range(n)]
        random.Random(f"deal:{seed}").shuffle(cards)
        return cards

    def deal(self, setup: Setup, pool: Mapping[str, int]) -> dict[str, str]:
        """Players get the first cards of the shuffled deck, in seat order; `deal_centre` the rest."""
        return dict(zip(setup.players, self.shuffled_deck(setup.seed, pool)))

    def deal_centre(self, setup: Setup, pool: Mapping[str, int]) -> dict[str, str]:
        """The three cards after the players' ones, laid at Links, Midden, Rechts (ON-S2)."""
        rest = self.shuffled_deck(setup.seed, pool)[len(setup.players):]
        return dict(zip(POSITIONS, rest))

    def _pool(self, setup: Setup) -> dict[str, int]:
        raw = setup.extra.get("pool") or setup.extra.get("deck") or DEFAULT_DECK
        return {self.canonical_role(r): int(n) for r, n in dict(raw).items()}

    def _centre_from_extra(self, raw: Any) -> dict[str, str]:
        if isinstance(raw, Mapping):
            out = {}
            for k, v in raw.items():
                pos = parse_positions(str(k))
                if not pos or len(pos) != 1:
                    raise ConfigError("setup.centre", f"{k!r} is not a centre position (Links, Midden, Rechts)")
                out[pos[0]] = self.canonical_role(str(v))
        else:
            out = dict(zip(POSITIONS, (self.canonical_role(str(c)) for c in raw)))
        if sorted(out) != sorted(POSITIONS) or any(c not in self.ROLES for c in out.values()):
            raise ConfigError("setup.centre", "the centre needs one known card at each of Links, Midden, Rechts")
        return {p: out[p] for p in POSITIONS}

    def table(self, setup: Setup) -> tuple[dict[str, str], dict[str, str], str]:
        """(player -> card, position -> card, source): the GM's deal when given, else the seeded one."""
        given = {p: self.canonical_role(r) for p, r in setup.roles.items() if r and p in setup.players}
        if setup.extra.get("centre"):
            centre = self._centre_from_extra(setup.extra["centre"])
            missing = [p for p in setup.players if p not in given]
            if missing:
                raise ConfigError("players", f"the GM's deal gives no card to {', '.join(missing)} (ON-S4)")
            return {p: given[p] for p in setup.players}, centre, "gm"
        pool = self._pool(setup)
        if not given:
            return self.deal(setup, pool), self.deal_centre(setup, pool), "seeded"
        # roles dealt elsewhere (e.g. by `deal`) without the centre: the centre is the rest of the
        # same seeded shuffle, so a deal made by `deal` + `deal_centre` is reproduced exactly
        rest = self.shuffled_deck(setup.seed, pool)
        for p in setup.players:
            card = given.get(p)
            if card is None or card not in rest:
                raise ConfigError("setup.centre", f"cannot place the centre: {p}'s card {card!r} is not in the deck")
            rest.remove(card)
        if len(rest) != 3:
            raise ConfigError("setup.centre", f"the deck leaves {len(rest)} cards for the centre, not 3 (ON-S2)")
        return {p: given[p] for p in setup.players}, dict(zip(POSITIONS, rest)), "seeded"

    def initial_state(self, setup: Setup) -> GameState:
        dealt, centre, source = self.table(setup)
        players = tuple(Player(name=n, role=dealt[n], seat=i + 1) for i, n in enumerate(setup.players))
        x = OneNightX(dealt=tuple((n, dealt[n]) for n in setup.players), centre=tuple(centre.items()),
                      deal_source=source, deal_seed=setup.seed)
        return GameState(ruleset=self.name, players=players, seed=setup.seed, x=x)

    # ================================================================== phases
    def on_phase_start(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if phase.id not in (NIGHT, DAY):
            run.note("phase", pgettext("gm-note", "%(phase)s ignored: one-night has one night and one day (ON-D1)", phase=phase_label(phase.name)), rule="ON-D1")
            return st
        st = super().on_phase_start(st, phase, run)
        if phase.id == NIGHT:
            return self._propose_role_pms(st, phase, run)
        return st

    def _propose_role_pms(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """ON-S2/ON-S4: one role PM per player, drafted when the night (the game) starts."""
        run.note("deal", pgettext("gm-note", "cards dealt (%(source)s, seed %(seed)s)", source=st.x.deal_source, seed=st.x.deal_seed), rule="ON-S4")
        private = tuple(PrivateResult(p, Fact.of("role_card", "ON-S2", card=c)) for p, c in st.x.dealt)
        prop = Proposal(key="deal", kind="deal", phase=phase.name, created_at=run.current_at or phase.start,
                        private=private, summary=pgettext("gm-proposal", "send the role PMs"), blocking=False,
                        data=(("seed", st.x.deal_seed), ("source", st.x.deal_source)))
        return st.put_proposal(prop)

    # ================================================================== night actions (ON-N3..N6, ON-N9, D14)
    def action_phase(self, st: GameState, ev: ActionEvent, run: RunContext) -> PhaseId | None:
        ph = st.phase  # D16: actions count from the deal to the night deadline, for N1 only
        if ph is None or ph.id != NIGHT or f"actions:{ph.name}" in st.closed:
            return None
        return ph.id

    def on_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        spec = self.actions.get(ev.action)
        if spec is not None and spec.when == "night" and st.phase is None:
            run.reject(ev.action, ev.actor, "before_deal", at=ev.at, source=ev.source, target=ev.target,
                       rule="ON-N9", message=pgettext("gm-rejection", "D16: night actions count from the deal on"), public=False)
            return st
        return super().on_action(st, ev, run)

    def _generic_action_problem(self, st, ev, spec, night):
        problem = super()._generic_action_problem(st, ev, spec, night)
        if problem is not None and problem[1] is None:
            return (problem[0], "ON-N9", problem[2])  # ON-N9: late, foreign or invalid is no action
        return problem

    def role_may_act(self, st: GameState, ev: ActionEvent) -> bool:
        # D1 option: a lone werewolf may look at one centre card (sent as check_centre)
        return (ev.action == "check_centre" and self.options.lone_wolf_peek
                and st.x.dealt_card(ev.actor) == "werewolf" and not self._partners(st, ev.actor))

    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None
                       ) -> tuple[str, str | None, str] | None:
        """D14: Ziener one other player or two distinct centre positions; Dief one other player;
        Onruststoker two distinct other players."""
        if ev.action == "check_centre":
            positions = parse_positions(ev.arg("positions"))
            need = 1 if st.x.dealt_card(ev.actor) == "werewolf" else 2
            if positions is None or len(positions) != need or len(set(positions)) != need:
                what = pgettext("gm-rejection", "one centre position (D1)") if need == 1 \
                    else pgettext("gm-rejection", "two distinct centre positions")
                return ("bad_positions", "ON-N9", pgettext("gm-rejection", "D14: %(what)s of Links, Midden, Rechts", what=what))
            return None
        if ev.actor in ev.targets:
            return ("self_target", "ON-N9", pgettext("gm-rejection", "D14: %(action)s needs another player", action=ev.action))
        if len(set(ev.targets)) != len(ev.targets):
            return ("same_target", "ON-N9", pgettext("gm-rejection", "D14: two distinct other players"))
        return None

    def action_slot(self, ev: ActionEvent) -> str:
        # ON-N4: the Ziener does one of the two looks; the last valid PM counts (D14)
        return "look" if ev.action in ("check", "check_centre") else ev.action

    # ================================================================== night resolution (ON-N1..N8)
    def _partners(self, st: GameState, wolf: str) -> tuple[str, ...]:
        return tuple(p for p, c in st.x.dealt if c == "werewolf" and p != wolf)

    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if phase.id != NIGHT:
            return st
        acts = {(a.actor, self.action_slot(a)): a for a in self.actions_for(st, phase.id)}
        st = self.drop_actions(st, phase.id)
        holding = {p.name: p.role for p in st.players}  # card positions; nothing moved yet
        centre = dict(st.x.centre)
        private: list[PrivateResult] = []

        def actors(card: str) -> list[str]:  # ON-S3: everyone acts as the card they were dealt
            return [p for p, c in st.x.dealt if c == card]

        for step in self.NIGHT_ORDER:
            if step == "werewolf":  # ON-N3 (D1, D6)
                for wolf in actors("werewolf"):
                    private.extend(self._werewolf_results(st, wolf, centre, acts.get((wolf, "look"))))
            elif step == "seer":  # ON-N4
                for seer in actors("seer"):
                    a = acts.get((seer, "look"))
                    if a is None:
                        continue
                    if a.action == "check":
                        private.append(PrivateResult(seer, Fact.of("seer_player", "ON-N4", target=a.target,
                                                                   card=holding[a.target])))
                    else:
                        pos = parse_positions(a.arg("positions")) or ()
                        private.append(PrivateResult(seer, Fact.of("seer_centre", "ON-N4", positions=pos,
                                                                   cards=tuple(centre[p] for p in pos))))
            elif step == "robber":  # ON-N5: swap, then look at the new card
                for robber in actors("robber"):
                    a = acts.get((robber, "rob"))
                    if a is None:
                        continue
                    holding[robber], holding[a.target] = holding[a.target], holding[robber]
                    run.note("night", pgettext("gm-note", "%(player)s (Dief) swaps with %(target)s", player=robber, target=a.target), rule="ON-N5")
                    private.append(PrivateResult(robber, Fact.of("robber_result", "ON-N5", target=a.target,
                                                                 card=holding[robber])))
            elif step == "troublemaker":  # ON-N6: swap two other players, no look
                for tm in actors("troublemaker"):
                    a = acts.get((tm, "swap"))
                    if a is None:
                        continue
                    first, second = a.targets
                    holding[first], holding[second] = holding[second], holding[first]
                    run.note("night", pgettext("gm-note", "%(player)s (Onruststoker) swaps %(first)s and %(second)s", player=tm, first=first, second=second), rule="ON-N6")
                    if self.options.troublemaker_confirm:
                        private.append(PrivateResult(tm, Fact.of("troublemaker_done", "ON-N8",
                                                                 first=first, second=second)))
            elif step == "insomniac":  # ON-N7: the final card, whoever moved it
                for ins in actors("insomniac"):
                    private.append(PrivateResult(ins, Fact.of("insomniac_result", "ON-N7", card=holding[ins])))
            # ON-N1, ON-N2: the Looier and the Jager do nothing at night
        effects = tuple(SetRole(p.name, holding[p.name]) for p in st.players if holding[p.name] != p.role)
        prop = Proposal(key=f"night:{phase.name}", kind="night", phase=phase.name,
                        created_at=run.current_at or phase.start, effects=effects,
                        facts=(Fact.of("day_begins", "ON-N8"),), private=tuple(private),  # ON-N8
                        summary=pgettext("gm-proposal", "%(cards)s card(s) moved; %(pms)s result PM(s)", cards=len(effects), pms=len(private)))
        run.note("proposal", pgettext("gm-note", "night %(phase)s: %(summary)s", phase=phase_label(phase.name), summary=prop.summary), rule="ON-N8")
        return st.put_proposal(prop)

    def _werewolf_results(self, st: GameState, wolf: str, centre: Mapping[str, str],
                          peek: ActionEvent | None) -> list[PrivateResult]:
        partners = self._partners(st, wolf)
        if partners:
            return [PrivateResult(wolf, Fact.of("werewolf_partner", "ON-N3", partners=partners))]
        out = []
        where = [p for p in POSITIONS if centre[p] == "werewolf"]
        if where:
            shown = where[0] if self.options.werewolf_sees_position else ""  # D6: position not told
            out.append(PrivateResult(wolf, Fact.of("werewolf_centre", "ON-N3", position=shown)))
        else:
            out.append(PrivateResult(wolf, Fact.of("werewolf_alone", "ON-N3")))
        if peek is not None and peek.action == "check_centre" and self.options.lone_wolf_peek:  # D1 option
            pos = (parse_positions(peek.arg("positions")) or ("",))[0]
            if pos in centre:
                out.append(PrivateResult(wolf, Fact.of("werewolf_peek", "ON-N3", position=pos, card=centre[pos])))
        return out

    # ================================================================== votes (ON-V1, ON-V2, D11)
    def counts_channel(self, ev: VoteEvent | UnvoteEvent) -> bool:
        return ev.channel in ("pm", "gm")  # ON-V1: PM votes count; thread votes are declarations (ON-V2)

    def on_vote(self, st: GameState, ev: VoteEvent, run: RunContext) -> GameState:
        if ev.channel == "thread":
            return self._declare(st, ev.voter, ev.target, ev, run)
        return self._privately(run, lambda: super(OneNight, self).on_vote(st, ev, run))

    def on_unvote(self, st: GameState, ev: UnvoteEvent, run: RunContext) -> GameState:
        if ev.channel == "thread":
            return self._declare(st, ev.voter, "", ev, run)
        return self._privately(run, lambda: super(OneNight, self).on_unvote(st, ev, run))

    @staticmethod
    def _privately(run: RunContext, step) -> GameState:
        """ON-V1: a PM vote is the GM's to know, so its rejections (late, self-vote) are GM-only."""
        before = len(run.rejections)
        st = step()
        run.rejections[before:] = [replace(r, public=False) for r in run.rejections[before:]]
        return st

    def _declare(self, st: GameState, voter: str, target: str, ev: VoteEvent | UnvoteEvent,
                 run: RunContext) -> GameState:
        """ON-V2: a thread vote is only a declaration, kept for the PM/thread mismatch check (D13)."""
        if not self.voting_open(st) or not st.has_player(voter):
            return st
        rec = VoteRecord(voter=voter, target=target, at=ev.at, source=ev.source or Source("post"),
                         order=run.event_index, note="declaration")
        run.note("declared", pgettext("gm-note", "%(voter)s declares %(target)s in the thread (not counted)", voter=voter, target=target or pgettext("gm-note", "no vote")),
                 source=ev.source, rule="ON-V2")
        return st.with_x(declared=st.x.declared + (rec,))

    def latest_declarations(self, st: GameState) -> dict[str, VoteRecord]:
        """Each player's latest thread declaration of the day (ON-V2): what the check compares."""
        out: dict[str, VoteRecord] = {}
        for rec in st.x.declared:
            out[rec.voter] = rec
        return out

    def vote_problem(self, st: GameState, ev: VoteEvent) -> tuple[str, str | None, str] | None:
        if ev.target == ev.voter and not self.options.self_vote:
            return ("self_vote", "ON-V1", pgettext("gm-rejection", "D11: a vote for oneself is invalid"))
        return None

    def required_actions(self, st: GameState, phase: Phase) -> tuple[Requirement, ...]:
        """D11: players must vote by PM; list who has no valid PM vote yet while the vote is open."""
        if phase.kind != "day" or not self.voting_open(st):
            return ()
        voted = {v.voter for v in st.votes}
        return tuple(Requirement(p.name, ("vote",), "ON-V1", pgettext("gm-finding", "%(player)s has not sent a PM vote yet (D11)", player=p.name))
                     for p in st.living() if p.name not in voted)

    def standing_votes(self, st: GameState, public: bool) -> tuple[VoteRecord, ...]:
        # PM votes are private to the GM (ON-V1): the thread-safe tally shows none of them
        return () if public else st.votes

    # ================================================================== the lynch (ON-V3, D2, D5)
    def resolve_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if phase.id != DAY:
            return st
        t = self.tally(st, phase.votes_close_at())
        run.tallies.append(t)
        top = t.candidates[0].total if t.candidates else 0
        if top == 0:
            return self.propose_no_lynch(st, phase, run, rule="D5", reason="no_votes")
        if top <= 1:  # D2: no player with more than one vote -> nobody dies (D5 decides)
            return self.propose_no_lynch(st, phase, run, rule="D2", reason="no_player_over_one")
        leaders = tuple(c.name for c in t.candidates if c.total == top)
        if len(leaders) > 1 and self.options.tie == "nobody":
            return self.propose_no_lynch(st, phase, run, rule="D2", reason="tie")
        ordered = tuple(p.name for p in st.players if p.name in leaders)  # D2: all tied die
        return self.propose_lynch(st, phase, ordered, run, rule="ON-V3" if len(ordered) == 1 else "D2",
                                  votes=int(top))

    def propose_lynch(self, st: GameState, phase: Phase, names: tuple[str, ...], run: RunContext,
                      rule: str | None = None, key: str | None = None, votes: int = 0) -> GameState:
        facts = [Fact.of("lynched", rule, player=n, card=st.role_of(n), votes=votes) for n in names]  # ON-V3
        facts += [Fact.of("hunter_must_shoot", "ON-V4", player=n) for n in names if st.role_of(n) == "hunter"]
        prop = Proposal(key=key or f"lynch:{phase.name}", kind="lynch", phase=phase.name,
                        created_at=run.current_at or phase.start,
                        effects=tuple(Kill(n, "lynch", reveal=True, rule=rule) for n in names),
                        facts=tuple(facts), summary=pgettext("gm-proposal", "lynch %(names)s", names=join_names(names)))
        run.note("proposal", prop.summary, rule=rule)
        return st.put_proposal(prop)

    # ================================================================== the Jager's shot (ON-V4, D9, D10)
    def on_day_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if ev.action != "shoot":
            return super().on_day_action(st, ev, run)
        shooter = ev.actor
        problem = self._shot_problem(st, ev)
        if problem == "preselect":
            run.note("accepted", pgettext("gm-note", "%(shooter)s leaves a standing shot at %(target)s (D9 option)", shooter=shooter, target=ev.target), source=ev.source,
                     rule="ON-V4")
            return st.with_x(preselect=_set(st.x.preselect, shooter, ev.target or ""))
        if problem is not None:
            code, msg, public = problem
            run.reject("shoot", shooter, code, at=ev.at, source=ev.source, target=ev.target, rule="ON-V4",
                       message=msg, public=public)
            return st
        target = ev.target
        if target is None:  # D9: the GM enters the shot as a seeded random pick
            choices = self._shot_targets(st, shooter)
            rng, st = self.rng(st, f"shot:{shooter}")
            target = rng.choice(choices)
            run.note("draw", pgettext("gm-note", "seeded random shot for %(shooter)s: %(target)s", shooter=shooter, target=target), rule="ON-V4")
        return self._propose_shot(st, shooter, target, run)

    def _shot_targets(self, st: GameState, shooter: str) -> list[str]:
        return [p.name for p in st.living() if p.name != shooter]

    def _shot_problem(self, st: GameState, ev: ActionEvent):
        """None when valid; "preselect" for a standing shot; else (code, message, public)."""
        shooter = ev.actor
        if shooter not in st.x.awaiting:
            if shooter in dict(st.x.shots) or shooter in dict(st.x.named):
                return ("already_shot", pgettext("gm-rejection", "D9: the first valid naming counts and cannot be changed"), True)
            if (self.options.hunter_preselect and not st.x.day_done and ev.channel == "pm"
                    and self.voting_open(st) and len(ev.targets) == 1 and st.is_alive(ev.targets[0])
                    and ev.targets[0] != shooter):
                return "preselect"
            return ("no_shot_now", pgettext("gm-rejection", "D9: only the revealed Jager shoots, after the lynch post"), False)
        if shooter in dict(st.x.named):
            return ("already_shot", pgettext("gm-rejection", "D9: the first valid naming counts and cannot be changed"), True)
        if not ev.targets and ev.by_gm:
            return None
        if len(ev.targets) != 1:
            return ("target_count", pgettext("gm-rejection", "D9: the Jager names one player"), True)
        t = ev.targets[0]
        if t == shooter or not st.is_alive(t):
            return ("invalid_target", pgettext("gm-rejection", "D9: the target must be a living player other than the Jager"), True)
        return None

    def _propose_shot(self, st: GameState, shooter: str, target: str, run: RunContext) -> GameState:
        phase = str(DAY)
        key, n = f"shot:{phase}:{shooter}", 1
        while st.proposal(key) is not None:  # a naming the GM refused keeps its key; the next one counts up
            n += 1
            key = f"shot:{phase}:{shooter}:{n}"
        prop = Proposal(key=key, kind="shot", phase=phase,
                        created_at=run.current_at or st.phase.start, effects=(Kill(target, "hunter", rule="ON-V4"),),
                        facts=(Fact.of("hunter_shot", "ON-V4", hunter=shooter, target=target,
                                       card=st.role_of(target)),),
                        summary=pgettext("gm-proposal", "%(shooter)s (Jager) shoots %(target)s", shooter=shooter, target=target), data=(("hunter", shooter),))
        run.note("proposal", prop.summary, rule="ON-V4")
        return st.with_x(named=_set(st.x.named, shooter, target)).put_proposal(prop)

    def _await_shots(self, st: GameState, hunters: list[str], run: RunContext) -> GameState:
        """ON-V4: each killed Jager must shoot; the GM is reminded after hunter_hours (D9)."""
        for h in hunters:
            if not self._shot_targets(st, h):
                run.note("hunter", pgettext("gm-note", "%(player)s has nobody left to shoot", player=h), rule="ON-V4")
                continue
            st = st.with_x(awaiting=st.x.awaiting + (h,))
            at = run.current_at or st.phase.start
            run.timer(at + timedelta(hours=self.options.hunter_hours), "hunter_reminder", str(DAY), hunter=h)
            standing = dict(st.x.preselect).get(h)
            if standing and self.options.hunter_preselect and st.is_alive(standing) and standing != h:
                st = self._propose_shot(st, h, standing, run)  # D9 option: the standing shot counts
        return st

    def on_timer(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        if timer.name != "hunter_reminder":
            return st
        h = timer.get("hunter")
        if h in st.x.awaiting and h not in dict(st.x.named) and st.outcome is None:
            run.note("reminder", pgettext("gm-note", "%(player)s (Jager) has not named a target after %(hours)s h; the GM may enter the shot", player=h, hours=self.options.hunter_hours), rule="ON-V4")
            st = st.with_x(reminded=st.x.reminded + (h,))
        return st

    def on_override(self, st: GameState, ev: Override, run: RunContext) -> GameState:
        if ev.kind == "shoot":  # the GM enters the shot; an empty target draws it by seed (D9)
            act = ActionEvent(at=ev.at, seq=ev.seq, actor=ev.player, action="shoot",
                              targets=(ev.target,) if ev.target else (), source=ev.source or Source("gm"),
                              channel="gm", by_gm=True)
            return self.on_day_action(st, act, run)
        if ev.kind == "no_lynch" and st.phase is not None and st.phase.id == DAY and not st.x.day_done:
            run.note("override", pgettext("gm-note", "GM: nobody is lynched"), source=ev.source)  # D5 then decides
            prop = Proposal(key=f"gm:no_lynch:{ev.at.isoformat()}", kind="lynch", phase=str(DAY), created_at=ev.at,
                            facts=(Fact.of("no_lynch", "D5", reason="gm"),), status="approved", decided_at=ev.at)
            st = replace(st, proposals=st.proposals + (prop,))
            return self.apply_proposal(st, prop, run)
        if ev.kind == "set_role" and not st.x.night_done and st.has_player(ev.player):
            st = st.with_x(dealt=tuple((p, self.canonical_role(ev.role) if p == ev.player else c)
                                       for p, c in st.x.dealt))  # the GM corrects the deal
        return super().on_override(st, ev, run)

    # ================================================================== applying
    def after_proposal(self, st: GameState, prop: Proposal, killed: list[str], run: RunContext) -> GameState:
        if prop.kind == "night":
            return st.with_x(night_done=True)
        if prop.kind == "lynch":
            st = st.with_x(day_done=True, lynched=st.x.lynched + tuple(killed))
            return self._await_shots(st, [n for n in killed if st.role_of(n) == "hunter"], run)
        if prop.kind == "shot":
            h = dict(prop.data)["hunter"]
            target = dict(st.x.named).get(h, "")
            st = st.with_x(awaiting=tuple(a for a in st.x.awaiting if a != h), named=_drop(st.x.named, h),
                           shots=st.x.shots + ((h, target),))
            if self.options.hunter_chain:  # D10 option: a named Jager shoots too
                return self._await_shots(st, [n for n in killed if st.role_of(n) == "hunter"], run)
        return st

    def on_proposal_rejected(self, st: GameState, prop: Proposal, run: RunContext) -> GameState:
        if prop.kind == "shot":  # the GM refused the naming: the Jager names again
            h = dict(prop.data)["hunter"]
            return st.with_x(named=_drop(st.x.named, h))
        return st

    def rename_in_x(self, x: OneNightX, old: str, new: str) -> OneNightX:
        def ren(n: str) -> str:
            return new if n == old else n

        def pairs(ps: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
            return tuple((ren(a), ren(b)) for a, b in ps)

        return replace(x, dealt=pairs(x.dealt), lynched=tuple(ren(n) for n in x.lynched),
                       awaiting=tuple(ren(n) for n in x.awaiting), named=pairs(x.named), shots=pairs(x.shots),
                       preselect=pairs(x.preselect), reminded=tuple(ren(n) for n in x.reminded),
                       declared=tuple(replace(v, voter=ren(v.voter), target=ren(v.target)) for v in x.declared))

    # ================================================================== wins (ON-W1..W6, D3, D5, D7, D8)
    def check_win(self, st: GameState) -> Outcome | None:
        if not st.x.day_done or st.x.awaiting:  # D9: no winner until every Jager has shot
            return None
        killed = [p for p in st.players if not p.alive]
        # ON-W4, D7: the Jager card decides nothing; the cards of the others killed do
        cards = {p.role for p in killed if p.role != "hunter"}
        shot = bool(st.x.shots)
        if not cards:
            return self._nobody_died_win(st, bool(killed))
        holders = self._holders
        if "werewolf" in cards or "tanner" in cards:
            winners: list[str] = []
            factions: list[str] = []
            if "tanner" in cards:  # ON-W3, D3
                winners += holders(st, {"tanner"})
                factions.append("tanner")
            if "werewolf" in cards:  # ON-W2
                winners += holders(st, VILLAGE_CARDS)
                factions.append("village")
            seated = [p.name for p in st.players if p.name in winners]
            result = "tanner_village" if len(factions) == 2 else ("tanner" if "tanner" in factions else "village")
            rule = "ON-W4" if shot else ("D7" if len(killed) > 1 else ("ON-W3" if result == "tanner" else "ON-W2"))
            return Outcome(result, tuple(seated), f"killed cards: {', '.join(sorted(cards))}", rule,
                           factions=tuple(factions))
        return self._werewolves_win(st, "ON-W4" if shot else ("D7" if len(killed) > 1 else "ON-W1"),
                                    f"killed cards: {', '.join(sorted(cards))}")  # ON-W1

    @staticmethod
    def _holders(st: GameState, cards: frozenset[str] | set[str]) -> list[str]:
        """D8: a side is the players holding its cards at the end of the night, alive or dead (ON-W5)."""
        return [p.name for p in st.players if p.role in cards]

    def _werewolves_win(self, st: GameState, rule: str, reason: str) -> Outcome:
        wolves = self._holders(st, {"werewolf"})
        if not wolves:  # D8: the werewolves win but nobody holds a Weerwolf card
            return Outcome("nobody", (), reason + "; no player holds a Weerwolf card", "D8")
        return Outcome("werewolves", tuple(wolves), reason, rule, factions=("werewolves",))

    def _nobody_died_win(self, st: GameState, someone_died: bool) -> Outcome:
        """D5: nobody died -> the village wins if no player holds a Weerwolf card, else the
        werewolves; the Looier loses. Also used when only Jager cards died (nothing decides)."""
        reason = "only Jager cards were killed" if someone_died else "nobody died"
        if not self._holders(st, {"werewolf"}):
            return Outcome("village", tuple(self._holders(st, VILLAGE_CARDS)),
                           reason + "; no player holds a Weerwolf card", "D5", factions=("village",))
        return self._werewolves_win(st, "D5", reason)

    def check_and_set_win(self, st: GameState, run: RunContext) -> GameState:
        had = st.outcome is not None
        st = super().check_and_set_win(st, run)
        if st.outcome is not None and not had:
            phase = st.phase.name if st.phase else ""
            for fact in self.final_reveal(st):
                run.facts.append((phase, fact))
        return st

    def final_reveal(self, st: GameState) -> tuple[Fact, ...]:
        """D15: every player's final card (with the dealt one) and the centre; option: only the
        killed players' and the winners' cards."""
        everyone = self.options.reveal == "all"
        shown = {p.name for p in st.players if not p.alive} | set(st.outcome.winners if st.outcome else ())
        facts = [self._final_card(st, p) for p in st.players if everyone or p.name in shown]
        if everyone:
            facts += [Fact.of("centre_card", "D15", position=pos, card=c) for pos, c in st.x.centre]
        return tuple(facts)

    def game_over_shown(self, st: GameState) -> frozenset[str] | None:
        """D15 option `killed_and_winners`: the game-over post lists only their cards too."""
        if self.options.reveal == "all":
            return None
        return frozenset(p.name for p in st.players if not p.alive) | frozenset(st.outcome.winners if st.outcome else ())

    @staticmethod
    def _final_card(st: GameState, p: Player) -> Fact:
        """D15: `moved` says whether the card in front of the player is not the one dealt to them
        (ON-S3: a player is not told that their card moved), so the post says "dealt X" only then."""
        dealt = st.x.dealt_card(p.name) or ""
        return Fact.of("final_card", "D15", player=p.name, card=p.role, dealt=dealt,
                       moved=bool(dealt) and dealt != p.role)
