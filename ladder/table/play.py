"""A person playing against bots: the session behind `tianti play` (no terminal I/O here).

The session owns the real game state; bots are handed determinizations from their own seat.
A session saves to and loads from a small JSON file holding the game record plus who sits
where, so a game can be stopped at any prompt and resumed at the same decision.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ai.bots import Bot, make_bot
from engine.core.errors import IllegalActionError, RecordError, TiantiError
from engine.core.state import State
from engine.core.text import printable, unsafe_characters
from engine.registry import load_game
from ladder.table.hints import Hint, meaning, search_config, thinking
from ai.match import StateGuard, StateTampered, _answer, _NotAnAction
from ladder.names import display_name, seat_name
from ladder.table.narrate import Line, Move, Narrator, narrator_for, seen_events, story
from ladder.tournament.store import data_dir

SAVE_FORMAT = "tianti-play"
SAVE_VERSION = 1
# A save holds one game (a few kilobytes); a file much larger, or endless like /dev/zero, is
# not one and is not read whole.
MAX_SAVE_BYTES = 16 << 20
HUMAN = "human"

# Decisions a player takes several times in a row whose order does not matter (releasing
# persons, discarding to a flood or a tornado), by game and snapshot phase. The engines accept
# them in one canonical order only (so that each set is one line of play); the person picks
# them in any order instead, and the session plays the chosen set in the engine's order.
ORDERLESS: dict[str, tuple[str, ...]] = {"dragon": ("release", "flood", "tornado")}
# More sets than this (never seen in play): the engine's one-at-a-time choices are shown.
MAX_SETS = 5000


class PlayError(TiantiError, ValueError):
    """A save file that cannot be used, or a bad choice at a prompt."""


def is_code_spec(spec: str) -> bool:
    """Whether a bot spec runs code of the user's (`python:module:factory`, `inproc:python:...`,
    an `exec:` program): a save naming one needs --trust."""
    from ladder.tournament.roster import runs_code

    return runs_code(spec)


def saves_dir() -> Path:
    """The folder of the games `tianti play` saves by default."""
    return data_dir() / "saves"


def default_save_path(game: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return saves_dir() / f"{game}-{stamp}.json"


def find_save(path: str | os.PathLike[str]) -> Path:
    """The saved game `path` names: the file, or a bare file name that is not in the working
    folder but in the saves folder (so that `--load dragon-20261204-213209.json` resumes the
    game the resume hint names)."""
    p = Path(path).expanduser()
    if not p.exists() and len(p.parts) == 1 and (saves_dir() / p).exists():
        return saves_dir() / p
    return p


@dataclass
class LoggedMove:
    """A decision as played: its number, the seat, the move in words, the time taken and (for
    a search bot) its own estimate in words ("thinks: 62% chance to win (1.0 s, ...)")."""

    index: int
    player: int
    text: str
    seconds: float
    thinking: str | None = None


@dataclass
class Choice:
    number: int  # 1-based, as shown
    action: int
    text: str


@dataclass
class PlaySession:
    """One game: the person at `seat`, a bot spec at every other seat."""

    state: State
    seat: int
    specs: list[str]  # one per seat; specs[seat] == HUMAN
    hint_spec: str = "strong"
    log: list[LoggedMove] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)  # move numbers of the person's decisions
    bots: dict[int, Bot] = field(default_factory=dict)
    resample_rng: random.Random = field(default_factory=lambda: random.Random(0))
    narrator: Narrator | None = None
    # The person's picks of an orderless decision (see ORDERLESS), not yet played.
    picks: list[int] = field(default_factory=list)
    _sets_at: tuple[bytes, dict[tuple[int, ...], list[int]] | None] | None = None

    @staticmethod
    def new(game: str, options: dict[str, Any], seat: int, opponents: list[str],
            seed: int | None = None, hint_spec: str = "strong") -> "PlaySession":
        """A new game. `opponents` are the bot specs of the other seats in seat order (one spec
        is used for all of them)."""
        g = load_game(game, **options)
        n = g.num_players
        if not 0 <= seat < n:
            raise PlayError(f"seat must be in 0..{n - 1} for {n} players, got {seat}")
        if len(opponents) == 1:
            opponents = opponents * (n - 1)
        if len(opponents) != n - 1:
            raise PlayError(f"{len(opponents)} opponents given for {n - 1} other seats")
        for spec in [*opponents, hint_spec]:
            bad = unsafe_characters(spec)
            if bad:  # the specs are shown as the bots' names
                raise PlayError(f"the bot spec {printable(spec, 60)!r} holds control "
                                f"characters ({' '.join(bad)}): they are not allowed")
        specs = list(opponents)
        specs.insert(seat, HUMAN)
        session = PlaySession(g.new_initial_state(seed), seat, specs, hint_spec)
        session._make_bots()
        return session

    def _make_bots(self) -> None:
        from ai.match import setup_limit
        from ladder.referee.players import make_player

        # a user's bot plays from a process of its own (its handshake may take a minute)
        self.bots = {i: make_player(spec, setup_timeout=setup_limit(60.0))
                     for i, spec in enumerate(self.specs) if i != self.seat}
        self._begin_feeds()

    def _feeds(self) -> list[tuple[int, Any]]:
        """The bots playing from processes of their own, by seat: they are told each move."""
        from ladder.referee.host import ProcessBot

        return [(i, b) for i, b in self.bots.items() if type(b) is ProcessBot]

    def _begin_feeds(self) -> None:
        """Start the game (as it stands) for the bots in processes of their own."""
        for i, bot in self._feeds():
            bot.begin(self.state, i)

    def close(self) -> None:
        """Quit the bots that play from processes of their own."""
        from ladder.referee.players import close_all

        close_all(list(self.bots.values()))

    # -- the flow -------------------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player() == self.seat

    def run_bots(self, before: Callable[[int], Any] | None = None,
                 after: Callable[[LoggedMove], None] | None = None) -> None:
        """Let the bots move until it is the person's turn or the game ends. `before(player)`
        is called as a bot starts thinking (it may return a context manager, e.g. a spinner),
        `after(move)` once its move is played."""
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            player = self.state.current_player()
            view = self.state.resample_from_infostate(player, self.resample_rng.randrange(1 << 62))
            before_last = getattr(self.bots[player], "last", None)
            start = time.perf_counter()
            ctx = before(player) if before else None
            if ctx is not None:
                with ctx:
                    action = self._ask(player, self.bots[player].step, view)
            else:
                action = self._ask(player, self.bots[player].step, view)
            seconds = time.perf_counter() - start
            self._play(player, action, seconds)
            self.log[-1].thinking = self._thinking(self.bots[player], before_last, action)
            if after:
                after(self.log[-1])

    def _thinking(self, bot: Bot, before: Any, action: int) -> str | None:
        """The bot's own estimate of the move it just played, in words, from the analysis it
        keeps (`last`, made on its view); None if it keeps none or did not search anew."""
        last = getattr(bot, "last", None)
        if last is None or last is before:
            return None
        return thinking(last, action, search_config(bot), self.state.num_players())

    def _ask(self, seat: int | None, fn: Callable[[Any], Any], view: Any) -> int:
        """A bot's answer `fn(view)` as a plain int, read once (the value checked is the value
        played). The bot gets a view, never `self.state`; the game object the view shares with
        the session's state is put back as it was after the call, and a bot that changed the
        session's state anyway (through the process) raises StateTampered. `seat` None: the
        hint bot."""
        guard = StateGuard(self.state)
        answer = _answer(fn, view)
        who = "the hint bot" if seat is None else f"the bot of seat {seat}"
        if not guard.intact(self.state):
            raise StateTampered(f"{who} changed the game's own state (bots only get views)")
        if isinstance(answer, _NotAnAction):
            raise IllegalActionError(f"{who} returned {answer.shown}, which is not an action")
        return answer

    def _play(self, player: int, action: int, seconds: float) -> None:
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        for _, bot in self._feeds():
            bot.observe(self.state, self.state.move_number() - 1, player, action, text)
        self.log.append(LoggedMove(len(self.log), player, text, seconds))

    def orderless_sets(self) -> dict[tuple[int, ...], list[int]] | None:
        """At an orderless decision of the person (ORDERLESS) taken more than once in a row:
        every set of actions the person can end it with (sorted), each with the engine's
        order of playing it; None at any other decision."""
        at = self.state.raw_bytes()  # the exact state (an undo may come back to its number)
        if self._sets_at is not None and self._sets_at[0] == at:
            return self._sets_at[1]
        sets: dict[tuple[int, ...], list[int]] | None = None
        phases = ORDERLESS.get(self.state.game.name, ())
        if self.my_turn and phases and self.state.snapshot()["phase"] in phases:
            sets = {}
            phase = self.state.snapshot()["phase"]

            def walk(state: State, line: list[int]) -> bool:
                for a in state.legal_actions():
                    nxt = state.clone()
                    nxt.apply_action(a)
                    if (nxt.is_terminal() or nxt.current_player() != self.seat
                            or nxt.snapshot()["phase"] != phase):
                        sets.setdefault(tuple(sorted(line + [a])), line + [a])
                        if len(sets) > MAX_SETS:
                            return False
                    elif not walk(nxt, line + [a]):
                        return False
                return True

            if not walk(self.state, []) or max(map(len, sets), default=0) < 2:
                sets = None
        self._sets_at = (at, sets)
        return sets

    def choices(self) -> list[Choice]:
        """The choices shown at the person's prompt: the legal actions, or at an orderless
        decision (see ORDERLESS) every action that can still be picked, in any order."""
        sets = self.orderless_sets()
        if sets is None:
            actions = self.state.legal_actions()
        else:
            fits = [s for s in sets if _contains(s, self.picks)]
            if len(fits) == 1:  # one way to end it: nothing left to choose
                actions = [_minus(fits[0], self.picks)[0]]
            else:
                actions = sorted({a for s in fits for a in _minus(s, self.picks)})
        return [Choice(i + 1, a, self.state.action_to_string(a)) for i, a in enumerate(actions)]

    def picks_needed(self) -> int:
        """How many picks the orderless decision under way takes in all (0: none under way)."""
        sets = self.orderless_sets()
        if not sets:
            return 0
        return min(len(s) for s in sets if _contains(s, self.picks))

    def resolve(self, text: str) -> int:
        """A choice typed at the prompt: its number, its name, or an unambiguous prefix."""
        t = text.strip()
        choices = self.choices()
        if t.isdigit():
            k = int(t)
            if 1 <= k <= len(choices):
                return choices[k - 1].action
            raise PlayError(f"there is no choice {k}: pick 1 to {len(choices)}")
        if self.orderless_sets() is None:
            try:
                return self.state.string_to_action(t)
            except IllegalActionError as e:
                raise PlayError(str(e)) from None
        names = {c.action: c.text.lower() for c in choices}
        exact = [a for a, n in names.items() if n == t.lower()]
        found = exact or [a for a, n in names.items() if n.startswith(t.lower())]
        if len(found) == 1:
            return found[0]
        listing = "; ".join(c.text for c in choices if not found or c.action in found)
        raise PlayError(f"{t!r} is ambiguous: {listing}" if found
                        else f"no choice is called {t!r}; choices: {listing}")

    def choose(self, action: int) -> list[LoggedMove]:
        """The person plays `action` (legal, at their turn); returns the moves played. At an
        orderless decision the action is a pick, kept until the set is complete and then
        played in the engine's order (the moves returned); until then nothing is played."""
        if not self.my_turn:
            raise PlayError("it is not your turn")
        sets = self.orderless_sets()
        if sets is not None:
            if action not in {c.action for c in self.choices()}:
                raise PlayError(f"{self.state.action_to_string(action)!r} cannot be picked now")
            self.picks.append(action)
            done = tuple(sorted(self.picks))
            if done not in sets:
                return []
            line, self.picks = sets[done], []
        else:
            line = [action]
        start = len(self.log)
        self.decisions.append(self.state.move_number())
        for a in line:
            self._play(self.seat, a, 0.0)
        return self.log[start:]

    def play(self, action: int) -> list[LoggedMove]:
        """The person's seat plays one engine action as it stands (legal at their turn), the
        way a bot's answer is played: no picks are collected, an orderless decision goes on
        one engine decision at a time. Returns the moves played."""
        if not self.my_turn:
            raise PlayError("it is not your turn")
        if not self.state.is_legal(action):
            raise PlayError(f"action {action} is not legal now")
        self.picks = []
        start = len(self.log)
        self.decisions.append(self.state.move_number())
        self._play(self.seat, action, 0.0)
        return self.log[start:]

    def unpick(self) -> bool:
        """Take back the last pick of an orderless decision; False if there is none."""
        if not self.picks:
            return False
        self.picks.pop()
        return True

    def undo(self) -> bool:
        """Back to the person's previous decision (bots' moves after it are replayed anew when
        the game continues). False if there is none."""
        self.picks = []
        if not self.decisions:
            return False
        target = self.decisions.pop()
        record = self.state.to_record()
        record["actions"] = record["actions"][:target]
        self.state = State.from_record(record)
        del self.log[target:]
        self.narrator = None
        for bot in self.bots.values():
            if hasattr(bot, "restart"):
                bot.restart()
        self._begin_feeds()
        return True

    def hint(self, top: int = 5) -> Hint:
        """The hint bot's choice here, with its estimate for the `top` moves it searched most
        and what that estimate means (`Hint.lines()` words it). The bot is given a view of the
        person's seat, never the session's state."""
        if self.picks:
            raise PlayError("a hint is for the whole choice: 'undo' takes back your picks so "
                            "far, then ask again")
        bot = make_bot(self.hint_spec)
        view = self.state.resample_from_infostate(self.seat, self.resample_rng.randrange(1 << 62))
        numbers = {c.action: c.number for c in self.choices()}
        if hasattr(bot, "analyse"):
            guard = StateGuard(self.state)
            result = bot.analyse(view)
            if not guard.intact(self.state):
                raise StateTampered("the hint bot changed the game's own state (bots only get "
                                    "views)")
            action = int(result["action"])
            rows = [{"action": r["action"], "number": numbers.get(r["action"]),
                     "text": self.state.action_to_string(r["action"]),
                     "visits": r["visits"], "value": r["mean"]} for r in result["root"][:top]]
            return Hint(action, self.state.action_to_string(action), numbers.get(action),
                        result.get("seconds"), result.get("iterations"),
                        meaning(search_config(bot), self.state.num_players()), rows)
        action = self._ask(None, bot.step, view)
        return Hint(action, self.state.action_to_string(action), numbers.get(action))

    # -- narration ------------------------------------------------------------------------------

    def _narrator(self, upto: int | None = None) -> Narrator:
        """The narrator, fed every step before move `upto` (default: so far) silently when it
        is first needed or after an undo, so that it knows the month or round."""
        if self.narrator is None:
            self.narrator = narrator_for(self.state.game.name)
            self.narrator.setup(seen_events(self.state, -1, self.seat))
            for i in range(self.state.move_number() if upto is None else upto):
                self.narrator.step(seen_events(self.state, i, self.seat))
        return self.narrator

    def narrate_setup(self) -> list[Line]:
        """The lines of the setup (for a new game, before its first decision)."""
        self.narrator = narrator_for(self.state.game.name)
        lines = self.narrator.setup(seen_events(self.state, -1, self.seat))
        for i in range(self.state.move_number()):
            lines += self.narrator.step(seen_events(self.state, i, self.seat))
        return lines

    def narrate_last(self) -> list[Line]:
        """The lines of the automatic steps that followed the last decision, as the person
        saw them."""
        narrator = self._narrator()
        if self.state.move_number() == 0:
            return []
        return narrator.step(seen_events(self.state, self.state.move_number() - 1, self.seat))

    def narrate_moves(self, moves: list[LoggedMove]) -> list[Line]:
        """The person's moves `moves` (the last ones played, as `choose` returns them), each
        followed by the automatic steps after it."""
        first = self.state.move_number() - len(moves)
        narrator = self._narrator(first)
        lines: list[Line] = []
        for i, m in enumerate(moves):
            lines.append(Line("move", f"you: {m.text}"))
            lines += narrator.step(seen_events(self.state, first + i, self.seat))
        return lines

    def bot_name(self, player: int) -> str:
        """The name of the bot at seat `player` on screen: "strong", "level 3 (search 30)"
        (its spec stays in `specs`)."""
        return display_name(self.state.game.name, self.specs[player])

    def mover_name(self, player: int) -> str:
        """'you' for the person, 'P1 (strong)' or 'P1 level 3 (search 30)' for a bot."""
        return "you" if player == self.seat else seat_name(player, self.bot_name(player))

    def story(self, since_my_last_turn: bool = True, thinking: bool = False) -> list[Line]:
        """The narration of the game as the person saw it: the moves (with the AI's own
        estimates if `thinking`) and the events between, since the person's last decision or
        from the start."""
        start = 0
        if since_my_last_turn:
            start = self.decisions[-1] if self.decisions else 0
        moves = [Move(m.player, m.text,
                      f"P{m.player} {m.thinking}" if thinking and m.thinking else None)
                 for m in self.log]
        return story(self.state, moves, start=start, seat=self.seat, mover=self.mover_name,
                     setup=not since_my_last_turn or not self.decisions)

    def moves_since_my_last_turn(self) -> list[LoggedMove]:
        start = self.decisions[-1] + 1 if self.decisions else 0
        return self.log[start:]

    # -- the end --------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Final scores by source, the ranking and (solo games) whether the goal was met."""
        st = self.state
        out: dict[str, Any] = {"scores": st.scores(), "ranks": st.ranks(), "returns": st.returns()}
        if hasattr(st, "final_breakdown"):
            out["breakdown"] = st.final_breakdown()
        elif hasattr(st, "final_summary"):
            final = st.final_summary()
            out["breakdown"] = [dict(src, total=total) for src, total
                                in zip(final["by_source"], final["reputation"])]
            if "goal" in final:
                out["solo"] = (f"goal {final['goal']} reputation: "
                               + ("reached" if final["goal_reached"] else "not reached"))
        return out

    # -- files ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "record": self.state.to_record(),
                "seat": self.seat, "specs": self.specs, "hint": self.hint_spec,
                "decisions": self.decisions,
                "move_seconds": [m.seconds for m in self.log]}

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the game to `path` (through a temporary file, so that a failed write never
        leaves half a save). Any problem (a folder, no permission, a full disk) is a PlayError
        with a message: the caller tells the person and the game goes on."""
        p = Path(path).expanduser()
        if p.is_dir():
            raise PlayError(f"cannot save to {p}: it is a folder (give a file name)")
        tmp = p.with_suffix(p.suffix + ".tmp")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self.to_dict()))
            tmp.replace(p)
        except OSError as e:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise PlayError(f"cannot save to {p}: {e.strerror or e}") from None
        return p

    def untrusted_specs(self) -> list[str]:
        """The bot specs of this game that would run code of the user's (`python:...`,
        `exec:...`): a saved game naming one is only loaded with the person's consent
        (`--trust`)."""
        return [s for s in [*self.specs, self.hint_spec] if is_code_spec(s)]

    @staticmethod
    def load(path: str | os.PathLike[str], trust: bool = False) -> "PlaySession":
        """The game saved at `path`, checked: a clear PlayError for a file that is not a save,
        a missing or malformed field, unknown game options, a seat out of range, or (without
        `trust`) a bot spec that would run Python code named in the file. A bare file name
        not in the working folder is looked for in the saves folder (`find_save`)."""
        p = find_save(path)
        try:
            with open(p, "rb") as f:
                raw = f.read(MAX_SAVE_BYTES + 1)
            data = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_SAVE_BYTES else None
        except FileNotFoundError:
            raise PlayError(f"no saved game at {p}") from None
        except IsADirectoryError:
            raise PlayError(f"{p} is a folder, not a saved game") from None
        except RecursionError:
            raise PlayError(f"{p} is not a saved tianti game: its JSON is nested too "
                            f"deep") from None
        except (OSError, ValueError) as e:
            raise PlayError(f"{p} is not a saved tianti game: {printable(e, 120)}") from None
        if len(raw) > MAX_SAVE_BYTES:
            raise PlayError(f"{p} is not a saved tianti game: it is larger than "
                            f"{MAX_SAVE_BYTES >> 20} MiB")
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise PlayError(f"{p} is not a saved tianti game (format {SAVE_FORMAT!r} expected)")
        missing = [k for k in ("record", "seat", "specs") if k not in data]
        if missing:
            raise PlayError(f"{p} does not load: it has no {' and no '.join(map(repr, missing))} "
                            "field (a save of `tianti play` holds the game record, your seat "
                            "and the bots)")
        record = data["record"]
        if not isinstance(record, dict):
            raise PlayError(f"{p} does not load: its 'record' is not a game record")
        seat, specs, hint = data["seat"], data["specs"], data.get("hint", "strong")
        if (type(seat) is not int or not isinstance(specs, list)
                or not all(isinstance(s, str) for s in specs) or not isinstance(hint, str)):
            raise PlayError(f"{p} does not load: its 'seat' must be a number and its 'specs' "
                            f"and 'hint' bot specs")
        decisions, seconds = data.get("decisions", []), data.get("move_seconds") or []
        if not isinstance(decisions, list) or not all(type(d) is int for d in decisions):
            raise PlayError(f"{p} does not load: its 'decisions' must be a list of move numbers")
        if not isinstance(seconds, list) or not all(
                type(t) in (int, float) and math.isfinite(t) for t in seconds):
            raise PlayError(f"{p} does not load: its 'move_seconds' must be a list of seconds")
        try:
            state = State.from_record(record)
        except TiantiError as e:
            raise PlayError(f"{p} does not load: {printable(e, 200)}") from None
        except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as e:
            what = f"no {e.args[0]!r} field" if isinstance(e, KeyError) else str(e)
            raise PlayError(f"{p} does not load: its game record is broken "
                            f"({printable(what, 120)})") from None
        n = state.num_players()
        if not 0 <= seat < n:
            raise PlayError(f"{p} does not load: seat {seat} is out of range for a "
                            f"{n}-player game (0..{n - 1})")
        if len(specs) != n or specs[seat] != HUMAN:
            raise PlayError(f"{p} does not load: its {len(specs)} seats do not match the "
                            f"{n}-player game (seat {seat} must be {HUMAN!r})")
        session = PlaySession(state, seat, specs, hint)
        untrusted = session.untrusted_specs()
        if untrusted and not trust:
            shown = printable(", ".join(untrusted), 160)
            raise PlayError(f"{p} names bots that run code ({shown}); load it with --trust "
                            "only if you trust the file")
        history = state.history()
        moves = len(record["actions"]) if isinstance(record.get("actions"), list) else len(history)
        if not all(0 <= d < moves for d in decisions):
            raise PlayError(f"{p} does not load: its 'decisions' name moves the game does not "
                            f"have (it has {moves})")
        session.decisions = decisions
        if isinstance(record.get("actions"), list) and len(record["actions"]) != len(history):
            # A record of an older version whose rules took some decisions by themselves: they
            # are in the history now, so the save's move numbers move past them.
            at = _old_moves(record["actions"], history)
            session.decisions = [at[d] for d in session.decisions if 0 <= d < len(at)]
            old_seconds, seconds = seconds, [0.0] * len(history)
            for i, t in enumerate(old_seconds[:len(record["actions"])]):
                seconds[at[i]] = t
        replay = load_game(state.game.name, **state.game.options).new_initial_state(state.seed)
        for i, a in enumerate(state.history()):
            session.log.append(LoggedMove(i, replay.current_player(), replay.action_to_string(a),
                                          seconds[i] if i < len(seconds) else 0.0))
            replay.apply_action(a)
        session._make_bots()
        return session


def _contains(whole: tuple[int, ...], part: list[int]) -> bool:
    """Whether the multiset `part` is within the multiset `whole`."""
    rest = list(whole)
    for a in part:
        if a not in rest:
            return False
        rest.remove(a)
    return True


def _minus(whole: tuple[int, ...], part: list[int]) -> list[int]:
    """The multiset `whole` without `part` (which it contains)."""
    rest = list(whole)
    for a in part:
        rest.remove(a)
    return rest


def _old_moves(old: list[int], history: list[int]) -> list[int]:
    """Where each move of an older record (and its end) lies in the history it replayed to,
    which has the decisions the older rules took by themselves between them."""
    at, i = [], 0
    for j, a in enumerate(history):
        if i < len(old) and old[i] == a:
            at.append(j)
            i += 1
    at.append(len(history))
    return at
