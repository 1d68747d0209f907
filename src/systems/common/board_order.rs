//! The order of the boards (C.04.2 art. 3.6, GHR 3.6), written once for every FIDE Swiss
//! system: the pair with the higher of its two scores first, then the higher of the lower
//! scores, then the pair whose higher-ranked player ranks higher.
use std::cmp::Reverse;

/// The sort key of a board whose players have `(score, rank)` `a` and `b` (rank: the
/// smaller number is the higher-ranked player; `score` is whatever the system ranks boards
/// by, points without virtual points for most).
pub fn board_order_key<S: Ord + Copy>(a: (S, u32), b: (S, u32)) -> (Reverse<S>, Reverse<S>, u32) {
    let (hi, lo) = if (a.0, Reverse(a.1)) >= (b.0, Reverse(b.1)) {
        (a, b)
    } else {
        (b, a)
    };
    (Reverse(hi.0), Reverse(lo.0), hi.1)
}

#[cfg(test)]
mod tests {
    use super::board_order_key;

    #[test]
    fn higher_score_then_lower_score_then_rank() {
        let mut boards = [
            ((2, 5), (1, 6)), // top score 2, other 1
            ((1, 3), (2, 9)), // top score 2 (rank 9), other 1
            ((2, 1), (2, 2)), // both 2
            ((1, 4), (1, 7)),
        ];
        boards.sort_by_key(|&(a, b)| board_order_key(a, b));
        assert_eq!(
            boards,
            [
                ((2, 1), (2, 2)),
                ((2, 5), (1, 6)),
                ((1, 3), (2, 9)),
                ((1, 4), (1, 7)),
            ]
        );
    }
}
