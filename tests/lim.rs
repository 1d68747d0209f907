//! The Lim system (C.04.4.3): the conformance corpus paired round by round, the text's own
//! examples worked by hand, Baku acceleration, and the system end to end through the CLI
//! and the gRPC service.
mod common;

use common::server::Server;
use common::swiss::{Builder, pair_next, run, unordered};
use swisspair::model::{Colour, SystemId};
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::systems::PairOptions;

/// Every round of every file of `tests/data/conformance/lim/` re-paired from the rounds
/// before it (the corpus's README: pairs, colours and the PAB; the Maxi-tournament rule off).
#[test]
fn conformance_lim() {
    let (passed, failed) = common::run_corpus("lim", SystemId::Lim);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// A column of the exchange tables: the pairs that have met, and the pairing that results.
type Column = (&'static [(u32, u32)], [(u32, u32); 3]);

fn six_with_forbidden(pairs: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut b = Builder::new(SystemId::Lim, 6, 5);
    for &(x, y) in pairs {
        b = b.forbid(x, y);
    }
    let got = pair_next(&b.build());
    unordered(&got.boards).into_iter().collect()
}

/// C.04.4.3 art. 4.2: in a scoregroup of six, #1 is scrutinised and tries 4, 5, 6, 3, 2 in
/// turn; each column of the table is the pairing that results. "Has met" is written as a
/// forbidden pair (CG-10 counts it as a meeting), so that scores and colours stay equal.
#[test]
fn art_4_2_player_one_tries_the_bottom_half_then_the_top_half_upwards() {
    let columns: [Column; 5] = [
        (&[], [(1, 4), (2, 5), (3, 6)]),
        (&[(1, 4)], [(1, 5), (2, 4), (3, 6)]),
        (&[(1, 4), (1, 5)], [(1, 6), (2, 4), (3, 5)]),
        (&[(1, 4), (1, 5), (1, 6)], [(1, 3), (2, 5), (4, 6)]),
        (&[(1, 4), (1, 5), (1, 6), (1, 3)], [(1, 2), (3, 5), (4, 6)]),
    ];
    for (k, (met, want)) in columns.iter().enumerate() {
        assert_eq!(
            six_with_forbidden(met),
            want.to_vec(),
            "art. 4.2 column {}",
            k + 1
        );
    }
}

/// C.04.4.3 art. 4.3: #1 has met 4 and 5 and takes 6; #2 then tries 4, 5, 3, then 6 (which
/// sends #1 to 3, art. 4.4: an exchange must leave the others an opponent), then 1.
#[test]
fn art_4_3_player_two_tries_the_rest_once_player_one_has_an_opponent() {
    let base = [(1, 4), (1, 5)];
    let columns: [Column; 5] = [
        (&[], [(1, 6), (2, 4), (3, 5)]),
        (&[(2, 4)], [(1, 6), (2, 5), (3, 4)]),
        (&[(2, 4), (2, 5)], [(1, 6), (2, 3), (4, 5)]),
        (&[(2, 4), (2, 5), (2, 3)], [(1, 3), (2, 6), (4, 5)]),
        (&[(2, 4), (2, 5), (2, 3), (2, 6)], [(1, 2), (3, 5), (4, 6)]),
    ];
    for (k, (met, want)) in columns.iter().enumerate() {
        let mut all = base.to_vec();
        all.extend_from_slice(met);
        assert_eq!(
            six_with_forbidden(&all),
            want.to_vec(),
            "art. 4.3 column {}",
            k + 1
        );
    }
}

/// C.04.4.3 art. 7.2: forty players, #1 White: 1 v 21, 22 v 2, 3 v 23, 24 v 4, ..., 40 v 20;
/// with #1 Black, the mirror.
#[test]
fn art_7_2_round_one_top_half_against_bottom_half_with_alternating_colours() {
    let white = pair_next(&Builder::new(SystemId::Lim, 40, 9).build());
    assert_eq!(&white.boards[..4], &[(1, 21), (22, 2), (3, 23), (24, 4)]);
    assert_eq!(white.boards.last(), Some(&(40, 20)));
    let black = pair_next(
        &Builder::new(SystemId::Lim, 40, 9)
            .initial(Colour::Black)
            .build(),
    );
    assert_eq!(&black.boards[..4], &[(21, 1), (2, 22), (23, 3), (4, 24)]);
    assert_eq!(black.boards.last(), Some(&(20, 40)));
}

/// C.04.4.3 art. 7.1: in round 1 the PAB goes to the lowest rated player, not the lowest
/// ranked; the others are paired 1 v n/2+1 without him (art. 7.2).
#[test]
fn art_7_1_round_one_bye_to_the_lowest_rated() {
    let mut t = Builder::new(SystemId::Lim, 39, 9).build();
    t.players[10].rating = 1000;
    let got = pair_next(&t);
    assert_eq!(got.bye, Some(11));
    assert_eq!(got.boards.len(), 19);
    assert!(got.boards.contains(&(1, 21)), "{:?}", got.boards);
    assert!(!got.steps_of("C.04.4.3 art. 7.1").is_empty());
}

/// C.04.4.3 art. 1.1: after round 1 the PAB goes to the lowest ranked player of the lowest
/// scoregroup who may have it (C.04.1 art. 4: not one who had a PAB).
#[test]
fn art_1_1_bye_to_the_lowest_ranked_of_the_lowest_scoregroup() {
    // Round 1 recorded: #1 beat #3, #2 beat #4, #5 had the PAB.
    let t = Builder::new(SystemId::Lim, 5, 5)
        .round(
            &[(1, 3, "1-0"), (4, 2, "0-1")],
            &[(5, swisspair::model::ByeKind::Pab)],
        )
        .build();
    let got = pair_next(&t);
    // 0 points: #3 and #4; #4 is the lowest ranked of them.
    assert_eq!(got.bye, Some(4));
    assert!(!got.steps_of("C.04.4.3 art. 1.1").is_empty());
}

/// C.04.4.3 art. 2.2: the highest scoregroup first and downward, then the lowest upward,
/// the Median Scoregroup last; an upfloater is chosen to equalise the colours due (art.
/// 3.2.2) and paired first in the median, with the first opponent that gives both the
/// colour due (art. 3.6-3.7, 5.2).
#[test]
fn art_2_2_median_first_order_and_floaters_towards_the_median() {
    // After two rounds: 1 and 2 on 2 points; 3, 4, 7 on 1 (the median, 2 × 1 / 2); 5 and
    // 8 on 0.5; 6 on 0.
    let t = Builder::new(SystemId::Lim, 8, 5)
        .round(
            &[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "1-0"), (8, 4, "0-1")],
            &[],
        )
        .round(
            &[(4, 1, "0-1"), (2, 3, "1-0"), (5, 8, "="), (7, 6, "1-0")],
            &[],
        )
        .build();
    let got = pair_next(&t);
    let labels: Vec<&str> = got
        .raw
        .explanation
        .groups
        .iter()
        .map(|g| g.label.as_str())
        .collect();
    let order: Vec<&str> = labels
        .iter()
        .copied()
        .filter(|l| l.contains("coregroup"))
        .collect();
    assert_eq!(
        order,
        [
            "scoregroup 2.0 (downward)",
            "scoregroup 0.0 (upward)",
            "scoregroup 0.5 (upward)",
            "Median Scoregroup 1.0 (downward)"
        ]
    );
    // #6 floats up alone; in 0.5, #6 (due White), #5 (due Black), #8 (due White): White is
    // due to more players, so #8 floats (art. 3.2.2) and #6 meets #5.
    let floats = got.steps_of("C.04.4.3 art. 3.9.2");
    assert!(
        floats.iter().any(|m| m.starts_with("6 floats up")),
        "{floats:?}"
    );
    assert!(
        floats.iter().any(|m| m.starts_with("8 floats up")),
        "{floats:?}"
    );
    // In the median #8 (due White) passes #3 (due White too) for #7 (due Black, art. 5.2).
    assert_eq!(
        unordered(&got.boards).into_iter().collect::<Vec<_>>(),
        vec![(1, 2), (3, 4), (5, 6), (7, 8)]
    );
    assert!(got.boards.contains(&(8, 7)), "{:?}", got.boards);
}

/// C.04.7 with C.04.4.3: Baku acceleration gives GA (the first 2·⌈8/4⌉ = 4) a win's virtual
/// point in round 1, so GA and GB are separate scoregroups, each paired top half against
/// bottom half; without it the whole field is one.
#[test]
fn baku_acceleration_splits_round_one() {
    let plain = pair_next(&Builder::new(SystemId::Lim, 8, 5).build());
    assert_eq!(
        unordered(&plain.boards).into_iter().collect::<Vec<_>>(),
        vec![(1, 5), (2, 6), (3, 7), (4, 8)]
    );
    let mut t = Builder::new(SystemId::Lim, 8, 5).build();
    t.options.set("acceleration", "BAKU").expect("an option");
    let fast = run(&t, &PairOptions::default()).expect("a pairing");
    assert_eq!(
        unordered(&fast.boards).into_iter().collect::<Vec<_>>(),
        vec![(1, 3), (2, 4), (5, 7), (6, 8)]
    );
    assert!(fast.warnings.iter().any(|w| w.rule_id == "C.04.7"));
    // The same through TRF-26: `192 CUSTOM_SWISS:LIM_2026_BAKU` selects Lim and Baku.
    let doc = swisspair::trf::TrfDocument {
        tournament: t.clone(),
        other_lines: Vec::new(),
        declared_points: Vec::new(),
        notes: Vec::new(),
    };
    let text =
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writable");
    assert!(text.contains("192 CUSTOM_SWISS:LIM_2026_BAKU"), "{text}");
    let mut back = swisspair::pairing::read_trf(&text)
        .expect("readable")
        .tournament;
    assert_eq!(back.system, Some(SystemId::Lim));
    back.initial_colour = Some(Colour::White);
    let again = run(&back, &PairOptions::default()).expect("a pairing");
    assert_eq!(unordered(&again.boards), unordered(&fast.boards));
}

/// C.04.4.3 art. 3.2.2, 3.2.3: of five players on 1 point, #1, #3 and #4 are due Black and
/// #2, #5 due White, so a player due Black floats to equalise them: the lowest numbered of
/// them, #4. In a Maxi-tournament that choice is allowed only within 100 rating points of
/// the lowest numbered player (#5); #4 is 200 above, so #5 floats. A value the option cannot
/// read is refused.
#[test]
fn art_3_2_3_maxi_tournament_limits_the_colour_choice_of_floater() {
    let mut t = Builder::new(SystemId::Lim, 10, 5)
        .round(
            &[
                (1, 6, "1-0"),
                (7, 2, "0-1"),
                (3, 8, "1-0"),
                (4, 9, "1-0"),
                (10, 5, "0-1"),
            ],
            &[],
        )
        .build();
    t.players[3].rating = 2300;
    t.players[4].rating = 2100;
    let plain = run(&t, &PairOptions::default()).expect("a pairing");
    let floats = plain.steps_of("C.04.4.3 art. 3.9.2");
    assert!(
        floats.iter().any(|m| m.starts_with("4 floats down")),
        "{floats:?}"
    );
    t.options.set("maxi_tournament", "true").expect("an option");
    let maxi = run(&t, &PairOptions::default()).expect("a pairing");
    assert!(!maxi.steps_of("C.04.4.3 art. 3.2.3").is_empty());
    let floats = maxi.steps_of("C.04.4.3 art. 3.9.2");
    assert!(
        floats.iter().any(|m| m.starts_with("5 floats down")),
        "{floats:?}"
    );
    t.options
        .set("maxi_tournament", "perhaps")
        .expect("an option");
    assert!(run(&t, &PairOptions::default()).is_err());
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("swisspair-lim-{}-{name}", std::process::id()))
}

