"""Day powers of the buildings (§3.4 steps 3–4): Schoolmarm, Confessor, Bonesetter, Barber.

They belong to the building's owner, whatever his card: each handler checks the building and its
token, never the role table. Any-time powers are open from the dawn post until the vote closes
(VIL-A-21), and closed during a tie-break, re-vote or pardon window.
"""

from __future__ import annotations

from forummod.engine.events import ActionEvent
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState
from forummod.i18n import pgettext

from .effects import SetPoster, SetToken
from .state import ONE_TIME, TAVERN, building_of, is_vagabond


class DayMixin:
    # ------------------------------------------------------------------ windows
    def day_power_closed(self, st: GameState, ev: ActionEvent) -> str | None:
        """Why an any-time day power cannot be used now (VIL-A-21), or None."""
        lynch = st.x.lynch
        if st.phase is None or st.phase.kind != "day" or lynch is None or lynch.day != st.phase.id.number:
            return "not_day"
        if self.options.day_ability_cutoff == "vote_open":
            return None if lynch.stage == "waiting" else "late"
        if lynch.stage == "waiting" or (lynch.stage == "vote" and lynch.round == 1 and not lynch.excluded
                                        and (lynch.closes is None or ev.at < lynch.closes)):
            return None
        return "late"

    def own_power(self, st: GameState, ev: ActionEvent, run: RunContext, code: str, rule: str,
                  one_time: bool = True) -> bool:
        """The actor owns a standing `code` building, alive, power intact, token ready; else refused."""
        if not self.building_power(st, ev.actor, code):
            self.refuse(run, ev, "no_power", rule, pgettext("gm-rejection", "%(actor)s does not own the %(building)s", actor=ev.actor, building=code))
            return False
        if one_time and building_of(st, ev.actor).token != "ready":
            self.refuse(run, ev, "token_spent", rule, pgettext("gm-rejection", "the %(building)s token is spent", building=code))
            return False
        closed = self.day_power_closed(st, ev)
        if closed is not None:
            self.refuse(run, ev, closed, "VIL-A-21", pgettext("gm-rejection", "day powers are closed now"))
            return False
        return True

    def living_other(self, st: GameState, ev: ActionEvent, run: RunContext, rule: str, target: str | None = None) -> bool:
        t = target or ev.target
        if not st.is_alive(t):
            self.refuse(run, ev, "dead_target", rule, pgettext("gm-rejection", "%(player)s is dead", player=t), target=t)
            return False
        if t == ev.actor:
            self.refuse(run, ev, "self_target", rule, pgettext("gm-rejection", "not on himself"), target=t)
            return False
        return True

    # ------------------------------------------------------------------ VIL-D-03 Schoolmarm
    def on_silence(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """VIL-B-SCHOOL: up to two living non-Vagabonds lose their vote for today's lynch; binding."""
        if not self.building_power(st, ev.actor, "school"):
            self.refuse(run, ev, "no_power", "VIL-B-SCHOOL", pgettext("gm-rejection", "%(actor)s is not the Schoolmarm", actor=ev.actor))
            return st
        lynch = st.x.lynch
        if st.phase is None or st.phase.kind != "day" or lynch is None or lynch.stage != "waiting":
            self.refuse(run, ev, "late", "VIL-D-03", pgettext("gm-rejection", "silencing is allowed until the vote opens"))
            return st
        good = []
        for t in ev.targets:
            if not self.living_other(st, ev, run, "VIL-B-SCHOOL", t):
                continue
            if is_vagabond(st, t):
                self.refuse(run, ev, "vagabond_immune", "VIL-B-VAGABOND", pgettext("gm-rejection", "%(player)s is a Vagabond", player=t), target=t)
                continue
            if t in st.x.silenced or t in good:
                continue
            if st.x.silenced_count + len(good) >= 2:
                self.refuse(run, ev, "limit", "VIL-A-16", pgettext("gm-rejection", "two players at most"), target=t)
                continue
            good.append(t)
        if self.options.schoolmarm.exactly_two and (len(good) != 2 or st.x.silenced_count):  # VIL-A-16
            if good:
                self.refuse(run, ev, "exactly_two", "VIL-A-16", pgettext("gm-rejection", "name exactly two players"))
            return st
        if not good:
            return st
        st = st.with_x(silenced=st.x.silenced | set(good), silenced_count=st.x.silenced_count + len(good))
        return self.post(st, run, f"silence:{self.stamp(run)}", "announce",
                         facts=tuple(Fact.of("silenced", "VIL-S-SILENCED", player=t, by=ev.actor) for t in good))

    # ------------------------------------------------------------------ VIL-B-CHURCH Confessor
    def on_confess(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if not self.own_power(st, ev, run, "church", "VIL-B-CHURCH") or \
                not self.living_other(st, ev, run, "VIL-B-CHURCH"):
            return st
        b = building_of(st, ev.actor)
        facts = []
        if self.options.confessor.public == "target":  # VIL-A-12
            facts.append(Fact.of("confessor_used", "VIL-B-CHURCH", confessor=ev.actor, target=ev.target))
        result = self.tell(ev.actor, "confessor_result", "VIL-B-CHURCH", target=ev.target,
                           **self.reading(st, ev.target, self.options.confessor.reveals))  # VIL-A-13
        st = st.with_x(confessor_uses=st.x.confessor_uses + 1)
        return self.post(st, run, f"confess:{ev.actor}:{self.stamp(run)}", "day_power", blocking=True,
                         effects=(SetToken(b.id, "spent"),), facts=facts, private=(result,),
                         summary=pgettext("gm-proposal", "Confessor %(actor)s looks at %(target)s", actor=ev.actor, target=ev.target))

    # ------------------------------------------------------------------ VIL-B-HOVEL Bonesetter
    def on_restore(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if not self.own_power(st, ev, run, "hovel", "VIL-B-HOVEL") or \
                not self.living_other(st, ev, run, "VIL-B-HOVEL"):
            return st
        mine = building_of(st, ev.actor)
        b = building_of(st, ev.target)
        new = None
        if b is not None and b.code in ONE_TIME and b.token == "spent":
            new = "ready"
        elif b is not None and b.code == TAVERN and b.token == "lost" and self.options.bonesetter.restores_tavern:
            new = "held"  # VIL-A-14
        if new is None:
            self.refuse(run, ev, "no_spent_token", "VIL-A-14", pgettext("gm-rejection", "%(target)s has no spent building token", target=ev.target))
            if self.options.bonesetter.invalid_target == "wasted":
                return self.post(st, run, f"restore:{ev.actor}:{self.stamp(run)}", "day_power", blocking=True,
                                 effects=(SetToken(mine.id, "spent"),),
                                 facts=(Fact.of("bonesetter_wasted", "VIL-A-14", bonesetter=ev.actor,
                                                target=ev.target),))
            return st
        return self.post(st, run, f"restore:{ev.actor}:{self.stamp(run)}", "day_power", blocking=True,
                         effects=(SetToken(mine.id, "spent"), SetToken(b.id, new)),
                         facts=(Fact.of("bonesetter_restored", "VIL-B-HOVEL", bonesetter=ev.actor, target=ev.target,
                                        building=b.code, token=new),),
                         summary=pgettext("gm-proposal", "Bonesetter restores %(building)s", building=b.id))

    # ------------------------------------------------------------------ VIL-B-BARBER Barber
    def barber_wolf(self, card: str) -> bool:
        return card == "werewolf" or (card == "white_werewolf" and self.options.barber.white_werewolf_is_wolf)

    def on_barber(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        if not self.own_power(st, ev, run, "barbershop", "VIL-B-BARBER") or \
                not self.living_other(st, ev, run, "VIL-B-BARBER"):
            return st
        if is_vagabond(st, ev.target):
            self.refuse(run, ev, "vagabond_immune", "VIL-B-VAGABOND", pgettext("gm-rejection", "%(target)s is a Vagabond", target=ev.target))
            return st
        b = building_of(st, ev.actor)
        wolf = self.barber_wolf(st.role_of(ev.target))  # VIL-A-20
        deaths = {ev.target: "barber"}
        facts = [Fact.of("barber_kill", "VIL-B-BARBER", barber=ev.actor, target=ev.target)]
        effects = [SetToken(b.id, "spent")]
        if wolf:
            facts.append(Fact.of("barber_forgiven", "VIL-B-BARBER", barber=ev.actor))
            lynch = st.x.lynch
            if self.options.barber.wolf_kill_cancels_lynch and lynch is not None:  # VIL-A-19
                st = self.set_lynch(st, stage="done", outcome="cancelled")
                facts.append(Fact.of("no_lynch", "VIL-A-19", reason="barber_wolf"))
                effects.append(SetPoster(None))
        else:
            deaths[ev.actor] = "barber_execution"
            facts.append(Fact.of("barber_executed", "VIL-B-BARBER", barber=ev.actor))
        return self.propose_deaths(st, run, f"barber:{ev.actor}:{self.stamp(run)}", deaths, facts=facts,
                                   effects=effects, summary=pgettext("gm-proposal", "Barber %(actor)s kills %(target)s", actor=ev.actor, target=ev.target))
