//! lichess's command line (issue 37, part 3): lichess writes a TRF and runs
//! `bbpPairings --dutch|--burstein|--fast FILE -p`, with bbpPairings' fork for lichess, which
//! reads `XXW 7` as "player ids have 7 digits" (`docs/formats.md`, "Wide player ids").
mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use common::server::Server;
use common::swisspair;
use swisspair::model::{Bye, ByeKind, Colour, Round, SystemId, Tournament};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::service::convert::tournament::tournament_to_proto;
use swisspair::simulate::{self, SimConfig, plan::Planned};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("swisspair-lichess-{}-{name}", std::process::id()))
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A line as lila's `SwissTrf.formatLine` builds it: each text right-aligned to end at its
/// column (1-based).
fn placed(bits: &[(usize, String)]) -> String {
    let mut line = String::new();
    for (end, text) in bits {
        let pad = end.saturating_sub(text.chars().count() + line.chars().count());
        line.push_str(&" ".repeat(pad));
        line.push_str(text);
    }
    line
}

/// The tournament as lichess writes it for bbpPairings' fork with 7-digit ids: `XXW 7` at
/// the top, lila's header lines, and lila's player lines (id, user name, rating, points,
/// then per round opponent, colour, result) with every field after the id 3 columns to the
/// right and each round 13 columns wide. A pairing-allocated bye is `0000000` (the fork's
/// zero-fill) with `U`, a late entry's half point a blank opponent with `H` (lila's form),
/// and a player absent from the round to pair `0000000 -` in that round's columns.
fn lichess_trf(t: &Tournament) -> String {
    const W: usize = 7;
    let shift = W - 4;
    let played = t.rounds_paired() as usize;
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&p| t.pairing_number(p));
    let points = t.points_after(played as u32);
    let colour = |c: Option<Colour>| {
        if c == Some(Colour::Black) {
            "black1"
        } else {
            "white1"
        }
    };
    let mut out = vec![
        format!("XXW {W}"),
        "012 Lichess Titled Swiss".to_string(),
        "022 https://lichess.org/swiss/lichess7".to_string(),
        "032 Lichess".to_string(),
        "042 Nov 28, 2025".to_string(),
        "052 ".to_string(),
        format!("062 {}", t.players.len()),
        "092 Individual: Swiss-System".to_string(),
        "102 https://lichess.org/swiss".to_string(),
        format!("XXR {}", t.total_rounds),
        format!("XXC {}", colour(t.initial_colour)),
    ];
    for &p in &order {
        let name = format!("user{}", t.pairing_number(p));
        let mut bits = vec![
            (3, "001".to_string()),
            (8 + shift, t.pairing_number(p).to_string()),
            (15 + shift + name.len(), name),
            (52 + shift, t.players[p].rating.to_string()),
            (
                84 + shift,
                format!(
                    "{:.1}",
                    points[p].to_string().parse::<f64>().expect("points")
                ),
            ),
        ];
        for (r, round) in t.rounds.iter().enumerate() {
            // Round 1 starts at column 92 + shift; the opponent fills W columns, then a
            // space, the colour, a space, the result, two spaces.
            let start = 92 + shift + (W + 6) * r;
            let (opponent, colour, code) =
                if let Some(g) = round.games.iter().find(|g| g.white == p || g.black == p) {
                    let white = g.white == p;
                    let other = if white { g.black } else { g.white };
                    let points_of = |w: bool| {
                        use swisspair::model::GameResult::*;
                        match (g.result, w) {
                            (WhiteWins, true) | (BlackWins, false) => "1",
                            (WhiteWins, false) | (BlackWins, true) => "0",
                            (Draw, _) => "=",
                            other => panic!("lichess writes no {other:?}"),
                        }
                    };
                    (
                        t.pairing_number(other).to_string(),
                        if white { "w" } else { "b" },
                        points_of(white),
                    )
                } else if let Some(b) = round.byes.iter().find(|b| b.player == p) {
                    match b.kind {
                        ByeKind::Pab => ("0".repeat(W), "", "U"),
                        ByeKind::HalfPoint => (String::new(), "", "H"),
                        ByeKind::ZeroPoint if r == played => ("0".repeat(W), "", "-"),
                        other => panic!("lichess writes no {other:?} bye"),
                    }
                } else {
                    continue;
                };
            bits.push((start + W - 1, opponent));
            bits.push((start + W + 1, colour.to_string()));
            bits.push((start + W + 3, code.to_string()));
        }
        out.push(placed(&bits));
    }
    out.join("\n") + "\n"
}

