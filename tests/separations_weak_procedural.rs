//! Weak separations (systems.md SEP-5.3) in the procedural systems: where the criterion
//! enters each procedure, on small events worked out by hand from the rules. Players are
//! created in pairing-number order (player index + 1 = pairing number).
use swisspair::model::{
    ForbiddenPairing, Game, GameResult, Player, Round, Separation, SeparationKey, SeparationMode,
    SystemId, Tournament,
};
use swisspair::pairing;
use swisspair::systems::{Detail, PairOptions, RoundPairing};

/// `clubs[i]` is the club of pairing number i + 1.
fn tournament(system: SystemId, clubs: &[&str], total: u32) -> Tournament {
    Tournament {
        system: Some(system),
        total_rounds: total,
        players: clubs
            .iter()
            .enumerate()
            .map(|(i, club)| Player {
                id: (i + 1).to_string(),
                name: format!("Player {}", i + 1),
                pairing_number: Some(i as u32 + 1),
                rating: 2000 - 10 * i as u32,
                club: club.to_string(),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn separate(t: &mut Tournament, mode: SeparationMode) {
    t.separations = vec![Separation {
        mode,
        ..Separation::absolute(SeparationKey::Club)
    }];
}

fn forbid(t: &mut Tournament, a: u32, b: u32) {
    t.forbidden_pairings.push(ForbiddenPairing {
        players: vec![a as usize - 1, b as usize - 1],
        first_round: None,
        last_round: None,
    });
}

/// Records a round of white wins, games by pairing number.
fn play(t: &mut Tournament, games: &[(u32, u32)]) {
    t.rounds.push(Round {
        games: games
            .iter()
            .map(|&(w, b)| Game {
                white: w as usize - 1,
                black: b as usize - 1,
                result: GameResult::WhiteWins,
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
}

fn answer(t: &Tournament) -> RoundPairing {
    let options = PairOptions {
        detail: Detail::Full,
        ..PairOptions::default()
    };
    match pairing::pair(t, &options) {
        Ok(a) => a.pairing,
        Err(e) => panic!("pairs: {e}"),
    }
}

/// The pairs by pairing number, each smaller first, sorted.
fn pairs(p: &RoundPairing) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| {
            let (w, k) = (b.white as u32 + 1, b.black as u32 + 1);
            (w.min(k), w.max(k))
        })
        .collect();
    v.sort_unstable();
    v
}

fn cites(p: &RoundPairing, rule: &str) -> bool {
    p.explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .any(|s| s.rule_id == rule)
}

/// Vincze, round 1, one score group 1 2 3 4: VZ-3.2 offers player 1 the lower half 3, 4,
/// then the upper half backwards, 2. Without the separation he takes 3 (VZ-3.3), then 2-4.
/// Clubs A B A C: 3 is a clubmate, so (SEP-5.3) the next candidate who is not, 4, is taken,
/// as 2-3 can still be paired: 1-4, 2-3.
#[test]
fn vincze_skips_a_clubmate_for_the_next_candidate() {
    let mut t = tournament(SystemId::Vincze, &["A", "B", "A", "C"], 3);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 4), (2, 3)]);
    assert!(cites(&p, "SEP-5.3"));
}

/// Vincze, round 1, clubs A A A C and 1-4 forbidden (CG-10): player 1's candidates are 3
/// (a clubmate), 4 (forbidden), 2 (a clubmate): none is both allowed and no clubmate, so
/// the procedure's own candidate stays: 1-3, 2-4, and the SEP-5 step names 1-3.
#[test]
fn vincze_keeps_the_clubmate_when_no_other_candidate_is_legal() {
    let mut t = tournament(SystemId::Vincze, &["A", "A", "A", "C"], 3);
    forbid(&mut t, 1, 4);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 3), (2, 4)]);
    assert!(!cites(&p, "SEP-5.3"));
    let step = p
        .explanation
        .groups
        .iter()
        .flat_map(|g| &g.steps)
        .find(|s| s.rule_id == "SEP-5")
        .expect("the SEP-5 step");
    assert!(
        step.message.contains("1-3 (A)") || step.message.contains("3-1 (A)"),
        "{}",
        step.message
    );
}

