"""The `village` ruleset class: data (roles, night order, facts, timing) and the hook dispatch.

Setup data (`Setup.extra`):
* `buildings`: player -> building code (§2.2); players not listed are Vagabonds. Without it the
  tokens in `building_pool` (config `setup.buildings`, code -> count; farms default to
  `setup.farms`) are drawn with the
  game's seed (`setup.building_method`; a `draft` is recorded by the GM as `buildings`).
* `thief_cards` (or `centre`): the Thief's two set-aside cards (§2.1).
* `state`: a preset for tests and GM corrections, read once at the start: `alive` (the only living
  players), `tokens` ({code or code@Pk: state}), `sheriff`, `poster`, `lovers`, `charmed`,
  `guardian_last` ([night, player]), `potions` ({heal: bool, poison: bool}), `pyro_used`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from typing import Any, Mapping

from forummod.engine.events import ActionEvent, Timer
from forummod.engine.ruleset import GmNote, RoleSpec, Ruleset, RunContext, Setup, Timing
from forummod.engine.types import Death, Fact, GameState, Phase
from forummod.schema import Duration
from forummod.i18n import pgettext

from .buildings import BuildingsMixin
from .cascade import CascadeMixin
from .common import CommonMixin
from .dawn import DawnMixin
from .day import DayMixin
from .effects import VILLAGE_EFFECTS, Burn, RevealIdiot, apply_village_effect
from .facts import FACTS
from .night import NIGHT_ORDER_SEED, NightMixin
from .options import VillageOptions
from .sheriff import SheriffMixin
from .state import Building, VillageX, building_of, faction_of_card, fresh_token
from .votes import VoteMixin
from .wins import WinsMixin

BUILDING_CODES = ("farm", "church", "hovel", "school", "bakery", "barbershop", "bailiff", "tavern", "manor")
#: §5.2: the rule of each building's power
BUILDING_RULES = {"farm": "VIL-B-FARM", "church": "VIL-B-CHURCH", "hovel": "VIL-B-HOVEL", "school": "VIL-B-SCHOOL",
                  "bakery": "VIL-B-BAKERY", "barbershop": "VIL-B-BARBER", "bailiff": "VIL-B-BAILIFF",
                  "tavern": "VIL-B-TAVERN", "manor": "VIL-B-MANOR"}

DAY_HANDLERS = {
    "silence": "on_silence", "barber": "on_barber", "confess": "on_confess", "restore": "on_restore",
    "pardon": "on_pardon", "plead": "on_plead", "assign": "on_assign", "accept": "on_answer",
    "refuse": "on_answer", "elect": "on_elect", "sheriff_choice": "on_sheriff_choice",
    "successor": "on_successor", "shoot": "on_shoot", "scapegoat_ruling": "on_scapegoat_ruling",
}
REACTIONS = ("shoot", "successor", "scapegoat_ruling")  # sent by players who just died

TIMERS = {
    "thief_close": "timer_thief", "window": "window_timeout", "vote_open": "timer_vote_open",
    "bk_window": "barkeeper_window_end", "revote_close": "revote_close", "sheriff_choice": "sheriff_choice_timeout",
    "lord_close": "lord_close", "morning_close": "morning_close", "election_close": "election_close",
    "day_power": "timer_day_power",
}

#: VIL-A-54: at equal timestamps the §5.2 order goes first (Confessor, Bonesetter, Barber): the later
#: ones are handled a few microseconds after every input stamped at that instant.
SAME_INSTANT_DELAY = {"restore": 1, "barber": 2}


def _role(rid: str, faction: str, rule: str, unique: bool = True) -> RoleSpec:
    wolf = rid in ("werewolf", "white_werewolf")
    return RoleSpec(rid, faction, seen_as="werewolf" if wolf else "not_werewolf",
                    counts_as="wolf" if wolf else "human", rule=rule, unique=unique)


class Village(NightMixin, DawnMixin, VoteMixin, DayMixin, BuildingsMixin, SheriffMixin, CascadeMixin, WinsMixin,
              CommonMixin, Ruleset):
    name = "village"
    title = "Werewolves of Millers Hollow: The Village (狼人村莊)"
    language = "zh"
    Options = VillageOptions
    vote_rule = "VIL-V-2"
    ROLES = {
        "villager": _role("villager", "villagers", "VIL-R-VILLAGER", unique=False),
        "werewolf": _role("werewolf", "werewolves", "VIL-R-WEREWOLF", unique=False),
        "seer": _role("seer", "villagers", "VIL-R-SEER"),
        "cupid": _role("cupid", "villagers", "VIL-R-CUPID"),
        "witch": _role("witch", "villagers", "VIL-R-WITCH"),
        "little_girl": _role("little_girl", "villagers", "VIL-R-LITTLE-GIRL"),
        "hunter": _role("hunter", "villagers", "VIL-R-HUNTER"),
        "thief": _role("thief", "villagers", "VIL-R-THIEF"),
        "guardian": _role("guardian", "villagers", "VIL-R-GUARDIAN"),
        "piper": _role("piper", "piper", "VIL-R-PIPER"),
        "white_werewolf": _role("white_werewolf", "white_werewolf", "VIL-R-WHITE-WEREWOLF"),
        "pyromaniac": _role("pyromaniac", "villagers", "VIL-A-36"),
        "scandalmonger": _role("scandalmonger", "villagers", "VIL-A-36"),
        "elder": _role("elder", "villagers", "VIL-R-ELDER"),
        "idiot": _role("idiot", "villagers", "VIL-R-IDIOT"),
        "scapegoat": _role("scapegoat", "villagers", "VIL-R-SCAPEGOAT"),
    }
    NIGHT_ORDER = NIGHT_ORDER_SEED
    FACTS = FACTS
    TIMING = Timing(first_phase="night", vote_close="48h", day_end="74h", action_deadline="24h", night_end="30h")

    @classmethod
    def default_timing(cls, options: Any) -> Timing:
        """Phase deadlines from `time`: Wave 1 at `night_deadline`, dawn after the Witch's wave, the
        vote close at `vote_close`, nightfall after the longest lynch procedure: a tie broken by the
        Sheriff (or his silence, then the re-vote) and the Lord's window, so the execution always
        lands in the day (VIL-V-5, VIL-D-06, VIL-D-07)."""
        t = getattr(options, "time", None) or VillageOptions().time
        d = lambda *parts: str(Duration(sum(p.seconds for p in parts)))  # noqa: E731
        sheriff = getattr(options, "sheriff", None)
        tie = (t.reaction_window, t.revote_window) if sheriff is None or sheriff.breaks_ties else (t.revote_window,)
        return Timing(first_phase="night", vote_close=d(t.vote_close), day_end=d(t.vote_close, *tie, t.lord_window),
                      action_deadline=d(t.night_deadline), night_end=d(t.night_deadline, t.witch_deadline))

    @classmethod
    def check_setup(cls, game: Any, roles: Mapping[str, str]) -> tuple[str, str] | None:
        for pl in getattr(game, "players", ()):
            if pl.building and pl.building not in BUILDING_CODES:
                return (f"players.{pl.name}.building", f"unknown building {pl.building!r} (one of {', '.join(BUILDING_CODES)})")
        return None

    # ------------------------------------------------------------------ setup
    def initial_state(self, setup: Setup) -> GameState:
        st = super().initial_state(setup)
        alive = (setup.extra or {}).get("state", {}).get("alive")
        if alive is not None:
            for p in st.players:
                if p.name not in alive:
                    st = st.update_player(p.name, alive=False, death=Death(phase="", cause="preset"))
        return st

    def initial_x(self, st: GameState, setup: Setup) -> VillageX:
        extra = setup.extra or {}
        x = VillageX(buildings=self.deal_buildings(st, setup),
                     thief_cards=tuple(self.canonical_role(c) for c in (extra.get("thief_cards") or extra.get("centre") or ())))
        return self.apply_preset(x, extra.get("state") or {}, st)

    def deal_buildings(self, st: GameState, setup: Setup) -> tuple[Building, ...]:
        extra = setup.extra or {}
        given = extra.get("buildings")
        players = [p.name for p in st.players]
        if given is None:
            counts = dict(extra.get("building_pool") or extra.get("building_counts") or {})
            counts.setdefault("farm", self.options.setup.farms)
            bag = [c for c in BUILDING_CODES for _ in range(int(counts.get(c, 0)))]
            rng = random.Random(f"buildings:{setup.seed}")  # §2.2: a recorded, reproducible draw
            rng.shuffle(bag)
            bag = (bag + [""] * len(players))[: len(players)]
            rng.shuffle(bag)  # Vagabond tokens fill the gaps
            given = dict(zip(players, bag))
        return tuple(Building(code, p, fresh_token(code)) for p in players if (code := given.get(p, "")))

    def apply_preset(self, x: VillageX, preset: Mapping[str, Any], st: GameState) -> VillageX:
        if not preset:
            return x
        blds = list(x.buildings)
        for key, token in (preset.get("tokens") or {}).items():
            blds = [replace(b, token=token) if (b.id == key or b.code == key) else b for b in blds]
        lovers = tuple(preset.get("lovers") or ())
        cross = len(lovers) == 2 and faction_of_card(st.role_of(lovers[0])) != faction_of_card(st.role_of(lovers[1]))
        potions = preset.get("potions") or {}
        g = preset.get("guardian_last")
        return replace(x, buildings=tuple(blds), lovers=lovers, lovers_cross=cross,
                       sheriff=preset.get("sheriff"), election_done=bool(preset.get("sheriff")) or x.election_done,
                       poster=preset.get("poster"), charmed=frozenset(preset.get("charmed") or ()),
                       guardian_last=(int(g[0]), g[1]) if g else x.guardian_last,
                       heal_left=potions.get("heal", True), poison_left=potions.get("poison", True),
                       pyro_used=bool(preset.get("pyro_used", False)), thief_done=bool(preset.get("thief_done", False)))

    # ------------------------------------------------------------------ role PMs
    def role_pm_facts(self, st: GameState, player: str) -> tuple[Fact, ...]:
        """§2.2: every player holds one building or is a Vagabond; the role PM names it and its
        power (VIL-B-*, VIL-B-VAGABOND). Buildings are public, so this reveals nothing."""
        if not st.has_player(player):
            return ()
        b = building_of(st, player)
        code = b.code if b is not None else ""
        return (Fact.of("your_building", BUILDING_RULES.get(code, "VIL-B-VAGABOND"), building=code),)

    # ------------------------------------------------------------------ phases
    def on_phase_start(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        st = super().on_phase_start(st, phase, run)
        if phase.kind == "night":
            return self.start_night(st, phase, run)
        return self.start_day(st, phase, run)

    def start_day(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        n = phase.id.number
        st = self.start_lynch(st, phase, run)
        if not any(d == n for d, _ in st.x.mornings):  # no dawn before this day (first phase, GM restart)
            st = self.open_morning(st, run, n)
            if st.x.morning is None:
                st = self.maybe_open_election(st, run, n)
        return st

    RESUMABLE = {
        "sheriff": "player: the Sheriff (the election is over) (VIL-B-FARM, VIL-D-02)",
        "no_sheriff": "no player: the election is over and there is no Sheriff any more (VIL-A-09)",
        "election_done": "no player: the farmers' election was held (VIL-D-02)",
        "poster": "player: the poster hangs on their door; value: the Scandalmonger who put it (VIL-S-POSTER)",
        "potion_used": "player: the Witch; value: heal or poison, the potion she has used (VIL-N-11)",
        "fire_used": "player: the Pyromaniac, who has set his one fire (VIL-N-10)",
        "hunter_fired": "player: a Hunter who has shot (VIL-R-HUNTER)",
        "token": "player: a building's holder; value: its token now, e.g. spent, lost, ready, held (§5.2)",
        "building": "player: now holds this building; value: its code, e.g. farm (VIL-B-BAILIFF assignments)",
        "burned": "player: their building burned; they are a Vagabond (VIL-N-10)",
        "lovers": "player and value: the two lovers (VIL-N-02)",
        "charmed": "value: the charmed players, separated by commas (VIL-N-12)",
    }

    def apply_state(self, st: GameState, key: str, player: str, value: str) -> GameState:
        x = st.x
        if key == "sheriff":
            return st.with_x(sheriff=player, election_done=True, election_held=True)
        if key == "no_sheriff":
            return st.with_x(sheriff=None, sheriff_extinct=True, election_done=True)
        if key == "election_done":
            return st.with_x(election_done=True, election_held=True)
        if key == "poster":
            by = value or next(iter(st.holders("scandalmonger", alive_only=False)), None)
            return st.with_x(poster=player, poster_by=by)
        if key == "potion_used":
            return st.with_x(**({"poison_left": False} if value.strip().lower() == "poison" else {"heal_left": False}))
        if key == "fire_used":
            return st.with_x(pyro_used=True)
        if key == "hunter_fired":
            return st.with_x(hunters_fired=x.hunters_fired | {player})
        if key == "token":
            return st.with_x(buildings=tuple(replace(b, token=value) if b.holder == player and not b.destroyed else b
                                             for b in x.buildings))
        if key == "building":
            kept = tuple(b for b in x.buildings if not (b.holder == player and not b.destroyed))
            return st.with_x(buildings=kept + (Building(value, player, fresh_token(value)),))
        if key == "burned":
            return st.with_x(buildings=tuple(replace(b, destroyed=True) if b.holder == player else b
                                             for b in x.buildings))
        if key == "lovers":
            return st.with_x(lovers=(player, value))
        if key == "charmed":
            return st.with_x(charmed=frozenset(n.strip() for n in value.replace("，", ",").split(",") if n.strip()))
        return st

    def gm_notes(self, st: GameState, phase: Phase | None) -> tuple[GmNote, ...]:
        """The Sheriff (VIL-B-FARM), the poster (VIL-S-POSTER), every building token (§5.2), the
        Witch's potions (VIL-N-11), the Pyromaniac's fire (VIL-N-10), the lovers (VIL-N-02)."""
        x = st.x
        if x is None:
            return ()
        out = []
        if x.sheriff:
            out.append(GmNote("title", x.sheriff, "sheriff", "votes x2, breaks ties", "VIL-B-FARM"))
        if x.poster:
            out.append(GmNote("title", x.poster, "poster", f"+{self.options.scandalmonger.penalty}", "VIL-S-POSTER"))
        for b in x.buildings:
            if not (b.token or b.destroyed):
                continue  # a building without a token (a farm) has nothing to spend
            state = "destroyed" if b.destroyed else b.token
            out.append(GmNote("power", b.holder, f"{b.code} token", state, "VIL-B-" + b.code.upper()))
        for witch in st.holders("witch", alive_only=False):
            out.append(GmNote("power", witch, "heal potion", "left" if x.heal_left else "used", "VIL-N-11"))
            out.append(GmNote("power", witch, "poison potion", "left" if x.poison_left else "used", "VIL-N-11"))
        for pyro in st.holders("pyromaniac", alive_only=False):
            out.append(GmNote("power", pyro, "fire", "used" if x.pyro_used else "left", "VIL-N-10"))
        for hunter in sorted(x.hunters_fired):
            out.append(GmNote("power", hunter, "hunter shot", "used", "VIL-R-HUNTER"))
        if x.lovers:
            out.append(GmNote("title", " & ".join(x.lovers), "lovers", "", "VIL-N-02"))
        return tuple(out)

    def on_phase_end(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        if phase.kind == "night" and st.x.tonight is not None and not st.x.tonight.dawned:
            return self.dawn(st, phase, run)
        return st

    def timer_thief(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        return self.close_wave0(st, timer.phase, run)

    def timer_vote_open(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        lynch = st.x.lynch
        if lynch is None or lynch.day != timer.get("day") or lynch.stage != "waiting":
            return st
        return self.open_round(st, run, lynch.closes, round_=1)

    def on_timer(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        handler = TIMERS.get(timer.name)
        return getattr(self, handler)(st, timer, run) if handler else st

    # ------------------------------------------------------------------ actions
    def on_action(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        spec = self.actions.get(ev.action)
        if spec is None or spec.when == "night":
            return super().on_action(st, ev, run)
        problem = self._day_action_problem(st, ev, spec)
        if problem is not None:
            self.refuse(run, ev, problem[0], problem[1] or spec.rule, problem[2])
            return st
        delay = SAME_INSTANT_DELAY.get(ev.action)
        if delay:  # VIL-A-54
            run.timer(ev.at + timedelta(microseconds=delay), "day_power", st.phase.name if st.phase else "", event=ev)
            return st
        return getattr(self, DAY_HANDLERS[ev.action])(st, ev, run)

    def timer_day_power(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        ev = timer.get("event")
        problem = self._day_action_problem(st, ev, self.actions[ev.action])
        if problem is not None:
            self.refuse(run, ev, problem[0], problem[1], problem[2])
            return st
        return getattr(self, DAY_HANDLERS[ev.action])(st, ev, run)

    def _day_action_problem(self, st, ev, spec):
        if st.outcome is not None:
            return ("game_over", None, pgettext("gm-rejection", "the game is over"))
        if ev.by_gm and ev.action in ("successor", "elect"):  # GM's choice (VIL-A-06, VIL-A-07)
            return None
        if not st.has_player(ev.actor):
            return ("non_player", None, pgettext("gm-rejection", "%(actor)s is not a player", actor=ev.actor))
        if ev.action not in REACTIONS and not st.is_alive(ev.actor):
            return ("dead_actor", None, pgettext("gm-rejection", "%(actor)s is dead", actor=ev.actor))
        return self.action_target_problem(st, ev, spec)

    # ------------------------------------------------------------------ applying proposals
    def apply_effect(self, st: GameState, eff: Any, phase: str, run: RunContext):
        if isinstance(eff, VILLAGE_EFFECTS):
            return apply_village_effect(st, eff), []
        return super().apply_effect(st, eff, phase, run)

    def after_proposal(self, st: GameState, prop, killed: list[str], run: RunContext) -> GameState:
        if prop.kind == "dawn":
            return self.after_dawn(st, prop, killed, run)
        st = self.cascade(st, killed, run)
        if prop.kind == "lynch" and self.options.bailiff.day_vacancies == "after_execution" and st.x.lynch:
            st = self.open_morning(st, run, st.x.lynch.day, label="after_execution")  # VIL-A-22
        for eff in prop.effects:
            if isinstance(eff, RevealIdiot) and st.x.sheriff == eff.player and not self.options.idiot.sheriff_keeps_title:
                st, win = self.sheriff_gone(st, eff.player, run)  # VIL-A-57
                st = self.open_windows(st, [win] if win else [], run)
        return st

    def after_dawn(self, st: GameState, prop, killed: list[str], run: RunContext) -> GameState:
        tn = st.x.tonight
        st = st.with_x(nights=st.x.nights + ((tn,) if tn else ()))
        st = self.cascade(st, killed, run)
        for eff in prop.effects:  # VIL-A-08: the Sheriff's farm burns
            if isinstance(eff, Burn) and st.x.sheriff and eff.building == f"farm@{st.x.sheriff}" \
                    and not self.options.sheriff.burned_farm_keeps_title:
                st, win = self.sheriff_gone(st, st.x.sheriff, run)
                st = self.open_windows(st, [win] if win else [], run)
        n = tn.night if tn else 0
        if self.check_win(st) is None and st.outcome is None:
            if self.holding_windows(st):
                st = self.post(st, run, f"pending:{prop.phase}", "announce",
                               facts=(Fact.of("victory_pending", "VIL-D-01"),))
            st = self.open_morning(st, run, n)  # VIL-D-01b
            if st.x.morning is None or st.x.morning.day != n:
                st = self.maybe_open_election(st, run, n)
        return st

    # ------------------------------------------------------------------ GM overrides
    def on_override(self, st: GameState, ev, run: RunContext) -> GameState:
        """`shoot`: a Hunter's shot the GM enters (VIL-R-HUNTER); `no_lynch`: the GM ends today's lynch."""
        if ev.kind == "shoot" and st.has_player(ev.player):
            act = ActionEvent(at=ev.at, actor=ev.player, action="shoot", targets=(ev.target,), source=ev.source,
                              channel="gm", by_gm=True)
            return self.on_shoot(st, act, run)
        if ev.kind == "no_lynch" and st.x.lynch is not None and st.x.lynch.stage != "done":
            run.note("override", pgettext("gm-note", "GM: no lynch today"), source=ev.source)
            return self.finish_no_lynch(st, run, "gm")
        return super().on_override(st, ev, run)

    # ------------------------------------------------------------------ GM replacements
    def rename_in_x(self, x: VillageX, old: str, new: str) -> VillageX:
        ren = lambda n: new if n == old else n  # noqa: E731
        return replace(x, buildings=tuple(replace(b, holder=ren(b.holder)) for b in x.buildings),
                       lovers=tuple(ren(n) for n in x.lovers), charmed=frozenset(ren(n) for n in x.charmed),
                       sheriff=ren(x.sheriff) if x.sheriff else None, poster=ren(x.poster) if x.poster else None,
                       silenced=frozenset(ren(n) for n in x.silenced))
