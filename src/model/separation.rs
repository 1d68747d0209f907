//! Separations (systems.md §0 "Separations", SEP-1..SEP-5): players of the same group
//! (federation, club, team, or a named group such as `family:smith`) kept apart for a range
//! of rounds. The model says who is in which group; the pipeline (`pairing::prepare`)
//! turns an ABSOLUTE separation into forbidden groups (CG-10) for the round it pairs.
use super::{PlayerIdx, Tournament};

/// What a separation groups players by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeparationKey {
    Federation,
    Club,
    /// The player's `team_id`.
    Team,
    /// The player's named groups whose name starts with `prefix:` (`family` groups
    /// `family:smith` with `family:smith`, apart from `family:jones`).
    Group(String),
}

impl SeparationKey {
    /// How the key is written (CLI, TRF `XSP`, messages): `federation`, `club`, `team`, or
    /// the group prefix.
    pub fn name(&self) -> &str {
        match self {
            SeparationKey::Federation => "federation",
            SeparationKey::Club => "club",
            SeparationKey::Team => "team",
            SeparationKey::Group(prefix) => prefix,
        }
    }

    /// The key a word names: the three fields, else a group prefix (`None` for an empty
    /// word or one holding a space or a colon).
    pub fn parse(word: &str) -> Option<SeparationKey> {
        let word = word.trim();
        match word.to_ascii_lowercase().as_str() {
            "federation" => Some(SeparationKey::Federation),
            "club" => Some(SeparationKey::Club),
            "team" => Some(SeparationKey::Team),
            _ if valid_prefix(word) => Some(SeparationKey::Group(word.to_string())),
            _ => None,
        }
    }
}

/// Whether a group prefix is usable: not empty, no white space, no colon.
pub fn valid_prefix(prefix: &str) -> bool {
    !prefix.is_empty() && !prefix.contains(|c: char| c.is_whitespace() || c == ':')
}

/// How strictly a separation keeps a group apart, and for a weak one where its criterion
/// stands in the system's order (SEP-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeparationMode {
    /// Two members never meet in the rounds in range (SEP-1).
    Absolute,
    /// Members meet only when the system's criteria above the separation's cannot be met
    /// otherwise: "minimise the pairs within a group", at the default place (SEP-5.1).
    Weak,
    /// Weak, placed before the criteria that keep players in their score groups (SEP-5.1).
    WeakFirst,
    /// Weak, placed after every criterion of the system (SEP-5.1).
    WeakLast,
}

/// Where a weak separation's criterion stands in a system's order of criteria (SEP-5.1),
/// most important first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WeakPlace {
    /// Before the criteria that keep players in their score groups (a player may float
    /// to avoid a groupmate).
    First = 0,
    /// After the score-group criteria, before the colour criteria.
    Default = 1,
    /// After every criterion.
    Last = 2,
}

impl WeakPlace {
    pub const ALL: [WeakPlace; 3] = [WeakPlace::First, WeakPlace::Default, WeakPlace::Last];

    pub fn name(self) -> &'static str {
        match self {
            WeakPlace::First => "first",
            WeakPlace::Default => "default",
            WeakPlace::Last => "last",
        }
    }
}

impl SeparationMode {
    pub fn name(self) -> &'static str {
        match self {
            SeparationMode::Absolute => "absolute",
            SeparationMode::Weak => "weak",
            SeparationMode::WeakFirst => "weak-first",
            SeparationMode::WeakLast => "weak-last",
        }
    }

    pub fn parse(word: &str) -> Option<SeparationMode> {
        match word.trim().to_ascii_lowercase().as_str() {
            "absolute" => Some(SeparationMode::Absolute),
            "weak" => Some(SeparationMode::Weak),
            "weak-first" => Some(SeparationMode::WeakFirst),
            "weak-last" => Some(SeparationMode::WeakLast),
            _ => None,
        }
    }

    /// The place of a weak separation's criterion; `None` for an absolute one.
    pub fn weak_place(self) -> Option<WeakPlace> {
        match self {
            SeparationMode::Absolute => None,
            SeparationMode::Weak => Some(WeakPlace::Default),
            SeparationMode::WeakFirst => Some(WeakPlace::First),
            SeparationMode::WeakLast => Some(WeakPlace::Last),
        }
    }
}

