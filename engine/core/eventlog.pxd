# Rule events: what the rules did on their own, recorded as it happens.
#
# Every automatic step of a game's rules (an event resolving, scoring, decay, a deal, a
# settlement, the virtual player's turn) calls `ev_emit` with a game-specific kind, the seat
# concerned, a cause and up to four amounts. The events go to the calling thread's sink, if one
# is attached: the Python `State` attaches a log around each `apply_action` (and a game's
# initialiser) and turns the raw events into readable `engine.core.events.Event`s. The search
# and the compiled playouts never attach a sink, so for them `ev_emit` is a thread-local load
# and one test, at the few places the rules emit (never per decision).
#
# The sink is per thread (C `__thread`): search threads running the same rules without the GIL
# at the same time as a Python `apply_action` never write into its log.

from libc.stdint cimport int32_t

cdef enum:
    # Room in one log: more events than any single decision's automatic steps produce.
    EV_CAPACITY = 512
    # `seat` / `cause` of an event that concerns no particular seat / has no cause.
    EV_NONE = -1


ctypedef struct RawEvent:
    int32_t kind      # the game's event kind (its `events.pxd` enum, named in its `events.py`)
    int32_t seat      # the seat concerned, or EV_NONE
    int32_t cause     # why (game-specific code, e.g. the month's event), or EV_NONE
    int32_t a         # amounts: their meaning is the kind's (see the game's `events.py`)
    int32_t b
    int32_t c
    int32_t d


ctypedef struct EventLog:
    int n                          # events written into `ev`
    int dropped                    # events lost because `ev` was full (a bug if ever > 0)
    RawEvent ev[EV_CAPACITY]       # the events, in the order the rules produced them


# Attach `log` (or NULL) as the calling thread's sink; returns the sink it replaces, which the
# caller re-attaches when done (sinks nest). Does not clear `log`.
cdef EventLog* ev_attach(EventLog* log) noexcept nogil

# The calling thread's sink, or NULL. Rules may test it to skip work done only for events.
cdef EventLog* ev_sink() noexcept nogil

# Record one event in the calling thread's sink; does nothing without one.
cdef void ev_emit(int kind, int seat, int cause, int a, int b, int c, int d) noexcept nogil
