"""data.py against every fact the Mount Tai rulebook states (and the C tables against data.py)."""
from __future__ import annotations

from collections import Counter

from engine.mount_tai import data as d


def test_time():
    assert d.YEARS == 2 and d.SEASONS == ("spring", "summer", "autumn", "winter")
    assert d.ROUNDS_PER_SEASON == 2 and d.ROUNDS == 16


def test_edict_tiers_and_counts():
    assert d.TILES_PER_COLOUR == 29 and sorted(d.EDICT_EFFECTS) == list(range(1, 30))
    tiers = Counter(d.TIER_OF.values())
    assert tiers == {1: 4, 2: 9, 3: 16}
    assert [n for n in range(1, 30) if d.TIER_OF[n] == 1] == [1, 2, 3, 4]
    assert [n for n in range(1, 30) if d.TIER_OF[n] == 2] == list(range(5, 14))
    assert d.TIER_OF[18] == 3 and d.TIER_OF[15] == 3 and d.TIER_OF[26] == 3  # examples
    assert d.PYRAMID_SIDES == {3: 4, 2: 3, 1: 2}
    for n, effects in d.EDICT_EFFECTS.items():
        assert len(effects) == (1 if n <= 4 else 2) and len(set(effects)) == len(effects)


def test_edict_contents_the_examples_show():
    e = d.EDICT_EFFECTS
    assert e[4] == (d.E_RECRUIT,)  # recruitment and development example (tier I)
    assert d.E_RECLAIM in e[7]  # reclamation examples
    assert d.E_BUILD in e[9]  # building plan example and the virtual player's example
    assert d.E_CULTIVATE in e[10]  # flat and mountain cultivation examples
    assert d.E_RECRUIT in e[11]  # the virtual player's recruitment example
    assert d.E_TOWN in e[12]  # town construction example


def test_edict_effects_are_spread_as_the_notes_ask():
    slots = Counter(x for effects in d.EDICT_EFFECTS.values() for x in effects)
    assert sum(slots.values()) == 54
    assert set(slots) == set(range(8)) and all(6 <= c <= 7 for c in slots.values())
    for strong in (d.E_CELEBRATE, d.E_SACRIFICE):
        in_iii = sum(strong in d.EDICT_EFFECTS[n] for n in range(14, 30))
        assert in_iii > slots[strong] / 2


def test_tidy_up():
    assert (d.TIDY_MIN_REMOVALS, d.TIDY_MAX_REMOVALS, d.TIDY_MAX_REMOVALS_CHALLENGE) == (1, 2, 4)


def test_start_and_costs():
    assert (d.START_MONEY, d.START_GRAIN, d.START_WINE) == (6, 2, 0)
    assert d.START_REPUTATION == {1: (0,), 2: (0, 0), 3: (0, 0, 1), 4: (0, 0, 1, 1)}
    assert (d.CULTIVATE_COST, d.FLAT_CULTIVATIONS, d.MOUNTAIN_CULTIVATIONS) == (1, 2, 1)
    assert (d.RECLAIM_COST, d.TOWN_COST, d.RECRUIT_COST) == (2, 1, 1)
    assert d.LEVEL_UP_COSTS == (2, 3) and d.BREW_MAX == 3
    assert (d.CELEBRATION_GRAIN, d.CELEBRATION_WINE, d.CELEBRATION_REPUTATION) == (3, 3, 6)
    assert (d.SACRIFICE_GRAIN, d.SACRIFICE_WINE, d.SACRIFICE_REPUTATION) == (2, 1, 6)
    assert d.FARMLAND_GRAIN == 1 and d.TOWN_MONEY == 1


