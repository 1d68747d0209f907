use super::*;
use crate::model::{Bye, Game, GameResult, Player, Round, Tournament};
use crate::systems::PairOptions;

#[test]
fn rounds_are_games_of_matches() {
    assert_eq!(match_of_round(1), (1, 1));
    assert_eq!(match_of_round(2), (1, 2));
    assert_eq!(match_of_round(7), (4, 1));
}

fn event(n: usize, matches: u32) -> Tournament {
    Tournament {
        system: Some(SystemId::DoubleSwiss),
        total_rounds: 2 * matches,
        initial_colour: Some(Colour::White),
        players: (0..n)
            .map(|i| Player {
                id: format!("{}", i + 1),
                rating: 2000 - i as u32,
                pairing_number: Some(i as u32 + 1),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn game(white: usize, black: usize, result: GameResult) -> Game {
    Game {
        white,
        black,
        result,
        board: None,
    }
}

fn pairs(p: &RoundPairing) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = p
        .boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    v.sort();
    v
}

/// The system on the round to pair as the pipeline runs it (a system's tests do not call
/// the pipeline, which stands above the systems): this system keeps the snapshot's scoring;
/// the round's number, preset byes and warnings (e.g. the acceleration's) as the pipeline
/// adds them.
fn pair_with(t: &Tournament, options: &PairOptions) -> Result<RoundPairing, PairError> {
    let system_options = crate::systems::System::options(&DoubleSwiss, &t.options);
    let mut r = crate::systems::RoundToPair::prepare(t, options)?;
    r.accelerate(system_options.acceleration)?;
    let mut out = crate::systems::System::pair(&DoubleSwiss, &r, &system_options)?;
    out.round = r.number;
    out.byes.splice(0..0, r.preset_byes.iter().cloned());
    out.warnings.splice(0..0, r.warnings.iter().cloned());
    Ok(out)
}

fn pair(t: &Tournament) -> Result<RoundPairing, PairError> {
    pair_with(t, &PairOptions::default())
}

#[test]
fn first_match_is_top_half_against_bottom_half_with_alternating_colours() {
    let p = pair(&event(8, 4)).expect("pairs");
    assert_eq!(p.round, 1);
    assert_eq!(pairs(&p), vec![(0, 4), (1, 5), (2, 6), (3, 7)]);
    // C.04.5 4.3.1: the HRP with an odd TPN gets the initial-colour, an even one the other.
    for b in &p.boards {
        let hrp = b.white.min(b.black);
        let hrp_white = b.white == hrp;
        assert_eq!(hrp_white, hrp % 2 == 0, "board {b:?}");
    }
}

#[test]
fn game_two_reverses_game_one_and_byes_cover_the_match() {
    let mut t = event(5, 4);
    let first = pair(&t).expect("game 1");
    assert_eq!(first.byes.len(), 1);
    assert_eq!(first.byes[0].points, DEFAULT_PAB);
    t.rounds.push(Round {
        games: first
            .boards
            .iter()
            .map(|b| game(b.white, b.black, GameResult::Draw))
            .collect(),
        byes: vec![Bye {
            player: first.byes[0].player,
            kind: ByeKind::Pab,
        }],
    });
    let second = pair(&t).expect("game 2");
    assert_eq!(second.round, 2);
    let reversed: Vec<Board> = first
        .boards
        .iter()
        .map(|b| Board {
            white: b.black,
            black: b.white,
        })
        .collect();
    let mut got = second.boards.clone();
    let mut want = reversed;
    got.sort_by_key(|b| (b.white, b.black));
    want.sort_by_key(|b| (b.white, b.black));
    assert_eq!(got, want);
    assert_eq!(second.byes[0].player, first.byes[0].player);
    // A player who played game 1 cannot take a bye for game 2 alone (C.04.5 art. 0).
    let options = PairOptions {
        requested_byes: vec![(first.boards[0].white, ByeKind::HalfPoint)],
        ..PairOptions::default()
    };
    let err = pair_with(&t, &options).expect_err("refused");
    assert!(matches!(err, PairError::Invalid(_)), "{err:?}");
    assert!(err.to_string().contains("whole matches"), "{err}");
}

#[test]
fn a_match_forfeited_by_one_player_is_no_meeting_but_one_forfeited_game_is() {
    let mut t = event(4, 3);
    // Match 1: 0-1 forfeited by 1 (both games); 2-3 with one game forfeited.
    t.rounds.push(Round {
        games: vec![
            game(0, 1, GameResult::WhiteWinsForfeit),
            game(2, 3, GameResult::BlackWinsForfeit),
        ],
        byes: Vec::new(),
    });
    t.rounds.push(Round {
        games: vec![
            game(1, 0, GameResult::BlackWinsForfeit),
            game(3, 2, GameResult::WhiteWins),
        ],
        byes: Vec::new(),
    });
    let h = MatchHistory::build(&t, 1, DEFAULT_PAB);
    assert!(
        !h.have_met(0, 1),
        "forfeited match: may be repeated (C.04.5 art. 0)"
    );
    assert!(h.players[0][0].forfeit_win);
    assert!(h.pab_barred(0), "[C2]: a match won by forfeit bars the PAB");
    assert!(h.have_met(2, 3), "one forfeited game: a regular match");
    // Game 1 forfeited, game 2 played: the match's colour is game 1's, read from game 2
    // reversed (reading X6).
    assert_eq!(h.colours(2), vec![Colour::White]);
    assert_eq!(h.colours(3), vec![Colour::Black]);
    assert!(h.colours(0).is_empty(), "no game played: no colour");
    assert_eq!(h.points_after(0, 1), Score::points(2));
    assert_eq!(h.points_after(3, 1), Score::points(2));
}

#[test]
fn the_pab_is_worth_one_and_a_half_once_per_match_and_configurable() {
    let mut t = event(3, 2);
    t.rounds.push(Round {
        games: vec![game(0, 1, GameResult::Draw)],
        byes: vec![Bye {
            player: 2,
            kind: ByeKind::Pab,
        }],
    });
    t.rounds.push(Round {
        games: vec![game(1, 0, GameResult::Draw)],
        byes: vec![Bye {
            player: 2,
            kind: ByeKind::Pab,
        }],
    });
    let h = MatchHistory::build(&t, 1, DEFAULT_PAB);
    assert_eq!(h.points_after(2, 1), Score::from_tenths(15));
    assert_eq!(t.points_after(2)[2], Score::from_tenths(15));
    t.options.set("pab", "2").expect("a name");
    assert_eq!(pab_points(&t.options), Score::points(2));
    assert_eq!(t.points_after(2)[2], Score::points(2));
}

#[test]
fn baku_acceleration_splits_the_first_match_into_ga_and_gb() {
    // C.04.7: 16 players, GA = 2*ceil(16/4) = 8; in the first accelerated match GA players
    // get a match win's virtual points (2), so GA and GB are paired apart: 1-5 … 9-13 ….
    let plain = pair(&event(16, 4)).expect("pairs");
    assert_eq!(
        pairs(&plain),
        (0..8).map(|i| (i, i + 8)).collect::<Vec<_>>(),
        "unaccelerated: top half against bottom half"
    );
    let mut t = event(16, 4);
    t.options.set("acceleration", "BAKU").expect("a name");
    let accelerated = pair(&t).expect("pairs");
    let mut want: Vec<(usize, usize)> = (0..4).map(|i| (i, i + 4)).collect();
    want.extend((8..12).map(|i| (i, i + 4)));
    assert_eq!(pairs(&accelerated), want);
    assert!(
        accelerated
            .warnings
            .iter()
            .any(|w| w.code == "ACCELERATION"),
        "{:?}",
        accelerated.warnings
    );
}

#[test]
fn the_trf_192_code_with_baku_selects_the_system_and_its_acceleration() {
    use crate::trf::SystemCodes;
    assert_eq!(
        crate::systems::Registry.system_of("FIDE_DOUBLESWISS"),
        Some(SystemId::DoubleSwiss)
    );
    assert_eq!(
        crate::systems::Registry.system_of("FIDE_DOUBLESWISS_BAKU"),
        Some(SystemId::DoubleSwiss)
    );
    let mut t = event(6, 2);
    t.options.set("acceleration", "BAKU").expect("a name");
    let doc = crate::trf::TrfDocument {
        tournament: t,
        ..crate::trf::TrfDocument::default()
    };
    let text = crate::trf::write(&doc, crate::trf::Dialect::Trf26, &crate::systems::Registry)
        .expect("writes");
    assert!(text.contains("FIDE_DOUBLESWISS_BAKU"), "{text}");
    let back = crate::trf::read(&text, &crate::systems::Registry)
        .expect("reads")
        .tournament;
    assert_eq!(back.system, Some(SystemId::DoubleSwiss));
    assert_eq!(back.options.get("acceleration"), Some("BAKU"));
}

#[test]
fn an_odd_number_of_games_is_refused() {
    let mut t = event(4, 2);
    t.total_rounds = 3;
    let err = pair(&t).expect_err("refused");
    assert!(err.to_string().contains("even"), "{err}");
}

/// Records the next match's two games (game 2 reversed) from game-1 boards with each game's
/// result, and its PABs.
fn record_match(
    t: &mut Tournament,
    games: &[(usize, usize, GameResult, GameResult)],
    pab: &[usize],
) {
    let byes = || {
        pab.iter()
            .map(|&player| Bye {
                player,
                kind: ByeKind::Pab,
            })
            .collect::<Vec<_>>()
    };
    t.rounds.push(Round {
        games: games.iter().map(|&(w, b, r, _)| game(w, b, r)).collect(),
        byes: byes(),
    });
    t.rounds.push(Round {
        games: games.iter().map(|&(w, b, _, r)| game(b, w, r)).collect(),
        byes: byes(),
    });
}

/// Reading X8 (C.04.6 1.5, "a floater is a team that plays against an opponent with a
/// different score"): the PAB has no opponent, so it is no float and [C8] does not steer
/// an upfloater away from last match's PAB player.
///
/// Match 1 (7 players): 0-3 1½-½, 1-4 1-1, 2-5 1½-½, PAB 6 (1½). Match 2: the PAB goes to
/// 5 (½, the largest TPN of the lowest score); the bracket of 1½ is {0, 2, 6} with one
/// upfloater of score 1, player 1 (the first set; nobody floated in match 1, where all
/// scored 0). Its pairings by identifier: 0-2 1-6 first. Were the PAB a float, [C8] would
/// refuse 1-6 (upfloater 1 meeting floater 6) and take 0-6 1-2.
#[test]
fn the_pab_of_the_previous_match_is_no_float() {
    use GameResult::{Draw, WhiteWins};
    let mut t = event(7, 3);
    record_match(
        &mut t,
        &[
            (0, 3, WhiteWins, Draw),
            (1, 4, Draw, Draw),
            (2, 5, WhiteWins, Draw),
        ],
        &[6],
    );
    let p = pair(&t).expect("match 2");
    assert_eq!(p.round, 3);
    assert_eq!(p.byes.len(), 1);
    assert_eq!(p.byes[0].player, 5, "PAB: ½, the largest TPN");
    assert_eq!(
        pairs(&p),
        vec![(0, 2), (1, 6), (3, 4)],
        "the first identifier: the PAB player is no floater for [C8] (reading X8)"
    );
}

/// Reading X8: a match forfeited (a player forfeited both games) was not played, so it is
/// no float even against an opponent with another score, and [C7] does not pass over its
/// winner as an upfloater.
///
/// Match 1 (6 players): 0-3 2-0, 1-4 1-1, 2-5 1-1. Match 2: 0-4 2-0; 1-3 forfeited by 3
/// (scores 1 and 0 before it); 2-5 2-0 (1 against 1: no float). Match 3 of 4: scores 0:4,
/// 1:3, 2:3, 4:1, 5:1, 3:0. Player 0 alone needs one upfloater of score 3: {1} and {2}
/// tie on [C6] (one player left at 3 either way), and neither floated, so the first set,
/// {1}, is taken: 0-1, then 2-4 (2 met 5) and 3-5. Were the forfeited match a float,
/// [C7] would take {2}: 0-2, 1-5, 3-4.
#[test]
fn a_forfeited_match_is_no_float() {
    use GameResult::{BlackWins, BlackWinsForfeit, Draw, WhiteWins, WhiteWinsForfeit};
    let mut t = event(6, 4);
    record_match(
        &mut t,
        &[
            (0, 3, WhiteWins, BlackWins),
            (1, 4, Draw, Draw),
            (2, 5, Draw, Draw),
        ],
        &[],
    );
    record_match(
        &mut t,
        &[
            (0, 4, WhiteWins, BlackWins),
            // Game 2 reversed: 3 has White and forfeits again.
            (1, 3, WhiteWinsForfeit, BlackWinsForfeit),
            (2, 5, WhiteWins, BlackWins),
        ],
        &[],
    );
    let h = MatchHistory::build(&t, 2, DEFAULT_PAB);
    assert!(!h.players[1][1].regular, "match 2 of 1-3 was forfeited");
    assert_eq!(h.points_after(1, 2), Score::points(3));
    assert_eq!(h.points_after(2, 2), Score::points(3));
    let p = pair(&t).expect("match 3");
    assert_eq!(p.round, 5);
    assert_eq!(
        pairs(&p),
        vec![(0, 1), (2, 4), (3, 5)],
        "the first set: the forfeited match is no float for [C7] (reading X8)"
    );
}

/// Reading X7 (C.04.6 2.3.3: "unless all the teams in the following scoregroup became or
/// are upfloaters (thus this scoregroup is now empty)"; "only the mentioned scoregroup is
/// involved"): when the score level right below the bracket has no one left to pair,
/// [C6] lapses; it does not move on to the next level that has players.
///
/// Field (TPN = index + 1): 0, 1, 2 score 4; 3 scores 3 and is the only player [C2] allows
/// the PAB; 4, 5, 6 score 2, and 5-6 have met; 7, 8 score 1. The PAB empties the level 3,
/// the following scoregroup of the bracket of 4, which needs one upfloater of score 2.
/// [C6] lapses, nobody floated, so the first set {4} is taken: 0-2 1-4 (by identifier),
/// then 5-7 6-8 ... Counting the level 2 instead would take {5} (leaving 4 and 6, who can
/// meet, rather than 5 and 6, who cannot).
#[test]
fn c6_lapses_when_the_following_scoregroup_is_empty() {
    use super::brackets::{Field, pair_match};
    let points = [4, 4, 4, 3, 2, 2, 2, 1, 1];
    let n = points.len();
    let field = Field {
        score: points.iter().map(|&p| Score::points(p)).collect(),
        tpn: (1..=n as u32).collect(),
        compatible: crate::matching::BitGraph::from_fn(n, |a, b| (a.min(b), a.max(b)) != (5, 6)),
        floated: vec![false; n],
        pab_barred: (0..n).map(|p| p != 3).collect(),
        matches_played: vec![2; n],
        last_match: false,
        weak: Default::default(),
    };
    let Ok(outcome) = pair_match(&field) else {
        panic!("the field is pairable");
    };
    assert_eq!(outcome.pab, Some(3));
    let upfloat = outcome
        .notes
        .iter()
        .find(|note| note.rule == "C.04.5 3.5")
        .expect("the bracket of 4 chose its upfloater");
    assert_eq!(upfloat.players, vec![4], "{}", upfloat.message);
    assert!(
        upfloat.message.contains("[C6] lapses"),
        "{}",
        upfloat.message
    );
    let mut got: Vec<(usize, usize)> = outcome
        .pairs
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    got.sort();
    assert_eq!(got, vec![(0, 2), (1, 4), (5, 7), (6, 8)]);
}
