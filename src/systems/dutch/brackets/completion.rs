//! The completion matching (C4 in the 2026 text, C.4 in the 2017 one): whether the players
//! left, and the dummy of the PAB when the field is odd, can all be paired. Only that is
//! ever read, with one shortcut that asks whether the matching held already pairs two
//! players (its answer is the same whichever perfect matching is held).
//!
//! A field with a bit matrix of at most [`ROWS_UP_TO`] entrants (every small request)
//! asks the cardinality matcher over the matrix's rows: a greedy start a word at a time,
//! then augmenting paths, and after each bracket an augmenting search from the players its
//! pairs left alone. Larger fields keep the weighted engine with unit weights and three
//! classes, whose first solve needs no O(n²) pass and whose repairs stay local at 100,000
//! players (`matching/weighted/classes.rs`). Both answer the same question exactly, so
//! the pairing cannot depend on which one a field takes.
//!
//! C8's tentative pairing of the next scoregroup ([`tentative_by_rows`]) takes the same
//! matcher on the same fields. Which maximum pairing it is can decide whether a bracket's
//! first C4 check passes, never the bracket's pairs (the module docs of `brackets.rs`).
use super::{CompletionWeights, Failure, gone};
use crate::matching::weighted::DynamicMatching;
use crate::matching::{Adjacency, BitGraph, Matcher};
use crate::systems::common::fide_players::Field;

/// The largest field paired with the cardinality matcher: its graph and every trial copy
/// are (n + 1)² bits, 128 KiB here.
const ROWS_UP_TO: usize = 1024;

/// A maximum matching of the players left (and the dummy when the field is odd), kept as
/// players are taken out.
// Both variants are some hundred bytes of vector headers; one is held per round and moved
// a few times per bracket, so boxing either would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(super) enum Completion {
    /// The cardinality matcher over the field's bit matrix.
    Rows(Matcher<BitGraph>),
    /// The weighted engine, unit weights.
    Weighted(DynamicMatching<i64>),
}

impl Completion {
    /// The completion matching over the players `alive`, the dummy meeting the PAB
    /// candidates `bye_ok` (empty when the field is even).
    pub(super) fn build(field: &Field, bye_ok: &[bool], alive: &[bool]) -> Result<Self, Failure> {
        let n = field.len();
        let odd = !bye_ok.is_empty();
        if n <= ROWS_UP_TO && field.compatible_row(0).is_some() {
            let candidate = |v: usize| bye_ok.get(v).copied().unwrap_or(false);
            let graph = BitGraph::from_rows(n + 1, |v, row| {
                if v < n {
                    if let Some(own) = field.compatible_row(v) {
                        let words = own.len().min(row.len());
                        row[..words].copy_from_slice(&own[..words]);
                    }
                    // The matrix's bits from `n` on mean nothing: bit `n` is the dummy.
                    let (w, b) = (n / 64, n % 64);
                    row[w] &= !(1 << b);
                    if candidate(v) {
                        row[w] |= 1 << b;
                    }
                } else {
                    for (u, _) in (0..n).map(|u| (u, candidate(u))).filter(|&(_, c)| c) {
                        row[u / 64] |= 1 << (u % 64);
                    }
                }
            });
            let mut m = Matcher::new(graph);
            gone(alive).for_each(|v| m.remove(v));
            if !odd {
                m.remove(n);
            }
            m.complete_by_rows();
            return Ok(Completion::Rows(m));
        }
        weighted(field, bye_ok, alive).map(Completion::Weighted)
    }

    /// Takes `v` out (paired, or the PAB's); its partner is left to re-pair at `solve`.
    pub(super) fn remove(&mut self, v: usize) {
        match self {
            Completion::Rows(m) => m.remove(v),
            Completion::Weighted(m) => m.remove(v),
        }
    }

    /// A maximum matching again after removals.
    pub(super) fn solve(&mut self, cw: &CompletionWeights) -> Result<(), Failure> {
        match self {
            Completion::Rows(m) => {
                m.complete_by_rows();
            }
            Completion::Weighted(m) => m.solve(cw)?,
        }
        Ok(())
    }

    /// `v`'s partner in the matching held.
    pub(super) fn mate(&self, v: usize) -> Option<usize> {
        match self {
            Completion::Rows(m) => m.mate(v),
            Completion::Weighted(m) => m.mate(v),
        }
    }

    /// Whether every player left (and the dummy) is paired.
    pub(super) fn is_complete(&self) -> bool {
        match self {
            Completion::Rows(m) => {
                (0..m.graph().vertices()).all(|v| !m.is_alive(v) || m.mate(v).is_some())
            }
            Completion::Weighted(m) => super::complete(m),
        }
    }
}

