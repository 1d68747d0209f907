//! The explanation of a Dutch pairing (C.04.1 art. 9): per bracket its residents, MDPs,
//! S1/S2, exchanges, pairs, the criteria values it reached (all minimal, as the weights
//! make every bracket optimal) compared with the first candidate of art. 4, the
//! downfloaters, then the PAB and the colour rule of every board.
use super::brackets::{BracketRecord, Mode, RoundOutcome};
use super::colours::ColourRule;
use super::criteria::{self, Criterion, Measure};
use crate::model::{Colour, Score};
use crate::systems::Explanation;
use crate::systems::common::fide_players::FideText;
use crate::systems::common::fide_players::{Entrant, Field};

/// Failure counts of a set of pairs in a bracket, for the explanation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Quality {
    /// C1/C3 violations (only the first candidate can have them).
    illegal: usize,
    downfloaters: usize,
    /// Scores of the downfloaters, highest first.
    downfloater_scores: Vec<Score>,
    colour: usize,
    strong: usize,
    down1: usize,
    up1: usize,
    down2: usize,
    up2: usize,
}

fn quality(field: &Field, bracket: &[usize], pairs: &[(usize, usize)]) -> Quality {
    let mut q = Quality::default();
    let mut paired = vec![false; field.len()];
    for &(a, b) in pairs {
        paired[a] = true;
        paired[b] = true;
        let (h, l) = if a < b { (a, b) } else { (b, a) };
        if !field.compatible(h, l) {
            q.illegal += 1;
        }
        let (eh, el) = (&field.entrants[h], &field.entrants[l]);
        q.colour += usize::from(criteria::fails_colour_preference(eh, el));
        q.strong += usize::from(criteria::fails_strong_preference(eh, el));
        q.up1 += usize::from(criteria::repeats_upfloat(eh, el, 1));
        q.up2 += usize::from(criteria::repeats_upfloat(eh, el, 2));
        // 2017 C.12/C.14 count every player who downfloats again, an MDP paired with a
        // lower score too (2026 C14/C16: resident downfloaters only).
        if field.text == FideText::Y2017 && eh.score > el.score {
            q.down1 += usize::from(criteria::had_downfloat(eh, 1));
            q.down2 += usize::from(criteria::had_downfloat(eh, 2));
        }
    }
    let resident_score = bracket.last().map(|&v| field.entrants[v].score);
    for &v in bracket {
        if paired[v] {
            continue;
        }
        let e = &field.entrants[v];
        q.downfloaters += 1;
        q.downfloater_scores.push(e.score);
        if Some(e.score) == resident_score || field.text == FideText::Y2017 {
            q.down1 += usize::from(criteria::had_downfloat(e, 1));
            q.down2 += usize::from(criteria::had_downfloat(e, 2));
        }
    }
    q.downfloater_scores.sort_by(|a, b| b.cmp(a));
    q
}

/// The first candidate of art. 3-4 for a bracket: paired MDPs against the first residents,
/// then S1[i] - S2[i] in the remainder, ignoring compatibility.
fn first_candidate(rec: &BracketRecord) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let m = rec.mdps.len().min(rec.residents.len());
    // Homogeneous view when there are no MDPs: S1 = first half.
    if rec.mdps.is_empty() {
        let half = rec.residents.len() / 2;
        for i in 0..half {
            out.push((rec.residents[i], rec.residents[half + i]));
        }
        return out;
    }
    for i in 0..m {
        out.push((rec.mdps[i], rec.residents[i]));
    }
    let rest = &rec.residents[m..];
    let half = rest.len() / 2;
    for i in 0..half {
        out.push((rest[i], rest[half + i]));
    }
    out
}

/// The players' ids, comma-separated, in one buffer ("none" for an empty list).
fn names<'a>(field: &Field, id: &dyn Fn(usize) -> &'a str, list: &[usize]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    let mut out = String::with_capacity(list.len() * 8);
    for (i, &v) in list.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(id(field.entrants[v].player));
    }
    out
}