/// The engines' pair list from a gRPC answer: the number of pairs, `white black` by pairing
/// number in board order, the pairing-allocated bye as `id 0`.
fn pair_list(r: &proto::PairResponse) -> String {
    let allocated: Vec<u32> = r
        .byes
        .iter()
        .filter(|b| b.kind == proto::ByeKind::Pab as i32)
        .map(|b| b.pairing_number)
        .collect();
    let mut out = format!("{}\n", r.boards.len() + allocated.len());
    for b in &r.boards {
        out.push_str(&format!(
            "{} {}\n",
            b.first_pairing_number, b.second_pairing_number
        ));
    }
    for p in allocated {
        out.push_str(&format!("{p} 0\n"));
    }
    out
}

/// 12,000 players after one round, as lichess would write them with 7-digit ids, paired
/// through the literal command line `swisspair --fast FILE -p OUT` and through gRPC (the
/// tournament itself, not the file): the same pairs in the same order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twelve_thousand_players_as_lichess_writes_them() {
    let started = Instant::now();
    let players = 12_000;
    // One round by the Dutch system, one player with a (late entry's) half-point bye, so
    // that another has the pairing-allocated bye.
    let mut config = SimConfig::new(SystemId::Dutch, players, 1, 37);
    config.half_point_byes = vec![Planned::parse("1@1").expect("a plan")];
    let mut t = simulate::simulate(&config).expect("round 1");
    t.total_rounds = 9;
    // lichess marks a player who left as absent from the round to pair.
    let absent = t
        .players
        .iter()
        .position(|p| p.pairing_number == Some(10_500))
        .expect("player 10500");
    t.rounds.push(Round {
        byes: vec![Bye {
            player: absent,
            kind: ByeKind::ZeroPoint,
        }],
        ..Round::default()
    });
    assert!(t.rounds[0].byes.iter().any(|b| b.kind == ByeKind::Pab));
    let simulated = started.elapsed();

    let text = lichess_trf(&t);
    let input = temp("12000.trf");
    std::fs::write(&input, &text).expect("write");
    let first = text
        .lines()
        .find(|l| l.starts_with("001"))
        .expect("a player line");
    assert_eq!(&first[..11], "001       1", "7-digit ids: {first:?}");
    assert!(text.contains("0000000   U"), "the PAB zero-filled");

    // The file reads back as the tournament: players, round 1, the absent player.
    let doc = swisspair::pairing::read_trf(&text).expect("the wide TRF reads");
    assert!(
        doc.points_mismatches().is_empty(),
        "{:?}",
        doc.points_mismatches()
    );
    let read = &doc.tournament;
    assert_eq!(read.players.len(), players as usize);
    assert_eq!(read.total_rounds, 9);
    let by_number = |u: &Tournament, round: usize| {
        let r = &u.rounds[round];
        let mut games: Vec<(u32, u32, _)> = r
            .games
            .iter()
            .map(|g| {
                (
                    u.pairing_number(g.white),
                    u.pairing_number(g.black),
                    g.result,
                )
            })
            .collect();
        games.sort_by_key(|g| (g.0, g.1));
        let mut byes: Vec<(u32, ByeKind)> = r
            .byes
            .iter()
            .map(|b| (u.pairing_number(b.player), b.kind))
            .collect();
        byes.sort_by_key(|b| b.0);
        (games, byes)
    };
    assert_eq!(by_number(read, 0), by_number(&t, 0));
    assert_eq!(by_number(read, 1), by_number(&t, 1));
    for p in &read.players {
        let number = p.pairing_number.expect("numbered");
        let q = t
            .players
            .iter()
            .find(|q| q.pairing_number == Some(number))
            .expect("the same number");
        assert_eq!(
            (p.rating, p.name.as_str()),
            (q.rating, &*format!("user{number}"))
        );
    }

    // The literal command line, in its own process, while the server pairs the same
    // tournament.
    let out = temp("12000.pairs.txt");
    let cli_started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_swisspair"))
        .args(["--fast", s(&input), "-p", s(&out)])
        .output();
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let grpc_started = Instant::now();
    let request = proto::PairRequest {
        input: Some(proto::pair_request::Input::Tournament(tournament_to_proto(
            &t,
        ))),
        system: proto::PairingSystem::Dutch as i32,
        ..proto::PairRequest::default()
    };
    let answer = client.pair(request).await.expect("gRPC pairs").into_inner();
    let grpc_time = grpc_started.elapsed();
    server.stop().await;
    let child = child.expect("runs");
    let cli_time = cli_started.elapsed();
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert_eq!(child.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr
            .matches("--fast pairs with the exact Dutch system")
            .count(),
        1,
        "{stderr}"
    );
    let written = std::fs::read_to_string(&out).expect("the pairs");
    assert_eq!(answer.round, 2);
    assert_eq!(written, pair_list(&answer));

    // What lichess's reader takes from it: the count, then `white black`, a bye `id 0`.
    let mut lines = written.lines();
    let count: usize = lines.next().and_then(|l| l.parse().ok()).expect("a count");
    let mut seen = vec![false; players as usize + 1];
    let mut byes = 0;
    for line in lines {
        let (w, b) = line.split_once(' ').expect("two numbers");
        let (w, b): (usize, usize) = (w.parse().expect("white"), b.parse().expect("black"));
        for p in [w, b].into_iter().filter(|&p| p != 0) {
            assert!(!seen[p], "player {p} twice");
            seen[p] = true;
        }
        byes += usize::from(b == 0);
    }
    assert_eq!(count, (players as usize - 1).div_ceil(2));
    assert_eq!(byes, 1, "11,999 to pair: one PAB");
    assert!(!seen[10_500], "the absent player is not paired");
    assert_eq!(seen.iter().filter(|&&x| x).count(), players as usize - 1);
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
    eprintln!(
        "12,000 players: simulated in {simulated:.1?}, CLI {cli_time:.1?}, gRPC {grpc_time:.1?}, \
         all {:.1?}",
        started.elapsed()
    );
}

