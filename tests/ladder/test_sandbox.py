"""The bot sandbox, with real processes: what a hostile bot tries (memory, forks, big files,
processes left behind, the referee's pid, a 0600 store, the network, the environment, inherited
descriptors) and that each is stopped. Each namespace test skips, saying why, where `probe()`
reports the feature missing; run as root on Linux (as here and in CI) none of them skips."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ladder.referee import sandbox
from ladder.referee.sandbox import BotProcess, Isolation, Limits, probe, spawn

REPO = Path(__file__).resolve().parents[2]
FEATURES = probe().features


def needs(feature: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(feature not in FEATURES,
                              reason=f"this machine gives bots no {feature}: {probe().warnings}")


def reachable_by_others(path: str) -> bool:
    real = Path(os.path.realpath(path))
    return all(os.stat(p).st_mode & 0o001 for p in [real, *real.parents])


# The interpreter the bots run on: this one, except in the fallback (no mount namespace to bind it
# through) when this one is closed to other users (as /root is) and the system's is not.
BOT_PYTHON = sys.executable


def python_bot(code: str, **kwargs: object) -> BotProcess:
    return spawn([BOT_PYTHON, "-c", textwrap.dedent(code)], **kwargs)  # type: ignore[arg-type]


def answer(bot: BotProcess, timeout: float = 60) -> object:
    """The JSON line the bot prints (its report), then its exit."""
    line = bot.stdout.readline()
    assert line, f"no answer; exit {bot.wait(timeout)}; stderr: {bot.stderr_tail()}"
    return json.loads(line)


@pytest.fixture(params=["machine", "fallback"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[str, ...]:
    """Run a test with what this machine allows, then again as if the kernel refused namespaces
    (the fallback: process group, rlimits and, as root, a uid of its own); gives the features."""
    request.addfinalizer(sandbox._plan.cache_clear)  # after monkeypatch's undo, whatever happens
    if request.param == "fallback":
        monkeypatch.setattr(sandbox, "_try_namespaces", lambda mode, tools: "refused for a test")
    sandbox._plan.cache_clear()
    features = probe().features
    if request.param == "fallback":
        assert "pid-namespace" not in features
        assert any("refused for a test" in w for w in probe().warnings)
        if not reachable_by_others(sys.executable) and os.path.exists("/usr/bin/python3") \
                and reachable_by_others("/usr/bin/python3"):
            monkeypatch.setattr(sys.modules[__name__], "BOT_PYTHON", "/usr/bin/python3")
    return features


@pytest.fixture
def own_tempdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary folder for spawn's folders that no other process writes into."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def processes_with(marker: bytes, start: bytes = b"") -> list[int]:
    """The processes whose command line starts with `start` and holds `marker` (a zombie's
    command line is empty: only live processes are found)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    line = file.read()
                    if line.startswith(start) and marker in line:
                        found.append(int(name))
            except OSError:
                pass
    return found


# --- limits and the summary ---------------------------------------------------------------------

def test_limits_parse_changes_only_what_is_named() -> None:
    assert Limits.parse("") == Limits()
    limits = Limits.parse(" memory_mb=2048, network=true ")
    assert limits == Limits(memory_mb=2048, network=True)
    assert Limits.parse("processes=8,open_files=32,file_mb=1,network=off") == Limits(
        processes=8, open_files=32, file_mb=1, network=False)


@pytest.mark.parametrize("text, message", [
    ("memory=2048", "unknown limit 'memory'; known: memory_mb, file_mb"),
    ("memory_mb", "needs the form name=value"),
    ("memory_mb=lots", "must be a whole number, not 'lots'"),
    ("memory_mb=-5", "must be a whole number, not '-5'"),
    ("memory_mb=0", "must be a whole number >= 1, not 0"),
    ("network=maybe", "must be true or false, not 'maybe'"),
    ("file_mb=1,file_mb=2", "given twice"),
    ("open_files=3", "at least 8"),
])
def test_limits_parse_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as err:
        Limits.parse(text)
    assert "\n" not in str(err.value)


def test_summary_fits_a_line() -> None:
    everything = Isolation(features=probe().features + ("user-namespace",), warnings=("a", "b"))
    assert len(everything.summary()) <= 80
    assert everything.summary().endswith("(2 warnings)")
    bare = Isolation(features=("rlimits", "process-group"), warnings=("no namespaces",))
    assert bare.summary() == "no namespaces +rlim,pgrp (1 warning)"


# --- an honest bot still works ------------------------------------------------------------------

def test_a_python_bot_talks_over_its_pipes_and_imports_tianti(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import sys, json, ladder.referee
        for line in sys.stdin:
            print(json.dumps({"echo": json.loads(line), "cwd": __import__("os").getcwd()}),
                  flush=True)
    """, pythonpath=[str(REPO)])
    try:
        bot.stdin.write(b'{"hello": 1}\n')
        bot.stdin.flush()
        assert answer(bot) == {"echo": {"hello": 1}, "cwd": str(bot.workdir)}
        bot.stdin.close()
        assert bot.wait(30) == 0, bot.stderr_tail()
        assert not bot.alive()
    finally:
        bot.kill()
    assert not bot.workdir.exists() and not bot.workdir.parent.exists()
    bot.kill()  # idempotent
    assert bot.wait(1) == 0


def test_a_bot_starts_in_an_empty_folder_of_its_own(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import os, json
        print(json.dumps([os.getcwd(), os.listdir("."), os.environ["HOME"]]))
    """)
    try:
        cwd, listing, home = answer(bot)  # type: ignore[misc]
        assert cwd == home == str(bot.workdir) and listing == []
    finally:
        bot.kill()


