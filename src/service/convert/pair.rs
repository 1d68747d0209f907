//! `Pair`: requests, responses, boards, byes, explanations.
use super::enums::{bye_kind_from_proto, bye_kind_to_proto, system_field, system_to_proto};
use super::tournament::{GameIdsOf, Ids, Input, snapshot_of, tournament_from_proto_owned};
use super::{Limits, opt_round};
use crate::model::validate::{Problem, Problems};
use crate::model::{PlayerIdx, SystemId, Tournament};
use crate::proto;
use crate::proto::fast_answer::{self, BoardFields, ExplanationSource};
use crate::systems::{Detail, Explanation, PairOptions, RoundPairing};

/// What every pairing request carries (Pair, and Pair's fields of PairProvisional,
/// PairFinals and ValidatePairing).
pub struct PairFields<'a> {
    pub input: Option<Input<'a>>,
    pub trf_encoding: &'a str,
    pub round: u32,
    pub seed: Option<u64>,
    pub explanation_detail: i32,
    pub system: i32,
    pub absent_player_ids: &'a [String],
    pub requested_byes: &'a [proto::RequestedBye],
}

impl<'a> PairFields<'a> {
    /// A `Pair` request's fields.
    fn of_pair(req: &'a proto::PairRequest) -> PairFields<'a> {
        PairFields {
            input: req.input.as_ref().map(Input::from),
            trf_encoding: &req.trf_encoding,
            round: req.round,
            seed: req.seed,
            explanation_detail: req.explanation_detail,
            system: req.system,
            absent_player_ids: &req.absent_player_ids,
            requested_byes: &req.requested_byes,
        }
    }
}

/// A pair request as a tournament and options, or every problem in it.
pub fn pair_request(
    req: &proto::PairRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    pair_fields(&PairFields::of_pair(req), limits)
}

/// A pair request the caller gives away as a tournament and options, or every problem in
/// it: [`pair_request`] without copying the players' texts of a proto tournament.
pub fn pair_request_owned(
    req: proto::PairRequest,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    pair_request_in_place(proto::PairRequestInPlace::from(req), limits)
}

/// [`pair_request_owned`] of a request whose games' ids may be in its bytes (the `Pair`
/// route's, [`proto::PairRequestInPlace`]).
pub fn pair_request_in_place(
    req: proto::PairRequestInPlace,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    let proto::PairRequestInPlace {
        request: mut req,
        game_ids,
    } = req;
    let pt = match req.input.take() {
        Some(proto::pair_request::Input::Tournament(pt)) => pt,
        other => {
            req.input = other;
            return pair_request(&req, limits);
        }
    };
    let mut problems = Vec::new();
    let t = tournament_from_proto_owned(pt, GameIdsOf(game_ids.as_ref()), limits, &mut problems);
    // The input taken: the other fields as `pair_request` reads them.
    with_options(&PairFields::of_pair(&req), t, Vec::new(), problems)
}

/// [`PairFields`] as a tournament and options, or every problem in them.
pub fn pair_fields(
    req: &PairFields<'_>,
    limits: &Limits,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    let mut problems = Vec::new();
    let (t, warnings) = snapshot_of(req.input, req.trf_encoding, limits, &mut problems);
    with_options(req, t, warnings, problems)
}

/// The snapshot `t` read from `req` with the options of `req`'s other fields, or every
/// problem (`problems` holds the snapshot's).
fn with_options(
    req: &PairFields<'_>,
    t: Tournament,
    warnings: Vec<crate::systems::Warning>,
    mut problems: Vec<Problem>,
) -> Result<(Tournament, PairOptions, Vec<crate::systems::Warning>), Problems> {
    // The id lookup only when a field names players (most requests name none).
    let ids = if req.absent_player_ids.is_empty() && req.requested_byes.is_empty() {
        Ids::default()
    } else {
        Ids::of(&t)
    };
    let absent = req
        .absent_player_ids
        .iter()
        .enumerate()
        .filter_map(|(i, id)| ids.resolve(id, || format!("absent_player_ids[{i}]"), &mut problems))
        .collect();
    let mut requested_byes = Vec::new();
    for (i, b) in req.requested_byes.iter().enumerate() {
        let player = ids.resolve(
            &b.player_id,
            || format!("requested_byes[{i}].player_id"),
            &mut problems,
        );
        match (player, bye_kind_from_proto(b.kind)) {
            (Some(p), Some(kind)) => requested_byes.push((p, kind)),
            (_, None) => problems.push(Problem::new(
                format!("requested_byes[{i}].kind"),
                format!("player {:?}: the requested bye needs a kind (half-point, zero-point or full-point)", b.player_id),
            )),
            _ => {}
        }
    }
    let system = system_field(req.system, &mut problems);
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let detail = match proto::ExplanationDetail::try_from(req.explanation_detail) {
        Ok(proto::ExplanationDetail::None) => Detail::None,
        Ok(proto::ExplanationDetail::Full) => Detail::Full,
        _ => Detail::Summary,
    };
    let options = PairOptions {
        round: opt_round(req.round),
        absent,
        requested_byes,
        seed: req.seed,
        detail,
        system,
    };
    Ok((t, options, warnings))
}

/// Warnings as the proto has them: code, rule, message and the players named, by id.
pub fn warnings_to_proto(
    t: &Tournament,
    warnings: &[crate::systems::Warning],
) -> Vec<proto::Warning> {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    warnings
        .iter()
        .map(|w| proto::Warning {
            code: w.code.to_string(),
            rule_id: w.rule_id.to_string(),
            message: w.message.clone(),
            player_ids: w.players.iter().map(|&p| id(p)).collect(),
        })
        .collect()
}

/// The pipeline's answer as a proto response.
pub fn pair_answer(answer: &crate::pairing::PairAnswer) -> proto::PairResponse {
    pair_response(
        &answer.tournament,
        Some(answer.system),
        &answer.pairing,
        answer.rule_set,
    )
}

/// [`pair_answer`] of an answer the caller gives away: the explanation's texts (most of a
/// small answer's bytes) move into the response instead of being copied.
pub fn pair_answer_owned(mut answer: crate::pairing::PairAnswer) -> proto::PairResponse {
    let explanation = std::mem::take(&mut answer.pairing.explanation);
    let mut response = pair_answer(&answer);
    response.explanation = Some(explanation_into_proto(&answer.tournament, explanation));
    response
}

/// A system's answer as a proto response.
pub fn pair_response(
    t: &Tournament,
    system: Option<SystemId>,
    p: &RoundPairing,
    rule_set: &str,
) -> proto::PairResponse {
    proto::PairResponse {
        round: p.round,
        boards: boards_to_proto(t, p),
        byes: byes_to_proto(t, p),
        explanation: Some(explanation_to_proto(t, &p.explanation)),
        ..response_after_explanation(t, system, p, rule_set)
    }
}

/// The fields of the response after the explanation (tag 4), the others at their
/// defaults: what [`fast_answer::encode_parts`] writes after the parts it reads itself.
fn response_after_explanation(
    t: &Tournament,
    system: Option<SystemId>,
    p: &RoundPairing,
    rule_set: &str,
) -> proto::PairResponse {
    let (team_pairings, team_bye) = super::team::team_pairings_to_proto(t, p);
    proto::PairResponse {
        team_pairings,
        team_bye,
        round: 0,
        boards: Vec::new(),
        byes: Vec::new(),
        explanation: None,
        warnings: warnings_to_proto(t, &p.warnings),
        engine_version: crate::ENGINE_VERSION.to_string(),
        system: system.map_or(0, |s| system_to_proto(s) as i32),
        rule_set: rule_set.to_string(),
        total_rounds: p.total_rounds.unwrap_or(0),
        match_length: p.match_length.unwrap_or(0),
        double_swiss: double_swiss_match(t, system, p),
    }
}

/// Writes the response to the pipeline's answer, the bytes [`pair_answer_owned`] then
/// [`fast_answer::encode`] give, without the proto response in between: the boards and
/// the explanation are read off the answer, each player's id where it is written (a proto
/// string per board side and per player a step names was a tenth of a small Buchholz
/// request, issue 37). `tests` compare the bytes.
pub fn encode_answer(answer: &crate::pairing::PairAnswer, buf: &mut impl bytes::BufMut) {
    let (t, p) = (&answer.tournament, &answer.pairing);
    let colours = !p.colourless;
    let boards = p
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| board_fields(t, i as u32 + 1, b.white, b.black, colours));
    fast_answer::encode_parts(
        p.round,
        boards,
        &byes_to_proto(t, p),
        Some(&ExplanationOfAnswer {
            t,
            e: &p.explanation,
        }),
        response_after_explanation(t, Some(answer.system), p, answer.rule_set),
        buf,
    );
}

