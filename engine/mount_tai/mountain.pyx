# cython: language_level=3
"""Mount Tai: laying the 3D mountain at setup (the geometry itself is inline in mountain.pxd)."""

from libc.string cimport memset

from engine.core.rng cimport Rng, rng_below, rng_shuffle_u8
from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.mountain cimport map_height

cdef const MTTables* T = mt_tables()

# Top-left map cell of each quadrant's large tile (3x3) and small tile (2x2).
cdef int LARGE_ORIGIN[4][2]
cdef int SMALL_ORIGIN[4][2]
LARGE_ORIGIN[0][:] = [1, 1]
LARGE_ORIGIN[1][:] = [1, 4]
LARGE_ORIGIN[2][:] = [4, 4]
LARGE_ORIGIN[3][:] = [4, 1]
SMALL_ORIGIN[0][:] = [2, 2]
SMALL_ORIGIN[1][:] = [2, 4]
SMALL_ORIGIN[2][:] = [4, 4]
SMALL_ORIGIN[3][:] = [4, 2]


cdef inline void rotated(int n, int rot, int r, int c, int* rr, int* cc) noexcept nogil:
    """Where the printed cell (r, c) of an n x n tile lands after `rot` clockwise quarter turns."""
    cdef int k, t
    for k in range(rot & 3):
        t = r
        r = c
        c = n - 1 - t
    rr[0] = r
    cc[0] = c


cdef void mt_lay_mountain(MTState* s) noexcept nogil:
    cdef int q, r, c, rr, cc, g, t
    memset(s.map, 0, sizeof(s.map))
    for q in range(4):
        s.large_at[q] = <uint8_t>q
        s.small_at[q] = <uint8_t>q
    rng_shuffle_u8(&s.rng, s.large_at, 4)
    rng_shuffle_u8(&s.rng, s.small_at, 4)
    for q in range(4):
        s.rot_large[q] = <uint8_t>rng_below(&s.rng, 4)
        s.rot_small[q] = <uint8_t>rng_below(&s.rng, 4)
    for q in range(4):
        t = s.large_at[q]
        for r in range(3):
            for c in range(3):
                rotated(3, s.rot_large[q], r, c, &rr, &cc)
                g = (LARGE_ORIGIN[q][0] + rr) * 8 + LARGE_ORIGIN[q][1] + cc
                if map_height(g) == 2:      # the rest lies under the small tile
                    s.map[g] = T.large[t][r][c]
        t = s.small_at[q]
        for r in range(2):
            for c in range(2):
                rotated(2, s.rot_small[q], r, c, &rr, &cc)
                g = (SMALL_ORIGIN[q][0] + rr) * 8 + SMALL_ORIGIN[q][1] + cc
                if map_height(g) == 3:      # the centre lies under the summit
                    s.map[g] = T.small[t][r][c]
