//! Simple Swiss as JavaPairing 2.9 pairs it ("Svizzero Semplice", file type 2;
//! systems.md §4, javapairing.md §3 and §6.2).
//!
//! From the top of the ranking, each score group (plus one upfloater when it is odd) is
//! paired upper half against lower half by a bounded depth-first search [SS-S1S2], then over
//! the whole group [SS-ALL]; a group that cannot be paired grows by two, and at the bottom
//! the pairs above are broken one at a time [SS-FAIL]. The machinery of §1 (ranking, dues,
//! legality, bye, round 1) is in `systems::common::javapairing`.
use crate::model::{Colour, PlayerIdx, RoundEntry, Score, SystemId};
use crate::systems::common::javapairing::search::{
    Outcome, SearchConfig, Stored, split_search, whole_search,
};
use crate::systems::common::javapairing::{Dues, Field, Leg, Trace, Variant, balancing_colour};
use crate::systems::options::{parse_choice, read};
use crate::systems::{
    Board, ByeAssignment, OptionInfo, PairError, RoundPairing, RoundToPair, System, SystemInfo,
};

pub struct Simple;

/// Option `float_history`: whether the upfloat records are ignored.
const FLOAT_HISTORY: [(&str, bool); 2] = [("USED", false), ("IGNORED", true)];

/// The Simple Swiss's options, decoded once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `float_history=IGNORED`: pair as if no upfloat record were stored (javapairing.md
    /// §3.9).
    pub ignore_float_history: bool,
}

impl System for Simple {
    type Options = Options;

    fn options(&self, given: &crate::model::SystemOptions) -> Self::Options {
        Options {
            ignore_float_history: read(given, "float_history", |v| parse_choice(v, &FLOAT_HISTORY))
                .unwrap_or(false),
        }
    }

    /// This project's code (TRF-26 has none for JavaPairing's Simple Swiss).
    fn trf_code(&self, _options: &Options, _t: &crate::model::Tournament) -> String {
        "CUSTOM_SWISS:JP_SIMPLE".to_string()
    }

    fn reads_trf_code(&self, code: &str) -> bool {
        super::without_baku(code) == "CUSTOM_SWISS:JP_SIMPLE"
    }

    /// SS-6: the colour limits hold outside the last round; no rematch.
    fn absolute_rules(&self, _options: &Self::Options) -> super::AbsoluteRules {
        super::AbsoluteRules {
            colour_rule: "SS-6",
            // [BY] step 4: with nobody eligible, the last of the list (javapairing.md §1).
            second_bye_rule: None,
            ..super::AbsoluteRules::FIDE
        }
    }
    /// SEP-5.3: where the criterion enters the group searches (`common/javapairing/search.rs`):
    /// `WEAK` searches a group first with groupmates refused (kept if it pairs the group),
    /// then with each player's groupmates tried after his other candidates; `WEAK_LAST`
    /// only the latter. `WEAK_FIRST` is not offered: who floats to the next group (SS-3, SS-5) is not the searches'
    /// choice.
    fn weak_separation_places(&self) -> &'static [crate::model::WeakPlace] {
        &[
            crate::model::WeakPlace::Default,
            crate::model::WeakPlace::Last,
        ]
    }

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: SystemId::Simple,
            title: "Simple Swiss (JavaPairing 2.9)",
            rule_set: "systems.md SS-1..SS-6 as JavaPairing 2.9 pairs them (javapairing.md §1, §3)",
            options: vec![OptionInfo {
                name: "float_history",
                kind: "FloatHistory",
                default_value: "USED",
                description: "USED derives the upfloat records from the past rounds (javapairing.md §3.9); IGNORED pairs as if none were stored",
                parse: |v| parse_choice(v, &FLOAT_HISTORY).map(|_| ()),
            }],
        }
    }

    fn pair(&self, r: &RoundToPair, options: &Self::Options) -> Result<RoundPairing, PairError> {
        pair_round(r, options)
    }
}

