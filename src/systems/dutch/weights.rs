//! How the criteria become one edge weight.
//!
//! The weight of a pair is a wide integer made of fields, one per criterion (or per score
//! class of a criterion), the most important in the most significant bits. A matching's
//! weight is the sum over its pairs, so each field holds the matching's total for its
//! criterion; every field is wide enough for that total, hence comparing two matchings'
//! weights compares their criteria lexicographically (C4/C5 first, then C6 ... C21), and a
//! maximum-weight matching is a best pairing. The least significant fields are working
//! space for the bracket procedure (`brackets.rs`), which uses them to fix the choices that
//! the criteria leave open in the generation order of art. 4.
//!
//! Every quality criterion is encoded as something to *maximise* over the pairs (for
//! instance C6 "minimise downfloaters" as "one unit per pair in the bracket", C12 as "one
//! unit per pair whose preferences are compatible"), which is equivalent within a bracket
//! because the players are fixed.
use crate::model::{Score, WeakPlace};
pub use crate::systems::common::packed::{Packed, bits};

/// A field with several score classes: one sub-field per class, highest score most
/// significant.
#[derive(Clone, Debug, Default)]
pub struct Classes {
    /// (score, offset), score descending.
    pub offsets: Vec<(Score, u32)>,
}

impl Classes {
    pub fn offset(&self, score: Score) -> Option<u32> {
        self.offsets
            .iter()
            .find(|&&(s, _)| s == score)
            .map(|&(_, o)| o)
    }
}

/// Bit offsets of every field for one bracket.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub bits: u32,
    /// C4 + C2/C5: present when the whole remaining field is in the graph.
    pub completion: Option<u32>,
    pub pairs: u32,
    pub pair_scores: Classes,
    pub next_pairs: Option<u32>,
    pub next_scores: Classes,
    /// C8 when one player floats and his value is known beforehand (per pair: the
    /// shortfall of both players' values, so that the matching keeps the best floater).
    pub next_value: Option<u32>,
    pub bye_games: Option<u32>,
    pub top_cd: Option<u32>,
    pub top_run: Option<u32>,
    pub colour: u32,
    pub strong: u32,
    pub down1: Option<u32>,
    pub up1: Option<u32>,
    pub down2: Option<u32>,
    pub up2: Option<u32>,
    pub down1_scores: Option<Classes>,
    pub up1_scores: Option<Classes>,
    pub down2_scores: Option<Classes>,
    pub up2_scores: Option<Classes>,
    /// Working fields: forced MDPs, exchanges in S1, sum of exchanged BSNs (signed),
    /// preference/probe (signed).
    pub force: u32,
    pub exchange: u32,
    pub bsn_sum: u32,
    pub probe: u32,
    /// The 2017 edition's fields (`new_2017`); `None` under the 2026 rules.
    pub e2017: Option<Fields2017>,
    /// SEP-5: the weak separations' criterion at each place (indexed by `WeakPlace`), when
    /// two players of the bracket share a group there: minus one per pair within a group
    /// (signed, so that fewer such pairs is better whatever the number of pairs).
    pub weak: [Option<u32>; 3],
    /// SEP-5 `WEAK_FIRST`, part of completion (C4 / C.4): minus one per pair within a
    /// group over the whole graph (the bracket and the completion of everybody below it),
    /// so that the round keeps the fewest such pairs any legal pairing of it allows.
    /// Present only with the completion field.
    pub round_weak: Option<u32>,
}

/// The fields only the 2017 edition has: the pairing score difference (A.8) by value, of
/// the bracket (C.6), of the next bracket (C.7), and of repeated floats (C.16-C.19). Each
/// holds signed counts per score-difference value, the largest value most significant, so
/// that maximising the sum minimises the sorted list of differences lexicographically.
#[derive(Clone, Debug, Default)]
pub struct Fields2017 {
    /// A downfloater's difference is his score less one point under the lowest score in
    /// the graph (A.8): `score - floor`.
    pub floor: Score,
    pub psd: Classes,
    /// C.7 when the next scoregroup is the last one: completion of everybody left
    /// (`1 + ineligible players` per pair, as C.4 counts it); else its pairs.
    pub next_complete: Option<u32>,
    /// C.4 under C.7 by the floater's value (`Sizes2017::float_completes`): each pair
    /// carries its two players' "floating him leaves the round incomplete", so that the
    /// matching's total is a constant plus the floater's completing.
    pub float_complete: Option<u32>,
    pub next_psd: Option<Classes>,
    pub down1_sd: Option<Classes>,
    pub up1_sd: Option<Classes>,
    pub down2_sd: Option<Classes>,
    pub up2_sd: Option<Classes>,
}

