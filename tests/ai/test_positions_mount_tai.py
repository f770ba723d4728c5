"""Mount Tai positions where one move is clearly right; the strong bot must find it in at least 9
of 10 seeds. Also the contract of the game knowledge the search uses (move prior, evaluation).

Each position is built on a dry mountain (no water, no tribes unless the position adds some)
with the test hooks; seat 0 decides. Event tile ids: yellow +2 money 1, green +2 grain 9,
blue +1 reputation 18, red exchange 31.
"""
from __future__ import annotations

import random
from typing import Callable

import pytest

from tests.ai.clear_moves import assert_found
from engine.mount_tai import data
from tests.mount_tai.helpers import act, cell, effect, new_game, policy_position, seat, use_tile

SPEC = "strong(iterations=3000,seed={seed})"
YELLOW_2, GREEN_2, BLUE_1, EXCHANGE = 1, 9, 18, 31


def position(rnd: int, players: int = 2, praises: dict | None = None, bonus=None,
             options: dict | None = None, **player):
    """Seat 0's policy decision in round `rnd` (0-15), with its holdings set (`options`: game
    options beyond the defaults)."""
    s = policy_position(players, **({"solo": True} if players == 1 else {}), **(options or {}))
    s._debug_set_board(round=rnd, praises=praises or {},
                       season_bonus=list(bonus or ("wine", "wine", "wine", "wine")))
    s._debug_set_player(0, **player)
    s._debug_policy(0)
    return s


def event_phase(rnd: int, tiles: list, praises: dict, bonus, **player):
    """Round `rnd`'s event phase with seat 0 first to choose among `tiles` (per colour space)."""
    s = position(rnd, praises=praises, bonus=bonus, **player)
    s._debug_set_board(events={rnd % 8: tiles}, order=[0, 1])
    s._debug_run_from("events")
    assert s.current_player() == 0
    return s


def farmland_next_to_water():
    """Reclamation with 2 money: the settlement next to water is free, the other costs both."""
    s = position(2, money=2, cells={(0, 0): "town", (0, 1): "settlement", (1, 0): "settlement"})
    s._debug_set_board(water={(0, cell(0, 2))})
    use_tile(s, 0, 2)
    s.apply_action(effect("farmland reclamation"))
    assert s.next_to_water(0, cell(0, 1)) and not s.next_to_water(0, cell(1, 0))
    return s, {act("reclaim", cell(0, 1))}


def town_away_from_water():
    """Two settlements, one next to water: the town goes on the dry one (the other can become
    farmland for free)."""
    s = position(2, money=3, cells={(0, 0): "town", (0, 1): "settlement", (1, 0): "settlement"})
    s._debug_set_board(water={(0, cell(0, 2))})
    use_tile(s, 0, 12)
    s.apply_action(effect("building a town"))
    return s, {act("town", cell(1, 0))}


def keep_the_money_for_he_yi():
    """Spring's tile 赫矣 pays 5 for 5 money, exactly what is held: don't spend it on a
    cultivation now. (Edict 1's cultivation may be left only with optional_edict_effects: as
    printed, a tier I effect is executed whenever it can be.)"""
    s = position(1, praises={(0, 0): "赫矣"}, money=5, cells={(0, 0): "town"},
                 options={"optional_edict_effects": True})
    use_tile(s, 0, 1)
    return s, {act("pass")}


def event_with_the_season_bonus():
    """Spring's bonus is money and its tile 赫矣 asks for 5 money; with 2 money the yellow +2 money
    event makes 5 with the bonus, the green +2 grain event nothing."""
    s = event_phase(1, [YELLOW_2, GREEN_2, None, None], {(0, 0): "赫矣"},
                    ("money", "grain", "wine", "reputation"), money=2, grain=2)
    return s, {act("event", 0)}


def level_2_talent_for_te_yi():
    """Spring's tile 特矣 pays 5 for a level 2 talent: develop the brewer rather than recruit."""
    s = position(1, praises={(0, 0): "特矣"}, money=4, talents=[("brewer", 1)])
    s._debug_set_board(piles=[["agricultural official"], ["commercial official"], [], [], []])
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    return s, {act("develop", 0)}


def celebration_reaches_the_solo_goal():
    """Solo, the last round, 75 reputation of the 80 needed: celebrate (+6), not a town."""
    s = position(15, players=1, praises={(1, 3): "高矣"}, reputation=75, grain=3, wine=3,
                 money=1, cells={(0, 1): "settlement"})
    use_tile(s, 0, 8)
    return s, {effect("celebration")}


def sacrifice_on_the_summit():
    """Late in the game on the summit with 2 grain and 1 wine: sacrifice to heaven (6), not a
    farmland."""
    path = {(0, 0): "town", (1, 0): "settlement", (1, 1): "settlement", (2, 1): "settlement",
            (2, 2): "settlement", (3, 2): "settlement", (3, 3): "ascent"}
    s = position(14, money=3, grain=2, wine=1, cells=path)
    use_tile(s, 0, 13)
    return s, {effect("sacrifice to heaven")}


def second_building_for_ji_yi():
    """Spring's tile 極矣 pays 5 for two buildings; one is held: build, don't cultivate."""
    s = position(1, praises={(0, 0): "極矣"}, money=3, buildings=["granary"])
    s._debug_set_board(blueprint=[("mint", 1), ("yufu", 1), ("works office", 1)])
    use_tile(s, 0, 9)
    return s, {effect("building plan")}


def second_town_for_da_yi():
    """Summer's tile 大矣 pays 5 for two towns; one town and a settlement are held: build the
    town, don't brew."""
    s = position(3, praises={(0, 1): "大矣"}, money=1, grain=2,
                 cells={(0, 0): "town", (0, 1): "settlement"})
    use_tile(s, 0, 12)
    return s, {effect("building a town")}


