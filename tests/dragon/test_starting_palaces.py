"""Issue 13, item 5: where the starting persons live is the player's choice.

The rulebook, right after the draft: "Agora e ao longo do jogo, os jogadores devem colocar cada
pessoa abaixo de qualquer um dos seus palácios" (now and throughout the game, players place each
person under any one of their palaces). Each player starts with "4 pisos do palácio (2 palácios
de 2 andares)", so the two persons share a palace or live one in each (the palaces are alike).
"""
from __future__ import annotations

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.dragon.helpers import (
    blank_month, build, card, floors, kind_index, new_game, persons, place, play, seat,
)

APART, TOGETHER = LAYOUT["start"], LAYOUT["start"] + 1


def pick(s, a: str, b: str) -> None:
    pair = tuple(sorted((kind_index(a), kind_index(b))))
    s.apply_action(LAYOUT["draft"] + data.DRAFT_PAIRS.index(pair))


def test_after_a_draft_pick_the_player_houses_the_second_person():
    s = new_game(players=2)
    pick(s, "tax collector", "scholar")
    snap = s.snapshot()
    assert snap["phase"] == "start" and s.current_player() == 0
    assert s.legal_actions() == [APART, TOGETHER]
    assert seat(s, 0)["track"] == 7                     # "Anna move seu marcador ... espaço 7"
    assert "young scholar" in s.decision_name()
    assert "other palace" in s.action_to_string(APART)
    assert "same palace" in s.action_to_string(TOGETHER)
    s.apply_action(TOGETHER)
    assert persons(s, 0) == [["tax collector", "young scholar"], []]
    assert floors(s, 0) == [2, 2]
    assert s.current_player() == 1 and s.snapshot()["phase"] == "draft"
    pick(s, "tax collector", "farmer")
    s.apply_action(APART)
    assert persons(s, 1) == [["tax collector"], ["young farmer"]]
    assert s.snapshot()["phase"] == "action"            # month 1 begins after the last one


def test_a_shared_palace_and_a_build_make_a_three_person_palace():
    """With a build in month 1 a player can fill one palace with three persons and let the
    other decay (the reading the split of old ruled out)."""
    s = new_game(players=2, seed=3)
    pick(s, "craftsman", "scholar")
    s.apply_action(TOGETHER)
    pick(s, "tax collector", "farmer")
    s.apply_action(APART)
    blank_month(s, 1, "peace",
                groups=[["build", "taxes", "harvest", "fireworks"],
                        ["military parade", "research", "privilege"]])
    s._debug_start_round("action")
    assert s.current_player() == 0
    s.apply_action(card("build"))                       # 1 floor + 1 hammer (craftsman) = 2
    s.apply_action(build(0))                            # palace 1: 2 -> 3 floors
    s.apply_action(build(2))                            # a new palace with the second floor
    while s.current_player() == 1:                      # seat 1's action
        s.apply_action(s.legal_actions()[0])
    assert s.snapshot()["phase"] == "person" and s.current_player() == 0
    s.apply_action(play("craftsman"))
    s.apply_action(place(0))                            # the third person in palace 1
    assert persons(s, 0)[0] == ["craftsman", "craftsman", "young scholar"]
    while not s.is_terminal() and s.snapshot()["month"] == 1:
        s.apply_action(s.legal_actions()[0])
    # Month 1's decay: the empty 2-floor palace loses a floor, the new 1-floor one is gone.
    assert floors(s, 0) == [3, 1]
    assert persons(s, 0) == [["craftsman", "craftsman", "young scholar"], []]


def test_the_prior_prefers_one_person_per_palace_without_ruling_out_sharing():
    s = new_game(players=3)
    pick(s, "healer", "farmer")
    apart, together = s.move_prior()
    assert apart > together > 0.2 * apart
    s = new_game(players=3)
    pick(s, "monk", "farmer")                          # the monk first, the farmer waits
    apart, together = s.move_prior()
    assert apart > together