/// Sizes the 2017 layout is built from.
pub struct Sizes2017<'a> {
    pub vertices: usize,
    pub bracket: usize,
    pub mdps: usize,
    pub residents: usize,
    pub next: usize,
    /// The score-difference values that can occur, largest first.
    pub differences: &'a [Score],
    pub floor: Score,
    /// Completion first (the PPB paired again, or the last bracket).
    pub completion: bool,
    /// C.4 right under C.7 by per-player values: whether the round completes with the
    /// bracket's one floater (`NextUse::Values` with `FLOAT_INCOMPLETE` marks).
    pub float_completes: bool,
    /// The next scoregroup is the last one (C.7 then asks for completion).
    pub next_is_last: bool,
    /// C.7 by per-player values (the bracket floats one player, the next scoregroup is
    /// not in the graph).
    pub next_values: bool,
    pub topscorers: bool,
    pub rounds_played: u32,
    /// The places of weak separations with two players of the bracket in one group.
    pub weak: &'a [WeakPlace],
    /// `WEAK_FIRST` counted over the whole graph: with `completion`, or under C.7's
    /// completion when the next scoregroup is the last.
    pub round_weak: bool,
    /// The bracket holds more than one score (MDPs, or the collapsed last bracket). With
    /// one score C.6 and C.16-C.19 cannot tell its pairings apart: every pair has
    /// difference 0 and every player the same downfloat value, so C.6 counts the pairs
    /// (C.5) and C.16/C.18 the players C.12/C.14 count; their fields are left out.
    pub several: bool,
}

/// Sizes a layout is built from.
pub struct Sizes<'a> {
    /// Vertices in the graph.
    pub vertices: usize,
    /// Players of the bracket (MDPs + residents), MDPs, residents, next scoregroup.
    pub bracket: usize,
    pub mdps: usize,
    pub residents: usize,
    pub next: usize,
    /// Score classes of the bracket with their sizes (score descending).
    pub bracket_classes: &'a [(Score, usize)],
    /// Score classes of the bracket and the next scoregroup.
    pub window_classes: &'a [(Score, usize)],
    pub completion: bool,
    /// C8 by per-player values instead of the next scoregroup.
    pub next_values: bool,
    /// Players at the PAB assignee's score, when C9 applies.
    pub bye_class: Option<usize>,
    /// C10/C11 can fail: the final round, with a topscorer in the bracket.
    pub topscorers: bool,
    pub rounds_played: u32,
    /// The places of weak separations with two players of the bracket in one group.
    pub weak: &'a [WeakPlace],
    /// `WEAK_FIRST` counted over the whole graph (with `completion` only).
    pub round_weak: bool,
}

impl Layout {
    /// SEP-5: takes the weak separations' field at `place` when the bracket uses it. A
    /// matching's total there is minus its pairs within a group: at most half the bracket,
    /// one more bit for the sign.
    fn take_weak(
        &mut self,
        take: &mut dyn FnMut(u32) -> u32,
        places: &[WeakPlace],
        place: WeakPlace,
        bracket: usize,
    ) {
        if places.contains(&place) {
            self.weak[place as usize] = Some(take(bits(bracket as u64 / 2) + 1));
        }
    }

    /// The working fields of the bracket procedure, the least significant of every edition's
    /// layout: the probe, the exchanged BSN sum, the exchanges, the forced MDPs.
    fn working(
        take: &mut dyn FnMut(u32) -> u32,
        vertices: usize,
        residents: usize,
        mdps: usize,
    ) -> Layout {
        let mut l = Layout {
            probe: take(bits(vertices as u64 + 1) + 1),
            ..Layout::default()
        };
        l.bsn_sum = take(bits((residents * residents / 2) as u64) + 1);
        l.exchange = take(bits(residents as u64));
        l.force = take(bits(mdps as u64));
        l
    }

