//! The TRF reader: records, dialects and errors.
use proptest::prelude::*;
use swisspair::model::{ByeKind, Colour, GameResult, Score};
use swisspair::trf::{self, Dialect};

fn player(rank: u32, rounds: &str) -> String {
    format!(
        "001 {rank:>4}      Player {rank:<26} {:>4}                             0.0 {rank:>4}  {rounds}",
        2000 - rank
    )
}

#[test]
fn reads_cr_lf_and_crlf_alike() {
    let lines = [
        "012 Line ends".to_string(),
        "XXR 3".to_string(),
        "XXC black1".to_string(),
        player(1, "   2 b 1"),
        player(2, "   1 w 0"),
    ];
    let docs: Vec<_> = ["\n", "\r", "\r\n"]
        .iter()
        .map(|end| swisspair::pairing::read_trf(&lines.join(end)).expect("reads"))
        .collect();
    assert_eq!(docs[0], docs[1]);
    assert_eq!(docs[0], docs[2]);
    let t = &docs[0].tournament;
    assert_eq!(t.total_rounds, 3);
    assert_eq!(t.initial_colour, Some(Colour::Black));
    assert_eq!(t.rounds[0].games.len(), 1);
    assert_eq!(t.rounds[0].games[0].result, GameResult::BlackWins);
    assert_eq!(t.players[1].id, "2");
}

#[test]
fn reads_trf26_records() {
    let text = [
        "012 TRF-26".to_string(),
        "142 5".to_string(),
        "152 W".to_string(),
        "162  W 3.0    D 1.0".to_string(),
        "192 FIDE_ROUNDROBIN".to_string(),
        player(1, "   2 w 1"),
        player(2, "   1 b 0"),
        player(3, "0000 - U"),
        player(4, ""),
        "240 H   2    4".to_string(),
        "250      1.0   1   2    1    2".to_string(),
        "260   1   5    1    3".to_string(),
    ]
    .join("\n");
    let t = swisspair::pairing::read_trf(&text)
        .expect("reads")
        .tournament;
    assert_eq!(t.total_rounds, 5);
    assert_eq!(t.initial_colour, Some(Colour::White));
    assert_eq!(t.scoring.win, Score::points(3));
    assert_eq!(t.scoring.draw, Score::points(1));
    assert_eq!(t.scoring.pab, Score::points(3));
    assert_eq!(t.system, Some(swisspair::model::SystemId::RoundRobin));
    assert_eq!(t.rounds.len(), 2);
    assert_eq!(t.rounds[1].byes.len(), 1);
    assert_eq!(t.rounds[1].byes[0].kind, ByeKind::HalfPoint);
    assert_eq!(
        t.rounds_paired(),
        1,
        "a round with only requested byes is not paired"
    );
    assert_eq!(t.accelerations.len(), 2);
    assert_eq!(t.accelerations[0].points, Score::points(1));
    assert_eq!(t.forbidden_pairings[0].players, vec![0, 2]);
    assert_eq!(t.forbidden_pairings[0].last_round, Some(5));
}

#[test]
fn reads_javafo_extensions_and_keeps_unknown_lines() {
    let text = [
        "012 JaVaFo".to_string(),
        "022 Lugano".to_string(),
        "XXR 4".to_string(),
        "XXS W=2 D=1 PAB=1".to_string(),
        "XXP 1 2".to_string(),
        "XXL 3 2".to_string(),
        "XXA    1  1.0  1.0  0.0".to_string(),
        "### a comment".to_string(),
        "NED 12345 whatever".to_string(),
        player(1, "   2 w =  "),
        player(2, "   1 b =  "),
        player(3, "0000 - Z"),
    ]
    .join("\n");
    let doc = swisspair::pairing::read_trf(&text).expect("reads");
    let t = &doc.tournament;
    assert_eq!(
        doc.other_lines,
        vec!["022 Lugano", "### a comment", "NED 12345 whatever"]
    );
    assert_eq!(
        (t.scoring.win, t.scoring.draw, t.scoring.pab),
        (Score::points(2), Score::points(1), Score::points(1))
    );
    assert_eq!(t.forbidden_pairings[0].players, vec![0, 1]);
    assert_eq!(t.players[2].late_entry_round, Some(2));
    assert_eq!(t.accelerations.len(), 1);
    assert_eq!(
        (
            t.accelerations[0].first_round,
            t.accelerations[0].last_round
        ),
        (1, 2)
    );
    // And back, in both dialects.
    for dialect in [Dialect::JaVaFo, Dialect::Trf26] {
        let again = swisspair::pairing::read_trf(
            &swisspair::pairing::write_trf(&doc, dialect).expect("writable as TRF"),
        )
        .expect("re-reads");
        assert_eq!(&again.tournament, t, "{dialect:?}");
        assert_eq!(again.other_lines, doc.other_lines);
    }
}

