//! What each player did in each match, read from the model's rounds (games): match k is
//! rounds 2k-1 (game 1) and 2k (game 2).
//!
//! C.04.5 art. 0: a match ends by forfeit only if at least one player forfeits both games;
//! any other match is regularly played (a meeting, [C1]) even when one game was forfeited.
//! A forfeited match may be repeated. Byes apply to matches, never to single games.
use crate::model::{ByeKind, Colour, GameResult, PlayerIdx, Score, Tournament};

/// One player's match.
#[derive(Clone, Debug, Default)]
pub struct MatchEntry {
    /// The opponent, whether the match was played or forfeited.
    pub opponent: Option<PlayerIdx>,
    /// Regularly played (C.04.5 art. 0): nobody forfeited both games.
    pub regular: bool,
    /// The game-1 colour, when at least one game was played over the board (reading X6).
    pub colour: Option<Colour>,
    /// Won by forfeit: the opponent forfeited both games, the player did not.
    pub forfeit_win: bool,
    pub pab: bool,
    pub full_point_bye: bool,
    /// Points scored in the match (game points; the PAB counts as the option `pab`).
    pub points: Score,
}

/// Every player's matches, in order.
#[derive(Clone, Debug)]
pub struct MatchHistory {
    /// `players[p][k-1]` = match k.
    pub players: Vec<Vec<MatchEntry>>,
    pub matches: u32,
}

impl MatchHistory {
    /// The first `matches` matches of `t` (rounds 1..2·matches), the PAB worth `pab`.
    pub fn build(t: &Tournament, matches: u32, pab: Score) -> MatchHistory {
        let n = t.players.len();
        let mut players = vec![vec![MatchEntry::default(); matches as usize]; n];
        for k in 0..matches as usize {
            let mut pab_counted = vec![false; n];
            for game in 0..2 {
                let Some(round) = t.rounds.get(2 * k + game) else {
                    continue;
                };
                for g in &round.games {
                    let (w, b) = g.result.pairing_points(&t.scoring);
                    for (p, o, pts, colour) in [
                        (g.white, g.black, w, Colour::White),
                        (g.black, g.white, b, Colour::Black),
                    ] {
                        let Some(e) = players.get_mut(p).and_then(|m| m.get_mut(k)) else {
                            continue;
                        };
                        e.opponent = Some(o);
                        e.points += pts;
                        if g.result.is_played() && e.colour.is_none() {
                            // Game 2 has the colours reversed: the match colour is game 1's.
                            e.colour = Some(if game == 0 { colour } else { colour.opposite() });
                        }
                    }
                }
                for bye in &round.byes {
                    let Some(e) = players.get_mut(bye.player).and_then(|m| m.get_mut(k)) else {
                        continue;
                    };
                    match bye.kind {
                        ByeKind::Pab => {
                            e.pab = true;
                            // C.04.5 1.4: the PAB is worth `pab` for the whole match.
                            if !pab_counted[bye.player] {
                                pab_counted[bye.player] = true;
                                e.points += pab;
                            }
                        }
                        ByeKind::FullPoint => {
                            e.full_point_bye = true;
                            e.points += bye.kind.points(&t.scoring);
                        }
                        other => e.points += other.points(&t.scoring),
                    }
                }
            }
            // Who forfeited both games of the match (C.04.5 art. 0).
            let forfeited_both = |p: PlayerIdx| -> bool {
                let mut games = 0;
                let mut lost = 0;
                for game in 0..2 {
                    let Some(round) = t.rounds.get(2 * k + game) else {
                        continue;
                    };
                    for g in &round.games {
                        if g.white == p || g.black == p {
                            games += 1;
                            let white = g.white == p;
                            let forfeited = matches!(
                                (g.result, white),
                                (GameResult::DoubleForfeit, _)
                                    | (GameResult::BlackWinsForfeit, true)
                                    | (GameResult::WhiteWinsForfeit, false)
                            );
                            if forfeited {
                                lost += 1;
                            }
                        }
                    }
                }
                games > 0 && lost == games
            };
            for (p, matches) in players.iter_mut().enumerate() {
                let Some(e) = matches.get_mut(k) else {
                    continue;
                };
                let Some(o) = e.opponent else {
                    continue;
                };
                let (mine, theirs) = (forfeited_both(p), forfeited_both(o));
                e.regular = !mine && !theirs;
                e.forfeit_win = theirs && !mine;
            }
        }
        MatchHistory { players, matches }
    }

    /// Points after the first `k` matches.
    pub fn points_after(&self, p: PlayerIdx, k: u32) -> Score {
        self.players
            .get(p)
            .map(|m| m.iter().take(k as usize).map(|e| e.points).sum())
            .unwrap_or(Score::ZERO)
    }

    /// Whether `a` and `b` had a regular match ([C1]).
    pub fn have_met(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.players
            .get(a)
            .is_some_and(|m| m.iter().any(|e| e.regular && e.opponent == Some(b)))
    }

    /// The game-1 colours of the player's matches that gave one, in order.
    pub fn colours(&self, p: PlayerIdx) -> Vec<Colour> {
        self.players
            .get(p)
            .map(|m| m.iter().filter_map(|e| e.colour).collect())
            .unwrap_or_default()
    }

    /// [C2]: barred from the PAB after a PAB, a full-point bye or a match won by forfeit
    /// (reading X4; a half-point bye does not bar it).
    pub fn pab_barred(&self, p: PlayerIdx) -> bool {
        self.players
            .get(p)
            .is_some_and(|m| m.iter().any(|e| e.pab || e.full_point_bye || e.forfeit_win))
    }

    /// Regularly played matches (3.4.3, reading X5).
    pub fn matches_played(&self, p: PlayerIdx) -> usize {
        self.players
            .get(p)
            .map_or(0, |m| m.iter().filter(|e| e.regular).count())
    }
}