/// A board's fields, the ids borrowed from the snapshot: the first and second player
/// always, White and Black too when the system gives colours (not backgammon).
fn board_fields(
    t: &Tournament,
    number: u32,
    first: PlayerIdx,
    second: PlayerIdx,
    colours: bool,
) -> BoardFields<'_> {
    let board = BoardFields {
        number,
        first_id: player_id(t, first),
        second_id: player_id(t, second),
        first_pairing_number: t.pairing_number(first),
        second_pairing_number: t.pairing_number(second),
        ..BoardFields::default()
    };
    if colours {
        BoardFields {
            white_id: board.first_id,
            black_id: board.second_id,
            white_pairing_number: board.first_pairing_number,
            black_pairing_number: board.second_pairing_number,
            ..board
        }
    } else {
        board
    }
}

/// The pipeline's explanation as the answer's writer reads it: the players by their ids,
/// as [`explanation_to_proto`] names them.
struct ExplanationOfAnswer<'a> {
    t: &'a Tournament,
    e: &'a Explanation,
}

impl ExplanationOfAnswer<'_> {
    fn step(&self, group: usize, step: usize) -> Option<&crate::systems::explanation::Step> {
        self.e.groups.get(group).and_then(|g| g.steps.get(step))
    }
}

impl ExplanationSource for ExplanationOfAnswer<'_> {
    fn group_count(&self) -> usize {
        self.e.groups.len()
    }

    fn label(&self, group: usize) -> &str {
        self.e.groups.get(group).map_or("", |g| g.label.as_str())
    }

    fn step_count(&self, group: usize) -> usize {
        self.e.groups.get(group).map_or(0, |g| g.steps.len())
    }

    fn rule_id(&self, group: usize, step: usize) -> &str {
        self.step(group, step).map_or("", |s| s.rule_id.as_str())
    }

    fn message(&self, group: usize, step: usize) -> &str {
        self.step(group, step).map_or("", |s| s.message.as_str())
    }

    fn player_ids(&self, group: usize, step: usize) -> impl Iterator<Item = &str> {
        self.step(group, step)
            .map_or(&[][..], |s| s.players.as_slice())
            .iter()
            .map(|&i| player_id(self.t, i))
    }
}

