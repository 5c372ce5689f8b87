"""Shared fixtures for the third-party client tests: where the engine binary is, and a per-test
alarm so that a hung engine fails the test instead of hanging the run."""

import os
import pathlib
import signal

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def engine_path() -> str:
    path = os.environ.get("SENTE_BIN", str(ROOT / "target" / "release" / "sente"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"engine binary not found at {path}: build it with cargo build --release -p sente")
    return path


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
