//! Standings: the conformance corpus (values of FIDE's tie-break checker) and
//! hand-computed tie-breaks on a small crosstable.
use std::path::{Path, PathBuf};

use swisspair::standings::{self, Edition, Options, TieBreak, Value};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/standings")
}

/// Compares one expected file; returns (values passed, values failed, messages).
fn check_file(tsv: &Path) -> (usize, usize, Vec<String>) {
    let name = tsv
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let stem = name.trim_end_matches(".tsv");
    let (stem, edition) = match stem.strip_suffix(".v2024") {
        Some(s) => (s, Edition::V2024),
        None => (stem, Edition::V2026),
    };
    let text = std::fs::read_to_string(tsv).unwrap_or_default();
    // The tournaments are the Dutch corpus's (tests/data/conformance/dutch), but for the
    // hand-made crosstable kept beside its values.
    let own = data_dir().join(format!("{stem}.trf"));
    let trf_path = if own.exists() {
        own
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/conformance/dutch")
            .join(format!("{stem}.trf"))
    };
    let trf_text = std::fs::read_to_string(trf_path).unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
    let doc = swisspair::pairing::read_trf(&trf_text).unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
    let t = &doc.tournament;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let codes: Vec<TieBreak> = header[1..]
        .iter()
        .map(|c| TieBreak::parse(c).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    let options = Options {
        tie_breaks: codes,
        edition,
        ..Options::default()
    };
    let s = standings::compute(t, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (mut passed, mut failed, mut messages) = (0, 0, Vec::new());
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split('\t').collect();
        let rank: u32 = cells[0].parse().unwrap_or(0);
        let Some(row) = s.rows.iter().find(|r| t.pairing_number(r.player) == rank) else {
            failed += cells.len() - 1;
            messages.push(format!("{name}: player {rank} missing"));
            continue;
        };
        let got_rank = s.rows.get(i).map(|r| t.pairing_number(r.player));
        if got_rank != Some(rank) {
            messages.push(format!(
                "{name}: position {}: expected player {rank}, got {got_rank:?}",
                i + 1
            ));
            failed += 1;
        }
        for (c, cell) in cells[1..].iter().enumerate() {
            let expected = Value::parse(cell);
            let got = row.values.get(c).copied().flatten();
            if expected == got {
                passed += 1;
            } else {
                failed += 1;
                messages.push(format!(
                    "{name}: player {rank} {}: expected {cell:?}, got {}",
                    header[c + 1],
                    got.map(|v| v.to_string()).unwrap_or_default()
                ));
            }
        }
    }
    (passed, failed, messages)
}

fn tsv_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "tsv"));
    files.sort();
    files
}

#[test]
fn conformance_standings() {
    let shared = tsv_files(&data_dir());
    let extra = tsv_files(&data_dir().join("extra"));
    assert!(
        shared.len() >= 40,
        "the corpus is missing: {}",
        shared.len()
    );
    assert!(
        extra.len() >= 40,
        "the extra corpus is missing: {}",
        extra.len()
    );
    // 0: shared files, 2026 rules; 1: shared, 2024 rules; 2: the extra code lists.
    let mut totals = [(0usize, 0usize); 3];
    let mut all_messages = Vec::new();
    for (f, is_extra) in shared
        .iter()
        .map(|f| (f, false))
        .chain(extra.iter().map(|f| (f, true)))
    {
        let v2024 = f.to_string_lossy().ends_with(".v2024.tsv");
        let (p, m, msgs) = check_file(f);
        let slot = &mut totals[if is_extra { 2 } else { usize::from(v2024) }];
        slot.0 += p;
        slot.1 += m;
        all_messages.extend(msgs);
    }
    for m in all_messages.iter().take(40) {
        eprintln!("{m}");
    }
    println!(
        "conformance standings: {} passed, {} failed",
        totals[0].0, totals[0].1
    );
    println!(
        "conformance standings-2024: {} passed, {} failed",
        totals[1].0, totals[1].1
    );
    println!(
        "conformance standings-extra: {} passed, {} failed",
        totals[2].0, totals[2].1
    );
    assert_eq!(
        totals[0].1 + totals[1].1 + totals[2].1,
        0,
        "standings values differ"
    );
}

