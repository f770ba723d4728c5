"""Hidden information is sacred (issue 10, DESIGN.md "Events and views"): every call into a bot
gets a view of its own seat or a copy, never the state the referee plays on; nothing a bot does
to what it is given changes the game, and a bot that reaches the referee's state anyway loses."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from ai.bots import make_bot
from engine.core.errors import IllegalActionError
from engine.core.state import State
from ai.match import MoveEvent, Referee, StateTampered, play_game
from ladder.table.play import PlaySession
from tests.ladder import bad_bots
from tests.ladder.helpers import BOTS, cli, games

GAMES = ["dragon", "mount-tai"]


def _state(game: str = "dragon", seed: int = 4) -> State:
    return engine.load_game(game, players=3).new_initial_state(seed)


# -- a whole tournament: a vandal plays exactly the games its polite twin plays -----------------

def _tournament(db: Path, game: str, factory: str) -> list[dict[str, Any]]:
    """A small tournament (2 deals, rotations, 2 local workers) with the bot named `twin`
    played by `factory`; its games as comparable dicts (timings left out)."""
    result = cli("tournament", "run", "--db", db, "--game", game, "--players", 3,
                 "-b", f"twin={BOTS}{factory}", "-b", "heuristic", "-b", "random",
                 "--deals", 2, "--seatings", "rotations", "--seed", 11, "--workers", 2,
                 "--no-progress")
    assert result.exit_code == 0, result.output
    assert "6 of 6 games stored" in result.output, result.output
    out = []
    for g in sorted(games(db), key=lambda g: (g.deal, g.seating)):
        state = State.from_record(g.record())
        assert state.is_terminal()
        assert state.scores() == [s["score"] for s in g.seats]
        assert state.ranks() == [s["game_rank"] for s in g.seats]
        assert g.options == engine.load_game(game, players=3).options
        out.append({
            "deal": g.deal, "seating": g.seating, "seed": g.seed,
            "resample_seed": g.resample_seed, "options": g.options, "actions": g.actions,
            "record": g.record(),
            "seats": [{k: s[k] for k in ("seat", "bot", "score", "rank", "game_rank", "fault",
                                         "moves")} for s in g.seats],
        })
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_vandalising_its_views_plays_the_same_tournament_as_its_polite_twin(
        tmp_path: Path, game: str) -> None:
    polite = _tournament(tmp_path / "polite.db", game, "polite")
    vandal = _tournament(tmp_path / "vandal.db", game, "mutating")
    assert all(s["fault"] is None for g in polite for s in g["seats"])
    assert vandal == polite


# -- play_game: what each call gets -------------------------------------------------------------

class Spy:
    """Checks, at every call, that what it is given is not the referee's state, that changing
    it leaves the referee's state as it was, and that an informed view is of its own seat."""

    def __init__(self, referee_state: State, seat: int) -> None:
        self.referee_state = referee_state
        self.seat = seat
        self.steps = 0
        self.informs = 0

    def _check(self, given: Any) -> None:
        truth = self.referee_state
        assert given is not truth
        # a view of this bot's own seat: it knows there what the seat knows, no more, no less
        assert given.information_state_string(self.seat) == \
            truth.information_state_string(self.seat)
        before, record = truth.raw_bytes(), truth.to_record()
        bad_bots.vandalise(given)
        assert truth.raw_bytes() == before
        assert truth.history() == record["actions"]

    def step(self, view: Any) -> int:
        self.steps += 1
        action = view.legal_actions()[0]
        self._check(view)
        return action

    def inform_action(self, view: Any, player: int, action: int) -> None:
        self.informs += 1
        assert type(player) is int and type(action) is int
        assert self.referee_state.history()[-1] == action
        self._check(view)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("refereed", [False, True])
def test_step_and_inform_action_get_views_and_changing_them_changes_nothing(
        game: str, refereed: bool) -> None:
    state = _state(game)
    options = dict(state.game.options)
    spies = [Spy(state, seat) for seat in range(3)]
    referee = Referee(fallback_seed=1) if refereed else None
    result = play_game(state, spies, resample_seed=5, referee=referee)
    assert not result.faults  # (a failed check inside a refereed call would be a fault)
    assert state.is_terminal()
    assert sum(s.steps for s in spies) == len(result.actions)
    assert all(s.informs == len(result.actions) for s in spies)
    # the views' game object was vandalised too: the game and its record were not
    assert type(state.game) is type(engine.load_game(game)) and state.game.options == options
    assert result.record["options"] == options
    assert State.from_record(result.record).scores() == result.scores
    polite = play_game(_state(game), [bad_bots.Polite() for _ in range(3)], resample_seed=5)
    assert polite.actions == result.actions and polite.scores == result.scores


