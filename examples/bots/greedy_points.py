"""A tianti bot in plain Python (no tianti import): it speaks the bot protocol
(docs/PROTOCOL.md) on stdin/stdout with the standard library only.

It keeps each seat's points from the events it is sent (every scoring event carries its
`points`), and at each decision plays a random legal action, preferring actions whose text
mentions a word it was told to like (default: none). It shows what a bot in another language
does: read the game, follow the updates, answer an action id.

Play: tianti tournament run -b plain="exec:python3 examples/bots/greedy_points.py" -b random
"""
from __future__ import annotations

import json
import random
import sys


def main() -> int:
    liked = [w.lower() for w in sys.argv[1:]]
    rng = random.Random()
    points: list[int] = []
    seat = -1
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": 1, "name": "greedy-points",
                     "options": {"liked": liked}}
        elif kind == "game":
            seat = message["seat"]
            points = [0] * message["players"]
            continue
        elif kind == "update":
            for event in message["events"]:
                if event["seat"] is not None and 0 <= event["seat"] < len(points):
                    points[event["seat"]] += event["points"]
            continue
        elif kind == "move":
            legal = message["legal"]  # [[id, text], ...]
            good = [a for a, text in legal if any(w in text.lower() for w in liked)]
            action = rng.choice(good or [a for a, _ in legal])
            reply = {"type": "action", "action": action}
        elif kind == "end":
            print(f"greedy-points: seat {seat} ended with {message['scores'][seat]} "
                  f"(counted {points[seat] if points else 0} from events)", file=sys.stderr)
            continue
        elif kind == "quit":
            return 0
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
