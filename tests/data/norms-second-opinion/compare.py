#!/usr/bin/env python3
"""Second opinion on title norms (B.01 1.4): swisspair's `norms` against Sharly-Chess's
norm evaluator, requirement by requirement, on the same events.

Not run by CI (it needs a checkout of Sharly-Chess and its Python packages, kept outside
this repository). See README.md in this folder for how to run it; the counts and every
difference are in docs/decisions.md ("Norms: second opinion").

    compare.py generate OUTDIR            # the generated events (swisspair simulate + titles)
    compare.py compare FILE.trf ...       # compare both evaluators on each file

Environment: SWISSPAIR (the binary; default target/debug/swisspair) and SHARLY_SRC (the
`src` folder of a Sharly-Chess checkout, imported as a library: its evaluator is called,
none of its code is copied here).
"""
import collections
import json
import os
import random
import subprocess
import sys

SWISSPAIR = os.environ.get("SWISSPAIR", "target/debug/swisspair")

FEDERATIONS = ["HUN", "GER", "SRB", "IND", "POL", "CZE", "ESP", "NED", "USA", "FID"]


# ---------------------------------------------------------------- generated events

def generate(outdir):
    """Events of 9-11 rounds paired by swisspair's simulator; the players' ratings are
    then mapped monotonically into 1950-2650 (the pairing order stays the same), and
    titles, sexes, federations and a few unrated players are drawn from a seed."""
    os.makedirs(outdir, exist_ok=True)
    specs = []
    for seed in range(1, 9):
        specs.append(("swiss", seed, ["--system", "dutch", "--players", "44",
                                       "--rounds", str(9 + seed % 3)]))
    for seed in range(9, 12):
        specs.append(("swiss-byes", seed, ["--system", "dutch", "--players", "36",
                                            "--rounds", "9", "--forfeits", "3",
                                            "--full-point-byes", "2",
                                            "--half-point-byes", "3"]))
    for seed in range(12, 16):
        specs.append(("rr", seed, ["--system", "round-robin", "--players", "10",
                                    "--rounds", "9"]))
    # Last-round forfeits (1.4.2c) and games scored by the arbiter (½-0, 0-½, 0-0).
    for seed in range(17, 20):
        specs.append(("swiss-unusual", seed, ["--system", "dutch", "--players", "30",
                                               "--rounds", "9", "--forfeits", "3@9",
                                               "--half-zero", "2", "--zero-half", "1",
                                               "--zero-zero", "1"]))
    # A big open whose field makes 1.4.3d plausible.
    specs.append(("open", 16, ["--system", "dutch", "--players", "90", "--rounds", "9"]))
    files = []
    for kind, seed, args in specs:
        path = os.path.join(outdir, f"{kind}-{seed:02}.trf")
        subprocess.run([SWISSPAIR, "simulate", *args, "--seed", str(seed), "-o", path],
                       check=True)
        rewrite(path, seed, kind)
        files.append(path)
    return files


def rewrite(path, seed, kind):
    rng = random.Random(seed * 7919)
    host = FEDERATIONS[seed % 4]
    lines = open(path, encoding="utf-8").read().splitlines()
    out = []
    for line in lines:
        if line.startswith("001"):
            line = line.ljust(91)
            rating = int(line[48:52] or 0)
            new = 1950 + (rating - 1000) * 700 // 1800 if rating else 0
            if kind == "rr" and rng.random() < 0.12:
                new = 0
            sex = "w" if rng.random() < 0.25 else "m"
            title = ""
            r = new
            if r >= 2520:
                title = rng.choice(["GM", "GM", "GM", "IM"])
            elif r >= 2420:
                title = rng.choice(["GM", "IM", "IM", "FM"])
            elif r >= 2330:
                title = rng.choice(["IM", "FM", "FM", "", "CM"])
            elif r >= 2200:
                title = rng.choice(["FM", "", "", "CM"])
            if sex == "w" and title in ("", "FM", "CM") and r >= 2150:
                title = rng.choice(["WGM", "WIM", "WFM", title])
            fed = host if rng.random() < 0.4 else rng.choice(FEDERATIONS)
            line = (line[:9] + sex + title.ljust(3)[:3] + line[13:48]
                    + (f"{new:4d}" if new else "    ") + line[52:53] + fed.ljust(3)
                    + line[56:])
        out.append(line.rstrip())
    out.insert(1, f"032 {host}")
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")


# ---------------------------------------------------------------- reading a TRF

