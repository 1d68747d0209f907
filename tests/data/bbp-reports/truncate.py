"""Keeps the first ROUNDS rounds of a TRF file and recomputes its points column (1-0.5-0,
byes F/U a win's points, H a draw's), so that the reference pairs round ROUNDS+1.

    python3 truncate.py ROUNDS in.trf out.trf
"""
import sys

POINTS = {"1": 10, "+": 10, "W": 10, "F": 10, "U": 10, "=": 5, "D": 5, "H": 5}


def main():
    rounds, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    out = []
    for line in open(src, encoding="utf-8").read().splitlines():
        if line.startswith("001") and len(line) > 91:
            games = [line[91 + 10 * r : 101 + 10 * r] for r in range(rounds)]
            tenths = sum(POINTS.get(g.rstrip()[-1:], 0) for g in games if g.strip())
            head = line[:80] + f"{tenths // 10}.{tenths % 10}".rjust(4) + line[84:91]
            line = (head + "".join(games)).rstrip()
        out.append(line)
    open(dst, "w", encoding="utf-8").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