def test_on_move_gets_a_copy_of_the_state_not_the_referees() -> None:
    state = _state()
    seen: list[bool] = []

    def vandal(ev: MoveEvent) -> None:
        seen.append(ev.state is state)
        assert ev.state.raw_bytes() == state.raw_bytes()
        bad_bots.vandalise(ev.state)

    result = play_game(state, [bad_bots.First() for _ in range(3)], on_move=vandal)
    quiet = play_game(_state(), [bad_bots.First() for _ in range(3)])
    assert seen and not any(seen)
    assert result.actions == quiet.actions and result.scores == quiet.scores
    assert result.record == quiet.record


def test_inform_views_do_not_shift_the_step_views() -> None:
    """Adding inform_action to a bot draws its views from a stream of their own: the step
    views (and so recorded tournaments) stay what they were."""
    class Recorder:
        def __init__(self, log: list[bytes]) -> None:
            self.log = log

        def step(self, view: State) -> int:
            self.log.append(view.raw_bytes())
            return view.legal_actions()[0]

    class Informed(Recorder):
        def inform_action(self, view: State, player: int, action: int) -> None:
            pass

    plain: list[bytes] = []
    informed: list[bytes] = []
    play_game(_state(), [Recorder(plain) for _ in range(3)], resample_seed=8)
    play_game(_state(), [Informed(informed) for _ in range(3)], resample_seed=8)
    assert plain == informed


# -- what a bot answers -------------------------------------------------------------------------

@pytest.mark.parametrize("refereed", [False, True])
def test_an_answer_is_read_once_and_the_value_checked_is_the_value_played(refereed: bool) -> None:
    """An answer whose __index__ gives a legal action once and an illegal one afterwards is
    played as the legal action (and does not crash the referee)."""
    two_faced = bad_bots.TwoFaced()
    referee = Referee(fallback_seed=1) if refereed else None
    result = play_game(_state(), [two_faced, bad_bots.First(), bad_bots.First()],
                       resample_seed=2, referee=referee)
    assert not result.faults
    mine = [a for a, m in zip(result.actions, result.movers) if m == 0]
    assert mine == two_faced.given
    assert State.from_record(result.record).scores() == result.scores


def test_an_answer_illegal_when_checked_is_a_fault_whatever_it_says_later() -> None:
    result = play_game(_state(), [bad_bots.TwoFaced(illegal_first=True), bad_bots.First(),
                                  bad_bots.First()], referee=Referee(fallback_seed=1))
    assert [(f.seat, f.move, f.kind) for f in result.faults] == [(0, 0, "illegal")]
    assert "is not legal for player 0" in result.faults[0].message
    assert State.from_record(result.record).scores() == result.scores


def test_a_bool_or_a_non_integer_answer_is_illegal() -> None:
    class Answers:
        def __init__(self, value: Any) -> None:
            self.value = value

        def step(self, view: State) -> Any:
            return self.value

    for value, shown in ((True, "True"), ("3", "'3'"), (None, "None")):
        result = play_game(_state(), [Answers(value), bad_bots.First(), bad_bots.First()],
                           referee=Referee(fallback_seed=1))
        assert [(f.seat, f.kind) for f in result.faults] == [(0, "illegal")]
        assert f"returned {shown}, which is not an integer action" in result.faults[0].message
        with pytest.raises(IllegalActionError, match="not an action"):
            play_game(_state(), [Answers(value), bad_bots.First(), bad_bots.First()])


# -- a bot that reaches the referee's state through the process -------------------------------

def test_a_bot_changing_the_referees_state_loses_and_the_true_game_goes_on() -> None:
    tamperer = bad_bots.Tamperer(after=3)
    state = _state()
    result = play_game(state, [tamperer, bad_bots.First(), bad_bots.First()],
                       resample_seed=3, referee=Referee(fallback_seed=1))
    assert tamperer.reached
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "error")]
    assert "changed the referee's own game state during step()" in result.faults[0].message
    assert result.ranks[0] == 2
    assert 999 not in result.scores
    replayed = State.from_record(result.record)
    assert replayed.is_terminal() and replayed.scores() == result.scores
    assert result.actions == replayed.history()


def test_without_a_referee_changing_its_state_raises() -> None:
    with pytest.raises(StateTampered, match="seat 0 changed the referee's own game state"):
        play_game(_state(), [bad_bots.Tamperer(after=3), bad_bots.First(), bad_bots.First()])


