"""The bot protocol (docs/PROTOCOL.md): what a seat is sent is what it knows, each message carries
what changed, and bots in other languages (examples/bots), tianti's own bots served by
`tianti bot` and Python bots through the adapter play whole tournaments with no fault."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ai.bots import make_bot
from engine.registry import load_game
from ai.match import Referee, play_game
from ladder.referee import protocol as P
from ladder.referee.host import BotFault, ProcessBot
from ladder.referee.players import make_player
from tests.ladder.helpers import REPO, cli, games

GAMES = [("dragon", {"players": 3}), ("mount-tai", {"players": 2}),
         ("mount-tai", {"players": 1, "challenge": 6}), ("fusion", {})]


def _doc(x: Any) -> str:
    return json.dumps(x, sort_keys=True)


@pytest.mark.parametrize("name,options", GAMES)
def test_the_board_and_texts_sent_are_the_same_from_the_truth_and_any_view(
        name: str, options: dict[str, Any]) -> None:
    """A view draws the hidden part afresh: if the board document showed any of it, two views
    of one seat would differ. They never do, and equal the truth's document: nothing hidden,
    nothing drawn afresh, is sent. The same for the texts of the legal actions."""
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        state = load_game(name, **options).new_initial_state(seed)
        while not state.is_terminal():
            for seat in range(state.num_players()):
                truth = _doc(P.public_board(state, seat))
                for _ in range(2):
                    view = state.resample_from_infostate(seat, rng.randrange(1 << 62))
                    assert _doc(P.public_board(view, seat)) == truth
                    if seat == state.current_player():
                        assert P.legal_documents(view) == P.legal_documents(state)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked >= 12


def _transcript(name: str, options: dict[str, Any], seed: int) -> list[tuple[str, dict]]:
    bot = ProcessBot([sys.executable, "-m", "ladder.cli", "bot", "--full", "random(seed=1)"],
                     move_timeout=10.0, setup_timeout=60.0, transcript=True,
                     pythonpath=[str(REPO)])
    game = load_game(name, **options)
    others = [make_bot("random(seed=2)") for _ in range(game.num_players - 1)]
    result = play_game(game.new_initial_state(seed), [bot, *others], referee=Referee(10.0))
    assert result.faults == []
    bot.close()
    return [(who, json.loads(line)) for who, line in bot.transcript or []], result


def test_each_message_carries_what_changed_and_a_whole_game_adds_up() -> None:
    """One update per decision with its one action and the events of its step; no message
    repeats the history; the updates' points add up to the seat's score; a move's size does not
    grow with the move number."""
    lines, result = _transcript("dragon", {"players": 2}, 3)
    sent = [m for who, m in lines if who == "referee"]
    kinds = [m["type"] for m in sent]
    assert kinds[:3] == ["hello", "game", "update"] and kinds[-2:] == ["end", "quit"]
    updates = [m for m in sent if m["type"] == "update"]
    assert [m["move"] for m in updates] == list(range(-1, len(result.actions)))
    assert [m["action"] for m in updates[1:]] == result.actions
    points = sum(e["points"] for m in updates for e in m["events"] if e["seat"] == 0)
    assert points == result.scores[0]
    moves = [m for m in sent if m["type"] == "move"]
    assert len(moves) == len([p for p in result.movers if p == 0])
    assert all(set(m) == {"type", "move", "time_ms", "legal", "board", "private", "view"}
               for m in moves)
    sizes = [len(P.encode({k: v for k, v in m.items() if k != "legal"})) for m in moves]
    assert max(sizes) < 2 * min(sizes)
    replies = [m for who, m in lines if who == "bot"]
    assert replies[0]["type"] == "hello" and all(r["type"] == "action" for r in replies[1:])


def test_a_refused_handshake_or_another_protocol_is_an_error() -> None:
    with pytest.raises(BotFault) as refused:
        make_player("python:tests.ladder.bad_bots:broken_factory", setup_timeout=60.0)
    assert refused.value.kind == "error" and "cannot build this bot" in str(refused.value)
    script = "import sys; sys.stdin.readline(); print('{\"type\":\"hello\",\"protocol\":7}')"
    with pytest.raises(BotFault) as other:
        ProcessBot([sys.executable, "-c", script], setup_timeout=30.0)
    assert other.value.kind == "error" and "protocol 7" in str(other.value)
    with pytest.raises(BotFault) as silent:
        ProcessBot([sys.executable, "-c", "import time; time.sleep(60)"], setup_timeout=0.5)
    assert silent.value.kind == "timeout"


def test_tianti_bot_speaks_the_protocol_on_its_pipes() -> None:
    """`tianti bot` answers a hand-written conversation (stdout carries protocol lines only)."""
    state = load_game("fusion").new_initial_state(1)
    view = state.resample_from_infostate(0, 7)
    lines = [P.hello("test"), P.game_message("fusion", {"players": 2}, 2, 0, None, 1),
             P.update_message(-1, None, None, None, []),
             P.move_message(0, P.public_board(view, 0), P.legal_documents(view), None,
                            P.view_block(view)),
             P.QUIT]
    proc = subprocess.run([sys.executable, "-m", "ladder.cli", "bot", "heuristic"],
                          input=b"".join(P.encode(m) for m in lines), capture_output=True,
                          cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert out[0]["type"] == "hello" and out[0]["name"] == "heuristic"
    assert out[1]["type"] == "action" and out[1]["action"] in state.legal_actions()
    assert len(out) == 2


def _no_faults(db: Path, n: int) -> None:
    stored = games(db)
    assert len(stored) == n
    assert all(s["fault"] is None for g in stored for s in g.seats)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_the_c_example_plays_a_tournament_against_random(tmp_path: Path) -> None:
    binary = tmp_path / "first"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-o", str(binary),
                    str(REPO / "examples/bots/first.c")], check=True)
    db = tmp_path / "t.db"
    result = cli("tournament", "run", "--db", db, "-p", 2, "-b", "r=random",
                 "-b", f"c=exec:{binary}", "--deals", 2, "--seed", 1, "--workers", 2,
                 "--move-timeout", 5, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    _no_faults(db, 4)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_bot_that_wants_lean_messages_alone_gets_them(tmp_path: Path) -> None:
    """The C example asks for `lean` without the view: it is sent ids and raw events only (no
    board, no texts, no view block) and plays a whole game from them."""
    binary = tmp_path / "first"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(REPO / "examples/bots/first.c")],
                   check=True)
    bot = ProcessBot([str(binary)], move_timeout=10.0, setup_timeout=60.0, transcript=True)
    assert bot.lean and P.WANT_VIEW not in bot.wants
    state = load_game("dragon", players=2).new_initial_state(4)
    result = play_game(state, [bot, make_bot("random(seed=2)")], referee=Referee(10.0))
    bot.close()
    assert result.faults == []
    sent = [json.loads(line) for who, line in bot.transcript or [] if who == "referee"]
    moves = [m for m in sent if m["type"] == "move"]
    updates = [m for m in sent if m["type"] == "update"]
    assert len(moves) == result.movers.count(0) and moves
    assert all(m["board"] is None and "view" not in m and all(t is None for _, t in m["legal"])
               for m in moves)
    assert all(m["text"] is None and all(set(e) == {"raw"} for e in m["events"])
               for m in updates)
    assert [m["action"] for m in updates[1:]] == result.actions
    assert all(a == min(state_ids) for a, state_ids in zip(
        [a for a, p in zip(result.actions, result.movers) if p == 0],
        [[i for i, _ in m["legal"]] for m in moves]))


@pytest.mark.parametrize("game", ["dragon", "mount-tai"])
def test_the_plain_python_example_plays_a_tournament_against_random(
        tmp_path: Path, game: str) -> None:
    db = tmp_path / "t.db"
    example = REPO / "examples/bots/greedy_points.py"
    result = cli("tournament", "run", "--db", db, "--game", game, "-p", 2, "-b", "r=random",
                 "-b", f"p=exec:python3 {example} palace", "--deals", 2, "--seed", 2,
                 "--workers", 2, "--move-timeout", 5, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    _no_faults(db, 4)


def test_tianti_bot_strong_plays_in_a_tournament(tmp_path: Path) -> None:
    """The protocol tested against itself: tianti's strong bot served by `tianti bot` (with a
    small budget) against random, and a Python bot through the adapter."""
    db = tmp_path / "t.db"
    result = cli("tournament", "run", "--db", db, "-p", 3, "-b", "r=random",
                 "-b", f"s=exec:{sys.executable} -m ladder.cli bot strong(iterations=200)",
                 "-b", "f=python:tests.ladder.bad_bots:greedy(seed=1)", "--deals", 1,
                 "--seatings", "rotations", "--seed", 3, "--workers", 2,
                 "--move-timeout", 10, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    _no_faults(db, 3)
    assert json.loads(result.output)["placement"] == {"r": "builtin", "s": "process",
                                                      "f": "process"}


def test_watch_seats_a_process_bot() -> None:
    result = cli("watch", "mount-tai", "-p", 2, "-b", "python:tests.ladder.bad_bots:first",
                 "-b", "random", "--seed", 3, "--no-board")
    assert result.exit_code == 0, result.output
    assert "P0 (python:tests.ladder.bad_bots:first)" in result.output


@pytest.mark.parametrize("name,options", GAMES)
def test_raw_events_rebuilt_from_the_sent_events_read_the_same(
        name: str, options: dict[str, Any]) -> None:
    """The raw form the adapter rebuilds its view's events from decodes to the very events the
    referee's state holds (so `view.events()` in the bot's process reads as the referee's)."""
    rng = random.Random(2)
    seen = 0
    for seed in range(3):
        state = load_game(name, **options).new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        coder = P.EventCoder(state.EVENT_TABLE)
        for event in state.event_history():
            assert state.EVENT_TABLE.decode(event.move, tuple(coder.raw(event))) == event
            seen += 1
    assert seen > 0


