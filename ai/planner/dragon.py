"""A rule-based player of In the Year of the Dragon: the standard plan of strong players, as a
list of readable rules (no search).

The plan (issue 49): be ready for every coming event (rice before a drought, yuan before a
tribute, healers before a contagion, warriors before the Mongols, fireworks for the festival),
keep enough palace room that nobody has to be let go, buy privileges early, recruit court ladies
and craftsmen early and monks into tall palaces late, and take the action the others leave cheap
(no 3-yuan fee). Every decision kind of the game has its rules below; each rule values the legal
actions in victory points (VP) so that the rules read as "what this is worth to me now", and the
best-valued action is played. Where no rule applies the game's own move prior decides.

The bot only reads the state it is handed (`snapshot()` of a determinization of its own seat):
the board of Dragon is public, only the future action-card groups are hidden, and no rule reads
them.

Entry point: `choose(state, rng)`, the module's one public function. `_RULES` maps each
decision kind (the snapshot's phase) to its rule; `_decide` applies it (tests call it directly,
so that a rule's bug fails them instead of falling back to the prior).
"""
from __future__ import annotations

import random
from typing import Any, Callable

from engine.dragon import data
from engine.dragon.game import LAYOUT

Snapshot = dict[str, Any]
Seat = dict[str, Any]

# Kinds, cards and events, numbered as in data.py (engine/dragon/state.pxd).
(CRAFTSMAN, COURT_LADY, TAX_COLLECTOR, PYROTECHNIST, WARRIOR, MONK, HEALER, FARMER,
 SCHOLAR) = range(data.N_KINDS)
TAXES, BUILD, HARVEST, FIREWORKS, PARADE, RESEARCH, PRIVILEGE, WALL = range(len(data.CARDS))
PEACE, TRIBUTE, DROUGHT, CONTAGION, MONGOL, FESTIVAL = range(len(data.EVENTS))
WB_STEPS, WB_RICE, WB_FLOOR, WB_YUAN, WB_FIREWORKS, WB_VP = range(len(data.WALL_BONUSES))
MONTHS = 12
MAX_FLOORS = 3

# What a person lost to an event costs: its 2 final VP and what it would still have done.
PERSON_LOSS_VP = 4.5
# The value of a wildcard kept for later (a kind card can only recruit its own kind).
WILDCARD_KEEP_VP = 1.5
# How much the events of this month, the next and the one after weigh when choosing an action
# (a later month's event can still be met by a later action).
EVENT_WEIGHTS = ((0, 1.0), (1, 0.7), (2, 0.4))
# What making up a later shortfall costs: the action it takes then (VP).
FIX_VP = 4.0
# ... and how much when the seat could not pay for a taken group then (it may find no card).
STUCK_WEIGHT = 0.8
# Holding the 3 yuan of a fee for next month, in VP (less in proportion).
LIQUIDITY_VP = 2.0
# How many months the others take to gain a Fireworks action's tiles (festival forecasts).
FESTIVAL_PACE = 4
# A person-track step early in the year (acting first: no fees, the first pick of persons).
STEP_VP = 0.3
# A starting step on top (the draft sets the acting order for the first months: strong players
# draft the persons that move their marker furthest).
DRAFT_STEP_VP = 2.0


# ---------------------------------------------------------------------------------------------
# Reading the board (all from the snapshot, which holds public information only).

