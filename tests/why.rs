//! "Why not?" (`check::why`, the `Explain` RPC, `swisspair why`): hand-worked questions for
//! each kind of answer, and the property that makes the answers trustworthy: for a
//! criterion-based system, the best pairing containing a legal alternative is never better
//! than the system's answer in the system's own order (if it were, the engine would not be
//! optimal: the test is also a bug detector, run over the corpora's rounds).
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use swisspair::check::why::{self, Question, VerdictKind, WhyAnswer};
use swisspair::model::{ByeKind, Colour, PlayerIdx, SystemId, Tournament};
use swisspair::simulate::{SimConfig, simulate};
use swisspair::systems::common::{History, RoundToPair};
use swisspair::systems::{PairOptions, RoundPairing};

fn corpus(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/conformance")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    out.sort();
    out
}

fn read(path: &Path) -> Tournament {
    let text = std::fs::read_to_string(path).expect("readable");
    swisspair::pairing::read_trf(&text)
        .expect("valid TRF")
        .tournament
}

fn ask(t: &Tournament, system: SystemId, round: u32, q: Question) -> WhyAnswer {
    let options = PairOptions {
        system: Some(system),
        round: Some(round),
        ..PairOptions::default()
    };
    why::run(t, &q, &options).expect("the question is answered")
}

fn simulated(system: SystemId, players: u32, rounds: u32, seed: u64) -> Tournament {
    let mut config = SimConfig::new(system, players, rounds, seed);
    config.forfeit_rate = 0.0;
    simulate(&config).expect("simulated")
}

fn with_option(mut t: Tournament, name: &str, value: &str) -> Tournament {
    t.options.set(name, value).expect("a valid option");
    t
}

fn pair_of(p: &RoundPairing, a: PlayerIdx, b: PlayerIdx) -> bool {
    p.boards
        .iter()
        .any(|x| (x.white == a && x.black == b) || (x.white == b && x.black == a))
}

fn pab(p: &RoundPairing) -> Option<PlayerIdx> {
    p.byes
        .iter()
        .find(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player)
}

/// The round `number` as the question sees it: the rounds before it, that round's
/// requested byes kept.
fn history_before(t: &Tournament, system: SystemId, number: u32) -> History {
    let mut before = t.clone();
    before.rounds.truncate(number as usize - 1);
    let options = PairOptions {
        system: Some(system),
        round: Some(number),
        ..PairOptions::default()
    };
    History::build(&RoundToPair::prepare(&before, &options).expect("prepared"))
}

// ---- hand-worked: impossible -------------------------------------------------------

/// C.04.1 art. 2 (the Dutch C1, Vincze's VZ-2.1): two players who met may not meet again; the answer cites
/// the round of their game, read here from the file.
#[test]
fn a_rematch_is_impossible_and_cites_the_round() {
    for system in [
        SystemId::Dutch,
        SystemId::Burstein,
        SystemId::Dubov,
        SystemId::Vincze,
        SystemId::Lim,
    ] {
        let t = simulated(system, 12, 4, 7);
        let game = &t.rounds[1].games[0];
        let (a, b) = (game.white, game.black);
        let answer = ask(&t, system, 4, Question::Pair { a, b, white: None });
        assert_eq!(answer.verdict.kind, VerdictKind::Impossible, "{system:?}");
        // The system's own rule against a rematch (C.04.1 art. 2; Vincze's VZ-2.1).
        let rule = swisspair::systems::find(system)
            .expect("implemented")
            .configure(&t.options)
            .absolute_rules()
            .rematch_rule;
        assert_eq!(answer.verdict.rule_id, rule, "{system:?}");
        assert!(
            answer.verdict.message.contains("(round 2)"),
            "{system:?}: {}",
            answer.verdict.message
        );
        assert!(answer.alternative.is_none());
    }
}

