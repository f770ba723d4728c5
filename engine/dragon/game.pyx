# cython: language_level=3
"""In the Year of the Dragon for Python: `DragonGame` (options) and `DragonState` (the State API).

Thin wrappers: the rules run in `rules.pyx`; this module reads the struct into plain Python data
(`snapshot`) for the text in `text.py`.
"""

from libc.stdint cimport uint64_t

from engine.core.state cimport State
from engine.dragon.state cimport *
from engine.dragon.rules cimport dragon_init, dragon_gamedef, dragon_track_order

from engine.core.errors import OptionError
from engine.core.game import Game, Option
from engine.dragon import data, text

PHASE_NAMES = {
    PH_DRAFT: "draft",
    PH_ACTION: "action",
    PH_BUILD: "build",
    PH_PERSON: "person",
    PH_PLACE: "place",
    PH_RELEASE: "release",
    PH_QUAKE: "earthquake",
    PH_FLOOD: "flood",
    PH_TORNADO: "tornado",
    PH_SUNRISE: "sunrise",
    PH_CONTRACT: "contract",
    PH_OVER: "over",
}

# Where each kind of decision starts in the action-id space (see state.pxd).
LAYOUT = {
    "draft": A_DRAFT,
    "card": A_CARD,
    "privilege_small": A_PRIV_SMALL,
    "privilege_large": A_PRIV_LARGE,
    "wall": A_WALL,
    "topup": A_TOPUP,
    "build": A_BUILD,
    "play": A_PLAY,
    "play_empty": A_PLAY_EMPTY,
    "wild": A_WILD,
    "wild_empty": A_WILD_EMPTY,
    "place": A_PLACE,
    "replace": A_REPLACE,
    "discard_new": A_DISCARD_NEW,
    "release": A_RELEASE,
    "quake": A_QUAKE,
    "flood": A_FLOOD,
    "tornado": A_TORNADO,
    "sunrise": A_SUNRISE,
    "contract": A_CONTRACT,
    "end": N_ACTIONS,
}
CONSTANTS = {
    "MAX_PALACES": MAX_PALACES,
    "MAX_PERSONS": MAX_PERSONS,
    "N_TYPES": N_TYPES,
    "N_KINDS": N_KINDS,
    "N_ACTIONS": N_ACTIONS,
    "STATE_BYTES": sizeof(DragonStruct),
}


def _super_event_check(value):
    if value is not None and value not in data.SUPER_EVENTS:
        return "allowed: " + ", ".join(data.SUPER_EVENTS)
    return None


class DragonGame(Game):
    """In the Year of the Dragon (10th Anniversary), optionally with its two expansions."""

    NAME = "dragon"
    TITLE = "In the Year of the Dragon"
    OPTIONS = (
        Option("players", int, 4, "number of players", choices=(2, 3, 4, 5)),
        Option("great_wall", bool, False, "expansion I: The Great Wall of China"),
        Option("super_events", bool, False, "expansion II: The Super Events (month 7)"),
        Option(
            "super_event", str, None,
            "the super event to play (implies super_events); default: drawn at random",
            check=_super_event_check,
        ),
        Option(
            "large_privilege_cost", int, 7,
            "yuan for a large privilege: 7 (10th Anniversary) or 6 (2007 edition)",
            choices=data.PRIVILEGE_LARGE_COSTS,
        ),
    )

    def _complete_options(self, values):
        if values["super_event"] is not None:
            values["super_events"] = True
        return values

    @property
    def num_distinct_actions(self) -> int:
        return N_ACTIONS

    def _new_state(self, seed):
        return DragonState._create(self, seed)


