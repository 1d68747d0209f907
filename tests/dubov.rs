//! The Dubov system (C.04.4.1, 2026): the conformance corpus paired round by round, and
//! hand-worked cases.
mod common;

use swisspair::model::SystemId;

/// Every round of `tests/data/conformance/dubov/` re-paired from the rounds before it.
#[test]
fn conformance_dubov() {
    let (passed, failed) = common::run_corpus("dubov", SystemId::Dubov);
    assert!(passed > 0);
    assert_eq!(failed, 0, "rounds differ from the corpus");
}

// Hand-worked cases.

use swisspair::model::{Bye, ByeKind, Colour, Game, GameResult, Player, Round, Tournament};
use swisspair::pairing::pair_round;
use swisspair::systems::{Detail, PairError, PairOptions, RoundPairing};

/// `n` players, pairing number i rated 2800 - 10 i, White first.
fn field(n: u32, total_rounds: u32) -> Tournament {
    Tournament {
        system: Some(SystemId::Dubov),
        total_rounds,
        initial_colour: Some(Colour::White),
        players: (1..=n)
            .map(|i| Player {
                id: format!("p{i}"),
                rating: 2800 - i * 10,
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

/// A round from `(white, black, result)` with 1-based numbers and byes `(player, kind)`.
fn round(games: &[(usize, usize, &str)], byes: &[(usize, ByeKind)]) -> Round {
    Round {
        games: games
            .iter()
            .map(|&(w, b, r)| Game {
                white: w - 1,
                black: b - 1,
                result: match r {
                    "1-0" => GameResult::WhiteWins,
                    "0-1" => GameResult::BlackWins,
                    "=" => GameResult::Draw,
                    "+" => GameResult::WhiteWinsForfeit,
                    other => panic!("result {other}"),
                },
                board: None,
            })
            .collect(),
        byes: byes
            .iter()
            .map(|&(p, kind)| Bye {
                player: p - 1,
                kind,
            })
            .collect(),
    }
}

/// Boards as sorted (white, black) 1-based pairs, and the PAB.
fn boards(p: &RoundPairing) -> (Vec<(usize, usize)>, Option<usize>) {
    let mut b: Vec<(usize, usize)> = p
        .boards
        .iter()
        .map(|b| (b.white + 1, b.black + 1))
        .collect();
    b.sort_unstable();
    let pab = p
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player + 1);
    (b, pab)
}

fn pair_next(t: &Tournament) -> RoundPairing {
    pair_round(
        t,
        &PairOptions {
            detail: Detail::Full,
            ..PairOptions::default()
        },
    )
    .expect("pairs")
}

fn rules(p: &RoundPairing) -> Vec<String> {
    p.explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter().map(|s| s.rule_id.clone()))
        .collect()
}

#[test]
fn round_one_pairs_the_halves_by_tpn_with_colours_of_5_2_1() {
    // Art. 3.2.3: nobody has played, so G1 = 1 2 3 and G2 = 4 5 6; S1[i] meets T2[i].
    // Art. 5.2.1: the higher-ranked player has the initial colour when his TPN is odd.
    let mut t = field(6, 5);
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(1, 4), (3, 6), (5, 2)], None));
    assert!(rules(&p).iter().any(|r| r == "C.04.4.1 art. 5.2.1"));
    assert!(rules(&p).iter().all(|r| r.starts_with("C.04.4.1 art. ")));
    t.initial_colour = Some(Colour::Black);
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 5), (4, 1), (6, 3)], None));
}

#[test]
fn the_pab_goes_first_to_the_lowest_largest_tpn() {
    // Art. 3.1: all equal, so the largest TPN (7) has the PAB; then 1-4, 2-5, 3-6.
    let p = pair_next(&field(7, 5));
    assert_eq!(boards(&p), (vec![(1, 4), (3, 6), (5, 2)], Some(7)));
    // Round 2: 7 had the PAB and 6 won by forfeit ([C2]); 3 and 4 have the lowest score.
    let mut t = field(7, 5);
    t.rounds.push(round(
        &[(1, 4, "1-0"), (5, 2, "="), (6, 3, "+")],
        &[(7, ByeKind::Pab)],
    ));
    let p = pair_next(&t);
    let (_, pab) = boards(&p);
    // Lowest score: 4 (0 points) has played one game, 3 (0, forfeit loss) none: the most
    // games played decides (art. 3.1.4).
    assert_eq!(pab, Some(4));
}

