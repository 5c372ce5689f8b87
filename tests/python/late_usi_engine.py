"""A USI engine that always answers late: it plays its first legal move (cshogi's order) after
thinking for its whole byoyomi period plus OVERSHOOT_MS (its only argument). The match runner's
time-margin test plays against it."""

import sys
import time

import cshogi


def main():
    overshoot = int(sys.argv[1]) / 1000.0
    board = cshogi.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "usi":
            print("id name late", "usiok", sep="\n", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            board = cshogi.Board()
            if "moves" in words:
                for move in words[words.index("moves") + 1:]:
                    board.push_usi(move)
        elif words[0] == "go":
            byoyomi = int(words[words.index("byoyomi") + 1]) if "byoyomi" in words else 0
            time.sleep(byoyomi / 1000.0 + overshoot)
            legal = list(board.legal_moves)
            print("bestmove " + (cshogi.move_to_usi(legal[0]) if legal else "resign"), flush=True)
        elif words[0] == "quit":
            break


if __name__ == "__main__":
    main()