def second_farmland_for_zhuang_yi():
    """Spring's tile 壮矣 pays 5 for two farmlands; one is held: reclaim, don't brew."""
    s = position(1, praises={(0, 0): "壮矣"}, money=2, grain=2,
                 cells={(0, 0): "farmland", (0, 1): "settlement"})
    use_tile(s, 0, 7)
    return s, {effect("farmland reclamation")}


def climb_for_gao_yi():
    """Spring's tile 高矣 pays 5 for reaching the 2nd layer: mountain cultivation up, not flat."""
    s = position(1, praises={(0, 0): "高矣"}, money=3, cells={(1, 0): "settlement"})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    return s, {act("mountain", cell(1, 1))}


def brew_everything_for_the_last_huo_yi():
    """The last round, winter's year-2 tile 惑矣 pays 1 per wine: brew all 3 grain."""
    s = position(15, praises={(1, 3): "惑矣"}, money=0, grain=3, wine=0)
    use_tile(s, 0, 3)
    s.apply_action(effect("brewing"))
    return s, {act("amount", 3)}


def exchange_for_hai_yi():
    """Spring's tile 駭矣 asks for 5 grain; 3 are held: the exchange event turns money into the
    2 grain missing (2 or 3 of them), not the other way."""
    s = event_phase(1, [None, None, None, EXCHANGE], {(0, 0): "駭矣"},
                    ("wine", "wine", "wine", "wine"), money=4, grain=3)
    assert s.snapshot()["phase"] == "exchange"
    return s, {act("exchange", 1), act("exchange", 2)}


def brewer_to_level_3_at_the_end():
    """The last round with 8 wine, 4 reputation behind: the brewer's level 3 pays 1 per wine at
    the end."""
    s = position(15, money=3, wine=8, reputation=40, talents=[("brewer", 2)])
    s._debug_set_player(1, reputation=44)
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    return s, {act("develop", 0)}


POSITIONS: dict[str, Callable] = {
    "cheap farmland next to water": farmland_next_to_water,
    "a town away from water": town_away_from_water,
    "keep the money for 赫矣": keep_the_money_for_he_yi,
    "the event with the season bonus": event_with_the_season_bonus,
    "a level 2 talent for 特矣": level_2_talent_for_te_yi,
    "celebrate to reach the solo goal": celebration_reaches_the_solo_goal,
    "sacrifice on the summit": sacrifice_on_the_summit,
    "a second building for 極矣": second_building_for_ji_yi,
    "a second town for 大矣": second_town_for_da_yi,
    "a second farmland for 壮矣": second_farmland_for_zhuang_yi,
    "climb for 高矣": climb_for_gao_yi,
    "brew everything for the last 惑矣": brew_everything_for_the_last_huo_yi,
    "exchange money for grain for 駭矣": exchange_for_hai_yi,
    "brewer to level 3 at the end": brewer_to_level_3_at_the_end,
}


# Positions the learned evaluation (the strong bot's since issue 14) gets wrong: known
# weaknesses, listed in ai/STRONG_MOUNT_TAI.md. The test fails once it finds them (strict), so
# that the list is kept true; the hand-written evaluation (strong-v1) must still find them.
LEARNED_MISSES = {
    # The linear model values a settlement next to water above 2 money at this stage (its weight
    # on "wet" settlements is a correlation of good games, not the free conversion it stands for).
    "cheap farmland next to water",
}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="a known miss of the learned "
                                            "evaluation (LEARNED_MISSES)"))
    if n in LEARNED_MISSES else n for n in POSITIONS])
def test_strong_bot_finds_the_clear_move(name: str) -> None:
    state, right = POSITIONS[name]()
    assert_found(name, state, right, SPEC)


@pytest.mark.parametrize("name", sorted(LEARNED_MISSES))
def test_the_previous_strong_bot_finds_what_the_learned_evaluation_misses(name: str) -> None:
    state, right = POSITIONS[name]()
    assert_found(name, state, right, SPEC.replace("strong", "strong-v1"))


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}, {"solo": True},
                                     {"challenge": 6}, {"players": 3, "grand_tutors": True}])
def test_knowledge_contract_over_random_games(options):
    """Along random games: one positive, finite prior weight per legal action, the best at 1;
    an evaluation per seat in [0, 1]; neither changes the state."""
    for seed in range(3):
        s = new_game(seed=seed, **options)
        rng = random.Random(seed)
        while not s.is_terminal():
            before = s.snapshot()
            prior = s.move_prior()
            value = s.evaluate()
            assert s.snapshot() == before
            assert len(prior) == len(s.legal_actions())
            assert all(0.0 < p <= 1.0 for p in prior) and max(prior) == 1.0
            assert len(value) == s.num_players() and all(0.0 <= v <= 1.0 for v in value)
            s.apply_action(rng.choice(s.legal_actions()))


def test_heuristic_prefers_the_clear_moves():
    """The move prior alone already points at the right move in the positions where the gain
    comes at once (the search only has to confirm it)."""
    for name in ("cheap farmland next to water", "the event with the season bonus",
                 "a second town for 大矣", "brew everything for the last 惑矣"):
        state, right = POSITIONS[name]()
        legal, prior = state.legal_actions(), state.move_prior()
        assert legal[prior.index(max(prior))] in right, name


def test_evaluation_favours_the_leader_more_as_the_end_nears():
    s = policy_position(2)
    s._debug_set_player(0, reputation=30)
    s._debug_set_player(1, reputation=20)
    early = s.evaluate()
    s._debug_set_board(round=14)
    late = s.evaluate()
    assert 0.5 < early[0] < late[0] and abs(sum(late) - 1.0) < 1e-9
