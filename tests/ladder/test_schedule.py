"""The tournament plan: balanced seatings and duplicate deals."""
from __future__ import annotations

import itertools
from collections import Counter

import pytest

import engine
from ladder.tournament.schedule import (ScheduleError, TournamentSpec, check, count_seatings,
                                        plan, seatings)


def _spec(n_bots: int, players: int, deals: int = 3, mode: str = "permutations",
          seed: int = 11) -> TournamentSpec:
    game = engine.load_game("dragon", players=players)
    bots = tuple((f"b{i}", "random") for i in range(n_bots))
    return TournamentSpec("dragon", game.options, bots, deals, mode, seed)


@pytest.mark.parametrize("n_bots,players,mode", [
    (2, 2, "permutations"), (3, 3, "permutations"), (4, 4, "permutations"),
    (4, 4, "rotations"), (5, 3, "permutations"), (5, 3, "rotations"), (6, 4, "rotations"),
    (5, 2, "permutations"),
])
def test_every_bot_sits_in_every_seat_equally_often(n_bots: int, players: int,
                                                    mode: str) -> None:
    tables = seatings(n_bots, players, mode)
    assert len(tables) == count_seatings(n_bots, players, mode)
    assert len(set(tables)) == len(tables)
    seat_counts = Counter((bot, seat) for t in tables for seat, bot in enumerate(t))
    assert len(seat_counts) == n_bots * players  # every bot in every seat
    assert len(set(seat_counts.values())) == 1  # ... equally often
    games = Counter(bot for t in tables for bot in t)
    assert len(set(games.values())) == 1 and len(games) == n_bots
    meetings = Counter(frozenset(p) for t in tables for p in itertools.combinations(t, 2))
    assert len(meetings) == n_bots * (n_bots - 1) // 2  # every pair meets ...
    assert len(set(meetings.values())) == 1  # ... equally often
    for t in tables:
        assert len(set(t)) == players  # nobody sits twice at a table


def test_permutations_with_as_many_bots_as_seats_are_all_orders() -> None:
    assert sorted(seatings(3, 3)) == sorted(itertools.permutations(range(3)))
    assert sorted(seatings(3, 3, "rotations")) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_all_seatings_of_a_deal_share_its_seed_and_deals_differ() -> None:
    spec = _spec(3, 3, deals=4)
    tasks = plan(spec, run_id=7)
    assert len(tasks) == 4 * 6 == check(spec)
    by_deal: dict[int, set[int]] = {}
    for t in tasks:
        by_deal.setdefault(t.deal, set()).add(t.seed)
        assert t.run_id == 7
    assert all(len(seeds) == 1 for seeds in by_deal.values())
    deal_seeds = [next(iter(s)) for s in by_deal.values()]
    assert len(set(deal_seeds)) == 4
    # the same deal dealt the same way from every seating: identical initial states
    game = engine.load_game("dragon", players=3)
    deal0 = [t for t in tasks if t.deal == 0]
    first = game.new_initial_state(deal0[0].seed)
    assert all(game.new_initial_state(t.seed) == first for t in deal0)
    assert len({t.resample_seed for t in deal0}) == 1
    # each seating of a deal puts the bots in a different order
    assert len({t.bots for t in deal0}) == 6


def test_the_plan_is_a_function_of_the_spec() -> None:
    a, b = plan(_spec(4, 3, seed=5)), plan(_spec(4, 3, seed=5))
    assert a == b
    c = plan(_spec(4, 3, seed=6))
    assert [t.seed for t in a] != [t.seed for t in c]
    assert [t.bots for t in a] == [t.bots for t in c]


def test_shapes_that_cannot_be_planned_are_clear_errors() -> None:
    with pytest.raises(ScheduleError, match="2 bots for a 3-player game: name at least 3"):
        check(_spec(2, 3))
    with pytest.raises(ScheduleError, match="deals must be at least 1, got 0"):
        check(_spec(3, 3, deals=0))
    with pytest.raises(ScheduleError, match="seating mode 'all' is unknown; allowed: "
                                            "permutations, rotations"):
        check(_spec(3, 3, mode="all"))
    spec = _spec(3, 3)
    twice = TournamentSpec(spec.game, spec.options, (("x", "random"),) * 3, 1)
    with pytest.raises(ScheduleError, match="repeated: x"):
        check(twice)
