#!/usr/bin/env python3
"""Times shogi perft with cshogi for comparison with `cargo bench -p sente --bench shogi_perft`.

The tree is walked from Python (push/pop), and the last ply is bulk-counted with
len(board.legal_moves), which cshogi generates in C++. Usage: cshogi_perft.py [DEPTH ...]
(default: 5). Expected counts from startpos: 5 -> 19861490, 6 -> 547581517.
"""
import sys
import time

import cshogi

EXPECTED = {1: 30, 2: 900, 3: 25470, 4: 719731, 5: 19861490, 6: 547581517}


def perft(board: cshogi.Board, depth: int) -> int:
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in list(moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main() -> None:
    depths = [int(a) for a in sys.argv[1:]] or [5]
    for depth in depths:
        board = cshogi.Board()
        start = time.perf_counter()
        nodes = perft(board, depth)
        secs = time.perf_counter() - start
        status = "ok" if EXPECTED.get(depth) in (None, nodes) else f"WRONG (expected {EXPECTED[depth]})"
        print(f"cshogi {cshogi.__name__} perft startpos depth {depth}: {nodes} leaves in {secs:.3f} s "
              f"= {nodes / secs / 1e6:.1f} M leaves/s [{status}]")


if __name__ == "__main__":
    main()
