"""Mount Tai's standard plan as a list of rules (the `planner` bot; no search).

The plan a practised player follows at a full table: recruit a Sacrifice Official at once (its
level 1 adds 3 to every celebration, its level 2 adds 2 to every sacrifice to heaven, its level 3
pays for every talent level held); reclaim a farmland early (grain at every spring and autumn
settlement); meet the year-one Eight Praises tiles (5 reputation each); turn grain into wine and
both into reputation with celebrations (3 grain + 3 wine: 6) and, once at the summit, sacrifices
to heaven (2 grain + 1 wine: 6); raise the talents held rather than recruit more, one of them to
level 3 late; and spend grain and money before the end, where they are worth nothing.

`choose(state, rng)` answers one decision. Each decision kind (the game's phase) has its rules
(`PHASE_RULES`), tried in order; the first that names a legal action decides:

- policy (which edict tile): (1) the Sacrifice Official while one is on offer in the first 8
  rounds; (2) in the last 2 rounds, the tile that feasts most; (3) this season's year-one Eight
  Praises tile when the rounds before its settlement suffice; (4) one farmland by round 8;
  (5) the move prior's valuation plus the plan's bonus (a recruitment tile for a development in
  the last rounds);
- effect (which effect of the tile, in which order): the order that feasts most (brewing first
  when that makes the feast possible); recruitment for the Sacrifice Official; the effect rules
  3 and 4 chose the tile for;
- recruit: the Sacrifice Official; the development the plan wants (the Official to level 2,
  level 3 in the last rounds); else developing a talent held over recruiting another;
- brew: as much as allowed, keeping the grain the tile's own feast needs;
- event: in the last round, the event worth reputation (or what the last Eight Praises tile
  pays for);
- every other decision (cells, buildings, events before the last round, tidy-ups, the
  promo talents' and buildings' choices), and every one whose rules name nothing: the game's
  move prior (the `heuristic` bot's greedy choice), so every decision the game can ask gets an
  answer.

Rules tried and dropped (each lowered the mean reputation over 120-1,000 games against three
`heuristic`, see docs/PLANNER.md): celebrating whenever a tile allows it (it spends the grain and
wine the Eight Praises tiles count, and its high tiles pick events last), brewing ahead of a
feast, event choices of our own (grain and wine for the next feast, money early), the Works
Office first, uncovering feast tiles by tidying up, and the climb to the summit (ascents in a
third of the games, sacrifices 0.7 a game, 1-2 reputation less in all).

The rules read the seat's own snapshot with hidden parts left out (`snapshot(hidden=False)`):
nothing a player cannot see.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Optional

from engine.mount_tai import data
from engine.mount_tai.game import CELL_KINDS

# Cell contents as the snapshot gives them (the engine's own table), and the summit cell of a
# fief (state.pxd SUMMIT_CELL: cell (3, 3), the fief's quarter of the summit).
SETTLEMENT, FARMLAND, TOWN, ASCENT = (CELL_KINDS.index(k)
                                      for k in ("settlement", "farmland", "town", "ascent"))
SUMMIT = 15
ROUNDS = data.ROUNDS
BLUE = data.TALENTS[data.T_SACRIFICE].colour  # the Sacrifice Official's colour
SO = data.T_SACRIFICE
CEL, SAC, BREW, RECRUIT, BUILD = (data.E_CELEBRATE, data.E_SACRIFICE, data.E_BREW,
                                  data.E_RECRUIT, data.E_BUILD)
CULTIVATE, RECLAIM, TOWN_E = data.E_CULTIVATE, data.E_RECLAIM, data.E_TOWN


def _layout() -> dict[str, int]:
    from engine.mount_tai.game import LAYOUT

    return LAYOUT


@dataclass
class Seat:
    """What the rules read about the seat to move (its own holdings, public board facts)."""

    state: Any
    snap: dict[str, Any]
    me: dict[str, Any]
    seat: int
    legal: list[int]
    L: dict[str, int]

    @property
    def round(self) -> int:
        return int(self.snap["round"])

    @property
    def rounds_left(self) -> int:
        """Policy decisions still to come, this round's included."""
        return ROUNDS - self.round

    @property
    def money(self) -> int:
        return int(self.me["money"])

    @property
    def grain(self) -> int:
        return int(self.me["grain"])

    @property
    def wine(self) -> int:
        return int(self.me["wine"])

    def level(self, talent: int) -> int:
        """The level of the seat's talent of kind `talent` (0: none)."""
        return max((lv for k, lv in self.me["talents"] if k == talent), default=0)

    def has_colour(self, colour: int) -> bool:
        return any(data.TALENTS[k].colour == colour for k, _ in self.me["talents"])

    @property
    def ascended(self) -> bool:
        return self.me["cells"][SUMMIT] == ASCENT

    def tile_of(self, slot: int) -> Optional[int]:
        t = self.me["slots"][slot] if slot < len(self.me["slots"]) else None
        return t if isinstance(t, int) else None

    def uncovered_tiles(self) -> list[int]:
        """The numbers of the seat's uncovered face-up edict tiles."""
        return [t for t in (self.tile_of(s) for s in self.me["uncovered"]) if t is not None]

    def cel_reward(self) -> int:
        return data.CELEBRATION_REPUTATION + (
            data.SACRIFICE_OFFICIAL_CELEBRATION_BONUS if self.level(SO) >= 1 else 0)

    def sac_reward(self) -> int:
        return data.SACRIFICE_REPUTATION + (
            data.SACRIFICE_OFFICIAL_SACRIFICE_BONUS if self.level(SO) >= 2 else 0)

    def brew_max(self) -> int:
        return data.BREW_MAX * (data.BREWER_BREW_TIMES if self.level(data.T_BREWER) else 1)

    def pile_top(self, pile: int) -> Optional[int]:
        cards = self.snap["piles"][pile]
        return cards[0] if cards and isinstance(cards[0], int) else None


