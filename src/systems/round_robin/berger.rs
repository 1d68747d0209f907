//! FIDE Berger tables (C.05 Annex 1), generated for any even size.

/// The boards of `round` (1-based, at most `size - 1`) of the Berger table for `size`
/// players (even, at least 2), as (white, black) table numbers, board 1 first.
///
/// Round 1 is `1-n, 2-(n-1), …`. Each next round moves every number k ≠ n to k + n/2,
/// reduced modulo n − 1 into 1..n−1, keeping boards and their White/Black roles; number n
/// stays on board 1, Black in odd rounds and White in even ones.
pub fn round(size: u32, round: u32) -> Vec<(u32, u32)> {
    let n = size;
    if n < 2 || !n.is_multiple_of(2) || round == 0 {
        return Vec::new();
    }
    let half = n / 2;
    let mut boards: Vec<(u32, u32)> = (1..=half).map(|i| (i, n + 1 - i)).collect();
    let step = |k: u32| {
        if k == n {
            n
        } else {
            (k - 1 + half) % (n - 1) + 1
        }
    };
    for _ in 1..round {
        for b in &mut boards {
            *b = (step(b.0), step(b.1));
        }
    }
    // Board 1 holds n: re-orient it by the round's parity.
    if let Some(first) = boards.first_mut() {
        let other = if first.0 == n { first.1 } else { first.0 };
        *first = if round % 2 == 1 {
            (other, n)
        } else {
            (n, other)
        };
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_players_as_published() {
        assert_eq!(round(6, 1), vec![(1, 6), (2, 5), (3, 4)]);
        assert_eq!(round(6, 2), vec![(6, 4), (5, 3), (1, 2)]);
        assert_eq!(round(6, 5), vec![(3, 6), (4, 2), (5, 1)]);
    }

    #[test]
    fn everyone_meets_everyone_once() {
        for n in (2..=30).step_by(2) {
            let mut met = std::collections::HashSet::new();
            for r in 1..n {
                let boards = round(n, r);
                assert_eq!(boards.len() as u32, n / 2);
                let mut seen = std::collections::HashSet::new();
                for (w, b) in boards {
                    assert!(seen.insert(w) && seen.insert(b));
                    assert!(
                        met.insert((w.min(b), w.max(b))),
                        "n={n} r={r}: {w}-{b} twice"
                    );
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
        }
    }
}