/// One separation of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Separation {
    pub key: SeparationKey,
    pub mode: SeparationMode,
    /// First round it applies to; `None` = from round 1.
    pub first_round: Option<u32>,
    /// Last round it applies to; `None` = to the last round.
    pub last_round: Option<u32>,
    /// The players of the top K score groups are exempt (SEP-3); `None` or 0 = nobody.
    pub exempt_top_groups: Option<u32>,
    /// From which round the exemption holds; `None` = every round in range.
    pub exempt_from_round: Option<u32>,
}

impl Separation {
    /// An absolute separation by `key` in every round.
    pub fn absolute(key: SeparationKey) -> Separation {
        Separation {
            key,
            mode: SeparationMode::Absolute,
            first_round: None,
            last_round: None,
            exempt_top_groups: None,
            exempt_from_round: None,
        }
    }

    /// Whether it applies to round `round` (SEP-2).
    pub fn applies_to(&self, round: u32) -> bool {
        self.first_round.is_none_or(|r| r <= round) && self.last_round.is_none_or(|r| round <= r)
    }

    /// The groups a player is in for this separation (SEP-1): his federation, club or team
    /// (none when empty), or his named groups with the prefix.
    pub fn groups_of<'a>(&self, player: &'a super::Player) -> Vec<&'a str> {
        let one = |s: &'a str| {
            let s = s.trim();
            if s.is_empty() { Vec::new() } else { vec![s] }
        };
        match &self.key {
            SeparationKey::Federation => one(&player.federation),
            SeparationKey::Club => one(&player.club),
            SeparationKey::Team => one(&player.team_id),
            SeparationKey::Group(prefix) => named(&player.groups, prefix),
        }
    }

    /// The groups a team is in for this separation, in a team event (SEP-6): its
    /// federation or club (none when empty), or its named groups with the prefix. The key
    /// TEAM groups no team (each team is its own; the pipeline refuses it in a team event).
    pub fn groups_of_team<'a>(&self, team: &'a super::Team) -> Vec<&'a str> {
        let one = |s: &'a str| {
            let s = s.trim();
            if s.is_empty() { Vec::new() } else { vec![s] }
        };
        match &self.key {
            SeparationKey::Federation => one(&team.federation),
            SeparationKey::Club => one(&team.club),
            SeparationKey::Team => Vec::new(),
            SeparationKey::Group(prefix) => named(&team.groups, prefix),
        }
    }

    /// Whether the exemption (SEP-3) holds in round `round`.
    fn exempts_in(&self, round: u32) -> bool {
        self.exempt_top_groups.is_some_and(|k| k > 0)
            && self.exempt_from_round.is_none_or(|r| r <= round)
    }
}

/// The named groups `prefix:NAME` among `groups`, trimmed, sorted, once each.
fn named<'a>(groups: &'a [String], prefix: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = groups
        .iter()
        .map(|g| g.trim())
        .filter(|g| {
            g.strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|name| !name.is_empty())
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// One group kept apart in a round: which separation, the group's name, its members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeparatedGroup {
    /// Index in [`Tournament::separations`].
    pub separation: usize,
    pub name: String,
    /// The members, in index order (at least two).
    pub players: Vec<PlayerIdx>,
}

impl Tournament {
    /// The groups the ABSOLUTE separations keep apart in round `round` (SEP-1..SEP-3): for
    /// each separation in range, each group with at least two members among the players,
    /// exempt players (SEP-3) left out. Scores are the points after the rounds before
    /// `round` (the snapshot's scoring). In a team event (SEP-6) a group is of teams, and
    /// its players are the members of its teams (so that no two of those teams meet).
    pub fn separated_groups(&self, round: u32) -> Vec<SeparatedGroup> {
        self.groups_in_force(round, |m| m == SeparationMode::Absolute)
    }