def _seat(state: Any) -> Seat:
    snap = state.snapshot(hidden=False)
    seat = snap["current_player"]
    return Seat(state, snap, snap["seats"][seat], seat, state.legal_actions(), _layout())


# ---------------------------------------------------------------------------------------------
# What a tile's effects would bring now: the feasts (celebrations and sacrifices).


def feast_gain(v: Seat, tile: int, grain: int | None = None, wine: int | None = None,
               effects: tuple[int, ...] | None = None) -> tuple[int, list[int]]:
    """The reputation the feasts of edict `tile` can bring now (its remaining `effects`), and
    the order of effects that brings it (brewing first when that makes a feast possible). A
    tier I or II tile executes one effect, a tier III tile all of them."""
    g = v.grain if grain is None else grain
    w = v.wine if wine is None else wine
    effects = data.EDICT_EFFECTS[tile] if effects is None else effects
    both = data.TIER_OF[tile] == 3
    best: tuple[int, list[int]] = (0, [])

    def feasts(g: int, w: int, todo: list[int]) -> tuple[int, list[int]]:
        """The best gain from the feasts in `todo`, in either order."""
        out = (0, [])
        for first in todo:
            gain, g2, w2 = _feast(v, first, g, w)
            if gain == 0:
                continue
            rest = [e for e in todo if e != first]
            more = feasts(g2, w2, rest) if both else (0, [])
            if gain + more[0] > out[0]:
                out = (gain + more[0], [first] + more[1])
        return out

    todo = [e for e in effects if e in (CEL, SAC)]
    best = feasts(g, w, todo) if both else max(
        ((_feast(v, e, g, w)[0], [e]) for e in todo), default=(0, []))
    if both and BREW in effects and todo:
        for k in range(1, min(v.brew_max(), g) + 1):
            gain = feasts(g - k, w + k, todo)
            if gain[0] > best[0]:
                best = (gain[0], [BREW] + gain[1])
    return best