/// The CLI: `simulate`, `check`, `pair`, `validate` and `systems` with `--lim`.
#[test]
fn cli_simulates_checks_pairs_and_validates() {
    let sim = temp("sim.trf");
    let sim_s = sim.to_str().expect("path");
    let (code, _, err) = common::swisspair(&[
        "simulate",
        "--lim",
        "--players",
        "15",
        "--rounds",
        "5",
        "--seed",
        "7",
        "-o",
        sim_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = common::swisspair(&["check", "--lim", sim_s]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("5 passed, 0 failed"));

    let text = std::fs::read_to_string(&sim).expect("written");
    let mut doc = swisspair::pairing::read_trf(&text).expect("trf");
    doc.tournament.rounds.truncate(3);
    let trunc = temp("trunc.trf");
    std::fs::write(
        &trunc,
        swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26).expect("writable"),
    )
    .expect("write");
    let pairs = temp("pairs.txt");
    let (code, _, err) = common::swisspair(&[
        "pair",
        "--system",
        "lim",
        "-p",
        pairs.to_str().expect("path"),
        trunc.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = common::swisspair(&[
        "validate",
        "--lim",
        trunc.to_str().expect("path"),
        pairs.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = common::swisspair(&["systems"]);
    assert_eq!(code, 0);
    assert!(out.contains("lim"), "{out}");
    for p in [sim, trunc, pairs] {
        let _ = std::fs::remove_file(p);
    }
}

/// The gRPC service in process: `ListSystems`, `Simulate`, `Check` and `Pair` on Lim.
#[tokio::test]
async fn service_lists_simulates_checks_and_pairs() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let systems = client
        .list_systems(proto::ListSystemsRequest {})
        .await
        .expect("list")
        .into_inner();
    let lim = systems
        .systems
        .iter()
        .find(|s| s.name == "lim")
        .expect("lim is listed");
    assert!(lim.options.iter().any(|o| o.name == "maxi_tournament"));
    let sim = client
        .simulate(proto::SimulateRequest {
            system: proto::PairingSystem::Lim as i32,
            players: 11,
            rounds: 5,
            seed: 5,
            draw_rate: 0.3,
            ..proto::SimulateRequest::default()
        })
        .await
        .expect("simulate")
        .into_inner();
    let check = client
        .check(proto::CheckRequest {
            input: Some(proto::check_request::Input::Trf(sim.trf.clone())),
            system: proto::PairingSystem::Lim as i32,
            ..proto::CheckRequest::default()
        })
        .await
        .expect("check")
        .into_inner();
    assert_eq!((check.passed, check.failed), (5, 0));
    let mut doc = swisspair::pairing::read_trf(&sim.trf).expect("trf");
    doc.tournament.rounds.truncate(4);
    let answer = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(
                swisspair::pairing::write_trf(&doc, swisspair::trf::Dialect::Trf26)
                    .expect("writable"),
            )),
            system: proto::PairingSystem::Lim as i32,
            ..proto::PairRequest::default()
        })
        .await
        .expect("pair")
        .into_inner();
    assert_eq!(answer.boards.len(), 5);
    assert_eq!(answer.byes.len(), 1);
    server.stop().await;
}

/// TRF-26 record 192: ETT26 has no Lim code; ours, and the FIDE-style spelling, are read,
/// with `_BAKU` for the Baku acceleration.
#[test]
fn trf_codes_name_the_lim_system() {
    for code in [
        "CUSTOM_SWISS:LIM_2026",
        "CUSTOM_SWISS:LIM_2026_BAKU",
        "FIDE_LIM",
        "fide_lim_baku",
    ] {
        assert_eq!(
            swisspair::trf::SystemCodes::system_of(&swisspair::systems::Registry, code),
            Some(SystemId::Lim),
            "{code}"
        );
    }
    let t = swisspair::model::Tournament {
        system: Some(SystemId::Lim),
        ..Default::default()
    };
    assert_eq!(
        swisspair::trf::SystemCodes::write(&swisspair::systems::Registry, &t).as_deref(),
        Some("CUSTOM_SWISS:LIM_2026")
    );
}

/// C.04.4.3 art. 2.6.1: the Median Scoregroup cannot be paired, more floaters came from
/// above than from below, so the last pairing of the lower side is cracked and its players
/// join the median.
#[test]
fn art_2_6_1_a_blocked_median_cracks_the_lower_side() {
    use swisspair::model::ByeKind::HalfPoint;
    // #4 took half-point byes in rounds 1-2 (1 point, the median of round 3) and may not
    // meet #1-#3 (CG-10 counts that as having met); #1-#3 won twice, #5-#7 lost twice.
    let t = Builder::new(SystemId::Lim, 7, 5)
        .round(
            &[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "1-0")],
            &[(4, HalfPoint)],
        )
        .round(
            &[(6, 1, "0-1"), (2, 7, "1-0"), (5, 3, "0-1")],
            &[(4, HalfPoint)],
        )
        .forbid(4, 1)
        .forbid(4, 2)
        .forbid(4, 3)
        .build();
    let got = pair_next(&t);
    // The PAB: the lowest ranked of the lowest scoregroup (art. 1.1).
    assert_eq!(got.bye, Some(7));
    // 2 points: #1, #2, #3; #3 floats down (due White like #1, the lowest numbered: art.
    // 3.2.2, 3.2.4) and cannot meet #4; 5-6, the lower side's pairing, is cracked.
    let cracked = got.steps_of("C.04.4.3 art. 2.6.1");
    assert_eq!(cracked.len(), 1, "{:?}", got.steps);
    // Upward, scrutiny starts with the lowest numbered (#6, art. 4.1): the pair is 6 - 5.
    assert!(cracked[0].contains("6 - 5"), "{cracked:?}");
    assert_eq!(
        unordered(&got.boards).into_iter().collect::<Vec<_>>(),
        vec![(1, 2), (3, 6), (4, 5)]
    );
}

