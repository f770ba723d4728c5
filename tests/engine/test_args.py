"""engine/core/args.py: the checks the public State methods run on seat and index arguments."""
from __future__ import annotations

import pytest

import engine
from engine.core.args import check_name_or_index, check_optional_seat, check_range, check_seat


class Liar:
    """__index__ answers 1 the first time, then a seat that does not exist."""

    def __init__(self) -> None:
        self.calls = 0

    def __index__(self) -> int:
        self.calls += 1
        return 1 if self.calls == 1 else 10**6


def test_seat_range_error_names_argument_value_and_range() -> None:
    s = engine.load_game("mount-tai", players=3).new_initial_state(1)
    with pytest.raises(ValueError, match=r"^viewer must be a seat in 0\.\.2 \(3 players\), got 3$"):
        check_seat(s, 3, "viewer")
    with pytest.raises(ValueError, match=r"got -1$"):
        check_seat(s, -1)


@pytest.mark.parametrize("value", ["1", 1.0, None, True, [1], b"1"])
def test_non_integers_are_type_errors(value: object) -> None:
    s = engine.load_game("dragon", players=2).new_initial_state(1)
    with pytest.raises(TypeError, match="^seat must be an integer"):
        check_seat(s, value)


def test_a_lying_index_is_converted_once() -> None:
    s = engine.load_game("dragon", players=2).new_initial_state(1)
    liar = Liar()
    assert check_seat(s, liar) == 1 and liar.calls == 1


def test_optional_seat_and_ranges() -> None:
    s = engine.load_game("dragon", players=2).new_initial_state(1)
    assert check_optional_seat(s, None) is None and check_optional_seat(s, 1) == 1
    assert check_range(15, "cell", 0, 16) == 15
    with pytest.raises(ValueError, match=r"^cell must be in 0\.\.15, got 16$"):
        check_range(16, "cell", 0, 16)
    assert check_name_or_index(("a", "b"), "b", "effect") == 1
    assert check_name_or_index(("a", "b"), 0, "effect") == 0
    with pytest.raises(ValueError, match="unknown effect 'c'"):
        check_name_or_index(("a", "b"), "c", "effect")
    with pytest.raises(TypeError, match=r"effect must be a name or an index in 0\.\.1"):
        check_name_or_index(("a", "b"), 0.5, "effect")


def test_mount_tai_queries_check_before_reading_the_struct() -> None:
    """Out-of-range seats used to read past the players (or crash); same answers in range."""
    s = engine.load_game("mount-tai", players=2).new_initial_state(5)
    before = s.raw_bytes()
    for call in (lambda: s.next_to_water(2, 0), lambda: s.effect_possible(2**63, 0),
                 lambda: s.level3_value(-1, 0), lambda: s.information_state_string(2),
                 lambda: s.compact_str(5)):
        with pytest.raises(ValueError, match="must be a seat in 0..1"):
            call()
    assert s.raw_bytes() == before
    assert s.next_to_water(1, 3) == s.next_to_water(Liar(), 3)