#[test]
fn s1_is_sorted_by_aro_and_t2_is_the_first_legal_transposition() {
    // Round 1 all drawn: the White seekers 5 2 7 4 met 1 6 3 8 (AROs 2790, 2740, 2770,
    // 2720); S1 by ascending ARO = 4 2 7 5 meets G2 by TPN = 1 3 6 8 (art. 3.2.5), each
    // with his White (art. 5.2.2).
    let mut t = field(8, 5);
    t.rounds.push(round(
        &[(1, 5, "="), (6, 2, "="), (3, 7, "="), (8, 4, "=")],
        &[],
    ));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(2, 3), (4, 1), (5, 8), (7, 6)], None));
    // If 4 and 1 had met, the first legal transposition gives 4 the next black seeker.
    t.rounds[0] = round(&[(1, 4, "="), (6, 2, "="), (3, 7, "="), (8, 5, "=")], &[]);
    let p = pair_next(&t);
    // White seekers 4 2 7 5 with AROs 2790 2740 2770 2720: S1 = 5 2 7 4; G2 = 1 3 6 8.
    // 5-1, 2-3, 7-6 (7 met 3), 4-8.
    assert_eq!(boards(&p), (vec![(2, 3), (4, 8), (5, 1), (7, 6)], None));
}

#[test]
fn an_odd_scoregroup_takes_the_first_upfloater_by_score_then_tpn() {
    // After round 1 the scoregroup of 1 point (1, 2, 3) is odd: the upfloater comes from
    // the next scoregroup (4 and 8, half a point), the first by art. 4.2.2 ([C6] ties; 4
    // also gives [C7] = 0, being a White seeker like 2 against the Black seekers 1 and 3).
    let mut t = field(8, 5);
    t.rounds.push(round(
        &[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "1-0"), (8, 4, "=")],
        &[],
    ));
    let p = pair_next(&t);
    let explanation: Vec<String> = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter().map(|s| s.message.clone()))
        .collect();
    assert!(
        explanation.iter().any(|m| m.starts_with("1 upfloater(s)")),
        "{explanation:?}"
    );
    // The upfloater is 4 (score 0.5, the smaller TPN of the two).
    let (b, _) = boards(&p);
    assert!(
        b.iter()
            .any(|&(w, bl)| (w == 4 || bl == 4) && (w <= 3 || bl <= 3)),
        "{b:?}"
    );
}

#[test]
fn no_legal_pairing_names_the_article() {
    let mut t = field(2, 3);
    t.rounds.push(round(&[(1, 2, "=")], &[]));
    match pair_round(&t, &PairOptions::default()) {
        Err(PairError::NoLegalPairing { rule, .. }) => {
            assert!(rule.starts_with("C.04.4.1 art."), "{rule}")
        }
        other => panic!("expected no legal pairing, got {other:?}"),
    }
}