/// Many small simulated events (odd fields, forfeits, half-point byes, Baku): every round is
/// paired or refused as having no legal pairing (C.04.1, art. 2.1), never an engine fault;
/// every simulated file checks clean against the system itself, and no game breaks the
/// colour limits outside the last round (art. 2.1, 6).
#[test]
fn simulated_events_pair_legally_and_check_clean() {
    use swisspair::check::{CheckOptions, check};
    use swisspair::simulate::{SimConfig, SimError, simulate};
    use swisspair::systems::PairError;
    let mut events = 0;
    for seed in 0..24u64 {
        for &n in &[5u32, 8, 13, 20, 31] {
            let rounds = (n - 1).min(9);
            let mut config = SimConfig::new(SystemId::Lim, n, rounds, seed);
            config.forfeit_rate = 0.05;
            config.bye_request_rate = 0.05;
            if seed % 3 == 0 {
                config
                    .options
                    .set("acceleration", "BAKU")
                    .expect("an option");
            }
            let t = match simulate(&config) {
                Ok(t) => t,
                Err(SimError::Pairing {
                    error: PairError::NoLegalPairing { .. },
                    ..
                }) => continue,
                Err(e) => panic!("seed {seed}, {n} players: {e}"),
            };
            events += 1;
            let report = check(&t, &CheckOptions::default()).expect("checkable");
            assert_eq!(report.failed(), 0, "seed {seed}, {n} players");
            let entries = t.entries();
            for row in &entries {
                let mut colours = Vec::new();
                for (r, e) in row.iter().enumerate() {
                    if let Some(c) = e.played_colour() {
                        colours.push(c);
                        let last = r as u32 + 1 == t.total_rounds;
                        let w = colours.iter().filter(|&&x| x == Colour::White).count() as i32;
                        let diff = 2 * w - colours.len() as i32;
                        let three = colours.len() >= 3
                            && colours[colours.len() - 3..].iter().all(|&x| x == c);
                        assert!(
                            last || (diff.abs() <= 2 && !three),
                            "seed {seed}, {n} players, round {}: {colours:?}",
                            r + 1
                        );
                    }
                }
            }
        }
    }
    assert!(events > 60, "{events} events simulated");
}