    /// The 2017 edition's layout, from the least significant field up; most significant
    /// first it reads: C.4 (completion, special brackets only), C.5 pairs, C.6 PSD, C.7
    /// (next bracket: pairs or completion, then its PSD), C.8-C.11 colours, C.12-C.15
    /// repeated floats, C.16-C.19 their score differences, then the working fields.
    pub fn new_2017(s: &Sizes2017) -> Layout {
        let mut at = 0u32;
        let mut take = |width: u32| {
            let o = at;
            at += width;
            o
        };
        let mut l = Layout::working(&mut take, s.vertices, s.residents, s.mdps);
        l.take_weak(&mut take, s.weak, WeakPlace::Last, s.bracket);
        let half = bits(s.bracket as u64 / 2);
        // Signed per-value counts: a matching adds at most one unit per player and takes
        // at most one per pair from each value.
        let signed = bits(2 * s.bracket as u64 + 2) + 1;
        let classes = |take: &mut dyn FnMut(u32) -> u32| {
            let mut c = Classes::default();
            for &d in s.differences.iter().rev() {
                c.offsets.push((d, take(signed)));
            }
            c.offsets.reverse();
            c
        };
        let mut f = Fields2017 {
            floor: s.floor,
            ..Fields2017::default()
        };
        if s.several && s.rounds_played > 1 {
            f.up2_sd = Some(classes(&mut take));
            f.down2_sd = Some(classes(&mut take));
        }
        if s.several && s.rounds_played > 0 {
            f.up1_sd = Some(classes(&mut take));
            f.down1_sd = Some(classes(&mut take));
        }
        if s.rounds_played > 1 {
            l.up2 = Some(take(half + 1));
            l.down2 = Some(take(bits(s.bracket as u64)));
        }
        if s.rounds_played > 0 {
            l.up1 = Some(take(half + 1));
            l.down1 = Some(take(bits(s.bracket as u64)));
        }
        l.strong = take(half);
        l.colour = take(half);
        if s.topscorers {
            l.top_run = Some(take(half));
            l.top_cd = Some(take(half));
        }
        l.take_weak(&mut take, s.weak, WeakPlace::Default, s.bracket);
        if s.float_completes {
            f.float_complete = Some(take(bits(s.bracket as u64) + 1));
        }
        if (s.next > 0 || s.next_values) && !s.completion {
            f.next_psd = Some(classes(&mut take));
            if s.next_values {
                l.next_pairs = Some(take(bits(2 * s.bracket as u64 + 2)));
            } else if s.next_is_last {
                // `WEAK_FIRST` joins C.4, so the last bracket is paired keeping the
                // round's fewest pairs within a group: C.7 reads it so, those pairs right
                // under its completion (the graph holds everybody left).
                if s.round_weak {
                    l.round_weak = Some(take(bits(s.vertices as u64 / 2) + 1));
                }
                f.next_complete = Some(take(bits(3 * s.vertices as u64 / 2 + 3)));
            } else {
                l.next_pairs = Some(take(bits(s.vertices as u64)));
            }
        }
        if s.several {
            f.psd = classes(&mut take);
        }
        l.pairs = take(half);
        if s.completion {
            if s.round_weak {
                l.round_weak = Some(take(bits(s.vertices as u64 / 2) + 1));
            }
            l.completion = Some(take(bits(3 * s.vertices as u64 / 2 + 3)));
        }
        l.e2017 = Some(f);
        l.bits = at;
        l
    }

    /// Builds the fields from the least significant up.
    pub fn new(s: &Sizes) -> Layout {
        let mut at = 0u32;
        let mut take = |width: u32| {
            let o = at;
            at += width;
            o
        };
        let mut l = Layout::working(&mut take, s.vertices, s.residents, s.mdps);
        l.take_weak(&mut take, s.weak, WeakPlace::Last, s.bracket);
        let half = bits(s.bracket as u64 / 2);
        let classes = |take: &mut dyn FnMut(u32) -> u32, list: &[(Score, usize)]| {
            let mut c = Classes::default();
            // Lowest score least significant.
            for &(score, count) in list.iter().rev() {
                c.offsets.push((score, take(bits(count as u64))));
            }
            c.offsets.reverse();
            c
        };
        // Fields that cannot differ between two pairings of the bracket are left out: the
        // upfloat criteria (C15, C17, C19, C21) concern MDP opponents only, and with a
        // single score in the bracket C7 counts the pairs and C18/C20 repeat C14/C16.
        let heterogeneous = s.mdps > 0;
        let several = s.bracket_classes.len() > 1;
        if s.rounds_played > 1 {
            if heterogeneous {
                l.up2_scores = Some(classes(&mut take, s.bracket_classes));
            }
            if several {
                l.down2_scores = Some(classes(&mut take, s.bracket_classes));
            }
        }
        if s.rounds_played > 0 {
            if heterogeneous {
                l.up1_scores = Some(classes(&mut take, s.bracket_classes));
            }
            if several {
                l.down1_scores = Some(classes(&mut take, s.bracket_classes));
            }
        }
        if s.rounds_played > 1 {
            if heterogeneous {
                l.up2 = Some(take(half));
            }
            l.down2 = Some(take(bits(s.bracket as u64)));
        }
        if s.rounds_played > 0 {
            if heterogeneous {
                l.up1 = Some(take(half));
            }
            l.down1 = Some(take(bits(s.bracket as u64)));
        }
        l.strong = take(half);
        l.colour = take(half);
        if s.topscorers {
            l.top_run = Some(take(half));
            l.top_cd = Some(take(half));
        }
        l.take_weak(&mut take, s.weak, WeakPlace::Default, s.bracket);
        if let Some(m) = s.bye_class {
            l.bye_games = Some(take(bits((m * m) as u64)));
        }
        if s.next > 0 {
            l.next_scores = classes(&mut take, s.window_classes);
            l.next_pairs = Some(take(bits(s.next as u64)));
        }
        if s.next_values {
            l.next_value = Some(take(bits(2 * s.bracket as u64)));
        }
        if several {
            l.pair_scores = classes(&mut take, s.bracket_classes);
        }
        l.pairs = take(half);
        if s.completion {
            if s.round_weak {
                l.round_weak = Some(take(bits(s.vertices as u64 / 2) + 1));
            }
            l.completion = Some(take(bits(3 * s.vertices as u64 / 2 + 3)));
        }
        l.bits = at;
        l
    }
}
