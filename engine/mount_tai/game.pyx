# cython: language_level=3
"""Mount Tai for Python: `MountTaiGame` (options) and `MountTaiState` (the State API).

Thin wrappers: the rules run in rules.pyx; this module reads the struct into plain Python data
(`snapshot`) for the text in text.py, and offers `_debug_*` hooks that edit the struct so tests can
build the rulebook's positions.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from engine.core.eventlog cimport EventLog, RawEvent, ev_attach
from engine.core.state cimport State
from engine.mount_tai.state cimport *
from engine.mount_tai.rules cimport mt_init, mt_gamedef, mt_debug_policy, mt_debug_flow
from engine.mount_tai.checks cimport mt_effect_possible
from engine.mount_tai.edicts cimport edict_uncovered, edict_slot_count
from engine.mount_tai.mountain cimport to_map, next_to_water, cell_height
from engine.mount_tai.scoring cimport solo_goal, solo_goal_reached, skill3_value

from engine.core.args import as_index, check_range, check_seat, check_optional_seat, check_name_or_index
from engine.core.errors import OptionError
from engine.core.game import Game, Option
from engine.mount_tai import data, text
from engine.mount_tai.events import EVENT_TABLE as _EVENT_TABLE

PHASE_NAMES = (
    "bonus talent", "bonus building", "policy", "tidy-up", "effect", "cultivate", "water",
    "remove", "reclaim", "agricultural wine", "town", "recruit", "build", "observatory", "brew",
    "celebrate", "sacrifice", "event", "exchange", "yin-yang", "brewer wine", "trade", "swap",
    "architect", "scholar", "donate kind", "donate", "commander", "virtual talent", "over",
)
assert len(PHASE_NAMES) == N_PHASES
FLOW_NAMES = ("setup", "policy", "order", "events", "settle", "settle end", "secretary", "final")
LAYOUT_NAMES = ("pyramid", "stacks", "steps")
REMOVE_CONTEXTS = ("primitive tribe", "administrative official", "secretary")

# Where each kind of decision starts in the action-id space (see state.pxd).
LAYOUT = {
    "use": A_USE,
    "tidy": A_TIDY,
    "remove": A_REMOVE,
    "swap": A_SWAP,
    "effect": A_EFFECT,
    "flat": A_FLAT,
    "mountain": A_MOUNTAIN,
    "water": A_WATER,
    "reclaim": A_RECLAIM,
    "town": A_TOWN,
    "recruit": A_RECRUIT,
    "develop": A_DEVELOP,
    "build": A_BUILD,
    "amount": A_AMOUNT,
    "event": A_EVENT,
    "exchange": A_EXCHANGE,
    "resource": A_RESOURCE,
    "seat": A_SEAT,
    "bonus_talent": A_BONUS_TALENT,
    "bonus_building": A_BONUS_BUILDING,
    "yes": A_YES,
    "pass": A_PASS,
    "end": N_ACTIONS,
}
CONSTANTS = {
    "N_ACTIONS": N_ACTIONS,
    "MAX_LEGAL": MAX_LEGAL,
    "N_SLOTS": N_SLOTS,
    "N_CELLS": N_CELLS,
    "STATE_BYTES": sizeof(MTState),
    "VIRTUAL": VIRTUAL,
    "PASS_NUMBER": PASS_NUMBER,
}

TALENT_NAMES = tuple(t.name for t in data.TALENTS)
BUILDING_NAMES = tuple(b.name for b in data.BUILDINGS)
CELL_KINDS = ("barren", "settlement", "farmland", "town", "ascent")


def _talent_check(value):
    if value is None or value == "none" or value in TALENT_NAMES:
        return None
    return "allowed: none, " + ", ".join(TALENT_NAMES)


def _buildings_check(value):
    if value is None or value == "none":
        return None
    names = [v.strip() for v in value.split(",")]
    bad = [v for v in names if v not in BUILDING_NAMES]
    if bad:
        return f"unknown building {bad[0]!r}; allowed: none, " + ", ".join(BUILDING_NAMES)
    if len(set(names)) != len(names):
        return "carried buildings must be of different kinds"
    return None


class MountTaiGame(Game):
    """Mount Tai: 2-4 players or solo (with the virtual player and the 8-game challenge), with
    the crowdfunding promos, the fan-designed talents and the Grand Tutors as options."""

    NAME = "mount-tai"
    TITLE = "Mount Tai"
    OPTIONS = (
        Option("players", int, None, "number of players (1 = solo play; default 4, or 1 with solo)",
               choices=(1, 2, 3, 4)),
        Option("promos", bool, True,
               "crowdfunding promos: 4 red talents, Observatory and Military Garrison, tile 0"),
        Option("fan_talents", bool, None,
               "the 5 fan-designed red talents (default: as promos)"),
        Option("grand_tutors", bool, False, "the Grand Tutor variant (2-4 players)"),
        Option("solo", bool, False, "solo play against the virtual player"),
        Option("challenge", int, None, "solo challenge game 1-8 (implies solo)",
               choices=tuple(range(1, 9))),
        Option("bonus_talent", str, None,
               "challenge: the talent carried from the previous game ('none' if it was lost; "
               "default: chosen at setup)", check=_talent_check),
        Option("bonus_buildings", str, None,
               "challenge: the building(s) carried from the previous game, comma-separated "
               "('none' if it was lost; default: chosen at setup)", check=_buildings_check),
        Option("tidy_up_effect", bool, False,
               "the other reading of the tidy-up: the tile placed may be executed"),
        Option("seasonal_yields", bool, True,
               "farmland yields in spring/autumn and towns in summer/winter (False: every season)"),
        Option("optional_edict_effects", bool, False,
               "every edict effect may be skipped, so any tile can be placed for its number alone "
               "(default: as printed, a tier I or II tile's effect is executed when it can be)"),
        Option("legacy_readings", bool, False,
               "the readings before issue 13, to replay records made then: talents settle "
               "before the Works Office, Free Market and Military Garrison; year-two 高矣 "
               "counts the highest layer (year one: any tile above layer 1); every edict "
               "effect is optional"),
        Option("gao_yi_above_layer_1", bool, False,
               "the reading before issue 36, to replay records made then: year-one 高矣 pays "
               "for a tile on any layer above layer 1, layers {1, 3} too (default: a tile on "
               "layer 2)"),
    )

    @classmethod
    def _stored_record_version(cls, options, actions):
        """Version 1 for complete options without optional_edict_effects (a game kept before
        issue 13), 2 for those without gao_yi_above_layer_1 (kept before issue 36), else 3."""
        if "gao_yi_above_layer_1" in options:
            return 3
        return 2 if "optional_edict_effects" in options else 1

    @classmethod
    def _legacy_record_options(cls, options, version):
        """A version-1 record (before issue 13) replays with legacy_readings. Records labelled
        version 1 by the engine of issue 13 itself, before the record version was raised, name
        its option optional_edict_effects and replay as they are. A record of version 1 or 2
        (before issue 36) without the option gao_yi_above_layer_1 replays with it: year-one
        高矣 then paid for any tile above layer 1."""
        if version < 2 and "optional_edict_effects" not in options:
            options["legacy_readings"] = True
        if version < 3 and "gao_yi_above_layer_1" not in options:
            options["gao_yi_above_layer_1"] = True
        return options

    def _complete_options(self, values):
        if values["challenge"] is not None or values["players"] == 1:
            values["solo"] = True
        if values["fan_talents"] is None:
            values["fan_talents"] = values["promos"]
        if values["solo"]:
            if values["players"] is not None and values["players"] != 1:
                raise OptionError(
                    f"option 'players' is {values['players']!r}: solo play has 1 player")
            values["players"] = 1
            if values["grand_tutors"]:
                raise OptionError("option 'grand_tutors' needs 2-4 players, not solo play")
        else:
            if values["players"] is None:
                values["players"] = 4
        g = values["challenge"]
        if values["bonus_talent"] is not None:
            if g is None or data.CHALLENGES[g - 1].bonus_talent_level == 0:
                raise OptionError("option 'bonus_talent' applies only to challenge games "
                                  "2, 4, 5 and 7")
            if values["bonus_talent"] not in ("none",):
                t = data.TALENTS[TALENT_NAMES.index(values["bonus_talent"])]
                if (t.source == "promo" and not values["promos"]) or (
                        t.source == "fan" and not values["fan_talents"]) or t.min_players > 1:
                    raise OptionError(f"option 'bonus_talent' is {values['bonus_talent']!r}: "
                                      "that talent is not in this game")
        if values["bonus_buildings"] is not None:
            wanted = 0 if g is None else data.CHALLENGES[g - 1].bonus_buildings
            if wanted == 0:
                raise OptionError("option 'bonus_buildings' applies only to challenge games "
                                  "3, 6, 7 and 8")
            if values["bonus_buildings"] not in ("none",):
                names = [v.strip() for v in values["bonus_buildings"].split(",")]
                if len(names) != wanted:
                    raise OptionError(f"option 'bonus_buildings': challenge game {g} carries "
                                      f"{wanted} building(s), got {len(names)}")
                for name in names:
                    if data.BUILDINGS[BUILDING_NAMES.index(name)].source == "promo" and not values["promos"]:
                        raise OptionError(f"option 'bonus_buildings': {name!r} is a promo")
        return values

    @property
    def num_distinct_actions(self) -> int:
        return N_ACTIONS

    def _new_state(self, seed):
        return MountTaiState._create(self, seed)


cdef MTOptions _options(dict opts):
    cdef MTOptions o
    o.n_players = opts["players"]
    o.promos = 1 if opts["promos"] else 0
    o.fan_talents = 1 if opts["fan_talents"] else 0
    o.grand_tutors = 1 if opts["grand_tutors"] else 0
    o.solo = 1 if opts["solo"] else 0
    o.challenge = opts["challenge"] or 0
    o.tidy_effect = 1 if opts["tidy_up_effect"] else 0
    o.seasonal_yields = 1 if opts["seasonal_yields"] else 0
    o.legacy = 1 if opts["legacy_readings"] else 0
    o.optional_effects = 1 if (opts["optional_edict_effects"] or o.legacy) else 0
    o.gao_yi_above = 1 if (opts["gao_yi_above_layer_1"] or o.legacy) else 0
    bt = opts["bonus_talent"]
    o.bonus_talent = NONE8 if bt is None else NO_BONUS if bt == "none" else TALENT_NAMES.index(bt)
    o.bonus_building[0] = NONE8
    o.bonus_building[1] = NONE8
    bb = opts["bonus_buildings"]
    if bb == "none":
        o.bonus_building[0] = NO_BONUS
        o.bonus_building[1] = NO_BONUS
    elif bb is not None:
        for j, name in enumerate(v.strip() for v in bb.split(",")):
            o.bonus_building[j] = BUILDING_NAMES.index(name)
    layout = data.CHALLENGES[o.challenge - 1].edict_layout if o.challenge else "pyramid"
    o.layout = {"pyramid": LAY_PYRAMID, "pyramid_hidden": LAY_PYRAMID,
                "stacks_tiered": LAY_STACKS, "stacks_random": LAY_STACKS,
                "steps": LAY_STEPS}[layout]
    o.hidden_edicts = 1 if layout in ("pyramid_hidden", "stacks_tiered", "stacks_random") else 0
    return o


def _index(names, value, what) -> int:
    """An index into `names` given as a name or an index (range-checked); see
    engine.core.args.check_name_or_index."""
    return check_name_or_index(names, value, what)


cdef class MountTaiState(State):
    """A position of Mount Tai."""

    # Mount Tai's rule events (events.pxd / events.py). Everything hidden in Mount Tai is hidden
    # from every player alike and no event names it, so every event is seen by every seat
    # (State._event_visible's default).
    EVENT_TABLE = _EVENT_TABLE

    @staticmethod
    def _create(game, seed):
        cdef EventLog log
        cdef EventLog* previous
        cdef MountTaiState st = MountTaiState.__new__(MountTaiState)
        cdef MTOptions o = _options(game.options)
        st._bind(mt_gamedef(), game)
        st.seed = seed
        previous = st._log_begin(&log)
        mt_init(<MTState*>st.data, &o, <uint64_t>seed)
        st._log_end(&log, previous, True)
        return st

    cdef inline MTState* _s(self):
        return <MTState*>self.data

    # -- reading the struct ------------------------------------------------------------------

    def snapshot(self, hidden: bool = True) -> dict:
        """The whole state as plain Python data (indices into data.py's tables). With
        `hidden=False`, what no player can see (face-down talents, the building supply's order,
        the virtual player's undrawn tiles, face-down edict tiles) is left out."""
        cdef MTState* s = self._s()
        cdef MTPlayer* pl
        cdef int i, j, l, n = s.opt.n_players
        cdef uint32_t unc
        seats = []
        for i in range(n):
            pl = &s.p[i]
            unc = edict_uncovered(pl, s.opt.layout)
            slots = []
            for j in range(edict_slot_count(s.opt.layout)):
                if not (pl.present >> j) & 1:
                    slots.append(None)
                elif (pl.faceup >> j) & 1 or hidden:
                    slots.append(pl.slot_tile[j])
                else:
                    slots.append("?")
            seats.append({
                "money": pl.res[RES_MONEY],
                "grain": pl.res[RES_GRAIN],
                "wine": pl.res[RES_WINE],
                "reputation": pl.res[RES_REP],
                "reputation_by_source": {data.REPUTATION_SOURCES[j]: pl.rep_src[j]
                                         for j in range(N_REP_SOURCES)},
                "quadrant": s.quadrant[i],
                "cells": [pl.cell[l] for l in range(N_CELLS)],
                "slots": slots,
                "faceup": [j for j in range(N_SLOTS) if (pl.faceup >> j) & 1],
                "uncovered": [j for j in range(N_SLOTS) if (unc >> j) & 1],
                "gone": [t for t in range(1, N_TILES + 1) if (pl.gone >> (t - 1)) & 1],
                "talents": [(pl.talent[j], pl.level[j]) for j in range(pl.n_talents)],
                "carried_talents": [j for j in range(pl.n_talents) if (pl.carried >> j) & 1],
                "buildings": [k for k in range(N_BUILDING_KINDS) if (pl.buildings >> k) & 1],
                "tier3": pl.tier3,
                "firsts": pl.firsts,
                "turn_number": pl.turn_number,
                "tutor": None if pl.tutor == NONE8 else pl.tutor,
                "study": pl.study,
                "donation": pl.donation,
                "prev_actions": pl.prev_actions,
                "cur_actions": pl.cur_actions,
            })
        piles = []
        for j in range(N_PILES):
            cards = [s.pile[j][k] for k in range(s.pile_n[j])]
            piles.append(cards if hidden else cards[:1] + ["?"] * (len(cards) - 1))
        snap = {
            "players": n,
            "options": dict(self.game.options),
            "phase": PHASE_NAMES[s.phase],
            "flow": FLOW_NAMES[s.flow],
            "current_player": None if s.phase == PH_OVER else s.cur,
            "round": s.round,
            "year": min(s.round // 8, 1) + 1,
            "season": (s.round % 8) // 2 if s.round < N_ROUNDS else 3,
            "order": [("virtual" if e == VIRTUAL else e) for e in s.order[:s.n_order]],
            "order_pos": s.order_pos,
            "layout": LAYOUT_NAMES[s.opt.layout],
            "map": [s.map[j] for j in range(MAP_CELLS)],
            "events": [[None if s.event_tile[r][c] == NONE8 else s.event_tile[r][c]
                        for c in range(N_EVENT_SPACES)] for r in range(ROUNDS_PER_YEAR)],
            "events_used": [[bool((s.event_used[r] >> c) & 1) for c in range(N_EVENT_SPACES)]
                            for r in range(ROUNDS_PER_YEAR)],
            "season_bonus": [s.season_bonus[j] for j in range(N_SEASONS)],
            "praises": [[s.praise[y][j] for j in range(N_SEASONS)] for y in range(2)],
            "piles": piles,
            "talent_seen": [s.talent_seen[k] for k in range(N_TALENT_KINDS)],
            "blueprint": [(s.bp_kind[j], s.bp_count[j]) for j in range(s.bp_n)],
            "supply_count": s.supply_n,
            "builder_mark": None if s.builder_mark == NONE8 else s.builder_mark,
            "study_left": s.study_left,
            "donation_kind": s.donation_kind,
            "virtual_drawn": [s.vp_tiles[j] for j in range(s.vp_next)] if s.opt.solo else [],
            "virtual_left": (VIRTUAL_TILES - s.vp_next) if s.opt.solo else 0,
            "virtual_number": s.vp_number,
            "carried_talent": None if s.carried_talent == NONE8 else s.carried_talent,
            "carried_buildings": [s.carried_building[j] for j in range(2)
                                  if s.carried_building[j] != NONE8],
            "tile": s.tile,
            "effects_left": [e for e in range(N_EFFECTS) if (s.effects_left >> e) & 1],
            "effects_todo": s.effects_todo,
            "effects_may_stop": bool(s.may_stop),
            "removals": s.removals,
            "removals_max": s.removals_max,
            "cultivation_mode": s.mode,
            "left": s.left,
            "remove_context": REMOVE_CONTEXTS[s.remove_ctx] if s.phase == PH_REMOVE else None,
            "reward": s.reward,
            "swap_first": None if s.swap_first == NONE8 else s.swap_first,
            "ties": [i for i in range(n) if (s.ties >> i) & 1],
            "seats": seats,
        }
        if hidden:
            snap["supply"] = [s.supply[j] for j in range(s.supply_n)]
            snap["virtual_tiles"] = [s.vp_tiles[j] for j in range(VIRTUAL_TILES)] if s.opt.solo else []
        return snap

    def next_to_water(self, seat, cell) -> bool:
        """Whether fief cell `cell` (0..15) of `seat` is next to water (the reclamation rule).
        TypeError / ValueError for a seat or cell that is not one."""
        cdef int i = check_seat(self, seat)
        cdef int l = check_range(cell, "cell", 0, N_CELLS)
        return bool(next_to_water(self._s(), i, l))

    def effect_possible(self, seat, effect) -> bool:
        """Whether edict effect `effect` (index or name) has anything `seat` could do now.
        TypeError / ValueError for a seat or effect that is not one."""
        cdef int i = check_seat(self, seat)
        cdef int e = _index(data.EFFECTS, effect, "effect")
        return bool(mt_effect_possible(self._s(), i, e))

    def level3_value(self, seat, talent) -> int:
        """What talent `talent`'s (index or name) level 3 skill would give `seat` if the game
        ended now. TypeError / ValueError for a seat or talent that is not one."""
        cdef int i = check_seat(self, seat)
        cdef int k = _index(TALENT_NAMES, talent, "talent")
        return skill3_value(self._s(), i, k)

    def solo_goal(self) -> int | None:
        """The reputation a solo game must reach (None in a multi-player game)."""
        return solo_goal(self._s()) if self._s().opt.solo else None

    def goal_reached(self) -> bool | None:
        """Whether a solo game has reached its goal (None in a multi-player game)."""
        return bool(solo_goal_reached(self._s())) if self._s().opt.solo else None

    def final_summary(self) -> dict:
        """Reputation per seat by source, ranks, and for a solo game the goal and whether it
        was reached."""
        snap = self.snapshot()
        out = {
            "reputation": [seat["reputation"] for seat in snap["seats"]],
            "by_source": [seat["reputation_by_source"] for seat in snap["seats"]],
            "ranks": self.ranks(),
            "over": self.is_terminal(),
        }
        if self._s().opt.solo:
            out["goal"] = self.solo_goal()
            out["goal_reached"] = self.goal_reached()
            if self._s().opt.challenge:
                g = data.CHALLENGES[self._s().opt.challenge - 1]
                out["challenge"] = self._s().opt.challenge
                out["next_bonus"] = g.carries if self.goal_reached() else "none"
        return out

    # -- text --------------------------------------------------------------------------------

    def _validate_raw(self) -> list:
        """The invariants a restored view's compiled state violates ([] if none)."""
        from engine.mount_tai.invariants import check

        return check(self)

    def decision_name(self) -> str:
        return text.decision_text(self.snapshot())

    def action_to_string(self, action) -> str:
        """The action in words, as the player to move would read it now (any integer: one
        that is no action says so; TypeError for what is not an integer)."""
        return text.action_text(self.snapshot(), as_index(action, "action"))

    def __str__(self) -> str:
        return text.board_text(self.snapshot(hidden=False), summary=self.final_summary())

    def compact_str(self, viewer=None) -> str:
        """The board in about 30 lines of 80 columns (for play in a terminal), marking the seat
        `viewer` (None: no seat) as "you"."""
        return text.compact_text(self.snapshot(), check_optional_seat(self, viewer, "viewer"))

    def information_state_string(self, player) -> str:
        """Everything `player` knows: the public board (face-down cards and tiles as '?') and
        the actions so far (every decision in Mount Tai is public)."""
        player = check_seat(self, player, "player")
        return (f"seen by player {player}\n"
                + text.board_text(self.snapshot(hidden=False), summary=None)
                + "\nhistory: " + " ".join(map(str, self.history())))

    # -- test hooks: build rulebook positions by hand ----------------------------------------

    def _debug_set_player(self, seat, *, money=None, grain=None, wine=None, reputation=None,
                          cells=None, talents=None, buildings=None, tiles=None, firsts=None,
                          tutor=None, turn_number=None, donation=None, tier3=None) -> None:
        """Overwrite parts of one seat (tests only). `cells` maps fief cells (a, b) or indices
        to "settlement" / "farmland" / "town" / "ascent" / "barren"; `talents` is a list of
        (name, level); `buildings` a list of names; `tiles` maps slots to edict numbers (0 =
        empty)."""
        seat = check_seat(self, seat, "seat")
        cdef MTState* s = self._s()
        cdef MTPlayer* pl = &s.p[<int>seat]
        cdef int j
        if money is not None:
            pl.res[RES_MONEY] = money
        if grain is not None:
            pl.res[RES_GRAIN] = grain
        if wine is not None:
            pl.res[RES_WINE] = wine
        if reputation is not None:
            for j in range(N_REP_SOURCES):
                pl.rep_src[j] = 0
            pl.rep_src[SRC_START] = reputation
            pl.res[RES_REP] = reputation
        if cells is not None:
            for key, kind in cells.items():
                l = key[0] * 4 + key[1] if isinstance(key, tuple) else key
                pl.cell[l] = CELL_KINDS.index(kind) if kind != "barren" else C_EMPTY
        if talents is not None:
            pl.n_talents = len(talents)
            pl.carried = 0
            for j, (name, level) in enumerate(talents):
                pl.talent[j] = _index(TALENT_NAMES, name, "talent")
                pl.level[j] = level
        if buildings is not None:
            pl.buildings = 0
            for name in buildings:
                pl.buildings |= 1 << _index(BUILDING_NAMES, name, "building")
        if tiles is not None:
            for slot, number in tiles.items():
                pl.slot_tile[slot] = number
                if number:
                    pl.present |= 1u << slot
                    pl.faceup |= 1u << slot
                    pl.gone &= ~(1u << (number - 1))
                else:
                    pl.present &= ~(1u << slot)
                    pl.faceup &= ~(1u << slot)
        if firsts is not None:
            pl.firsts = firsts
        if tutor is not None:
            pl.tutor = NONE8 if tutor == "none" else _index(data.TUTORS, tutor, "tutor")
        if turn_number is not None:
            pl.turn_number = turn_number
        if donation is not None:
            pl.donation = donation
        if tier3 is not None:
            pl.tier3 = tier3

    def _debug_set_board(self, *, round=None, order=None, events=None, season_bonus=None,
                         praises=None, piles=None, blueprint=None, supply=None, water=None,
                         tribes=None, virtual_tiles=None, virtual_number=None,
                         builder_mark=None) -> None:
        """Overwrite the round (0-15), the turn order (seats, "virtual"), a round's event
        tiles ({round: [tile id or None per colour space]}), the season bonus types (resource
        names), the Eight Praises ({(year, season): name}), the wilderness piles (lists of
        talent names, top first), the blueprint area ([(name, count)]), the building supply
        (names, next flip last), map water / tribe cells (sets of (seat, cell) or map
        indices), the virtual player's tiles (drawing order) or number; tests only."""
        cdef MTState* s = self._s()
        cdef int j, r, c
        if round is not None:
            s.round = round
        if order is not None:
            s.n_order = len(order)
            for j, e in enumerate(order):
                s.order[j] = VIRTUAL if e == "virtual" else e
        if events is not None:
            for r, tiles in events.items():
                for c, t in enumerate(tiles):
                    s.event_tile[r][c] = NONE8 if t is None else t
                s.event_used[r] = 0
        if season_bonus is not None:
            for j, name in enumerate(season_bonus):
                s.season_bonus[j] = data.RESOURCES.index(name)
        if praises is not None:
            names = [p.name for p in data.PRAISES]
            for (year, season), name in praises.items():
                s.praise[year][season] = names.index(name)
        if piles is not None:
            for j, cards in enumerate(piles):
                s.pile_n[j] = len(cards)
                for k in range(PILE_MAX):
                    s.pile[j][k] = _index(TALENT_NAMES, cards[k], "talent") if k < len(cards) else NONE8
        if blueprint is not None:
            s.bp_n = len(blueprint)
            for j, (name, count) in enumerate(blueprint):
                s.bp_kind[j] = _index(BUILDING_NAMES, name, "building")
                s.bp_count[j] = count
        if supply is not None:
            s.supply_n = len(supply)
            for j, name in enumerate(supply):
                s.supply[j] = _index(BUILDING_NAMES, name, "building")
        if water is not None or tribes is not None:
            for j in range(MAP_CELLS):
                if water is not None:
                    s.map[j] &= ~(MAP_WATER | MAP_ARTIFICIAL)
                if tribes is not None:
                    s.map[j] &= ~MAP_TRIBE
            for cells, bit in ((water, MAP_WATER), (tribes, MAP_TRIBE)):
                for x in cells or ():
                    g = to_map(s.quadrant[x[0]], x[1]) if isinstance(x, tuple) else x
                    s.map[g] |= bit
        if virtual_tiles is not None:
            for j, t in enumerate(virtual_tiles):
                s.vp_tiles[j] = t
            s.vp_next = 0
        if virtual_number is not None:
            s.vp_number = virtual_number
        if builder_mark is not None:
            s.builder_mark = _index(BUILDING_NAMES, builder_mark, "building")

    def _debug_policy(self, seat) -> None:
        """Make it `seat`'s policy decision now (the round continues in turn order); tests only."""
        mt_debug_policy(self._s(), check_seat(self, seat, "seat"))

    def _debug_run_from(self, str step) -> list:
        """Run the automatic flow from `step` ("order", "events", "settle", "settle end",
        "secretary", "final"); tests only. Returns the rule events of that run (also added to
        the events of the last step, so that `events()` and `event_history()` show them)."""
        cdef EventLog log
        cdef EventLog* previous
        cdef int i, flow = FLOW_NAMES.index(step)
        cdef RawEvent* e
        log.n = 0
        log.dropped = 0
        previous = ev_attach(&log)
        mt_debug_flow(self._s(), flow)
        ev_attach(previous)
        if log.dropped:
            raise RuntimeError(f"the event log overflowed ({log.dropped} events lost): a bug")
        raw = [(log.ev[i].kind, log.ev[i].seat, log.ev[i].cause, log.ev[i].a, log.ev[i].b,
                log.ev[i].c, log.ev[i].d) for i in range(log.n)]
        self._extend_last_events(raw)
        move = self.move_number() - 1
        return [self.EVENT_TABLE.decode(move, r) for r in raw]