/// The weighted engine's completion matching: every compatible pair weighs 1, the dummy
/// meets the candidates only.
fn weighted(
    field: &Field,
    bye_ok: &[bool],
    alive: &[bool],
) -> Result<DynamicMatching<i64>, Failure> {
    let n = field.len();
    let odd = !bye_ok.is_empty();
    let mut m = DynamicMatching::<i64>::new(n + 1);
    // Only whether it is perfect is read (`complete`), never which pairs it holds.
    m.use_augment_first();
    gone(alive).for_each(|v| m.remove(v));
    if !odd {
        m.remove(n);
    }
    // Three classes: PAB candidates, the other players, the dummy. Every compatible pair
    // weighs 1, and the dummy meets the candidates only: the first solve needs no O(n²)
    // pass (`matching/weighted/classes.rs`).
    let class: Vec<u32> = (0..=n)
        .map(|v| {
            if v == n {
                2
            } else if bye_ok.get(v).copied().unwrap_or(false) {
                0
            } else {
                1
            }
        })
        .collect();
    let some = Some(1i64);
    let dummy = if odd { some } else { None };
    m.set_class_weights(
        class,
        vec![some, some, dummy, some, some, None, dummy, None, None],
    );
    m.solve(&CompletionWeights { field, bye_ok })?;
    Ok(m)
}

/// C8's tentative pairing of the next scoregroup `ids` (the bracket's floater last when
/// `with_floater`), by the cardinality matcher when the field is one it takes: a maximum
/// pairing, the floater in it whenever some maximum pairing holds him (he is paired
/// first, and augmenting paths never leave a paired player out), as the weighted
/// engine's 2-and-3 weights ask. `None`: the caller's weighted engine pairs it.
pub(super) fn tentative_by_rows(
    field: &Field,
    ids: &[usize],
    with_floater: bool,
) -> Option<Vec<(usize, usize)>> {
    if field.len() > ROWS_UP_TO || field.compatible_row(0).is_none() {
        return None;
    }
    let n = ids.len();
    // The next scoregroup is a run of entrants: its rows are slices of the field's matrix
    // (a word at a time instead of a lookup per pair), the floater's column set apart.
    let k = if with_floater { n.saturating_sub(1) } else { n };
    let run = ids[..k].windows(2).all(|w| w[1] == w[0] + 1);
    let graph = match ids.first() {
        Some(&start) if run => BitGraph::from_rows(n, |v, row| {
            if let Some(own) = field.compatible_row(ids[v]) {
                copy_bits(own, start, k, row);
            }
            if v < k && k < n && field.compatible(ids[v], ids[k]) {
                row[k / 64] |= 1u64 << (k % 64);
            }
        }),
        _ => BitGraph::from_fn(n, |a, b| field.compatible(ids[a], ids[b])),
    };
    let mut m = Matcher::new(graph);
    if with_floater && n > 0 {
        let f = n - 1;
        if let Some(u) = (0..f).find(|&u| m.graph().edge(f, u)) {
            m.seed_pair(f, u);
        }
    }
    m.complete_by_rows();
    Some(
        (0..n)
            .filter_map(|v| m.mate(v).filter(|&u| v < u).map(|u| (ids[v], ids[u])))
            .collect(),
    )
}

/// Bits `start..start + len` of `src` into bits `0..len` of `dst`, whose words up to
/// `len` are overwritten (bits past `src`'s end read as 0).
fn copy_bits(src: &[u64], start: usize, len: usize, dst: &mut [u64]) {
    let (first, shift) = (start / 64, start % 64);
    let word = |i: usize| src.get(i).copied().unwrap_or(0);
    for (i, d) in dst.iter_mut().take(len.div_ceil(64)).enumerate() {
        let low: u64 = word(first + i) >> shift;
        let high = if shift == 0 {
            0
        } else {
            word(first + i + 1) << (64 - shift)
        };
        *d = low | high;
    }
    if !len.is_multiple_of(64)
        && let Some(last) = dst.get_mut(len / 64)
    {
        *last &= (1u64 << (len % 64)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::copy_bits;

    #[test]
    fn copied_bits_are_the_source_range_at_every_offset_and_length() {
        let src: Vec<u64> = (0..4u64)
            .map(|i| {
                0x9E37_79B9_7F4A_7C15u64
                    .wrapping_mul(i + 1)
                    .rotate_left(i as u32 * 7)
            })
            .collect();
        let bit = |bits: &[u64], i: usize| bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
        for start in 0..200usize {
            for len in 0..(256 - start).min(140) {
                let mut dst = vec![u64::MAX; len.div_ceil(64)];
                copy_bits(&src, start, len, &mut dst);
                for i in 0..dst.len() * 64 {
                    let want = i < len && bit(&src, start + i);
                    assert_eq!(bit(&dst, i), want, "start {start} len {len} bit {i}");
                }
            }
        }
    }
}
