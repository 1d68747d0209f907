//! The Burstein system (C.04.4.2, 2026): both conformance corpora paired round by round
//! (the 2026 text by default, bbpPairings' reading under `profile = BBP`), and hand-worked
//! cases.
mod common;

use swisspair::model::{SystemId, Tournament};

fn bbp_profile(t: &mut Tournament) {
    t.options.set("profile", "BBP").expect("a known option");
}

/// The 2026 text against an independent implementation of it (seeding rounds by the Dutch
/// reference engine).
#[test]
fn conformance_burstein2026() {
    let (passed, failed) = common::run_corpus("burstein2026", SystemId::Burstein);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// Profile BBP against bbpPairings 6 `--burstein` itself.
#[test]
fn conformance_burstein() {
    let (passed, failed) =
        common::run_corpus_with("burstein", SystemId::Burstein, bbp_profile, |_, _| None);
    assert!(passed > 0);
    assert_eq!(failed, 0);
}

/// Large events of bbpPairings 6's own generator (`--burstein -g`, 300 players, 9 rounds,
/// forfeits and half-point byes), the size lichess sends it: profile BBP re-pairs every
/// round identically.
#[test]
fn bbp_large_events() {
    let dir = common::data_dir().join("burstein-bbp-large");
    let files = common::trf_files(&dir);
    assert!(!files.is_empty(), "no files in {}", dir.display());
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut t = swisspair::pairing::read_trf(&text)
            .expect("valid TRF")
            .tournament;
        bbp_profile(&mut t);
        let options = swisspair::check::CheckOptions {
            system: Some(SystemId::Burstein),
            ..Default::default()
        };
        let report = swisspair::check::check(&t, &options).expect("checkable");
        for r in report.rounds.iter().filter(|r| !r.matches()) {
            eprintln!("{} round {}: {:?}", path.display(), r.round, r.differences);
        }
        passed += report.passed();
        failed += report.failed();
    }
    assert!(passed >= 9);
    assert_eq!(failed, 0);
}

/// Profile BBP's faster ways of driving the matcher (batch resets, fresh solves of large
/// scoregroups, bracket answers from a frozen certificate) against the plain one, which
/// re-solves the held optimum after every change: every round of simulated events gets
/// the same pairs and the same PAB. The faster ways are also forced where they would not
/// run (fresh solves for small groups). The events are played on with the plain pairing.
#[test]
fn bbp_drives_pair_alike() {
    use swisspair::simulate::{SimConfig, record_round, round_options, start};
    use swisspair::systems::RoundToPair;
    use swisspair::systems::burstein::bbp::{Drive, pair_using};
    let normal = |p: &swisspair::systems::RoundPairing| {
        let mut boards: Vec<(usize, usize)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
        boards.sort_unstable();
        let byes: Vec<usize> = p.byes.iter().map(|b| b.player).collect();
        (boards, byes)
    };
    let drives = [
        Drive::FAST,
        Drive {
            restart_from: 0,
            ..Drive::FAST
        },
        Drive {
            batch: false,
            ..Drive::FAST
        },
    ];
    let sizes: &[u32] = if cfg!(debug_assertions) {
        &[9, 20, 33, 58, 101, 160]
    } else {
        &[9, 20, 33, 58, 101, 160, 250, 400]
    };
    let mut compared = 0;
    for (k, &players) in sizes.iter().enumerate() {
        for seed in 0..3u64 {
            let mut config =
                SimConfig::new(SystemId::Burstein, players, 9, 500 + 10 * k as u64 + seed);
            config.draw_rate = [0.1, 0.3, 0.5][seed as usize];
            config.bye_request_rate = 0.03;
            config.forfeit_rate = 0.03;
            config
                .options
                .set("profile", "BBP")
                .expect("a known option");
            let mut t = start(&config);
            for number in 1..=9 {
                let options = round_options(&t, &config);
                let r = RoundToPair::prepare(&t, &options).expect("a valid round");
                let plain = pair_using(&r, Drive::PLAIN, false);
                for drive in drives {
                    match (pair_using(&r, drive, false), &plain) {
                        (Ok(f), Ok(p)) => assert_eq!(
                            normal(&f),
                            normal(p),
                            "{players} players, seed {seed}, round {number}, {drive:?}"
                        ),
                        (Err(_), Err(_)) => {}
                        (f, p) => panic!(
                            "{players} players, seed {seed}, round {number}, {drive:?}: {:?} vs plain {:?}",
                            f.is_ok(),
                            p.is_ok()
                        ),
                    }
                }
                compared += 1;
                let Ok(pairing) = plain else {
                    break;
                };
                record_round(&mut t, &config, &pairing);
            }
        }
    }
    eprintln!("bbp drives: {compared} rounds compared");
    assert!(compared >= sizes.len() * 3 * 7);
}