/// Six players after two rounds in which the top three (1, 2, 3) beat the bottom three
/// twice, top against bottom: 1 met 4 and 5, 2 met 5 and 6, 3 met 6 and 4; colours
/// alternated, so every pair that has not met is compatible (art. 2.1). Clubs: 1, 2 and
/// 4 of club A, 3 of club X, 5 and 6 of club Z.
fn lim_sep_1_event() -> swisspair::model::Tournament {
    let mut t = Builder::new(SystemId::Lim, 6, 5)
        .round(&[(1, 4, "1-0"), (2, 5, "1-0"), (3, 6, "1-0")], &[])
        .round(&[(5, 1, "0-1"), (6, 2, "0-1"), (4, 3, "0-1")], &[])
        .build();
    for (p, club) in t.players.iter_mut().zip(["A", "A", "X", "A", "Z", "Z"]) {
        p.club = club.to_string();
    }
    t.separations = vec![swisspair::model::Separation {
        mode: swisspair::model::SeparationMode::WeakFirst,
        ..swisspair::model::Separation::absolute(swisspair::model::SeparationKey::Club)
    }];
    t
}

/// LIM-SEP.1 (SEP-5.1 placed first), worked by hand. The legal pairings of round 3 are
/// three (each top player has one bottom opponent left): {1-2, 3-5, 4-6} with one pair
/// within a club (1-2), {1-3, 2-4, 5-6} with two (2-4, 5-6), {2-3, 1-6, 4-5} with none, so
/// the round's fewest is 0. The scoregroup of 2 points (art. 2.2, downward) keeps one
/// pairing (art. 2.3) and floats 1 or 2 (3's transfer would leave 1-2 only); all of type c
/// (the Median Scoregroup, 1 point, is empty, art. 3.9.1), all floated in round 2
/// (art. 3.10), all due White (art. 3.2.2), so art. 3.2.4 would float the lowest numbered,
/// 2 — but 1-3 then leaves 2 only 4, a clubmate, and 5-6: LIM-SEP.1 floats 1 and pairs
/// 2-3. The scoregroup of 0 (upward) floats 4 by art. 3.3 (the highest numbered) unless
/// that breaks the count: 5-6 are clubmates, so 4 stays; 5's transfer leaves 4-6 and 1-5,
/// who met; 6 floats and 4-5 are paired. The Median Scoregroup pairs 1-6, nothing is
/// cracked (art. 2.6). Per scoregroup (the former reading) the round had one pair within a
/// club (1-2, after cracking 1-3); without the separation, two (2-4, 5-6).
#[test]
fn lim_sep_1_weak_first_keeps_the_rounds_fewest_pairs_within_a_club() {
    let t = lim_sep_1_event();
    let got = pair_next(&t);
    assert_eq!(
        unordered(&got.boards),
        [(1, 6), (2, 3), (4, 5)].into_iter().collect(),
        "{:?}",
        got.steps
    );
    assert!(
        got.steps_of("SEP-5.1")
            .iter()
            .any(|m| m.contains("fewest pairs within a group over every legal pairing is 0")),
        "{:?}",
        got.steps
    );
    // The floaters' steps name LIM-SEP.1 where it overrode art. 3.2.4 and art. 3.3.
    let floats: Vec<&(String, String)> = got
        .steps
        .iter()
        .filter(|(_, m)| m.contains(" floats "))
        .collect();
    assert_eq!(floats.len(), 2, "{floats:?}");
    assert!(
        floats
            .iter()
            .all(|(_, m)| m.contains("SEP-5.1 (LIM-SEP.1)"))
    );
    assert!(
        got.steps
            .iter()
            .all(|(r, _)| !r.starts_with("C.04.4.3 art. 2.6"))
    );
    // Without the separation: art. 3.2.4 floats 3 and 3.3 floats 4, who met; 1-2 is
    // cracked (art. 2.6.2) and the median pairs 1-3 and 2-4, besides 5-6.
    let mut plain = t.clone();
    plain.separations.clear();
    let without = pair_next(&plain);
    assert_eq!(
        unordered(&without.boards),
        [(1, 3), (2, 4), (5, 6)].into_iter().collect()
    );
}