def test_talents():
    colours = Counter(t.colour for t in d.TALENTS for _ in range(t.copies) if t.source == "base")
    assert colours == {0: 3, 1: 3, 2: 3, 3: 4}  # "3 each in green, yellow and blue; 4 in red"
    promo = [t for t in d.TALENTS if t.source == "promo"]
    fan = [t for t in d.TALENTS if t.source == "fan"]
    assert len(promo) == 4 and all(t.colour == 3 for t in promo)  # "4 Talent Cards (red)"
    assert len(fan) == 5 and all(t.colour == 3 for t in fan)  # "5 Fan Design Talent Cards"
    names = [t.name for t in d.TALENTS]
    assert names.index("brewer") == d.T_BREWER and names.index("secretary") == d.T_SECRETARY
    only34 = {t.name for t in d.TALENTS if t.min_players == 3}
    assert only34 == {"yin-yang master", "dugu wei"}
    # The talent supply table of Setup 4.
    assert d.PILE_SIZES == {2: (1, 1, 1, 2, 2), 3: (2, 2, 2, 2, 2), 4: (3, 3, 3, 2, 2)}
    assert d.PILE_COLOURS == (0, 1, 2, 3, 3) and d.PILE_SIZES_SOLO == (1, 1, 1, 1, 1)
    # Skill numbers printed on the cards.
    assert d.SACRIFICE_OFFICIAL_CELEBRATION_BONUS == 3 and d.SACRIFICE_OFFICIAL_SACRIFICE_BONUS == 2
    assert d.AGRI_RECLAIM_TIMES == 3 and d.COMMERCE_TOWN_TIMES == 2 and d.COMMERCE_TOWN_GRAIN == 1
    assert d.BREWER_BREW_TIMES == 2 and d.PIONEER_GRAIN == 1 and d.PIONEER_MOUNTAIN_TIMES == 2
    assert d.PUBLICIST_BLUE_REPUTATION == 1 and d.PUBLICIST_EVENT_BONUS == 1
    assert d.TRADER_EXCHANGE_MONEY == 3 and d.ARCHITECT_DISCOUNT == 1
    assert d.DUGU_ONLY_TALENT_REPUTATION == 15 and d.VANGUARD_TILE_OFFSET == 1
    assert d.VANGUARD_REPUTATION_PER_FIRST == 2 and d.ELDER_CELEBRATION_MONEY == 3
    assert d.ELDER_SACRIFICE_MONEY == 1 and d.ELDER_REPUTATION_PER_BUILDING == 3
    assert d.FIRSTBORN_GIFT == (1, 1, 1, 1) and d.FIRSTBORN_PRAISE_BONUS == 1
    assert d.ZHENG_REPUTATION == (3, 2) and d.COMMERCE_REPUTATION == (3, 2)
    assert d.ARCHITECT_REPUTATION == (3, 2) and d.MAX_RED_TALENTS_WITH_OBSERVATORY == 2


def test_buildings():
    base = [b for b in d.BUILDINGS if b.source == "base"]
    assert len(base) == 6 and all(b.copies == 3 for b in base)  # 18 tiles, 3 of 6 kinds
    promo = [b.name for b in d.BUILDINGS if b.source == "promo"]
    assert promo == ["military garrison", "observatory"]
    assert d.BUILDINGS[d.B_WORKS].name == "works office" and d.BUILDINGS[d.B_WORKS].cost == 3
    assert d.BLUEPRINT_KINDS == {1: 3, 2: 3, 3: 3, 4: 4}
    assert d.BUILDINGS_REMOVED_PER_KIND == {1: 1, 2: 1, 3: 1, 4: 0}
    assert d.WORKS_SEASONS == (0, 2) and d.WORKS_GRAIN_PER_FARMLAND == 2
    assert d.MARKET_SEASONS == (1, 3) and d.MARKET_MONEY_PER_TOWN == 2
    assert d.GARRISON_SEASONS == (1, 3) and d.GARRISON_GRAIN_PER_FARMLAND == 1
    assert d.ACADEMY_DISCOUNT == 1 and d.OBSERVATORY_TALENT_COST == 1


def test_events():
    printed = d.EVENT_TILES[:32]
    assert Counter(e.colour for e in printed) == {0: 8, 1: 8, 2: 8, 3: 8}
    yellow = [e.amount for e in printed if e.colour == 0]
    assert all(e.kind == d.EV_MONEY for e in printed if e.colour == 0)
    assert all(e.kind == d.EV_GRAIN for e in printed if e.colour == 1)
    assert all(e.kind == d.EV_REPUTATION for e in printed if e.colour == 2)
    assert not Counter([3, 2, -1, 3, 2]) - Counter(yellow)  # the printed samples
    for colour in (1, 2):
        assert {3, 2, 1} <= {e.amount for e in printed if e.colour == colour}
    red = [(e.kind, e.amount) for e in printed if e.colour == 3]
    assert (d.EV_WINE, 1) in red and (d.EV_EXCHANGE, 0) in red
    assert (d.EV_MONEY, 2) in red  # the event example: a red event giving 2 money
    zero = d.EVENT_TILES[d.EVENT_ZERO_TILE]
    assert zero.kind == d.EV_ZERO and zero.colour == d.EVENT_ZERO_REPLACES_COLOUR == 2
    assert d.EXCHANGE_MAX == 3 and d.EVENT_BONUS_AMOUNT == 1
    assert sorted(d.EVENT_BONUS_TYPES) == [0, 1, 2, 3]
    for n, rounds in d.EVENT_SPACES.items():
        assert len(rounds) == 8 and all(len(r) == n for r in rounds)
    assert d.EVENT_SPACES[4] == tuple((0, 1, 2, 3) for _ in range(8))  # all 32 with 4 players