def test_a_person_plays_against_a_process_bot_with_undo(tmp_path: Path) -> None:
    """`tianti play` seats a python: opponent in its own process: it is told every move, a
    game goes back with undo (the bot is given the game again as it stands) and on to the end."""
    from ladder.table.play import PlaySession
    from ladder.referee.host import ProcessBot

    session = PlaySession.new("dragon", {"players": 2}, 0,
                              ["python:tests.ladder.bad_bots:greedy(seed=1)"], seed=4)
    try:
        bot = session.bots[1]
        assert type(bot) is ProcessBot
        undone = False
        while not session.state.is_terminal():
            session.run_bots()
            if session.state.is_terminal():
                break
            session.choose(session.choices()[0].action)
            if not undone and session.state.move_number() > 10:
                assert session.undo()
                undone = True
        assert undone and not bot.dead and bot.games == 2
    finally:
        session.close()
    assert bot.dead


def test_a_game_joined_part_way_is_sent_from_its_start() -> None:
    """A game resumed after a lost worker starts part-way: the bot is sent the moves so far
    (replayed from the start), then plays on; the updates cover every decision once."""
    game = load_game("mount-tai", players=2)
    state = game.new_initial_state(6)
    rng = random.Random(6)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    bot = ProcessBot([sys.executable, "-m", "ladder.cli", "bot", "--full", "random(seed=1)"],
                     move_timeout=10.0, setup_timeout=60.0, transcript=True,
                     pythonpath=[str(REPO)])
    result = play_game(state, [bot, make_bot("random(seed=2)")], referee=Referee(10.0))
    bot.close()
    assert result.faults == []
    updates = [json.loads(line) for who, line in bot.transcript or []
               if who == "referee" and '"type":"update"' in line]
    assert [u["move"] for u in updates] == list(range(-1, len(result.actions)))
    assert [u["action"] for u in updates[1:]] == result.actions
    assert all(u["text"] for u in updates[1:])