/// Vincze, round 2 after 1-3 and 2-4 (white wins): score group 1 = {1, 2}, group 0 = {3, 4}.
/// Player 1's candidates: 2, then the lower group 3 (met), 4. Clubs A A C B: 2 is a
/// clubmate. `WEAK` stays in the own choice's score group, where nobody else is left: 1-2,
/// 3-4. `WEAK_FIRST` takes the next legal candidate anywhere: 4 (2-3 still pairable), so
/// 1-4, 2-3 (1 and 4 float).
#[test]
fn vincze_weak_first_floats_to_avoid_a_clubmate_weak_does_not() {
    let mut t = tournament(SystemId::Vincze, &["A", "A", "C", "B"], 3);
    play(&mut t, &[(1, 3), (2, 4)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::WeakFirst);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 3)]);
    // Placed last, the procedure has nothing left to choose: refused.
    separate(&mut t, SeparationMode::WeakLast);
    let Err(e) = pairing::pair(&t, &PairOptions::default()) else {
        panic!("WEAK_LAST is refused by Vincze");
    };
    assert!(
        e.to_string().contains("tournament.separations[0].mode"),
        "{e}"
    );
}

/// Simple Swiss, round 1 ([R1], javapairing.md §1): IDs 1 2 | 3 4, top[i] offered
/// bottom[i] first, then the others in order: 1-3, 2-4. Clubs A B A C: 3 is 1's clubmate;
/// the search with clubmates refused (SEP-5.3) gives 1 the next candidate, 4, and 2 takes 3.
#[test]
fn simple_round_one_skips_a_clubmate() {
    let mut t = tournament(SystemId::Simple, &["A", "B", "A", "C"], 3);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 3)]);
    // Placed last: clubmates tried after the others, here the same choice.
    separate(&mut t, SeparationMode::WeakLast);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 3)]);
}

/// Simple Swiss, round 1, clubs A A A C and 1-4 forbidden: refusing clubmates leaves 1
/// nobody (3 a clubmate, 4 forbidden), so the search runs again with clubmates tried last
/// and 1 keeps 3: 1-3, 2-4.
#[test]
fn simple_round_one_keeps_the_clubmate_when_no_other_is_legal() {
    let mut t = tournament(SystemId::Simple, &["A", "A", "A", "C"], 3);
    forbid(&mut t, 1, 4);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
}

/// Simple Swiss, round 2 after 1-3 and 2-4 (white wins): score groups {1, 2} and {3, 4},
/// each paired S1 against S2 (SS-4): 1-2, 3-4. Clubs A A B C: 1 and 2 are clubmates, but
/// the separation enters the group's search only (SEP-5.3): nobody floats to avoid a
/// clubmate, so 1-2 stays.
#[test]
fn simple_does_not_float_to_avoid_a_clubmate() {
    let mut t = tournament(SystemId::Simple, &["A", "A", "B", "C"], 3);
    play(&mut t, &[(1, 3), (2, 4)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
}

/// Colour-alternation, round 2 of 4 after 1-4, 2-5, 3-6 (white wins). Dues (CA-2): 1 2 3
/// Black, 4 5 6 White; the swap pass puts 4 5 6 on top; S1 by ARO ascending (ratings 2000
/// down by 10: 6's opponent 1980, 5's 1990, 4's 2000) = 6 5 4, S2 by rating descending = 1 2
/// 3. The search: 6-1, 5-2 met so 5-3, 4-2. Clubs: 1 and 6 in A. Refusing clubmates
/// (SEP-5.3): 6-2, 5-1, 4-3.
#[test]
fn colour_alternation_middle_round_skips_a_clubmate() {
    let mut t = tournament(
        SystemId::ColourAlternation,
        &["A", "B", "C", "D", "E", "A"],
        4,
    );
    play(&mut t, &[(1, 4), (2, 5), (3, 6)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 6), (2, 4), (3, 5)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 5), (2, 6), (3, 4)]);
}