/// The option `bbp_drive` reaches the drive through the pipeline (gRPC and CLI share it):
/// `PLAIN` gives the default's pairs, and an unknown value is refused by name.
#[test]
fn bbp_drive_option_pairs_alike_and_refuses_unknown_values() {
    use swisspair::simulate::{SimConfig, simulate};
    use swisspair::systems::PairOptions;
    let mut config = SimConfig::new(SystemId::Burstein, 90, 4, 21);
    config
        .options
        .set("profile", "BBP")
        .expect("a known option");
    let mut t = simulate(&config).expect("simulated");
    t.total_rounds = 9;
    let options = PairOptions::default();
    let fast = swisspair::pairing::pair_round(&t, &options).expect("paired");
    t.options.set("bbp_drive", "plain").expect("a known option");
    let plain = swisspair::pairing::pair_round(&t, &options).expect("paired");
    assert_eq!(fast.boards, plain.boards);
    assert_eq!(fast.byes, plain.byes);
    t.options.set("bbp_drive", "SLOW").expect("set as text");
    let err = swisspair::pairing::resolve(None, &t)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("options.bbp_drive"), "{err}");
    assert!(err.contains("FAST, PLAIN"), "{err}");
}

/// The seeding rounds of the 2026 text are the Dutch system's whole round (art. 1.6.1):
/// same boards, same colours, same PAB.
#[test]
fn seeding_rounds_are_the_dutch_rounds() {
    let path = common::conformance_dir("burstein2026").join("burstein2026-0002.trf");
    let text = std::fs::read_to_string(path).expect("readable");
    let full = swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament;
    // 9 rounds: min(9 / 2, 4) = 4 seeding rounds.
    for round in 1..=4u32 {
        let mut t = full.clone();
        t.rounds.truncate(round as usize - 1);
        let pair = |system| {
            swisspair::pairing::pair_round(
                &t,
                &swisspair::systems::PairOptions {
                    system: Some(system),
                    ..Default::default()
                },
            )
            .expect("pairs")
        };
        let (b, d) = (pair(SystemId::Burstein), pair(SystemId::Dutch));
        assert_eq!(b.boards, d.boards, "round {round}");
        assert_eq!(b.byes, d.byes, "round {round}");
    }
    // Round 5 is the first paired by the Index: it differs from the Dutch system's here.
    let mut t = full.clone();
    t.rounds.truncate(4);
    let pair = |system| {
        swisspair::pairing::pair_round(
            &t,
            &swisspair::systems::PairOptions {
                system: Some(system),
                detail: swisspair::systems::Detail::Full,
                ..Default::default()
            },
        )
        .expect("pairs")
    };
    let b = pair(SystemId::Burstein);
    assert_ne!(b.boards, pair(SystemId::Dutch).boards);
    let cites = |id: &str| {
        b.explanation
            .groups
            .iter()
            .flat_map(|g| g.steps.iter())
            .any(|s| s.rule_id.starts_with(id))
    };
    assert!(cites("C.04.4.2 1.8") && cites("C.04.4.2 4.3") && cites("C.04.4.2 5.2"));
}

