# Mount Tai: the mountain's geometry (fiefs, heights, water, cultivation adjacency).
#
# A fief cell is a local index l = a * 4 + b (a, b = distances from the fief's two outer edges);
# its height is min(a, b) + 1 (layer 1 = the main board's rim, 2 = large tiles, 3 = small tiles,
# 4 = the summit). The whole mountain is an 8x8 map, global index row * 8 + column, whose cells
# carry the MAP_* bits (water sources, tribes, artificial water). Every function here is pure
# arithmetic over the state, nogil and allocation-free; `mt_lay_mountain` is the only one that
# draws chance.

from engine.mount_tai.state cimport *
from engine.core.rng cimport Rng


cdef inline int cell_height(int l) noexcept nogil:
    """Height (layer 1..4) of fief cell `l`."""
    cdef int a = l >> 2, b = l & 3
    return (a if a < b else b) + 1


cdef inline int map_height(int g) noexcept nogil:
    """Height (1..4) of map cell `g`: its ring counted from the map's edge, plus 1."""
    cdef int r = g >> 3, c = g & 7, m = r
    if c < m:
        m = c
    if 7 - r < m:
        m = 7 - r
    if 7 - c < m:
        m = 7 - c
    return m + 1


cdef inline int to_map(int quadrant, int l) noexcept nogil:
    """Map index of fief cell `l` of the fief in `quadrant` (0 top-left, 1 top-right,
    2 bottom-right, 3 bottom-left)."""
    cdef int a = l >> 2, b = l & 3, r, c
    if quadrant == 0:
        r = a
        c = b
    elif quadrant == 1:
        r = a
        c = 7 - b
    elif quadrant == 2:
        r = 7 - a
        c = 7 - b
    else:
        r = 7 - a
        c = b
    return r * 8 + c


cdef inline bint map_is_water(const MTState* s, int g) noexcept nogil:
    return (s.map[g] & (MAP_WATER | MAP_ARTIFICIAL)) != 0


cdef inline bint cell_is_water(const MTState* s, int seat, int l) noexcept nogil:
    """Whether fief cell `l` of `seat` is a water source (printed or artificial)."""
    return map_is_water(s, to_map(s.quadrant[seat], l))


cdef inline bint cell_is_tribe(const MTState* s, int seat, int l) noexcept nogil:
    return (s.map[to_map(s.quadrant[seat], l)] & MAP_TRIBE) != 0


cdef inline bint next_to_water(const MTState* s, int seat, int l) noexcept nogil:
    """Whether fief cell `l` is next to water: an orthogonal map neighbour (in any fief) is a
    water source at the same height or higher ("water flows downhill")."""
    cdef int g = to_map(s.quadrant[seat], l)
    cdef int r = g >> 3, c = g & 7, h = map_height(g)
    if r > 0 and map_is_water(s, g - 8) and map_height(g - 8) >= h:
        return True
    if r < 7 and map_is_water(s, g + 8) and map_height(g + 8) >= h:
        return True
    if c > 0 and map_is_water(s, g - 1) and map_height(g - 1) >= h:
        return True
    if c < 7 and map_is_water(s, g + 1) and map_height(g + 1) >= h:
        return True
    return False


cdef inline bint linked(const MTState* s, int seat, int t, int o, bint mountain,
                        bint across_water) noexcept nogil:
    """Whether own tile `o` lets `seat` cultivate fief cell `t`: orthogonally adjacent (or, with
    `across_water`, two apart in a straight line with a water source between), at the same
    height for flat-land cultivation or at a different height for mountain cultivation."""
    cdef int ta = t >> 2, tb = t & 3, oa = o >> 2, ob = o & 3, da, db, mid
    cdef bint same = cell_height(t) == cell_height(o)
    if same == mountain:
        return False
    da = ta - oa
    db = tb - ob
    if da < 0:
        da = -da
    if db < 0:
        db = -db
    if da + db == 1:
        return True
    if across_water and ((da == 2 and db == 0) or (da == 0 and db == 2)):
        mid = ((ta + oa) >> 1) * 4 + ((tb + ob) >> 1)
        return cell_is_water(s, seat, mid)
    return False


cdef inline bint can_cultivate(const MTState* s, int seat, int t, bint mountain,
                               bint across_water, int ignore) noexcept nogil:
    """Whether `seat` may cultivate fief cell `t` (flat-land or `mountain`): it is barren, not a
    water source, and linked to one of the player's tiles other than cell `ignore` (-1: none).
    Only the cells `linked` can accept are looked at: the 4 orthogonal neighbours of `t` and,
    with `across_water`, the 4 cells two apart in a straight line."""
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int o, i, ta = t >> 2, tb = t & 3, oa, ob
    cdef int step = 2 if across_water else 1, dist
    if pl.cell[t] != C_EMPTY or cell_is_water(s, seat, t):
        return False
    for dist in range(1, step + 1):
        for i in range(4):
            oa = ta + (dist if i == 0 else (-dist if i == 1 else 0))
            ob = tb + (dist if i == 2 else (-dist if i == 3 else 0))
            if oa < 0 or oa > 3 or ob < 0 or ob > 3:
                continue
            o = oa * 4 + ob
            if o != ignore and pl.cell[o] != C_EMPTY and linked(s, seat, t, o, mountain, across_water):
                return True
    return False


cdef inline int highest_layer(const MTPlayer* pl) noexcept nogil:
    """The highest layer (1..4) the player has reached (layers are reached in order)."""
    cdef int l, h, best = 0
    for l in range(N_CELLS):
        if pl.cell[l] != C_EMPTY:
            h = cell_height(l)
            if h > best:
                best = h
    return best


cdef inline int layers_reached(const MTPlayer* pl) noexcept nogil:
    """How many of the fief's 4 layers hold a tile of the player (the ascent marker counts for
    the summit). Not always the highest layer: with the Descendant of Zheng's level 2 a player
    can cultivate across a water source from layer 1 to layer 3, leaving layer 2 empty."""
    cdef int l, seen = 0
    for l in range(N_CELLS):
        if pl.cell[l] != C_EMPTY:
            seen |= 1 << cell_height(l)
    return ((seen >> 1) & 1) + ((seen >> 2) & 1) + ((seen >> 3) & 1) + ((seen >> 4) & 1)


cdef inline bint layer_held(const MTPlayer* pl, int layer) noexcept nogil:
    """Whether fief layer `layer` (1..4) holds a tile of the player (the ascent marker for the
    summit)."""
    cdef int l
    for l in range(N_CELLS):
        if pl.cell[l] != C_EMPTY and cell_height(l) == layer:
            return True
    return False


cdef inline int count_cells(const MTPlayer* pl, int kind) noexcept nogil:
    """Fief cells holding `kind` (C_*)."""
    cdef int l, n = 0
    for l in range(N_CELLS):
        if pl.cell[l] == kind:
            n += 1
    return n


# Lay the mountain: large and small tiles to random quadrants with random rotations (Setup 1),
# writing the visible MAP_* bits into s.map and the placement into s.large_at / rot_large /
# small_at / rot_small. Draws from s.rng.
cdef void mt_lay_mountain(MTState* s) noexcept nogil