/// `--fast` (the fork's approximate system) pairs as `--dutch`, in every engine form, and
/// says so once on standard error.
#[test]
fn fast_pairs_with_the_dutch_and_says_so_once() {
    let input = common::dutch_truncated("dutch-0003.trf", 2, temp("fast-dutch-0003.trf"));
    let (code, dutch, err) = swisspair(&["--dutch", s(&input), "-p"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let (code, fast, err) = swisspair(&["--fast", s(&input), "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(fast, dutch);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--fast pairs with the exact Dutch system"),
        "{err}"
    );
    // The flag anywhere, as the fork's other forms: check and generate.
    let out = temp("fast-out.txt");
    let (code, _, err) = swisspair(&[s(&input), "-p", s(&out), "--fast"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&out).expect("pairs"), dutch);
    let (code, report, err) = swisspair(&["--fast", s(&input), "-c"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("--fast pairs").count(), 1, "{err}");
    let (_, dutch_report, _) = swisspair(&["--dutch", s(&input), "-c"]);
    assert_eq!(report, dutch_report);
    let generated = temp("fast-gen.trf");
    let (code, _, err) = swisspair(&["--fast", "-g", "-o", s(&generated)]);
    assert_eq!(code, 0, "{err}");
    let doc = swisspair::pairing::read_trf(&std::fs::read_to_string(&generated).expect("file"))
        .expect("a TRF");
    assert_eq!(doc.tournament.system, Some(SystemId::Dutch));
}

/// A round that cannot be paired: exit 1, with bbpPairings' words on standard error (lichess
/// reads "No valid pairing exists" as the end of the event, not a failure).
#[test]
fn no_valid_pairing_in_the_engines_words() {
    let text = [
        "012 Two\nXXR 2\nXXC white1".to_string(),
        player(4, 1, "user1", 1900, "1.0", &["   2 w 1"]),
        player(4, 2, "user2", 1800, "0.0", &["   1 b 0"]),
    ]
    .join("\n");
    let input = temp("two.trf");
    std::fs::write(&input, text).expect("write");
    let (code, out, err) = swisspair(&["--fast", s(&input), "-p"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!(
            "Error while pairing {}: No valid pairing exists",
            s(&input)
        )),
        "{err}"
    );
}

/// A player line of `width`-digit ids: TRF-16's layout for 4, else the fork's, every field
/// after the id `width - 4` columns to the right, rounds of `width + 6` columns.
fn player(
    width: usize,
    rank: u32,
    name: &str,
    rating: u32,
    points: &str,
    rounds: &[&str],
) -> String {
    let mut line = format!(
        "001 {rank:>width$}      {name:<33} {rating:>4}{:28}{points:>4}{:7}",
        "", ""
    );
    for r in rounds {
        line.push_str(r);
    }
    line
}

/// `XXW <digits>` (one number) is the width of ids; `XXW <rank> <round>` (two) is
/// swisspair's withdrawal: both in one file, the width line before or after the players.
#[test]
fn the_width_line_and_the_withdrawal_are_told_apart() {
    let players = [
        player(5, 1, "user1", 2000, "1.0", &["    2 w 1  "]),
        player(5, 2, "user2", 1900, "0.0", &["    1 b 0  "]),
        player(5, 3, "user3", 1800, "1.0", &["00000 - U  "]),
    ];
    assert_eq!(players[0].find("user1"), Some(15), "name at column 16");
    assert_eq!(players[0].find(" 1.0"), Some(81), "points at columns 82-85");
    assert_eq!(
        players[0].find("    2 w 1"),
        Some(92),
        "round 1 at column 93"
    );
    let with = |head: &[&str], tail: &[&str]| {
        let mut lines: Vec<String> = head.iter().map(|l| l.to_string()).collect();
        lines.extend(players.iter().cloned());
        lines.extend(tail.iter().map(|l| l.to_string()));
        lines.join("\n") + "\n"
    };
    let check = |text: &str| {
        let doc = swisspair::pairing::read_trf(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let t = &doc.tournament;
        assert_eq!(t.players.len(), 3);
        assert_eq!(t.players[0].name, "user1");
        assert_eq!(t.players[0].rating, 2000);
        assert_eq!(t.rounds[0].games.len(), 1);
        assert_eq!(t.rounds[0].byes[0].kind, ByeKind::Pab);
        assert_eq!(t.players[1].withdrawn_from_round, Some(2));
        assert!(doc.points_mismatches().is_empty());
        assert!(doc.other_lines.iter().all(|l| !l.starts_with("XXW")));
    };
    check(&with(&["XXW 5", "012 Wide", "XXR 3"], &["XXW 2 2"]));
    check(&with(&["012 Wide", "XXW 2 2", "XXR 3"], &["XXW 5"]));
    // The same width twice is one width; two widths, a number out of range, or three
    // numbers are errors at their line.
    check(&with(&["XXW 5", "012 Wide", "XXW   5"], &["XXW 2 2"]));
    let error = |text: &str| swisspair::pairing::read_trf(text).expect_err("an error");
    let e = error(&with(&["XXW 5", "012 Wide"], &["XXW 6"]));
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("one width"), "{e}");
    let e = error(&with(&["XXW 3", "012 Wide"], &[]));
    assert_eq!(e.line, 1, "{e}");
    assert!(e.message.contains("4 to 9"), "{e}");
    let e = error(&with(&["XXW 5", "012 Wide"], &["XXW 2 2 1"]));
    assert!(e.message.contains("a starting rank and a round"), "{e}");
    // Without the width line the same lines are not 4-digit ids.
    assert!(swisspair::pairing::read_trf(&with(&["012 Wide"], &[])).is_err());
}

/// Write → read gives the same tournament above 9,999 players, in both dialects: the
/// writer says `XXW 5` before the players and zero-fills a bye; withdrawals, late entries
/// and virtual points (`XXA`, whose id widens too) come back.
#[test]
fn more_than_9999_players_round_trip() {
    use swisspair::model::{Acceleration, Game, GameResult, Player};
    let n = 10_001u32;
    let mut t = Tournament {
        name: "Wide".to_string(),
        system: Some(SystemId::Dutch),
        total_rounds: 5,
        initial_colour: Some(Colour::White),
        players: (1..=n)
            .map(|i| Player {
                id: i.to_string(),
                name: format!("user{i}"),
                rating: 1000 + i % 1500,
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    let half = (n / 2) as usize;
    t.rounds.push(Round {
        games: (0..half)
            .map(|i| Game {
                white: i,
                black: i + half,
                result: if i % 3 == 0 {
                    GameResult::Draw
                } else {
                    GameResult::WhiteWins
                },
                board: None,
            })
            .collect(),
        byes: vec![Bye {
            player: n as usize - 1,
            kind: ByeKind::Pab,
        }],
    });
    t.players[n as usize - 2].withdrawn_from_round = Some(2);
    t.players[n as usize - 3].late_entry_round = Some(1);
    t.accelerations.push(Acceleration {
        player: n as usize - 4,
        first_round: 1,
        last_round: 2,
        points: swisspair::model::Score::from_points_f64(1.0).expect("a score"),
    });
    let doc = swisspair::trf::TrfDocument {
        tournament: t,
        ..swisspair::trf::TrfDocument::default()
    };
    for dialect in [
        swisspair::trf::Dialect::JaVaFo,
        swisspair::trf::Dialect::Trf26,
    ] {
        let text = swisspair::pairing::write_trf(&doc, dialect).expect("writable");
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("012 Wide"));
        assert_eq!(lines.next(), Some("XXW 5"), "{dialect:?}");
        assert!(
            text.contains("\nXXW 10000 2\n"),
            "the withdrawal, two numbers"
        );
        if dialect == swisspair::trf::Dialect::JaVaFo {
            assert!(text.contains("\nXXA  9998"), "{text}");
        }
        let last = text
            .lines()
            .find(|l| l.starts_with("001 10001"))
            .expect("player 10001");
        assert!(last.ends_with("00000 - U"), "{last:?}");
        // The rank column (86-89, one to the right) holds places up to 9,999.
        let blank_places = text
            .lines()
            .filter(|l| l.starts_with("001"))
            .filter(|l| l.chars().skip(86).take(4).all(|c| c == ' '))
            .count();
        assert_eq!(blank_places, 2, "places 10000 and 10001");
        let back = swisspair::pairing::read_trf(&text).expect("reads back");
        assert_eq!(back.tournament, doc.tournament, "{dialect:?}");
    }
}

/// The standings' TRF (a tie-break list: record 202, the points and rank columns from the
/// standings) above 9,999 players: the columns move with the ids, and a place beyond 9,999
/// is left blank (the rank column has 4 digits).
#[test]
fn the_standings_trf_follows_the_wide_columns() {
    let mut config = SimConfig::new(SystemId::Dutch, 10_001, 1, 5);
    config.tie_breaks = "PTS,BH".to_string();
    let answer = simulate::run(&config).expect("one round");
    let text = answer.trf().expect("writable");
    assert!(text.contains("\nXXW 5\n"), "the width line");
    assert!(text.contains("\n202 BH"), "the tie-break record");
    let doc = swisspair::pairing::read_trf(&text).expect("reads");
    assert!(
        doc.points_mismatches().is_empty(),
        "{:?}",
        doc.points_mismatches()
    );
    let games = |t: &Tournament| {
        let mut g: Vec<(u32, u32)> = t.rounds[0]
            .games
            .iter()
            .map(|g| (t.pairing_number(g.white), t.pairing_number(g.black)))
            .collect();
        g.sort_unstable();
        g
    };
    assert!(games(&doc.tournament) == games(&answer.tournament));
    // The rank column (TRF-16's 86-89, one to the right): 4 digits or blank.
    let mut ranks = 0;
    for line in text.lines().filter(|l| l.starts_with("001")) {
        let rank: String = line.chars().skip(86).take(4).collect();
        assert!(line.chars().nth(85) == Some(' '), "{line:?}");
        if !rank.trim().is_empty() {
            let r: u32 = rank.trim().parse().unwrap_or_else(|_| panic!("{line:?}"));
            assert!((1..=9999).contains(&r), "{line:?}");
            ranks += 1;
        }
    }
    // Places tie after one round: every player has one of 4 digits here.
    assert!(ranks >= 9999, "{ranks}");
}