const S1S2: SearchConfig = SearchConfig {
    same_due: true,
    rotate: true,
    limit: 10_000,
    rule: "SS-4",
    label: "SS-S1S2",
};

const WHOLE: SearchConfig = SearchConfig {
    same_due: true,
    rotate: true,
    limit: 50_000,
    rule: "SS-5",
    label: "SS-ALL",
};

/// Pairs one round (javapairing.md §3).
pub fn pair_round(r: &RoundToPair, options: &Options) -> Result<RoundPairing, PairError> {
    let f = Field::build(r, Variant::Simple)?;
    let mut tr = Trace::new();
    tr.group(format!(
        "round {} of {}: Simple Swiss (JavaPairing 2.9)",
        f.round, f.total
    ));
    let mut out = RoundPairing {
        warnings: f.warnings(),
        ..RoundPairing::default()
    };
    // §3.1: the bye first, never revisited.
    let bye = f.bye_lowest_eligible(&mut tr, "SS-2");
    let boards = if f.round == 1 {
        f.round_one(bye, &mut tr, "SS-1")?
    } else {
        // Option `float_history`: IGNORED pairs as if no float history had been stored
        // (javapairing.md §3.9).
        let floats = Upfloaters::build(&f, options.ignore_float_history);
        tr.detail("SS-3", &[], || floats.describe());
        let mut run = Run {
            f: &f,
            bye,
            dues: Dues::new(),
            due_of: vec![Colour::White; f.id.len()],
            floats,
            tr: &mut tr,
        };
        run.pair(&mut out.warnings)?
    };
    out.boards = boards;
    if let Some(p) = bye {
        out.byes.push(ByeAssignment::pab(p, &r.tournament.scoring));
    }
    tr.step(
        "SS-4",
        "boards in the order the pairs were stored (re-sorted [OUT] when pairs were broken), then the bye",
        Vec::new(),
    );
    out.explanation = tr.finish();
    Ok(out)
}

/// §3.9: who upfloated in rounds r-1 and r-2 ("may upfloat").
pub struct Upfloaters {
    ignored: bool,
    last_round: bool,
    round: u32,
    /// `previous[0]`: upfloaters of round r-1; `previous[1]`: of round r-2.
    previous: [Vec<bool>; 2],
}

impl Upfloaters {
    /// Derives JavaPairing's upfloat records from the history (§3.9 "In swisspair"): in a
    /// played game the player with the lower pre-round score upfloated; forfeits and byes
    /// make no upfloater.
    pub fn build(f: &Field, ignored: bool) -> Upfloaters {
        let t = &f.r.tournament;
        let n = t.players.len();
        let entries = t.entries();
        let rounds = t.rounds.len();
        // Pairing points before each round.
        let mut before: Vec<Vec<Score>> = vec![vec![Score::ZERO; n]; rounds + 1];
        for q in 0..rounds {
            for p in 0..n {
                let gained = match entries[p].get(q) {
                    Some(RoundEntry::Game { colour, result, .. }) => {
                        let (w, b) = result.pairing_points(&t.scoring);
                        if *colour == Colour::White { w } else { b }
                    }
                    Some(RoundEntry::Bye(kind)) => kind.points(&t.scoring),
                    _ => Score::ZERO,
                };
                before[q + 1][p] = before[q][p] + gained;
            }
        }
        let up = |q: usize| -> Vec<bool> {
            let mut v = vec![false; n];
            for p in 0..n {
                if let Some(o) = entries[p].get(q).and_then(RoundEntry::met_opponent)
                    && before[q][p] < before[q][o]
                {
                    v[p] = true;
                }
            }
            v
        };
        let r = f.round as usize;
        let previous = [
            if r >= 2 { up(r - 2) } else { vec![false; n] },
            if r >= 3 { up(r - 3) } else { vec![false; n] },
        ];
        Upfloaters {
            ignored,
            last_round: f.last_round,
            round: f.round,
            previous,
        }
    }

    /// "c may upfloat" (§3.9).
    pub fn may_upfloat(&self, p: PlayerIdx) -> bool {
        self.ignored
            || self.last_round
            || !(self.previous[0][p] || (self.round >= 3 && self.previous[1][p]))
    }

