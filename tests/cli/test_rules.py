"""`tianti rules`: every topic of issue 11's item 3 has a text, listed from the games' data
modules, so that a new talent, building, person or event without a text fails here."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from engine.dragon import data as dd
from engine.dragon import guide as dg
from engine.mount_tai import data as md
from engine.mount_tai import guide as mg
from ladder.cli import app

runner = CliRunner(env={"COLUMNS": "80"})


def test_every_dragon_entity_has_a_text():
    assert {k.name for k in dd.KINDS} <= set(dg.PERSONS)
    assert {name for name, _ in dd.CARDS} | {"no action"} <= set(dg.ACTIONS)
    assert set(dd.EVENTS) <= set(dg.EVENTS)
    assert set(dd.SUPER_EVENTS) <= set(dg.SUPER_EVENTS)
    assert set(dd.WALL_BONUSES) <= set(dg.WALL)
    assert {"setup", "month", "actions", "persons", "events", "super-events", "wall",
            "scoring"} <= set(dg.GUIDE)


def test_every_mount_tai_entity_has_a_text():
    assert set(md.EFFECTS) <= set(mg.EFFECTS)
    assert {"I", "II", "III", "tidy-up"} <= set(mg.TIERS)
    assert {t.name for t in md.TALENTS} <= set(mg.TALENTS)
    assert {t.name for t in md.TALENTS} <= set(mg.TALENT_NOTES)
    for t in md.TALENTS:  # each level's skill is in the talent's text
        assert all(skill and skill in mg.TALENTS[t.name] for skill in t.skills), t.name
    assert {b.name for b in md.BUILDINGS} <= set(mg.BUILDINGS)
    assert {p.name for p in md.PRAISES} <= set(mg.PRAISES)
    assert set(md.EVENT_COLOURS) <= set(mg.EVENTS)
    assert [f"game {i}" for i in range(1, len(md.CHALLENGES) + 1)] == list(mg.CHALLENGES)
    assert set(md.TUTORS) <= set(mg.TUTORS)
    assert {"setup", "round", "actions", "edicts", "talents", "buildings", "events", "praises",
            "solo", "challenges"} <= set(mg.GUIDE)


def _fits(text: str) -> bool:
    return all(display_width(line) <= 80 for line in text.splitlines())


def test_rules_lists_games_and_topics():
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    assert "tianti rules dragon TOPIC" in result.output and "super-events" in result.output
    assert "tianti rules mount-tai TOPIC" in result.output and "challenges" in result.output
    assert _fits(result.output)


@pytest.mark.parametrize("game, guide", [("dragon", dg.GUIDE), ("mount-tai", mg.GUIDE)])
def test_every_topic_prints_within_80_columns(game, guide):
    overview = runner.invoke(app, ["rules", game])
    assert overview.exit_code == 0 and "TOPIC" in overview.output
    for topic in guide:
        result = runner.invoke(app, ["rules", game, topic])
        assert result.exit_code == 0, (topic, result.output)
        assert guide[topic].title in result.output
        assert _fits(result.output), topic
        for name in guide[topic].entries:
            assert name in result.output


def test_topics_by_prefix_and_single_entries():
    out = runner.invoke(app, ["rules", "dragon", "events"]).output
    assert "drought:" in out and "dragon festival:" in out
    assert "The super events" in runner.invoke(app, ["rules", "dragon", "super"]).output
    assert "brewer (Talents)" in runner.invoke(app, ["rules", "mount-tai", "brewer"]).output
    assert "How magnificent!" in runner.invoke(app, ["rules", "mount-tai", "praises"]).output
    bad = runner.invoke(app, ["rules", "dragon", "dance"])
    assert bad.exit_code == 2 and "no topic or entry" in bad.output
    assert runner.invoke(app, ["rules", "chess"]).exit_code == 2
