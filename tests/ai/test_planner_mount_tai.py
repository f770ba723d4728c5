"""The `planner` bot (ai/planner): Mount Tai's standard plan by rules, no search (issue 49).

It must answer every decision the game can ask (all table sizes, solo, the challenges, the Grand
Tutors), from its seat's view alone; follow the plan (a Sacrifice Official at once, the feasts'
arithmetic, resources spent by the end); beat `random` outright and hold its own against
`heuristic` at a full table. The spec `planner(seed=..., epsilon=...)` parses like
`heuristic`'s.
"""
from __future__ import annotations

import statistics
from typing import Any

import pytest

import engine
from ai.bots import BotSpecError, describe_bots, make_bot
from ai.match import play_game
from ai.planner import NoPlannerError, PlannerBot, planner_module
from ai.planner import mount_tai as plan
from engine.mount_tai import data


def _play(players: int, specs: list[str], seed: int, **options: Any) -> Any:
    """A complete game of the specs (seat i plays specs[i]); the final state."""
    if options.get("solo") or options.get("challenge"):
        state = engine.load_game("mount-tai", **options).new_initial_state(seed)
    else:
        state = engine.load_game("mount-tai", players=players, **options).new_initial_state(seed)
    play_game(state, [make_bot(s) for s in specs], resample_seed=seed)
    assert state.is_terminal()
    return state


# -- the spec ----------------------------------------------------------------------------------


def test_the_spec_makes_a_planner_with_its_options() -> None:
    bot = make_bot("planner(seed=3,epsilon=0.25)")
    assert isinstance(bot, PlannerBot)
    assert (bot.seed, bot.epsilon) == (3, 0.25)
    assert isinstance(make_bot("planner"), PlannerBot)
    listed = {b["name"]: b for b in describe_bots()}
    assert set(listed["planner"]["options"]) == {"seed", "epsilon"}
    assert "no search" in listed["planner"]["help"]


