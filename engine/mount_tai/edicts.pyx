# cython: language_level=3
"""Mount Tai: the edict areas: which slot covers which, dealing them, taking tiles, redealing the
face-down ones (see edicts.pxd)."""

from libc.stdint cimport uint8_t, uint32_t

from engine.core.rng cimport Rng, rng_shuffle_u8
from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables

cdef extern from *:
    """
    static inline int mt_ctz32(unsigned int x) { return __builtin_ctz(x); }
    """
    int ctz "mt_ctz32"(unsigned int x) noexcept nogil

cdef const MTTables* T = mt_tables()

cdef uint32_t COVERS[3][N_SLOTS]     # by layout: slots resting on each slot
# By layout and byte of a present mask: the slots that the tiles of that byte rest on (so the
# uncovered slots take four lookups instead of a pass over the present slots).
cdef uint32_t COVERED_BY[3][4][256]
cdef uint8_t SLOT_TIER_PYRAMID[N_SLOTS]
cdef uint8_t SLOT_DEPTH[3][N_SLOTS]  # stacks / steps: depth in the pile (0 = top)
cdef uint8_t SLOT_COLUMN[3][N_SLOTS]
cdef int N_SLOTS_OF[3]


def _build() -> None:
    cdef int r, c, rr, cc, slot, p, depth, col, base, byte, bits, t, lay
    cdef uint32_t m
    for lay in range(3):
        for slot in range(N_SLOTS):
            COVERS[lay][slot] = 0
    # Pyramid: III (r, c) = r * 4 + c; II = 16 + r * 3 + c; I = 25 + r * 2 + c. A tile of an
    # upper layer at (r, c) rests on the 2x2 block (r..r+1, c..c+1) below it.
    for r in range(4):
        for c in range(4):
            SLOT_TIER_PYRAMID[r * 4 + c] = 3
            for rr in (r - 1, r):
                for cc in (c - 1, c):
                    if 0 <= rr <= 2 and 0 <= cc <= 2:
                        COVERS[LAY_PYRAMID][r * 4 + c] |= 1u << (16 + rr * 3 + cc)
    for r in range(3):
        for c in range(3):
            SLOT_TIER_PYRAMID[16 + r * 3 + c] = 2
            for rr in (r - 1, r):
                for cc in (c - 1, c):
                    if 0 <= rr <= 1 and 0 <= cc <= 1:
                        COVERS[LAY_PYRAMID][16 + r * 3 + c] |= 1u << (25 + rr * 2 + cc)
    for slot in range(25, 29):
        SLOT_TIER_PYRAMID[slot] = 1
    N_SLOTS_OF[LAY_PYRAMID] = 29
    # Stacks: 4 piles of 7, slot = pile * 7 + depth.
    for p in range(4):
        for depth in range(7):
            slot = p * 7 + depth
            SLOT_DEPTH[LAY_STACKS][slot] = depth
            SLOT_COLUMN[LAY_STACKS][slot] = p
            for rr in range(depth):
                COVERS[LAY_STACKS][slot] |= 1u << (p * 7 + rr)
    N_SLOTS_OF[LAY_STACKS] = 28
    # Steps: columns of T.step_columns tiles, slots column by column, top first.
    base = 0
    for col in range(6):
        for depth in range(T.step_columns[col]):
            slot = base + depth
            SLOT_DEPTH[LAY_STEPS][slot] = depth
            SLOT_COLUMN[LAY_STEPS][slot] = col
            for rr in range(depth):
                COVERS[LAY_STEPS][slot] |= 1u << (base + rr)
        base += T.step_columns[col]
    N_SLOTS_OF[LAY_STEPS] = base
    for lay in range(3):
        for byte in range(4):
            for bits in range(256):
                m = 0
                for slot in range(N_SLOTS):
                    for t in range(8):
                        if (bits >> t) & 1 and (COVERS[lay][slot] >> (byte * 8 + t)) & 1:
                            m |= 1u << slot
                COVERED_BY[lay][byte][bits] = m


_build()


cdef uint32_t edict_covers(int layout, int slot) noexcept nogil:
    return COVERS[layout][slot]


cdef int edict_slot_count(int layout) noexcept nogil:
    return N_SLOTS_OF[layout]


cdef uint32_t edict_uncovered(const MTPlayer* pl, int layout) noexcept nogil:
    cdef uint32_t present = pl.present
    return present & ~(COVERED_BY[layout][0][present & 0xFF]
                       | COVERED_BY[layout][1][(present >> 8) & 0xFF]
                       | COVERED_BY[layout][2][(present >> 16) & 0xFF]
                       | COVERED_BY[layout][3][present >> 24])


cdef uint32_t edict_uncovered_recount(const MTPlayer* pl, int layout) noexcept nogil:
    cdef uint32_t present = pl.present, out = 0, m = present
    cdef int slot
    while m:
        slot = ctz(m)
        m &= m - 1
        if (COVERS[layout][slot] & present) == 0:
            out |= 1u << slot
    return out


cdef int edict_slot_tier(int layout, bint tiered, int slot) noexcept nogil:
    if layout == LAY_PYRAMID:
        return SLOT_TIER_PYRAMID[slot]
    if layout == LAY_STACKS and tiered:
        return T.stacks_tiered[SLOT_DEPTH[LAY_STACKS][slot]]
    return 0