# --- what a hostile bot tries -------------------------------------------------------------------

def test_allocating_20_gb_is_stopped_by_the_memory_limit(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import json
        small = bytearray(200 * 2**20)  # within the limit: allowed
        print(json.dumps("small ok"), flush=True)
        huge = bytearray(20 * 2**30)
        print(json.dumps("huge ok"), flush=True)
    """, limits=Limits(memory_mb=1024))
    try:
        assert answer(bot) == "small ok"
        assert bot.wait(60) == 1
        assert bot.stdout.readline() == b""
        assert "MemoryError" in bot.stderr_tail()
    finally:
        bot.kill()


def test_forking_1000_times_is_stopped_and_kill_leaves_nothing(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import os, json, time
        made = 0
        for _ in range(1000):
            try:
                pid = os.fork()
            except OSError:
                continue
            if pid == 0:
                time.sleep(600.1717)
                os._exit(0)
            made += 1
        print(json.dumps(made), flush=True)
        time.sleep(600)
    """, limits=Limits(processes=32))
    try:
        made = answer(bot)
        assert isinstance(made, int) and 0 < made < 32
        assert len(processes_with(b"600.1717")) >= made + 1  # the bot and its children
    finally:
        bot.kill()
    assert bot.wait(10) is not None
    assert processes_with(b"600.1717") == []  # a zombie's command line is empty: none is alive
    if bot.uid is not None:
        assert [pid for pid in os.listdir("/proc") if pid.isdigit()
                and _uid_of(int(pid)) == bot.uid and not _zombie(int(pid))] == []