class _Board:
    """The snapshot as seen by the seat to move, with the quantities the rules ask about."""

    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.me: int = snap["current_player"]
        self.seat: Seat = snap["seats"][self.me]
        self.others: list[Seat] = [s for i, s in enumerate(snap["seats"]) if i != self.me]
        self.month: int = snap["month"]  # 1..12
        self.phase: str = snap["phase"]
        self.events: list[int] = snap["events"]
        self.cache: dict[Any, Any] = {}  # per decision: the persons' loss costs

    # -- time
    @property
    def scorings_left(self) -> int:
        """Month-end scorings still to come, this month's included."""
        return MONTHS - self.month + 1

    def event(self, month: int) -> int | None:
        """The event of `month` (1-based), None past the year's end."""
        return self.events[month - 1] if 1 <= month <= MONTHS else None

    def events_ahead(self, event: int, first: int, last: int = MONTHS) -> int:
        """How many of months first..last (1-based, inclusive) hold `event`."""
        return sum(1 for m in range(max(1, first), min(last, MONTHS) + 1)
                   if self.events[m - 1] == event)

    # -- the seat's holdings
    @staticmethod
    def room(seat: Seat) -> int:
        return sum(p["floors"] - len(p["persons"]) for p in seat["palaces"])

    @staticmethod
    def inhabited(seat: Seat) -> int:
        return sum(1 for p in seat["palaces"] if p["persons"])

    def cards_left(self, seat: Seat) -> int:
        return len(seat["hand"]) + seat["wildcards"]

    def recruits_left(self) -> int:
        """Person phases still ahead of the seat this year (month 12 has none), this month's
        included while its person phase is still to come."""
        months = MONTHS - 1 - self.month + (1 if self.phase in ("action", "build") else 0)
        return max(0, min(months, self.cards_left(self.seat)))

    def drought_need(self, seat: Seat, recruit: bool) -> int:
        """Rice the seat needs at a drought: its inhabited palaces, plus one when the person it
        recruits first must go into an empty palace (no room in an inhabited one)."""
        need = self.inhabited(seat)
        if recruit and not any(p["persons"] and len(p["persons"]) < p["floors"]
                               for p in seat["palaces"]):
            need += 1
        return need

    def tallest_room(self, seat: Seat) -> int:
        return max((p["floors"] for p in seat["palaces"] if len(p["persons"]) < p["floors"]),
                   default=0)

    def yuan_vp(self) -> float:
        """A yuan in VP: a third at the end; more while privileges still pay for many months."""
        return 1 / 3 + 0.35 * max(0, self.scorings_left - 3) / 9

    def fee(self, card: int) -> int:
        """The yuan it costs to take `card` now (3 when its group already holds a dragon)."""
        for g, cards in enumerate(self.snap["groups"]):
            if card in cards:
                return data.FEE_OCCUPIED_GROUP if self.snap["group_dragons"][g] > 0 else 0
        return 0

    def track_rank(self) -> int:
        """The seat's place in the person-track order (0: acts first)."""
        return self.snap["track_order"].index(self.me)


def _kind(t: int) -> int:
    return data.TYPES[t].kind


def _symbols(t: int) -> int:
    return data.TYPES[t].symbols


def _steps(t: int) -> int:
    return data.TYPES[t].value


# ---------------------------------------------------------------------------------------------
# What a person is worth (recruiting, releasing, replacing, the draft, the sunrise).

