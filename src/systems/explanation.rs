//! The structured explanation every system returns: ordered steps citing rule ids, grouped
//! by score group, bracket or phase (C.04.1 art. 9: a pairing must be explainable).
use crate::model::PlayerIdx;

/// How much of the explanation to keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    None,
    #[default]
    Summary,
    Full,
}

/// One step: the rule that decided something, in words, and whom it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub rule_id: String,
    pub message: String,
    pub players: Vec<PlayerIdx>,
    /// The least detail level at which the step is shown.
    pub detail: Detail,
}

/// The steps of one group, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Group {
    pub label: String,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explanation {
    pub groups: Vec<Group>,
}

impl Explanation {
    /// Starts a new group; later steps go into it.
    pub fn group(&mut self, label: impl Into<String>) {
        self.groups.push(Group {
            label: label.into(),
            steps: Vec::new(),
        });
    }

    fn push(&mut self, rule_id: &str, message: String, players: Vec<PlayerIdx>, detail: Detail) {
        if self.groups.is_empty() {
            self.group("");
        }
        if let Some(g) = self.groups.last_mut() {
            g.steps.push(Step {
                rule_id: rule_id.to_string(),
                message,
                players,
                detail,
            });
        }
    }

    /// A decisive step, shown at the summary level.
    pub fn step(&mut self, rule_id: &str, message: impl Into<String>, players: Vec<PlayerIdx>) {
        self.push(rule_id, message.into(), players, Detail::Summary);
    }

    /// A step shown only with full detail.
    pub fn detail(&mut self, rule_id: &str, message: impl Into<String>, players: Vec<PlayerIdx>) {
        self.push(rule_id, message.into(), players, Detail::Full);
    }

    /// Keeps the steps of the requested detail level; drops empty groups.
    pub fn filtered(mut self, detail: Detail) -> Explanation {
        if detail == Detail::None {
            return Explanation::default();
        }
        for g in &mut self.groups {
            g.steps.retain(|s| s.detail <= detail);
        }
        self.groups.retain(|g| !g.steps.is_empty());
        self
    }
}