def _feast(v: Seat, effect: int, g: int, w: int) -> tuple[int, int, int]:
    """(reputation, grain left, wine left) of one feast effect with `g` grain and `w` wine."""
    if effect == CEL and g >= data.CELEBRATION_GRAIN and w >= data.CELEBRATION_WINE:
        return v.cel_reward(), g - data.CELEBRATION_GRAIN, w - data.CELEBRATION_WINE
    if (effect == SAC and v.ascended and g >= data.SACRIFICE_GRAIN
            and w >= data.SACRIFICE_WINE):
        return v.sac_reward(), g - data.SACRIFICE_GRAIN, w - data.SACRIFICE_WINE
    return 0, g, w


# ---------------------------------------------------------------------------------------------
# Policy decisions: which edict tile to use (or tidy up).


def _use_action(v: Seat, tile: int) -> Optional[int]:
    """The action that uses edict `tile` (None if it is not uncovered or not legal)."""
    for slot in v.me["uncovered"]:
        if v.tile_of(slot) == tile and v.L["use"] + slot in v.legal:
            return v.L["use"] + slot
    return None


def _tiles_with(v: Seat, effect: int) -> list[int]:
    """The uncovered tiles that can be used and carry `effect`, lowest number first (a low
    number also buys an early pick of the events)."""
    return sorted(t for t in v.uncovered_tiles()
                  if effect in data.EDICT_EFFECTS[t] and _use_action(v, t) is not None)


def policy_sacrifice_official(v: Seat) -> Optional[int]:
    """Policy rule 1: a Sacrifice Official on offer in the first 8 rounds, none held: recruit
    it (tier I tile 4 first, then the tile with recruitment whose other effect is least
    needed)."""
    if v.round > 7 or v.has_colour(BLUE) or v.pile_top(BLUE) != SO or v.money < 1:
        return None
    tiles = _tiles_with(v, RECRUIT)
    if not tiles:
        return None
    # A tier II tile must execute one of its effects; we choose recruitment at the effect
    # decision. A tier III tile with a feast is better kept for the feast.
    tiles.sort(key=lambda t: (any(e in (CEL, SAC) for e in data.EDICT_EFFECTS[t]),
                              data.TIER_OF[t] == 3, t))
    return _use_action(v, tiles[0])


def develop_late_tile(v: Seat) -> Optional[int]:
    """In the last DEV_WINDOW rounds, while a development is wanted (`_best_development`):
    the recruitment tile to use for it (money is worth nothing at the end)."""
    if v.rounds_left > DEV_WINDOW:
        return None
    if _best_development(v) is None:
        return None
    tiles = _tiles_with(v, RECRUIT)
    # keep a tile that also feasts for the feast
    tiles.sort(key=lambda t: (any(e in (CEL, SAC) for e in data.EDICT_EFFECTS[t]), t))
    return _use_action(v, tiles[0]) if tiles else None


def bonus_develop_late(v: Seat) -> dict[int, float]:
    """Plan bonus: in the last rounds, a recruitment tile while a development is wanted (a
    talent to level 3 with the money left)."""
    rule = develop_late_tile(v)
    return {rule: DEVELOP_BONUS} if rule is not None else {}


# Reputation added to the move prior's value of a recruitment tile in the last rounds while a
# development is wanted (tried 0 and 3 over 200 games against three `heuristic`: the same
# win rate, more level-3 talents and less money left with 3).
DEVELOP_BONUS = 3.0
# The last rounds (policy decisions left) in which a talent is raised to level 3 (level 2 for
# any talent two rounds earlier); 6 and 8 did no better over 1,000 games.
DEV_WINDOW = 4

POLICY_BONUSES: list[Callable[[Seat], dict[int, float]]] = [
    bonus_develop_late,
]