/// Baku acceleration (C.04.7) from `192 FIDE_BURSTEIN_BAKU`: in round 1 the first
/// 2·⌈N/4⌉ players (GA) have a win's virtual points, so they form their own scoregroup and
/// meet each other only; without acceleration the top half meets the bottom half.
#[test]
fn baku_acceleration_splits_round_one() {
    let path = common::conformance_dir("burstein2026").join("burstein2026-0001.trf");
    let text = std::fs::read_to_string(path).expect("readable");
    let baku_text = text.replacen("XXR 9\n", "XXR 9\n192 FIDE_BURSTEIN_BAKU\n", 1);
    assert_eq!(
        swisspair::trf::SystemCodes::system_of(&swisspair::systems::Registry, "FIDE_BURSTEIN_BAKU"),
        Some(SystemId::Burstein)
    );
    let round_one = |text: &str| {
        let mut t = swisspair::pairing::read_trf(text)
            .expect("valid TRF")
            .tournament;
        t.rounds.clear();
        let n = t.players.len() as u32;
        let pairing = swisspair::pairing::pair_round(
            &t,
            &swisspair::systems::PairOptions {
                system: Some(SystemId::Burstein),
                ..Default::default()
            },
        )
        .expect("pairs");
        let pn = |p: usize| t.pairing_number(p);
        let boards: Vec<(u32, u32)> = pairing
            .boards
            .iter()
            .map(|b| (pn(b.white), pn(b.black)))
            .collect();
        (n, t.options.get("acceleration").map(str::to_string), boards)
    };
    let (n, accel, boards) = round_one(&baku_text);
    assert_eq!(accel.as_deref(), Some("BAKU"));
    let ga = 2 * n.div_ceil(4);
    assert_eq!(boards.len() as u32, n / 2);
    for &(w, b) in &boards {
        assert_eq!(w <= ga, b <= ga, "GA meets GA, GB meets GB: {w} - {b}");
    }
    let (_, accel, plain) = round_one(&text);
    assert_eq!(accel, None);
    assert!(plain.iter().any(|&(w, b)| (w <= ga) != (b <= ga)));
}

/// Random events of every size, odd and even, with forfeits and half-point byes, under
/// both profiles: every round is paired legally or refused as "no legal pairing", never a
/// panic or an internal error.
#[test]
fn random_events_never_fail_internally() {
    use swisspair::simulate::{SimConfig, simulate};
    for profile in ["FIDE_2026", "BBP"] {
        for seed in 0..16u64 {
            let players = 2 + (seed as u32 * 7) % 37;
            let rounds = 3 + (seed as u32) % 9;
            let mut c = SimConfig::new(SystemId::Burstein, players, rounds, seed);
            c.forfeit_rate = 0.08;
            c.bye_request_rate = 0.08;
            c.options.set("profile", profile).expect("option");
            match simulate(&c) {
                Ok(t) => assert_eq!(t.rounds.len() as u32, rounds),
                Err(e) => {
                    let text = format!("{e:?}");
                    assert!(
                        text.contains("NoLegalPairing"),
                        "{profile} seed {seed} ({players} players, {rounds} rounds): {text}"
                    );
                }
            }
        }
    }
}

/// A hand-worked round 2 of a 2-round event (one seeding round): six players, all drawn,
/// so every Index is equal and BSN = TPN. The "1 v n fold" order alone would give 1-6,
/// 2-4, 3-5, but C8 comes first: the whites of round 1 (1, 3, 5 after 1-4, 5-2, 3-6 …)
/// want black and the blacks want white, and a pairing granting every preference exists.
/// Among those, BSN 1 takes the largest BSN it has not met (6), then BSN 2 the largest
/// left (3), then 4-5 (C.04.4.2 C8, art. 4).
#[test]
fn colour_preferences_come_before_the_fold_order() {
    use common::swiss::Builder;
    let t = Builder::new(SystemId::Burstein, 6, 2)
        .round(&[(1, 4, "="), (5, 2, "="), (3, 6, "=")], &[])
        .build();
    let answer = swisspair::pairing::pair_round(&t, &Default::default()).expect("pairs");
    let pn = |p: usize| t.pairing_number(p);
    let mut boards: Vec<(u32, u32)> = answer
        .boards
        .iter()
        .map(|b| (pn(b.white), pn(b.black)))
        .collect();
    boards.sort_by_key(|&(w, b)| w.min(b));
    // Colours by 5.2.2: every preference granted.
    assert_eq!(boards, vec![(6, 1), (2, 3), (4, 5)]);
    assert!(answer.byes.is_empty());
}

