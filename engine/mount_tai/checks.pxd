# Mount Tai: what actions cost and whether a player can do them now.
#
# Pure functions of the state (nothing is changed), nogil, never failing; the legal-action lists
# (legal.pyx) and the rules (rules.pyx) share them so that "offered" and "done" agree.

from libc.stdint cimport uint32_t
from engine.mount_tai.state cimport *


cdef inline int season_of(const MTState* s) noexcept nogil:
    """The season (0 spring .. 3 winter) of the current round."""
    return (s.round % ROUNDS_PER_YEAR) >> 1


# The uncovered slots of `seat`'s edict area.
cdef uint32_t uncovered(const MTState* s, int seat) noexcept nogil
# The seat holding Grand Tutor `tutor` (TU_*), or -1 (also without the variant).
cdef int tutor_seat(const MTState* s, int tutor) noexcept nogil
# Money per cultivation (0 with the Yufu).
cdef int cultivate_cost(const MTPlayer* pl) noexcept nogil
# Money to reclaim fief cell `l` of `seat` (0 next to water).
cdef int reclaim_cost(const MTState* s, int seat, int l) noexcept nogil
# Money to recruit talent `kind` (less 1 with the Imperial Academy, not below 0).
cdef int recruit_cost(const MTPlayer* pl, int kind) noexcept nogil
# Money to build `kind` (less 1 with the Architect's level 1, not below 0).
cdef int build_cost(const MTPlayer* pl, int kind) noexcept nogil
# The colour rule over a hand of talent cards: whether a card of talent `kind` may join the `n`
# cards `kinds` (one per colour, two red with the Observatory, at most MAX_TALENTS cards; a card
# whose bit is set in `carried` is a challenge bonus and does not count). Shared by the rules and
# by the search knowledge's projected holdings, so the rule lives in one place.
cdef bint colour_room(const uint8_t* kinds, int n, int carried, bint observatory,
                      int kind) noexcept nogil
# The colour rule for a player: colour_room over the player's cards.
cdef bint may_hold_talent(const MTPlayer* pl, int kind) noexcept nogil
# Master Builder: `seat` (not the holder) with no reputation cannot build the marked kind.
cdef bint builder_toll_blocks(const MTState* s, int seat, int kind) noexcept nogil
# Whether `seat` may build `kind` now (not held, affordable, not blocked by the toll).
cdef bint can_build_kind(const MTState* s, int seat, int kind) noexcept nogil
# Whether a face-up red talent the player may hold lies in the wilderness.
cdef bint red_talent_available(const MTState* s, int seat) noexcept nogil
# Most money the player may pay instead of wine at a celebration (Village Elder 1).
cdef int elder_celebration_money(const MTPlayer* pl) noexcept nogil
# Whether a cell can be cultivated (flat-land, or `mountain`) by `seat`.
cdef bint cultivation_target_exists(const MTState* s, int seat, bint mountain) noexcept nogil
# The first fief cell > `after` holding `kind` (C_*), or -1.
cdef int first_cell(const MTPlayer* pl, int kind, int after) noexcept nogil
# Whether `seat` can reclaim a settlement on a cell > `after`.
cdef bint reclaim_target_exists(const MTState* s, int seat, int after) noexcept nogil
# Whether `seat` can build a town on a settlement on a cell > `after`.
cdef bint town_target_exists(const MTState* s, int seat, int after) noexcept nogil
# Whether effect `e` (E_*) of an edict tile has anything `seat` could do now (and is not
# forbidden by challenge game 3's rule).
cdef bint mt_effect_possible(const MTState* s, int seat, int e) noexcept nogil
# Whether the tile being executed still has an effect the player to move may execute.
cdef bint any_effect_possible(const MTState* s) noexcept nogil