def policy_planned(v: Seat) -> Optional[int]:
    """Policy rule 5: the move prior's value of each choice plus the plan's bonuses, the best
    sum. The prior is exp(value - best value) with values in reputation (engine/mount_tai/
    knowledge.pyx, temperature 1), so its logarithm is each choice's value in reputation."""
    prior = v.state.move_prior()
    if prior is None:
        return None
    score = {a: (math.log(p) if p > 0 else -1e9) for a, p in zip(v.legal, prior)}
    for rule in POLICY_BONUSES:
        for a, b in rule(v).items():
            if a in score:
                score[a] += b
    return max(v.legal, key=lambda a: score[a])


def _height(cell: int) -> int:
    a, b = divmod(cell, 4)
    return min(a, b) + 1


def praise_step(v: Seat) -> Optional[int]:
    """The effect that works towards this season's year-one Eight Praises condition when the
    rounds left before its settlement suffice to meet it (None if met, out of reach, or not a
    year-one condition an edict effect builds: towns, farmland, buildings, a level 2 talent, a
    tile on layer 2)."""
    if v.round >= ROUNDS // data.YEARS:
        return None
    index = v.snap["praises"][0][v.snap["season"]]
    rounds = 2 - v.round % 2   # policy decisions left before the season's settlement
    cells = v.me["cells"]
    settlements = cells.count(SETTLEMENT)
    if index in (data.PR_TOWNS, data.PR_FARMLAND):
        kind, effect = (TOWN, TOWN_E) if index == data.PR_TOWNS else (FARMLAND, RECLAIM)
        need = 2 - cells.count(kind)
        if need <= 0:
            return None
        per = 1
        if index == data.PR_TOWNS and v.level(data.T_COMMERCE) >= 2:
            per = data.COMMERCE_TOWN_TIMES
        if index == data.PR_FARMLAND and v.level(data.T_AGRI) >= 2:
            per = data.AGRI_RECLAIM_TIMES
        short = max(0, need - settlements)
        actions = -(-need // per) + -(-short // data.FLAT_CULTIVATIONS)
        if actions > rounds:
            return None
        return effect if settlements else CULTIVATE
    if index == data.PR_BUILDINGS:
        need = 2 - len(v.me["buildings"])
        return BUILD if 0 < need <= rounds and v.money >= 2 else None
    if index == data.PR_TALENTS:
        levels = [lv for _, lv in v.me["talents"]]
        if any(lv >= 2 for lv in levels):
            return None
        if levels and v.money >= data.LEVEL_UP_COSTS[0]:
            return RECRUIT
        if rounds >= 2 and v.money >= data.RECRUIT_COST + data.LEVEL_UP_COSTS[0]:
            return RECRUIT
        return None
    if index == data.PR_HEIGHT:
        if any(c and _height(l) == 2 for l, c in enumerate(cells)):
            return None
        return CULTIVATE if v.money >= 1 else None
    return None


def _policy_towards(v: Seat, effect: Optional[int]) -> Optional[int]:
    """The tile to use for `effect` (a step of the plan): the lowest one carrying it that
    neither feasts nor is tier III (those are kept for the feasts)."""
    if effect is None:
        return None
    tiles = _tiles_with(v, effect)
    tiles.sort(key=lambda t: (any(e in (CEL, SAC) for e in data.EDICT_EFFECTS[t]),
                              data.TIER_OF[t] == 3, t))
    return _use_action(v, tiles[0]) if tiles else None


def _effect_towards(v: Seat, effect: Optional[int]) -> Optional[int]:
    """The effect action for `effect` (a step of the plan), if legal."""
    if effect is None:
        return None
    a = v.L["effect"] + effect
    return a if a in v.legal else None


def policy_praise(v: Seat) -> Optional[int]:
    """Policy rule 3: this season's year-one Eight Praises tile (5 reputation) can still be
    met: use the tile whose effect works towards it (tier I and II first, keeping the tier III
    ones)."""
    effect = praise_step(v)
    if effect is not None and not v.state.effect_possible(v.seat, effect):
        return None
    return _policy_towards(v, effect)


def effect_praise(v: Seat) -> Optional[int]:
    """Effects: the effect working towards this season's year-one Eight Praises tile."""
    return _effect_towards(v, praise_step(v))


# The early farmland: one by round 8 (2 or 3, or by round 4 or 6, did no better over 1,000
# games against three `heuristic`).
FARMLAND_UNTIL = 8
FARMLAND_TARGET = 1


def farmland_step(v: Seat) -> Optional[int]:
    """The effect that builds the early farmland (grain at every spring and autumn settlement:
    the celebrations' grain): reclamation of a settlement held, or cultivation for one; None
    once FARMLAND_TARGET farmlands stand or after round FARMLAND_UNTIL."""
    cells = v.me["cells"]
    if v.round >= FARMLAND_UNTIL or cells.count(FARMLAND) >= FARMLAND_TARGET:
        return None
    if cells.count(SETTLEMENT) and v.state.effect_possible(v.seat, RECLAIM):
        return RECLAIM
    return None


def policy_farmland(v: Seat) -> Optional[int]:
    """Policy rule 4: the early farmland: reclaim a settlement with the cheapest tile that
    carries reclamation."""
    return _policy_towards(v, farmland_step(v))


def effect_farmland(v: Seat) -> Optional[int]:
    """Effects: reclamation for the early farmland."""
    return _effect_towards(v, farmland_step(v))


def policy_final_feast(v: Seat) -> Optional[int]:
    """Policy rule 2: in the last ENDGAME rounds (grain and wine are worth nothing after the
    end), the tile that feasts most now (brewing first if it also brews)."""
    if v.rounds_left > ENDGAME:
        return None
    best, action = 0, None
    for t in sorted(v.uncovered_tiles()):
        a = _use_action(v, t)
        if a is None:
            continue
        gain, _ = feast_gain(v, t)
        if gain > best:
            best, action = gain, a
    return action


# The last rounds in which a feast goes before everything else (1, 2 and 3 did alike over 1,000
# games against three `heuristic`; 2 left a little less grain).
ENDGAME = 2


POLICY_RULES: list[Callable[[Seat], Optional[int]]] = [
    policy_sacrifice_official,
    policy_final_feast,
    policy_praise,
    policy_farmland,
    policy_planned,
]


# ---------------------------------------------------------------------------------------------
# The effects of the tile in use, and their sub-decisions.


def effect_feast_order(v: Seat) -> Optional[int]:
    """Effects: execute the tile's effects in the order that feasts most (brew first when that
    enables a feast)."""
    tile = v.snap["tile"]
    left = tuple(v.snap["effects_left"])
    if not tile or not left:
        return None
    gain, order = feast_gain(v, tile, effects=left)
    if gain and order and v.L["effect"] + order[0] in v.legal:
        return v.L["effect"] + order[0]
    return None


def effect_recruit_for_official(v: Seat) -> Optional[int]:
    """Effects: recruitment when a Sacrifice Official is on offer and none is held."""
    a = v.L["effect"] + RECRUIT
    if a in v.legal and not v.has_colour(BLUE) and v.pile_top(BLUE) == SO:
        return a
    return None


def recruit_official(v: Seat) -> Optional[int]:
    """Recruit: the Sacrifice Official first."""
    a = v.L["recruit"] + BLUE
    return a if a in v.legal and v.pile_top(BLUE) == SO else None


def _best_development(v: Seat) -> Optional[int]:
    """The development the plan wants: the Sacrifice Official to level 2 at once (sacrifices,
    year one's 特矣), any talent to level 3 in the last rounds when the money is there."""
    best, choice = -1.0, None
    for i, (k, lv) in enumerate(v.me["talents"]):
        a = v.L["develop"] + i
        if a not in v.legal:
            continue
        if lv == 1 and k == SO:
            value = 5.0
        elif lv == 2 and v.rounds_left <= DEV_WINDOW:
            value = float(v.state.level3_value(v.seat, k)) + 1.0
        elif lv == 1 and v.rounds_left <= DEV_WINDOW + 2:
            value = 1.0 + (2.0 if k == SO else 0.0)
        else:
            continue
        if value > best:
            best, choice = value, a
    return choice


def recruit_develop(v: Seat) -> Optional[int]:
    """Recruit: develop where the plan wants it."""
    return _best_development(v)


def recruit_develop_any(v: Seat) -> Optional[int]:
    """Recruit: raising a talent held beats another talent (a third talent rarely pays its
    action and money back): develop the Sacrifice Official, else the lowest-level talent."""
    options = [(k != SO, lv, i) for i, (k, lv) in enumerate(v.me["talents"])
               if v.L["develop"] + i in v.legal]
    if not options:
        return None
    return v.L["develop"] + min(options)[2]


def brew_full(v: Seat) -> Optional[int]:
    """Brewing: as much as allowed (a celebration takes 3 wine at once), keeping the grain a
    feast left on this tile needs."""
    legal = sorted(a - v.L["amount"] for a in v.legal if v.L["amount"] <= a < v.L["event"])
    if not legal:
        return None
    tile = v.snap["tile"]
    left = tuple(e for e in v.snap["effects_left"] if e in (CEL, SAC))
    if tile and left:
        best = max(legal, key=lambda k: (feast_gain(v, tile, v.grain - k, v.wine + k, left)[0], k))
        return v.L["amount"] + best
    return v.L["amount"] + max(legal)


def event_last_round(v: Seat) -> Optional[int]:
    """Events, last round: only reputation still counts, and what the last Eight Praises tile
    (year two, winter) pays for money, grain or wine held at its settlement."""
    if v.rounds_left > 1:
        return None
    last = data.PRAISES[v.snap["praises"][1][data.SEASONS.index("winter")]]
    index = [x.name for x in data.PRAISES].index(last.name)
    worth = {data.EV_REPUTATION: 1.0}
    for kind, praise in ((data.EV_MONEY, data.PR_MONEY), (data.EV_GRAIN, data.PR_GRAIN),
                         (data.EV_WINE, data.PR_WINE)):
        if index == praise:
            worth[kind] = last.year2_reputation / last.year2_unit
    r = v.round % (ROUNDS // data.YEARS)
    bonus = v.snap["season_bonus"][v.snap["season"]]
    best, choice = 0.0, None
    for a in v.legal:
        if not v.L["event"] <= a < v.L["exchange"]:
            continue
        tile = v.snap["events"][r][a - v.L["event"]]
        if tile is None:
            continue
        e = data.EVENT_TILES[tile]
        amount = e.amount + (data.EVENT_BONUS_AMOUNT if e.kind == bonus else 0)
        value = amount * worth.get(e.kind, 0.0)
        if value > best:
            best, choice = value, a
    return choice


PHASE_RULES: dict[str, list[Callable[[Seat], Optional[int]]]] = {
    "policy": POLICY_RULES,
    "effect": [effect_feast_order, effect_recruit_for_official, effect_praise,
               effect_farmland],
    "recruit": [recruit_official, recruit_develop, recruit_develop_any],
    "event": [event_last_round],
    "brew": [brew_full],
}


def choose(state: Any, rng: random.Random) -> int:
    """The planner's action in `state` (the seat to move's view): the first rule of the
    decision's kind that names a legal action, else the move prior's best (ties at random)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    v = _seat(state)
    for rule in PHASE_RULES.get(v.snap["phase"], ()):
        action = rule(v)
        if action is not None and action in legal:
            return action
    return prior_choice(state, legal, rng)


def prior_choice(state: Any, legal: list[int], rng: random.Random) -> int:
    """The move prior's best legal action (what `heuristic` plays), ties broken by `rng`."""
    prior = state.move_prior()
    if prior is None:
        return rng.choice(legal)
    top = max(prior)
    return rng.choice([a for a, p in zip(legal, prior) if p == top])