def _person_value(b: _Board, seat: Seat, t: int, floors: int | None = None,
                 held: bool = False, protect: bool = True) -> float:
    """What a person of type `t` is worth to `seat` from now to the end, in VP.

    `floors`: its palace's (monks); None: the tallest palace with room. `held`: the person is
    already the seat's (its symbols are among the seat's; a release or a replacement takes them
    away), else it is a newcomer (its symbols add to the seat's). `protect`: count the persons
    its symbols save from the coming events (False: the plain value, which prices those persons).
    The rules, kind by kind:
    - everyone: 2 VP at the end, and its person-track steps (acting first in later months);
    - court lady: 1 VP at every scoring left; craftsman: floors for the builds still ahead;
    - tax collector: 3 yuan per Taxes action ahead, and the tributes ahead;
    - scholar: its books for the Research actions ahead;
    - healer: the persons its mortars save at each contagion ahead (3 go without mortars);
    - warrior: a VP per helmet at each Mongol invasion ahead, and the person it saves when it
      lifts the seat off the fewest helmets; farmer: rice for the droughts ahead; pyrotechnist:
      fireworks for the festivals ahead;
    - monk: buddhas x the floors of its palace at the end.
    Events of this very month weigh most: a later event can still be met by a later recruit.
    """
    k, sym, steps = _kind(t), _symbols(t), _steps(t)
    left = b.scorings_left
    recruit_now = b.phase in ("action", "build", "person", "place", "draft", "start", "sunrise")
    # Events this person can still meet: this month's too if it is recruited before the event.
    first = b.month if recruit_now else b.month + 1
    later = b.month + 1  # events an action can still prepare for
    v = 2.0 + steps * STEP_VP * left / MONTHS
    if k == COURT_LADY:
        v += sym * left
    elif k == CRAFTSMAN:
        v += sym * 0.3 * max(0, left - 2)
    elif k == TAX_COLLECTOR:
        v += sym * b.yuan_vp() * max(0, left - 1) / 4
        v += 0.8 * b.events_ahead(TRIBUTE, later)
    elif k == SCHOLAR:
        v += sym * max(0, left - 1) / 4
    elif k == HEALER:
        if protect:
            mortars = seat["symbols"][HEALER] - (sym if held else 0)
            costs = _plain_costs(b, seat)
            without = max(0, data.CONTAGION_RELEASES - mortars)
            with_it = max(0, data.CONTAGION_RELEASES - mortars - sym)
            # The persons the contagion would take, cheapest first, that its mortars keep.
            saved = _releases_cost(costs, without) - _releases_cost(costs, with_it)
            v += saved * _event_weights(b, CONTAGION, first)
    elif k == WARRIOR:
        mongols = b.events_ahead(MONGOL, first)
        v += sym * mongols + sym * 0.1 * left  # a VP per helmet; parade steps
        if protect and mongols:
            mine = seat["symbols"][WARRIOR] - (sym if held else 0)
            fewest_others = min(s["symbols"][WARRIOR] for s in b.others)
            costs = _plain_costs(b, seat)
            cheapest = costs[0] if costs else 3.0
            if mine <= fewest_others < mine + sym:
                v += cheapest * _event_weights(b, MONGOL, first)
            elif mine <= fewest_others:
                v += 0.4 * cheapest * _event_weights(b, MONGOL, first)
    elif k == FARMER:
        v += sym * 1.5 * b.events_ahead(DROUGHT, later) + sym * 0.05 * left
    elif k == PYROTECHNIST:
        v += sym * 1.5 * b.events_ahead(FESTIVAL, later) + sym * 0.05 * left
    elif k == MONK:
        if floors is None:
            floors = b.tallest_room(seat)
            if b.scorings_left > 3:
                floors = max(floors, 2)
        v += sym * floors
    return v


def _event_weights(b: _Board, event: int, first: int) -> float:
    """The events `event` from month `first` on, this month's counted whole and later ones at
    0.7 (a later recruit can still meet those)."""
    return sum((1.0 if m == b.month else 0.7) for m in range(max(1, first), MONTHS + 1)
               if b.events[m - 1] == event)


def _plain_costs(b: _Board, seat: Seat) -> list[float]:
    """What losing each of the seat's persons costs (its plain value, and its palace's VP when
    it is the last one there), cheapest first: the persons an event takes."""
    key = id(seat)
    cached = b.cache.get(key)
    if cached is None:
        cached = sorted(_held_value(b, seat, i, t, protect=False)
                        for i, p in enumerate(seat["palaces"]) for t in p["persons"])
        b.cache[key] = cached
    return cached


def _held_value(b: _Board, seat: Seat, palace: int, t: int, protect: bool = True) -> float:
    """What keeping the held person `t` of `palace` is worth (releasing it loses this): the
    person's value, and when it is the palace's last inhabitant the palace's monthly VP (an
    empty palace loses a floor a month and is gone when it has none)."""
    p = seat["palaces"][palace]
    v = _person_value(b, seat, t, p["floors"], held=True, protect=protect)
    if len(p["persons"]) == 1:
        v += 0.8 * max(0, b.scorings_left - p["floors"] + 1) + 0.5
    return v


