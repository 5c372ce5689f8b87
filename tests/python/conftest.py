"""Shared fixtures and helpers for the third-party client tests: where the release binaries and
the cached test data are, the scripts under `scripts/` as modules, and a per-test alarm so that a
hung engine fails the test instead of hanging the run."""

import importlib.util
import os
import pathlib
import signal
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def release_binary(env_var: str, name: str, package: str) -> str:
    """The path `env_var` names, or else the release build of the workspace binary `name`; fails
    the test when no executable is there."""
    path = os.environ.get(env_var, str(ROOT / "target" / "release" / name))
    if not os.access(path, os.X_OK):
        pytest.fail(f"{name} binary not found at {path}: build it with cargo build --release -p {package}")
    return path


@pytest.fixture(scope="session")
def engine_path() -> str:
    return release_binary("SENTE_BIN", "sente", "sente")


@pytest.fixture(scope="session")
def test_data_dir() -> pathlib.Path:
    """The cache of python-chess's test data (`syzygy/`, `polyglot/`): scripts/fetch-test-data.sh
    fetches it once and prints where it is."""
    cache = subprocess.run(
        [str(ROOT / "scripts" / "fetch-test-data.sh")], check=True, capture_output=True, text=True
    ).stdout.strip()
    return pathlib.Path(cache)


def load_script(file_name: str, module_name: str):
    """The Python script `scripts/<file_name>` loaded as a module named `module_name` (the
    scripts are not a package, and some names have hyphens)."""
    spec = importlib.util.spec_from_file_location(module_name, ROOT / "scripts" / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def engine_dialogue(engine_path, lines, expect_last):
    """Starts the engine, sends `lines`, reads until a line starting with `expect_last` and quits;
    returns the output lines read."""
    proc = subprocess.Popen(
        [engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    proc.stdin.write("".join(line + "\n" for line in lines))
    proc.stdin.flush()
    out = []
    while True:
        line = proc.stdout.readline()
        assert line, out
        out.append(line.rstrip("\n"))
        if line.startswith(expect_last):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return out


def running_engine(popen, engine_path):
    """For an `engine` fixture to `yield from`: the engine binary started through python-chess's
    `popen` (`chess.engine.SimpleEngine.popen_uci` or `popen_xboard`), quit after the test."""
    eng = popen(engine_path, timeout=20)
    yield eng
    eng.quit()


class EngineTimeout(Exception):
    pass


@pytest.fixture(autouse=True)
def deadline():
    """Fails any test that runs longer than 180 s (a hung engine must not hang the suite)."""

    def expire(signum, frame):
        raise EngineTimeout("test exceeded 180 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(int(os.environ.get("SENTE_TEST_TIMEOUT", "180")))
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)
