#!/usr/bin/env python3
"""Plants one difference in round R of a TRF file (see README.md).

plant.py colour|exchange|pab ROUND IN.trf OUT.trf
  colour:   the first game of the round (lowest start number) with colours swapped;
  exchange: the first game of the round and the next with the same result, their black
            players exchanged (the scores stay);
  pab:      the PAB moved to the white player of the round's first game won by White
            (the scores stay), whose opponent
            plays the former PAB holder (with the moved player's colour and result).
"""
import sys

COMPLEMENT = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


def block_at(r):
    start = 89 + 10 * (r - 1)
    return start, start + 10


def main():
    kind, r, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    lines = open(src).read().split("\n")
    players = {}
    for i, line in enumerate(lines):
        if line.startswith("001 "):
            players[int(line[4:8])] = i
    a, b = block_at(r)

    def get(p):
        blk = lines[players[p]][a:b]
        opp = blk[2:6].strip()
        return (int(opp) if opp.isdigit() else 0, blk[7], blk[9])

    def put(p, opp, colour, result):
        line = lines[players[p]]
        blk = "  %4s %s %s" % (opp if opp else "0000", colour, result)
        lines[players[p]] = line[:a] + blk + line[b:]

    games = sorted(
        (p, o, c, res) for p in players for (o, c, res) in [get(p)] if o and c == "w"
    )
    if kind == "colour":
        w, bl, _, res = games[0]
        put(w, bl, "b", res)
        put(bl, w, "w", get(bl)[2])
    elif kind == "exchange":
        (w1, b1, _, r1) = games[0]
        (w2, b2, _, r2) = next(g for g in games[1:] if g[3] == r1)
        put(w1, b2, "w", r1)
        put(b2, w1, "b", COMPLEMENT[r1])
        put(w2, b1, "w", r2)
        put(b1, w2, "b", COMPLEMENT[r2])
    elif kind == "pab":
        x = next(p for p in sorted(players) if get(p)[2] == "U")
        w, bl, _, res = next(g for g in games if g[3] == "1")
        put(w, 0, "-", "U")
        put(x, bl, "w", res)
        put(bl, x, "b", COMPLEMENT[res])
    else:
        sys.exit("unknown kind " + kind)
    open(dst, "w").write("\n".join(lines))


main()
