# The random number generator every engine and the search share.
#
# SplitMix64 (Steele, Lea & Flood 2014): one 64-bit word of state, so a state struct that embeds it
# stays a plain memcpy-able block, and seeding from any 64-bit value gives a good stream.
# All functions are inline, nogil and never fail.

from libc.stdint cimport uint64_t, uint32_t, uint8_t

ctypedef struct Rng:
    uint64_t state      # the whole generator; copying the struct forks the stream


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    """Start the stream at `seed` (any value, 0 included)."""
    r.state = seed


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """The next 64 uniformly random bits."""
    cdef uint64_t z
    r.state += <uint64_t>0x9E3779B97F4A7C15ULL
    z = r.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t rng_mix(uint64_t h, uint64_t item) noexcept nogil:
    """`item` folded into the hash `h` (one SplitMix64 step from h ^ item): the games' chance
    signatures hash what their chance has shown with it."""
    cdef Rng r
    rng_seed(&r, h ^ item)
    return rng_next(&r)


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift, bias < 2**-32)."""
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_uniform(Rng* r) noexcept nogil:
    """A uniform double in [0, 1)."""
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void rng_shuffle_u8(Rng* r, uint8_t* a, int n) noexcept nogil:
    """Shuffle a[0:n] in place, uniformly (Fisher-Yates), for any n (n <= 1 leaves `a` as is).

    The draw sequence is part of every seeded game, stored record and test: the loop runs
    i = n-1 down to 1, swapping a[i] with a[j], j = rng_below(r, i + 1) (one draw per i, none
    for n <= 1). Every shuffle in both games used exactly this order and these bounds before
    they were merged here; changing either changes every seeded game.
    """
    cdef int i = n - 1, j
    cdef uint8_t t
    while i > 0:
        j = <int>rng_below(r, <uint32_t>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1