/// The Double-Swiss match of an answered round (game 1's and game 2's boards).
fn double_swiss_match(
    t: &Tournament,
    system: Option<SystemId>,
    p: &RoundPairing,
) -> Option<proto::DoubleSwissMatch> {
    use crate::systems::double_swiss;
    if system != Some(SystemId::DoubleSwiss) || p.round == 0 {
        return None;
    }
    let (k, game) = double_swiss::match_of_round(p.round);
    let (one, two) = double_swiss::match_boards(p);
    let boards = |list: &[crate::systems::Board]| -> Vec<proto::Board> {
        list.iter()
            .enumerate()
            .map(|(i, b)| board_to_proto(t, i as u32 + 1, b.white, b.black, true))
            .collect()
    };
    Some(proto::DoubleSwissMatch {
        r#match: k,
        game,
        game1_boards: boards(&one),
        game2_boards: boards(&two),
        game1_round: 2 * k - 1,
        game2_round: 2 * k,
    })
}

pub fn boards_to_proto(t: &Tournament, p: &RoundPairing) -> Vec<proto::Board> {
    p.boards
        .iter()
        .enumerate()
        .map(|(i, b)| board_to_proto(t, i as u32 + 1, b.white, b.black, !p.colourless))
        .collect()
}

/// A board; without colours (backgammon) only the first/second fields are filled.
pub fn board_to_proto(
    t: &Tournament,
    number: u32,
    first: PlayerIdx,
    second: PlayerIdx,
    colours: bool,
) -> proto::Board {
    let b = board_fields(t, number, first, second, colours);
    proto::Board {
        number: b.number,
        white_id: b.white_id.to_string(),
        black_id: b.black_id.to_string(),
        white_pairing_number: b.white_pairing_number,
        black_pairing_number: b.black_pairing_number,
        first_id: b.first_id.to_string(),
        second_id: b.second_id.to_string(),
        first_pairing_number: b.first_pairing_number,
        second_pairing_number: b.second_pairing_number,
    }
}