@pytest.mark.parametrize("spec, words", [
    ("planner(depth=2)", "has no option 'depth'"),
    ("planner(epsilon=2)", "epsilon must be between 0 and 1"),
    ("planner(seed=x)", "must be int"),
])
def test_a_bad_planner_spec_is_refused_clearly(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        make_bot(spec)


def test_a_game_without_a_planner_says_so() -> None:
    state = engine.load_game("fusion").new_initial_state(1)
    with pytest.raises(NoPlannerError, match="no planner for game 'fusion'"):
        PlannerBot(seed=1).step(state)


def test_a_planner_module_that_is_missing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import ai.planner

    monkeypatch.setitem(ai.planner.PLANNERS, "mount-tai", "ai.planner.no_such_rules")
    with pytest.raises(NoPlannerError, match="its rules .* are not installed"):
        planner_module("mount-tai")


# -- every decision, legally -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_complete_games_legally(players: int) -> None:
    for seed in range(20):
        specs = [f"planner(seed={seed})"] * players
        state = _play(players, specs, seed)
        assert len(state.returns()) == players


@pytest.mark.parametrize("options", [
    {"solo": True}, *({"challenge": k} for k in range(1, 9)),
    {"players": 4, "grand_tutors": True}, {"players": 3, "grand_tutors": True},
    {"players": 2, "promos": False}, {"players": 4, "tidy_up_effect": True},
])
def test_it_answers_every_kind_of_game(options: dict[str, Any]) -> None:
    options = dict(options)
    players = options.pop("players", 1)
    for seed in range(5):
        _play(players, ["planner(seed=1)"] * players, seed, **options)


def test_with_epsilon_one_it_still_plays_legally() -> None:
    _play(4, ["planner(seed=1,epsilon=1)", "planner(seed=2,epsilon=0.5)", "heuristic",
              "random(seed=3)"], 4)


def test_its_choice_depends_on_its_view_only() -> None:
    """Two determinizations of the same seat's view (different hidden cards and supply order)
    get the same decision: the rules read nothing hidden."""
    state = engine.load_game("mount-tai", players=4).new_initial_state(7)
    bot = make_bot("heuristic(seed=1)")
    checked = 0
    while not state.is_terminal() and checked < 60:
        if len(state.legal_actions()) > 1:
            seat = state.current_player()
            views = [state.resample_from_infostate(seat, s) for s in (1, 2)]
            choices = [PlannerBot(seed=5).step(v) for v in views]
            assert choices[0] == choices[1], state.decision_name()
            checked += 1
        state.apply_action(bot.step(state))
    assert checked == 60


# -- the plan -------------------------------------------------------------------------------------


def test_it_takes_a_sacrifice_official_on_offer_at_once() -> None:
    for seed in range(6):
        state = engine.load_game("mount-tai", players=4).new_initial_state(seed)
        snap = state.snapshot(hidden=False)
        first = snap["order"][0]
        assert snap["piles"][plan.BLUE][0] == data.T_SACRIFICE
        bots = [make_bot("heuristic(seed=1)") for _ in range(4)]
        bots[first] = make_bot("planner(seed=1)")
        while state.snapshot(hidden=False)["round"] == 0:
            state.apply_action(bots[state.current_player()].step(state))
        talents = state.snapshot(hidden=False)["seats"][first]["talents"]
        assert (data.T_SACRIFICE, 1) in talents, seed


def _seat_with(grain: int, wine: int, talents: list[tuple[str, int]] = (),
               ascended: bool = False) -> plan.Seat:
    state = engine.load_game("mount-tai", players=4).new_initial_state(1)
    cells = {(3, 3): "ascent"} if ascended else None
    state._debug_set_player(state.current_player(), grain=grain, wine=wine,
                            talents=list(talents), cells=cells)
    return plan._seat(state)


def test_feasts_are_counted_as_the_rules_pay_them() -> None:
    # tile 25 (tier III: brewing and celebration): brew 3, then celebrate
    v = _seat_with(grain=6, wine=0)
    assert plan.feast_gain(v, 25) == (6, [plan.BREW, plan.CEL])
    assert plan.feast_gain(v, 25, grain=5)[0] == 0  # 5 grain cannot make 3 + 3
    # the Sacrifice Official's level 1 adds 3 to a celebration
    v = _seat_with(grain=3, wine=3, talents=[("sacrifice official", 1)])
    assert plan.feast_gain(v, 8) == (9, [plan.CEL])
    # tile 29 (sacrifice and celebration): the sacrifice needs the ascent
    v = _seat_with(grain=5, wine=4, talents=[("sacrifice official", 2)])
    assert plan.feast_gain(v, 29)[0] == 9
    v = _seat_with(grain=5, wine=4, talents=[("sacrifice official", 2)], ascended=True)
    assert plan.feast_gain(v, 29)[0] == 9 + 8
    # a tier II tile executes one effect only: tile 13 is a sacrifice or a reclamation
    v = _seat_with(grain=2, wine=1, ascended=True)
    assert plan.feast_gain(v, 13) == (6, [plan.SAC])


def _rotated(a: str, other: str, deals: int) -> list[dict[str, Any]]:
    """A plays every seat of each 4-player deal against three `other`: each game's seats'
    reputation, grain, money and A's seat and win (seeded bots: the same games every run)."""
    out = []
    for deal in range(deals):
        for seat in range(4):
            specs = [f"{other}(seed={deal * 4 + i})" for i in range(4)]
            specs[seat] = f"{a}(seed={deal})"
            state = _play(4, specs, 1000 + deal)
            seats = state.snapshot(hidden=False)["seats"]
            out.append({"seat": seat, "win": state.returns()[seat], "seats": seats})
    return out


@pytest.fixture(scope="module")
def against_heuristic() -> list[dict[str, Any]]:
    return _rotated("planner", "heuristic", 10)


def test_it_beats_random_outright() -> None:
    games = _rotated("planner", "random", 5)
    assert sum(g["win"] for g in games) >= 18  # of 20 (it won 40 of 40 in docs/PLANNER.md)


def test_it_holds_its_own_against_heuristic(against_heuristic: list[dict[str, Any]]) -> None:
    """At a full table the planner is about as strong as `heuristic` (27% of 1,000 games, fair
    share 25%, docs/PLANNER.md): over these 40 it wins at least its share's lower range and
    its reputation is not clearly below theirs."""
    wins = sum(g["win"] for g in against_heuristic)
    assert wins >= 6, wins  # 15% of 40
    mine = statistics.fmean(g["seats"][g["seat"]]["reputation"] for g in against_heuristic)
    theirs = statistics.fmean(s["reputation"] for g in against_heuristic
                              for i, s in enumerate(g["seats"]) if i != g["seat"])
    assert mine > theirs - 3.0, (mine, theirs)


def test_it_ends_with_less_grain_and_money_than_heuristic(
        against_heuristic: list[dict[str, Any]]) -> None:
    def left(s: dict[str, Any]) -> int:
        return s["grain"] + s["money"]

    mine = statistics.fmean(left(g["seats"][g["seat"]]) for g in against_heuristic)
    theirs = statistics.fmean(left(s) for g in against_heuristic
                              for i, s in enumerate(g["seats"]) if i != g["seat"])
    assert mine < theirs, (mine, theirs)