#[test]
fn istanbul_2012_meanings_of_142_152_162_are_not_misread() {
    let text = [
        "012 Old".to_string(),
        "142 Arbiter, Some".to_string(),
        "152 Appeals, Member".to_string(),
        "162 Norm, Holder".to_string(),
        player(1, ""),
    ]
    .join("\n");
    let doc = swisspair::pairing::read_trf(&text).expect("reads");
    assert_eq!(doc.tournament.total_rounds, 0);
    assert_eq!(doc.tournament.initial_colour, None);
    assert_eq!(doc.other_lines.len(), 3);
}

#[test]
fn forfeits_and_istanbul_byes() {
    let text = [
        "012 Forfeits".to_string(),
        player(1, "   2 w +     3 - -  0000 - +"),
        player(2, "   1 b -  0000 - =     3 w 1"),
        player(3, "0000 - -     1 - -     2 b 0"),
    ]
    .join("\n");
    let t = swisspair::pairing::read_trf(&text)
        .expect("reads")
        .tournament;
    assert_eq!(t.rounds[0].games[0].result, GameResult::WhiteWinsForfeit);
    assert_eq!(t.rounds[1].games[0].result, GameResult::DoubleForfeit);
    let kinds: Vec<ByeKind> = t
        .rounds
        .iter()
        .flat_map(|r| r.byes.iter().map(|b| b.kind))
        .collect();
    assert_eq!(
        kinds,
        vec![ByeKind::ZeroPoint, ByeKind::HalfPoint, ByeKind::FullPoint]
    );
}

fn error_of(lines: &[String]) -> String {
    swisspair::pairing::read_trf(&lines.join("\n"))
        .expect_err("malformed")
        .to_string()
}

