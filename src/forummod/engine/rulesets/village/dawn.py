"""Dawn resolution (§4.2, VIL-D-01): fire, pack attack, White Werewolf, poison, grief, poster,
then one blocking proposal, the dawn post. Its approval runs the cascade and the Bailiff's morning."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState, Kill, Phase
from forummod.i18n import join_names, pgettext

from .effects import Burn, SetPoster
from .state import Tonight, building, building_of, pack, seat_sorted, walk_right


class DawnMixin:
    def witch_choice(self, st: GameState, acts, tn: Tonight, n: int) -> tuple[str | None, str | None]:
        """(healed, poisoned) from the Witch's last answer (VIL-N-11, VIL-A-48)."""
        witch = self.usable(st, "witch")
        if witch is None:
            return None, None
        healed = poisoned = None
        heal = self.last_act(acts, "heal", (witch,))
        if heal is not None and st.x.heal_left:
            allowed = {tn.victim} | ({tn.ww_target} if self.options.witch.sees_white_werewolf_victim else set())
            allowed.discard(None)
            target = heal.target or tn.victim
            mode = self.options.witch.self_heal
            self_ok = mode == "always" or (mode == "night1_only" and n == 1)
            if target in allowed and (target != witch or self_ok):
                healed = target
        poison = self.last_act(acts, "poison", (witch,))
        if poison is not None and st.x.poison_left and st.is_alive(poison.target):
            poisoned = poison.target
        return healed, poisoned

    def nearest_wolf(self, st: GameState, anchor: str) -> str | None:
        """VIL-A-32: the first living pack member to the anchor's right."""
        members = set(pack(st))
        return next((p for p in walk_right(st, anchor, self.options.seating.right) if p in members), None)

    def dawn(self, st: GameState, phase: Phase, run: RunContext) -> GameState:
        """§4.2 steps 1–7 as one blocking proposal: the dawn post VIL-D-01."""
        n = phase.id.number
        if st.x.tonight is None or not st.x.tonight.wave1_closed:
            st = self.resolve_night(st, phase, run)
        tn = st.x.tonight
        acts = self.actions_for(st, phase.id)
        healed, poisoned = self.witch_choice(st, acts, tn, n)
        deaths: dict[str, str] = {}
        effects: list = []
        facts: list[Fact] = []
        private: list = []
        burned_owner = None
        attack_cancelled = ww_cancelled = False
        elder_hit = st.x.elder_hit
        pyro = next(iter(st.holders("pyromaniac", alive_only=False)), None)
        # 1. fire
        if tn.arson:
            b = building(st, tn.arson)
            effects.append(Burn(b.id))
            burned_owner = b.holder if st.is_alive(b.holder) else None
            facts.append(Fact.of("building_burned", "VIL-N-10", building=b.code, holder=b.holder,
                                 vagabond=burned_owner or ""))
            for who, entered in (("pack", tn.entered),
                                 ("ww", self._ww_entry(st, tn))):
                target = tn.victim if who == "pack" else tn.ww_target
                if entered != b.id or target is None:
                    continue
                saved = self.guarded(tn, target) or healed == target or (
                    who == "pack" and st.role_of(target) == "elder" and target not in elder_hit)
                if who == "pack":
                    attack_cancelled = True
                else:
                    ww_cancelled = True
                if self.options.pyromaniac.burn_if_target_saved or not saved:  # VIL-A-33
                    anchor = pyro if self.options.pyromaniac.anchor == "pyromaniac" and pyro else b.holder
                    wolf = self.nearest_wolf(st, anchor)
                    if wolf:
                        deaths.setdefault(wolf, "fire")
        # 2. pack attack
        v = tn.victim
        if v and not attack_cancelled:
            if self.guarded(tn, v) or healed == v:
                run.note("saved", pgettext("gm-note", "%(player)s survives the pack's attack", player=v))
            elif st.role_of(v) == "elder" and v not in elder_hit:  # §5.1.15: first attack absorbed
                elder_hit = elder_hit | {v}
            else:
                deaths.setdefault(v, "wolves")
        # 3. White Werewolf
        w = tn.ww_target
        if w and not ww_cancelled:
            blocked = self.guarded(tn, w) and self.options.guardian.blocks_white_werewolf
            if not blocked and healed != w:
                deaths.setdefault(w, "white_werewolf")
        # 4. poison
        if poisoned:
            deaths.setdefault(poisoned, "poison")
        # 5.+7. together, with the lovers' grief (§3.5)
        deaths = self.with_grief(st, deaths)
        st = st.with_x(elder_hit=elder_hit, heal_left=st.x.heal_left and healed is None,
                       poison_left=st.x.poison_left and poisoned is None)
        witch = self.usable(st, "witch")
        if witch and (healed or poisoned):
            private.append(self.tell(witch, "witch_confirm", "VIL-N-11", healed=healed or "", poisoned=poisoned or ""))
        # 6. poster check
        poster = tn.poster
        if poster and (poster in deaths or poster == burned_owner or not st.is_alive(poster)):
            poster = None
        smg = next(iter(st.holders("scandalmonger", alive_only=False)), None)
        effects.append(SetPoster(poster, smg if poster else None))
        kill_effects, death_facts = self.death_effects(st, deaths)
        facts = death_facts + facts
        if not deaths:
            facts.insert(0, Fact.of("nobody_died", "VIL-D-01"))
        if poster:
            facts.append(Fact.of("poster", "VIL-S-POSTER", player=poster))
        private.extend(self._dawn_spy_messages(st, tn))
        st = st.with_x(tonight=replace(tn, dawned=True))
        st = self.drop_actions(st, phase.id)
        return self.post(st, run, f"dawn:{phase.name}", "dawn", blocking=True, phase=phase,
                         effects=tuple(kill_effects) + tuple(effects), facts=facts, private=private,
                         summary=pgettext("gm-proposal", "dawn %(n)s: %(names)s die", n=n, names=join_names(deaths)) if deaths
                         else pgettext("gm-proposal", "dawn %(n)s: nobody dies", n=n))

    def _ww_entry(self, st: GameState, tn: Tonight) -> str | None:
        if not (self.options.pyromaniac.ww_counts_as_entry and tn.ww_target):  # VIL-A-34
            return None
        b = building_of(st, tn.ww_target)
        return b.id if b else None

    def _dawn_spy_messages(self, st: GameState, tn: Tonight) -> list:
        out = []
        lg = self.usable(st, "little_girl")
        if lg and self.options.little_girl.mode == "transcript":  # VIL-N-07 [S15]
            out.append(self.tell(lg, "little_girl_transcript", "VIL-N-07", lines=tn.pack_lines))
        baker = self.holder_of(st, "bakery")
        if baker and self.options.baker.mode == "transcript_tail":
            tail = tn.pack_lines[-self.options.baker.tail_lines:] if self.options.baker.tail_lines else ()
            out.append(self.tell(baker, "baker_transcript", "VIL-N-08", lines=tail))
        for key, spy, seen in tn.peeks:  # §5.1.6 risk mode: the peek result at dawn
            out.append(self.tell(spy, key, "VIL-N-07", player=seen))
        return out

    def death_effects(self, st: GameState, deaths: dict[str, str]) -> tuple[list, list[Fact]]:
        """Kill effects and `death` facts in seat order (§3.3: card revealed, causes optional)."""
        effects, facts = [], []
        reveal = self.options.announce.reveal_cards
        for name in seat_sorted(st, deaths):
            cause = deaths[name]
            effects.append(Kill(name, cause, reveal=reveal, rule="VIL-D-01"))
            params: dict[str, Any] = {"player": name}
            if reveal:
                params["role"] = st.role_of(name)
            if self.options.announce.death_causes:
                params["cause"] = cause
            facts.append(Fact.of("death", "VIL-D-01", **params))
        return effects, facts