cdef int tiles_of_tier(int tier, uint8_t* out) noexcept nogil:
    cdef int n, k = 0
    for n in range(1, N_TILES + 1):
        if tier == 0 or T.tier[n] == tier:
            out[k] = <uint8_t>n
            k += 1
    return k


cdef void edict_deal(MTPlayer* pl, int layout, bint hidden, bint tiered, Rng* rng) noexcept nogil:
    cdef uint8_t t1[N_TILES]
    cdef uint8_t t2[N_TILES]
    cdef uint8_t t3[N_TILES]
    cdef uint8_t rest[N_TILES]
    cdef uint8_t top[8]
    cdef int n1, n2, n3, i, k, p, depth, tier, slot, nrest, ntop
    cdef int i1 = 0, i2 = 0, i3 = 0
    for i in range(N_SLOTS):
        pl.slot_tile[i] = 0
    pl.present = 0
    pl.gone = 0
    n1 = tiles_of_tier(1, t1)
    n2 = tiles_of_tier(2, t2)
    n3 = tiles_of_tier(3, t3)
    rng_shuffle_u8(rng, t1, n1)
    rng_shuffle_u8(rng, t2, n2)
    rng_shuffle_u8(rng, t3, n3)
    if layout == LAY_PYRAMID:
        for slot in range(29):
            tier = SLOT_TIER_PYRAMID[slot]
            if tier == 3:
                pl.slot_tile[slot] = t3[i3]
                i3 += 1
            elif tier == 2:
                pl.slot_tile[slot] = t2[i2]
                i2 += 1
            else:
                pl.slot_tile[slot] = t1[i1]
                i1 += 1
    elif layout == LAY_STACKS and tiered:
        for p in range(4):
            for depth in range(7):
                tier = T.stacks_tiered[depth]
                slot = p * 7 + depth
                if tier == 1:
                    pl.slot_tile[slot] = t1[i1]
                    i1 += 1
                elif tier == 2:
                    pl.slot_tile[slot] = t2[i2]
                    i2 += 1
                else:
                    pl.slot_tile[slot] = t3[i3]
                    i3 += 1
    elif layout == LAY_STACKS:
        k = tiles_of_tier(0, rest)
        rng_shuffle_u8(rng, rest, k)
        for slot in range(28):
            pl.slot_tile[slot] = rest[slot]
    else:
        # Steps: the four tier I tiles and one random other tile share columns 1 and 2 (in
        # random places); the other places take random tiles; the rest is discarded.
        nrest = 0
        for i in range(n2):
            rest[nrest] = t2[i]
            nrest += 1
        for i in range(n3):
            rest[nrest] = t3[i]
            nrest += 1
        rng_shuffle_u8(rng, rest, nrest)
        ntop = 0
        for i in range(n1):
            top[ntop] = t1[i]
            ntop += 1
        k = T.step_columns[0] + T.step_columns[1]
        i = 0
        while ntop < k:
            top[ntop] = rest[i]
            ntop += 1
            i += 1
        rng_shuffle_u8(rng, top, ntop)
        for slot in range(k):
            pl.slot_tile[slot] = top[slot]
        for slot in range(k, N_SLOTS_OF[LAY_STEPS]):
            pl.slot_tile[slot] = rest[i]
            i += 1
    for slot in range(N_SLOTS_OF[layout]):
        if pl.slot_tile[slot] != 0:
            pl.present |= 1u << slot
    if hidden:
        pl.faceup = edict_uncovered(pl, layout)
    else:
        pl.faceup = pl.present


cdef int edict_take(MTPlayer* pl, int layout, int slot) noexcept nogil:
    cdef int n = pl.slot_tile[slot]
    pl.present &= ~(1u << slot)
    pl.faceup &= ~(1u << slot)
    pl.gone |= 1u << (n - 1)
    if T.tier[n] == 3:
        pl.tier3 += 1
    pl.faceup |= edict_uncovered(pl, layout)
    return n


cdef void edict_redeal(MTPlayer* pl, int layout, bint tiered, Rng* rng) noexcept nogil:
    cdef uint8_t pool[N_TILES]
    cdef uint32_t seen = pl.gone, down = pl.present & ~pl.faceup, m
    cdef int slot, tier, k, n, i
    if down == 0:
        return
    m = pl.present & pl.faceup
    while m:
        slot = ctz(m)
        m &= m - 1
        seen |= 1u << (pl.slot_tile[slot] - 1)
    # A layout's face-down slots are either all tiered (pyramid, challenge 6) or all untiered
    # (challenge 7), so the pools below never share a tile.
    for tier in range(4):
        k = 0
        for n in range(1, N_TILES + 1):
            if (seen >> (n - 1)) & 1:
                continue
            if tier != 0 and T.tier[n] != tier:
                continue
            pool[k] = <uint8_t>n
            k += 1
        rng_shuffle_u8(rng, pool, k)
        i = 0
        m = down
        while m:
            slot = ctz(m)
            m &= m - 1
            if edict_slot_tier(layout, tiered, slot) != tier:
                continue
            pl.slot_tile[slot] = pool[i]
            i += 1
