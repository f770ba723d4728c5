# cython: language_level=3
"""In the Year of the Dragon for Python: `DragonGame` (options) and `DragonState` (the State API).

Thin wrappers: the rules run in `rules.pyx`; this module reads the struct into plain Python data
(`snapshot`) for the text in `text.py`.
"""

from libc.stdint cimport uint64_t

from engine.core.eventlog cimport EventLog, RawEvent, ev_attach
from engine.core.state cimport State
from engine.dragon.state cimport *
from engine.dragon.events cimport *
from engine.dragon.rules cimport (
    dragon_init, dragon_gamedef, dragon_track_order,
    dragon_debug_start_round, dragon_debug_run_flow, dragon_debug_recount,
)

from engine.core.args import as_index, check_seat, check_optional_seat
from engine.core.errors import OptionError
from engine.core.game import Game, Option
from engine.dragon import data, text
from engine.dragon.events import EVENT_TABLE as _EVENT_TABLE

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
    PH_START: "start",
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
    "start": A_START,
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


def event_kind_ids() -> dict[str, int]:
    """The compiled event kind ids (events.pxd), by their names in `EVENT_TABLE`; a test checks
    that both agree (every EVK_* member listed here, at the table's index of its name)."""
    return {
        "setup": EVK_SETUP, "event_tile": EVK_EVENT_TILE, "super_event_set": EVK_SUPER_EVENT_SET,
        "month": EVK_MONTH, "group": EVK_GROUP, "fee": EVK_FEE, "topup": EVK_TOPUP,
        "card": EVK_CARD, "tribute": EVK_TRIBUTE, "drought": EVK_DROUGHT,
        "contagion": EVK_CONTAGION, "mongol_fewest": EVK_MONGOL_FEWEST,
        "festival": EVK_FESTIVAL, "eclipse": EVK_ECLIPSE, "release": EVK_RELEASE,
        "wall_scoring": EVK_WALL_SCORING, "wall_fewest": EVK_WALL_FEWEST,
        "super_event": EVK_SUPER_EVENT, "privileges_lost": EVK_PRIVILEGES_LOST,
        "volcano": EVK_VOLCANO, "quake_due": EVK_QUAKE_DUE, "floor_lost": EVK_FLOOR_LOST,
        "flood_due": EVK_FLOOD_DUE, "tornado_due": EVK_TORNADO_DUE, "contract": EVK_CONTRACT,
        "final_rank": EVK_FINAL_RANK,
        "vp_research": EVK_VP_RESEARCH,
        "vp_festival": EVK_VP_FESTIVAL, "vp_mongol": EVK_VP_MONGOL,
        "vp_palaces": EVK_VP_PALACES, "vp_court_ladies": EVK_VP_COURT_LADIES,
        "vp_privileges": EVK_VP_PRIVILEGES, "vp_wall": EVK_VP_WALL,
        "vp_wall_bonus": EVK_VP_WALL_BONUS, "vp_super_event": EVK_VP_SUPER_EVENT,
        "vp_persons": EVK_VP_PERSONS, "vp_monks": EVK_VP_MONKS, "vp_money": EVK_VP_MONEY,
    }


# The VP kinds are EVK_VP_RESEARCH + SRC_* (add_vp relies on it).
EVENT_KIND_COUNT = EVK_COUNT
VP_KIND_BY_SOURCE = {
    data.SCORE_SOURCES[src]: kind for src, kind in (
        (SRC_RESEARCH, EVK_VP_RESEARCH), (SRC_FESTIVAL, EVK_VP_FESTIVAL),
        (SRC_MONGOL, EVK_VP_MONGOL), (SRC_PALACES, EVK_VP_PALACES),
        (SRC_COURT_LADIES, EVK_VP_COURT_LADIES), (SRC_PRIVILEGES, EVK_VP_PRIVILEGES),
        (SRC_WALL, EVK_VP_WALL), (SRC_WALL_BONUS, EVK_VP_WALL_BONUS),
        (SRC_SUPER_EVENT, EVK_VP_SUPER_EVENT), (SRC_PERSONS, EVK_VP_PERSONS),
        (SRC_MONKS, EVK_VP_MONKS), (SRC_MONEY, EVK_VP_MONEY),
    )
}
assert all(kind == EVK_VP_RESEARCH + data.SCORE_SOURCES.index(name)
           for name, kind in VP_KIND_BY_SOURCE.items())


def _type_index(t) -> int:
    if isinstance(t, int):
        return t
    for i, pt in enumerate(data.TYPES):
        if pt.name == t:
            return i
    raise ValueError(f"unknown person type {t!r}")


