"""Nights (§3.2, §4): validation of night PMs, the waves, and the dawn resolution (§4.2).

Collection: Wave 0 (Thief, Night 1, closed by a timer), Wave 1 (every other role, closed at the
phase's action deadline: `resolve_night`), Wave 2 (the Witch, until the phase end). The dawn
resolution runs at the night's end (`dawn`) in the strict §4.2 order and produces one blocking
proposal, the dawn post VIL-D-01.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from forummod.engine.events import ActionEvent
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState, Phase, PhaseId, SetRole
from forummod.i18n import pgettext

from .state import (
    Tonight, barkeeper_holding, building, building_by_code, building_of, faction_of_card, is_vagabond,
    pack, seat_sorted,
)

WITCH_VERBS = ("heal", "poison", "no_potion")
THIEF_VERBS = ("thief_take", "thief_keep")

#: VIL-A-01: the seed's order (Scandalmonger last) and the Pact preset (Raven before the Defender).
NIGHT_ORDER_SEED = (
    "thief",               # VIL-N-01
    "cupid",               # VIL-N-02
    "lovers",              # VIL-N-03
    "guardian",            # VIL-N-04
    "seer",                # VIL-N-05
    "pack",                # VIL-N-06
    "little_girl",         # VIL-N-07
    "baker",               # VIL-N-08
    "white_werewolf_solo", # VIL-N-09
    "pyromaniac",          # VIL-N-10
    "witch",               # VIL-N-11
    "piper",               # VIL-N-12
    "charmed",             # VIL-N-13
    "scandalmonger",       # VIL-N-14
    "dawn",                # VIL-N-15 → §4.2
)
NIGHT_ORDER_PACT = ("thief", "cupid", "lovers", "scandalmonger", "guardian", "seer", "pack", "little_girl",
                    "baker", "white_werewolf_solo", "pyromaniac", "witch", "piper", "charmed", "dawn")

RISK_P = {"small": 0.2, "big": 0.4}  # §5.1.6 (BGA)


class NightMixin:
    # ------------------------------------------------------------------ order
    def night_order(self) -> tuple[str, ...]:
        return NIGHT_ORDER_PACT if self.options.night_order == "pact" else NIGHT_ORDER_SEED

    def ww_night(self, n: int) -> bool:
        """VIL-A-37: the White Werewolf's solo nights."""
        return n % 2 == (0 if self.options.white_werewolf.schedule == "even" else 1)

    # ------------------------------------------------------------------ nightfall (VIL-N-00)
    def start_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        n = phase.id.number
        st = st.with_x(silenced=frozenset(), silenced_count=0, tonight=Tonight(night=n))  # VIL-N-00
        private = []
        thief = next(iter(st.holders("thief")), None)
        if n == 1 and thief and st.x.thief_cards and not st.x.thief_done:
            private.append(self.tell(thief, "thief_cards", "VIL-N-01", cards=st.x.thief_cards))
            due = min(self.after(run, self.options.time.thief_deadline), phase.actions_due_at() or phase.start
                      + self.td(self.options.time.thief_deadline))
            run.timer(due, "thief_close", phase.name)
        else:
            st = st.with_x(thief_done=True)
        deadline = phase.actions_due_at()
        return self.post(st, run, f"nightfall:{phase.name}", "nightfall", summary=pgettext("gm-proposal", "night %(n)s", n=n),
                         facts=(Fact.of("nightfall", "VIL-N-00", night=n,
                                        deadline=deadline.isoformat() if deadline else ""),),
                         private=private)

    # ------------------------------------------------------------------ windows
    def action_phase(self, st: GameState, ev: ActionEvent, run: RunContext) -> PhaseId | None:
        ph = st.phase
        if ph is None or ph.kind != "night":
            return None
        tn = st.x.tonight
        if ev.action in WITCH_VERBS:  # Wave 2 runs until dawn
            return None if tn is None or tn.dawned else ph.id
        if ev.action in THIEF_VERBS:  # Wave 0
            return None if st.x.thief_done else ph.id
        return None if f"actions:{ph.name}" in st.closed else ph.id

    def role_may_act(self, st: GameState, ev: ActionEvent) -> bool:
        # the Baker in `risk` mode spies like the Little Girl (VIL-A-17)
        return ev.action == "spy" and self.building_power(st, ev.actor, "bakery") and self.options.baker.mode == "risk"

    def queue_action(self, st: GameState, ev: ActionEvent, night: PhaseId | None, run: RunContext) -> GameState:
        # the Witch's choice is one answer: "no potion" clears the potions, a potion clears "no potion"
        if ev.action in WITCH_VERBS:
            drop = ("heal", "poison") if ev.action == "no_potion" else ("no_potion",)
            st = replace(st, actions=tuple(a for a in st.actions if not (
                a.actor == ev.actor and a.action in drop and a.arg("_night") == str(night))))
        if ev.action in THIEF_VERBS:
            st = replace(st, actions=tuple(a for a in st.actions if not (
                a.actor == ev.actor and a.action in THIEF_VERBS)))
        return super().queue_action(st, ev, night, run)

    # ------------------------------------------------------------------ validation
    def action_problem(self, st: GameState, ev: ActionEvent, night: PhaseId | None):
        n = night.number if night else 0
        a, t, x = ev.action, ev.target, st.x
        if self.powers_lost_for(st, ev.actor) and a not in ("kill", "ww_kill", "charm", "watch", "pack_submitter"):
            return ("power_lost", "VIL-R-ELDER", pgettext("gm-rejection", "the villagers lost their powers when the Elder was killed"))
        for tgt in ev.targets:
            if a != "burn" and not st.is_alive(tgt):
                return ("dead_target", None, pgettext("gm-rejection", "%(player)s is dead", player=tgt))
        check = getattr(self, f"_check_{a}", None)
        return check(st, ev, n) if check else None

    def _check_thief_take(self, st, ev, n):
        if n != 1:
            return ("wrong_night", "VIL-N-01", pgettext("gm-rejection", "the Thief acts on Night 1 only"))
        card = ev.arg("card", "")
        if card not in ("1", "2")[: len(st.x.thief_cards)]:
            return ("bad_card", "VIL-N-01", pgettext("gm-rejection", "name the first or the second card"))
        return None

    def _check_thief_keep(self, st, ev, n):
        if n != 1:
            return ("wrong_night", "VIL-N-01", pgettext("gm-rejection", "the Thief acts on Night 1 only"))
        if self.thief_must_swap(st):
            return ("must_swap", "VIL-N-01", pgettext("gm-rejection", "both cards are werewolves, or keeping is not allowed"))
        return None

    def _check_link(self, st, ev, n):
        if n != 1:
            return ("wrong_night", "VIL-N-02", pgettext("gm-rejection", "Cupid acts on Night 1 only"))
        if len(set(ev.targets)) != 2:
            return ("target_count", "VIL-N-02", pgettext("gm-rejection", "name two different players"))
        return None

    def _check_protect(self, st, ev, n):
        if self.options.guardian.first_night_only and n != 1:
            return ("wrong_night", "VIL-A-02", pgettext("gm-rejection", "the Guardian acts on Night 1 only"))
        last_n, last_t = st.x.guardian_last
        if last_n == n - 1 and last_t == ev.target:
            return ("repeat_target", "VIL-N-04", pgettext("gm-rejection", "not the player protected last night"))
        if st.role_of(ev.target) == "little_girl" and self.options.guardian.little_girl == "forbidden":
            return ("not_protectable", "VIL-A-59", pgettext("gm-rejection", "the Little Girl cannot be protected"))
        return None

    def _check_check(self, st, ev, n):
        return ("self_target", "VIL-N-05", "the Seer looks at someone else") if ev.target == ev.actor else None

    def _check_kill(self, st, ev, n):
        t = ev.target
        if st.role_of(t) in ("werewolf", "white_werewolf") and not self.options.wolves.can_target_wolves:
            return ("pack_target", "VIL-A-42", pgettext("gm-rejection", "the pack cannot attack a pack member"))
        if barkeeper_holding(st, t):
            return ("barkeeper_immune", "VIL-B-TAVERN", pgettext("gm-rejection", "the Barkeeper holds his token"))
        return None

    def _check_pack_submitter(self, st, ev, n):
        return None if ev.target in pack(st) else ("not_pack_member", "VIL-A-43", "the submitter must be in the pack")

    def _check_ww_kill(self, st, ev, n):
        if not self.ww_night(n):
            return ("wrong_night", "VIL-A-37", pgettext("gm-rejection", "not a night of the White Werewolf's solo kill"))
        t = ev.target
        if t == ev.actor or t not in pack(st):
            return ("not_pack_member", "VIL-N-09", pgettext("gm-rejection", "the White Werewolf kills another pack member"))
        if barkeeper_holding(st, t) and self.options.barkeeper.immune_to_white_werewolf:
            return ("barkeeper_immune", "VIL-A-26", pgettext("gm-rejection", "the Barkeeper holds his token"))
        return None

    def _check_burn(self, st, ev, n):
        if st.x.pyro_used:
            return ("power_used", "VIL-R-PYROMANIAC", pgettext("gm-rejection", "the Pyromaniac's power is one-time"))
        b = self.arson_target(st, ev)
        if b is None:
            if ev.target and st.is_alive(ev.target) and is_vagabond(st, ev.target):
                return ("vagabond_immune", "VIL-B-VAGABOND", pgettext("gm-rejection", "%(target)s is a Vagabond and has no building", target=ev.target))
            return ("no_building", "VIL-N-10", pgettext("gm-rejection", "no such building"))
        if b.destroyed:
            return ("destroyed", "VIL-N-10", pgettext("gm-rejection", "that building has burned already"))
        if b.holder == ev.actor and not self.options.pyromaniac.allow_own_building:
            return ("own_building", "VIL-A-25", pgettext("gm-rejection", "the Pyromaniac may not burn his own building"))
        return None

    def _check_heal(self, st, ev, n):
        return None if st.x.heal_left else ("potion_used", "VIL-N-11", "the healing potion is used")

    def _check_poison(self, st, ev, n):
        if not st.x.poison_left:
            return ("potion_used", "VIL-N-11", pgettext("gm-rejection", "the poison is used"))
        if ev.target == ev.actor:
            return ("self_target", "VIL-N-11", pgettext("gm-rejection", "the Witch cannot poison herself"))
        if n == 1 and not self.options.witch.poison_night1:
            return ("wrong_night", "VIL-A-48", pgettext("gm-rejection", "no poison on Night 1"))
        return None

    def _check_charm(self, st, ev, n):
        if len(set(ev.targets)) != len(ev.targets):
            return ("target_count", "VIL-N-12", pgettext("gm-rejection", "name different players"))
        for t in ev.targets:
            if t == ev.actor:
                return ("self_target", "VIL-N-12", pgettext("gm-rejection", "the Piper never charms himself"))
            if t in st.x.charmed:
                return ("already_charmed", "VIL-N-12", pgettext("gm-rejection", "%(player)s is already charmed", player=t))
        return None

    def _check_poster(self, st, ev, n):
        t = ev.target
        if is_vagabond(st, t):
            return ("vagabond_immune", "VIL-B-VAGABOND", pgettext("gm-rejection", "%(player)s is a Vagabond", player=t))
        if t == ev.actor and not self.options.scandalmonger.allow_self:
            return ("self_target", "VIL-A-40", pgettext("gm-rejection", "no poster on himself"))
        if barkeeper_holding(st, t) and not self.options.scandalmonger.barkeeper_target:
            return ("barkeeper_immune", "VIL-A-29", pgettext("gm-rejection", "no poster on the Barkeeper"))
        return None

    def _check_spy(self, st, ev, n):
        mode = ev.arg("mode", "sleep")
        if mode not in ("small", "big", "sleep"):
            return ("bad_mode", "VIL-N-07", pgettext("gm-rejection", "spy small, spy big or sleep"))
        if st.role_of(ev.actor) == "little_girl" and self.options.little_girl.mode != "risk":
            return ("not_in_mode", "VIL-A-18", pgettext("gm-rejection", "the Little Girl gets the transcript; there is nothing to choose"))
        return None

    def _check_watch(self, st, ev, n):
        if not (self.building_power(st, ev.actor, "bakery") and self.options.baker.opt_in):
            return ("no_power", "VIL-N-08", pgettext("gm-rejection", "only the Baker, with opt-in glimpses, sends 'watch'"))
        return None

    # ------------------------------------------------------------------ helpers
    def arson_target(self, st: GameState, ev: ActionEvent):
        arg = ev.arg("building")
        if arg:
            return building(st, arg) if "@" in arg else building_by_code(st, arg)
        if ev.target is None:
            return None
        standing = [b for b in st.x.buildings if b.holder == ev.target and not b.destroyed]
        return standing[0] if standing else None

    def thief_must_swap(self, st: GameState) -> bool:
        cards = st.x.thief_cards
        both_wolves = len(cards) == 2 and all(c in ("werewolf", "white_werewolf") for c in cards)
        return both_wolves or not self.options.thief.may_keep

    def last_act(self, acts, verb: str, actors=None):
        found = [a for a in acts if a.action == verb and (actors is None or a.actor in actors)]
        return found[-1] if found else None

    def usable(self, st: GameState, role: str) -> str | None:
        """The living holder of a character role whose power is not lost (§4.1: skipped otherwise)."""
        for name in st.holders(role):
            if not self.powers_lost_for(st, name):
                return name
        return None

    # ------------------------------------------------------------------ Wave 0: the Thief (VIL-N-01)
    def close_wave0(self, st: GameState, phase_name: str, run: RunContext) -> GameState:
        if st.x.thief_done:
            return st
        st = st.with_x(thief_done=True)
        thief = next(iter(st.holders("thief")), None)
        cards = st.x.thief_cards
        if thief is None or not cards:
            return st
        acts = [a for a in st.actions if a.actor == thief and a.action in THIEF_VERBS]
        choice = acts[-1] if acts else None
        new = None
        if choice is not None and choice.action == "thief_take":
            new = cards[int(choice.arg("card", "1")) - 1]
        elif choice is None and self.thief_must_swap(st):
            allowed = [c for c in cards if c in ("werewolf", "white_werewolf")] if all(
                c in ("werewolf", "white_werewolf") for c in cards) else list(cards)
            rng, st = self.rng(st, "thief")
            new = rng.choice(allowed)
        st = replace(st, actions=tuple(a for a in st.actions if a.action not in THIEF_VERBS))
        if new is None:
            return self.post(st, run, f"thief:{phase_name}", "thief", summary=pgettext("gm-proposal", "the Thief keeps his card"),
                             private=(self.tell(thief, "thief_new_role", "VIL-A-55", role="villager"),))
        rest = list(cards)
        rest.remove(new)
        st = st.with_x(thief_cards=(st.role_of(thief), *rest))
        return self.post(st, run, f"thief:{phase_name}", "thief", blocking=True, summary=pgettext("gm-proposal", "the Thief takes %(new)s", new=new),
                         effects=(SetRole(thief, new),),
                         private=(self.tell(thief, "thief_new_role", "VIL-N-01", role=new),))

    # ------------------------------------------------------------------ Wave 1 (resolve_night)
    def resolve_night(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """Wave 1 closes: decide every Wave-1 choice and send the information messages (§3.2)."""
        st = self.close_wave0(st, phase.name, run)
        n = phase.id.number
        tn = st.x.tonight or Tonight(night=n)
        if tn.wave1_closed:
            return st
        acts = self.actions_for(st, phase.id)
        called: list[str] = []
        private: list = []
        if n == 1 and st.x.thief_cards and st.holders("thief", alive_only=False):
            called.append("thief")
        st, tn = self._wave1_cupid(st, acts, n, called, private)
        tn = self._wave1_guardian(st, acts, n, tn, called, private)
        if tn.protected is not None:
            st = st.with_x(guardian_last=(n, tn.protected))
        seer = self.usable(st, "seer")
        if seer:  # VIL-N-05
            called.append("seer")
            chk = self.last_act(acts, "check", (seer,))
            if chk is not None:
                private.append(self.tell(seer, "seer_result", "VIL-N-05", target=chk.target,
                                         **self.reading(st, chk.target, self.options.seer.reveals)))
        st, tn = self._wave1_pack(st, acts, n, tn, called, private)
        st, tn = self._wave1_spies(st, acts, tn, called, private)
        tn = self._wave1_ww(st, acts, n, tn, called, private)
        st, tn = self._wave1_pyro(st, acts, tn, called, private)
        tn = self._wave1_witch_info(st, tn, called, private)
        st = self._wave1_piper(st, acts, called, private)
        smg = self.usable(st, "scandalmonger")
        if smg:  # VIL-N-14
            called.append("scandalmonger")
            p = self.last_act(acts, "poster", (smg,))
            if p is not None:
                tn = replace(tn, poster=p.target)
                private.append(self.tell(smg, "scandalmonger_confirm", "VIL-N-14", target=p.target))
        order = self.night_order()
        tn = replace(tn, called=tuple(sorted(set(called), key=order.index)), wave1_closed=True)
        st = st.with_x(tonight=tn)
        return self.post(st, run, f"wave1:{phase.name}", "night_info", private=private, blocking=True, phase=phase,
                         summary=pgettext("gm-proposal", "night %(n)s: wave 1 closed, victim %(victim)s", n=n, victim=tn.victim or pgettext("gm-proposal", "none")))

    def reading(self, st: GameState, target: str, mode: str) -> dict[str, Any]:
        card = st.role_of(target)
        if mode == "card":
            return {"card": card}
        return {"verdict": "werewolf" if card in ("werewolf", "white_werewolf") else "not_werewolf"}

    def _wave1_cupid(self, st, acts, n, called, private):
        tn = st.x.tonight or Tonight(night=n)
        cupid = self.usable(st, "cupid")
        if n != 1 or cupid is None:
            return st, tn
        called.append("cupid")  # VIL-N-02
        link = self.last_act(acts, "link", (cupid,))
        if link is None:
            return st, tn
        a, b = link.targets
        cross = faction_of_card(st.role_of(a)) != faction_of_card(st.role_of(b))
        st = st.with_x(lovers=(a, b), lovers_cross=cross)
        private.append(self.tell(cupid, "cupid_confirm", "VIL-N-02", lovers=(a, b)))
        if self.options.lovers.recognition:  # VIL-N-03, VIL-A-03
            called.append("lovers")
            for me, other in ((a, b), (b, a)):
                extra = {"role": st.role_of(other)} if self.options.lovers.reveal_roles else {}
                extra["channel"] = self.options.lovers.channel  # §3.1: the GM opens the lovers' channel
                private.append(self.tell(me, "lover", "VIL-N-03", partner=other, **extra))
        return st, tn

    def _wave1_guardian(self, st, acts, n, tn, called, private):
        g = self.usable(st, "guardian")
        if g is None or (self.options.guardian.first_night_only and n != 1):
            return tn
        called.append("guardian")  # VIL-N-04
        p = self.last_act(acts, "protect", (g,))
        if p is None:
            return replace(tn, protected=None)
        private.append(self.tell(g, "guardian_confirm", "VIL-N-04", target=p.target))
        effective = not (st.role_of(p.target) == "little_girl")  # VIL-A-59: no effect on her
        return replace(tn, protected=p.target, protect_effective=effective)

    def pack_choice(self, st: GameState, acts, members) -> tuple[str | None, GameState]:
        """VIL-A-43: the named submitter's vote, else the plurality; a tie is no kill (or random)."""
        votes = {a.actor: a.target for a in acts if a.action == "kill" and a.actor in members}
        subs = [a for a in acts if a.action == "pack_submitter" and a.actor in members]
        if subs and subs[-1].target in votes:
            return votes[subs[-1].target], st
        if not votes:
            return None, st
        counts = Counter(votes.values()).most_common()
        top = [t for t, c in counts if c == counts[0][1]]
        if len(top) == 1:
            return top[0], st
        if self.options.wolves.no_consensus == "plurality_else_random":
            rng, st = self.rng(st, "pack_tie")
            return rng.choice(sorted(top)), st
        return None, st

    def _wave1_pack(self, st, acts, n, tn, called, private):
        members = pack(st)
        if not members:
            return st, tn
        called.append("pack")  # VIL-N-06
        victim, st = self.pack_choice(st, acts, members)
        if victim is not None and (not st.is_alive(victim) or barkeeper_holding(st, victim)):
            victim = None
        lines = tuple(a.raw or f"kill {a.target}" for a in acts if a.action in ("kill", "pack_submitter")
                      and a.actor in members)
        extra = {"members": members} if n == 1 else {}
        for m in members:
            private.append(self.tell(m, "pack_confirm", "VIL-N-06", target=victim or "", **extra))
        b = building_of(st, victim) if victim else None
        return st, replace(tn, victim=victim, entered=b.id if b else None, pack_lines=lines)

    def _wave1_spies(self, st, acts, tn, called, private):
        """VIL-N-07 Little Girl and VIL-N-08 Baker: random rolls drawn when Wave 1 closes."""
        lg = self.usable(st, "little_girl")
        if lg:
            called.append("little_girl")
            if self.options.little_girl.mode == "risk":
                st, tn = self._risk_roll(st, acts, lg, tn, "little_girl_peek")
        baker = self.holder_of(st, "bakery")
        mode = self.options.baker.mode
        if baker and mode != "none" and not self.powers_lost_for(st, baker, building_power=True):
            called.append("baker")
            if mode == "risk":
                st, tn = self._risk_roll(st, acts, baker, tn, "baker_peek")
            elif mode == "glimpse":
                watched = any(a.action == "watch" and a.actor == baker for a in acts)
                if watched or not self.options.baker.opt_in:
                    rng, st = self.rng(st, "baker")
                    members = pack(st)
                    seen = rng.choice(members) if members and rng.random() < self.options.baker.glimpse_p else ""
                    private.append(self.tell(baker, "baker_glimpse", "VIL-N-08", player=seen))
        return st, tn

    def _risk_roll(self, st, acts, spy, tn, key):
        """§5.1.6 risk mode: independent see and catch rolls; a catch moves the attack to the spy."""
        choice = self.last_act(acts, "spy", (spy,))
        mode = choice.arg("mode", "sleep") if choice else "sleep"
        if mode == "sleep":
            return st, tn
        p = RISK_P[mode]
        rng, st = self.rng(st, f"spy:{spy}")
        see, caught = rng.random() < p, rng.random() < p
        members = pack(st)
        seen = rng.choice(members) if see and members else ""
        if caught and tn.victim is not None and not tn.lg_caught:
            b = building_of(st, spy)
            tn = replace(tn, victim=spy, entered=b.id if b else None, lg_caught=True)
        return st, replace(tn, peeks=tn.peeks + ((key, spy, seen),))

    def _wave1_ww(self, st, acts, n, tn, called, private):
        ww = next((w for w in st.holders("white_werewolf")), None)
        others = [m for m in pack(st) if m != ww]
        if ww is None or not self.ww_night(n) or not others:
            return tn
        called.append("white_werewolf_solo")  # VIL-N-09
        k = self.last_act(acts, "ww_kill", (ww,))
        if k is None or k.target not in others:
            return tn
        private.append(self.tell(ww, "ww_confirm", "VIL-N-09", target=k.target))
        return replace(tn, ww_target=k.target)

    def _wave1_pyro(self, st, acts, tn, called, private):
        pyro = self.usable(st, "pyromaniac")
        if pyro is None or st.x.pyro_used:
            return st, tn
        called.append("pyromaniac")  # VIL-N-10
        burn = self.last_act(acts, "burn", (pyro,))
        b = self.arson_target(st, burn) if burn else None
        if b is None or b.destroyed:
            return st, tn
        private.append(self.tell(pyro, "pyromaniac_confirm", "VIL-N-10", building=b.code, holder=b.holder))
        return st.with_x(pyro_used=True), replace(tn, arson=b.id)

    def _wave1_witch_info(self, st, tn, called, private):
        witch = self.usable(st, "witch")
        if witch is None or not (st.x.heal_left or st.x.poison_left):
            return tn
        called.append("witch")  # VIL-N-11
        shown = tn.victim
        if shown and not self.options.witch.shown_when_saved:  # VIL-A-39
            if self.guarded(tn, shown) or (tn.arson and tn.arson == tn.entered):
                shown = None
        extra = {"ww_victim": tn.ww_target or ""} if self.options.witch.sees_white_werewolf_victim else {}
        private.append(self.tell(witch, "witch_info", "VIL-N-11", victim=shown or "", **extra))
        return tn

    def _wave1_piper(self, st, acts, called, private):
        piper = next(iter(st.holders("piper")), None)
        if piper is None:
            return st
        called.append("piper")  # VIL-N-12
        ch = self.last_act(acts, "charm", (piper,))
        charmed = st.x.charmed
        if ch is not None:
            new = tuple(t for t in ch.targets if st.is_alive(t) and t not in charmed and t != piper)
            charmed = charmed | set(new)
            private.append(self.tell(piper, "piper_confirm", "VIL-N-12", targets=new))
        st = st.with_x(charmed=frozenset(charmed))
        living_charmed = seat_sorted(st, (c for c in charmed if st.is_alive(c)))
        if living_charmed:  # VIL-N-13
            called.append("charmed")
            for c in living_charmed if not self.options.charmed.channel else ():  # §3.1: else their channel
                private.append(self.tell(c, "charmed_list", "VIL-N-13", players=living_charmed))
        return st

    def guarded(self, tn: Tonight, player: str) -> bool:
        return tn.protected == player and tn.protect_effective