def read_trf(path):
    players = {}
    host = ""
    system = ""
    for line in open(path, encoding="utf-8", errors="replace").read().splitlines():
        if line.startswith("032"):
            host = line[4:].strip()
        if line.startswith("092") or line.startswith("192"):
            system = line[4:].strip()
        if not line.startswith("001"):
            continue
        line = line.ljust(91)
        rank = int(line[4:8])
        rounds = []
        pos = 91
        while pos + 8 <= len(line.rstrip()) + 1:
            cell = line[pos:pos + 8]
            if not cell.strip():
                rounds.append(None)
            else:
                opp = cell[0:4].strip()
                rounds.append((int(opp) if opp and opp != "0000" else 0,
                               cell[5], cell[7]))
            pos += 10
        players[rank] = {
            "rank": rank,
            "sex": line[9].strip(),
            "title": line[10:13].strip().upper(),
            "rating": int(line[48:52].strip() or 0),
            "fed": line[53:56].strip(),
            "rounds": rounds,
        }
    n_rounds = max((len(p["rounds"]) for p in players.values()), default=0)
    for p in players.values():
        p["rounds"] += [None] * (n_rounds - len(p["rounds"]))
    return players, host, system, n_rounds


# ---------------------------------------------------------------- Sharly-Chess's side

def sharly_checks(path):
    sys.path.insert(0, os.environ["SHARLY_SRC"])
    from types import SimpleNamespace as NS
    from data.norms import TitleNormSubsetSearcher, compute_big_tournament_exemption
    from data.pairings.systems import RoundRobinPairingSystem, SwissPairingSystem
    from utils.enum import PlayerGender, PlayerRatingType, PlayerTitle, Result, TitleNorm
    from utils.types import Federation

    players, host, system, n_rounds = read_trf(path)
    rr = "ROUNDROBIN" in system.upper().replace("_", "") or system.upper() in ("RR", "BERGER")
    event = NS(federation=host)
    tournament = NS(rounds=n_rounds, event=event,
                    pairing_system=RoundRobinPairingSystem() if rr else SwissPairingSystem(),
                    pairing_variation=None, high_level_tournament=False)
    objs = {}
    for rank, p in players.items():
        title = PlayerTitle(p["title"]) if p["title"] in PlayerTitle._value2member_map_ else PlayerTitle.NONE
        objs[rank] = NS(id=rank, rating=p["rating"],
                        rating_type=PlayerRatingType.FIDE if p["rating"] else PlayerRatingType.ESTIMATED,
                        federation=Federation(p["fed"]), title=title,
                        gender=PlayerGender.WOMAN if p["sex"] in ("w", "f") else PlayerGender.MAN,
                        event=event, tournament=tournament, pairings_by_round={})
    codes = {"1": Result.WIN, "=": Result.DRAW, "0": Result.LOSS,
             "W": Result.UNRATED_WIN, "D": Result.UNRATED_DRAW, "L": Result.UNRATED_LOSS,
             "+": Result.FORFEIT_WIN, "-": Result.FORFEIT_LOSS}
    for rank, p in players.items():
        for r, cell in enumerate(p["rounds"], start=1):
            if cell is None:
                objs[rank].pairings_by_round[r] = NS(opponent=None, result=Result.NO_RESULT)
                continue
            opp, _colour, code = cell
            if opp == 0:
                result = {"U": Result.PAIRING_ALLOCATED_BYE, "H": Result.HALF_POINT_BYE,
                          "F": Result.FULL_POINT_BYE, "Z": Result.ZERO_POINT_BYE,
                          "+": Result.FORFEIT_WIN, "-": Result.ZERO_POINT_BYE}.get(code, Result.NO_RESULT)
                objs[rank].pairings_by_round[r] = NS(opponent=None, result=result)
                continue
            theirs = players[opp]["rounds"][r - 1][2]
            result = codes.get(code, Result.NO_RESULT)
            if code == "-" and theirs == "-":
                result = Result.DOUBLE_FORFEIT
            elif code == "=" and theirs == "0":
                result = Result.PENALTY_DL
            elif code == "0" and theirs == "=":
                result = Result.PENALTY_LD
            elif code == "0" and theirs == "0":
                result = Result.PENALTY_LL
            objs[rank].pairings_by_round[r] = NS(opponent=objs[opp], result=result)
    for o in objs.values():
        for pr in o.pairings_by_round.values():
            pr.unplayed = pr.result.is_unplayed
            pr.played = not pr.unplayed
    tournament.tournament_players_by_id = objs
    tournament.big_tournament_exemption = compute_big_tournament_exemption(tournament)
    if rr:
        # 1.4.3d is for Swiss events; Sharly-Chess computes it for any system.
        pass
    out = {}
    for rank, o in objs.items():
        results = TitleNormSubsetSearcher(o).evaluate()
        for tn, res in results.items():
            counter = res.federations_counter or collections.Counter()
            top = max(counter.values()) if counter else 0
            own = res.from_own_federations_count
            out[(str(rank), tn.name)] = {
                "games": res.played_games,
                "other_federations": res.federations_count - (1 if own else 0),
                "own_federation": own,
                "one_federation": top,
                "title_holders": res.num_title_holders,
                "norm_titles": res.required_titles_met,
                "floor_raised_from": (0 if res.adjusted_player is None else
                                      (res.adjusted_player.rating if res.adjusted_player.rating_type == PlayerRatingType.FIDE else 1400)),
                "average": int(res.average_rating),
                "performance": int(res.performance),
                "score": float(res.score),
                "exempt_143d": bool(res.is_143d_met),
                "met": bool(res.is_met),
            }
    return out, rr