/// The same round with 1, 2, 3 and 6 in club A: every candidate of 6 is a clubmate, so the
/// refusing search finds nothing and the search with clubmates tried last keeps the
/// procedure's own pairing: 6-1, 5-3, 4-2.
#[test]
fn colour_alternation_keeps_clubmates_when_every_candidate_is_one() {
    let mut t = tournament(
        SystemId::ColourAlternation,
        &["A", "A", "A", "D", "E", "A"],
        4,
    );
    play(&mut t, &[(1, 4), (2, 5), (3, 6)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 6), (2, 4), (3, 5)]);
}

/// Amalfi (FSI profile), round 1 of 3: k = 3 rounds remaining (AM-3.3), the list 1 2 3 4.
/// Position 1's theoretical opponent is position 4, then upward 3, 2: 1-4, and 2 (whose
/// theoretical opponent is beyond the list) takes 3 upward: 1-4, 2-3. Clubs A B C A: 4 is
/// 1's clubmate, so (SEP-5.3) he takes his next candidate who is not, 3; then 2-4.
#[test]
fn amalfi_skips_a_clubmate_for_the_next_candidate() {
    let mut t = tournament(SystemId::Amalfi, &["A", "B", "C", "A"], 3);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 3)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    // Placed first or last it would mean the same in AM-3.3: refused.
    separate(&mut t, SeparationMode::WeakLast);
    assert!(pairing::pair(&t, &PairOptions::default()).is_err());
}

/// Amalfi, round 1 of 3, clubs A B A A and 1-2 forbidden: 1's candidates 4, 3, 2 are two
/// clubmates and a forbidden pair, so he keeps the procedure's own, 4: 1-4, 2-3.
#[test]
fn amalfi_keeps_the_clubmate_when_no_other_candidate_is_legal() {
    let mut t = tournament(SystemId::Amalfi, &["A", "B", "A", "A"], 3);
    forbid(&mut t, 1, 2);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 3)]);
}

/// Amalfi's JAVAPAIRING profile does not weigh a weak separation: refused, naming the field.
#[test]
fn amalfi_javapairing_profile_refuses_a_weak_separation() {
    let mut t = tournament(SystemId::Amalfi, &["A", "B", "C", "A"], 3);
    let _ = t.options.set("profile", "JAVAPAIRING");
    separate(&mut t, SeparationMode::Weak);
    let Err(e) = pairing::pair(&t, &PairOptions::default()) else {
        panic!("refused");
    };
    assert!(
        e.to_string().contains("tournament.separations[0].mode"),
        "{e}"
    );
}

/// Buchholz (Vega), round 1 (BH-2): numbers 1 2 against 3 4, rows 1-3, 2-4. Clubs A B A C:
/// row 1 holds clubmates, so (SEP-5.3) 1 takes the first right player below who is no
/// clubmate and whose row partner may meet 3, as BH-6.2 repairs a rematch: 4 (swap):
/// 1-4, 2-3.
#[test]
fn buchholz_swaps_a_clubmate_row_as_a_rematch() {
    let mut t = tournament(SystemId::Buchholz, &["A", "B", "A", "C"], 3);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 4), (2, 3)]);
    assert!(cites(&p, "SEP-5.3"));
}

/// Buchholz, round 1, clubs A B A A: every right player below row 1 (4) is 1's clubmate
/// too, so the row stays: 1-3, 2-4.
#[test]
fn buchholz_keeps_the_clubmate_row_when_no_swap_helps() {
    let mut t = tournament(SystemId::Buchholz, &["A", "B", "A", "A"], 3);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 3), (2, 4)]);
    assert!(!cites(&p, "SEP-5.3"));
}

/// Backgammon, round 1 with four players, clubs A A B B, over many lot seeds (BG-4: one
/// group, the first in lot order draws his opponent in lot order). Without the separation
/// some lots draw a clubmate first (1-2 and 3-4). With it (SEP-5.3) the first-drawn player
/// draws a player of the other club first, and the two left are of different clubs too:
/// no pair within a club, whatever the lot.
#[test]
fn backgammon_draws_a_clubmate_last() {
    let mut t = tournament(SystemId::Backgammon, &["A", "A", "B", "B"], 3);
    let _ = t.options.set("match_length", "7");
    let with_seed = |t: &Tournament, seed: u64| {
        let options = PairOptions {
            seed: Some(seed),
            ..PairOptions::default()
        };
        match pairing::pair(t, &options) {
            Ok(a) => pairs(&a.pairing),
            Err(e) => panic!("pairs: {e}"),
        }
    };
    let within = |p: &[(u32, u32)]| p.iter().filter(|&&(a, b)| (a <= 2) == (b <= 2)).count();
    let plain = (0..40).filter(|&s| within(&with_seed(&t, s)) > 0).count();
    assert!(plain > 0, "no lot drew clubmates: the test shows nothing");
    separate(&mut t, SeparationMode::Weak);
    for seed in 0..40 {
        assert_eq!(within(&with_seed(&t, seed)), 0, "seed {seed}");
    }
}

