/* A tianti bot in C: plays the first legal action it is offered.
 *
 * It speaks the bot protocol (docs/PROTOCOL.md) on stdin/stdout with no JSON library: every
 * message is one line, and the few fields it needs are found by scanning for their names.
 * Build: gcc -O2 -o first examples/bots/first.c
 * Play:  tianti tournament run -b first="exec:./first" -b random -p 2
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The integer after `"key":` in `line`, or `fallback` if the key is not there. */
static long field_int(const char *line, const char *key, long fallback) {
    const char *at = strstr(line, key);
    if (at == NULL) return fallback;
    at += strlen(key);
    return strtol(at, NULL, 10);
}

/* The id of the first legal action: the number after `"legal":[[`. */
static long first_legal(const char *line) {
    return field_int(line, "\"legal\":[[", -1);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    long games = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &cap, stdin) != -1) {
        if (strstr(line, "\"type\":\"hello\"")) {
            /* "lean": ids only, no board or texts (it reads neither) */
            printf("{\"type\":\"hello\",\"protocol\":1,\"name\":\"first-c\",\"options\":{},"
                   "\"wants\":[\"lean\"]}\n");
        } else if (strstr(line, "\"type\":\"game\"")) {
            games++;
            fprintf(stderr, "first-c: game %ld, seat %ld\n", games,
                    field_int(line, "\"seat\":", -1));
        } else if (strstr(line, "\"type\":\"move\"")) {
            long action = first_legal(line);
            if (action < 0) {
                printf("{\"type\":\"error\",\"message\":\"no legal action offered\"}\n");
            } else {
                printf("{\"type\":\"action\",\"action\":%ld}\n", action);
            }
        } else if (strstr(line, "\"type\":\"quit\"")) {
            break;
        }
        /* "update" and "end" messages are not needed to play the first legal action. */
    }
    free(line);
    return 0;
}