def test_a_task_names_the_folder_and_limits_its_process_bots_start_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ray worker runs in Ray's folder and environment, not the tournament's: relative names
    in an `exec:` command are found in the task's folder (the tournament's), and the task's
    $TIANTI_BOT_LIMITS wins over the worker's own (tests/ladder/test_example_bots.py plays
    them on a two-node cluster)."""
    from ai.bots import BotSpecError
    from ladder.referee.host import LIMITS_VAR, bot_limits
    from ladder.referee.players import command

    (tmp_path / "mine.py").write_text("")
    monkeypatch.chdir(REPO)
    # a bare command name is found on the PATH (where the sandbox can bind it)
    # (a pyenv shim is followed to its interpreter)
    found = command("exec:python3 mine.py x", str(tmp_path))
    assert os.path.isabs(found[0]) and os.path.basename(found[0]).startswith("python3")
    assert found[1:] == [str(tmp_path / "mine.py"), "x"]
    python3 = found[0]
    assert command("exec:python3 mine.py x") == [python3, "mine.py", "x"]
    # a folder this machine does not have: the current one, as before
    assert command("exec:python3 mine.py", str(tmp_path / "gone")) == [python3, "mine.py"]
    monkeypatch.setenv(LIMITS_VAR, "open_files=100")
    assert bot_limits("open_files=200").open_files == 200
    assert bot_limits("").open_files == bot_limits(None).open_files == 100
    with pytest.raises(BotSpecError, match=r"\$TIANTI_BOT_LIMITS: unknown limit 'cores'"):
        bot_limits("cores=2")


def test_lean_lines_are_the_json_modules_bytes() -> None:
    """The lean update and move lines the referee writes without the json module are exactly
    what `encode` makes of the same messages."""
    view = {"state": "AAEC", "digest": "00ff"}
    for raws in ([], [(1, -1, 2, 3, 4, -1, -1)], [(0, 0, -1, 6, 2, 2, 11), (5, 1, 0, 0, 0, 0, 0)]):
        assert P.lean_update_line(7, 1, 33, raws) == P.encode(P.update_message(
            7, 1, 33, None, [{"raw": list(r)} for r in raws]))
    assert P.lean_update_line(-1, None, None, []) == P.encode(
        P.update_message(-1, None, None, None, []))
    for time_ms in (None, 5000.0, 1234.567, 0.5):
        for legal in ([], [0], [3, 17, 250]):
            for block in (None, view):
                assert P.lean_move_line(12, legal, time_ms, block) == P.encode(P.move_message(
                    12, None, [[a, None] for a in legal], time_ms, block))


@pytest.mark.parametrize("name,options", GAMES)
def test_the_adapters_views_are_the_records_views(name: str, options: dict[str, Any]) -> None:
    """The adapter restores a game's first view from the whole record and the next ones from
    the block and the updates it checked as they came: each is the very view the whole record
    restores (block, history, seen events, seat), whatever the bot did to the views before."""
    from engine.core.state import State
    from ladder.referee.adapter import _Game

    rng = random.Random(9)
    for seed in range(2):
        game = load_game(name, **options)
        state = game.new_initial_state(seed)
        seat = 0
        held = _Game(P.game_message(name, dict(game.options), game.num_players, seat, None, 1))
        line = P.lean_update_line(-1, None, None, P.seen_raw_events(state, -1, seat))
        held.update(P.decode(line))
        while not state.is_terminal():
            if state.current_player() == seat:
                view = state.resample_from_infostate(seat, rng.randrange(1 << 62))
                block = P.view_block(view)
                mine = held.view(json.loads(json.dumps(block)))
                whole = State.from_record(view.to_record())
                assert mine.raw_bytes() == whole.raw_bytes() == view.raw_bytes()
                assert mine.history() == whole.history() == state.history()
                assert mine.raw_events() == whole.raw_events()
                assert mine.viewer == seat and mine.is_view() and mine.seed is None
                assert P.legal_documents(mine) == P.legal_documents(state)
                if mine.legal_actions():  # a bot may play on its view: later ones are unchanged
                    mine.apply_action(mine.legal_actions()[0])
            player, action = state.current_player(), rng.choice(state.legal_actions())
            state.apply_action(action)
            index = state.move_number() - 1
            held.update(P.decode(P.lean_update_line(
                index, player, action, P.seen_raw_events(state, index, seat))))


def test_the_adapter_refuses_a_block_that_does_not_fit() -> None:
    """A block of the wrong size, not base64, or not matching its digest is a RecordError, as
    from a whole record."""
    from engine.core.errors import RecordError
    from ladder.referee.adapter import _Game

    game = load_game("dragon", players=2)
    state = game.new_initial_state(1)
    held = _Game(P.game_message("dragon", dict(game.options), 2, 0, None, 1))
    held.update(P.decode(P.lean_update_line(-1, None, None, P.seen_raw_events(state, -1, 0))))
    good = P.view_block(state.resample_from_infostate(0, 3))
    held.view(good)
    short = P.view_block(state.resample_from_infostate(0, 3))
    short["state"] = short["state"][:-8]
    for bad, words in ((dict(good, digest="0" * 32), "digest"), (dict(good, state="!!"), "base64")):
        with pytest.raises(RecordError, match=words):
            held.view(bad)
    import base64 as b64
    raw = b64.b64decode(good["state"])[:-4]
    with pytest.raises(RecordError, match="bytes"):
        state._view_from_block(raw, 0, [], [[]])
    with pytest.raises(P.ProtocolError):
        held.update({"type": "update", "action": True, "events": []})
    with pytest.raises(P.ProtocolError):
        held.update({"type": "update", "action": 1, "events": [{"raw": [1, 2, 3]}]})


@pytest.mark.parametrize("name,options", GAMES)
def test_seen_raw_events_are_the_views_events(name: str, options: dict[str, Any]) -> None:
    """What a lean update carries of a step is what a view of the seat holds of it."""
    rng = random.Random(4)
    state = load_game(name, **options).new_initial_state(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(state.num_players()):
        view = state.resample_from_infostate(seat, 11)
        held = view.raw_events()
        for move in range(-1, state.move_number()):
            assert P.seen_raw_events(state, move, seat) == [tuple(r) for r in held[move + 1]]
    before = state.raw_events()
    for move, seat in ((-2, 0), (state.move_number(), 0), (0, state.num_players())):
        with pytest.raises(ValueError):
            state.seen_raw_events(move, seat)
    assert state.raw_events() == before


def test_a_bots_reply_reads_as_the_json_module_reads_it() -> None:
    """The referee's fast reading of `{"type":"action","action":N}` gives what `decode` gives,
    and anything else (spaces, other fields, a bool, a float, a huge or negative number, not
    JSON) goes through `decode` unchanged."""
    lines = [b'{"type":"action","action":0}', b'{"type":"action","action":17}\r',
             b' {"type":"action","action":123456789012345678} ', b'{"type":"action","action":-1}',
             b'{"type": "action", "action": 5}', b'{"type":"action","action":true}',
             b'{"type":"action","action":5.0}', b'{"type":"action","action":05}',
             b'{"type":"action","action":1234567890123456789012}', b'{"type":"error","message":"x"}',
             b'{"action":3,"type":"action"}']
    for line in lines:
        try:
            expected: Any = P.decode(line)
        except P.ProtocolError as e:
            expected = e
        try:
            got: Any = P.decode_reply(line)
        except P.ProtocolError as e:
            got = e
        if isinstance(expected, Exception):
            assert isinstance(got, P.ProtocolError) and str(got) == str(expected)
        else:
            assert got == expected and type(got["action"] if "action" in got else 0) is type(
                expected.get("action", 0))


def test_the_adapter_reads_a_lean_move_as_the_json_module_does() -> None:
    """The adapter's fast reading of a lean move line gives its view as `decode` does; a line
    of any other shape is left to `decode`."""
    from ladder.referee.adapter import lean_move

    state = load_game("dragon", players=2).new_initial_state(4)
    block = P.view_block(state.resample_from_infostate(0, 1))
    for time_ms in (None, 5000.0, 0.25):
        for legal in ([], [0], list(range(36))):
            line = P.lean_move_line(3, legal, time_ms, block)
            fast = lean_move(line)
            assert fast is not None and fast["type"] == "move"
            assert fast["view"] == P.decode(line)["view"] == block
    others = [P.lean_move_line(3, [1], None, None),
              P.encode(P.move_message(3, {"a": 1}, [[1, "x"]], None, block)),
              P.lean_update_line(2, 0, 1, []),
              P.lean_move_line(3, [1], None, block).replace(b'"private":{}', b'"private":{"x":1}')]
    assert all(lean_move(line) is None for line in others)
