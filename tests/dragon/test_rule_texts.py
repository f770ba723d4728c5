"""Issue 13, item 6: the words of two decisions.

- A release the wall scoring causes is the wall's, not the month's event's: the Great Wall's
  scoring after a Mongol invasion ("the fewest builders release 1") and after month 12.
- The Contract names the kinds in the plural ("Contrato: ... cada jogador seleciona um tipo de
  pessoa em seu reino"): court ladies, not "court ladys".
"""
from __future__ import annotations

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.dragon.helpers import (
    blank_month, floors, kind_index, release, short_wall_after_the_mongols, started,
)


def test_wall_release_after_the_mongols_names_the_wall():
    s = short_wall_after_the_mongols()
    assert s.snapshot()["release_cause"] == "event"
    mongols = s.decision_name()
    assert "mongol invasion" in mongols
    s.apply_action(release(0, "craftsman"))
    s.apply_action(release(0, "craftsman"))
    assert s.snapshot()["release_cause"] == "wall" and s.current_player() == 2
    wall = s.decision_name()
    assert "wall" in wall and "mongol invasion" not in wall
    assert wall != mongols.replace("player 0", "player 2")


def test_final_wall_release_names_the_wall_not_month_12s_event():
    s = started(players=2, great_wall=True)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_player(1, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_board(wall=[(1, "1 rice")])
    blank_month(s, 12, "drought")
    s._debug_run_from("wall_final")
    assert s.snapshot()["release_cause"] == "wall final"
    text = s.decision_name()
    assert "drought" not in text and "final wall scoring" in text


def test_contract_names_court_ladies():
    s = started(players=3)
    a = LAYOUT["contract"] + kind_index("court lady")
    assert s.action_to_string(a) == "contract: collect from your court ladies"
    assert s.action_to_string(LAYOUT["contract"] + kind_index("craftsman")).endswith("craftsmen")
    assert s.action_to_string(LAYOUT["contract"] + kind_index("monk")).endswith("monks")
    assert len(data.KINDS) == 9


# -- Item 7: readings written down in RULES.md, pinned here --------------------------------------

def test_no_privilege_card_under_2_yuan():
    # "Os jogadores que escolherem essa ação pagam 2 yuans para obter um pequeno privilégio".
    s = started(players=3)
    blank_month(s, 3, "peace", groups=[["privilege"], ["taxes", "build", "harvest"],
                                        ["fireworks", "military parade", "research"]])
    s._debug_set_player(0, yuan=1)
    s._debug_start_round("action")
    assert s.current_player() == 0
    legal = s.legal_actions()
    assert LAYOUT["privilege_small"] not in legal and LAYOUT["privilege_large"] not in legal


def test_a_player_with_no_persons_has_the_fewest_helmets():
    # "o jogador ou jogadores com menos capacetes devem liberar 1 pessoa"; "(incluindo, por
    # exemplo, nenhum)".
    s = started(players=3)
    s._debug_set_player(0, palaces=[(2, [])])
    s._debug_set_player(1, palaces=[(2, ["young warrior"])])
    s._debug_set_player(2, palaces=[(2, ["craftsman"])])
    blank_month(s, 5, "mongol invasion")
    s._debug_run_from("event")
    fewest = sorted(e.seat for e in s.events() if e.kind == "mongol_fewest")
    assert fewest == [0, 2]                             # seat 0: no persons, 0 helmets
    assert s.snapshot()["need"] == [0, 0, 1]            # ... and nobody to release


def test_super_event_comes_before_the_month_7_decay():
    # "O efeito do Super Evento escolhido é tratado após o evento normal e antes da pontuação da
    # sétima rodada": the Sunrise's newcomer keeps an empty palace from decaying.
    s = started(players=2, super_event="sunrise")
    for i in range(2):
        s._debug_set_player(i, palaces=[(2, ["craftsman", "court lady"]), (2, [])])
    blank_month(s, 7, "peace")
    s._debug_run_from("event")
    while s.snapshot()["phase"] in ("sunrise", "place"):
        legal = s.legal_actions()
        s.apply_action(LAYOUT["place"] + 1 if LAYOUT["place"] + 1 in legal else legal[0])
    assert floors(s, 0) == [2, 2] and floors(s, 1) == [2, 2]