@pytest.mark.parametrize("cgroup", [True, False])
def test_a_bot_that_forks_cannot_hold_more_than_its_memory_together(
        mode: tuple[str, ...], cgroup: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four children of one bot each fill 150 MB, within each process's limit of 300 MB: with a
    memory cgroup of its own the bot's processes together never hold more than 300 MB (the OOM
    killer ends children past it); without one (the control) all four hold theirs."""
    if "memory-cgroup" not in mode:
        pytest.skip(f"this machine gives bots no memory cgroup: {probe().warnings}")
    if not cgroup:
        monkeypatch.setattr(sandbox, "_make_cgroup", lambda limits: None)
    bot = python_bot("""
        import json, os, time
        kids = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                block = b"x" * (150 << 20)  # written: resident, counted
                time.sleep(1.5)
                os._exit(0)
            kids.append(pid)
        held = sum(os.waitpid(pid, 0)[1] == 0 for pid in kids)
        print(json.dumps(held), flush=True)
        time.sleep(600)
    """, limits=Limits(memory_mb=300))
    try:
        held = answer(bot)
        if cgroup:
            assert bot.cgroup is not None and "memory-cgroup" in bot.isolation.features
            assert isinstance(held, int) and held < 4
            peak = bot.cgroup / "memory.max_usage_in_bytes"  # cgroup v1 (v2: memory.peak)
            peak = peak if peak.exists() else bot.cgroup / "memory.peak"
            if peak.exists():
                assert int(peak.read_text()) <= 300 * 2**20
        else:
            assert bot.cgroup is None and "memory-cgroup" not in bot.isolation.features
            assert any("memory cgroup" in w for w in bot.isolation.warnings)
            assert held == 4
    finally:
        folder = bot.cgroup
        bot.kill()
    assert folder is None or not folder.exists()  # removed with the bot


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
    except OSError:
        return True


def _uid_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def test_a_grandchild_that_outlives_the_bot_is_killed_too(mode: tuple[str, ...]) -> None:
    marker = b"777.4242"  # only in the sleeps' command lines, not in the bot's
    bot = python_bot("""
        import os, subprocess, json
        marker = "777." + "4242"
        subprocess.Popen(["sleep", marker], start_new_session=True)
        if os.fork() == 0:   # a second one, double-forked into a session of its own
            os.setsid()
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", marker])
            os._exit(0)
        print(json.dumps("started"), flush=True)
        import time; time.sleep(600)
    """)
    try:
        assert answer(bot) == "started"
        for _ in range(500):  # both are there (the check below can fail)
            if len(processes_with(marker)) == 2:
                break
            time.sleep(0.01)
        assert len(processes_with(marker)) == 2
    finally:
        bot.kill()
    assert processes_with(marker) == []
    assert not bot.alive()


def test_writing_100_mb_to_a_file_is_capped(mode: tuple[str, ...]) -> None:
    names = ["big", "/tmp/big", "again", "more", "/tmp/more", "last"]
    if "private-tmp" not in mode:
        names = [name for name in names if not name.startswith("/")]
    bot = python_bot(f"""
        import json, os, signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # so the write fails instead of killing
        sizes = []
        for name in {names!r}:
            written = 0
            try:
                with open(name, "wb") as file:
                    for _ in range(100):
                        written += file.write(b"x" * 2**20)
                        file.flush()
            except OSError as err:
                pass
            sizes.append(os.path.getsize(name))
        print(json.dumps(sizes), flush=True)
    """, limits=Limits(file_mb=8))
    try:
        sizes = answer(bot)
        assert isinstance(sizes, list)
        assert max(sizes) == 8 * 2**20               # no file above file_mb
        if "private-tmp" in mode:
            assert sum(sizes) <= 4 * 8 * 2**20       # and its tmpfs holds 4x that in all
    finally:
        bot.kill()


def test_writing_100_mb_to_stderr_is_capped(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import sys
        for _ in range(100):
            sys.stderr.buffer.write(b"e" * 2**20)
            sys.stderr.flush()
        print("wrote it all", flush=True)
    """, limits=Limits(file_mb=4))
    try:
        status = bot.wait(60)  # python ignores SIGXFSZ: its write fails, it exits 120
        assert status not in (None, 0)
        assert bot.stdout.readline() == b""
        assert os.path.getsize(bot.stderr_path) == 4 * 2**20
        assert bot.stderr_tail() == "e" * 4000
        assert oct(os.stat(bot.stderr_path).st_mode & 0o777) == "0o600"
    finally:
        bot.kill()
    assert bot.stderr_tail(10) == "e" * 10  # kept after its folder is gone
    assert not bot.stderr_path.exists()


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A world-readable folder outside /tmp (the private /tmp would hide it anyway)."""
    if not os.path.isdir("/var/tmp"):
        pytest.skip("no /var/tmp to make a folder outside /tmp in")
    folder = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="tianti-sandbox-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def test_the_bot_cannot_see_or_signal_the_referee(mode: tuple[str, ...]) -> None:
    if "pid-namespace" not in mode and "uid-drop" not in mode:
        pytest.skip(f"neither a PID namespace nor a uid of its own here: {probe().warnings}")
    referee = os.getpid()
    bot = python_bot(f"""
        import os, json, signal
        def attempt(action):
            try:
                action()
                return "done"
            except OSError as err:
                return type(err).__name__
        print(json.dumps([os.getpid(), os.getppid(), sorted(int(p) for p in os.listdir("/proc")
                          if p.isdigit()),
                          attempt(lambda: open("/proc/{referee}/environ").read()),
                          attempt(lambda: open("/proc/{referee}/mem", "rb").read(1)),
                          attempt(lambda: os.kill({referee}, signal.SIGKILL))]), flush=True)
    """)
    try:
        pid, ppid, visible, environ, mem, kill = answer(bot)  # type: ignore[misc]
        if "pid-namespace" in mode:  # it is PID 1 of a namespace with nothing else in it
            assert (pid, ppid, visible) == (1, 0, [1])
            assert environ == mem == "FileNotFoundError" and kill == "ProcessLookupError"
        else:  # it sees the referee, but as another uid can neither read nor signal it
            assert referee in visible
            assert environ == mem == kill == "PermissionError"
    finally:
        bot.kill()


def test_the_bot_cannot_read_a_0600_store_or_another_bots_files(
        mode: tuple[str, ...], outside_tmp: Path) -> None:
    if "uid-drop" not in mode:
        pytest.skip("not root: the bot runs as the referee's user (see probe().warnings)")
    shared = outside_tmp / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    store = shared / "tianti.db"
    store.write_text("the true state")
    store.chmod(0o600)
    public = shared / "public.txt"
    public.write_text("anyone may read this")
    public.chmod(0o644)
    other = python_bot("import sys, time; sys.stderr.write('my secret\\n'); sys.stderr.flush();"
                       " open('x', 'w').write('mine'); print('[]', flush=True); time.sleep(600)")
    assert answer(other) == []
    bot = python_bot(f"""
        import json
        def read(path):
            try:
                return open(path).read()
            except OSError as err:
                return type(err).__name__
        print(json.dumps([read({str(public)!r}), read({str(store)!r}),
                          read({str(other.stderr_path)!r}),
                          read({str(other.workdir / "x")!r})]), flush=True)
    """, pythonpath=[str(shared)])
    try:
        public_text, store_text, other_err, other_file = answer(bot)  # type: ignore[misc]
        assert public_text == "anyone may read this"  # the folder is there: the store is refused
        assert store_text == "PermissionError"
        assert other_err in ("PermissionError", "FileNotFoundError")
        assert other_file in ("PermissionError", "FileNotFoundError")
    finally:
        bot.kill()
        other.kill()


@needs("net-namespace")
def test_no_network_by_default() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = server.getsockname()[1]
        code = f"""
            import socket, json
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
                print(json.dumps("connected"), flush=True)
            except OSError as err:
                print(json.dumps(type(err).__name__), flush=True)
        """
        bot = python_bot(code)
        try:
            assert answer(bot) != "connected"
        finally:
            bot.kill()
        allowed = python_bot(code, limits=Limits(network=True))  # the same bot, network allowed
        try:
            assert answer(allowed) == "connected"
            assert "net-namespace" not in allowed.isolation.features
        finally:
            allowed.kill()


def test_the_environment_is_scrubbed(mode: tuple[str, ...],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIANTI_DB", "/somewhere/tianti.db")
    monkeypatch.setenv("SANDBOX_TEST_MARKER", "leaked")
    bot = python_bot("import os, json; print(json.dumps(dict(os.environ)))",
                     env={"BOT_LEVEL": "3"}, pythonpath=[str(REPO)])
    try:
        seen = answer(bot)
        assert isinstance(seen, dict)
        assert "TIANTI_DB" not in seen and "SANDBOX_TEST_MARKER" not in seen
        assert set(seen) <= {"PATH", "LANG", "HOME", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE",
                             "BOT_LEVEL", "LC_CTYPE"}
        assert seen["HOME"] == str(bot.workdir) and seen["BOT_LEVEL"] == "3"
        assert seen["PYTHONPATH"] == str(REPO.resolve())
    finally:
        bot.kill()


def test_a_bot_is_never_given_tianti_db(own_tempdir: Path) -> None:
    with pytest.raises(ValueError, match="never given TIANTI_DB"):
        python_bot("pass", env={"TIANTI_DB": "/x.db"})
    with pytest.raises(ValueError, match="bad environment variable"):
        python_bot("pass", env={"A=B": "1"})
    assert os.listdir(own_tempdir) == []  # no folder left behind


def test_only_its_pipes_are_open(mode: tuple[str, ...], tmp_path: Path) -> None:
    leak = open(tmp_path / "store.db", "wb")
    os.set_inheritable(leak.fileno(), True)  # even a descriptor marked inheritable stays here
    try:
        bot = python_bot("""
            import os, json
            open_fds = []
            for fd in range(1024):
                try:
                    os.fstat(fd)
                    open_fds.append(fd)
                except OSError:
                    pass
            print(json.dumps(open_fds), flush=True)
        """)
        try:
            assert answer(bot) == [0, 1, 2]
        finally:
            bot.kill()
    finally:
        leak.close()


def _closed_or_eof(bot: BotProcess, seconds: float = 10) -> str | None:
    """What the referee can tell of a bot that went quiet: "eof" (its output pipe ended),
    "output"/"input" (`pipe_closed`: no process of its holds that end), or None within
    `seconds`."""
    import select
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([bot.stdout], [], [], 0.05)
        if ready and bot.stdout.read1(1 << 16) == b"":
            return "eof"
        closed = bot.pipe_closed()
        if closed is not None:
            return closed
    return None


@pytest.mark.parametrize("which", ["output", "input"])
def test_a_bot_that_closes_a_pipe_and_keeps_running_is_seen(
        mode: tuple[str, ...], which: str) -> None:
    """Closing its stdout (or stdin) and sleeping is seen at once, even though the namespace's
    wrapper still holds copies of the pipes: an end of file without it, `pipe_closed()` with."""
    fd = 1 if which == "output" else 0
    bot = python_bot(f"""
        import os, sys, time
        sys.stdout.write("ready\\n"); sys.stdout.flush()
        sys.stdin.readline()
        os.close({fd})
        time.sleep(600)
    """)
    try:
        assert bot.stdout.readline() == b"ready\n"
        assert bot.pipe_closed() is None  # an honest bot, waiting for its input
        bot.stdin.write(b"go\n")
        bot.stdin.flush()
        if which == "input" and "pid-namespace" not in mode:
            time.sleep(0.5)  # no wrapper: the next write finds no reader (as the referee's does)
            with pytest.raises(BrokenPipeError):
                bot.stdin.write(b"more\n")
                bot.stdin.flush()
            return
        seen = _closed_or_eof(bot)
        assert seen in (("eof", "output") if which == "output" else ("input",)), seen
        if "pid-namespace" in mode and which == "output":
            assert seen == "output"  # the wrapper holds the pipe: no end of file
    finally:
        bot.kill()


def test_a_pipe_still_held_by_a_child_of_the_bot_is_not_closed(mode: tuple[str, ...]) -> None:
    """A bot whose parent process closes its stdout but whose child keeps it can still answer:
    nothing is reported closed."""
    bot = python_bot("""
        import os, sys, time
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        os.close(1)
        os.close(0)
        time.sleep(600)
    """)
    try:
        time.sleep(1.0)
        assert _closed_or_eof(bot, 1.0) is None
    finally:
        bot.kill()


@pytest.mark.parametrize("pause", [True, False])
def test_a_paused_bot_uses_no_cpu_between_its_turns(mode: tuple[str, ...], pause: bool) -> None:
    """With `pause`, a bot whose thread spins between its turns gets no CPU while paused (its
    children neither); without it, it does (so the test can fail). Killing a paused bot works."""
    bot = python_bot("""
        import os, sys, threading, time
        def spin():
            while True:
                pass
        threading.Thread(target=spin, daemon=True).start()
        if os.fork() == 0:
            spin()
        for line in sys.stdin:
            t = os.times()
            print(t.user + t.system + t.children_user + t.children_system, flush=True)
    """, limits=Limits(pause=pause))
    try:
        bot.stdin.write(b"t\n")
        bot.stdin.flush()
        first = float(bot.stdout.readline())
        bot.pause()
        time.sleep(1.5)
        bot.resume()
        bot.stdin.write(b"t\n")
        bot.stdin.flush()
        second = float(bot.stdout.readline())
        if pause:
            assert second - first < 0.2, (first, second)
        else:
            assert second - first > 0.3, (first, second)  # a busy machine gives it less
        bot.pause()
    finally:
        start = time.monotonic()
        bot.kill()
    assert time.monotonic() - start < 1.5  # a paused bot dies at once
    assert bot.wait(5) is not None


def cpu_ticks(bot: BotProcess) -> int:
    """The CPU time (clock ticks) the bot's processes have used, seen from the referee: those
    below its sandbox's wrapper and those of its uid."""
    pids = set(sandbox._descendants(bot.pid)) | {bot.pid}
    if bot.uid is not None:
        pids.update(sandbox._processes_of(bot.uid))
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total