/// Double-Swiss [C2] (reading X4): a player who had the PAB in an earlier match may not
/// have it again; the rule is the system's own, not C.04.1 art. 4.
#[test]
fn double_swiss_second_pab_is_impossible_by_c2() {
    let t = simulated(SystemId::DoubleSwiss, 11, 6, 3);
    let first = pab_of_round(&t, 1).expect("an odd field has a PAB in match 1");
    // Match 3 (round 5, its game 1).
    let answer = ask(&t, SystemId::DoubleSwiss, 5, Question::Bye(first));
    assert_ne!(
        pab(&answer.answer),
        Some(first),
        "the engine gave a second PAB"
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Impossible,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.5 C2");
    assert!(answer.alternative.is_none());
}

fn pab_of_round(t: &Tournament, number: u32) -> Option<PlayerIdx> {
    t.round(number)?
        .byes
        .iter()
        .find(|b| b.kind == ByeKind::Pab)
        .map(|b| b.player)
}

/// C.04.1 art. 4: no second PAB; the answer cites the round of the first.
#[test]
fn a_second_bye_is_impossible_and_cites_the_first() {
    let t = simulated(SystemId::Dutch, 11, 4, 3);
    let (round, p) = t
        .rounds
        .iter()
        .take(3)
        .enumerate()
        .find_map(|(r, x)| {
            x.byes
                .iter()
                .find(|b| b.kind == ByeKind::Pab)
                .map(|b| (r as u32 + 1, b.player))
        })
        .expect("an odd field has a PAB in round 1");
    let answer = ask(&t, SystemId::Dutch, 4, Question::Bye(p));
    if pab(&answer.answer) == Some(p) {
        panic!("the engine gave a second PAB");
    }
    assert_eq!(answer.verdict.kind, VerdictKind::Impossible);
    assert_eq!(answer.verdict.rule_id, "C.04.1 art. 4");
    assert!(
        answer.verdict.message.contains(&format!("round {round}")),
        "{}",
        answer.verdict.message
    );
}

/// An even number of players to pair: nobody gets the PAB (C.04.1 art. 3).
#[test]
fn no_bye_in_an_even_field() {
    let t = simulated(SystemId::Dutch, 10, 3, 5);
    let answer = ask(&t, SystemId::Dutch, 3, Question::Bye(0));
    assert_eq!(answer.verdict.kind, VerdictKind::Impossible);
    assert_eq!(answer.verdict.rule_id, "C.04.1 art. 3");
}

/// The colour limits (C.04.1 art. 6-7): a player with two Whites in a row cannot have a
/// third outside the last round.
#[test]
fn a_third_colour_in_a_row_is_impossible() {
    let t = simulated(SystemId::Dutch, 14, 5, 11);
    let number = 4;
    let history = history_before(&t, SystemId::Dutch, number);
    let p = (0..t.players.len())
        .find(|&p| history.player(p).last_two_same() == Some(Colour::White))
        .expect("someone had White twice in a row");
    let answer = ask(
        &t,
        SystemId::Dutch,
        number,
        Question::Colour(p, Colour::White),
    );
    assert_eq!(answer.verdict.kind, VerdictKind::Impossible);
    assert_eq!(answer.verdict.rule_id, "C.04.1 art. 6-7");
}

// ---- hand-worked: worse on a named criterion -----------------------------------------

/// Dutch 2026 C5 (the PAB assignee's score is minimised, before any bracket criterion):
/// the bye for a player with a higher score than the answer's assignee is worse on C5,
/// with both scores.
#[test]
fn dutch_bye_to_a_higher_score_is_worse_on_c5() {
    let t = simulated(SystemId::Dutch, 13, 4, 21);
    let number = 4;
    let history = history_before(&t, SystemId::Dutch, number);
    let base = ask(&t, SystemId::Dutch, number, Question::Bye(0));
    let given = pab(&base.answer).expect("an odd field has a PAB");
    let low = history.player(given).pairing_points;
    let x = (0..t.players.len())
        .filter(|&p| history.player(p).pairing_points > low)
        .find(|&p| history.pab_eligible(p, t.scoring.win))
        .expect("an eligible player with a higher score");
    let answer = ask(&t, SystemId::Dutch, number, Question::Bye(x));
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.3 C5");
    let d = answer.verdict.difference.expect("a difference");
    assert!(d.first_is_better);
    assert_eq!(d.first_value, format!("the PAB assignee scores {low}"));
    assert_eq!(
        d.second_value,
        format!(
            "the PAB assignee scores {}",
            history.player(x).pairing_points
        )
    );
    let alt = answer.alternative.expect("the alternative pairing");
    assert_eq!(
        pab(&alt),
        Some(x),
        "the alternative gives the bye asked for"
    );
}

/// Dubov art. 3.1: the PAB goes to the lowest score first.
#[test]
fn dubov_bye_to_a_higher_score_is_worse_by_art_3_1() {
    let t = simulated(SystemId::Dubov, 13, 4, 5);
    let number = 4;
    let history = history_before(&t, SystemId::Dubov, number);
    let base = ask(&t, SystemId::Dubov, number, Question::Bye(0));
    let given = pab(&base.answer).expect("an odd field has a PAB");
    let low = history.player(given).pairing_points;
    let x = (0..t.players.len())
        .filter(|&p| history.player(p).pairing_points > low)
        .find(|&p| history.pab_eligible(p, t.scoring.win))
        .expect("an eligible player with a higher score");
    let answer = ask(&t, SystemId::Dubov, number, Question::Bye(x));
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.4.1 art. 3.1");
}

/// Double-Swiss 3.4.2: the PAB goes to the lowest score among the players [C2] allows (and
/// whose bye leaves a legal pairing, 3.4.1), before any bracket: the bye for a higher score
/// is worse on 3.4.2, with the match scores (the PAB worth 1.5) on each side.
#[test]
fn double_swiss_bye_to_a_higher_score_is_worse_on_3_4_2() {
    use swisspair::systems::double_swiss::{history::MatchHistory, pab_points};
    let t = simulated(SystemId::DoubleSwiss, 13, 6, 21);
    // Match 3 (round 5), scored on matches 1-2.
    let number = 5;
    let matches = MatchHistory::build(&t, 2, pab_points(&t.options));
    let score = |p: PlayerIdx| matches.points_after(p, 2);
    let base = ask(&t, SystemId::DoubleSwiss, number, Question::Bye(0));
    let given = pab(&base.answer).expect("an odd field has a PAB");
    let x = (0..t.players.len())
        .filter(|&p| score(p) > score(given))
        .find(|&p| !matches.pab_barred(p))
        .expect("a player with a higher score who may have the PAB");
    let answer = ask(&t, SystemId::DoubleSwiss, number, Question::Bye(x));
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.5 3.4.2");
    let d = answer.verdict.difference.expect("a difference");
    assert!(d.first_is_better);
    assert_eq!(
        d.first_value,
        format!("the PAB assignee scores {}", score(given))
    );
    assert_eq!(
        d.second_value,
        format!("the PAB assignee scores {}", score(x))
    );
    assert_eq!(d.players, vec![x]);
    assert_eq!(pab(&answer.alternative.expect("alternative")), Some(x));
}

/// Lim art. 2.3 (reading L9): a scoregroup keeps as many pairings as it can have. The top
/// scoregroup (above the Median Scoregroup, paired first by art. 2.2) is paired within
/// itself; its member paired instead with a lower scoregroup leaves it, and an even group
/// short of one player floats another: worse on art. 2.3 in the top scoregroup, 0 floaters
/// against at least 2.
#[test]
fn lim_breaking_up_the_top_scoregroup_is_worse_on_art_2_3() {
    let number = 5;
    let mut asked = 0;
    for seed in 1..40 {
        let t = simulated(SystemId::Lim, 16, 7, seed);
        let history = history_before(&t, SystemId::Lim, number);
        let score = |p: PlayerIdx| history.player(p).pairing_points;
        // Art. 2.2: half of what the rounds played can give.
        let median = swisspair::model::Score::from_tenths(
            t.scoring.win.tenths() * i64::from(number - 1) / 2,
        );
        let base = ask(&t, SystemId::Lim, number, Question::Bye(0));
        let paired: Vec<PlayerIdx> = base
            .answer
            .boards
            .iter()
            .flat_map(|b| [b.white, b.black])
            .collect();
        let Some(top) = paired.iter().map(|&p| score(p)).max() else {
            continue;
        };
        let group: Vec<PlayerIdx> = paired
            .iter()
            .copied()
            .filter(|&p| score(p) == top)
            .collect();
        let within = base
            .answer
            .boards
            .iter()
            .filter(|b| score(b.white) == top || score(b.black) == top)
            .all(|b| score(b.white) == top && score(b.black) == top);
        if top <= median || !within || group.is_empty() {
            continue;
        }
        let x = group[0];
        for &y in &paired {
            if score(y) <= median || score(y) >= top || history.may_not_meet(x, y) {
                continue;
            }
            let answer = ask(
                &t,
                SystemId::Lim,
                number,
                Question::Pair {
                    a: x,
                    b: y,
                    white: None,
                },
            );
            // The colour limits may bar the pair: another candidate.
            if answer.verdict.kind == VerdictKind::Impossible {
                continue;
            }
            assert_eq!(
                answer.verdict.kind,
                VerdictKind::Worse,
                "seed {seed}: {}",
                answer.verdict.message
            );
            assert_eq!(answer.verdict.rule_id, "C.04.4.3 art. 2.3");
            let d = answer.verdict.difference.expect("a difference");
            assert!(d.first_is_better);
            assert_eq!(d.bracket, Some(top));
            assert_eq!(d.first_value, "0 floater(s) leave the scoregroup");
            let floaters: usize = d
                .second_value
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a count of floaters");
            assert!(floaters >= 2, "{}", d.second_value);
            assert!(d.players.contains(&x), "{:?}", d.players);
            assert!(pair_of(&answer.alternative.expect("alternative"), x, y));
            asked += 1;
            break;
        }
    }
    assert!(
        asked > 0,
        "no snapshot with a top scoregroup paired within itself"
    );
}

/// A pair across score groups costs downfloaters or their scores: Burstein (after its
/// seeding rounds) maximises pairs (C5) and minimises the floaters' scores (C6) first.
#[test]
fn burstein_leader_against_the_last_is_worse_on_a_float_criterion() {
    let t = simulated(SystemId::Burstein, 16, 6, 9);
    let number = 6; // after min(6/2, 4) = 3 seeding rounds
    let history = history_before(&t, SystemId::Burstein, number);
    let mut by_score: Vec<PlayerIdx> = (0..t.players.len()).collect();
    by_score.sort_by_key(|&p| std::cmp::Reverse(history.player(p).pairing_points));
    let top = by_score[0];
    let bottom = *by_score
        .iter()
        .rev()
        .find(|&&p| {
            !history.may_not_meet(top, p)
                && history.player(p).pairing_points < history.player(top).pairing_points
        })
        .expect("a lower player the leader has not met");
    let answer = ask(
        &t,
        SystemId::Burstein,
        number,
        Question::Pair {
            a: top,
            b: bottom,
            white: None,
        },
    );
    if answer.verdict.kind == VerdictKind::Impossible {
        return; // colour limits or completion: no pairing contains it
    }
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert!(
        ["C.04.4.2 C5", "C.04.4.2 C6", "C.04.4.2 C7"].contains(&answer.verdict.rule_id.as_str()),
        "{}",
        answer.verdict.rule_id
    );
    assert!(pair_of(
        &answer.alternative.expect("alternative"),
        top,
        bottom
    ));
}

// ---- hand-worked: a tie decided by the order ----------------------------------------

/// Round 1: one score group, no colour preferences, no floats. Any legal pairing of an
/// even field ties on every quality criterion, so the system's order decides: the Dutch
/// art. 4 sequence (Burstein's seeding rounds are Dutch), Dubov's art. 3.2 (G1 by ARO
/// against the first legal permutation of G2), the Double-Swiss's first Pairing Identifier
/// (C.04.5 3.6), Lim's exchange tables (C.04.4.3 art. 4.2).
#[test]
fn round_one_alternatives_tie_and_the_order_decides() {
    for (system, order) in [
        (SystemId::Dutch, "C.04.3 art. 4"),
        (SystemId::Burstein, "C.04.3 art. 4"),
        (SystemId::Dubov, "C.04.4.1 art. 3.2"),
        // One bracket, no upfloaters: the first Pairing Identifier (C.04.5 3.6).
        (SystemId::DoubleSwiss, "C.04.5 3.6"),
        // All in the Median Scoregroup, no floaters: the exchange tables (C.04.4.3 art. 4.2).
        (SystemId::Lim, "C.04.4.3 art. 4.2"),
    ] {
        let t = simulated(system, 8, 2, 1);
        let base = ask(&t, system, 1, Question::Bye(0));
        let (a, b) = (0..8)
            .flat_map(|a| (a + 1..8).map(move |b| (a, b)))
            .find(|&(a, b)| !pair_of(&base.answer, a, b))
            .expect("a pair not in the answer");
        let answer = ask(&t, system, 1, Question::Pair { a, b, white: None });
        assert_eq!(
            answer.verdict.kind,
            VerdictKind::Tie,
            "{system:?}: {}",
            answer.verdict.message
        );
        assert_eq!(answer.verdict.rule_id, order, "{system:?}");
        assert!(pair_of(&answer.alternative.expect("alternative"), a, b));
    }
}

/// A pair in the answer is already so; asking for the other colour on it answers with the
/// colour allocation rule (or the colour limits).
#[test]
fn a_pair_of_the_answer_is_already_so() {
    let t = simulated(SystemId::Dutch, 12, 3, 2);
    let base = ask(&t, SystemId::Dutch, 3, Question::Bye(0));
    let board = base.answer.boards[0];
    let answer = ask(
        &t,
        SystemId::Dutch,
        3,
        Question::Pair {
            a: board.black,
            b: board.white,
            white: None,
        },
    );
    assert_eq!(answer.verdict.kind, VerdictKind::AlreadySo);
    let swapped = ask(
        &t,
        SystemId::Dutch,
        3,
        Question::Colour(board.black, Colour::White),
    );
    assert!(
        matches!(
            swapped.verdict.kind,
            VerdictKind::Tie | VerdictKind::Impossible | VerdictKind::Worse
        ),
        "{:?}",
        swapped.verdict
    );
    assert!(!swapped.verdict.rule_id.is_empty());
}

// ---- procedural systems -------------------------------------------------------------

/// A procedural system answers with the step of its procedure where the two pairings part,
/// with that step's rule id, and the pairing its procedure makes with the pair (a round
/// robin's table cannot make another: the step of the table says so).
#[test]
fn procedural_systems_name_the_step() {
    for system in [
        SystemId::Amalfi,
        SystemId::Vincze,
        SystemId::Buchholz,
        SystemId::Simple,
        SystemId::ColourAlternation,
        SystemId::Backgammon,
        SystemId::RoundRobin,
    ] {
        let t = simulated(system, 10, 4, 4);
        let base = ask(&t, system, 3, Question::Bye(0));
        let history = history_before(&t, system, 3);
        let Some((a, b)) = (0..10)
            .flat_map(|a| (a + 1..10).map(move |b| (a, b)))
            .find(|&(a, b)| !pair_of(&base.answer, a, b) && !history.may_not_meet(a, b))
        else {
            continue;
        };
        let answer = ask(&t, system, 3, Question::Pair { a, b, white: None });
        match answer.verdict.kind {
            VerdictKind::Procedure => {
                assert!(
                    !answer.verdict.rule_id.is_empty(),
                    "{system:?}: {:?}",
                    answer.verdict
                );
                let alt = answer.alternative.expect("alternative");
                assert!(
                    pair_of(&alt, a, b) || answer.verdict.message.contains("does not reach"),
                    "{system:?}: {}",
                    answer.verdict.message
                );
            }
            VerdictKind::Impossible => assert!(!answer.verdict.rule_id.is_empty()),
            other => panic!("{system:?}: {other:?}"),
        }
    }
}

// ---- the second form: two whole pairings -------------------------------------------

/// A whole proposed pairing: the system's own answer is already so; the best pairing
/// containing another pair, proposed whole, gets the same verdict as the pair question.
#[test]
fn a_whole_pairing_is_compared_like_the_pair_question() {
    let t = simulated(SystemId::Dutch, 12, 4, 17);
    let base = ask(&t, SystemId::Dutch, 4, Question::Bye(0));
    let proposal = |p: &RoundPairing| swisspair::check::manual::Proposal {
        boards: p.boards.iter().map(|b| (b.white, b.black)).collect(),
        byes: pab(p).into_iter().collect(),
        complete: false,
        compare_with_engine: false,
    };
    let same = ask(
        &t,
        SystemId::Dutch,
        4,
        Question::Pairing(proposal(&base.answer)),
    );
    assert_eq!(same.verdict.kind, VerdictKind::AlreadySo);
    let history = history_before(&t, SystemId::Dutch, 4);
    let (a, b) = (0..12)
        .flat_map(|a| (a + 1..12).map(move |b| (a, b)))
        .find(|&(a, b)| !pair_of(&base.answer, a, b) && !history.may_not_meet(a, b))
        .expect("a legal pair not in the answer");
    let by_pair = ask(&t, SystemId::Dutch, 4, Question::Pair { a, b, white: None });
    let Some(alt) = by_pair.alternative else {
        return;
    };
    let whole = ask(&t, SystemId::Dutch, 4, Question::Pairing(proposal(&alt)));
    assert_eq!(
        whole.verdict.kind, by_pair.verdict.kind,
        "{}",
        whole.verdict.message
    );
    assert_eq!(whole.verdict.rule_id, by_pair.verdict.rule_id);
}

/// 2017 C.7 reads the next bracket as it could be paired (its most pairs, then the A.8
/// differences of the downfloaters it cannot take), not as the completion below made it
/// pair: here floating 3 (2.0) instead of 4 leaves the 1.0 bracket a lower downfloater only
/// because 4's one partner there is the one the 0.0 bracket needs. The engine, like the
/// reference, ties them and the order of D.1-D.2 chooses.
#[test]
fn dutch_2017_next_bracket_is_read_as_it_could_pair() {
    let t = with_option(
        simulated(SystemId::Dutch, 8, 4, 16_080_397_932_661_312_779),
        "edition",
        "2017",
    );
    let floater = t
        .players
        .iter()
        .position(|p| p.id == "p3")
        .expect("player 3");
    let answer = ask(&t, SystemId::Dutch, 4, Question::Float(floater));
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Tie,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.3 D.1-D.2");
}

// ---- Swiss Team (C.04.6): questions about teams --------------------------------------

/// A Gacrux team file (19 teams, 9 rounds; TPNs 1..19 in file order).
fn team_file() -> Tournament {
    read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/team/team-s620001.trf"),
    )
}