#[test]
fn malformed_files_name_line_and_column() {
    let e = error_of(&[
        "012 x".to_string(),
        player(1, "   2 w 1"),
        player(2, "   1 w 0"),
    ]);
    assert!(
        e.starts_with("2:97:") && e.contains("both have colour"),
        "{e}"
    );
    let e = error_of(&[
        "012 x".to_string(),
        player(1, "   2 w 1"),
        player(2, "   1 b 1"),
    ]);
    assert!(e.starts_with("2:99:") && e.contains("disagree"), "{e}");
    let e = error_of(&["012 x".to_string(), player(1, "   2 w 1"), player(2, "")]);
    assert!(e.starts_with("2:92:") && e.contains("does not name"), "{e}");
    let e = error_of(&["012 x".to_string(), player(1, "   7 w 1")]);
    assert!(
        e.starts_with("2:92:") && e.contains("no player has starting rank 7"),
        "{e}"
    );
    let e = error_of(&[
        "012 x".to_string(),
        player(1, "   2 w Z"),
        player(2, "   1 b Z"),
    ]);
    assert!(e.contains("bye code") && e.contains("opponent"), "{e}");
    let e = error_of(&["012 x".to_string(), player(1, "   2 w Q")]);
    assert!(
        e.starts_with("2:99:") && e.contains("unknown result code"),
        "{e}"
    );
    let e = error_of(&["012 x".to_string(), player(1, ""), player(1, "")]);
    assert!(e.starts_with("3:5:") && e.contains("already used"), "{e}");
    let e = error_of(&["XXR many".to_string()]);
    assert!(e.starts_with("1:5:"), "{e}");
    let e = error_of(&["XXC purple1".to_string()]);
    assert!(e.contains("purple1"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever the bytes, the reader answers with a tournament or an error, never a panic.
    #[test]
    fn never_panics_on_arbitrary_text(text in "(?s).{0,400}") {
        let _ = swisspair::pairing::read_trf(&text);
    }

    /// Lines that look like TRF with random round blocks.
    #[test]
    fn never_panics_on_trf_like_lines(blocks in proptest::collection::vec("[ 0-9]{4} [wb\\- ] [10=+\\-WDLHFUZ ] ", 0..6), n in 1u32..5) {
        let mut lines = vec!["012 fuzz".to_string(), "XXR 5".to_string()];
        for rank in 1..=n {
            lines.push(player(rank, &blocks.concat()));
        }
        if let Ok(doc) = swisspair::pairing::read_trf(&lines.join("\n")) {
            let again = swisspair::pairing::read_trf(&swisspair::pairing::write_trf(&doc, Dialect::JaVaFo).expect("writable as TRF"));
            prop_assert!(again.is_ok());
            prop_assert_eq!(again.map(|d| d.tournament).ok(), Some(doc.tournament));
        }
    }
}

/// Above 9,999 players the ids widen (`XXW <digits>`, tests/lichess.rs); a pairing number
/// beyond 1,000,000 (7 digits) is refused.
#[test]
fn writer_refuses_more_players_than_trf_can_number() {
    use swisspair::model::{Player, Tournament};
    let t = Tournament {
        players: [1, 1_000_001u32]
            .into_iter()
            .map(|i| Player {
                id: format!("p{i}"),
                pairing_number: Some(i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    let doc = trf::TrfDocument {
        tournament: t,
        ..trf::TrfDocument::default()
    };
    let e = swisspair::pairing::write_trf(&doc, Dialect::JaVaFo)
        .expect_err("a pairing number of 8 digits does not fit");
    assert!(e.to_string().contains("1,000,000"), "{e}");
}

#[test]
fn w_d_l_games_are_marked_not_rated_and_written_back_as_read() {
    // TRF (FIDE's record 001): W / D / L are a win, draw and loss in a game of under one
    // move, not rated. They are played games with the same points as 1 / = / 0; the
    // reader marks them not rated and the writer writes them back as they were.
    use swisspair::model::NotRatedGame;
    let text = [
        "012 Not rated".to_string(),
        "XXR 2".to_string(),
        player(1, "   2 w W     3 b ="),
        player(2, "   1 b L     4 w 1"),
        player(3, "   4 w D     1 w ="),
        player(4, "   3 b D     2 b 0"),
    ]
    .join("\n");
    let doc = swisspair::pairing::read_trf(&text).expect("reads");
    let t = &doc.tournament;
    assert_eq!(t.rounds[0].games[0].result, GameResult::WhiteWins);
    assert_eq!(t.rounds[0].games[1].result, GameResult::Draw);
    assert_eq!(
        t.not_rated_games,
        [
            NotRatedGame {
                round: 1,
                white: 0,
                black: 1
            },
            NotRatedGame {
                round: 1,
                white: 2,
                black: 3
            },
        ]
    );
    assert!(t.is_not_rated(1, 1, 0));
    assert!(!t.is_not_rated(2, 0, 2));
    for dialect in [Dialect::JaVaFo, Dialect::Trf26] {
        let written = trf::write(&doc, dialect, &swisspair::systems::Registry).expect("writes");
        let lines: Vec<&str> = written.lines().filter(|l| l.starts_with("001")).collect();
        assert!(lines[0].contains("   2 w W     3 b ="), "{}", lines[0]);
        assert!(lines[1].contains("   1 b L     4 w 1"), "{}", lines[1]);
        assert!(lines[2].contains("   4 w D     1 w ="), "{}", lines[2]);
        assert!(lines[3].contains("   3 b D     2 b 0"), "{}", lines[3]);
        let again = swisspair::pairing::read_trf(&written).expect("reads back");
        assert_eq!(again.tournament.not_rated_games, t.not_rated_games);
        assert_eq!(again.tournament.rounds, t.rounds);
    }
}