// ---------------------------------------------------------------------------------------
// Hand-computed tie-breaks on a small crosstable (scoring 1 / ½ / 0, 4 rounds).
//
// TPN rating  R1          R2              R3          R4          points
//  1 A 2000   W  B  1     W+ C forfeit 1  W  D  1     W  F  1     4.0
//  2 B 1900   b  A  0     H bye      ½    W  F  ½     b  C  1     2.0
//  3 C 1800   W  D  ½     − A forfeit 0   PAB     1   W  B  0     1.5
//  4 D 1700   b  C  ½     W  E  0         b  A  0     H bye  ½    1.0
//  5 E 1600   PAB     1   b  D  1         withdrawn   withdrawn   2.0
//  6 F 1500   not entered Z bye      0    b  B  ½     b  A  0     0.5
// (W/b = colour played; F enters in round 2, E withdraws from round 3.)
//
// Opponents' scores as BH sees them (C.07 16.3): rounds after a player's last non-VUR round
// without an opponent count as draws. E's last non-VUR round is 2 (a game); rounds 3-4
// are absences → E counts 1 + 1 + ½ + ½ = 3.0. D's round 4 half-point bye comes after its
// last non-VUR round 3 → a draw, ½, as scored: D = 1.0. The others count as scored.
// ---------------------------------------------------------------------------------------

use swisspair::model::{Bye, ByeKind, Game, GameResult, Player, Round, SystemId, Tournament};

fn crosstable() -> Tournament {
    let p = |name: &str, rating: u32, tpn: u32| Player {
        id: tpn.to_string(),
        name: name.to_string(),
        rating,
        pairing_number: Some(tpn),
        ..Player::default()
    };
    let mut players = vec![
        p("A", 2000, 1),
        p("B", 1900, 2),
        p("C", 1800, 3),
        p("D", 1700, 4),
        p("E", 1600, 5),
        p("F", 1500, 6),
    ];
    players[4].withdrawn_from_round = Some(3);
    players[5].late_entry_round = Some(2);
    players[1].sex = "w".to_string();
    players[5].sex = "w".to_string();
    players[5].birth_date = "2012".to_string();
    let g = |white: usize, black: usize, result: GameResult| Game {
        white,
        black,
        result,
        board: None,
    };
    let bye = |player: usize, kind: ByeKind| Bye { player, kind };
    Tournament {
        name: "hand".to_string(),
        system: Some(SystemId::Dutch),
        total_rounds: 4,
        players,
        rounds: vec![
            Round {
                games: vec![g(0, 1, GameResult::WhiteWins), g(2, 3, GameResult::Draw)],
                byes: vec![bye(4, ByeKind::Pab)],
            },
            Round {
                games: vec![
                    g(0, 2, GameResult::WhiteWinsForfeit),
                    g(3, 4, GameResult::BlackWins),
                ],
                byes: vec![bye(1, ByeKind::HalfPoint), bye(5, ByeKind::ZeroPoint)],
            },
            Round {
                games: vec![g(0, 3, GameResult::WhiteWins), g(1, 5, GameResult::Draw)],
                byes: vec![bye(2, ByeKind::Pab)],
            },
            Round {
                games: vec![
                    g(0, 5, GameResult::WhiteWins),
                    g(2, 1, GameResult::BlackWins),
                ],
                byes: vec![bye(3, ByeKind::HalfPoint)],
            },
        ],
        ..Tournament::default()
    }
}

/// The values of `codes` for players A..F (by TPN), under an edition.
fn hand_values(codes: &str, edition: Edition) -> Vec<Vec<String>> {
    let t = crosstable();
    let options = Options {
        tie_breaks: TieBreak::parse_list(codes).expect("codes"),
        edition,
        ..Options::default()
    };
    let s = standings::compute(&t, &options).expect("standings");
    let mut rows: Vec<_> = s.rows.iter().collect();
    rows.sort_by_key(|r| t.pairing_number(r.player));
    // Column 0 is PTS; one inner vector per code, players A..F.
    (0..s.tie_breaks.len())
        .map(|c| {
            rows.iter()
                .map(|r| r.values[c].map(|v| v.to_string()).unwrap_or_default())
                .collect()
        })
        .collect()
}