/// The first rostered member of a team: it names the team in a question.
fn member(t: &Tournament, team: usize) -> PlayerIdx {
    t.teams[team].members[0]
}

/// The teams' match points before round `number`, from the model's team rounds.
fn match_points_before(t: &Tournament, number: u32) -> Vec<swisspair::model::Score> {
    let rounds = swisspair::model::team_rounds(t).expect("team rounds");
    swisspair::model::team_points(t, &rounds[..number as usize - 1])
        .into_iter()
        .map(|(mp, _)| mp)
        .collect()
}

/// C.04.6 art. 2.1.1 [C1]: two teams that met in a played match may not meet again; the
/// answer cites the round of their match. Art. 2.1.2 [C2]: no second PAB for a team.
#[test]
fn team_rematch_and_second_bye_are_impossible() {
    let t = team_file();
    let rounds = swisspair::model::team_rounds(&t).expect("team rounds");
    let m = rounds[0]
        .matches
        .iter()
        .find(|m| m.played)
        .expect("a played match in round 1");
    let answer = ask(
        &t,
        SystemId::TeamSwiss,
        4,
        Question::Pair {
            a: member(&t, m.white),
            b: *t.teams[m.black].members.last().expect("members"),
            white: None,
        },
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Impossible,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.6 art. 2.1.1");
    assert!(
        answer.verdict.message.contains("(round 1)"),
        "{}",
        answer.verdict.message
    );
    assert!(answer.alternative.is_none());
    // The team that had the PAB in an earlier round cannot have it again.
    let (first, team) = rounds
        .iter()
        .enumerate()
        .take(6)
        .find_map(|(r, x)| x.pab.map(|team| (r + 1, team)))
        .expect("a team PAB among the first rounds of an odd field");
    let number = first as u32 + 1;
    let answer = ask(
        &t,
        SystemId::TeamSwiss,
        number,
        Question::Bye(member(&t, team)),
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Impossible,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.6 art. 2.1.2");
    assert!(
        answer.verdict.message.contains(&format!("round {first}")),
        "{}",
        answer.verdict.message
    );
    // A team cannot be paired with itself: the request names the field.
    let options = PairOptions {
        system: Some(SystemId::TeamSwiss),
        round: Some(4),
        ..PairOptions::default()
    };
    let same = Question::Pair {
        a: t.teams[0].members[0],
        b: t.teams[0].members[1],
        white: None,
    };
    let e = why::run(&t, &same, &options).expect_err("one team");
    assert!(e.to_string().contains("pair.opponent_id"), "{e}");
}

/// Art. 3.4.2: the PAB goes to the lowest score, before any scoregroup is paired. The bye
/// for a team with more match points is worse there, with both teams' scores (read here
/// from the model's team rounds).
#[test]
fn team_bye_to_a_higher_score_is_worse_by_art_3_4_2() {
    let t = team_file();
    let number = 5;
    let base = ask(
        &t,
        SystemId::TeamSwiss,
        number,
        Question::Bye(member(&t, 0)),
    );
    let given = base
        .answer
        .teams
        .as_ref()
        .and_then(|x| x.pab)
        .expect("19 teams: a team PAB");
    let points = match_points_before(&t, number);
    let rounds = swisspair::model::team_rounds(&t).expect("team rounds");
    let had_pab = |team: usize| {
        rounds[..number as usize - 1]
            .iter()
            .any(|r| r.pab == Some(team))
    };
    let x = (0..t.teams.len())
        .find(|&team| points[team] > points[given] && !had_pab(team))
        .expect("a team with a higher score");
    let answer = ask(
        &t,
        SystemId::TeamSwiss,
        number,
        Question::Bye(member(&t, x)),
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.6 art. 3.4.2");
    let d = answer.verdict.difference.expect("a difference");
    assert!(d.first_is_better);
    assert_eq!(
        d.first_value,
        format!(
            "the PAB team {} scores {}",
            t.team_tpn(given),
            points[given]
        )
    );
    assert_eq!(
        d.second_value,
        format!("the PAB team {} scores {}", t.team_tpn(x), points[x])
    );
    let alt = answer.alternative.expect("the alternative pairing");
    assert_eq!(alt.teams.and_then(|x| x.pab), Some(x), "the bye asked for");
}

/// Round 1 of an even team field: one scoregroup, no colour preference, no float. Every
/// legal team pairing ties on [C4]-[C10], so the identifiers' order of art. 3.6.2 decides;
/// the other colour for a team is decided by art. 4.3 (no colour is absolute).
#[test]
fn team_round_one_alternatives_tie_and_the_order_decides() {
    let t = simulated(SystemId::TeamSwiss, 8, 5, 3);
    let base = ask(&t, SystemId::TeamSwiss, 1, Question::Bye(member(&t, 0)));
    let matches = &base.answer.teams.as_ref().expect("team matches").matches;
    let (a, b) = (matches[0].white, matches[1].white);
    let answer = ask(
        &t,
        SystemId::TeamSwiss,
        1,
        Question::Pair {
            a: member(&t, a),
            b: member(&t, b),
            white: None,
        },
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Tie,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.6 art. 3.6.2");
    let alt = answer.alternative.expect("alternative");
    assert!(
        alt.teams
            .expect("team matches")
            .matches
            .iter()
            .any(|m| (m.white == a && m.black == b) || (m.white == b && m.black == a))
    );
    let colour = ask(
        &t,
        SystemId::TeamSwiss,
        1,
        Question::Colour(member(&t, a), Colour::Black),
    );
    assert_eq!(
        colour.verdict.kind,
        VerdictKind::Tie,
        "{}",
        colour.verdict.message
    );
    assert_eq!(colour.verdict.rule_id, matches[0].colour_rule);
    assert!(colour.verdict.rule_id.starts_with("C.04.6 art. 4.3"));
}

// ---- Burstein, profile BBP (bbpPairings' reading) -----------------------------------

fn bbp(t: Tournament) -> Tournament {
    with_option(t, "profile", "BBP")
}

/// The rematch is impossible under the BBP profile too (C.04.1 art. 2).
#[test]
fn bbp_rematch_is_impossible() {
    let t = bbp(simulated(SystemId::Burstein, 12, 5, 7));
    let game = &t.rounds[1].games[0];
    let answer = ask(
        &t,
        SystemId::Burstein,
        4,
        Question::Pair {
            a: game.white,
            b: game.black,
            white: None,
        },
    );
    assert_eq!(answer.verdict.kind, VerdictKind::Impossible);
    assert_eq!(answer.verdict.rule_id, "C.04.1 art. 2");
    assert!(
        answer.verdict.message.contains("(round 2)"),
        "{}",
        answer.verdict.message
    );
}

/// C.04.4.2 3.1 as bbpPairings reads it: the PAB goes, before pairing, to the
/// lowest-ranked eligible player. The bye for an eligible player with a higher score is
/// worse there, with both scores (round 4: no default virtual points after round 2).
#[test]
fn bbp_bye_to_a_higher_score_is_worse_by_3_1() {
    let t = bbp(simulated(SystemId::Burstein, 13, 5, 21));
    let number = 4;
    let history = history_before(&t, SystemId::Burstein, number);
    let base = ask(&t, SystemId::Burstein, number, Question::Bye(0));
    let given = pab(&base.answer).expect("an odd field has a PAB");
    let low = history.player(given).pairing_points;
    let x = (0..t.players.len())
        .filter(|&p| history.player(p).pairing_points > low)
        .find(|&p| history.pab_eligible(p, t.scoring.win))
        .expect("an eligible player with a higher score");
    let answer = ask(&t, SystemId::Burstein, number, Question::Bye(x));
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Worse,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.4.2 3.1");
    let d = answer.verdict.difference.expect("a difference");
    assert!(d.first_is_better);
    assert_eq!(d.first_value, format!("the PAB assignee scores {low}"));
    assert_eq!(
        d.second_value,
        format!(
            "the PAB assignee scores {}",
            history.player(x).pairing_points
        )
    );
    // Nor can the PAB's receiver play: the profile gives the PAB before pairing, whatever
    // the others, so no pairing of it contains a pair with him.
    let q = (0..t.players.len())
        .find(|&q| q != given && !history.may_not_meet(given, q))
        .expect("someone the PAB receiver has not met");
    let answer = ask(
        &t,
        SystemId::Burstein,
        number,
        Question::Pair {
            a: q,
            b: given,
            white: None,
        },
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Impossible,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.4.2 3.1");
}

/// Round 1 under BBP: the profile's default virtual points split the field into two
/// scoregroups; nobody has a colour preference. Swapping the opponents of two boards of
/// the top group keeps every pair within its scoregroup and agreeing on colours, so the
/// engine's "1 v n" order (C.04.4.2 4.3) decides.
#[test]
fn bbp_round_one_swap_ties_and_the_order_decides() {
    let t = bbp(simulated(SystemId::Burstein, 8, 5, 1));
    let base = ask(&t, SystemId::Burstein, 1, Question::Bye(0));
    let boards = &base.answer.boards;
    let (a, b) = (boards[0].white, boards[1].black);
    assert!(!pair_of(&base.answer, a, b));
    let answer = ask(
        &t,
        SystemId::Burstein,
        1,
        Question::Pair { a, b, white: None },
    );
    assert_eq!(
        answer.verdict.kind,
        VerdictKind::Tie,
        "{}",
        answer.verdict.message
    );
    assert_eq!(answer.verdict.rule_id, "C.04.4.2 4.3");
    assert!(pair_of(&answer.alternative.expect("alternative"), a, b));
}

// ---- the property -------------------------------------------------------------------

/// The criterion-based systems (with the options that select each edition or profile).
fn criterion_systems() -> Vec<(SystemId, Option<(&'static str, &'static str)>)> {
    vec![
        (SystemId::Dutch, None),
        (SystemId::Dutch, Some(("edition", "2017"))),
        (SystemId::Burstein, None),
        (SystemId::Burstein, Some(("profile", "BBP"))),
        (SystemId::Dubov, None),
        (SystemId::DoubleSwiss, None),
        (SystemId::Lim, None),
        // Through the simulator's teams (`SimConfig::new` counts teams for this system).
        (SystemId::TeamSwiss, None),
    ]
}

/// Asks a handful of legal alternatives of round `number` (pairs not in the answer, the
/// bye for another player, a float) and fails if any is better than the answer.
fn never_better(
    t: &Tournament,
    system: SystemId,
    number: u32,
    picks: usize,
    salt: u64,
) -> Result<(), String> {
    let options = PairOptions {
        system: Some(system),
        round: Some(number),
        ..PairOptions::default()
    };
    // The answer, through the first player paired this round (an absent or late player is
    // refused as the question's subject; no legal pairing leaves nothing to ask).
    let Some(first) = (0..t.players.len())
        .take(4)
        .find_map(|p| why::run(t, &Question::Float(p), &options).ok())
    else {
        return Ok(());
    };
    let answer = first.answer.clone();
    // A team event's questions name teams by any member: the team PAB by its first one.
    let team_pab = answer
        .teams
        .as_ref()
        .and_then(|x| x.pab)
        .and_then(|team| t.teams[team].members.first().copied());
    let team_of = t.team_of_players();
    let same_team = |a: PlayerIdx, b: PlayerIdx| {
        team_of.get(a).copied().flatten().is_some() && team_of.get(a) == team_of.get(b)
    };
    let mut players: Vec<PlayerIdx> = answer
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(pab(&answer))
        .chain(team_pab)
        .collect();
    players.sort_unstable();
    let n = players.len();
    if n < 3 {
        return Ok(());
    }
    let mut questions = Vec::new();
    let mut x = salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |m: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m as u64) as usize
    };
    for _ in 0..picks {
        let a = players[next(n)];
        let b = players[next(n)];
        if a != b && !pair_of(&answer, a, b) && !same_team(a, b) {
            questions.push(Question::Pair { a, b, white: None });
        }
        questions.push(Question::Bye(players[next(n)]));
        questions.push(Question::Float(players[next(n)]));
    }
    for q in questions {
        let got = why::run(t, &q, &options).map_err(|e| format!("{q:?}: {e}"))?;
        if got.verdict.kind == VerdictKind::Better {
            return Err(format!(
                "{system:?} round {number}: {q:?}: {}",
                got.verdict.message
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On random snapshots, no legal alternative is better than the answer in the
    /// system's order.
    #[test]
    fn no_alternative_beats_the_answer(
        which in 0usize..criterion_systems().len(),
        players in 5u32..24,
        rounds in 2u32..7,
        seed in any::<u64>(),
    ) {
        let (system, option) = criterion_systems()[which];
        // A Double-Swiss event counts games: two rounds a match, and only game 1 (an odd
        // round) is paired (game 2 repeats it reversed, C.04.5 art. 0).
        let double = system == SystemId::DoubleSwiss;
        let rounds = if double { 2 * rounds.div_ceil(2) } else { rounds };
        let mut config = SimConfig::new(system, players, rounds, seed);
        config.forfeit_rate = 0.0;
        // A small field may run out of legal pairings before the last round: nothing to ask.
        let Ok(mut t) = simulate(&config) else {
            return Ok(());
        };
        if let Some((name, value)) = option {
            t = with_option(t, name, value);
        }
        let number = if double {
            1 + 2 * (seed % u64::from(rounds / 2)) as u32
        } else {
            1 + (seed % u64::from(rounds)) as u32
        };
        never_better(&t, system, number, 3, seed).map_err(TestCaseError::fail)?;
    }
}

/// Every round of the criterion-based corpora: no legal alternative is better than the
/// system's answer. A debug build asks about a sample; `SWISSPAIR_WHY_ALL=1` (or a
/// release build) asks about every round of every file; `SWISSPAIR_WHY_ONLY` names the
/// corpora to ask about (comma-separated folders).
#[test]
fn conformance_why_never_better() {
    let all = std::env::var_os("SWISSPAIR_WHY_ALL").is_some() || !cfg!(debug_assertions);
    // `SWISSPAIR_WHY_ONLY=lim,double-swiss`: only these corpora (a full run is long).
    let only = std::env::var("SWISSPAIR_WHY_ONLY").ok();
    let mut failures = Vec::new();
    let mut asked = 0;
    for (dir, system, option) in [
        ("dutch", SystemId::Dutch, None),
        ("dutch2017", SystemId::Dutch, None),
        ("burstein2026", SystemId::Burstein, None),
        // bbpPairings' own rounds: the BBP profile's reading.
        ("burstein", SystemId::Burstein, Some(("profile", "BBP"))),
        ("dubov", SystemId::Dubov, None),
        ("double-swiss", SystemId::DoubleSwiss, None),
        ("lim", SystemId::Lim, None),
        ("team", SystemId::TeamSwiss, None),
    ] {
        if only
            .as_ref()
            .is_some_and(|o| !o.split(',').any(|d| d == dir))
        {
            continue;
        }
        let files = corpus(dir);
        let take = if all { files.len() } else { 3 };
        for (i, path) in files.iter().take(take).enumerate() {
            let mut t = read(path);
            if let Some((name, value)) = option {
                t = with_option(t, name, value);
            }
            if t.players.len() > 150 && !all {
                continue;
            }
            for number in 1..=t.rounds_paired() {
                // A Double-Swiss game 2 (an even round) repeats game 1: nothing is chosen.
                if (!all || system == SystemId::DoubleSwiss) && number % 2 == 0 {
                    continue;
                }
                asked += 1;
                if let Err(e) =
                    never_better(&t, system, number, 2, (i as u64) << 8 | u64::from(number))
                {
                    failures.push(format!("{}: {e}", path.display()));
                }
            }
        }
    }
    eprintln!(
        "conformance why: {} passed, {} failed",
        asked - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