fn scores(list: &[Score]) -> String {
    list.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the chosen pairing reached on each criterion, and where it beat the first
/// candidate.
fn criteria_steps(
    ex: &mut Explanation,
    table: &[Criterion],
    chosen: &Quality,
    first: &Quality,
    players: Vec<usize>,
) {
    let cid = |m: Measure| criteria::id(table, m);
    // 2017 C.12/C.14 count every downfloater; 2026 C14/C16 the resident ones.
    let downfloaters = if criteria::find(table, Measure::ByeScore).is_none() {
        "downfloater(s)"
    } else {
        "resident downfloater(s)"
    };
    // Each line is written only when its count is positive: most are zero in most
    // brackets, and formatting them all was a few percent of a small request (issue 37).
    let lines: [(Measure, usize, &str, &str); 7] = [
        (
            Measure::Downfloaters,
            chosen.downfloaters,
            "",
            "downfloater(s)",
        ),
        (
            Measure::ColourPreferences,
            chosen.colour,
            "",
            "colour preference(s) not met",
        ),
        (
            Measure::StrongColourPreferences,
            chosen.strong,
            "",
            "strong colour preference(s) not met",
        ),
        (
            Measure::RepeatedDownfloat1,
            chosen.down1,
            downfloaters,
            "who downfloated in the previous round",
        ),
        (
            Measure::RepeatedUpfloat1,
            chosen.up1,
            "",
            "MDP opponent(s) who upfloated in the previous round",
        ),
        (
            Measure::RepeatedDownfloat2,
            chosen.down2,
            downfloaters,
            "who downfloated two rounds before",
        ),
        (
            Measure::RepeatedUpfloat2,
            chosen.up2,
            "",
            "MDP opponent(s) who upfloated two rounds before",
        ),
    ];
    for (m, value, who, what) in lines {
        if value > 0 {
            let text = if who.is_empty() {
                format!("{value} {what}, the minimum")
            } else {
                format!("{value} {who} {what}, the minimum")
            };
            ex.step(cid(m), text, players.clone());
        }
    }
    // Where the pairing beat the first candidate of the generation order.
    let verdict = if first.illegal > 0 {
        Some(format!(
            "the first candidate (S1[i] - S2[i]) breaks {} ({} pair(s) may not meet)",
            criteria::id(table, Measure::NoRematch),
            first.illegal
        ))
    } else if first.downfloaters != chosen.downfloaters {
        Some(format!(
            "{}: the first candidate leaves {} downfloater(s), this pairing {}",
            cid(Measure::Downfloaters),
            first.downfloaters,
            chosen.downfloaters
        ))
    } else if first.downfloater_scores != chosen.downfloater_scores {
        Some(format!(
            "{}: downfloater scores {} instead of {}",
            cid(Measure::DownfloaterScores),
            scores(&chosen.downfloater_scores),
            scores(&first.downfloater_scores)
        ))
    } else if first.colour != chosen.colour {
        Some(format!(
            "{}: {} colour preference(s) not met instead of {} in the first candidate",
            cid(Measure::ColourPreferences),
            chosen.colour,
            first.colour
        ))
    } else if first.strong != chosen.strong {
        Some(format!(
            "{}: {} strong preference(s) not met instead of {}",
            cid(Measure::StrongColourPreferences),
            chosen.strong,
            first.strong
        ))
    } else if (first.down1, first.up1, first.down2, first.up2)
        != (chosen.down1, chosen.up1, chosen.down2, chosen.up2)
    {
        Some(format!(
            "{}-{}: fewer repeated floats than the first candidate",
            cid(Measure::RepeatedDownfloat1),
            cid(Measure::RepeatedUpfloat2)
        ))
    } else {
        None
    };
    if let Some(v) = verdict {
        ex.step("C.04.3 3.8", v, players);
    }
}

/// The per-bracket part of the explanation.
pub fn brackets<'a>(
    ex: &mut Explanation,
    table: &[Criterion],
    field: &Field,
    outcome: &RoundOutcome,
    id: &dyn Fn(usize) -> &'a str,
    full: bool,
) {
    let cid = |m: Measure| criteria::id(table, m);
    for rec in &outcome.brackets {
        ex.group(format!("bracket {}", rec.score));
        let players: Vec<usize> = rec
            .mdps
            .iter()
            .chain(rec.residents.iter())
            .map(|&v| field.entrants[v].player)
            .collect();
        if full {
            ex.detail(
                "C.04.3 1.3",
                format!(
                    "residents (score {}): {}; MDPs: {}",
                    rec.score,
                    names(field, id, &rec.residents),
                    names(field, id, &rec.mdps)
                ),
                players.clone(),
            );
        }
        if !rec.mdps.is_empty() {
            ex.step(
                "C.04.3 3.2",
                format!(
                    "heterogeneous bracket: S1 = paired MDPs {}; Limbo: {}",
                    names(field, id, &rec.paired_mdps),
                    names(field, id, &rec.limbo)
                ),
                rec.paired_mdps
                    .iter()
                    .map(|&v| field.entrants[v].player)
                    .collect(),
            );
            for &(a, b) in &rec.mdp_pairs {
                if full {
                    ex.detail(
                        "C.04.3 3.3",
                        format!(
                            "MDP pairing: {} - {}",
                            id(field.entrants[a].player),
                            id(field.entrants[b].player)
                        ),
                        vec![field.entrants[a].player, field.entrants[b].player],
                    );
                }
            }
        }
        if full && !rec.s1.is_empty() {
            ex.detail(
                "C.04.3 3.2",
                format!(
                    "{}: S1 = {}; S2 = {}",
                    if rec.mdps.is_empty() {
                        "homogeneous bracket"
                    } else {
                        "remainder"
                    },
                    names(field, id, &rec.s1),
                    names(field, id, &rec.s2)
                ),
                rec.s1
                    .iter()
                    .chain(&rec.s2)
                    .map(|&e| field.entrants[e].player)
                    .collect(),
            );
        }
        if !rec.moved_to_s2.is_empty() || !rec.moved_to_s1.is_empty() {
            ex.step(
                "C.04.3 4.3",
                format!(
                    "exchange: {} from S1 to S2, {} from S2 to S1",
                    names(field, id, &rec.moved_to_s2),
                    names(field, id, &rec.moved_to_s1)
                ),
                rec.moved_to_s2
                    .iter()
                    .chain(rec.moved_to_s1.iter())
                    .map(|&v| field.entrants[v].player)
                    .collect(),
            );
        }
        for &(a, b) in &rec.remainder_pairs {
            if full {
                ex.detail(
                    "C.04.3 4.2",
                    format!(
                        "pair {} - {}",
                        id(field.entrants[a].player),
                        id(field.entrants[b].player)
                    ),
                    vec![field.entrants[a].player, field.entrants[b].player],
                );
            }
        }
        let mut bracket: Vec<usize> = rec.mdps.clone();
        bracket.extend(rec.residents.iter().copied());
        let mut pairs = rec.mdp_pairs.clone();
        pairs.extend(rec.remainder_pairs.iter().copied());
        let chosen = quality(field, &bracket, &pairs);
        let first = quality(field, &bracket, &first_candidate(rec));
        criteria_steps(ex, table, &chosen, &first, players.clone());
        if !rec.floaters.is_empty() {
            let why =
                if rec.floaters.len() == 1 && bracket.len() % 2 == 1 && chosen.downfloaters == 1 {
                    "the bracket has an odd number of players".to_string()
                } else {
                    "no pairing of the bracket pairs more players while the round stays pairable"
                        .to_string()
                };
            ex.step(
                cid(Measure::Downfloaters),
                format!(
                    "downfloater(s): {} ({why}); chosen by {} (lowest scores), {} (next bracket) and the generation order",
                    names(field, id, &rec.floaters),
                    cid(Measure::DownfloaterScores),
                    cid(Measure::NextBracket),
                ),
                rec.floaters
                    .iter()
                    .map(|&v| field.entrants[v].player)
                    .collect(),
            );
        }
        if rec.bye_games_rule {
            ex.detail(
                cid(Measure::ByeUnplayedGames),
                "the single downfloater of this bracket receives the PAB: fewest unplayed games preferred",
                Vec::new(),
            );
        }
        if rec.mode == Mode::Fallback {
            ex.detail(
                cid(Measure::Completion),
                "the best pairing of the bracket alone left the round unpairable: paired again with every player below",
                Vec::new(),
            );
        }
    }
}