/// Rounds on which bbpPairings 6 `--burstein` aborts or segfaults: profile BBP pairs each
/// one legally (everyone present paired once, no rematch).
#[test]
fn bbp_crash_inputs_are_paired() {
    let dir = common::data_dir().join("burstein-bbp-crashes");
    let files = common::trf_files(&dir);
    assert!(files.len() >= 5, "no files in {}", dir.display());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let mut t = swisspair::pairing::read_trf(&text)
            .expect("valid TRF")
            .tournament;
        bbp_profile(&mut t);
        let answer = swisspair::pairing::pair_round(
            &t,
            &swisspair::systems::PairOptions {
                system: Some(SystemId::Burstein),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut seen = std::collections::HashSet::new();
        for b in &answer.boards {
            assert!(
                seen.insert(b.white) && seen.insert(b.black),
                "{}",
                path.display()
            );
            let met = t.rounds.iter().flat_map(|r| r.games.iter()).any(|g| {
                g.result.is_played()
                    && ((g.white, g.black) == (b.white, b.black)
                        || (g.white, g.black) == (b.black, b.white))
            });
            assert!(!met, "{}: rematch {b:?}", path.display());
        }
        assert!(answer.boards.len() >= 4, "{}", path.display());
    }
}

/// The Index's zero-point byes (C.04.4.2 1.7.2, common rules, third): only a series of
/// consecutive zero-point byes up to the current round counts as draws for the player's
/// over-the-board opponents; a half-point bye is no zero-point bye and ends the series.
/// Player 1 won round 1, then had `Z` and `H`: his opponent 2 counts him with his 1.5
/// points, not with a draw for the `Z` (2.0, C.07 16.3's trailing run, which takes in the
/// `H`). Player 3's `Z` in the last round played still counts as a draw for 2 and 4.
#[test]
fn index_counts_only_a_trailing_series_of_zero_point_byes_as_draws() {
    use common::swiss::Builder;
    use swisspair::model::{ByeKind, Score};
    use swisspair::systems::RoundToPair;
    use swisspair::systems::burstein::index;
    let t = Builder::new(SystemId::Burstein, 4, 9)
        .round(&[(1, 2, "1-0"), (3, 4, "=")], &[])
        .round(
            &[(2, 3, "1-0")],
            &[(1, ByeKind::ZeroPoint), (4, ByeKind::ZeroPoint)],
        )
        .round(
            &[(2, 4, "=")],
            &[(1, ByeKind::HalfPoint), (3, ByeKind::ZeroPoint)],
        )
        .build();
    let r = RoundToPair::prepare(&t, &Default::default()).expect("round 4 can be paired");
    assert_eq!(r.number, 4);
    let idx = index::compute(&r);
    let points = |tenths: i64| Score::from_tenths(tenths);
    // Player 2: 1 (1 + 0 + ½ = 1½), 3 (½ + 0 + ½ for the trailing Z = 1), 4 (½ + 0 + ½ = 1).
    assert_eq!(idx[1].buchholz, points(35));
    // Sonneborn-Berger: 0 × 1½ + 1 × 1 + ½ × 1.
    assert_eq!(idx[1].sonneborn_berger, 150);
    // Player 4: 3 (1), his own Z as a game against himself (his own 1), 2 (0 + 1 + ½).
    assert_eq!(idx[3].buchholz, points(35));
}