def _kind_index(k) -> int:
    if isinstance(k, int):
        return k
    return [kind.name for kind in data.KINDS].index(k)


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

    @classmethod
    def _stored_record_version(cls, options, actions):
        """Version 1 when the first draft pick is not followed by the starting-persons decision
        (a game kept before issue 13), else the current version (Dragon's rules did not change
        with version 3)."""
        from engine.core.state import RECORD_VERSION

        if len(actions) > 1 and actions[1] not in (A_START, A_START + 1):
            return 1
        return RECORD_VERSION

    def _legacy_record_fill(self, state, version, next_action):
        """A version-1 record (before issue 13) has no starting-persons decision: the engine
        put the second starting person in the second palace by itself, which is A_START (one
        per palace). Records labelled version 1 by the engine of issue 13 itself, before the
        record version was raised, already hold the decision: their next action answers it."""
        if (version < 2 and _at_start(state)
                and next_action not in (A_START, A_START + 1)):
            return (A_START,)
        return ()


cdef bint _at_start(DragonState state):
    return state._s().phase == PH_START


cdef class DragonState(State):
    """A position of In the Year of the Dragon."""

    # The names, amounts and texts of the rule events rules.pyx emits (engine/dragon/events.py).
    EVENT_TABLE = _EVENT_TABLE

    @staticmethod
    def _create(game, seed):
        cdef EventLog log
        cdef EventLog* previous
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
        previous = st._log_begin(&log)
        dragon_init(<DragonStruct*>st.data, &o, <uint64_t>seed)
        st._log_end(&log, previous, True)
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
            "gone": [s.gone[j] for j in range(N_TYPES)],
            "groups": groups,
            "group_dragons": [s.group_dragons[g] for g in range(s.n_groups)],
            "track_order": [order[j] for j in range(n)],
            "round_order": [s.order[j] for j in range(n)],
            "wall": [(s.wall_owner[j], s.wall_bonus[j]) for j in range(s.wall_len)],
            "pending_type": (s.pending_type if s.phase == PH_PLACE or s.phase == PH_START
                             else None),
            "todo": s.todo,
            "need": [s.need[j] for j in range(n)],
            "release_mode": "drought" if s.release_mode == REL_DROUGHT else "any",
            # Why a release round is due: the month's event, the wall scoring after a Mongol
            # invasion, or the final wall scoring (None outside a release round).
            "release_cause": (None if s.phase != PH_RELEASE
                              else "wall" if s.flow == FLOW_SUPER
                              else "wall final" if s.flow == FLOW_FINAL else "event"),
            "release_palace": None if s.release_palace == NONE8 else s.release_palace,
            "sunrise_taken": [k for k in range(N_KINDS) if (s.sunrise_taken >> k) & 1],
            "seats": seats,
        }

    def _validate_raw(self) -> list:
        """The invariants a restored view's compiled state violates ([] if none)."""
        from engine.dragon.invariants import check

        return check(self)

    def decision_name(self) -> str:
        return text.decision_text(self.snapshot())

    def action_to_string(self, action) -> str:
        """The action in words, as the player to move would read it now (any integer: one
        that is no action says so; TypeError for what is not an integer)."""
        return text.action_text(self.snapshot(), as_index(action, "action"))

    def __str__(self) -> str:
        return text.board_text(self.snapshot())

    def compact_str(self, viewer=None) -> str:
        """The board in about 30 lines of 80 columns (for play in a terminal), marking the seat
        `viewer` (None: no seat) as "you"."""
        return text.compact_text(self.snapshot(), check_optional_seat(self, viewer, "viewer"))

    def information_state_string(self, player) -> str:
        """Everything `player` knows: the board and every decision taken so far (all are public;
        the history also fixes where a multi-step decision stands, e.g. which palaces a drought
        has already hit). Only the future action-card splits are unknown, and they are not in it."""
        player = check_seat(self, player, "player")
        return (f"seen by player {player}\n" + text.board_text(self.snapshot())
                + "\nhistory: " + " ".join(map(str, self.history())))

    # -- test hooks: build rulebook positions by hand ----------------------------------------

    def _debug_set_player(self, seat, *, yuan=None, rice=None, fireworks=None, score=None,
                          track=None, palaces=None, hand=None, wildcards=None,
                          privileges=None, wall_unused=None) -> None:
        """Overwrite parts of one seat (tests only). `palaces` is a list of (floors, [person
        type names or indices]); `hand` a list of kind names; `privileges` (small, large)."""
        seat = check_seat(self, seat, "seat")
        if palaces is not None and len(palaces) > MAX_PALACES:
            raise ValueError(f"at most {MAX_PALACES} palaces, got {len(palaces)}")
        if palaces is not None and sum(len(persons) for _, persons in palaces) > MAX_PERSONS:
            raise ValueError(f"at most {MAX_PERSONS} persons")
        cdef DragonStruct* s = self._s()
        cdef DragonPlayer* pl = &s.p[<int>seat]
        cdef int j, p
        if yuan is not None:
            pl.yuan = yuan
        if rice is not None:
            pl.rice = rice
        if fireworks is not None:
            pl.fireworks = fireworks
        if score is not None:
            for j in range(N_SOURCES):
                pl.vp[j] = 0
            pl.score = score
            pl.vp[SRC_RESEARCH] = score
        if track is not None:
            pl.track = track
            s.stamp_counter += 1
            pl.stamp = s.stamp_counter
        if hand is not None:
            pl.hand = 0
            for k in hand:
                pl.hand |= 1 << _kind_index(k)
        if wildcards is not None:
            pl.wild = wildcards
        if privileges is not None:
            pl.priv_small, pl.priv_large = privileges
        if wall_unused is not None:
            pl.wall_unused = 0
            for b in wall_unused:
                pl.wall_unused |= 1 << (data.WALL_BONUSES.index(b) if isinstance(b, str) else b)
        if palaces is not None:
            keys = []
            for p, (floors, persons) in enumerate(palaces):
                if not 1 <= floors <= 3 or len(persons) > floors:
                    raise ValueError(f"palace {p}: {floors} floors, {len(persons)} persons")
                keys.extend(p * N_TYPES + _type_index(t) for t in persons)
            pl.n_palaces = len(palaces)
            for p, (floors, persons) in enumerate(palaces):
                pl.palace[p] = floors
            pl.n_persons = len(keys)
            for j, key in enumerate(sorted(keys)):
                pl.person[j] = key
            dragon_debug_recount(s)

    def _debug_set_board(self, *, month=None, events=None, groups=None, display=None,
                         super_event=None, wall=None) -> None:
        """Overwrite the month (1-12), event row (names), this month's action groups (lists of
        card names), the display (type name -> count), the super event, or the wall (a list of
        (seat, bonus name) from the left; seats' unused tiles follow); tests only."""
        cdef DragonStruct* s = self._s()
        cdef int j, i
        if wall is not None:
            s.wall_len = len(wall)
            for i in range(s.opt.n_players):
                s.p[i].wall_built = 0
                s.p[i].wall_unused = (1 << N_WALL_BONUSES) - 1
            for j, (seat, bonus) in enumerate(wall):
                b = data.WALL_BONUSES.index(bonus)
                if not (s.p[seat].wall_unused >> b) & 1:
                    raise ValueError(f"seat {seat} built its {bonus!r} tile twice")
                s.wall_owner[j] = seat
                s.wall_bonus[j] = b
                s.p[seat].wall_built += 1
                s.p[seat].wall_unused &= ~(1 << b)
        if month is not None:
            s.month = month - 1
        if events is not None:
            for j, e in enumerate(events):
                s.events[j] = data.EVENTS.index(e)
        if groups is not None:
            cards = [c for c, _ in data.CARDS]
            for g, names in enumerate(groups):
                for name in names:
                    s.card_group[cards.index(name)] = g
                s.group_dragons[g] = 0
        if display is not None:
            for name, count in display.items():
                s.display[_type_index(name)] = count
        if super_event is not None:
            s.super_event = data.SUPER_EVENTS.index(super_event)

    cdef void _debug_log_end(self, EventLog* log, EventLog* previous) except *:
        """Detach `log` and add its events to the last step's (a test hook's automatic steps
        read as part of the decision before it, so `events()` shows them)."""
        cdef int i
        cdef RawEvent* e
        ev_attach(previous)
        if log.dropped:
            raise RuntimeError(f"the event log overflowed ({log.dropped} events lost): a bug")
        new = []
        for i in range(log.n):
            e = &log.ev[i]
            new.append((e.kind, e.seat, e.cause, e.a, e.b, e.c, e.d))
        self._extend_last_events(new)  # a new step list: clones and views share the old one

    def _debug_start_round(self, str phase) -> None:
        """Begin a round of `phase` ("action", "person", ...) in track order; tests only. Its
        rule events join the last step's."""
        cdef EventLog log
        cdef EventLog* previous
        cdef int ph = {v: k for k, v in PHASE_NAMES.items()}[phase]
        previous = self._log_begin(&log)
        dragon_debug_start_round(self._s(), ph)
        self._debug_log_end(&log, previous)

    def _debug_run_from(self, str step) -> None:
        """Run the month-end sequence from `step`: "event", "wall", "super", "decay", "score",
        "wall_final" or "final"; tests only. Its rule events join the last step's."""
        cdef EventLog log
        cdef EventLog* previous
        cdef int flow = ["event", "wall", "super", "decay", "score", "wall_final", "final"].index(step)
        self._s().event_pass = 0
        previous = self._log_begin(&log)
        dragon_debug_run_flow(self._s(), flow)
        self._debug_log_end(&log, previous)

    def final_breakdown(self) -> list:
        """Victory points per seat by source (data.SCORE_SOURCES), and the total."""
        return [dict(seat["vp"], total=seat["score"]) for seat in self.snapshot()["seats"]]