# ---------------------------------------------------------------- swisspair's side

def ours_checks(path, rr):
    args = [SWISSPAIR, "norms", path, "--json"] + (["--round-robin"] if rr else [])
    resp = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    out = {}
    for c in resp.get("checks", []):
        req = collections.defaultdict(list)
        for q in c.get("requirements", []):
            req[q.get("name")].append(q)
        def value(name):
            return req[name][0]["value"] if req.get(name) else None
        foreign = value("federations other than the player's")
        if foreign is None and req.get("foreigner requirement (1.4.3-1.4.4)"):
            foreign = req["foreigner requirement (1.4.3-1.4.4)"][0]["value"].split()[0]
        raised = [o for o in c.get("opponents", []) if o.get("raisedToFloor")]
        score = c.get("score", "0")
        out[(c["playerId"], c["title"])] = {
            "games": int(c.get("games", 0)),
            "other_federations": int(foreign) if foreign is not None else None,
            "own_federation": int(value("opponents from the player's federation")) if value("opponents from the player's federation") else None,
            "one_federation": int(value("opponents from one federation").split()[0]) if value("opponents from one federation") else None,
            "title_holders": int(value("title-holders")),
            "norm_titles": int(value("opponents with the title or above")),
            "floor_raised_from": (raised[0].get("rating", 0) or 1400) if raised else 0,
            "average": int(c.get("average", 0)),
            "performance": int(c.get("performance", 0)),
            "score": float(score),
            "exempt_143d": c.get("exemption", "") == "1.4.3d",
            "met": bool(c.get("met", False)),
        }
    return out


def compare(files):
    # Sharly-Chess writes its logs and caches under the working directory: run it in its
    # own checkout, never in this repository.
    global SWISSPAIR
    SWISSPAIR = os.path.abspath(SWISSPAIR)
    files = [os.path.abspath(f) for f in files]
    os.chdir(os.path.dirname(os.path.abspath(os.environ["SHARLY_SRC"])))
    totals = collections.Counter()
    diffs = collections.Counter()
    examples = collections.defaultdict(list)
    for path in files:
        sharly, rr = sharly_checks(path)
        ours = ours_checks(path, rr)
        totals["events"] += 1
        totals["players"] += len({k[0] for k in sharly})
        for key, mine in ours.items():
            theirs = sharly[key]
            totals["norms checked"] += 1
            same = True
            for field, v in mine.items():
                if v is None:
                    continue  # the requirement is exempt in our answer
                totals[f"compared {field}"] += 1
                if v != theirs[field]:
                    same = False
                    diffs[field] += 1
                    if len(examples[field]) < 6:
                        examples[field].append((os.path.basename(path), key, v, theirs[field]))
            totals["agreements" if same else "differences"] += 1
    print("totals:", json.dumps(totals, sort_keys=True))
    print("differences per requirement:", json.dumps(diffs, sort_keys=True))
    for field, rows in sorted(examples.items()):
        for f, key, v, w in rows:
            print(f"  {field}: {f} player {key[0]} {key[1]}: swisspair {v}, Sharly-Chess {w}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        print("\n".join(generate(sys.argv[2])))
    elif len(sys.argv) >= 3 and sys.argv[1] == "compare":
        compare(sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)