    /// The groups the WEAK separations keep apart where they can in round `round` (SEP-5),
    /// as [`Tournament::separated_groups`] finds them.
    pub fn weak_groups(&self, round: u32) -> Vec<SeparatedGroup> {
        self.groups_in_force(round, |m| m.weak_place().is_some())
    }

    fn groups_in_force(
        &self,
        round: u32,
        mode: impl Fn(SeparationMode) -> bool,
    ) -> Vec<SeparatedGroup> {
        if self.is_team_event() {
            return self
                .team_groups_in_force(round, &mode)
                .into_iter()
                .map(|g| {
                    let mut players: Vec<PlayerIdx> = g
                        .players
                        .iter()
                        .flat_map(|&team| self.teams[team].members.iter().copied())
                        .collect();
                    players.sort_unstable();
                    players.dedup();
                    SeparatedGroup { players, ..g }
                })
                .collect();
        }
        let mut out = Vec::new();
        for (s, sep) in self.separations.iter().enumerate() {
            if !mode(sep.mode) || !sep.applies_to(round) {
                continue;
            }
            let exempt_now = sep
                .exempts_in(round)
                .then(|| self.top_groups(round, sep.exempt_top_groups.unwrap_or(0)));
            let mut groups: std::collections::BTreeMap<&str, Vec<PlayerIdx>> = Default::default();
            for (p, player) in self.players.iter().enumerate() {
                if exempt_now.as_ref().is_some_and(|e| e[p]) {
                    continue;
                }
                for g in sep.groups_of(player) {
                    groups.entry(g).or_default().push(p);
                }
            }
            for (name, players) in groups {
                if players.len() >= 2 {
                    out.push(SeparatedGroup {
                        separation: s,
                        name: name.to_string(),
                        players,
                    });
                }
            }
        }
        out
    }

    /// The groups of teams the separations in `mode` keep apart in round `round`, in a
    /// team event (SEP-6): each group's `players` are team indices. A team takes part when
    /// one of its members does; the exemption (SEP-3) leaves out the teams of the top K
    /// score groups (the distinct primary scores, C.04.6 art. 1.2, of the team settings).
    fn team_groups_in_force(
        &self,
        round: u32,
        mode: &dyn Fn(SeparationMode) -> bool,
    ) -> Vec<SeparatedGroup> {
        let mut out = Vec::new();
        for (s, sep) in self.separations.iter().enumerate() {
            if !mode(sep.mode) || !sep.applies_to(round) {
                continue;
            }
            let exempt_now = sep
                .exempts_in(round)
                .then(|| self.top_team_groups(round, sep.exempt_top_groups.unwrap_or(0)));
            let mut groups: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
            for (i, team) in self.teams.iter().enumerate() {
                if exempt_now.as_ref().is_some_and(|e| e[i]) {
                    continue;
                }
                for g in sep.groups_of_team(team) {
                    groups.entry(g).or_default().push(i);
                }
            }
            for (name, players) in groups {
                if players.len() >= 2 {
                    out.push(SeparatedGroup {
                        separation: s,
                        name: name.to_string(),
                        players,
                    });
                }
            }
        }
        out
    }

    /// Which teams are in the top `k` score groups of round `round` (SEP-3 in a team event):
    /// the distinct primary scores after the rounds before it, of the teams with a member
    /// taking part. A snapshot whose team rounds cannot be derived exempts nobody (the
    /// pairing refuses it anyway).
    fn top_team_groups(&self, round: u32, k: u32) -> Vec<bool> {
        let mut before = self.clone();
        before.rounds.truncate(round.saturating_sub(1) as usize);
        let Ok(history) = super::team_rounds(&before) else {
            return vec![false; self.teams.len()];
        };
        let points = super::team_points(&before, &history);
        let primary = |i: usize| match self.team_settings.primary {
            super::PrimaryScore::MatchPoints => points[i].0,
            super::PrimaryScore::GamePoints => points[i].1,
        };
        let present: Vec<bool> = self
            .teams
            .iter()
            .map(|team| {
                team.members
                    .iter()
                    .any(|&m| self.players.get(m).is_some_and(|p| p.is_active_in(round)))
            })
            .collect();
        let mut scores: Vec<_> = (0..self.teams.len())
            .filter(|&i| present[i])
            .map(primary)
            .collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        let top = &scores[..scores.len().min(k as usize)];
        (0..self.teams.len())
            .map(|i| present[i] && top.contains(&primary(i)))
            .collect()
    }