# ---------------------------------------------------------------------------------------------
# The action card (rules in priority order, each a term of the action's value).

def _festival_points(mine: int, others: list[int]) -> float:
    """The VP a seat with `mine` fireworks scores at a festival against the others' counts."""
    if mine <= 0:
        return 0.0
    counts = sorted({c for c in others + [mine] if c > 0}, reverse=True)
    if mine == counts[0]:
        return float(data.FESTIVAL_VP[0])
    if len(counts) > 1 and mine == counts[1]:
        return float(data.FESTIVAL_VP[1])
    return 0.0


def _releases_cost(costs: list[float], n: int) -> float:
    """The VP lost releasing `n` persons, the cheapest first (each at least a month's recruit:
    PERSON_LOSS_VP)."""
    return sum(max(c, PERSON_LOSS_VP) for c in costs[:max(0, n)])


def _event_shortfall(b: _Board, yuan: int, rice: int, fireworks: int,
                     costs: list[float], new_palace: bool = False) -> float:
    """The VP the seat stands to lose at this month's event and (at lower weights) the next
    two months', holding `yuan`, `rice` and `fireworks` after its action (a missing yuan at a
    tribute or rice at a drought costs its cheapest person), less what it scores at the
    festivals ahead. `new_palace`: the action adds a palace the month's recruit moves into
    (one more to feed in a drought).

    A later month's event can still be met by a later action, so it weighs less, unless the
    seat could not pay the fee for a taken group then (less than 3 yuan and not first to act)."""
    seat = b.seat
    syms = seat["symbols"]
    loss = 0.0
    stuck = yuan < data.FEE_OCCUPIED_GROUP and b.track_rank() > 0
    for ahead, weight in EVENT_WEIGHTS:
        if ahead == 1 and stuck:
            weight = max(weight, STUCK_WEIGHT)
        m = b.month + ahead
        ev = b.event(m)
        short, per_action = 0, 1
        if ev == TRIBUTE:
            short = data.TRIBUTE_YUAN - yuan
            per_action = 2 + syms[TAX_COLLECTOR]
        elif ev == DROUGHT:
            short = b.drought_need(seat, recruit=True) + (1 if new_palace else 0) - rice
            per_action = 1 + syms[FARMER]
        if short <= 0:
            continue
        cost = _releases_cost(costs, short)
        if ahead:
            # A later month's shortfall costs at most the actions that will make it up.
            cost = min(cost, FIX_VP * -(-short // per_action))
        loss += weight * cost
    return loss - _festival_value(b, fireworks)


def _festival_value(b: _Board, fireworks: int) -> float:
    """The VP the seat can expect from the festivals still ahead holding `fireworks` tiles: at
    each, its points against the others' tiles, theirs growing by a Fireworks action every
    FESTIVAL_PACE months; a scorer keeps half its tiles for the next one."""
    total = 0.0
    mine = fireworks
    for m in range(b.month, MONTHS + 1):
        if b.events[m - 1] != FESTIVAL:
            continue
        months = m - b.month
        others = [s["fireworks"] + round(months / FESTIVAL_PACE * (1 + s["symbols"][PYROTECHNIST]))
                  for s in b.others]
        points = _festival_points(mine, others)
        total += (1.0 if months == 0 else 0.8) * points
        if points:
            mine //= 2
    return total


def _action_values(b: _Board, legal: list[int]) -> dict[int, float]:
    L = LAYOUT
    seat = b.seat
    left = b.scorings_left
    yv = b.yuan_vp()
    syms = seat["symbols"]
    costs = _plain_costs(b, seat)
    base_loss = _event_shortfall(b, seat["yuan"], seat["rice"], seat["fireworks"], costs)
    values: dict[int, float] = {}
    for a in legal:
        yuan, rice, fw = seat["yuan"], seat["rice"], seat["fireworks"]
        new_palace = False
        if a == L["topup"]:
            # Rule: no action only tops up money (and leaves a group to the others).
            gain = max(0, data.TOPUP_TO - yuan)
            v = gain * yv - 0.5
            yuan += gain
        else:
            card = (a - L["card"] if a < L["privilege_small"]
                    else PRIVILEGE if a < L["wall"] else WALL)
            fee = b.fee(card)
            yuan -= fee
            # Rule: take what the others leave cheap: a 3-yuan fee is paid only for a clear gain.
            v = -fee * yv - (0.5 if fee else 0.0)
            if card == TAXES:
                gain = 2 + syms[TAX_COLLECTOR]
                v += gain * yv
                yuan += gain
            elif card == BUILD:
                floors = 1 + syms[CRAFTSMAN]
                room = b.room(seat)
                recruits = b.recruits_left()
                # Rule: room for the persons still to come (a person without room is let go):
                # the first missing floor is this month's recruit, the others later months'.
                missing = max(0, recruits - room)
                useful = min(floors, missing)
                if useful:
                    # Without room the recruit can only replace the least useful person.
                    weakest = costs[0] if costs else 0.0
                    first_floor = min(_best_recruit(b), weakest) + 2.0 if room == 0 else 2.5
                    v += first_floor + 2.5 * (useful - 1)
                    # A new palace (where a missing floor goes) scores a VP every month.
                    v += 0.5 * max(0, left - 1)
                    new_palace = True
                elif floors:
                    v += 0.3 * floors
                # Monks score the floors of their palace.
                v += _monk_floor_gain(seat, floors)
            elif card == HARVEST:
                gain = 1 + syms[FARMER]
                rice += gain
                v += gain * 2 / 3 * 0.5  # sells for 2 yuan at the end
            elif card == FIREWORKS:
                gain = 1 + syms[PYROTECHNIST]
                fw += gain
                v += gain * 2 / 3 * 0.5  # sells for 2 yuan at the end
            elif card == PARADE:
                steps = 1 + syms[WARRIOR]
                v += _parade_value(b, steps)
            elif card == RESEARCH:
                v += 1 + syms[SCHOLAR]
            elif card == PRIVILEGE:
                large = a == L["privilege_large"]
                cost = (b.snap["options"]["large_privilege_cost"] if large
                        else data.PRIVILEGE_SMALL_COST)
                yuan -= cost
                # Rule: privileges early: each dragon scores every month still to come.
                v += (2 if large else 1) * left - cost * yv
            else:
                bonus = a - L["wall"]
                v += _wall_value(b, bonus)
                if bonus == WB_RICE:
                    rice += 1
                elif bonus == WB_YUAN:
                    yuan += data.WALL_BONUS_YUAN
                elif bonus == WB_FIREWORKS:
                    fw += 1
        # Rule: keep the 3 yuan that pay for a taken group next month (a broke player takes
        # what the others leave).
        v += LIQUIDITY_VP * (min(max(yuan, 0), data.FEE_OCCUPIED_GROUP)
                             - min(seat["yuan"], data.FEE_OCCUPIED_GROUP)) / data.FEE_OCCUPIED_GROUP
        # Rule (first priority): be ready for this month's event and the next ones.
        v += base_loss - _event_shortfall(b, yuan, rice, fw, costs, new_palace)
        values[a] = v
    return values


def _best_recruit(b: _Board) -> float:
    """What the best person the seat can recruit this month is worth (its cards in hand, the
    tiles on the display), the value a floor of room saves when every palace is full."""
    seat = b.seat
    display = b.snap["display"]
    kinds = set(seat["hand"])
    if seat["wildcards"]:
        kinds = set(range(data.N_KINDS))
    return max((_person_value(b, seat, t) for t in range(data.N_TYPES)
                if display[t] > 0 and _kind(t) in kinds), default=0.0)


def _monk_floor_gain(seat: Seat, floors: int) -> float:
    """The end VP `floors` new floors add under the seat's monks (the best palaces first)."""
    gains = []
    for p in seat["palaces"]:
        buddhas = sum(_symbols(t) for t in p["persons"] if _kind(t) == MONK)
        gains.extend([buddhas] * (MAX_FLOORS - p["floors"]))
    gains.sort(reverse=True)
    return float(sum(gains[:floors]))


def _parade_value(b: _Board, steps: int) -> float:
    """Steps on the person track: worth the seats they pass (acting before them next month)."""
    mine = b.seat["track"]
    passed = sum(1 for s in b.others if mine <= s["track"] < mine + steps)
    return 0.1 * steps + 0.8 * passed * min(1.0, (b.scorings_left - 1) / 4)


def _wall_value(b: _Board, bonus: int) -> float:
    """A wall section: its bonus, a VP at each wall scoring ahead, and not being the fewest."""
    v = 0.0
    if bonus == WB_STEPS:
        v += _parade_value(b, data.WALL_BONUS_STEPS)
    elif bonus == WB_RICE:
        v += 0.3
    elif bonus == WB_FLOOR:
        v += 1.5 if b.room(b.seat) == 0 and b.recruits_left() else 0.4
    elif bonus == WB_YUAN:
        v += data.WALL_BONUS_YUAN * b.yuan_vp()
    elif bonus == WB_FIREWORKS:
        v += 0.3
    else:
        v += data.WALL_BONUS_VP
    scorings = b.events_ahead(MONGOL, b.month) + 1  # and the final wall scoring
    v += 1.0 * scorings
    mine = b.seat["wall_built"]
    if mine <= min(s["wall_built"] for s in b.others):
        v += 1.5
    return v


# ---------------------------------------------------------------------------------------------
# Floors, persons, releases.

def _build_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Where a new floor goes: under a monk first (end VP), then where a person needs room,
    then a new palace (a VP a month once someone lives there)."""
    L = LAYOUT
    seat = b.seat
    room = b.room(seat)
    need_room = b.recruits_left() > room
    values: dict[int, float] = {}
    for a in legal:
        p = a - L["build"]
        if p >= len(seat["palaces"]):
            # Rule: a new palace when room is needed and months remain for it to score.
            v = 0.6 * b.scorings_left / MONTHS + (1.5 if need_room else 0.0)
            if b.scorings_left <= 2:
                v -= 1.0
        else:
            pal = seat["palaces"][p]
            buddhas = sum(_symbols(t) for t in pal["persons"] if _kind(t) == MONK)
            v = 1.0 * buddhas + (1.2 if need_room else 0.2)
            # An empty palace decays: a floor there is lost at the month's end unless filled.
            if not pal["persons"]:
                v -= 0.5
        values[a] = v
    return values


def _person_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Which person card to play: the recruit worth most now (its own kind card first; a
    wildcard only for a clearly better person); with full palaces, what replacing the least
    useful person gains."""
    L = LAYOUT
    seat = b.seat
    room = b.room(seat)
    weakest = min((_held_value(b, seat, i, t) for i, p in enumerate(seat["palaces"])
                   for t in p["persons"]), default=0.0)
    wild_cost = WILDCARD_KEEP_VP * min(1.0, (MONTHS - 1 - b.month) / 6)
    values: dict[int, float] = {}
    display = b.snap["display"]
    for a in legal:
        if L["play"] <= a < L["play_empty"] or L["wild"] <= a < L["wild_empty"]:
            wild = a >= L["wild"]
            t = a - (L["wild"] if wild else L["play"])
            v = _person_value(b, seat, t)
            if room == 0:
                v = max(0.0, v - weakest) - 0.5
            # Rule: a scarce kind now, a plentiful one can wait (the others take the last tiles).
            kind_left = sum(display[u] for u in range(data.N_TYPES) if _kind(u) == _kind(t))
            if kind_left <= 2:
                v += 0.5
            if wild:
                v -= wild_cost
                # Keep the wildcard when the kind card itself is still in hand.
                if _kind(t) in seat["hand"]:
                    v -= 2.0
        elif L["play_empty"] <= a < L["wild"]:
            # Rule: a card whose kind is gone recruits nobody: play it when nothing is worth it.
            v = 0.2
        else:
            v = -1.0  # a wildcard with nobody left on the display
        values[a] = v
    return values


def _place_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Where the newcomer lives: an empty palace first (it would decay), a monk in the tallest
    palace, anyone else in the lowest (keeping tall palaces for monks); with no room, replace
    the least useful person if the newcomer is worth more, else let it go."""
    L = LAYOUT
    seat = b.seat
    t = b.snap["pending_type"]
    values: dict[int, float] = {}
    for a in legal:
        if a < L["replace"]:
            pal = seat["palaces"][a - L["place"]]
            v = 0.0
            if not pal["persons"]:
                v += 2.0
            if _kind(t) == MONK:
                v += _symbols(t) * pal["floors"]
            else:
                v -= 0.1 * pal["floors"]
            values[a] = v
        elif a < L["discard_new"]:
            key = a - L["replace"]
            p, old = divmod(key, data.N_TYPES)
            floors = seat["palaces"][p]["floors"]
            values[a] = (_person_value(b, seat, t, floors)
                         - _held_value(b, seat, p, old))
        else:
            values[a] = 0.0
    return values


def _release_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Whom to release (events, wall, earthquake): the person whose loss costs least."""
    L = LAYOUT
    seat = b.seat
    values: dict[int, float] = {}
    for a in legal:
        p, t = divmod(a - L["release"], data.N_TYPES)
        values[a] = -_held_value(b, seat, p, t)
    return values


# ---------------------------------------------------------------------------------------------
# The start of the game and the super events.

def _draft_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """The two starting persons: the pair worth most for the year ahead, the track steps
    weighing most (acting first means no fees and the first pick of persons)."""
    L = LAYOUT
    seat = b.seat
    values = {}
    for a in legal:
        x, y = data.DRAFT_PAIRS[a - L["draft"]]
        values[a] = (_person_value(b, seat, x, 2) + _person_value(b, seat, y, 2)
                     + DRAFT_STEP_VP * (_steps(x) + _steps(y)))
    return values


def _start_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """One starting person in each palace: both palaces score and neither decays."""
    L = LAYOUT
    return {a: (1.0 if a == L["start"] else 0.0) for a in legal}


def _quake_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Earthquake floors: from palaces with an empty floor (nobody leaves), not under monks."""
    L = LAYOUT
    seat = b.seat
    values = {}
    for a in legal:
        if a < L["quake"]:
            continue
        pal = seat["palaces"][a - L["quake"]]
        buddhas = sum(_symbols(t) for t in pal["persons"] if _kind(t) == MONK)
        v = -1.0 * buddhas
        if len(pal["persons"]) < pal["floors"]:
            v += 3.0
        if not pal["persons"]:
            v += 1.0
        values[a] = v
    if any(a < L["quake"] for a in legal):
        values.update(_release_values(b, [a for a in legal if a < L["quake"]]))
    return values


def _flood_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Flood discards: the resource the coming events need least."""
    L = LAYOUT
    seat = b.seat
    values = {}
    for a in legal:
        r = a - L["flood"]
        if r == 0:
            keep = b.events_ahead(TRIBUTE, b.month + 1) and seat["yuan"] <= data.TRIBUTE_YUAN
            values[a] = -b.yuan_vp() - (PERSON_LOSS_VP if keep else 0.0)
        elif r == 1:
            keep = (b.events_ahead(DROUGHT, b.month + 1)
                    and seat["rice"] <= b.drought_need(seat, recruit=False))
            values[a] = -0.6 - (PERSON_LOSS_VP if keep else 0.0)
        else:
            keep = b.events_ahead(FESTIVAL, b.month + 1)
            values[a] = -0.6 - (1.5 if keep else 0.0)
    return values


def _tornado_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """Tornado discards: the cards whose best person is worth least (a kind gone: nothing)."""
    L = LAYOUT
    display = b.snap["display"]
    values = {}
    for a in legal:
        k = a - L["tornado"]
        best = max((_person_value(b, b.seat, t) for t in range(data.N_TYPES)
                    if display[t] > 0 and (k == data.N_KINDS or _kind(t) == k)), default=0.0)
        values[a] = -best - (WILDCARD_KEEP_VP if k == data.N_KINDS else 0.0)
    return values


def _sunrise_values(b: _Board, legal: list[int]) -> dict[int, float]:
    L = LAYOUT
    room = b.room(b.seat)
    return {a: _person_value(b, b.seat, a - L["sunrise"]) - (0 if room else 2.0) for a in legal}


def _contract_values(b: _Board, legal: list[int]) -> dict[int, float]:
    """The Contract: the kind whose symbols pay most now."""
    L = LAYOUT
    seat = b.seat
    sym = seat["symbols"]
    values = {}
    for a in legal:
        k = a - L["contract"]
        if k in (COURT_LADY, SCHOLAR):
            v = float(sym[k])
        elif k == TAX_COLLECTOR:
            v = sym[k] * b.yuan_vp()
        elif k == FARMER:
            v = sym[k] * 0.8
        elif k == PYROTECHNIST:
            v = sym[k] * 0.8
        elif k == WARRIOR:
            v = _parade_value(b, sym[k])
        elif k == CRAFTSMAN:
            v = sym[k] * 0.8
        elif k == MONK:
            v = float(sum(_symbols(t) * p["floors"] for p in seat["palaces"]
                          for t in p["persons"] if _kind(t) == MONK))
        else:
            v = 0.0
        values[a] = v
    return values


_RULES: dict[str, Callable[[_Board, list[int]], dict[int, float]]] = {
    "draft": _draft_values,
    "start": _start_values,
    "action": _action_values,
    "build": _build_values,
    "person": _person_values,
    "place": _place_values,
    "release": _release_values,
    "earthquake": _quake_values,
    "flood": _flood_values,
    "tornado": _tornado_values,
    "sunrise": _sunrise_values,
    "contract": _contract_values,
}


# ---------------------------------------------------------------------------------------------
# The decision.

def _decide(state: Any, rng: random.Random) -> int:
    """The rules' action in `state` (may raise on a bug; `choose` guards against that)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    snap = state.snapshot()
    rule = _RULES.get(snap["phase"])
    prior = state.move_prior()
    if rule is None:
        return _by_prior(legal, prior, rng)
    values = rule(_Board(snap), legal)
    if not values:
        return _by_prior(legal, prior, rng)
    best = max(values.values())
    top = [a for a in legal if a in values and values[a] >= best - 1e-9]
    if len(top) > 1 and prior is not None:
        weight = dict(zip(legal, prior))
        top_prior = max(weight[a] for a in top)
        top = [a for a in top if weight[a] >= top_prior]
    return rng.choice(top)


def _by_prior(legal: list[int], prior: list[float] | None, rng: random.Random) -> int:
    if prior is None:
        return rng.choice(legal)
    best = max(prior)
    return rng.choice([a for a, p in zip(legal, prior) if p == best])


def choose(state: Any, rng: random.Random) -> int:
    """The planner's action for the player to move in `state` (a determinization of its own
    seat): the rules' choice, or the move prior's if a rule fails (never an illegal action)."""
    legal = state.legal_actions()
    try:
        action = _decide(state, rng)
    except Exception:  # a rule's bug must not forfeit a game; the tests call `_decide` itself
        return _by_prior(legal, state.move_prior(), rng)
    return action if action in legal else _by_prior(legal, state.move_prior(), rng)
