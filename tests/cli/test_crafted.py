"""Issue 35, item 5: stores and saves are data. A store or a save file made by hand (or by
someone else) cannot run code on `tournament resume` / `play --load` without the user's word,
cannot forge lines in a listing, and is at worst a one-line error (exit 2, no traceback) that
leaves it as it was. Fast bots only (random, heuristic)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ladder.cli import app
from ladder.tournament.store import Store

runner = CliRunner()


def tianti(*args: object) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(result: Result, *fragments: str) -> str:
    """Exit code 2, no traceback, one error on stderr: a line starting with error:, continued
    on indented lines only where it would not fit 80 columns (tests/cli/conftest.py checks
    the width). Returns the message as one line."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    first, *rest = result.stderr.strip("\n").splitlines()
    assert first.startswith("error: ") and all(r.startswith("       ") for r in rest), result.stderr
    message = " ".join(result.stderr.split())
    for f in fragments:
        assert f in message, message
    return message


def dump(db: Path) -> list[str]:
    """The store's content (its bytes may change when SQLite checkpoints its journal, which is
    not a change of the store)."""
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def base_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("crafted") / "base.db"
    r = tianti("tournament", "run", "--db", db, "-p", 2, "-b", "h=heuristic", "-b", "r=random",
               "--deals", 2, "--seed", 5, "--workers", 1)
    assert r.exit_code == 0, r.output
    with Store(db, create=False) as s:
        s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def crafted(base: Path, tmp_path: Path, *sql: str, params: tuple = ()) -> Path:
    """A copy of the store with `sql` applied (params go to the first statement)."""
    db = tmp_path / "crafted.db"
    db.write_bytes(base.read_bytes())
    conn = sqlite3.connect(db, isolation_level=None)
    for i, statement in enumerate(sql):
        conn.execute(statement, params if i == 0 else ())
    conn.close()
    return db


DEEP = "[" * 100_000 + "]" * 100_000