cdef class DragonState(State):
    """A position of In the Year of the Dragon."""

    @staticmethod
    def _create(game, seed):
        cdef DragonState st = DragonState.__new__(DragonState)
        cdef DragonOptions o
        opts = game.options
        o.n_players = opts["players"]
        o.great_wall = 1 if opts["great_wall"] else 0
        o.super_events = 1 if opts["super_events"] else 0
        o.super_event_choice = (
            NONE8 if opts["super_event"] is None else data.SUPER_EVENTS.index(opts["super_event"])
        )
        o.large_privilege_cost = opts["large_privilege_cost"]
        st._bind(dragon_gamedef(), game)
        st.seed = seed
        dragon_init(<DragonStruct*>st.data, &o, <uint64_t>seed)
        return st

    cdef inline DragonStruct* _s(self):
        return <DragonStruct*>self.data

    def snapshot(self) -> dict:
        """The whole state as plain Python data (names from data.py), for text and tests."""
        cdef DragonStruct* s = self._s()
        cdef DragonPlayer* pl
        cdef int order[MAX_PLAYERS]
        cdef int i, j, key, n = s.opt.n_players
        dragon_track_order(s, order)
        seats = []
        for i in range(n):
            pl = &s.p[i]
            palaces = [
                {"floors": pl.palace[j] & 3, "persons": []} for j in range(pl.n_palaces)
            ]
            for j in range(pl.n_persons):
                key = pl.person[j]
                palaces[key // N_TYPES]["persons"].append(key % N_TYPES)
            seats.append({
                "yuan": pl.yuan,
                "rice": pl.rice,
                "fireworks": pl.fireworks,
                "score": pl.score,
                "vp": {data.SCORE_SOURCES[j]: pl.vp[j] for j in range(N_SOURCES)},
                "track": pl.track,
                "stamp": pl.stamp,
                "hand": [k for k in range(N_KINDS) if (pl.hand >> k) & 1],
                "wildcards": pl.wild,
                "privileges_small": pl.priv_small,
                "privileges_large": pl.priv_large,
                "wall_unused": [b for b in range(N_WALL_BONUSES) if (pl.wall_unused >> b) & 1],
                "wall_built": pl.wall_built,
                "palaces": palaces,
                "symbols": [pl.sym[k] for k in range(N_KINDS)],
            })
        groups = [[] for _ in range(s.n_groups)]
        for c in range(s.n_cards):
            groups[s.card_group[c]].append(c)
        return {
            "players": n,
            "options": dict(self.game.options),
            "phase": PHASE_NAMES[s.phase],
            "current_player": None if s.phase == PH_OVER else s.cur,
            "month": s.month + 1,
            "events": [s.events[j] for j in range(N_MONTHS)],
            "super_event": None if s.super_event == NO_SUPER_EVENT else s.super_event,
            "display": [s.display[j] for j in range(N_TYPES)],
            "groups": groups,
            "group_dragons": [s.group_dragons[g] for g in range(s.n_groups)],
            "track_order": [order[j] for j in range(n)],
            "round_order": [s.order[j] for j in range(n)],
            "wall": [(s.wall_owner[j], s.wall_bonus[j]) for j in range(s.wall_len)],
            "pending_type": None if s.phase != PH_PLACE else s.pending_type,
            "todo": s.todo,
            "need": [s.need[j] for j in range(n)],
            "release_mode": "drought" if s.release_mode == REL_DROUGHT else "any",
            "release_palace": None if s.release_palace == NONE8 else s.release_palace,
            "sunrise_taken": [k for k in range(N_KINDS) if (s.sunrise_taken >> k) & 1],
            "seats": seats,
        }

    def decision_name(self) -> str:
        return text.decision_text(self.snapshot())

    def action_to_string(self, action) -> str:
        """The action in words, as the player to move would read it now."""
        return text.action_text(self.snapshot(), int(action))

    def __str__(self) -> str:
        return text.board_text(self.snapshot())

    def information_state_string(self, int player) -> str:
        """Everything `player` knows. In this game nothing on the table is hidden (played cards
        are public): only the future action-card splits are unknown, and they are not in it."""
        n = self.num_players()
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in 0..{n - 1}, got {player}")
        return f"seen by player {player}\n" + text.board_text(self.snapshot(), history=self._history)

    def final_breakdown(self) -> list:
        """Victory points per seat by source (data.SCORE_SOURCES), and the total."""
        return [dict(seat["vp"], total=seat["score"]) for seat in self.snapshot()["seats"]]