fn col(values: &[Vec<String>], c: usize) -> Vec<&str> {
    values[c].iter().map(String::as_str).collect()
}

#[test]
fn hand_points_and_buchholz_2026() {
    let v = hand_values("BH,BH/C1,BH/M1", Edition::V2026);
    assert_eq!(col(&v, 0), ["4.0", "2.0", "1.5", "1.0", "2.0", "0.5"]);
    // Own unplayed rounds, 2026 (16.4): a dummy with the own score, capped for a forfeit
    // at the opponent's score, otherwise at ½ × 4 rounds = 2.0.
    // A: B 2.0 + forfeit vs C min(4.0, 1.5) = 1.5 + D 1.0 + F 0.5           = 5.0
    // B: A 4.0 + H bye min(2.0, 2.0) = 2.0 + F 0.5 + C 1.5                    = 8.0
    // C: D 1.0 + forfeit loss min(1.5, 4.0) = 1.5 + PAB min(1.5, 2.0) + B 2.0 = 6.0
    // D: C 1.5 + E 3.0 + A 4.0 + H bye (own 1.0)                             = 9.5
    // E: PAB 2.0 + D 1.0 + two absences 2.0 + 2.0                            = 7.0
    // F: absent (late entry) 0.5 + Z bye 0.5 + B 2.0 + A 4.0                 = 7.0
    assert_eq!(col(&v, 1), ["5.0", "8.0", "6.0", "9.5", "7.0", "7.0"]);
    // Cut-1 removes a VUR first (16.5), else the lowest: A −0.5 (F), B −2.0 (H bye),
    // C −1.5 (forfeit loss, a VUR; the PAB is not one), D −1.0 (H), E −2.0 (absence),
    // F −0.5 (absence).
    assert_eq!(col(&v, 2), ["4.5", "6.0", "4.5", "8.5", "5.0", "6.5"]);
    // Median-1 also removes the highest: A −2.0 (B), B −4.0 (A), C −2.0 (B), D −4.0 (A),
    // E −2.0 (the other absence ties with the PAB at 2.0; either leaves 3.0), F −4.0 (A).
    assert_eq!(col(&v, 3), ["2.5", "2.0", "2.5", "4.5", "3.0", "2.5"]);
}

#[test]
fn hand_buchholz_and_sonneborn_berger_2024() {
    // 2024-08-01: the dummy has the player's own score, uncapped. Only A changes:
    // the forfeit win counts A's own 4.0 instead of C's 1.5.
    let v = hand_values("BH,BH/C1,SB", Edition::V2024);
    assert_eq!(col(&v, 1), ["7.5", "8.0", "6.0", "9.5", "7.0", "7.0"]);
    // A's cut removes F's 0.5: 7.0.
    assert_eq!(col(&v, 2)[0], "7.0");
    // A's SB: 2.0×1 + 4.0×1 + 1.0×1 + 0.5×1 = 7.50.
    assert_eq!(col(&v, 3)[0], "7.50");
}

