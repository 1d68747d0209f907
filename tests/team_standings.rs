//! Team tie-breaks of C.07 (2026) computed by hand from the text's definitions: EDE (13.3)
//! with its fall-back to the secondary score (13.3.1), art. 6.3 for teams that did not all
//! meet (DE and EDE), the knock-out tie-breaks after it (13.3.2, EDEBT/EDEB, on the boards
//! of the two teams' own match), BBE (12.3), SSSC (13.4), and arts. 7-9 on team scores
//! (WIN, WON, PS, FB, AOB, KS); through the library, the `swisspair standings` CLI and the
//! `Standings` RPC's conversion. Then the conformance corpus: the values of FIDE's checker
//! (Gacrux) for the Swiss Team corpus.
mod common;

use swisspair::standings::team::{TeamTieBreak, compute};

/// A board result from the first-named team's player's side: `1`, `=`, `0`, or a forfeit
/// `+` (won) / `-` (lost).
type Boards = [char; 2];

/// A two-board team event in TRF-26: team k (TPN k+1) has players 2k+1 (board 1) and
/// 2k+2 (board 2); the first-named team of a match has White on board 1 (`352 WB`), match
/// points 2/1/0, game points 1/½/0. `rounds[r]` lists (first team, second team, boards).
fn event(teams: usize, rounds: &[Vec<(usize, usize, Boards)>]) -> String {
    let players = 2 * teams;
    // Per player per round: (opponent, colour, result).
    let mut games = vec![vec![None; rounds.len()]; players];
    for (r, round) in rounds.iter().enumerate() {
        for &(a, b, res) in round {
            for (k, &x) in res.iter().enumerate() {
                let pa = 2 * a + k;
                let pb = 2 * b + k;
                let (ca, cb) = if k == 0 { ('w', 'b') } else { ('b', 'w') };
                let rb = match x {
                    '1' => '0',
                    '0' => '1',
                    '+' => '-',
                    '-' => '+',
                    _ => '=',
                };
                games[pa][r] = Some((pb + 1, ca, x));
                games[pb][r] = Some((pa + 1, cb, rb));
            }
        }
    }
    let mut out = String::new();
    out.push_str("012 Hand-made team event\n");
    out.push_str(&format!(
        "062 {players}\n082 {teams}\n142 {}\n",
        rounds.len()
    ));
    out.push_str("192 FIDE_TEAM_TYPEA_MP_GP\n352 WB\n362 TW 2.0   TD 1.0   TL 0.0\n");
    for (p, row) in games.iter().enumerate() {
        let points: f64 = row
            .iter()
            .flatten()
            .map(|&(_, _, r)| match r {
                '1' | '+' => 1.0,
                '=' => 0.5,
                _ => 0.0,
            })
            .sum();
        let mut line = format!(
            "001 {:>4}      {:<33} {:>4} {:<3} {:>11} {:<10} {:>4.1} {:>4}  ",
            p + 1,
            format!("Player {}", p + 1),
            2400 - 10 * p,
            "FID",
            "",
            "",
            points,
            p + 1
        );
        for g in row.iter().flatten() {
            line.push_str(&format!("{:>4} {} {}  ", g.0, g.1, g.2));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for k in 0..teams {
        out.push_str(&format!(
            "310 {:>3} {:<32}{:>33}{:>4} {:>4}\n",
            k + 1,
            format!("Team {}", k + 1),
            "",
            2 * k + 1,
            2 * k + 2
        ));
    }
    out
}

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const F: usize = 5;

/// Four teams, all meeting (a round robin paired as a Swiss): A beats B 1½-½, B beats C
/// 2-0, C beats A 1½-½, and everyone beats D (A 2-0, B 1½-½, C 2-0).
/// MP: A 4, B 4, C 4, D 0. GP: A 4, B 4, C 3½, D ½.
fn cycle() -> String {
    event(
        4,
        &[
            vec![(A, B, ['1', '=']), (C, D, ['1', '1'])],
            vec![(A, C, ['=', '0']), (B, D, ['1', '='])],
            vec![(A, D, ['1', '1']), (B, C, ['1', '1'])],
        ],
    )
}

/// Six teams, three rounds; B and C never meet. A beats B and C, loses to D; B beats E and
/// F; C beats D and E; E-F and D-F are drawn matches.
/// MP: A 4, B 4, C 4, D 3, F 2, E 1. GP: A 3½, B 4, C 4½, D 2½, E 1, F 2½.
fn swiss_unmet() -> String {
    event(
        6,
        &[
            vec![(A, B, ['1', '=']), (C, D, ['1', '1']), (E, F, ['1', '0'])],
            vec![(A, C, ['1', '=']), (B, E, ['1', '1']), (D, F, ['1', '0'])],
            vec![(A, D, ['=', '0']), (B, F, ['1', '=']), (C, E, ['1', '1'])],
        ],
    )
}

/// Four teams, two rounds: A and B draw 1-1 (A wins board 1, B board 2), C beats D 2-0,
/// A beats C 1½-½ (board 1 drawn), B beats D 1½-½ (board 2 drawn).
/// MP: A 3, B 3, C 2, D 0. GP: A 2½, B 2½, C 2½, D ½. Board points: A 1½ / 1, B 1 / 1½.
fn level_pair() -> String {
    event(
        4,
        &[
            vec![(A, B, ['1', '0']), (C, D, ['1', '1'])],
            vec![(A, C, ['=', '1']), (B, D, ['1', '='])],
        ],
    )
}

/// (TPN, rank, values) of every row, best first.
fn rows(text: &str, codes: &[&str]) -> Vec<(u32, u32, Vec<String>)> {
    let t = swisspair::pairing::read_trf(text)
        .expect("valid TRF")
        .tournament;
    let tbs: Vec<TeamTieBreak> = codes
        .iter()
        .map(|c| TeamTieBreak::parse(c).expect("code"))
        .collect();
    let s = compute(&t, &tbs, None).expect("standings");
    s.rows
        .iter()
        .map(|r| {
            (
                t.team_tpn(r.team),
                r.rank,
                r.values.iter().map(|v| v.to_string()).collect(),
            )
        })
        .collect()
}

fn row(tpn: u32, rank: u32, values: &[&str]) -> (u32, u32, Vec<String>) {
    (tpn, rank, values.iter().map(|s| s.to_string()).collect())
}

#[test]
fn the_events_have_the_scores_worked_out_by_hand() {
    let t = swisspair::pairing::read_trf(&cycle())
        .expect("valid")
        .tournament;
    let s = compute(&t, &[TeamTieBreak::Secondary], None).expect("standings");
    let points: Vec<(u32, String, String)> = s
        .rows
        .iter()
        .map(|r| {
            (
                t.team_tpn(r.team),
                r.match_points.to_string(),
                r.game_points.to_string(),
            )
        })
        .collect();
    let p = |n: u32, m: &str, g: &str| (n, m.to_string(), g.to_string());
    assert_eq!(
        points,
        [
            p(1, "4.0", "4.0"),
            p(2, "4.0", "4.0"),
            p(3, "4.0", "3.5"),
            p(4, "0.0", "0.5")
        ]
    );
}

/// 13.3.1: among A, B, C (4 MP each, all met) the match points they took from each other
/// are 2 each, so DE on the primary score separates none; on game points A took 1½ + ½ =
/// 2, B ½ + 2 = 2½, C 0 + 1½ = 1½: B, A, C.
#[test]
fn ede_falls_back_to_the_secondary_score_when_the_primary_separates_none() {
    assert_eq!(
        rows(&cycle(), &["EDE"]),
        [
            row(2, 1, &["1"]),
            row(1, 2, &["2"]),
            row(3, 3, &["3"]),
            row(4, 4, &["0"])
        ]
    );
    // DE alone (art. 6 on the primary score) leaves the three tied.
    let de = rows(&cycle(), &["DE"]);
    assert_eq!(de[0].1, 1);
    assert_eq!(de[1].1, 1);
    assert_eq!(de[2].1, 1);
}

/// 6.3 inside EDE and DE: A (4 MP) beat both B and C, who never met. A's 4 exceeds the
/// most B or C could have with their missing match won (0 + 2), so A ranks first whatever
/// it gives; B and C then stay tied (their only match is missing, so the knock-out
/// tie-breaks of 13.3.2, which count the boards of their own match, have none either).
#[test]
fn ede_ranks_a_team_first_whatever_the_missing_match_gives() {
    for code in ["EDE", "DE", "EDEBT", "EDEB"] {
        let r = rows(&swiss_unmet(), &[code]);
        assert_eq!(r[0], row(1, 1, &["1"]), "{code}");
        assert_eq!(r[1], row(2, 2, &["2"]), "{code}");
        assert_eq!(r[2], row(3, 2, &["2"]), "{code}");
    }
    // MPvGP after EDE then puts C (4½) ahead of B (4).
    let r = rows(&swiss_unmet(), &["EDE", "MPVGP"]);
    let top: Vec<(u32, u32)> = r.iter().take(3).map(|x| (x.0, x.1)).collect();
    assert_eq!(top, [(1, 1), (3, 2), (2, 3)]);
}

/// 13.3.2: A and B are level on MP (3) and GP (2½) and drew their match 1-1, so DE on
/// either score separates none. EDE leaves them tied (0: it separates nobody); EDEBT
/// applies Board Count (12.1) to the boards of their match: A 1 × 1 + 2 × 0 = 1, B 1 × 0 +
/// 2 × 1 = 2, the lower first: A. EDET (12.2): board 1 of their match, A 1 against B 0: A.
/// EDEB (12.3) drops the bottom board: board 1 again: A. BC over the event: A 1 × 1½ +
/// 2 × 1 = 3½, B 1 × 1 + 2 × 1½ = 4.
#[test]
fn edebt_and_edeb_separate_two_teams_level_on_both_scores() {
    assert_eq!(
        rows(&level_pair(), &["EDE"])[..2],
        [row(1, 1, &["0"]), row(2, 1, &["0"])]
    );
    for code in ["EDEBT", "EDEBB", "EDET", "EDEB"] {
        assert_eq!(
            rows(&level_pair(), &[code])[..2],
            [row(1, 1, &["1"]), row(2, 2, &["2"])],
            "{code}"
        );
    }
    assert_eq!(
        rows(&level_pair(), &["BC"])[..2],
        [row(1, 1, &["3.5"]), row(2, 2, &["4.0"])]
    );
}

/// 13.4 on the cycle: every match was played, so BH on match points is the opponents'
/// match points: A (B 4, C 4, D 0) 8, B 8, C 8, D 12. The normalising factor is the
/// highest match points of the tournament, 3 rounds × 2 = 6, over the most game points of
/// one match, 2 boards × 1 = 2: 3. SSSC = GP + BH / 3: A 4 + 8/3 = 6.67, B 6.67, C 3½ + 8/3
/// = 6.17, D ½ + 12/3 = 4.50. `SSSC/K4` states the factor 4: A 4 + 2 = 6.00, C 5.50.
#[test]
fn sssc_adds_the_normalised_buchholz_to_the_secondary_score() {
    assert_eq!(
        rows(&cycle(), &["SSSC"]),
        [
            row(1, 1, &["6.67"]),
            row(2, 1, &["6.67"]),
            row(3, 3, &["6.17"]),
            row(4, 4, &["4.50"])
        ]
    );
    let r = rows(&cycle(), &["SSSC/K4"]);
    assert_eq!(r[0], row(1, 1, &["6.00"]));
    assert_eq!(r[2], row(3, 3, &["5.50"]));
    assert_eq!(r[3], row(4, 4, &["3.50"]));
    assert!(TeamTieBreak::parse("SSSC/K0").is_err());
    assert!(TeamTieBreak::parse("SSSC/Kx").is_err());
}

#[test]
fn the_cli_answers_ede_and_sssc() {
    let dir = std::env::temp_dir().join(format!("swisspair-team-standings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("cycle.trf");
    std::fs::write(&path, cycle()).expect("write");
    let file = path.to_str().expect("utf-8 path");
    let (code, out, err) =
        common::swisspair(&["standings", "--tiebreaks", "EDE,SSSC", "--json", file]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["tie_breaks"], serde_json::json!(["EDE", "SSSC"]));
    let teams = v["teams"].as_array().expect("teams");
    let tpns: Vec<u64> = teams
        .iter()
        .map(|t| t["pairing_number"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(tpns, [2, 1, 3, 4]);
    assert_eq!(teams[0]["values"], serde_json::json!(["1", "6.67"]));
    let (code, _, err) = common::swisspair(&["standings", "--tiebreaks", "SSSC/K0", file]);
    assert_eq!(code, 3);
    assert!(err.contains("SSSC/K"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_standings_rpc_answers_edebt_and_sssc() {
    use swisspair::proto;
    use swisspair::service::convert;
    let request = |codes: &[&str]| proto::StandingsRequest {
        input: Some(proto::standings_request::Input::Trf(level_pair())),
        tie_breaks: codes.iter().map(|s| s.to_string()).collect(),
        ..proto::StandingsRequest::default()
    };
    let limits = convert::Limits {
        max_players: 10_000,
    };
    let r = convert::standings::answer(&request(&["EDEBT", "SSSC/K2"]), &limits).expect("answers");
    assert_eq!(r.tie_breaks, ["EDEBT", "SSSC/K2"]);
    let top: Vec<(u32, u32)> = r
        .team_rows
        .iter()
        .take(2)
        .map(|row| (row.pairing_number, row.rank))
        .collect();
    assert_eq!(top, [(1, 1), (2, 2)]);
    let e = convert::standings::answer(&request(&["EDEX"]), &limits).expect_err("refused");
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert!(e.message().contains("EDEX"), "{}", e.message());
}

/// Four teams, three rounds, one match forfeited on every board: A beats C by forfeit
/// (round 1, not played: C.04.6 1.6.1), B beats D 2-0; B beats A 2-0, C beats D 2-0; A beats
/// D 2-0, B beats C 1½-½. MP: A 4, B 6, C 2, D 0. GP: A 4, B 5½, C 2½, D 0.
fn forfeits() -> String {
    event(
        4,
        &[
            vec![(A, C, ['+', '+']), (B, D, ['1', '1'])],
            vec![(A, B, ['0', '0']), (C, D, ['1', '1'])],
            vec![(A, D, ['1', '1']), (B, C, ['1', '='])],
        ],
    )
}

/// Four teams, two rounds: A beats C by forfeit on every board, B beats D 2-0; B beats A
/// 2-0, C beats D 2-0. MP = GP: A 2, B 4, C 2, D 0: A and C tied on both scores, their only
/// meeting a forfeit.
fn forfeit_tie() -> String {
    event(
        4,
        &[
            vec![(A, C, ['+', '+']), (B, D, ['1', '1'])],
            vec![(A, B, ['0', '0']), (C, D, ['1', '1'])],
        ],
    )
}

/// Art. 14 on team BH (14.1-14.4) on `swiss_unmet` (every match played), BH:MP = the
/// opponents' match points (MP: A 4, B 4, C 4, D 3, E 1, F 2):
/// A: B 4, C 4, D 3 = 11; /C1 drops D's 3: 8; /M1 drops 3 and a 4: 4; /C2 drops 3 and 4: 4.
/// B: A 4, E 1, F 2 = 7; /C1: 6; /M1: 2.    C: D 3, A 4, E 1 = 8; /C1: 7; /M1: 3.
/// D: C 4, F 2, A 4 = 10; /C1: 8; /M1: 4.   E: F 2, B 4, C 4 = 10; /C1: 8; /M1: 4.
/// F: E 1, D 3, B 4 = 8; /C1: 7; /M1: 3. /C2 leaves each team its highest opponent: 4.
/// On BH:MP/C1 the teams on 4 MP rank A (8), C (7), B (6); then D (3 MP), F (2), E (1).
#[test]
fn team_buchholz_takes_cut_and_median() {
    assert_eq!(
        rows(
            &swiss_unmet(),
            &["BH:MP/C1", "BH:MP/M1", "BH:MP/C2", "BH:MP"]
        ),
        [
            row(1, 1, &["8.0", "4.0", "4.0", "11.0"]),
            row(3, 2, &["7.0", "3.0", "4.0", "8.0"]),
            row(2, 3, &["6.0", "2.0", "4.0", "7.0"]),
            row(4, 4, &["8.0", "4.0", "4.0", "10.0"]),
            row(6, 5, &["7.0", "3.0", "4.0", "8.0"]),
            row(5, 6, &["8.0", "4.0", "4.0", "10.0"]),
        ]
    );
}

/// 14.1.2 on EMGSB (opponent's MP × own GP against it) on `swiss_unmet`:
/// A: B 4 × 1½ + C 4 × 1½ + D 3 × ½ = 13.5; Cut-1 drops the lowest-MP opponent D: 12.
/// B: A 4 × ½ + E 1 × 2 + F 2 × 1½ = 7; drops E: 5.  C: D 3 × 2 + A 4 × ½ + E 1 × 2 = 10;
/// drops E: 8.  D: C 4 × 0 + F 2 × 1 + A 4 × 1½ = 8; drops F: 6.  E: F 2 × 1 + B 4 × 0 +
/// C 4 × 0 = 2; drops F: 0.  F: E 1 × 1 + D 3 × 1 + B 4 × ½ = 6; drops E: 5.
#[test]
fn esb_cut_drops_the_lowest_scoring_opponents_product() {
    assert_eq!(
        rows(&swiss_unmet(), &["EMGSB/C1", "EMGSB"]),
        [
            row(1, 1, &["12.00", "13.50"]),
            row(3, 2, &["8.00", "10.00"]),
            row(2, 3, &["5.00", "7.00"]),
            row(4, 4, &["6.00", "8.00"]),
            row(6, 5, &["5.00", "6.00"]),
            row(5, 6, &["0.00", "2.00"]),
        ]
    );
}

/// C's BH:MP on `forfeits` (rows B, A, C, D by MP). Round 1 was lost by forfeit: a dummy
/// with C's own 2 MP capped at A's 4 (16.4.1): 2, a VUR (16.1.2); D 0; B 6: BH 8.
/// `/P` counts the forfeit as played against A (4): 10. `/C1`: 16.5 cuts the VUR (2) first,
/// as it is not lower than the least significant value (D's 0): 6. `/C1/P`: no VUR, D's 0
/// goes: 10.
#[test]
fn team_buchholz_counts_forfeits_as_played_with_p_and_cuts_the_vur_first() {
    let r = rows(&forfeits(), &["BH:MP", "BH:MP/P", "BH:MP/C1", "BH:MP/C1/P"]);
    let tpns: Vec<u32> = r.iter().map(|x| x.0).collect();
    assert_eq!(tpns, [2, 1, 3, 4]);
    assert_eq!(r[2], row(3, 3, &["8.0", "10.0", "6.0", "10.0"]));
}

/// 13.4 with Fore Buchholz (`SSSC/F`, 13.4.2 via art. 8.3) on `forfeits`: the factor is
/// 3 rounds × 2 MP over 2 GP a match = 3. Counting the final round's matches (A-D, B-C) as
/// drawn (1 MP each) gives the scores A 4 - 2 + 1 = 3, B 6 - 2 + 1 = 5, C 2 - 0 + 1 = 3,
/// D 0 - 0 + 1 = 1. FB: B = D 1 + A 3 + C 3 = 7: 5½ + 7/3 = 7.83. A = the dummy
/// min(3, C's 3) plus B 5 plus D 1 = 9: 4 + 3 = 7.00. C = the dummy min(3, A's 3) plus D 1
/// plus B 5 = 9: 2½ + 3 = 5.50. D = B 5 + C 3 + A 3 = 11: 0 + 11/3 = 3.67. Plain SSSC for
/// C: BH 8 (as above), 2½ + 8/3 = 5.17; `SSSC/P`: BH 10, 2½ + 10/3 = 5.83.
#[test]
fn sssc_takes_fore_buchholz_and_forfeits_as_played() {
    assert_eq!(
        rows(&forfeits(), &["SSSC/F", "SSSC", "SSSC/P"]),
        [
            row(2, 1, &["7.83", "7.50", "7.50"]),
            row(1, 2, &["7.00", "6.67", "6.67"]),
            row(3, 3, &["5.50", "5.17", "5.83"]),
            row(4, 4, &["3.67", "4.00", "4.00"]),
        ]
    );
}

/// `/P` on DE and EDE (6.1.1: forfeits "count as played" when included): A and C are level
/// on MP and GP (2 each) and met only in a forfeited match. DE and EDE without `/P` have no
/// played meeting (EDE's 6.3: the missing match could give either team the 2 points), so A
/// and C share rank 2; with `/P` A's forfeit win (2 MP against C's 0) ranks A second, C
/// third.
#[test]
fn de_and_ede_count_a_forfeited_meeting_with_p() {
    let ranks = |codes: &[&str]| -> Vec<(u32, u32)> {
        rows(&forfeit_tie(), codes)
            .iter()
            .map(|x| (x.0, x.1))
            .collect()
    };
    for code in ["DE", "EDE", "EDET"] {
        assert_eq!(ranks(&[code]), [(2, 1), (1, 2), (3, 2), (4, 4)], "{code}");
    }
    for code in ["DE/P", "EDE/P", "EDET/P"] {
        assert_eq!(ranks(&[code]), [(2, 1), (1, 2), (3, 3), (4, 4)], "{code}");
    }
    let de = rows(&forfeit_tie(), &["DE/P"]);
    assert_eq!(de[1].2, ["1"]);
    assert_eq!(de[2].2, ["2"]);
}

/// The codes with modifiers read and print back in the TRF/MTB slash form; a modifier the
/// text does not define for a tie-break is refused by name.
#[test]
fn team_modifiers_parse_and_print_back() {
    for (code, printed) in [
        ("emgsb/c1/p", "EMGSB/C1/P"),
        ("BH:MP/M1/P", "BH:MP/M1/P"),
        ("BH:GP/M2", "BH:GP/M2"),
        ("EDET/P", "EDET/P"),
        ("DE/P", "DE/P"),
        ("SSSC/F/P/K4", "SSSC/F/P/K4"),
        ("SSSC/K4/F", "SSSC/F/K4"),
    ] {
        let tb = TeamTieBreak::parse(code).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tb.code(), printed);
    }
    for code in [
        "MPVGP/C1",
        "EDE/C1",
        "BH:MP/C3",
        "EMGSB/M1",
        "BC/P",
        "BH:MP/F",
        "SSSC/C1",
        "DE/PX",
        "BH:MP/C1/M1",
    ] {
        let e = TeamTieBreak::parse(code).expect_err(code);
        assert!(e.contains(code), "{e}");
    }
}

/// The same parser answers the `Standings` RPC and `swisspair standings --tiebreaks`.
#[test]
fn the_rpc_and_the_cli_take_the_modifiers() {
    use swisspair::proto;
    use swisspair::service::convert;
    let request = proto::StandingsRequest {
        input: Some(proto::standings_request::Input::Trf(swiss_unmet())),
        tie_breaks: vec!["EMGSB/C1/P".to_string(), "BH:MP/M1".to_string()],
        ..proto::StandingsRequest::default()
    };
    let limits = convert::Limits {
        max_players: 10_000,
    };
    let r = convert::standings::answer(&request, &limits).expect("answers");
    assert_eq!(r.tie_breaks, ["EMGSB/C1/P", "BH:MP/M1"]);
    let dir = std::env::temp_dir().join(format!("swisspair-team-mods-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("unmet.trf");
    std::fs::write(&path, swiss_unmet()).expect("write");
    let file = path.to_str().expect("utf-8 path");
    let (code, out, err) =
        common::swisspair(&["standings", "--tiebreaks", "BH:MP/C1", "--json", file]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["tie_breaks"], serde_json::json!(["BH:MP/C1"]));
    assert_eq!(v["teams"][0]["values"], serde_json::json!(["8.0"]));
    let (code, _, err) = common::swisspair(&["standings", "--tiebreaks", "EDE/C1", file]);
    assert_eq!(code, 3);
    assert!(err.contains("EDE/C1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// Conformance: the team tie-breaks FIDE's checker (Gacrux 1.11.65) computes for the Swiss
// Team corpus (tests/data/conformance/team-standings/README.md).

/// One expected file against the library: (values passed, values failed, order passed,
/// order failed, messages).
fn check_team_file(
    tsv: &std::path::Path,
    tournaments: &mut std::collections::HashMap<String, swisspair::model::Tournament>,
) -> (usize, usize, usize, usize, Vec<String>) {
    use swisspair::standings::Value;
    let name = tsv
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let stem = name.split('.').next().unwrap_or_default().to_string();
    let t = tournaments.entry(stem.clone()).or_insert_with(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/conformance/team")
            .join(format!("{stem}.trf"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
        swisspair::pairing::read_trf(&text)
            .unwrap_or_else(|e| panic!("{stem}.trf: {e}"))
            .tournament
    });
    let text = std::fs::read_to_string(tsv).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let expected: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let cells = expected.len() * (header.len() - 1);
    // Header: start_rank, PTS, then the codes.
    let codes: Result<Vec<TeamTieBreak>, String> =
        header[2..].iter().map(|c| TeamTieBreak::parse(c)).collect();
    let tbs = match codes {
        Ok(tbs) => tbs,
        Err(e) => return (0, cells, 0, 1, vec![format!("{name}: {e}")]),
    };
    let s = match compute(t, &tbs, None) {
        Ok(s) => s,
        Err(e) => return (0, cells, 0, 1, vec![format!("{name}: {e:?}")]),
    };
    let (mut passed, mut failed, mut messages) = (0, 0, Vec::new());
    let mut order_ok = true;
    for (i, row) in expected.iter().enumerate() {
        let tpn: u32 = row[0].parse().unwrap_or(0);
        if s.rows.get(i).map(|r| t.team_tpn(r.team)) != Some(tpn) {
            if order_ok {
                messages.push(format!(
                    "{name}: position {}: expected team {tpn}, got {:?}",
                    i + 1,
                    s.rows.get(i).map(|r| t.team_tpn(r.team))
                ));
            }
            order_ok = false;
        }
        let Some(got) = s.rows.iter().find(|r| t.team_tpn(r.team) == tpn) else {
            failed += row.len() - 1;
            messages.push(format!("{name}: team {tpn} missing"));
            continue;
        };
        let values: Vec<Value> = std::iter::once(Value::score(got.match_points))
            .chain(got.values.iter().copied())
            .collect();
        for (c, cell) in row[1..].iter().enumerate() {
            if Value::parse(cell).is_some() && Value::parse(cell) == values.get(c).copied() {
                passed += 1;
            } else {
                failed += 1;
                messages.push(format!(
                    "{name}: team {tpn} {}: expected {cell}, got {}",
                    header[c + 1],
                    values.get(c).map(|v| v.to_string()).unwrap_or_default()
                ));
            }
        }
    }
    let (op, of) = if order_ok { (1, 0) } else { (0, 1) };
    (passed, failed, op, of, messages)
}

#[test]
fn conformance_team_standings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/conformance/team-standings");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "tsv"));
    files.sort();
    assert_eq!(files.len(), 320, "the corpus is missing");
    let mut tournaments = std::collections::HashMap::new();
    let (mut passed, mut failed, mut orders_passed, mut orders_failed) = (0, 0, 0, 0);
    let mut messages = Vec::new();
    for f in &files {
        let (p, m, op, of, msgs) = check_team_file(f, &mut tournaments);
        passed += p;
        failed += m;
        orders_passed += op;
        orders_failed += of;
        messages.extend(msgs);
    }
    for m in messages.iter().take(60) {
        eprintln!("{m}");
    }
    println!("conformance team-standings: {passed} passed, {failed} failed");
    println!("conformance team-standings-order: {orders_passed} passed, {orders_failed} failed");
    assert_eq!(passed + failed, 33_108, "the corpus has 33,108 values");
    assert_eq!((failed, orders_failed), (0, 0), "team standings differ");
}

/// Four teams, two rounds: A and B draw 1-1 (B wins board 1, A board 2), C beats D 2-0;
/// A beats C 2-0, B beats D 1½-½ (board 1 drawn). MP: A 3, B 3, C 2, D 0. GP: A 3, B 2½,
/// C 2, D ½.
fn knockout_pair() -> String {
    event(
        4,
        &[
            vec![(A, B, ['0', '1']), (C, D, ['1', '1'])],
            vec![(A, C, ['1', '1']), (B, D, ['=', '1'])],
        ],
    )
}

/// 13.3.2 as FIDE's checker reads it: A and B are tied on MP (3) but not on GP (3 and
/// 2½); their match was drawn 1-1, so 13.3.1 separates neither (DE on MP 1-1, on GP 1-1).
/// The knock-out tie-breaks still apply, to the boards of their own match: B won board 1,
/// A board 2. EDET (board 1): B. EDEBT (BC: A 1 × 0 + 2 × 1 = 2, B 1 × 1 + 2 × 0 = 1,
/// lower first): B. EDEB (all but the bottom board: board 1): B. EDE leaves them tied
/// (0), and MPVGP after it puts A (3 GP) first.
#[test]
fn the_knockout_tie_breaks_count_the_boards_of_the_two_teams_match() {
    for code in ["EDET", "EDEBT", "EDEB", "EDEBB"] {
        assert_eq!(
            rows(&knockout_pair(), &[code])[..2],
            [row(2, 1, &["1"]), row(1, 2, &["2"])],
            "{code}"
        );
    }
    assert_eq!(
        rows(&knockout_pair(), &["EDE", "MPVGP"])[..2],
        [row(1, 1, &["0", "3.0"]), row(2, 2, &["0", "2.5"])]
    );
}

/// Four teams, two rounds: A and B draw 1-1 (A wins board 1, B board 2), C beats D 2-0;
/// A beats D 1½-½ (board 1 drawn), B beats C 2-0. MP: A 3, B 3, C 2, D 0. Board points:
/// A 1½ / 1 (GP 2½), B 1 / 2 (GP 3).
fn bottom_board_pair() -> String {
    event(
        4,
        &[
            vec![(A, B, ['1', '0']), (C, D, ['1', '1'])],
            vec![(A, D, ['=', '1']), (B, C, ['1', '1'])],
        ],
    )
}

/// 12.3: BBE's first comparison leaves out the bottom board. A and B (3 MP each): on board
/// 1 alone (two boards), A 1½ against B 1: A first, although B has more game points over
/// both boards (3 against 2½). TBR (12.2) also starts at board 1: A.
#[test]
fn bbe_leaves_out_the_bottom_board_first() {
    for code in ["BBE", "TBR"] {
        assert_eq!(
            rows(&bottom_board_pair(), &[code])[..2],
            [row(1, 1, &["1"]), row(2, 2, &["2"])],
            "{code}"
        );
    }
    assert_eq!(
        rows(&bottom_board_pair(), &["MPVGP"])[..2],
        [row(2, 1, &["3.0"]), row(1, 2, &["2.5"])]
    );
}

/// Each team's values of `codes`, by TPN.
fn by_tpn(text: &str, codes: &[&str]) -> Vec<(u32, Vec<String>)> {
    let mut r: Vec<(u32, Vec<String>)> = rows(text, codes)
        .into_iter()
        .map(|(tpn, _, values)| (tpn, values))
        .collect();
    r.sort();
    r
}

fn vals(tpn: u32, values: &[&str]) -> (u32, Vec<String>) {
    (tpn, values.iter().map(|s| s.to_string()).collect())
}

/// Arts. 7.1, 7.2 and 7.5 on `forfeits` (A's round-1 win over C by forfeit, not played).
/// MP per round: A 2 0 2, B 2 2 2, C 0 2 0, D 0 0 0; GP: A 2 0 2, B 2 2 1½, C 0 2 ½, D 0.
/// WIN:MP (a won match, played or not): A 2, B 3, C 1, D 0; WON:MP (over the board): A 1.
/// PS:MP (running MP 2 2 4 for A): A 8, B 2 + 4 + 6 = 12, C 0 + 2 + 2 = 4, D 0; PS:MP/C1
/// leaves out round 1's: A 6, B 10, C 4. PS:GP: A 8, B 2 + 4 + 5½ = 11½, C 0 + 2 + 2½ =
/// 4½, D 0.
#[test]
fn wins_and_progressive_scores_count_matches() {
    assert_eq!(
        by_tpn(
            &forfeits(),
            &["WIN:MP", "WON:MP", "PS:MP", "PS:MP/C1", "PS:GP"]
        ),
        [
            vals(1, &["2", "1", "8.0", "6.0", "8.0"]),
            vals(2, &["3", "3", "12.0", "10.0", "11.5"]),
            vals(3, &["1", "1", "4.0", "4.0", "4.5"]),
            vals(4, &["0", "0", "0.0", "0.0", "0.0"]),
        ]
    );
}

/// 8.3 and 8.2 on `forfeits`. Fore Buchholz counts the final round's matches (A-D, B-C) as
/// drawn: MP A 3, B 5, C 3, D 1 (GP, a drawn match being 1 on two boards, the same
/// numbers). FB:MP: A = the forfeit's dummy min(3, C's 3) + B 5 + D 1 = 9; B = D 1 +
/// A 3 + C 3 = 7; C = the dummy min(3, A's 3) + D 1 + B 5 = 9; D = B 5 + C 3 + A 3 = 11.
/// FB:MP/C1: A drops D's 1: 8; B drops D: 6; C drops its VUR (the forfeit loss, 16.5) 3:
/// 6; D drops a 3: 8. BH:MP (MP A 4, B 6, C 2, D 0): A = min(4, C's 2) + 6 + 0 = 8, B 6,
/// C 8, D 12. AOB:MP over the matches played: A (B, D) 18 / 2 = 9.00, B (D, A, C) 28 / 3 =
/// 9.33, C (D, B) 9.00, D (B, C, A) 22 / 3 = 7.33; AOB:MP/F of their FB: A (7 + 11) / 2 =
/// 9.00, B 29 / 3 = 9.67, C 9.00, D 25 / 3 = 8.33.
#[test]
fn fore_buchholz_and_aob_on_team_scores() {
    assert_eq!(
        by_tpn(
            &forfeits(),
            &["FB:MP", "FB:GP", "FB:MP/C1", "AOB:MP", "AOB:MP/F"]
        ),
        [
            vals(1, &["9.0", "9.0", "8.0", "9.00", "9.00"]),
            vals(2, &["7.0", "7.0", "6.0", "9.33", "9.67"]),
            vals(3, &["9.0", "9.0", "6.0", "9.00", "9.00"]),
            vals(4, &["11.0", "11.0", "8.0", "7.33", "8.33"]),
        ]
    );
}

/// 9.2 on `cycle` (3 rounds): KS:MP's limit is half of 3 × 2 MP = 3; A, B and C (4 MP)
/// reach it: A 2 (B) + 0 (C), B 0 + 2, C 2 + 0, D 0. KS:GP's limit is half of 3 × 2 GP = 3;
/// A, B (4) and C (3½) reach it: A 1½ (B) + ½ (C) = 2, B ½ + 2 = 2½, C 1½ + 0 = 1½, D
/// ½ (B). `/L+2` raises it a point, to 4: C drops out: A 1½, B ½, C 1½, D ½.
#[test]
fn koya_on_team_scores() {
    assert_eq!(
        by_tpn(&cycle(), &["KS:MP", "KS:GP", "KS:GP/L+2"]),
        [
            vals(1, &["2.0", "2.0", "1.5"]),
            vals(2, &["2.0", "2.5", "0.5"]),
            vals(3, &["2.0", "1.5", "1.5"]),
            vals(4, &["0.0", "0.5", "0.5"]),
        ]
    );
    for (code, printed) in [
        ("ks:gp/l+1", "KS:GP/L+0.50"),
        ("KS:MP/L60", "KS:MP/L60"),
        ("aob:gp/f", "AOB:GP/F"),
        ("FB:GP/M1/P", "FB:GP/M1/P"),
        ("PS:GP/C2", "PS:GP/C2"),
        ("WIN", "WIN:MP"),
        ("won:mp", "WON:MP"),
    ] {
        let tb = TeamTieBreak::parse(code).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tb.code(), printed);
    }
    for code in [
        "PS:MP/M1", "KS:MP/C1", "WIN:MP/P", "FB:MP/F", "KS:GP/Lx", "WIN:GP",
    ] {
        let e = TeamTieBreak::parse(code).expect_err(code);
        assert!(e.contains(code), "{e}");
    }
}

/// `--format tsv` gives a team event the individual layout: `start_rank`, `PTS`, the codes.
#[test]
fn the_cli_prints_team_standings_as_tsv() {
    let dir = std::env::temp_dir().join(format!("swisspair-team-tsv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("cycle.trf");
    std::fs::write(&path, cycle()).expect("write");
    let file = path.to_str().expect("utf-8 path");
    let (code, out, err) = common::swisspair(&[
        "standings",
        "--tiebreaks",
        "PTS,EDE,KS:MP",
        "--format",
        "tsv",
        file,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "start_rank\tPTS\tEDE\tKS:MP\n2\t4.0\t1\t2.0\n1\t4.0\t2\t2.0\n3\t4.0\t3\t2.0\n4\t0.0\t0\t0.0\n"
    );
    let (code, help, _) = common::swisspair(&["standings", "--help"]);
    assert_eq!(code, 0);
    for c in [
        "WIN:MP", "WON:MP", "PS:GP", "FB:MP", "AOB:GP", "KS:GP", "EDEBB",
    ] {
        assert!(help.contains(c), "--help lists {c}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `swisspair standings --format tsv` on a corpus tournament prints the conformance file's
/// layout: the same codes (as the parser reads them), the same rows in the same order, the
/// same values as decimals.
#[test]
fn the_cli_tsv_of_a_team_event_matches_the_conformance_files() {
    use swisspair::standings::Value;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance");
    for list in [
        "team-s620013.tsv",
        "team-s620013.tec.tsv",
        "team-s620001.edebt-p.tsv",
    ] {
        let expected = std::fs::read_to_string(root.join("team-standings").join(list))
            .unwrap_or_else(|e| panic!("{list}: {e}"));
        let header: Vec<&str> = expected
            .lines()
            .next()
            .unwrap_or_default()
            .split('\t')
            .collect();
        let stem = list.split('.').next().unwrap_or_default();
        let trf = root.join("team").join(format!("{stem}.trf"));
        let (code, out, err) = common::swisspair(&[
            "standings",
            "--tiebreaks",
            &header[1..].join(","),
            "--format",
            "tsv",
            trf.to_str().expect("utf-8 path"),
        ]);
        assert_eq!(code, 0, "{list}: {err}");
        let got: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
        let want: Vec<Vec<&str>> = expected.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(got.len(), want.len(), "{list}: rows");
        assert_eq!(got[0][..2], ["start_rank", "PTS"], "{list}");
        for (g, w) in got[0].iter().zip(&want[0]).skip(2) {
            assert_eq!(
                TeamTieBreak::parse(g),
                TeamTieBreak::parse(w),
                "{list}: {g} {w}"
            );
        }
        for (g, w) in got.iter().zip(&want).skip(1) {
            assert_eq!(g.len(), w.len(), "{list}");
            assert_eq!(g[0], w[0], "{list}: order");
            for (a, b) in g.iter().zip(w).skip(1) {
                assert_eq!(Value::parse(a), Value::parse(b), "{list}: team {}", w[0]);
            }
        }
    }
}