    fn describe(&self) -> String {
        if self.ignored {
            "float history IGNORED: every player may upfloat [SS-FLOAT]".to_string()
        } else if self.last_round {
            "last round: every player may upfloat [SS-FLOAT]".to_string()
        } else {
            "float history USED: who upfloated in rounds r-1 and r-2 may not upfloat [SS-FLOAT]"
                .to_string()
        }
    }
}

/// One pairing run of rounds 2..R: §3.2's state.
struct Run<'f, 'a, 't> {
    f: &'f Field<'a>,
    bye: Option<PlayerIdx>,
    dues: Dues,
    /// The due stored with each group member when he was appended.
    due_of: Vec<Colour>,
    floats: Upfloaters,
    tr: &'t mut Trace,
}

/// What building a group gave.
enum Built {
    Group(Vec<PlayerIdx>),
    /// §3.3 step 4: the scan ran off the end with an odd or short group.
    TakeAll,
}

impl Run<'_, '_, '_> {
    fn ask(&mut self, p: PlayerIdx) -> Colour {
        let (c, rule) = self.dues.due(self.f, p);
        let f = self.f;
        self.tr.detail("SS-6", &[p], || {
            format!(
                "{} ({}) is due {c}: {}",
                f.name(p),
                f.colour_string(p),
                rule.describe()
            )
        });
        c
    }

    /// §3.2: the outer loop.
    fn pair(
        &mut self,
        warnings: &mut Vec<crate::systems::Warning>,
    ) -> Result<Vec<Board>, PairError> {
        let f = self.f;
        let target = f.present_count / 2;
        let mut stored = Stored::new(f.id.len());
        let mut req = 0usize;
        let mut take_all = false;
        let mut warned = false;
        let position: Vec<usize> = {
            let mut v = vec![0; f.id.len()];
            for (i, &p) in f.ranking.iter().enumerate() {
                v[p] = i;
            }
            v
        };
        while stored.pairs.len() < target {
            let Some(head) = f
                .ranking
                .iter()
                .copied()
                .find(|&p| f.present[p] && Some(p) != self.bye && !stored.paired[p])
            else {
                break;
            };
            self.tr.group(format!(
                "group of {}{}",
                f.name(head),
                if take_all { ", everybody left" } else { "" }
            ));
            let mut group = match self.build_group(head, position[head], req, take_all, &stored) {
                Built::Group(g) => g,
                Built::TakeAll => {
                    take_all = true;
                    self.tr.step(
                        "SS-5",
                        format!(
                            "the scan from {} ran off the end of the list with an odd or short group: the group takes everybody left [SS-GROUP 4]",
                            f.name(head)
                        ),
                        vec![head],
                    );
                    continue;
                }
            };
            if req == 0 {
                self.discharge(&mut group);
            }
            req = group.len();
            if take_all && position[head] < f.present_count / 2 && !warned {
                warned = true;
                warnings.push(f.switch_warning(head));
            }
            let names: Vec<String> = group
                .iter()
                .map(|&p| format!("{} ({}, due {})", f.name(p), f.score[p], self.due_of[p]))
                .collect();
            self.tr.step(
                "SS-3",
                format!("group: {} [SS-GROUP]", names.join(", ")),
                group.clone(),
            );
            let h = group.len() / 2;
            let (s1, s2) = group.split_at(h);
            let (first, st1) = split_search(f, s1, s2, &self.due_of, S1S2, self.tr);
            let (outcome, whole_limit) = match first {
                Outcome::Found(p) => {
                    self.tr.step(
                        "SS-4",
                        format!(
                            "S1 - S2 search found the pairing after {} visits, {} rotations, {} relaxations of D [SS-S1S2]",
                            st1.visits, st1.rotations, st1.relaxations
                        ),
                        Vec::new(),
                    );
                    (Some(p), false)
                }
                other => {
                    self.tr.step(
                        "SS-5",
                        format!(
                            "S1 - S2 search failed ({}) after {} visits: search over the whole group [SS-ALL]",
                            if other == Outcome::LimitReached {
                                "visit limit 10000"
                            } else {
                                "exhausted"
                            },
                            st1.visits
                        ),
                        Vec::new(),
                    );
                    let (second, st2) = whole_search(f, s1, s2, &self.due_of, WHOLE, self.tr);
                    match second {
                        Outcome::Found(p) => {
                            self.tr.step(
                                "SS-5",
                                format!(
                                    "whole-group search found the pairing after {} visits [SS-ALL]",
                                    st2.visits
                                ),
                                Vec::new(),
                            );
                            (Some(p), false)
                        }
                        other => {
                            self.tr.step(
                                "SS-5",
                                format!(
                                    "whole-group search failed ({}) after {} visits [SS-ALL]",
                                    if other == Outcome::LimitReached {
                                        "visit limit 50000"
                                    } else {
                                        "exhausted"
                                    },
                                    st2.visits
                                ),
                                Vec::new(),
                            );
                            (None, other == Outcome::LimitReached)
                        }
                    }
                }
            };
            match outcome {
                Some(pairs) => {
                    for (x, y) in pairs {
                        let leg = f.leg(x, y, None);
                        if let Leg::Legal { white, black, rule } = leg {
                            self.tr.step(
                                "SS-6",
                                format!(
                                    "{} - {}: {}{}",
                                    f.name(white),
                                    f.name(black),
                                    rule.describe(),
                                    if f.last_round {
                                        " (last round: no prohibition)"
                                    } else {
                                        ""
                                    }
                                ),
                                vec![white, black],
                            );
                            stored.push(Board { white, black });
                        }
                    }
                    req = 0;
                }
                None => {
                    // §3.7.
                    if stored.pairs.len() + h == target {
                        take_all = true;
                        let broken = stored.break_last(f);
                        match broken {
                            Some(b) if !whole_limit => {
                                self.tr.step(
                                    "SS-5",
                                    format!(
                                        "the bottom group cannot be paired: pairs re-sorted [OUT], the last one {} - {} is broken and everybody left is paired together [SS-FAIL]",
                                        f.name(b.white),
                                        f.name(b.black)
                                    ),
                                    vec![b.white, b.black],
                                );
                            }
                            _ => {
                                let why = if whole_limit {
                                    "the whole-group search reached its visit limit with everybody left in the group"
                                } else {
                                    "no stored pair is left to break"
                                };
                                return Err(PairError::NoLegalPairing {
                                    rule: "SS-5 [SS-FAIL]".to_string(),
                                    message: format!(
                                        "the bottom group cannot be paired and {why} (\"Cannot perform pairing!\")"
                                    ),
                                    explanation: std::mem::take(self.tr).finish(),
                                });
                            }
                        }
                    } else {
                        self.tr.step(
                            "SS-5",
                            format!(
                                "the group cannot be paired: it is rebuilt with at least {} players [SS-FAIL 2]",
                                req + 2
                            ),
                            Vec::new(),
                        );
                    }
                    req += 2;
                }
            }
        }
        Ok(stored.pairs)
    }

    /// §3.3: builds the group of `head` (at `head_pos` in the ranking list).
    fn build_group(
        &mut self,
        head: PlayerIdx,
        head_pos: usize,
        req: usize,
        take_all: bool,
        stored: &Stored,
    ) -> Built {
        let f = self.f;
        let ranking = &f.ranking;
        let mut group = vec![head];
        self.due_of[head] = self.ask(head);
        let mut reserve: Option<usize> = None;
        let mut force = false;
        let mut pos = head_pos + 1;
        let mut ran_off = false;
        loop {
            crate::cancel::checkpoint();
            let mut c_pos = if pos < ranking.len() {
                pos += 1;
                pos - 1
            } else if let (false, Some(rp)) = (take_all, reserve) {
                // Step 3.1: at the end, the reserve is used anyway and the scan goes on
                // after him.
                reserve = None;
                force = true;
                pos = rp + 1;
                self.tr.detail("SS-3", &[ranking[rp]], || {
                    format!(
                        "end of the list: the reserve {} is taken anyway [SS-GROUP 3.1]",
                        f.name(ranking[rp])
                    )
                });
                rp
            } else {
                ran_off = true;
                break;
            };
            let c0 = ranking[c_pos];
            if !f.present[c0] || Some(c0) == self.bye || stored.paired[c0] {
                continue;
            }
            if take_all || f.score[c0] == f.score[head] {
                let due = self.ask(c0);
                if !group.contains(&c0) {
                    self.due_of[c0] = due;
                    group.push(c0);
                }
                continue;
            }
            if group.len() >= req && group.len().is_multiple_of(2) {
                break;
            }
            if let Some(rp) = reserve
                && f.score[ranking[rp]] > f.score[c0]
            {
                // Step 3.4.2: below the reserve's score group, the reserve is used.
                reserve = None;
                force = true;
                pos = rp + 1;
                c_pos = rp;
                self.tr.detail("SS-3", &[c0, ranking[rp]], || {
                    format!(
                        "{} scores less than the reserve {}: the reserve is taken anyway [SS-GROUP 3.4.2]",
                        f.name(c0),
                        f.name(ranking[rp])
                    )
                });
            }
            let c = ranking[c_pos];
            if !group.iter().any(|&m| f.leg(m, c, None).is_legal()) {
                self.tr.detail("SS-3", &[c], || {
                    format!(
                        "{} has no legal opponent in the group [SS-GROUP 3.4.3]",
                        f.name(c)
                    )
                });
                continue;
            }
            let balancing = balancing_colour(&group, &self.due_of);
            let due = self.ask(c);
            let may = self.floats.may_upfloat(c);
            if force || (may && balancing.is_none_or(|b| b == due)) {
                if !group.contains(&c) {
                    self.due_of[c] = due;
                    group.push(c);
                    self.tr.step(
                        "SS-3",
                        format!(
                            "{} joins the group as upfloater (due {due}; balancing colour {}{}) [SS-GROUP 3.4.5]",
                            f.name(c),
                            balancing.map_or("none".to_string(), |b| b.to_string()),
                            if force { "; forced" } else { "" }
                        ),
                        vec![c],
                    );
                }
            } else if reserve.is_none() {
                reserve = Some(c_pos);
                self.tr.detail("SS-3", &[c], || {
                    format!(
                        "{} becomes the reserve ({}) [SS-GROUP 3.4.6]",
                        f.name(c),
                        if may {
                            format!(
                                "due {due}, the group needs {}",
                                balancing.map_or("none".to_string(), |b| b.to_string())
                            )
                        } else {
                            "upfloated in one of the two previous rounds, SS-3".to_string()
                        }
                    )
                });
            }
        }
        if ran_off && (group.len() % 2 == 1 || group.len() < req) {
            return Built::TakeAll;
        }
        Built::Group(group)
    }

    /// §3.4: an odd score group plus its upfloater U sends one member down instead.
    fn discharge(&mut self, group: &mut Vec<PlayerIdx>) {
        let f = self.f;
        let len = group.len();
        if len <= 2 || f.score[group[len - 1]] == f.score[group[len - 2]] {
            return;
        }
        let Some(u) = group.pop() else {
            return;
        };
        let due = &self.due_of;
        let pick = group
            .iter()
            .rposition(|&m| !f.blocked(m, u) && due[m] != due[u])
            .map(|i| (i, "has not met him and has the opposite due colour"))
            .or_else(|| {
                group
                    .iter()
                    .rposition(|&m| f.leg(m, u, None).is_legal())
                    .map(|i| (i, "is a legal opponent for him"))
            })
            .unwrap_or((group.len() - 1, "is the last member"));
        let m = group.remove(pick.0);
        self.tr.step(
            "SS-3",
            format!(
                "odd score group: the upfloater {} is set aside and {} goes down instead, the lowest member who {} [SS-DOWN]",
                f.name(u),
                f.name(m),
                pick.1
            ),
            vec![m, u],
        );
    }
}