/// Backgammon, round 1, clubs A A A B: whoever is drawn first, one pair within club A is
/// left where the draw has no other candidate (the two A players left over, or an A player
/// whose only other candidate, the B player, is taken): exactly one pair within a club.
#[test]
fn backgammon_keeps_the_clubmates_the_draw_cannot_avoid() {
    let mut t = tournament(SystemId::Backgammon, &["A", "A", "A", "B"], 3);
    let _ = t.options.set("match_length", "7");
    separate(&mut t, SeparationMode::Weak);
    for seed in 0..20 {
        let options = PairOptions {
            seed: Some(seed),
            ..PairOptions::default()
        };
        let p = match pairing::pair(&t, &options) {
            Ok(a) => pairs(&a.pairing),
            Err(e) => panic!("pairs: {e}"),
        };
        let within = p.iter().filter(|&&(a, b)| a <= 3 && b <= 3).count();
        assert_eq!(within, 1, "seed {seed}: {p:?}");
    }
}

/// Keizer, round 1 (KZ-4.1): the ranking is the initial one (KZ-1: by pairing number), and
/// from the top down each meets the nearest player ranked below: 1-2, 3-4. Clubs A A B C:
/// 2 is 1's clubmate, so (KZ-4.4, SEP-5.3) the next player ranked below who is not, 3, is
/// taken, as 2-4 can still be paired: 1-3, 2-4.
#[test]
fn keizer_passes_over_a_clubmate_for_the_next_ranked_below() {
    let mut t = tournament(SystemId::Keizer, &["A", "A", "B", "C"], 5);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 3), (2, 4)]);
    assert!(cites(&p, "KZ-4.4"));
}

/// Keizer, round 1, clubs A A B B and 1-3, 1-4 forbidden (CG-10): 1's only legal opponent
/// is his clubmate 2, so he keeps him (SEP-5.3: else the procedure's own candidate); 3-4
/// are clubmates with no other choice either. The SEP-5 step names both pairs.
#[test]
fn keizer_keeps_the_clubmate_when_no_other_is_legal() {
    let mut t = tournament(SystemId::Keizer, &["A", "A", "B", "B"], 5);
    forbid(&mut t, 1, 3);
    forbid(&mut t, 1, 4);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 2), (3, 4)]);
    assert!(!cites(&p, "KZ-4.4"));
    assert!(cites(&p, "SEP-5"));
}

/// Monrad, round 1 (MON-1): the list by pairing number, each paired with the next one
/// below: 1-2, 3-4. Clubs A A B C: 2 is 1's clubmate and of the same score (0), so (MON-7,
/// SEP-5.3) the next player below of that score who is not, 3, is taken: 1-3, 2-4.
#[test]
fn monrad_passes_over_a_clubmate_for_the_next_below() {
    let mut t = tournament(SystemId::Monrad, &["A", "A", "B", "C"], 3);
    assert_eq!(pairs(&answer(&t)), vec![(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 3), (2, 4)]);
    assert!(cites(&p, "MON-7"));
}

/// Monrad, round 2 after 1-2 and 3-4 won by White: the list (MON-2, score then pairing
/// number) is 1, 3 (1 point), 2, 4 (0). 1 meets 3, his clubmate (clubs A B A C); the next
/// candidates are 2 (already met, MON-3) and 4, of a lower score: `WEAK` keeps to the
/// clubmate's score, so nobody floats to avoid him: 1-3, 2-4 as without the separation.
#[test]
fn monrad_does_not_float_to_avoid_a_clubmate() {
    let mut t = tournament(SystemId::Monrad, &["A", "B", "A", "C"], 3);
    play(&mut t, &[(1, 2), (3, 4)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    separate(&mut t, SeparationMode::Weak);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 3), (2, 4)]);
    assert!(!cites(&p, "MON-7"));
}

