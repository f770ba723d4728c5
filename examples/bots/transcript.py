"""Print the protocol transcript of one real game (what docs/PROTOCOL.md shows).

    python examples/bots/transcript.py [GAME] [SEED] [PLAYERS]

Seat 0 is tianti's random bot served over the protocol (`tianti bot random`, the bot side
of the lines shown); seat 1 is random inside the referee. Every line the referee wrote to
seat 0's process and every line it read back is printed, prefixed `>` (to the bot) or `<`.
"""
from __future__ import annotations

import sys

from ai.bots import make_bot
from engine.registry import load_game
from ai.match import Referee, play_game
from ladder.referee.host import ProcessBot


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else "fusion"
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    options = {"players": int(sys.argv[3])} if len(sys.argv) > 3 else {}
    game = load_game(name, **options)
    bot = ProcessBot([sys.executable, "-m", "ladder.cli", "bot", "--full", "random(seed=1)"],
                     move_timeout=5.0, setup_timeout=60.0, transcript=True,
                     pythonpath=[p for p in sys.path if p.endswith(("i35", "tianti")) or
                                 p == sys.path[0]])
    others = [make_bot("random(seed=2)") for _ in range(game.num_players - 1)]
    play_game(game.new_initial_state(seed), [bot, *others], referee=Referee(5.0))
    bot.close()
    for who, line in bot.transcript or []:
        print(("> " if who == "referee" else "< ") + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