/// "Why not 1-2?" under LIM-SEP.1: the best pairing with 1-2 is {1-2, 3-5, 4-6}, one pair
/// within a club against none: the round's total decides first (SEP-5), before the PAB and
/// every scoregroup.
#[test]
fn lim_sep_1_why_not_cites_the_rounds_total() {
    use swisspair::check::why::{self, Question, VerdictKind};
    let t = lim_sep_1_event();
    let got = why::run(
        &t,
        &Question::Pair {
            a: 0,
            b: 1,
            white: None,
        },
        &PairOptions::default(),
    )
    .expect("answered");
    assert_eq!(
        got.verdict.kind,
        VerdictKind::Worse,
        "{}",
        got.verdict.message
    );
    assert_eq!(got.verdict.rule_id, "SEP-5", "{}", got.verdict.message);
}

/// LIM-SEP.1 and the PAB (art. 7.1): five players in round 1, 1-4 of club A, 5 of club B.
/// Whoever has the PAB, two or more players of A are left, so the round's fewest is 1,
/// reached only when a player of A has it; the lowest rated, 5, would leave four of A
/// (two pairs within the club). The PAB goes to the lowest rated whose absence keeps 1:
/// 4. The others are paired top half against bottom half (art. 7.2): 1-3, 2-5.
#[test]
fn lim_sep_1_weak_first_moves_the_pab() {
    let mut t = Builder::new(SystemId::Lim, 5, 5).build();
    for (p, club) in t.players.iter_mut().zip(["A", "A", "A", "A", "B"]) {
        p.club = club.to_string();
    }
    t.separations = vec![swisspair::model::Separation {
        mode: swisspair::model::SeparationMode::WeakFirst,
        ..swisspair::model::Separation::absolute(swisspair::model::SeparationKey::Club)
    }];
    let got = pair_next(&t);
    assert_eq!(got.bye, Some(4), "{:?}", got.steps);
    assert_eq!(
        unordered(&got.boards),
        [(1, 3), (2, 5)].into_iter().collect()
    );
    assert!(
        got.steps_of("C.04.4.3 art. 7.1")
            .iter()
            .any(|m| m.contains("SEP-5.1")),
        "{:?}",
        got.steps
    );
}