    /// The weak separations of round `round`, ready for a system's criterion (SEP-5). In a
    /// team event they are the teams' ([`Tournament::weak_team_separations`]) expanded to
    /// their members.
    pub fn weak_separations(&self, round: u32) -> WeakSeparations {
        if self
            .separations
            .iter()
            .all(|s| s.mode.weak_place().is_none())
        {
            return WeakSeparations::default();
        }
        WeakSeparations::new(self, self.players.len(), &self.weak_groups(round))
    }

    /// The weak separations of round `round` in a team event, indexed by team (SEP-5,
    /// SEP-6): the Swiss Team system's criterion reads which teams share a group.
    pub fn weak_team_separations(&self, round: u32) -> WeakSeparations {
        if !self.is_team_event()
            || self
                .separations
                .iter()
                .all(|s| s.mode.weak_place().is_none())
        {
            return WeakSeparations::default();
        }
        let groups = self.team_groups_in_force(round, &|m| m.weak_place().is_some());
        WeakSeparations::new(self, self.teams.len(), &groups)
    }

    /// Which players are in the top `k` score groups of round `round` (the distinct point
    /// totals, after the rounds before it, of the players taking part in it).
    fn top_groups(&self, round: u32, k: u32) -> Vec<bool> {
        let points = self.points_after(round.saturating_sub(1));
        let mut scores: Vec<_> = self
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_active_in(round))
            .map(|(i, _)| points[i])
            .collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores.dedup();
        let top = &scores[..scores.len().min(k as usize)];
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| p.is_active_in(round) && top.contains(&points[i]))
            .collect()
    }

    /// The absolute separation (its index) that keeps `a` and `b` apart in round `round`,
    /// if any (SEP-1).
    pub fn separation_between(&self, a: PlayerIdx, b: PlayerIdx, round: u32) -> Option<usize> {
        self.separated_groups(round)
            .into_iter()
            .find(|g| g.players.contains(&a) && g.players.contains(&b))
            .map(|g| g.separation)
    }
}

/// The weak separations of one round, as a system's criterion reads them (SEP-5): which
/// players share a group at each place of the criterion. A pair within a group of any weak
/// separation at a place counts once for that place.
#[derive(Clone, Debug, Default)]
pub struct WeakSeparations {
    /// Per player: (place, group number) of each weak group he is in, sorted.
    member: Vec<Vec<(WeakPlace, u32)>>,
    /// Per player: a number shared exactly by the players with the same groups (0: none),
    /// so that a pair's criterion is a function of the two numbers.
    signature: Vec<u32>,
    /// The places some group of two or more players occupies.
    places: Vec<WeakPlace>,
    /// The groups, for explanations: (separation index, name, place).
    groups: Vec<(usize, String, WeakPlace)>,
}

impl WeakSeparations {
    /// `members` units (players, or teams in a team event), `groups` of units.
    fn new(t: &Tournament, members: usize, groups: &[SeparatedGroup]) -> WeakSeparations {
        let mut member: Vec<Vec<(WeakPlace, u32)>> = vec![Vec::new(); members];
        let mut places = Vec::new();
        let mut named = Vec::new();
        for group in groups {
            let Some(place) = t
                .separations
                .get(group.separation)
                .and_then(|s| s.mode.weak_place())
            else {
                continue;
            };
            let g = named.len();
            if !places.contains(&place) {
                places.push(place);
            }
            named.push((group.separation, group.name.clone(), place));
            for &p in &group.players {
                member[p].push((place, g as u32));
            }
        }
        places.sort_unstable();
        let mut ids: std::collections::HashMap<&[(WeakPlace, u32)], u32> = Default::default();
        let mut signature = vec![0u32; member.len()];
        for m in member.iter_mut() {
            m.sort_unstable();
        }
        for (p, m) in member.iter().enumerate() {
            if !m.is_empty() {
                let next = ids.len() as u32 + 1;
                signature[p] = *ids.entry(m.as_slice()).or_insert(next);
            }
        }
        WeakSeparations {
            member,
            signature,
            places,
            groups: named,
        }
    }