#[test]
fn baku_acceleration_splits_round_one_into_two_scoregroups() {
    // C.04.7: with 16 players GA = 1..8 carries a virtual point in round 1, so Dubov pairs
    // 1..8 among themselves (G1 = 1 2 3 4 against 5 6 7 8) and 9..16 likewise, where
    // without acceleration 1 meets 9.
    let plain = pair_next(&field(16, 7));
    let pairs = |p: &RoundPairing| -> Vec<(usize, usize)> {
        let mut v: Vec<(usize, usize)> = p
            .boards
            .iter()
            .map(|b| {
                let (x, y) = (b.white + 1, b.black + 1);
                (x.min(y), x.max(y))
            })
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(
        pairs(&plain),
        (1..=8).map(|i| (i, i + 8)).collect::<Vec<_>>()
    );
    let mut t = field(16, 7);
    t.options.set("acceleration", "BAKU").expect("option");
    let accelerated = pair_next(&t);
    let mut want: Vec<(usize, usize)> = (1..=4).map(|i| (i, i + 4)).collect();
    want.extend((9..=12).map(|i| (i, i + 4)));
    assert_eq!(pairs(&accelerated), want);
    // The same through TRF: `192 FIDE_DUBOV_BAKU` selects the system and the method.
    let doc = swisspair::trf::TrfDocument {
        tournament: t.clone(),
        other_lines: Vec::new(),
        declared_points: Vec::new(),
        notes: Vec::new(),
    };
    let text =
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writable");
    assert!(text.contains("192 FIDE_DUBOV_BAKU"), "{text}");
    let mut read = swisspair::pairing::read_trf(&text)
        .expect("readable")
        .tournament;
    assert_eq!(read.system, Some(SystemId::Dubov));
    assert_eq!(pairs(&pair_next(&read)), want);
    read.options = Default::default();
    assert_eq!(pairs(&pair_next(&read)), pairs(&plain));
}

#[test]
fn two_leaders_who_met_take_two_upfloaters_and_a_shift_balances_the_subgroups() {
    // After two rounds 1 and 2 (1.5) have met: the scoregroup needs two upfloaters
    // ([C5]); 3 and 6 (1 point) come first by [C6] and leave 4-5 pairable ([C4]).
    // G1 = White seekers 1 (mild), 3 (mild), 6 (absolute: BB); G2 = 2 (absolute: WW).
    // Art. 3.2.4 step 2 moves one G1 player, the first from the middle of G1 sorted by
    // ARO (3: 2750, 6: 2760, 1: 2770), i.e. 6, which leaves 1-6 and 3-2 legal. S1 = 3, 1
    // (ARO) against T2 = 2, 6. Colours: 3-2 both preferences (5.2.2); 6 absolute against
    // 1 mild has White (5.2.3); 4 and 5 both mild Black with the same history: the
    // higher-ranked 4 has his Black (5.2.5).
    let mut t = field(6, 5);
    t.rounds
        .push(round(&[(1, 4, "1-0"), (2, 5, "1-0"), (3, 6, "=")], &[]));
    t.rounds
        .push(round(&[(2, 1, "="), (4, 3, "="), (5, 6, "=")], &[]));
    let p = pair_next(&t);
    assert_eq!(boards(&p), (vec![(3, 2), (5, 4), (6, 1)], None));
    let messages: Vec<(String, String)> = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| {
            g.steps
                .iter()
                .map(|s| (s.rule_id.clone(), s.message.clone()))
        })
        .collect();
    assert!(
        messages
            .iter()
            .any(|(r, m)| r == "C.04.4.1 art. 3.2.2" && m.starts_with("2 upfloater(s)")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|(r, _)| r == "C.04.4.1 art. 3.2.4"),
        "{messages:?}"
    );
    let rules: Vec<&str> = messages.iter().map(|(r, _)| r.as_str()).collect();
    for r in [
        "C.04.4.1 art. 5.2.2",
        "C.04.4.1 art. 5.2.3",
        "C.04.4.1 art. 5.2.5",
    ] {
        assert!(rules.contains(&r), "{r} in {rules:?}");
    }
}

#[test]
fn absolute_white_seekers_draw_as_many_upfloaters_as_they_need() {
    // 1-12 won both rounds; 1-9 with Black twice (absolute White: [C3] keeps them apart),
    // 10-12 with White then Black. Only 10-12 can meet 1-9 inside the scoregroup, so six
    // of 1-9 need an upfloater each ([C5]): the four players on 1 point (37-40) first
    // ([C6]), then two on half a point.
    let mut t = field(40, 7);
    let mut r1: Vec<(usize, usize, &str)> = Vec::new();
    let mut r2: Vec<(usize, usize, &str)> = Vec::new();
    for i in 1..=9 {
        r1.push((12 + i, i, "0-1"));
        r2.push((24 + i, i, "0-1"));
    }
    for i in 10..=12 {
        r1.push((i, 12 + i, "1-0"));
        r2.push((24 + i, i, "0-1"));
    }
    for i in (25..=40).step_by(2) {
        r1.push((i, i + 1, "="));
    }
    for i in (13..=24).step_by(2) {
        r2.push((i, i + 1, "="));
    }
    r2.push((38, 37, "="));
    r2.push((40, 39, "="));
    t.rounds.push(round(&r1, &[]));
    t.rounds.push(round(&r2, &[]));
    let p = pair_next(&t);
    let (b, pab) = boards(&p);
    assert_eq!((b.len(), pab), (20, None));
    // [C3]: no two of 1-9 meet; each of them meets someone outside 1-9.
    for &(w, bl) in &b {
        assert!(!(w <= 9 && bl <= 9), "{b:?}");
    }
    let step = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| g.steps.iter())
        .find(|s| s.rule_id == "C.04.4.1 art. 3.2.2")
        .expect("the first scoregroup's upfloaters");
    assert!(
        step.message.starts_with("6 upfloater(s)"),
        "{}",
        step.message
    );
    for x in ["p37", "p38", "p39", "p40"] {
        assert!(step.message.contains(x), "{}", step.message);
    }
}
