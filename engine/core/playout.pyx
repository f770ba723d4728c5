# cython: language_level=3
"""Random full games inside the compiled core: the engine's raw speed through its interface.

Each game is reset with a fresh seed and played to the end by uniformly random legal actions,
calling only the game's `GameDef` (legal actions into a buffer, apply), so the figure is what a
search will see per playout step.
"""

from libc.stdlib cimport malloc, free
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from engine.core.interface cimport GameDef
from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below
from engine.core.state cimport State


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef long long _play_random_games(const GameDef* g, void* st, int* acts, Rng* rng,
                                  long long max_games, double max_seconds,
                                  long long* games_out, double* seconds_out) noexcept nogil:
    """Play games until `max_games` (if > 0) or `max_seconds` (if > 0) is reached; returns the
    decisions made and stores the games finished and the seconds spent."""
    cdef long long games = 0, decisions = 0
    cdef int n
    cdef double start = _now(), elapsed = 0.0
    while True:
        g.reset(st, rng_next(rng))
        while True:
            n = g.legal_actions(st, acts)
            if n == 0:
                break
            g.apply_action(st, acts[rng_below(rng, n)])
            decisions += 1
        games += 1
        elapsed = _now() - start
        if max_games > 0 and games >= max_games:
            break
        if max_seconds > 0 and elapsed >= max_seconds:
            break
    games_out[0] = games
    seconds_out[0] = elapsed
    return decisions


def random_playouts(State template, games: int = 0, seconds: float = 0.0, seed: int = 0) -> dict:
    """Random full games with `template`'s options, until `games` games or `seconds` seconds
    (whichever is given and reached first). Runs without the GIL."""
    if games <= 0 and seconds <= 0:
        raise ValueError("give a number of games or seconds greater than 0")
    cdef const GameDef* g = template.gdef
    cdef void* st = malloc(g.state_size)
    cdef int* acts = <int*>malloc(g.max_legal_actions * sizeof(int))
    cdef Rng rng
    cdef long long done = 0, decisions = 0, max_games = games
    cdef double elapsed = 0.0, max_seconds = seconds
    if st == NULL or acts == NULL:
        free(st)
        free(acts)
        raise MemoryError()
    rng_seed(&rng, <uint64_t>seed)
    g.copy_state(template.data, st)
    try:
        with nogil:
            decisions = _play_random_games(g, st, acts, &rng, max_games, max_seconds,
                                           &done, &elapsed)
    finally:
        free(st)
        free(acts)
    return {
        "game": template.game.name,
        "players": template.num_players(),
        "options": dict(template.game.options),
        "games": done,
        "seconds": elapsed,
        "games_per_second": done / elapsed if elapsed > 0 else float("inf"),
        "decisions": decisions,
        "decisions_per_game": decisions / <double>done if done else 0.0,
        "decisions_per_second": decisions / elapsed if elapsed > 0 else float("inf"),
        "state_bytes": g.state_size,
    }
