use super::*;

#[test]
fn rounds_are_games_of_matches() {
    assert_eq!(match_of_round(1), (1, 1));
    assert_eq!(match_of_round(2), (1, 2));
    assert_eq!(match_of_round(7), (4, 1));
}
