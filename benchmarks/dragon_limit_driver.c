/* Runs only the "4 fresh" measurement of the hand-written C reference (dragon_limit.c, kept
 * outside this repository in ../shared/bench), so that it can be timed beside tianti's compiled
 * playouts and counted by callgrind. It includes the reference unchanged and replaces its main:
 *
 *   gcc -O2 -march=native -I ../shared/bench -o /tmp/dragon_limit_driver \
 *       benchmarks/dragon_limit_driver.c
 *   /tmp/dragon_limit_driver seconds SECONDS [players]  -> games/s by wall and by CPU time
 *   /tmp/dragon_limit_driver games N [players]          -> exactly N games (for callgrind)
 *
 * Output: one JSON line (players, games, decisions, wall_seconds, cpu_seconds). */
#define main dragon_limit_main
#include "dragon_limit.c"
#undef main

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    int by_games = argc > 1 && strcmp(argv[1], "games") == 0;
    double amount = argc > 2 ? atof(argv[2]) : 1.0;
    int np = argc > 3 ? atoi(argv[3]) : 4;
    Ctx c; memset(&c, 0, sizeof c);
    c.s = 0x9E3779B97F4A7C15ULL ^ (0x1000193ULL * (uint64_t)(np * 2 + 1));
    State s;
    uint64_t games = 0, vpsum = 0;
    double t0 = now(), c0 = cpu_now(), t = t0;
    while (by_games ? games < (uint64_t)amount : t - t0 < amount) {
        for (int b = 0; b < (by_games ? 1 : 512); b++) {
            setup(&c, &s, np);
            int w = playout(&c, &s);
            vpsum += (uint64_t)s.pl[w].vp;
            games++;
        }
        t = now();
    }
    printf("{\"players\": %d, \"games\": %llu, \"decisions\": %llu, \"wall_seconds\": %.4f, "
           "\"cpu_seconds\": %.4f, \"win_vp\": %.2f}\n", np, (unsigned long long)games,
           (unsigned long long)c.dec, t - t0, cpu_now() - c0,
           games ? (double)vpsum / (double)games : 0.0);
    return 0;
}