/// Records a round of games `(white, black, white_won)` by pairing number.
fn play_results(t: &mut Tournament, games: &[(u32, u32, bool)]) {
    t.rounds.push(Round {
        games: games
            .iter()
            .map(|&(w, b, white_won)| Game {
                white: w as usize - 1,
                black: b as usize - 1,
                result: if white_won {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                },
                board: None,
            })
            .collect(),
        byes: Vec::new(),
    });
}

/// Keizer `WEAK_FIRST` (KZ-4.4) means what `WEAK` means: Keizer has no score groups, so
/// the next player ranked below who is no groupmate may already be anyone. Round 1 (clubs
/// A A B C): 1-3, 2-4 at both places, as in
/// `keizer_passes_over_a_clubmate_for_the_next_ranked_below`; and a round 2 (after 1-2,
/// 3-4 won by White) worked both ways gives the same pairs at both places too.
#[test]
fn keizer_weak_first_means_weak() {
    let mut t = tournament(SystemId::Keizer, &["A", "A", "B", "C"], 5);
    for mode in [SeparationMode::Weak, SeparationMode::WeakFirst] {
        separate(&mut t, mode);
        let p = answer(&t);
        assert_eq!(pairs(&p), vec![(1, 3), (2, 4)], "{mode:?}");
        assert!(cites(&p, "KZ-4.4"), "{mode:?}");
    }
    let mut t = tournament(SystemId::Keizer, &["A", "B", "A", "C", "B", "C"], 5);
    play(&mut t, &[(1, 2), (3, 4), (5, 6)]);
    t.separations.clear();
    let plain = pairs(&answer(&t));
    separate(&mut t, SeparationMode::Weak);
    let weak = pairs(&answer(&t));
    separate(&mut t, SeparationMode::WeakFirst);
    let first = pairs(&answer(&t));
    assert_ne!(plain, weak, "the round must be one the separation changes");
    assert_eq!(weak, first);
}

/// Keizer `WEAK_LAST` (KZ-4.4): a groupmate is passed over only for a player of his Keizer
/// score (KZ-3), whom the ranking places apart by its tie order alone. Round 1: nobody has
/// a score yet (all 0), so the pass of `keizer_passes_over_a_clubmate_...` is made: 1-3,
/// 2-4. Round 2 after 1-2, 3-4, 5-6 won by White: the ranking is 1, 3, 5 (winners, each
/// scored with his opponent's value, all different) then 2, 4, 6; 1 meets 3 (nearest
/// below, KZ-4.1). Clubs A B A C D E: 3 is his clubmate; `WEAK` takes the next ranked who
/// is not, 5; `WEAK_LAST` keeps 3, as 5's score differs from 3's: the plain pairing.
#[test]
fn keizer_weak_last_passes_over_only_within_a_score() {
    let mut t = tournament(SystemId::Keizer, &["A", "A", "B", "C"], 5);
    separate(&mut t, SeparationMode::WeakLast);
    assert_eq!(pairs(&answer(&t)), vec![(1, 3), (2, 4)]);
    let mut t = tournament(SystemId::Keizer, &["A", "B", "A", "C", "D", "E"], 5);
    play(&mut t, &[(1, 2), (3, 4), (5, 6)]);
    let plain = pairs(&answer(&t));
    assert!(plain.contains(&(1, 3)), "{plain:?}");
    separate(&mut t, SeparationMode::Weak);
    let weak = pairs(&answer(&t));
    assert!(weak.contains(&(1, 5)), "{weak:?}");
    separate(&mut t, SeparationMode::WeakLast);
    let last = answer(&t);
    assert_eq!(pairs(&last), plain);
    assert!(!cites(&last, "KZ-4.4"));
}

