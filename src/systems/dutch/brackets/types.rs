//! Base weights by player type: a bracket's base weight of a compatible pair depends on
//! the two players only through what the criteria read of them (score, colour
//! preference and its strength, colour imbalance and repeated colour, the floats of the
//! last two rounds, PAB candidacy and C9 rank, the C8 value, and which part of the graph
//! holds them: MDP, resident or next scoregroup). Players alike in all of these are one
//! type, and the weight of a pair is computed once per pair of types (the first time it
//! is read) instead of once per pair of players: early rounds have a handful of types
//! for thousands of players, so a bracket needs neither an n×n matrix nor n² weight
//! evaluations. Compatibility (C1, C3) is read per pair, from the field, and so is a weak
//! separation (SEP-5): the table holds the weight without it, and a pair within a group
//! has it subtracted, so a class's weight stays an upper bound of its pairs' (what the
//! matching's first solve by classes needs, `matching/weighted/classes.rs`).
use std::cell::Cell;

use super::{Frame, plain_weight, weak_penalty};
use crate::model::{Colour, Score};
use crate::systems::common::Float;
use crate::systems::dutch::weights::Packed;

/// Beyond this many types the table is not worth it (the matrix or direct evaluation).
const MAX_TYPES: usize = 1024;

type Key = (
    u8,
    Score,
    bool,
    u32,
    u8,
    u32,
    Option<Colour>,
    u8,
    Option<Colour>,
    u8,
    u8,
);

pub(super) struct TypeTable<W> {
    /// Type of each window vertex.
    ty: Vec<u32>,
    types: usize,
    /// `cache[th * types + tl]`: the weight of a compatible pair (higher type `th`).
    cache: Vec<Cell<Option<W>>>,
}

fn float_code(f: Float) -> u8 {
    match f {
        Float::Down => 1,
        Float::Up => 2,
        Float::None => 0,
    }
}

impl<W: Packed> TypeTable<W> {
    /// The table for the window vertices of `frame`, or `None` with too many types.
    pub(super) fn build(frame: &Frame, n_window: usize) -> Option<TypeTable<W>> {
        let ctx = frame.ctx;
        // Type ids are given in order of first appearance, so no map order shows; FxHash,
        // as SipHash was a fiftieth of a 100-player round.
        let mut index: rustc_hash::FxHashMap<Key, u32> = rustc_hash::FxHashMap::default();
        // The first keys, found by comparing them in turn: a small bracket has a handful
        // of types, and hashing each of its players' keys cost more than comparing them
        // (issue 37). Past `FEW_TYPES` the map takes them all.
        const FEW_TYPES: usize = 16;
        let mut few: Vec<Key> = Vec::with_capacity(FEW_TYPES.min(n_window));
        let mut ty = Vec::with_capacity(n_window);
        for v in 0..n_window {
            let iv = frame.ids[v];
            let e = &ctx.field.entrants[iv];
            let zone = if v < frame.n_mdps {
                0
            } else if v < frame.n_bracket {
                1
            } else {
                2
            };
            let key: Key = (
                zone,
                e.score,
                ctx.candidate[iv],
                if e.score == ctx.bye_score {
                    ctx.bye_rank[iv]
                } else {
                    0
                },
                frame.next_values.map_or(0, |values| values[v]),
                e.imbalance,
                e.pref,
                e.strength as u8,
                e.repeated,
                float_code(e.float1),
                float_code(e.float2),
            );
            let t = if let Some(t) = few.iter().position(|k| *k == key) {
                t as u32
            } else if few.len() < FEW_TYPES {
                few.push(key);
                few.len() as u32 - 1
            } else {
                if index.is_empty() {
                    index.reserve(n_window.min(64));
                    for (t, k) in few.iter().enumerate() {
                        index.insert(*k, t as u32);
                    }
                }
                let next = index.len() as u32;
                let t = *index.entry(key).or_insert(next);
                if index.len() > MAX_TYPES {
                    return None;
                }
                t
            };
            ty.push(t);
        }
        let types = if index.is_empty() {
            few.len()
        } else {
            index.len()
        };
        Some(TypeTable {
            ty,
            types,
            cache: (0..types * types).map(|_| Cell::new(None)).collect(),
        })
    }

    /// Each window vertex's type: vertex classes for the matching's first solve
    /// (`matching/weighted/classes.rs`): a compatible pair's base weight depends on its
    /// two types only.
    pub(super) fn classes(&self) -> Vec<u32> {
        self.ty.clone()
    }

    /// The weight of a compatible pair between each two types (either the higher), for
    /// `DynamicMatching::set_class_weights`: the cached weight of each ordered pair of
    /// types that has a compatible pair in that order, read through [`Self::weight`]
    /// itself on one such pair, so that it is exactly what the matching reads for all of
    /// them. A pair of types with no compatible pair in either order (C3) has no edge.
    pub(super) fn class_weights(&self, frame: &Frame) -> Vec<Option<W>> {
        let t = self.types;
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); t];
        for (v, &ty) in self.ty.iter().enumerate() {
            members[ty as usize].push(v);
        }
        let compatible =
            |h: usize, l: usize| frame.ctx.field.compatible(frame.ids[h], frame.ids[l]);
        let mut out: Vec<Option<W>> = vec![None; t * t];
        for s in 0..t {
            for r in 0..t {
                // A compatible pair h < l with h of type s and l of type r: the latest l
                // first, so that the first h tried usually has one.
                let found = members[s].iter().find_map(|&h| {
                    members[r]
                        .iter()
                        .rev()
                        .take_while(|&&l| l > h)
                        .find(|&&l| compatible(h, l))
                        .map(|&l| (h, l))
                });
                if let Some((h, l)) = found {
                    let w = self.plain(frame, h, l);
                    for k in [s * t + r, r * t + s] {
                        if out[k].is_none_or(|x| w > x) {
                            out[k] = Some(w);
                        }
                    }
                }
            }
        }
        out
    }

    /// The base weight of window pair `h < l` (the weak separations' field included).
    #[inline]
    pub(super) fn weight(&self, frame: &Frame, h: usize, l: usize) -> W {
        weak_penalty(frame, h, l, self.plain(frame, h, l))
    }

    /// The cached weight of a compatible window pair `h < l` (weak separations' field
    /// left out), if some pair of its two types was read already.
    #[inline]
    pub(super) fn cached(&self, h: usize, l: usize) -> Option<W> {
        self.cache[self.ty[h] as usize * self.types + self.ty[l] as usize].get()
    }

    /// The weight of window pair `h < l` without the weak separations' field: its types'.
    #[inline]
    fn plain(&self, frame: &Frame, h: usize, l: usize) -> W {
        if !frame.ctx.field.compatible(frame.ids[h], frame.ids[l]) {
            return W::ZERO;
        }
        let cell = &self.cache[self.ty[h] as usize * self.types + self.ty[l] as usize];
        match cell.get() {
            Some(w) => w,
            None => {
                let w = plain_weight(frame, h, l);
                cell.set(Some(w));
                w
            }
        }
    }
}
