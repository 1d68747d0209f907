//! BH-5 and BH-6.2: pairing two columns row by row, and repairing rows whose players met.
use crate::model::{Colour, PlayerIdx};
use crate::systems::explanation::Explanation;

/// A player in a column: who, and which column he sits in (White = column W).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub player: PlayerIdx,
    pub column: Colour,
}

/// The result of pairing one group's columns.
#[derive(Debug, Default)]
pub struct Rows {
    /// (left, right) per row, top down.
    pub pairs: Vec<(Entry, Entry)>,
    /// Players left without an opponent (BH-6.4), in column order.
    pub unpaired: Vec<PlayerIdx>,
}

/// Pairs `left[i]` with `right[i]` (BH-5), repairing each row whose players may not meet
/// (BH-6.2), top down:
/// 1. the left player takes the first right player below his row he may meet (the two
///    right players swap);
/// 2. otherwise a row above is changed: the first row `j` above (nearest first) whose
///    right player he may meet and whose left player may meet his right player;
/// 3. otherwise he looks for an opponent in his own column, below his row first, then
///    above it (nearest first): the two left-out right players then form a row together
///    (for a row above, only if they may meet);
/// 4. otherwise both players of the row are left unpaired and float (BH-6.4).
///
/// Players beyond the shorter column's length are left unpaired.
///
/// SEP-5.3: `mate` tells groupmates of a weak separation. A row of groupmates is repaired
/// like a rematch, by step 1 only: the left player takes the first right player below his
/// row who is no groupmate, may meet him, and whose own left player may meet the right
/// player he gives up; with none, the row stays. Step 1 for a rematch also prefers the
/// first such right player below who is no groupmate.
pub fn pair_rows<'n>(
    mut left: Vec<Entry>,
    mut right: Vec<Entry>,
    ok: &dyn Fn(PlayerIdx, PlayerIdx) -> bool,
    mate: &dyn Fn(PlayerIdx, PlayerIdx) -> bool,
    name: &dyn Fn(PlayerIdx) -> &'n str,
    ex: &mut Explanation,
) -> Rows {
    let m = left.len().min(right.len());
    let mut out = Rows::default();
    let mut broken = vec![false; m];
    for k in 0..m {
        let (l, r) = (left[k].player, right[k].player);
        if ok(l, r) {
            if mate(l, r)
                && let Some(j) = (k + 1..m).find(|&j| {
                    let o = right[j].player;
                    ok(l, o) && !mate(l, o) && ok(left[j].player, r)
                })
            {
                ex.step(
                    "SEP-5.3",
                    format!(
                        "row {}: {} and {} are groupmates of a weak separation; {} takes {} from row {} below (swap, as BH-6.2)",
                        k + 1,
                        name(l),
                        name(r),
                        name(l),
                        name(right[j].player),
                        j + 1
                    ),
                    vec![l, r, right[j].player],
                );
                right.swap(k, j);
            }
            continue;
        }
        let below = (k + 1..m)
            .find(|&j| ok(l, right[j].player) && !mate(l, right[j].player))
            .or_else(|| (k + 1..m).find(|&j| ok(l, right[j].player)));
        if let Some(j) = below {
            ex.step(
                "BH-6.2",
                format!(
                    "row {}: {} and {} met; {} takes {} from row {} below (swap)",
                    k + 1,
                    name(l),
                    name(r),
                    name(l),
                    name(right[j].player),
                    j + 1
                ),
                vec![l, r, right[j].player],
            );
            right.swap(k, j);
            continue;
        }
        if let Some(j) = (0..k)
            .rev()
            .find(|&j| !broken[j] && ok(l, right[j].player) && ok(left[j].player, r))
        {
            ex.step(
                "BH-6.2",
                format!(
                    "row {}: {} and {} met, and {} met every player below: row {} above is changed ({} takes {}, {} takes {})",
                    k + 1,
                    name(l),
                    name(r),
                    name(l),
                    j + 1,
                    name(l),
                    name(right[j].player),
                    name(left[j].player),
                    name(r)
                ),
                vec![l, r, left[j].player, right[j].player],
            );
            right.swap(k, j);
            continue;
        }
        let own = (k + 1..m)
            .chain((0..k).rev())
            .find(|&x| !broken[x] && ok(l, left[x].player) && (x > k || ok(r, right[x].player)));
        if let Some(x) = own {
            ex.step(
                "BH-6.2",
                format!(
                    "row {}: {} met every player of the other column: he plays {} of his own column (row {}); {} and {} form row {}",
                    k + 1,
                    name(l),
                    name(left[x].player),
                    x + 1,
                    name(r),
                    name(right[x].player),
                    x + 1
                ),
                vec![l, left[x].player, r, right[x].player],
            );
            std::mem::swap(&mut right[k], &mut left[x]);
            continue;
        }
        broken[k] = true;
        ex.step(
            "BH-6.4",
            format!(
                "row {}: no opponent for {} in the group: {} and {} float down",
                k + 1,
                name(l),
                name(l),
                name(r)
            ),
            vec![l, r],
        );
    }
    for k in 0..m {
        if broken[k] {
            out.unpaired.push(left[k].player);
            out.unpaired.push(right[k].player);
        } else {
            out.pairs.push((left[k], right[k]));
        }
    }
    out.unpaired.extend(left[m..].iter().map(|e| e.player));
    out.unpaired.extend(right[m..].iter().map(|e| e.player));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn col(players: &[usize], column: Colour) -> Vec<Entry> {
        players
            .iter()
            .map(|&player| Entry { player, column })
            .collect()
    }

    fn run(w: &[usize], b: &[usize], met: &[(usize, usize)]) -> (Vec<(usize, usize)>, Vec<usize>) {
        let met: BTreeSet<(usize, usize)> =
            met.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        let ok = |a: usize, b: usize| a != b && !met.contains(&(a.min(b), a.max(b)));
        let names: Vec<String> = (0..=w.iter().chain(b).copied().max().unwrap_or(0))
            .map(|p| p.to_string())
            .collect();
        let name = |p: usize| names[p].as_str();
        let mut ex = Explanation::default();
        let rows = pair_rows(
            col(w, Colour::White),
            col(b, Colour::Black),
            &ok,
            &|_, _| false,
            &name,
            &mut ex,
        );
        (
            rows.pairs
                .iter()
                .map(|(l, r)| (l.player, r.player))
                .collect(),
            rows.unpaired,
        )
    }

    #[test]
    fn bh_5_row_by_row() {
        assert_eq!(
            run(&[1, 2, 3], &[4, 5, 6], &[]).0,
            vec![(1, 4), (2, 5), (3, 6)]
        );
    }

    #[test]
    fn bh_6_2_takes_the_first_black_below() {
        // W1 met B4 and B5: he takes B6; B4 goes to row 3.
        let (pairs, left) = run(&[1, 2, 3], &[4, 5, 6], &[(1, 4), (1, 5)]);
        assert_eq!(pairs, vec![(1, 6), (2, 5), (3, 4)]);
        assert!(left.is_empty());
    }

    #[test]
    fn bh_6_2_last_row_changes_the_row_above() {
        // W3 met B6 on the last row: swap with row 2 (W2 may meet B6, W3 may meet B5).
        let (pairs, _) = run(&[1, 2, 3], &[4, 5, 6], &[(3, 6)]);
        assert_eq!(pairs, vec![(1, 4), (2, 6), (3, 5)]);
        // If row 2 cannot change (W2 met B6), row 1 does.
        let (pairs, _) = run(&[1, 2, 3], &[4, 5, 6], &[(3, 6), (2, 6)]);
        assert_eq!(pairs, vec![(1, 6), (2, 5), (3, 4)]);
    }

    #[test]
    fn bh_6_2_own_column_when_every_black_was_met() {
        // W1 met every B: he plays W2 (the next White); B4 and B5 form row 2.
        let (pairs, _) = run(&[1, 2, 3], &[4, 5, 6], &[(1, 4), (1, 5), (1, 6)]);
        assert_eq!(pairs, vec![(1, 2), (4, 5), (3, 6)]);
    }

    #[test]
    fn bh_6_4_hopeless_row_floats() {
        // 1-2 alone, met: both float.
        let (pairs, left) = run(&[1], &[2], &[(1, 2)]);
        assert!(pairs.is_empty());
        assert_eq!(left, vec![1, 2]);
    }
}