/// Monrad `WEAK_FIRST` (MON-7): the next player below who is no groupmate, of any score.
/// The round of `monrad_does_not_float_to_avoid_a_clubmate` (list 1, 3 | 2, 4; clubs A B
/// A C; 1-2 met): 1's clubmate 3 is passed over for 4 (2 met; 2-3 can still be paired):
/// 1-4, 2-3, where `WEAK` keeps 1-3.
#[test]
fn monrad_weak_first_floats_to_avoid_a_clubmate() {
    let mut t = tournament(SystemId::Monrad, &["A", "B", "A", "C"], 3);
    play(&mut t, &[(1, 2), (3, 4)]);
    separate(&mut t, SeparationMode::WeakFirst);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 4), (2, 3)]);
    assert!(cites(&p, "MON-7"));
}

/// Monrad `WEAK_LAST` (MON-7): only for a player of the groupmate's score with whom the
/// pair meets as many colour dues (MON-5). Round 1 (white, black): 1-2 won by 1, 3-4 won
/// by 4 (Black), 5-6: the list (MON-2) is 1, 4, 5 (1 point), 2, 3, 6. Dues: 1 Black, 4
/// White. 1 meets 4 (both dues met); clubs 1, 4 A. `WEAK` passes over 4 for 5 either way.
/// With 5 the white winner (due Black, as 1: equal strength, 1 gets it) the pair 1-5
/// meets one due: `WEAK_LAST` keeps 1-4 (then 5-2, 3-6). With 5 the black winner of 6-5
/// (due White) 1-5 meets both: `WEAK_LAST` takes 5 (then 4-2, 3-6).
#[test]
fn monrad_weak_last_passes_over_only_with_colours_as_good() {
    let clubs = ["A", "B", "C", "A", "B", "C"];
    let mut t = tournament(SystemId::Monrad, &clubs, 5);
    play_results(&mut t, &[(1, 2, true), (3, 4, false), (5, 6, true)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 5), (3, 6)]);
    separate(&mut t, SeparationMode::Weak);
    assert_eq!(pairs(&answer(&t)), vec![(1, 5), (2, 4), (3, 6)]);
    separate(&mut t, SeparationMode::WeakLast);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 4), (2, 5), (3, 6)]);
    assert!(!cites(&p, "MON-7"));

    let mut t = tournament(SystemId::Monrad, &clubs, 5);
    play_results(&mut t, &[(1, 2, true), (3, 4, false), (6, 5, false)]);
    assert_eq!(pairs(&answer(&t)), vec![(1, 4), (2, 5), (3, 6)]);
    separate(&mut t, SeparationMode::WeakLast);
    let p = answer(&t);
    assert_eq!(pairs(&p), vec![(1, 5), (2, 4), (3, 6)]);
    assert!(cites(&p, "MON-7"));
}

/// A place a system does not offer is refused naming the field and the places it offers.
#[test]
fn procedures_refuse_places_they_do_not_offer() {
    for system in [SystemId::Buchholz, SystemId::Backgammon] {
        let mut t = tournament(system, &["A", "A", "B", "C"], 5);
        separate(&mut t, SeparationMode::WeakLast);
        let err = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
        let text = format!("{err:?}");
        assert!(
            text.contains("tournament.separations[0].mode") && text.contains("offers WEAK"),
            "{system:?}: {text}"
        );
    }
}

/// The knockout (KO-3.1) and Scheveningen (SCH-2) pair by a bracket or table fixed at the
/// start: every separation is refused (SEP-4), naming `tournament.separations`.
#[test]
fn fixed_tables_refuse_separations() {
    for system in [SystemId::Knockout, SystemId::Scheveningen] {
        for mode in [SeparationMode::Absolute, SeparationMode::Weak] {
            let mut t = tournament(system, &["A", "A", "B", "C"], 2);
            separate(&mut t, mode);
            let err = pairing::pair(&t, &PairOptions::default()).expect_err("refused");
            assert!(
                matches!(err, swisspair::systems::PairError::Invalid(_)),
                "{system:?} {mode:?}: {err:?}"
            );
            let text = format!("{err:?}");
            assert!(
                text.contains("tournament.separations") && text.contains("SEP-4"),
                "{system:?} {mode:?}: {text}"
            );
        }
    }
}