#[test]
fn hand_sonneborn_berger_2026() {
    let v = hand_values("SB,SB/C1", Edition::V2026);
    // Contribution × points scored in the round:
    // A: 2.0×1 + 1.5×1 + 1.0×1 + 0.5×1                 = 5.00
    // B: 4.0×0 + 2.0×½ + 0.5×½ + 1.5×1                 = 2.75
    // C: 1.0×½ + 1.5×0 + 1.5×1 + 2.0×0                 = 2.00
    // D: 1.5×½ + 3.0×0 + 4.0×0 + 1.0×½                 = 1.25
    // E: 2.0×1 + 1.0×1 + 0 + 0                         = 3.00
    // F: 0 + 0 + 2.0×½ + 4.0×0                         = 1.00
    assert_eq!(col(&v, 1), ["5.00", "2.75", "2.00", "1.25", "3.00", "1.00"]);
    // Cut-1 (16.5): the VUR with the lowest score and the lowest-scoring opponent are
    // compared, and the higher of their two products is cut.
    // A: no VUR; F (score 0.5, product 0.50) goes: 4.50.
    // B: H bye (VUR, 2.0 × ½ = 1.00) vs F (0.5 × ½ = 0.25): the bye goes: 1.75.
    // C: forfeit loss (VUR, product 0) vs D (1.0 × ½ = 0.50): D goes: 1.50.
    // D: the H bye (1.0, 0.50) is also the lowest score: it goes: 0.75.
    // E: absence (VUR, 0) vs D (1.0 × 1 = 1.00): D goes: 2.00.
    // F: the absence of round 1 (0.5, 0) is also the lowest: it goes: 1.00.
    assert_eq!(col(&v, 2), ["4.50", "1.75", "1.50", "0.75", "2.00", "1.00"]);
}

#[test]
fn hand_counts_and_progressive() {
    let v = hand_values("WIN,WON,BPG,BWG,REP,GE,PS,PS/C1,STD,TPN", Edition::V2026);
    // WIN: rounds scored as a win, played or not (forfeit win, PAB).
    assert_eq!(col(&v, 1), ["4", "1", "1", "0", "2", "0"]);
    // WON: over the board only.
    assert_eq!(col(&v, 2), ["3", "1", "0", "0", "1", "0"]);
    // BPG / BWG.
    assert_eq!(col(&v, 3), ["0", "2", "0", "2", "1", "2"]);
    assert_eq!(col(&v, 4), ["0", "1", "0", "0", "1", "0"]);
    // REP (= GE): games played, PABs and wins without playing; not H/Z byes, forfeit
    // losses, absences.
    assert_eq!(col(&v, 5), ["4", "3", "3", "3", "2", "2"]);
    assert_eq!(col(&v, 6), col(&v, 5));
    // PS: A 1+2+3+4, B 0+½+1+2, C ½+½+1½+1½, D ½+½+½+1, E 1+2+2+2, F 0+0+½+½.
    assert_eq!(col(&v, 7), ["10.0", "3.5", "4.0", "2.5", "7.0", "1.0"]);
    // PS/C1 drops the round-1 running score.
    assert_eq!(col(&v, 8), ["9.0", "3.5", "3.5", "2.0", "6.0", "1.0"]);
    // STD: 1 per round above a draw's points, ½ per round equal to it.
    assert_eq!(col(&v, 9), ["4.0", "2.0", "1.5", "1.0", "2.0", "0.5"]);
    assert_eq!(col(&v, 10), ["1", "2", "3", "4", "5", "6"]);
}

#[test]
fn hand_koya() {
    // Limit 50 % of 4 rounds = 2.0: A (4.0), B and E (2.0) qualify. Rounds with a
    // scheduled opponent count, forfeits included: A 1 (B), B 0, C 0 (A by forfeit, B),
    // D 0, E 0 (D does not qualify), F ½ (draw with B).
    let v = hand_values("KS,KS/L75", Edition::V2026);
    assert_eq!(col(&v, 1), ["1.0", "0.0", "0.0", "0.0", "0.0", "0.5"]);
    // 75 %: 3.0, only A qualifies: F's ½ was against B, so F has 0.
    assert_eq!(col(&v, 2), ["0.0", "0.0", "0.0", "0.0", "0.0", "0.0"]);
}

