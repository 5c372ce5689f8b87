"""`Debug Log File` through UCI, USI and CECP: every line in and out, timestamped, appended;
an unwritable path is reported and changes nothing."""

import re
import subprocess

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"


def talk(engine_path, lines):
    run = subprocess.run([engine_path], input="".join(l + "\n" for l in lines), capture_output=True, text=True, timeout=60)
    return run.stdout.splitlines()


def test_uci_usi_and_cecp_log_every_line(engine_path, tmp_path):
    for first, name, lines in [
        ("uci", "Debug Log File", ["position startpos", "go depth 3", "isready"]),
        ("usi", "DebugLogFile", ["position startpos", "go depth 2", "isready"]),
    ]:
        log = tmp_path / f"{first}.log"
        out = talk(engine_path, [first, f"setoption name {name} value {log}"] + lines + ["quit"])
        logged = log.read_text().splitlines()
        assert all(re.match(STAMP + r" (>>|<<) ", l) for l in logged), logged[:3]
        sent = [l.split(" >> ", 1)[1] for l in logged if " >> " in l]
        assert sent == lines + ["quit"], sent
        received = [l.split(" << ", 1)[1] for l in logged if " << " in l]
        assert "readyok" in received and any(r.startswith("bestmove") for r in received), received
        assert set(received) <= set(out), set(received) - set(out)
        # Appended, not replaced.
        talk(engine_path, [first, f"setoption name {name} value {log}", "isready", "quit"])
        assert len(log.read_text().splitlines()) > len(logged)
    log = tmp_path / "cecp.log"
    talk(engine_path, ["xboard", "protover 2", f"option DebugLogFile={log}", "ping 7", "quit"])
    logged = log.read_text().splitlines()
    assert any(l.endswith(">> ping 7") for l in logged) and any(l.endswith("<< pong 7") for l in logged), logged


def test_unwritable_path_is_reported_and_changes_nothing(engine_path, tmp_path):
    out = talk(engine_path, ["uci", f"setoption name Debug Log File value {tmp_path}/no/such/dir/x.log", "isready", "quit"])
    notes = [l for l in out if l.startswith("info string")]
    assert len(notes) == 1 and "cannot be written" in notes[0] and "no/such/dir" in notes[0], notes
    assert out[-1] == "readyok"
    out = talk(engine_path, ["xboard", "protover 2", f"option DebugLogFile={tmp_path}", "ping 1", "quit"])
    assert any(l.startswith("telluser Debug Log File") and "cannot be written" in l for l in out), out