    /// No weak group of two or more players in the round: the criterion is absent.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// The places in use, most important first.
    pub fn places(&self) -> &[WeakPlace] {
        &self.places
    }

    /// Whether `a` and `b` share a group at `place`.
    pub fn within(&self, a: PlayerIdx, b: PlayerIdx, place: WeakPlace) -> bool {
        let (Some(ma), Some(mb)) = (self.member.get(a), self.member.get(b)) else {
            return false;
        };
        ma.iter()
            .filter(|(p, _)| *p == place)
            .any(|x| mb.contains(x))
    }

    /// Whether `a` and `b` share a group at any place.
    pub fn any_within(&self, a: PlayerIdx, b: PlayerIdx) -> bool {
        self.places.iter().any(|&place| self.within(a, b, place))
    }

    /// The places at which two of `players` share a group, most important first.
    pub fn shared_places(&self, players: impl Iterator<Item = PlayerIdx>) -> Vec<WeakPlace> {
        let mut seen: std::collections::HashSet<(WeakPlace, u32)> = Default::default();
        let mut out = Vec::new();
        for p in players {
            for &x in self.member.get(p).map_or(&[][..], |m| m.as_slice()) {
                if !seen.insert(x) && !out.contains(&x.0) {
                    out.push(x.0);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// A number shared exactly by the players in the same groups (0: in none).
    pub fn signature(&self, p: PlayerIdx) -> u32 {
        self.signature.get(p).copied().unwrap_or(0)
    }

    /// The first group `a` and `b` share (separation index, group name), for messages.
    pub fn shared_group(&self, a: PlayerIdx, b: PlayerIdx) -> Option<(usize, &str)> {
        let (ma, mb) = (self.member.get(a)?, self.member.get(b)?);
        let &(_, g) = ma.iter().find(|x| mb.contains(x))?;
        self.groups
            .get(g as usize)
            .map(|(s, name, _)| (*s, name.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Player;

    fn player(id: &str, club: &str, groups: &[&str]) -> Player {
        Player {
            id: id.to_string(),
            club: club.to_string(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            ..Player::default()
        }
    }

    #[test]
    fn groups_by_key_and_prefix() {
        let t = Tournament {
            players: vec![
                player("a", "North", &["family:smith", "school:x"]),
                player("b", "North", &["family:smith"]),
                player("c", "South", &["family:jones", "school:x"]),
                player("d", "", &["family:jones", "familyx:y"]),
                player("e", "South", &[]),
            ],
            separations: vec![
                Separation::absolute(SeparationKey::Club),
                Separation::absolute(SeparationKey::Group("family".into())),
                Separation {
                    mode: SeparationMode::Weak,
                    ..Separation::absolute(SeparationKey::Group("school".into()))
                },
            ],
            ..Tournament::default()
        };
        let groups = t.separated_groups(1);
        let names: Vec<(usize, &str, Vec<usize>)> = groups
            .iter()
            .map(|g| (g.separation, g.name.as_str(), g.players.clone()))
            .collect();
        assert_eq!(
            names,
            vec![
                (0, "North", vec![0, 1]),
                (0, "South", vec![2, 4]),
                (1, "family:jones", vec![2, 3]),
                (1, "family:smith", vec![0, 1]),
            ]
        );
        assert_eq!(t.separation_between(2, 3, 1), Some(1));
        assert_eq!(t.separation_between(0, 2, 1), None);
    }

    #[test]
    fn rounds_in_range() {
        let s = Separation {
            first_round: Some(2),
            last_round: Some(3),
            ..Separation::absolute(SeparationKey::Club)
        };
        assert!(!s.applies_to(1));
        assert!(s.applies_to(2) && s.applies_to(3));
        assert!(!s.applies_to(4));
    }
}