# -- tianti play and tianti watch ---------------------------------------------------------------

def test_play_session_bots_and_hints_get_views(monkeypatch: pytest.MonkeyPatch) -> None:
    session = PlaySession.new("dragon", {"players": 3}, seat=0, opponents=["random"], seed=6)
    given: list[tuple[bool, bool]] = []  # (the view is the session's state, it changed)

    class Watcher:
        def step(self, view: Any) -> int:
            before = session.state.raw_bytes()
            action = view.legal_actions()[0]
            bad_bots.vandalise(view)
            given.append((view is session.state, session.state.raw_bytes() != before))
            return action

    session.bots = {1: Watcher(), 2: Watcher()}
    monkeypatch.setattr("ladder.table.play.make_bot", lambda spec: Watcher())
    for _ in range(3):
        session.run_bots()
        if session.state.is_terminal():
            break
        hint = session.hint()
        assert hint.action in session.state.legal_actions()
        session.choose(session.state.legal_actions()[0])
    assert len(given) >= 4 and not any(is_state or changed for is_state, changed in given)
    assert State.from_record(session.state.to_record()).raw_bytes() == session.state.raw_bytes()
    assert session.state.game.options == engine.load_game("dragon", players=3).options


@pytest.mark.parametrize("game", GAMES)
def test_watch_shows_the_same_game_whatever_the_bots_do_to_their_views(game: str) -> None:
    shown = {}
    for factory in ("polite", "mutating"):
        result = cli("watch", game, "--players", 3, "--seed", 9, "-b", f"{BOTS}{factory}",
                     "--no-board")
        assert result.exit_code == 0, result.output
        shown[factory] = result.output.replace(factory, "BOT")
    assert shown["mutating"] == shown["polite"]


# -- tianti's own bots: trusted code, no state guard, still views -------------------------------

class _NoGuard:
    def __init__(self, state: Any) -> None:
        raise AssertionError("a game of trusted bots made a StateGuard")


def test_trusted_bots_play_without_the_state_guard_but_still_get_views(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`trusted=True` (every bot tianti's own) skips the state guard's snapshot and checks, and
    nothing else: the bots still get views of their own seat, never the referee's state, and
    the game is the very game the guarded referee plays."""
    specs = ["random(seed=1)", "heuristic(seed=3)", "random(seed=2)"]
    guarded = play_game(_state(seed=8), [make_bot(s) for s in specs], resample_seed=5,
                        referee=Referee(fallback_seed=1))
    state = _state(seed=8)
    given: list[tuple[bool, bool, int | None]] = []

    class Watched:
        def __init__(self, spec: str) -> None:
            self.bot = make_bot(spec)

        def step(self, view: State) -> int:
            given.append((view is state, view.is_view(), view.viewer))
            return self.bot.step(view)

    monkeypatch.setattr("ai.match.StateGuard", _NoGuard)
    trusted = play_game(state, [Watched(s) for s in specs], resample_seed=5,
                        referee=Referee(fallback_seed=1, trusted=True), trusted=True)
    assert trusted.actions == guarded.actions and trusted.scores == guarded.scores
    assert not trusted.faults
    assert len(given) == len(trusted.actions)
    assert all(not is_state and is_view for is_state, is_view, _ in given)
    assert [viewer for _, _, viewer in given] == trusted.movers
    with pytest.raises(AssertionError, match="made a StateGuard"):  # the default still guards
        play_game(_state(seed=8), [make_bot("random")] * 3)


def test_a_tournament_game_guards_the_referee_only_when_a_users_bot_plays_in_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's game where no user's code runs in the worker (tianti's own bots, a `python:`
    bot in a process of its own) is played as trusted (no state guard); one with an `inproc:`
    bot (a user's code inside, by request) keeps the guard."""
    from ladder.tournament.schedule import GameTask
    from ladder.tournament.worker import play_task

    import ai.match

    made: list[int] = []
    real = ai.match.StateGuard

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, state: Any) -> None:
            made.append(1)
            super().__init__(state)

    monkeypatch.setattr("ai.match.StateGuard", Counted)
    for first, guarded in (("random", False), (f"{BOTS}polite", False),
                           (f"inproc:{BOTS}polite", True)):
        made.clear()
        bots = (("a", first), ("b", "heuristic"), ("c", "random"))
        outcome = play_task(GameTask(1, 0, 0, "dragon", {"players": 3}, 21, 5, bots, None))
        assert made == ([1] if guarded else []), first
        assert not outcome.faults, first