#[test]
fn hand_rating_tie_breaks() {
    let v = hand_values("ARO,TPR,PTP,ARO/C1,RTNG", Edition::V2026);
    // Over-the-board opponents only (A's forfeit, PABs and byes do not count).
    // A: (1900+1700+1500)/3 = 1700; B: (2000+1500+1800)/3 = 1766.67 → 1767;
    // C: (1700+1900)/2 = 1800; D: (1800+1600+2000)/3 = 1800; E: 1700; F: (1900+2000)/2.
    assert_eq!(col(&v, 1), ["1700", "1767", "1800", "1800", "1700", "1950"]);
    // TPR = ARO + dp(p): A 3/3 → +800; B 1.5/3 = 50 % → 0; C 0.5/2 = 25 % → −193;
    // D 0.5/3 = 16.7 % → 17 % → −273; E 1/1 → +800; F 0.5/2 → −193.
    assert_eq!(col(&v, 2), ["2500", "1767", "1607", "1527", "2500", "1757"]);
    // PTP: A needs 1.00 against 1900 → a difference over 735: 1900 + 736 = 2636.
    // E: 1700 + 736. F (½ of 2 against 1900 and 2000): at 1755 the differences are 145
    // (0.31) and 245 (0.20), 0.51 ≥ 0.50; at 1754 they are 146 (0.30) and 246 (0.19).
    let ptp = col(&v, 3);
    assert_eq!((ptp[0], ptp[4], ptp[5]), ("2636", "2436", "1755"));
    // ARO/C1 drops the lowest-rated opponent: A (1900+1700)/2 = 1800; E has none left.
    assert_eq!((col(&v, 4)[0], col(&v, 4)[4]), ("1800", ""));
    assert_eq!(col(&v, 5), ["2000", "1900", "1800", "1700", "1600", "1500"]);
}

#[test]
fn hand_rating_change_and_ranking() {
    let t = crosstable();
    let options = Options {
        tie_breaks: TieBreak::parse_list("BH/C1,BH,SB,DE").expect("codes"),
        ..Options::default()
    };
    let s = standings::compute(&t, &options).expect("standings");
    let order: Vec<(u32, u32)> = s
        .rows
        .iter()
        .map(|r| (r.rank, t.pairing_number(r.player)))
        .collect();
    // B and E share 2.0; BH/C1 6.0 > 5.0 puts B first.
    assert_eq!(order, [(1, 1), (2, 2), (3, 5), (4, 3), (5, 4), (6, 6)]);
    let a = &s.rows[0];
    // A (2000, K 20): We against 1900 / 1700 / 1500 = 0.64 / 0.85 / 0.92 (the difference
    // 500 counts as 400, B.02 8.3.1), three wins: 20 × (0.36 + 0.15 + 0.08) = 11.80.
    assert_eq!(
        a.rating_change.map(|v| v.to_string()).as_deref(),
        Some("11.80")
    );
    assert_eq!(a.performance, Some(2500));
    let f = s.rows.iter().find(|r| r.player == 5).expect("F");
    // F (1500): draw with 1900 (We 0.08 at a difference of 400) → +0.42; loss to 2000:
    // the difference 500 counts as 400 (B.02 8.3.1) → We 0.08 → −0.08. 20 × 0.34 = 6.80.
    assert_eq!(
        f.rating_change.map(|v| v.to_string()).as_deref(),
        Some("6.80")
    );
    // Born 2012, in 2026 under 18 and under 2300: K 40 → 13.60; a national K 15 → 5.10.
    let young = standings::compute(
        &t,
        &Options {
            year: Some(2026),
            ..options.clone()
        },
    )
    .expect("standings");
    let f = young.rows.iter().find(|r| r.player == 5).expect("F");
    assert_eq!(
        (f.rating_change.map(|v| v.to_string()), f.k_factor),
        (Some("13.60".to_string()), Some(40))
    );
    let national = standings::compute(
        &t,
        &Options {
            k_factor: Some(15),
            ..options.clone()
        },
    )
    .expect("standings");
    let f = national.rows.iter().find(|r| r.player == 5).expect("F");
    assert_eq!(
        f.rating_change.map(|v| v.to_string()).as_deref(),
        Some("5.10")
    );
    // Women's category: B then F, ranked inside the category.
    let women = standings::compute(
        &t,
        &Options {
            filter: standings::Filter {
                sex: Some("w".to_string()),
                ..standings::Filter::default()
            },
            ..options.clone()
        },
    )
    .expect("standings");
    let cat: Vec<(u32, u32)> = women
        .rows
        .iter()
        .map(|r| (r.rank, t.pairing_number(r.player)))
        .collect();
    assert_eq!(cat, [(1, 2), (2, 6)]);
    // After round 2: A 2.0, E 2.0, B ½, D ½, C ½, F 0.
    let early = standings::compute(
        &t,
        &Options {
            after_round: Some(2),
            ..options.clone()
        },
    )
    .expect("standings");
    assert_eq!(early.after_round, 2);
    assert_eq!(early.rows[0].points.to_string(), "2.0");
    assert!(
        standings::compute(
            &t,
            &Options {
                after_round: Some(9),
                ..options
            }
        )
        .is_err()
    );
}