def test_eight_praises():
    assert len(d.PRAISES) == 8 and len({p.name for p in d.PRAISES}) == 8
    y1 = {p.name: (p.year1_at_least, p.year1_reputation) for p in d.PRAISES}
    assert y1 == {"高矣": (2, 5), "壮矣": (2, 5), "極矣": (2, 5), "赫矣": (5, 5), "特矣": (1, 5),
                  "駭矣": (5, 5), "大矣": (2, 5), "惑矣": (3, 5)}
    y2 = {p.name: (p.year2_unit, p.year2_reputation) for p in d.PRAISES}
    assert y2 == {"高矣": (1, 2), "壮矣": (1, 2), "極矣": (1, 2), "赫矣": (2, 1), "特矣": (1, 5),
                  "駭矣": (2, 1), "大矣": (1, 2), "惑矣": (1, 1)}


def test_solo_and_challenge():
    assert d.VIRTUAL_DRAWS == {1: 3, 2: 7, 3: 6}
    assert d.VIRTUAL_EVENT_PRIORITY == (d.EV_WINE, d.EV_MONEY, d.EV_GRAIN, d.EV_REPUTATION)
    assert [c.goal for c in d.CHALLENGES] == [80, 80, 82, 82, 85, 85, 90, 90]
    assert [c.bonus_talent_level for c in d.CHALLENGES] == [0, 1, 0, 1, 2, 0, 1, 0]
    assert [c.bonus_buildings for c in d.CHALLENGES] == [0, 0, 1, 0, 0, 1, 1, 2]
    assert [c.town_start for c in d.CHALLENGES] == [False] * 3 + [True] + [False] * 4
    assert [c.tidy_removals for c in d.CHALLENGES] == [2, 2, 2, 2, 4, 4, 4, 4]
    assert d.CHALLENGE_G2_MONEY_LOSS == 1
    assert d.STACKS_TIERED == (1, 2, 2, 3, 3, 3, 3) and d.STACKS * d.STACK_DEPTH == 28
    assert d.STEP_COLUMNS == (2, 3, 4, 5, 6, 7)


def test_mountain_layers():
    cells = [(a, b) for a in range(4) for b in range(4)]
    layers = Counter(min(a, b) + 1 for a, b in cells)
    assert layers == {1: 7, 2: 5, 3: 3, 4: 1}  # reading notes: 7, 5, 3 and the summit
    assert len(d.LARGE_TILES) == 4 and len(d.SMALL_TILES) == 4  # Components
    assert d.QUADRANTS[4] == (0, 1, 2, 3)


def test_grand_tutors():
    assert len(d.TUTORS) == 5 and d.TUTOR_MIN_PLAYERS[d.TU_SCHOLAR] == 4
    assert d.DONATION_THRESHOLDS == ((3, 1), (8, 2), (14, 3))  # FAQ
    assert d.COMMANDER_REPUTATION == 2 and d.STUDY_MARKERS == 8  # FAQ; 8 scholar markers
    assert len(d.CONSPIRATOR_TARGETS) == 5  # 5 conspirator target markers


def test_every_unprinted_value_is_marked_as_an_assumption():
    """The data module marks what the rulebook does not give."""
    import inspect

    text = inspect.getsource(d)
    for needle in ("EDICT_EFFECTS", "LARGE_TILES", "EVENT_TILES", "BUILDINGS", "EVENT_SPACES"):
        block = text[: text.index(needle)].rsplit("\n\n", 1)[-1] + text[text.index(needle):][:200]
        assert "assumption" in block, needle


def test_tables_load():
    import engine.mount_tai.tables  # noqa: F401  (asserts the enums match on import)