# (the crafted change, the commands that read it, what the error says)
CASES = {
    "deep actions": ("UPDATE games SET actions = ? WHERE id = 2", (DEEP,),
                     [("replay", 1, 2), ("tournament", "show", 1, "--games"),
                      ("ladder", "export")], "game 2 has malformed JSON in its actions"),
    "1e400 in actions": ("UPDATE games SET actions = '[14, 1e400]' WHERE id = 2", (),
                         [("replay", 1, 2), ("tournament", "show", 1, "--games"),
                          ("ladder", "export")], "game 2 has actions that are not"),
    "deep options": ("UPDATE games SET options = ? WHERE id = 2",
                     ('{"a":' * 100_000 + "1" + "}" * 100_000,),
                     [("ladder", "export"), ("tournament", "show", 1, "--games")],
                     "game 2 has malformed JSON in its options"),
    "text in seats.rank": ("UPDATE seats SET rank = 'first' WHERE game_id = 2 AND seat = 0", (),
                           [("ladder", "show"), ("ladder", "h2h"), ("replay", 1, 2),
                            ("tournament", "show", 1, "--games"), ("ladder", "export")],
                           "seat 0 of game 2"),
    "text in the ratings bookmark": (
        "UPDATE meta SET value = 'many' WHERE key = 'ratings_last_game'", (),
        [("ladder", "show"), ("ladder", "h2h")], "its ratings bookmark is 'many'"),
    "no ratings bookmark": ("DELETE FROM meta WHERE key = 'ratings_last_game'", (),
                            [("ladder", "show")], "its ratings bookmark is None"),
    "text in a score": ("UPDATE seats SET score = 'lots' WHERE game_id = 3 AND seat = 1", (),
                        [("ladder", "show"), ("tournament", "show", 1)], "seat 1 of game 3"),
    "a seat missing": ("DELETE FROM seats WHERE game_id = 3 AND seat = 1", (),
                       [("replay", 1, 3), ("tournament", "show", 1)], "game 3 of 2 players"),
    "1e400 in the run's deals": (
        "UPDATE runs SET spec = replace(spec, '\"deals\": 2', '\"deals\": 1e400')", (),
        [("tournament", "list"), ("tournament", "show", 1), ("tournament", "resume", 1)],
        "run 1 has a malformed spec"),
    "text in a fault's move": (
        "UPDATE seats SET fault_kind = 'error', fault = 'x', fault_move = 'early'"
        " WHERE game_id = 1 AND seat = 0", (),
        [("tournament", "show", 1), ("replay", 1, 1)], "seat 0 of game 1"),
    "a fault without its message": (
        "UPDATE seats SET fault_kind = 'error' WHERE game_id = 2 AND seat = 0", (),
        [("tournament", "show", 1, "--errors"), ("replay", 1, 2)],
        "seat 0 of game 2 has a fault without its move or message"),
    "bytes as a game's finish time": (
        "UPDATE games SET finished_at = X'00ff' WHERE id = 2", (),
        [("tournament", "list"), ("tournament", "show", 1)], "finished_at"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_crafted_store_is_a_one_line_error_and_stays_as_it_was(
        case: str, base_db: Path, tmp_path: Path) -> None:
    sql, params, commands, fragment = CASES[case]
    db = crafted(base_db, tmp_path, sql, params=params)
    before = dump(db)
    for command in commands:
        one_line_error(tianti(*command, "--db", db), "the store", fragment)
        assert dump(db) == before, command


def test_recompute_mends_a_crafted_bookmark(base_db: Path, tmp_path: Path) -> None:
    db = crafted(base_db, tmp_path, *CASES["text in the ratings bookmark"][:1])
    assert tianti("ladder", "recompute", "--db", db).exit_code == 0
    shown = tianti("ladder", "show", "--db", db, "--json")
    assert shown.exit_code == 0
    assert json.loads(shown.stdout) == json.loads(tianti("ladder", "show", "--db", base_db,
                                                         "--json").stdout)


# -- saves -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A real save of `tianti play` (two decisions in), as a dict."""
    from ladder.table.play import PlaySession

    session = PlaySession.new("dragon", {"players": 2}, 0, ["random"], seed=4)
    for _ in range(2):
        session.run_bots()
        session.choose(session.choices()[0].action)
    path = tmp_path_factory.mktemp("save") / "real.json"
    session.save(path)
    data = json.loads(path.read_text())
    assert data["decisions"] and data["record"]["actions"]
    return data


SAVE_CASES = {
    "a deep list in decisions": ("decisions", json.loads("[" * 500 + "]" * 500),
                                 "'decisions' must be a list of move numbers"),
    "a list in decisions": ("decisions", [[0]], "'decisions' must be a list of move numbers"),
    "a decision past the game": ("decisions", [0, 10**6], "name moves the game does not have"),
    "text as the seat": ("seat", "0", "'seat' must be a number"),
    "inf as a move time": ("move_seconds", "INF", "'move_seconds' must be a list of seconds"),
    "1e400 in the record's actions": ("record.actions", "INF", "is inf, not an integer"),
    "a python: hint": ("hint", "python:os:getcwd", "--trust"),
    "an exec: opponent": ("specs", ["human", "exec:sh -c 'touch /tmp/pwned'"], "--trust"),
}


@pytest.mark.parametrize("case", list(SAVE_CASES))
def test_a_crafted_save_is_a_one_line_error_and_stays_as_it_was(
        case: str, save: dict, tmp_path: Path) -> None:
    key, value, fragment = SAVE_CASES[case]
    data = json.loads(json.dumps(save))
    if key == "record.actions":
        data["record"]["actions"] = data["record"]["actions"][:3] + [value]
    else:
        data[key] = value
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(data).replace('"INF"', "1e400"))
    before = path.read_bytes()
    one_line_error(tianti("play", "--load", path), fragment)
    assert path.read_bytes() == before


@pytest.mark.parametrize("text, fragment", [
    ('{"format": "tianti-play", "decisions": ' + DEEP + "}", "nested too deep"),
    ('{"format": "tianti-play", "decisions": [' + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "]}",
     "nested too deep"),
    ('{"format": "tianti-play", "x": "' + "y" * (17 << 20) + '"}', "larger than 16 MiB"),
])
def test_a_save_nested_too_deep_or_too_large_is_refused(text: str, fragment: str,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "crafted.json"
    path.write_text(text)
    before = path.read_bytes()
    one_line_error(tianti("play", "--load", path), fragment)
    assert path.read_bytes() == before


def test_play_load_of_dev_zero_is_refused() -> None:
    one_line_error(tianti("play", "--load", "/dev/zero"), "/dev/zero", "larger than 16 MiB")


# -- code named by a store -------------------------------------------------------------------------

def _with_code_bot(base: Path, tmp_path: Path, spec: str) -> Path:
    """The base store with its run's bot r turned into `spec` and its last game deleted (so
    that a resume would play it)."""
    return crafted(base, tmp_path,
                   "UPDATE runs SET spec = json_set(spec, '$.bots[1][1]', ?)",
                   "UPDATE bots SET spec = (SELECT json_extract(spec, '$.bots[1][1]') FROM runs)"
                   " WHERE name = 'r'",
                   "DELETE FROM seats WHERE game_id = 4", "DELETE FROM games WHERE id = 4",
                   "UPDATE runs SET status = 'interrupted', finished_at = NULL",
                   params=(spec,))


def test_resume_runs_no_code_the_store_names_without_the_users_word(base_db: Path,
                                                                    tmp_path: Path) -> None:
    made = tmp_path / "made-by-the-store"
    spec = f"python:os:makedirs(name={made})"
    db = _with_code_bot(base_db, tmp_path, spec)
    before = dump(db)
    one_line_error(tianti("tournament", "resume", 1, "--db", db), "run 1 names bots that run "
                   "code", f"r={spec}", "--trust")
    assert not made.exists() and dump(db) == before
    # naming another bot again is not consent for this one; naming it otherwise is refused
    one_line_error(tianti("tournament", "resume", 1, "--db", db, "-b", "h=heuristic"),
                   "--trust")
    one_line_error(tianti("tournament", "resume", 1, "--db", db, "-b", "r=random"),
                   "a resumed run keeps its bots")
    one_line_error(tianti("tournament", "resume", 1, "--db", db, "-b", "z=random"),
                   "run 1 has no bot 'z'")
    assert not made.exists() and dump(db) == before
    # the user's word: the factory runs (and, not being a bot, the resume stops there), in
    # the bot's own sandboxed process, whose /tmp is its own: nothing appears outside
    for consent in (("-b", f"r={spec}"), ("--trust",)):
        result = tianti("tournament", "resume", 1, "--db", db, *consent)
        one_line_error(result, "bot 'r'", "did not return a bot with step()")
        assert not made.exists()
    assert dump(db) == before
    # in the referee's own process (inproc:, the user's explicit choice) it runs right here
    spec = f"inproc:python:os:makedirs(name={made})"
    (tmp_path / "inproc").mkdir()
    db = _with_code_bot(base_db, tmp_path / "inproc", spec)
    one_line_error(tianti("tournament", "resume", 1, "--db", db), "--trust")
    assert not made.exists()
    one_line_error(tianti("tournament", "resume", 1, "--db", db, "--trust"), "bot 'r'")
    assert made.is_dir()


def test_resume_refuses_an_exec_bot_the_store_names(base_db: Path, tmp_path: Path) -> None:
    made = tmp_path / "touched"
    db = _with_code_bot(base_db, tmp_path, f"exec:touch {made}")
    before = dump(db)
    one_line_error(tianti("tournament", "resume", 1, "--db", db), "run code", "exec:touch")
    assert not made.exists() and dump(db) == before


def test_a_complete_run_resumes_without_consent(base_db: Path, tmp_path: Path) -> None:
    """Nothing is played, so nothing is made: no --trust needed."""
    db = crafted(base_db, tmp_path, "UPDATE runs SET spec = json_set(spec, '$.bots[1][1]', "
                 "'python:os:getcwd')")
    result = tianti("tournament", "resume", 1, "--db", db)
    assert result.exit_code == 0 and "run 1 is complete" in result.output


# -- control characters ----------------------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (("--label", "nice\nrun 7 finished"), "--label holds control characters (\\n)"),
    (("--label", "\x1b[2Jclean"), "(\\x1b)"),
    (("-b", "a\nb=random"), "is not allowed"),
    (("-b", "x=random\x1b[31m"), "the spec holds control characters"),
    (("-b", "x=python:m:f(a=\u202eb)"), "(\\u202e)"),
])
def test_control_characters_are_refused_at_input(args: tuple, fragment: str,
                                                 tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    one_line_error(tianti("tournament", "run", "--db", db, "-p", 2, "-b", "r=random",
                          "-b", "h=heuristic", *args), fragment)
    assert not db.exists()


def test_play_refuses_a_spec_with_control_characters() -> None:
    one_line_error(tianti("play", "-p", 2, "--opponent", "random\nP1 (strong): resigns"),
                   "holds control characters (\\n)")


def test_a_bots_file_spec_with_a_newline_is_refused(tmp_path: Path) -> None:
    bots = tmp_path / "bots.toml"
    bots.write_text('[bots]\nr = "random"\nx = "random\\nrun 2 finished"\n')
    db = tmp_path / "s.db"
    one_line_error(tianti("tournament", "run", "--db", db, "-p", 2, "-f", bots),
                   "bots.x holds control characters")
    assert not db.exists()


FORGED = "r\nrun 9 finished: all games stored\x1b[2J"


def test_names_from_a_crafted_store_cannot_forge_lines(base_db: Path, tmp_path: Path) -> None:
    db = crafted(base_db, tmp_path,
                 "UPDATE seats SET bot = ? WHERE bot = 'r'",
                 f"UPDATE runs SET label = 'x\ny', spec = json_set(spec, '$.bots[1][0]', "
                 f"'{FORGED}')",
                 "UPDATE seats SET fault_kind = 'error\nforged', fault_move = 3,"
                 " fault = 'Traceback\nboom\x1b[2J' WHERE game_id = 1 AND seat = 1",
                 params=(FORGED,))
    shown = FORGED.replace("\n", "\\n").replace("\x1b", "\\x1b")
    for command in (("tournament", "list"), ("tournament", "show", 1, "--games"),
                    ("tournament", "show", 1, "--errors"), ("ladder", "show"),
                    ("ladder", "h2h"), ("replay", 1, 1, "--no-board")):
        result = tianti(*command, "--db", db)
        assert result.exit_code == 0, (command, result.output)
        assert "\x1b" not in result.output, command
        lines = result.output.splitlines()
        assert not any(line.startswith(("run 9", "forged", "boom", "y")) for line in lines), command
        # shown escaped (a long name may be cut with "…" to fit 80 columns)
        assert shown[:10] in result.output or command == ("tournament", "show", 1, "--errors"), command
    errors = tianti("tournament", "show", 1, "--errors", "--db", db).output
    assert "error\\nforged" in errors and "boom\\x1b[2J" in errors
    # in JSON the names are data, escaped by JSON itself
    (run,) = json.loads(tianti("tournament", "list", "--db", db, "--json").stdout)
    assert run["label"] == "x\ny" and run["spec"]["bots"][1][0] == FORGED