/// A player's id in the snapshot (empty for an index it does not have).
fn player_id(t: &Tournament, i: PlayerIdx) -> &str {
    t.players.get(i).map_or("", |pl| pl.id.as_str())
}

pub fn explanation_to_proto(t: &Tournament, e: &Explanation) -> proto::Explanation {
    explanation_into_proto(t, e.clone())
}

/// [`explanation_to_proto`] moving the texts.
fn explanation_into_proto(t: &Tournament, e: Explanation) -> proto::Explanation {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    proto::Explanation {
        groups: e
            .groups
            .into_iter()
            .map(|g| proto::ExplanationGroup {
                label: g.label,
                steps: g
                    .steps
                    .into_iter()
                    .map(|s| proto::ExplanationStep {
                        rule_id: s.rule_id,
                        message: s.message,
                        player_ids: s.players.iter().map(|&i| id(i)).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

pub fn byes_to_proto(t: &Tournament, p: &RoundPairing) -> Vec<proto::ByeAssignment> {
    let id = |i: PlayerIdx| t.players.get(i).map(|pl| pl.id.clone()).unwrap_or_default();
    p.byes
        .iter()
        .map(|b| proto::ByeAssignment {
            player_id: id(b.player),
            kind: bye_kind_to_proto(b.kind) as i32,
            points: b.points.as_f64(),
            pairing_number: t.pairing_number(b.player),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(i: u32) -> proto::Player {
        proto::Player {
            id: format!("p{i}"),
            name: format!("Player {i}"),
            rating: 2000 + i,
            title: "FM".into(),
            federation: "ITA".into(),
            fide_id: format!("{}", 900 + i),
            sex: "w".into(),
            team_id: format!("t{}", i % 2),
            club: format!("club {}", i % 3),
            groups: vec![format!("family:f{i}")],
            ..proto::Player::default()
        }
    }

    fn request(players: Vec<proto::Player>) -> proto::PairRequest {
        proto::PairRequest {
            input: Some(proto::pair_request::Input::Tournament(proto::Tournament {
                name: "owned".into(),
                system: proto::PairingSystem::Dutch.into(),
                total_rounds: 5,
                players,
                ..proto::Tournament::default()
            })),
            absent_player_ids: vec!["p2".into()],
            ..proto::PairRequest::default()
        }
    }

    #[test]
    fn a_request_given_away_reads_as_one_borrowed() {
        let req = request((1..=6).map(player).collect());
        let (borrowed, b_options, _) = pair_request(&req, &Limits::default()).expect("valid");
        let (owned, o_options, _) = pair_request_owned(req, &Limits::default()).expect("valid");
        assert_eq!(owned, borrowed, "every text moves into the same snapshot");
        assert_eq!(owned.players[3].club, "club 1");
        assert_eq!(o_options.absent, b_options.absent);
        assert_eq!(o_options.absent, vec![1]);
    }

    #[test]
    fn a_request_given_away_is_refused_alike() {
        let mut players: Vec<proto::Player> = (1..=4).map(player).collect();
        players[1].name = "x".repeat(100_000);
        players[3].id = "p1".into();
        let req = request(players);
        let borrowed = pair_request(&req, &Limits::default()).err().map(|p| p.0);
        let owned = pair_request_owned(req, &Limits::default())
            .err()
            .map(|p| p.0);
        assert!(borrowed.is_some(), "an over-long name is refused");
        assert_eq!(owned, borrowed);
        let mut dup: Vec<proto::Player> = (1..=4).map(player).collect();
        dup[3].id = "p1".into();
        let owned = pair_request_owned(request(dup), &Limits::default())
            .err()
            .map(|p| p.0)
            .unwrap_or_default();
        assert!(
            owned.iter().any(|p| p
                .message
                .contains("duplicate player id \"p1\" (also players[0])")),
            "{owned:?}"
        );
    }

    /// The answer written straight from the pipeline's answer (the server's `Pair` route)
    /// is the bytes of the proto response built from it and encoded: every system, an odd
    /// field (a bye), full explanations (every step kind), a warning, ids of every length.
    #[test]
    fn answers_written_from_the_pipeline_are_the_proto_responses_bytes() {
        use crate::simulate::{self, SimConfig};
        let mut compared = Vec::new();
        for (i, &system) in SystemId::ALL.iter().enumerate() {
            for (players, played) in [(11, 2), (8, 3)] {
                let config = SimConfig::new(system, players, played, 37 + i as u64);
                let Ok(sim) = simulate::run(&config) else {
                    continue;
                };
                let mut t = sim.tournament;
                // The simulation's event ends with its last round: two more to pair.
                t.total_rounds = played + 2;
                // Ids of one to twenty characters, so that lengths differ from board to board.
                for (k, p) in t.players.iter_mut().enumerate() {
                    p.id = format!("{k}{}", "x".repeat(k % 20));
                }
                let options = PairOptions {
                    detail: Detail::Full,
                    ..PairOptions::default()
                };
                let mut answer = match crate::pairing::pair_owned(t, &options) {
                    Ok(answer) => answer,
                    Err(e) => {
                        println!("{system:?}, {players} players: not paired ({e})");
                        continue;
                    }
                };
                answer.pairing.warnings.push(crate::systems::Warning {
                    code: "TEST",
                    rule_id: "CG-1",
                    message: "a warning".into(),
                    players: vec![0, 1],
                });
                let mut ours = Vec::new();
                encode_answer(&answer, &mut ours);
                let mut theirs = Vec::new();
                fast_answer::encode(pair_answer_owned(answer.clone()), &mut theirs);
                assert_eq!(ours, theirs, "{system:?}, {players} players");
                assert_eq!(
                    ours,
                    prost::Message::encode_to_vec(&pair_answer_owned(answer)),
                    "{system:?}, {players} players: prost's own bytes"
                );
                compared.push(system);
            }
        }
        // The shapes of answer that differ: colours, none (backgammon), team pairings, the
        // Double-Swiss match.
        for system in [
            SystemId::Dutch,
            SystemId::Backgammon,
            SystemId::TeamSwiss,
            SystemId::DoubleSwiss,
            SystemId::Buchholz,
        ] {
            assert!(compared.contains(&system), "{system:?} was not compared");
        }
    }
}
