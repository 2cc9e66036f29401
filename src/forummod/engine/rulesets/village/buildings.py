"""VIL-D-01b, VIL-B-BAILIFF: the Bailiff's morning, offers and answers.

Buildings empty when the dawn post goes out are offered that morning; later vacancies wait for
the next morning (VIL-A-22) unless `after_execution` adds a second step after the lynch.
"""

from __future__ import annotations

from dataclasses import replace

from forummod.engine.events import ActionEvent, Timer
from forummod.engine.ruleset import RunContext
from forummod.engine.types import Fact, GameState
from forummod.i18n import pgettext

from .effects import AssignBuilding
from .state import Morning, Offer, building, empty_buildings, is_vagabond


class BuildingsMixin:
    def open_morning(self, st: GameState, run: RunContext, day: int, label: str = "morning") -> GameState:
        bailiff = self.holder_of(st, "bailiff")
        if bailiff is None or self.powers_lost_for(st, bailiff, building_power=True):
            return st.with_x(mornings=st.x.mornings + ((day, "skipped"),), morning=None)  # no Bailiff: no step
        available = tuple(b.id for b in empty_buildings(st))
        vagabonds = tuple(p.name for p in st.living() if is_vagabond(st, p.name))
        if not available or not vagabonds:
            return st.with_x(mornings=st.x.mornings + ((day, "nothing"),), morning=None)
        until = self.after(run, self.options.time.bailiff_accept_deadline)
        st = st.with_x(morning=Morning(day=day, bailiff=bailiff, until=until, available=available, label=label),
                       mornings=st.x.mornings + ((day, "held"),))
        run.timer(until, "morning_close", st.phase.name if st.phase else "", day=day, label=label)
        # codes and their last holders as parallel tuples: a phrase names each building in words
        # ("the hovel of P2"), which a `code@Pk` id would not let it do
        empty = tuple(building(st, bid) for bid in available)
        return self.post(st, run, f"{label}:D{day}", "announce",
                         facts=(Fact.of("bailiff_morning", "VIL-D-01b", bailiff=bailiff,
                                        buildings=tuple(b.code for b in empty), holders=tuple(b.holder for b in empty),
                                        deadline=until.isoformat()),))

    def morning_open(self, st: GameState, ev: ActionEvent) -> bool:
        m = st.x.morning
        return m is not None and m.open and ev.at < m.until

    def find_offerable(self, st: GameState, name: str) -> str | None:
        m = st.x.morning
        if "@" in name:
            return name if name in m.available else None
        hits = [bid for bid in m.available if bid.split("@", 1)[0] == name and building(st, bid) is not None]
        return hits[0] if len(hits) == 1 else None

    def on_assign(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        """The Bailiff offers one empty building to one Vagabond (VIL-B-BAILIFF)."""
        m = st.x.morning
        if not self.building_power(st, ev.actor, "bailiff"):
            self.refuse(run, ev, "no_power", "VIL-B-BAILIFF", pgettext("gm-rejection", "%(actor)s is not the Bailiff", actor=ev.actor))
            return st
        if not self.morning_open(st, ev) or m.bailiff != ev.actor:
            self.refuse(run, ev, "late", "VIL-D-01b", pgettext("gm-rejection", "the Bailiff's morning is closed"))
            return st
        bid = self.find_offerable(st, ev.arg("building", "") or "")
        b = building(st, bid) if bid else None
        if b is None or b.destroyed or st.is_alive(b.holder):
            self.refuse(run, ev, "not_available", "VIL-D-01b", pgettext("gm-rejection", "that building cannot be offered this morning"))
            return st
        offers = [o for o in m.offers if o.building == bid]
        if any(o.status in ("pending", "accepted") for o in offers) or (
                offers and not self.options.bailiff.reoffer_after_refusal):  # VIL-A-24
            self.refuse(run, ev, "already_offered", "VIL-A-24", pgettext("gm-rejection", "%(building)s was already offered", building=bid))
            return st
        v = ev.target
        if not st.is_alive(v) or not is_vagabond(st, v):
            self.refuse(run, ev, "not_vagabond", "VIL-B-BAILIFF", pgettext("gm-rejection", "%(player)s is not a living Vagabond", player=v))
            return st
        if any(o.vagabond == v and o.status == "pending" for o in m.offers):
            self.refuse(run, ev, "offer_pending", "VIL-B-BAILIFF", pgettext("gm-rejection", "%(player)s has an offer to answer", player=v))
            return st
        st = st.with_x(morning=replace(m, offers=m.offers + (Offer(bid, v),)))
        return self.post(st, run, f"offer:{bid}:{v}", "announce",
                         facts=(Fact.of("bailiff_offer", "VIL-B-BAILIFF", building=b.code, holder=b.holder, vagabond=v,
                                        deadline=m.until.isoformat()),))

    def on_answer(self, st: GameState, ev: ActionEvent, run: RunContext) -> GameState:
        m = st.x.morning
        offer = next((o for o in m.offers if o.vagabond == ev.actor and o.status == "pending"), None) if m else None
        if offer is None or not self.morning_open(st, ev):
            self.refuse(run, ev, "no_offer", "VIL-B-BAILIFF", pgettext("gm-rejection", "no offer is waiting for an answer"))
            return st
        return self.settle_offer(st, offer, ev.action == "accept", run, "answer")

    def settle_offer(self, st: GameState, offer: Offer, accepted: bool, run: RunContext, how: str) -> GameState:
        m = st.x.morning
        status = "accepted" if accepted else "refused"
        st = st.with_x(morning=replace(m, offers=tuple(replace(o, status=status) if o == offer else o
                                                       for o in m.offers)))
        code, holder = offer.building.split("@", 1)  # the id as offered (§0 `code@Pk`)
        fact = Fact.of("bailiff_answer", "VIL-B-BAILIFF", building=code, holder=holder, vagabond=offer.vagabond,
                       answer=status, how=how)
        if not accepted:
            return self.post(st, run, f"answer:{offer.building}:{offer.vagabond}", "announce", facts=(fact,))
        if code == "farm" and st.x.sheriff_extinct and self.options.sheriff.reelect_if_farmer_returns:  # VIL-A-09
            st = st.with_x(sheriff_extinct=False, election_done=False, reelect_day=m.day + 1)
        return self.post(st, run, f"answer:{offer.building}:{offer.vagabond}", "assign", blocking=True,
                         effects=(AssignBuilding(offer.building, offer.vagabond),),
                         facts=(fact, Fact.of("building_assigned", "VIL-B-BAILIFF", building=code,
                                              player=offer.vagabond)),
                         summary=pgettext("gm-proposal", "%(vagabond)s moves into %(building)s", vagabond=offer.vagabond, building=offer.building))

    def morning_close(self, st: GameState, timer: Timer, run: RunContext) -> GameState:
        m = st.x.morning
        if m is None or not m.open or m.day != timer.get("day"):
            return st
        for o in m.offers:
            if o.status == "pending":  # VIL-A-23
                st = self.settle_offer(st, o, self.options.bailiff.silence_means == "accept", run, "silence")
        st = st.with_x(morning=replace(st.x.morning, open=False))
        if m.label == "morning":
            st = self.maybe_open_election(st, run, m.day)
        return st