@pytest.mark.parametrize("how", ["freezer", "signals", "off"])
def test_processes_in_sessions_of_their_own_get_no_cpu_between_turns(
        mode: tuple[str, ...], how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default `pause`: six processes that left the bot's session (setsid) and spin get no
    CPU while the bot is paused, whether a freezer cgroup holds them or (without one) each is
    stopped; with pause=false they do get it (so the test can fail). Kill ends them all."""
    if how == "signals":
        monkeypatch.setattr(sandbox, "_freezer_root", lambda: None)
        sandbox._plan.cache_clear()
    elif how == "freezer" and sandbox._freezer_root() is None:
        pytest.skip("no freezer cgroup on this machine")
    bot = python_bot("""
        import os, sys
        for _ in range(6):
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    while True:
                        pass
                os._exit(0)
        for line in sys.stdin:
            print("[]", flush=True)
    """, limits=Limits(pause=how != "off"))
    try:
        if how == "freezer":
            assert "freezer-cgroup" in bot.isolation.features
            assert bot.freezer is not None
        elif how == "signals":
            assert "freezer-cgroup" not in bot.isolation.features
            assert bot.freezer is None
        bot.stdin.write(b"t\n")
        bot.stdin.flush()
        assert answer(bot) == []
        time.sleep(0.3)  # the six are spinning
        bot.pause()
        time.sleep(0.2)  # a stop takes effect at once; let the ticks settle
        first = cpu_ticks(bot)
        time.sleep(1.0)
        second = cpu_ticks(bot)
        tick = os.sysconf("SC_CLK_TCK")
        if how == "off":
            assert second - first > 0.3 * tick, (first, second)
        else:
            assert second - first <= 0.02 * tick, (first, second)
        bot.resume()
        bot.stdin.write(b"t\n")
        bot.stdin.flush()
        assert answer(bot) == []
        bot.pause()
    finally:
        bot.kill()
        sandbox._plan.cache_clear()
    assert bot.wait(5) is not None
    assert cpu_ticks(bot) == 0 or not sandbox._descendants(bot.pid)
    if bot.uid is not None:
        assert sandbox._processes_of(bot.uid) == []
    if bot.freezer is not None:
        assert not bot.freezer[1].exists()


def test_the_runs_header_says_how_bots_are_kept_off_the_cpu(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's header names the way a bot is kept off the CPU between its turns: a freezer
    cgroup where there is one (as root here), and says so when the limits turn it off."""
    from ladder.cli.tournament import placement_lines

    monkeypatch.delenv("TIANTI_BOT_LIMITS", raising=False)
    header = " ".join(placement_lines([("s", "exec:./mybot"), ("r", "random")]))
    if sandbox._root() and sandbox._freezer_root() is not None:
        assert "between its turns a bot is frozen (a freezer cgroup" in header
    else:
        assert "between its turns a bot is stopped" in header
    monkeypatch.setenv("TIANTI_BOT_LIMITS", "pause=false")
    header = " ".join(placement_lines([("s", "exec:./mybot")]))
    assert "between its turns a bot is left running (pause=false)" in header


def test_kill_ends_a_bot_that_ignores_signals(mode: tuple[str, ...]) -> None:
    bot = python_bot("""
        import signal, time
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        print("[]", flush=True)
        time.sleep(600)
    """)
    assert answer(bot) == []
    assert bot.alive() and bot.wait(0.1) is None
    bot.kill()
    assert not bot.alive() and bot.wait(1) is not None
    assert not bot.workdir.exists()


def test_a_missing_command_is_a_clear_error(own_tempdir: Path) -> None:
    with pytest.raises(FileNotFoundError, match="bot command not found .*: no-such-bot-here"):
        spawn(["no-such-bot-here", "--level", "3"])
    assert os.listdir(own_tempdir) == []


@needs("hidden-paths")
def test_the_referees_home_and_a_named_store_folder_are_hidden(
        outside_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home, stores, bots = outside_tmp / "home", outside_tmp / "stores", outside_tmp / "home" / "bots"
    for folder in (home, stores, bots):
        folder.mkdir(mode=0o755)
        folder.chmod(0o755)
    (home / "notes.txt").write_text("private")
    (stores / "tianti.db").write_text("the true state")  # world-readable: only hiding protects it
    (bots / "mybot.py").write_text("NAME = 'mine'\n")
    for path in (home / "notes.txt", stores / "tianti.db", bots / "mybot.py"):
        path.chmod(0o644)
    monkeypatch.setenv("HOME", str(home))
    code = f"""
        import json, os, mybot
        def read(path):
            try:
                return open(path).read()
            except OSError as err:
                return type(err).__name__
        print(json.dumps([mybot.NAME, read({str(home / "notes.txt")!r}),
                          read({str(stores / "tianti.db")!r}), os.listdir({str(home)!r})]))
    """
    bot = python_bot(code, pythonpath=[str(bots)], hide=[str(stores)])
    try:
        # its module, under the hidden home, is bound back; nothing else of the home is there
        assert answer(bot) == ["mine", "FileNotFoundError", "FileNotFoundError", ["bots"]]
    finally:
        bot.kill()


@needs("read-only-root")
def test_the_bot_cannot_write_outside_its_private_folders(outside_tmp: Path) -> None:
    outside_tmp.chmod(0o1777)  # writable by anyone, as /var/tmp is
    bot = python_bot(f"""
        import json, errno
        def write(path):
            try:
                open(path, "w").write("x")
                return "written"
            except OSError as err:
                return errno.errorcode[err.errno]
        print(json.dumps([write({str(outside_tmp / "x")!r}), write("/var/tmp/x-sandbox"),
                          write("/tmp/x"), write("/dev/shm/x"), write("here")]))
    """)
    try:
        assert answer(bot) == ["EROFS", "EROFS", "written", "written", "written"]
    finally:
        bot.kill()
    assert os.listdir(outside_tmp) == []


def test_the_oom_killer_takes_the_bot_first(mode: tuple[str, ...]) -> None:
    bot = python_bot("print(open('/proc/self/oom_score_adj').read().strip(), flush=True)")
    try:
        assert answer(bot) == 1000
    finally:
        bot.kill()


# Unique to this test process, so that another test run on the machine cannot be mistaken for ours.
MARK = f"555.{os.getpid()}"
REFEREE = """
import sys, time
from ladder.referee import sandbox
if sys.argv[1] == "fallback":
    sandbox._try_namespaces = lambda mode, tools: "refused for a test"
code = '''
import subprocess, time
subprocess.Popen(["sleep", "MARK"], start_new_session=True)  # leaves its process group
print("[]", flush=True)
time.sleep(MARK)
'''
bot = sandbox.spawn([sys.argv[2], "-c", code])
bot.stdout.readline()
print(bot.workdir.parent, flush=True)
time.sleep(600)
""".replace("MARK", MARK)


def test_a_referee_that_dies_takes_its_bots_along(mode: tuple[str, ...]) -> None:
    """The worker holding a bot is killed (SIGKILL, no clean-up): the bot does not outlive it,
    and the next spawn's sweep clears its folder and (in the fallback, as root) the grandchild
    that had left its process group."""
    which = "fallback" if "pid-namespace" not in mode else "machine"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    referee = subprocess.Popen([sys.executable, "-c", REFEREE, which, BOT_PYTHON],
                               stdout=subprocess.PIPE, env=env)
    bot = (MARK.encode(), BOT_PYTHON.encode() + b"\0-c\0\nimport subprocess")  # marker, start
    grandchild = (MARK.encode(), b"sleep\0")
    try:
        assert referee.stdout is not None
        folder = Path(referee.stdout.readline().decode().strip())
        assert folder.is_dir() and folder.name.startswith(f"tianti-bot-{referee.pid}-")
        for _ in range(500):
            if processes_with(*grandchild):
                break
            time.sleep(0.01)
        assert len(processes_with(*bot)) == len(processes_with(*grandchild)) == 1
    finally:
        referee.kill()
        referee.wait()
    for _ in range(500):  # the kernel takes a moment to end a pid namespace's last processes
        if not processes_with(*bot) and ("pid-namespace" not in mode
                                         or not processes_with(*grandchild)):
            break
        time.sleep(0.01)
    assert processes_with(*bot) == []  # the bot went with the referee
    if "pid-namespace" in mode:  # and with it, as init of its namespace, everything in it
        assert processes_with(*grandchild) == []
    sandbox._sweep(min_age=0)
    assert not folder.exists()
    if "uid-drop" in mode:  # what had left the bot's process group had the bot's uid
        assert processes_with(*grandchild) == []


@needs("hidden-paths")
def test_a_store_is_hidden_even_inside_the_bots_own_folder(
        outside_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tianti tournament run --db ./ladder.db` from the folder the bot's module is in: the module
    is found, the store (world-readable, as SQLite makes it) and tianti's data folder are not."""
    project = outside_tmp / "project"
    data = project / "data"
    for folder in (project, data):
        folder.mkdir(mode=0o755)
        folder.chmod(0o755)
    files = {project / "mybot.py": "NAME = 'mine'\n", project / "ladder.db": "the true state",
             project / "ladder.db-wal": "the true state, newer", data / "seat0.out": "secret"}
    for path, text in files.items():
        path.write_text(text)
        path.chmod(0o644)
    monkeypatch.setenv("TIANTI_DATA_DIR", str(data))
    bot = python_bot(f"""
        import json, os, mybot
        def read(path):
            try:
                return open(path).read()
            except OSError as err:
                return type(err).__name__
        print(json.dumps([mybot.NAME, read("{project}/ladder.db"), read("{project}/ladder.db-wal"),
                          read("{data}/seat0.out"), os.listdir("{data}")]))
    """, pythonpath=[str(project)], hide=[str(project / "ladder.db")])
    try:
        assert answer(bot) == ["mine", "", "", "FileNotFoundError", []]
    finally:
        bot.kill()


@needs("mount-namespace")
def test_a_sandbox_that_cannot_be_set_up_says_so(monkeypatch: pytest.MonkeyPatch,
                                                 request: pytest.FixtureRequest) -> None:
    """A mount the kernel refuses half-way (made to fail here): the bot never starts, the exit
    status is SETUP_FAILED (not the bot's fault) and stderr says why."""
    real = sandbox._ns_argv

    def failing(*args: object, **kwargs: object) -> tuple[list[str], list[str]]:
        command, warnings = real(*args, **kwargs)  # type: ignore[arg-type]
        script = command.index("-ec") + 1
        command[script] = command[script].replace("\nunset PWD", "\nmount -n --bind /nowhere"
                                                  " /nothing\nunset PWD")
        return command, warnings

    assert "mount-namespace" in probe().features  # probed (and cached) before the failure is made
    monkeypatch.setattr(sandbox, "_ns_argv", failing)
    bot = python_bot("print('started', flush=True)")
    try:
        assert bot.wait(30) == sandbox.SETUP_FAILED
        assert bot.stdout.read() == b""
        assert "could not set up the namespaces of the bot" in bot.stderr_tail()
        assert "mount: /nothing" in bot.stderr_tail()
    finally:
        bot.kill()

    # found by the probe, the same failure makes every bot fall back, and says why
    request.addfinalizer(sandbox._plan.cache_clear)
    sandbox._plan.cache_clear()
    assert "pid-namespace" not in probe().features
    assert probe().warnings[0].startswith("the kernel refused namespaces (mount: /nothing: ")


@needs("mount-namespace")
def test_a_folder_moved_away_after_the_plan_is_left_out(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A folder on the bot's path that the user moves away between the plan and the start (seen
    on a Ray cluster: a bot started while its folder was renamed) is left out of the sandbox; the
    bot starts and finds its module where it still is (here, the second folder on its path)."""
    gone, kept = tmp_path / "mine", tmp_path / "shipped"
    for folder in (gone, kept):
        folder.mkdir()
        (folder / "where.py").write_text(f"NAME = {folder.name!r}\n")
    real = sandbox._ns_argv

    def moving(*args: object, **kwargs: object) -> tuple[list[str], list[str]]:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        gone.rename(tmp_path / "moved")
        return result

    assert "mount-namespace" in probe().features  # probed (and cached) before the move is made
    monkeypatch.setattr(sandbox, "_ns_argv", moving)
    bot = python_bot("""
        import json, where
        print(json.dumps(where.NAME), flush=True)
    """, pythonpath=[str(gone), str(kept)])
    try:
        assert answer(bot) == "shipped"
    finally:
        bot.kill()


@needs("hidden-paths")
def test_a_user_namespace_of_its_own_does_not_unhide_anything(
        outside_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot makes itself root of a user and mount namespace of its own and tries to unmount
    what hides the referee's home, and to make the root file system writable again: the kernel
    keeps mounts it inherited locked."""
    home = outside_tmp / "home"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    (home / "notes.txt").write_text("private")
    (home / "notes.txt").chmod(0o644)
    monkeypatch.setenv("HOME", str(home))
    script = (f"umount {home} 2>/dev/null; umount -l {home} 2>/dev/null;"
              " mount -n -o remount,rw / 2>/dev/null;"
              f" echo root=$(id -u) notes=$(cat {home}/notes.txt 2>/dev/null)"
              " >/tmp/out; touch /escaped 2>/dev/null && echo writable >>/tmp/out; cat /tmp/out")
    bot = spawn(["/bin/sh", "-c", f"unshare --user --map-root-user --mount sh -c '{script}'"
                 " || echo no user namespace"])
    try:
        out = bot.stdout.read().decode()
        if "no user namespace" in out:
            pytest.skip("this kernel gives a bot no user namespace of its own: nothing to test")
        assert out == "root=0 notes=\n"  # root of its namespace, and still nothing to read
    finally:
        bot.kill()


def test_a_forked_child_of_the_referee_leaves_its_bots_alone(mode: tuple[str, ...]) -> None:
    bot = python_bot("import sys; print('[]', flush=True); sys.stdin.read()")
    try:
        assert answer(bot) == []
        child = os.fork()
        if child == 0:  # what its exit's finalizers would do: the bot is not its own
            try:
                bot.kill()
            finally:
                os._exit(0)
        os.waitpid(child, 0)
        assert bot.alive()
    finally:
        bot.kill()
    assert not bot.alive()


# --- limits inherited from the user (ulimit) ------------------------------------------------------


def test_fit_lowers_only_what_exceeds_this_processs_own_limits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under an address-space limit of 3000000 KB, 4096 MB becomes 2929 MB with a line naming
    `ulimit -v`; a limit already below is left as it is."""
    real = sandbox.resource.getrlimit

    def fake(which: int) -> tuple[int, int]:
        if which == sandbox.resource.RLIMIT_AS:
            return 3_000_000 * 1024, 3_000_000 * 1024
        return real(which)

    monkeypatch.setattr(sandbox.resource, "getrlimit", fake)
    fitted, lines = sandbox.fit(Limits())
    assert fitted.memory_mb == 2929 and fitted.file_mb == Limits().file_mb
    assert len(lines) == 1 and "ulimit -v" in lines[0] and "4096 to 2929" in lines[0]
    assert sandbox.fit(Limits(memory_mb=2048)) == (Limits(memory_mb=2048), [])


@needs("pid-namespace")
def test_under_a_memory_ulimit_a_bot_keeps_its_namespaces(tmp_path: Path) -> None:
    """`ulimit -v 3000000` (below the default 4096 MB): a fresh referee's probe still finds
    namespaces, and a plain Python bot starts in them and answers, its address space fitted."""
    script = tmp_path / "referee.py"
    script.write_text(textwrap.dedent(f"""
        import json, sys
        from ladder.referee.sandbox import probe, spawn
        bot = spawn([{BOT_PYTHON!r}, "-c", "import resource; "
                     "print(resource.getrlimit(resource.RLIMIT_AS)[0], flush=True)"])
        line = bot.stdout.readline()
        print(json.dumps({{"probe": probe().features, "bot": bot.isolation.features,
                          "warnings": bot.isolation.warnings, "limit": line.decode(),
                          "stderr": bot.stderr_tail()}}))
        bot.kill()
    """))
    done = subprocess.run(["/bin/sh", "-c", f"ulimit -v 3000000 && exec {sys.executable} "
                           f"{script}"], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "pid-namespace" in report["probe"], report
    assert "pid-namespace" in report["bot"] and "mount-namespace" in report["bot"], report
    assert report["limit"].strip() and int(report["limit"]) <= 3_000_000 * 1024, report
    assert any("ulimit -v" in w for w in report["warnings"]), report


# --- the folder tianti runs in, and the commands a bot author writes ---------------------------

_SNOOP = """
import json, os, sys
here = {folder!r}
seen = {{}}
for name in ("old.db", "old.db-wal", "save.json", "mine.py", "mybot/data.txt", "mybot/bot.db"):
    try:
        with open(os.path.join(here, name), "rb") as file:
            seen[name] = file.read(16).decode("latin-1")
    except OSError as e:
        seen[name] = type(e).__name__
try:
    listing = sorted(os.listdir(here))
except OSError as e:
    listing = type(e).__name__
print(json.dumps({{"seen": seen, "listing": listing, "path": os.environ.get("PYTHONPATH")}}),
      flush=True)
"""


@pytest.fixture
def users_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder tianti runs in: an earlier run's store (with its WAL), a save, a bot script
    and a bot package holding data of its own and a store; the current folder during the test."""
    from ladder.tournament.store import Store

    folder = tmp_path / "runs"
    (folder / "mybot").mkdir(parents=True)
    Store(str(folder / "old.db")).close()
    (folder / "old.db-wal").write_bytes(b"wal of the old store")
    (folder / "save.json").write_text('{"format": "tianti-play", "version": 1}')
    (folder / "mine.py").write_text(_SNOOP.format(folder=str(folder)))
    (folder / "mybot" / "__init__.py").write_text(
        "def run():\n    exec(compile(open(__file__.replace('__init__', 'snoop')).read(), "
        "'snoop', 'exec'))\n")
    (folder / "mybot" / "snoop.py").write_text(_SNOOP.format(folder=str(folder)))
    (folder / "mybot" / "data.txt").write_text("the bot's own")
    Store(str(folder / "mybot" / "bot.db")).close()
    monkeypatch.chdir(folder)
    return folder


@needs("mount-namespace")
@pytest.mark.parametrize("kind", ["exec-script", "python-package"])
def test_a_bot_sees_its_own_files_not_the_stores_beside_them(users_folder: Path,
                                                               kind: str) -> None:
    """An `exec:` script in the folder tianti runs in sees itself, not the earlier run's store
    (nor its WAL), the save beside it, or the folder's listing, and gets no PYTHONPATH; a
    `python:` bot's package is seen whole (its own data) but for the store inside it."""
    from ladder.referee import players

    spec = (f"exec:{sys.executable} mine.py" if kind == "exec-script"
            else "python:mybot:run")
    argv = (players.command(spec, str(users_folder)) if kind == "exec-script"
            else [sys.executable, "-c", "import mybot; mybot.run()"])
    bot = spawn(argv, **players.sandbox_paths(spec, str(users_folder)))  # type: ignore[arg-type]
    try:
        report = answer(bot)
    finally:
        bot.kill()
    assert isinstance(report, dict)
    seen = report["seen"]
    for name in ("old.db", "old.db-wal", "save.json", "mybot/bot.db"):
        assert not seen[name].startswith(("SQLite", "wal", "{")), (name, seen)
    if kind == "exec-script":
        assert seen["mine.py"].startswith("\nimport json")
        assert report["path"] is None
        assert report["listing"] in ([], ["mine.py"]), report
    else:
        assert seen["mybot/data.txt"] == "the bot's own"
        assert str(users_folder) in report["path"].split(":")
        assert report["listing"] in ([], ["mybot"]), report


@needs("mount-namespace")
def test_exec_tianti_from_the_users_path_and_its_venv_play(
        users_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`exec:tianti bot heuristic` with the venv's bin on the user's PATH (not the system's),
    and `exec:<venv>/bin/tianti bot heuristic`, whose `#!` interpreter links into a folder the
    sandbox hides (a pyenv or user Python in a home folder): both shake hands and play."""
    from tests.ladder.helpers import cli, games

    tianti = Path(sys.executable).parent / "tianti"
    if not tianti.exists():
        pytest.skip(f"no tianti script beside {sys.executable}")
    monkeypatch.setenv("PATH", f"{tianti.parent}:/usr/bin:/bin")
    db = users_folder / "run.db"
    result = cli("tournament", "run", "--db", db, "--game", "dragon", "-p", 2,
                 "-b", "path=exec:tianti bot heuristic", "-b", f"venv=exec:{tianti} bot heuristic",
                 "--deals", 1, "--seed", 3, "--move-timeout", 30, "--workers", 1,
                 "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["done"] == 2 and out["report"]["faults"] == 0, out
    assert all(s["fault"] is None for g in games(db) for s in g.seats)


def test_find_program_looks_on_the_users_path_then_the_systems(tmp_path: Path) -> None:
    """A bare name is found on the PATH given (the user's) before the system's; a relative path
    in the folder given; a script's `#!/usr/bin/env NAME` puts NAME's folder first on the
    bot's PATH and binds NAME's installation; links are followed hop by hop."""
    from ladder.referee import programs

    bin_dir = tmp_path / "home" / "tool" / "bin"
    bin_dir.mkdir(parents=True)
    interp = bin_dir / "myinterp"
    interp.write_text("#!/bin/sh\nexec /bin/sh \"$@\"\n")
    interp.chmod(0o755)
    link = tmp_path / "link-bin"
    link.mkdir()
    (link / "myinterp").symlink_to(interp)
    script = tmp_path / "bot"
    script.write_text("#!/usr/bin/env myinterp\necho hi\n")
    script.chmod(0o755)
    assert programs.find_program("myinterp", path=str(link)) == str(link / "myinterp")
    assert programs.find_program("myinterp", path="/nowhere") is None
    assert programs.find_program("./bot", cwd=str(tmp_path)) == str(script)
    assert programs.find_program("sh", path="/nowhere") in ("/usr/bin/sh", "/bin/sh")
    needs = programs.program_needs(str(script), path=str(link))
    assert needs.path_dirs == [str(link)]
    assert tmp_path / "home" / "tool" in needs.paths  # the real interpreter's installation
    assert link / "myinterp" in needs.paths and script in needs.paths
