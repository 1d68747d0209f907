//! The game a club format is played with (MON-6, KO-6): chess, or backgammon matches as
//! the backgammon Swiss models them (BG-2: one game record per match, its winner the
//! match's winner; no draws, no colours; `match_length` carried as data). Monrad and the
//! knockout declare the same two options and check a snapshot the same way.
use crate::model::validate::Problem;
use crate::model::{ByeKind, GameResult, PlayerIdx, SystemOptions, Tournament};
use crate::systems::options::{parse_choice, parse_count, read};
use crate::systems::{ByeAssignment, OptionInfo};

/// Which game is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Game {
    /// Chess: colours, draws.
    #[default]
    Chess,
    /// Backgammon matches: no colours, no draws (each match recorded as one game won by
    /// the match's winner).
    Backgammon,
}

const GAMES: [(&str, Game); 2] = [("CHESS", Game::Chess), ("BACKGAMMON", Game::Backgammon)];

/// Option `game`.
pub fn game(o: &SystemOptions) -> Game {
    read(o, "game", |v| parse_choice(v, &GAMES)).unwrap_or_default()
}

/// Option `match_length`: 0 or unset = none.
pub fn match_length(o: &SystemOptions) -> Option<u32> {
    read(o, "match_length", parse_count).filter(|&m| m > 0)
}

/// The two options, for `ListSystems`; `rule` is the system's rule id for the game.
pub fn options_info(rule: &'static str) -> Vec<OptionInfo> {
    let (game, length): (&'static str, &'static str) = match rule {
        "KO-6" => (
            "CHESS: colours and draws; BACKGAMMON: no colours, every match has a winner (KO-6)",
            "backgammon: points per match (e.g. 11), carried through to the answers as data (KO-6)",
        ),
        _ => (
            "CHESS: colours and draws; BACKGAMMON: no colours, every match has a winner (MON-6)",
            "backgammon: points per match (e.g. 11), carried through to the answers as data (MON-6)",
        ),
    };
    vec![
        OptionInfo {
            name: "game",
            kind: "enum CHESS|BACKGAMMON",
            default_value: "CHESS",
            description: game,
            parse: |v| parse_choice(v, &GAMES).map(|_| ()),
        },
        OptionInfo {
            name: "match_length",
            kind: "uint32",
            default_value: "0",
            description: length,
            parse: |v| parse_count(v).map(|_| ()),
        },
    ]
}

/// Backgammon's refusals in the rounds before `number` and in the round's preset byes: a
/// draw, an unusual score, an adjourned game, a half-point bye (a backgammon match has a
/// winner). Each problem names the field, the round and the players, citing `rule`.
pub fn backgammon_problems(
    t: &Tournament,
    number: u32,
    preset: &[ByeAssignment],
    rule: &str,
) -> Vec<Problem> {
    let id = |p: PlayerIdx| t.players.get(p).map_or("?", |pl| pl.id.as_str());
    let mut problems = Vec::new();
    for (r, round) in t
        .rounds
        .iter()
        .enumerate()
        .take(number.saturating_sub(1) as usize)
    {
        for (g, game) in round.games.iter().enumerate() {
            let drawn = matches!(game.result, GameResult::Draw | GameResult::Adjourned)
                || game.result.is_unusual();
            if drawn {
                problems.push(Problem::new(
                    format!("tournament.rounds[{r}].games[{g}].result"),
                    format!(
                        "round {}: the match {:?} - {:?} has no winner, but a backgammon match has one (game=BACKGAMMON, {rule})",
                        r + 1,
                        id(game.white),
                        id(game.black)
                    ),
                ));
            }
        }
        for (b, bye) in round.byes.iter().enumerate() {
            if bye.kind == ByeKind::HalfPoint {
                problems.push(Problem::new(
                    format!("tournament.rounds[{r}].byes[{b}].kind"),
                    format!(
                        "round {}: player {:?}: a half-point bye, but backgammon has no draws (game=BACKGAMMON, {rule})",
                        r + 1,
                        id(bye.player)
                    ),
                ));
            }
        }
    }
    for b in preset {
        if b.kind == ByeKind::HalfPoint {
            problems.push(Problem::new(
                "requested_byes",
                format!(
                    "round {number}: player {:?}: a half-point bye, but backgammon has no draws (game=BACKGAMMON, {rule})",
                    id(b.player)
                ),
            ));
        }
    }
    problems
}