#[test]
fn hand_direct_encounter() {
    // R1: 1–2 1-0, 3–4 0-1; R2: 4–1 1-0, 2–3 1-0. Points: 1 → 1, 2 → 1, 3 → 0, 4 → 2.
    // 1 and 2 are tied and met: 1 won, so DE ranks 1 first (value 1) and 2 second (2).
    let mut t = crosstable();
    t.players.truncate(4);
    for p in &mut t.players {
        p.withdrawn_from_round = None;
        p.late_entry_round = None;
    }
    let g = |white: usize, black: usize, result: GameResult| Game {
        white,
        black,
        result,
        board: None,
    };
    t.rounds = vec![
        Round {
            games: vec![
                g(0, 1, GameResult::WhiteWins),
                g(2, 3, GameResult::BlackWins),
            ],
            byes: vec![],
        },
        Round {
            games: vec![
                g(3, 0, GameResult::WhiteWins),
                g(1, 2, GameResult::WhiteWins),
            ],
            byes: vec![],
        },
    ];
    // TPN first would decide nothing here; DE right after PTS.
    let options = Options {
        tie_breaks: TieBreak::parse_list("DE").expect("codes"),
        ..Options::default()
    };
    let s = standings::compute(&t, &options).expect("standings");
    let rows: Vec<(u32, u32, String)> = s
        .rows
        .iter()
        .map(|r| {
            (
                r.rank,
                t.pairing_number(r.player),
                r.values[1].map(|v| v.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, 4, "0".to_string()),
            (2, 1, "1".to_string()),
            (3, 2, "2".to_string()),
            (4, 3, "0".to_string()),
        ]
    );
    // Reversed result of 1–2: now 2 ranks first.
    t.rounds[0].games[0].result = GameResult::BlackWins;
    t.rounds[1].games[0].result = GameResult::BlackWins;
    t.rounds[1].games[1].result = GameResult::BlackWins;
    // Points: 1 → 1 (R2 win), 2 → 1 (R1 win), 3 → 1, 4 → 1: all tied; 1–2 met (2 won),
    // 3–4 met (4 won), 1–4 met (1 won), 2–3 met (3 won). Each has 1 point in the
    // mini-table with a missing game worth at most 1 more: nobody is ahead of all the
    // others' maximum, so DE separates nobody (6.3).
    let s = standings::compute(&t, &options).expect("standings");
    assert!(
        s.rows
            .iter()
            .all(|r| r.rank == 1 && r.values[1] == Some(Value::int(0)))
    );
}

#[test]
fn hand_fore_buchholz() {
    // FB (art. 8.3): the round-4 games count as draws. Players paired in round 4 count every
    // round as scored, with round 4 as a draw: A 4.0 − 1 + ½ = 3.5, B 2.0 − 1 + ½ = 1.5,
    // C 1.5 + ½ = 2.0, F 0.5 + ½ = 1.0; D (H bye) and E (withdrawn) keep 1.0 and 3.0.
    // A: B 1.5 + forfeit vs C min(own 3.5, 2.0) = 2.0 + D 1.0 + F 1.0 = 5.5; the cut
    // removes a 1.0: 4.5.
    let v = hand_values("FB,FB/C1", Edition::V2026);
    assert_eq!((col(&v, 1)[0], col(&v, 2)[0]), ("5.5", "4.5"));
}

#[test]
fn ties_share_the_rank_and_are_listed_by_tpn_or_a_seeded_lot() {
    // Before round 1 everybody is level on everything: one shared rank.
    let mut t = crosstable();
    t.rounds.clear();
    let order = |tie_order| {
        let s = standings::compute(
            &t,
            &Options {
                tie_breaks: TieBreak::parse_list("BH,SB").expect("codes"),
                tie_order,
                ..Options::default()
            },
        )
        .expect("standings");
        assert!(s.rows.iter().all(|r| r.rank == 1));
        s.rows
            .iter()
            .map(|r| t.pairing_number(r.player))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        order(standings::TieOrder::PairingNumber),
        [1, 2, 3, 4, 5, 6]
    );
    let lot = order(standings::TieOrder::Lot(7));
    assert_eq!(lot, order(standings::TieOrder::Lot(7)), "deterministic");
    let orders: std::collections::BTreeSet<Vec<u32>> = (0..10)
        .map(|seed| order(standings::TieOrder::Lot(seed)))
        .collect();
    assert!(orders.len() > 1, "the lot depends on the seed");
    // An empty tournament has empty standings.
    let empty = Tournament::default();
    let s = standings::compute(&empty, &Options::default()).expect("standings");
    assert!(s.rows.is_empty());
}

/// FIDE's verification (VCL4THP Q104): every tie-break the checklist makes mandatory for a
/// round robin is read and computed, RTNG/R and TPN/R reversing their orders; (Q105) a
/// request may not select the Buchholz family for a round robin, while a report's own list
/// is still computed as recorded.
#[test]
fn round_robin_takes_its_mandatory_tie_breaks_and_refuses_buchholz() {
    use swisspair::simulate::{ResultModel, SimConfig, simulate};
    let mandatory =
        "DE,BPG,BWG,REP,STD,SB,SB/C1,SB/C2,RTNG,RTNG/R,WIN,TPN,TPN/R,KS,KS/L1,KS/L2,KS/L-1,KS/L-2";
    let mut c = SimConfig::new(SystemId::RoundRobin, 8, 7, 5);
    c.model = ResultModel::Tec;
    let t = simulate(&c).expect("simulates");
    let list = TieBreak::parse_list(mandatory).expect("every mandatory code reads");
    assert_eq!(list.len(), 18);
    // Written back (KS/L-1 as its value, KS/L-0.50), each reads as the same tie-break.
    let written: Vec<String> = list.iter().map(|tb| tb.to_string()).collect();
    assert_eq!(
        TieBreak::parse_list(&written.join(",")).expect("reads back"),
        list
    );
    let s = standings::compute(
        &t,
        &Options {
            tie_breaks: list,
            ..Options::default()
        },
    )
    .expect("standings");
    assert_eq!(s.rows.len(), 8);
    // All draws: everybody level on points, so RTNG alone orders by rating, RTNG/R the
    // other way round, and TPN/R by descending pairing number.
    let mut c = SimConfig::new(SystemId::RoundRobin, 6, 5, 2);
    c.draw_rate = 1.0;
    let t = simulate(&c).expect("simulates");
    let order = |code: &str| -> Vec<u32> {
        let s = standings::compute(
            &t,
            &Options {
                tie_breaks: TieBreak::parse_list(code).expect("reads"),
                ..Options::default()
            },
        )
        .expect("standings");
        s.rows.iter().map(|r| t.players[r.player].rating).collect()
    };
    let by_rating = order("RTNG");
    let mut descending = by_rating.clone();
    descending.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(by_rating, descending);
    let mut reversed = by_rating.clone();
    reversed.reverse();
    assert_eq!(order("RTNG/R"), reversed);
    let numbers = |code: &str| -> Vec<u32> {
        let s = standings::compute(
            &t,
            &Options {
                tie_breaks: TieBreak::parse_list(code).expect("reads"),
                ..Options::default()
            },
        )
        .expect("standings");
        s.rows.iter().map(|r| t.pairing_number(r.player)).collect()
    };
    assert_eq!(numbers("TPN/R"), vec![6, 5, 4, 3, 2, 1]);
    assert!(TieBreak::parse("SB/R").is_err(), "/R is for RTNG and TPN");
    // Buchholz refused when asked for, computed when the report records it.
    for code in ["BH", "BH/C1", "FB", "AOB"] {
        let e = standings::compute(
            &t,
            &Options {
                tie_breaks: TieBreak::parse_list(code).expect("reads"),
                ..Options::default()
            },
        )
        .expect_err("refused for a round robin");
        assert!(e.to_string().contains("round robin"), "{e}");
        assert!(
            standings::compute(
                &t,
                &Options {
                    tie_breaks: TieBreak::parse_list(code).expect("reads"),
                    source: standings::ListSource::Trf,
                    ..Options::default()
                },
            )
            .is_ok()
        );
    }
}

/// FIDE's verification (VCL4THP Q208-209): rating tie-breaks with unrated players, by two
/// methods. Without `/U` the rating tie-breaks are undefined for everybody (C.07 art. 10
/// gives no method); `/U<rating>` rates the unrated players at a fixed rating, 0 included
/// (Q209's "rating 0"); a client with estimated ratings passes them as the ratings.
#[test]
fn unrated_players_in_rating_tie_breaks_by_two_methods() {
    use swisspair::simulate::{SimConfig, simulate};
    let mut t = simulate(&SimConfig::new(SystemId::RoundRobin, 6, 5, 4)).expect("simulates");
    let unrated = 2;
    t.players[unrated].rating = 0;
    let values = |code: &str| -> Vec<Option<Value>> {
        let s = standings::compute(
            &t,
            &Options {
                tie_breaks: TieBreak::parse_list(code).expect("reads"),
                ..Options::default()
            },
        )
        .expect("standings");
        let mut by_player = vec![None; t.players.len()];
        for r in &s.rows {
            // Column 0 is PTS.
            by_player[r.player] = r.values[1];
        }
        by_player
    };
    assert!(values("ARO").iter().all(Option::is_none), "undefined");
    let zero = values("ARO/U0");
    let fixed = values("ARO/U1500");
    // Everybody met the unrated player once (a round robin of 6 in 5 rounds): counted at 0
    // or at 1500, the average of five opponents moves by 1500 / 5 = 300 for each of them.
    for p in (0..6).filter(|&p| p != unrated) {
        let (z, f) = (zero[p].expect("defined"), fixed[p].expect("defined"));
        assert_eq!(f.as_hundredths() - z.as_hundredths(), 30_000, "player {p}");
    }
}

/// VCL4THP Q170: standings mark a withdrawn player (the row, the table, the JSON).
#[test]
fn withdrawn_players_are_marked_in_the_standings() {
    use swisspair::simulate::plan::Planned;
    use swisspair::simulate::{SimConfig, simulate};
    let mut c = SimConfig::new(SystemId::Dutch, 12, 5, 6);
    c.withdrawals = vec![Planned::count(1).in_round(4)];
    let t = simulate(&c).expect("simulates");
    let gone = (0..t.players.len())
        .find(|&p| t.players[p].withdrawn_from_round == Some(4))
        .expect("one withdrawal");
    let s = standings::compute(&t, &Options::default()).expect("standings");
    for row in &s.rows {
        let expected = (row.player == gone).then_some(4);
        assert_eq!(row.withdrawn_from_round, expected);
    }
    let table = standings::render::table(&t, &s);
    let marked: Vec<&str> = table.lines().filter(|l| l.contains("withdrawn")).collect();
    assert_eq!(marked.len(), 1, "{table}");
    assert!(marked[0].contains(&t.players[gone].name), "{table}");
    // After round 3 the player had not withdrawn yet.
    let before = standings::compute(
        &t,
        &Options {
            after_round: Some(3),
            ..Options::default()
        },
    )
    .expect("standings");
    assert!(before.rows.iter().all(|r| r.withdrawn_from_round.is_none()));
}