/// The PAB part of the explanation.
pub fn bye<'a>(
    ex: &mut Explanation,
    table: &[Criterion],
    field: &Field,
    outcome: &RoundOutcome,
    id: &dyn Fn(usize) -> &'a str,
) {
    let Some(b) = outcome.bye else {
        return;
    };
    let e: &Entrant = &field.entrants[b];
    let ineligible = field.entrants.iter().filter(|x| !x.bye_eligible).count();
    ex.group("pairing-allocated bye");
    ex.step(
        criteria::id(table, Measure::ByeEligibility),
        format!(
            "{ineligible} player(s) may not receive the PAB (had one, or won a round without playing)"
        ),
        Vec::new(),
    );
    // 2017 has no criterion on the assignee (2026 C5): the last bracket leaves him over
    // (A.5), its pairing chosen by C.5-C.19 like any other.
    let edition_2017 = criteria::find(table, Measure::ByeScore).is_none();
    let (rule, why) = if edition_2017 {
        (
            Measure::DownfloaterScores,
            "the player the last bracket leaves over (C.5 most pairs, C.6 least pairing score difference)",
        )
    } else {
        (
            Measure::ByeScore,
            "the lowest score the PAB can go to while everyone else is paired",
        )
    };
    ex.step(
        criteria::id(table, rule),
        format!("PAB to {} (score {}): {why}", id(e.player), e.score),
        vec![e.player],
    );
    if edition_2017 {
        return;
    }
    let same: Vec<&Entrant> = field
        .entrants
        .iter()
        .filter(|x| x.score == e.score && x.bye_eligible)
        .collect();
    if same.len() > 1 {
        ex.step(
            criteria::id(table, Measure::ByeUnplayedGames),
            format!(
                "{} has played {} game(s); among the {} eligible players on that score the choice follows C6-C21 and the generation order",
                id(e.player),
                e.played,
                same.len()
            ),
            vec![e.player],
        );
    }
}

/// The colour rule of one board.
pub fn colour_step(
    ex: &mut Explanation,
    white: &Entrant,
    black: &Entrant,
    rule: ColourRule,
    white_id: &str,
    black_id: &str,
) {
    // One line per board, pushed piece by piece into one buffer: five strings, then five
    // `write!`s, were a few percent of a 100-player request (issue 37).
    let pref = |text: &mut String, e: &Entrant| match e.pref {
        Some(colour) => {
            text.push_str(e.strength.describe());
            text.push_str(if colour == Colour::White {
                " white"
            } else {
                " black"
            });
        }
        None => text.push_str("none"),
    };
    let describe = rule.describe();
    let mut text = String::with_capacity(white_id.len() + black_id.len() + describe.len() + 64);
    text.push_str(white_id);
    text.push_str(" (preference ");
    pref(&mut text, white);
    text.push_str(") - ");
    text.push_str(black_id);
    text.push_str(" (preference ");
    pref(&mut text, black);
    text.push_str("): ");
    text.push_str(describe);
    ex.step(rule.id(), text, vec![white.player, black.player]);
}
