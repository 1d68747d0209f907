//! The structured explanation every system returns: ordered steps citing rule ids, grouped
//! by score group, bracket or phase (C.04.1 art. 9: a pairing must be explainable).
//!
//! # The shape of a rule id
//! One shape whatever the system: a rule of `docs/rules/systems.md` (`RR-1`, `AM-3.3`,
//! `VZ-4.3`, `VZ-4.4(c)`, `BG-7.1`, `CG-8`, `MP-1`), or a FIDE Handbook reference `C.04.<n> <article>`
//! (`C.04.3 C12`, `C.04.3 5.2.1`, `C.04.1 art. 4`); a step of JavaPairing's procedure adds
//! its tag after the rule, `AM-3.3 JP-OUT` (javapairing.md's `[OUT]`; with a section,
//! `SS-3 JP-SS-GROUP:3.4.2`), instead of
//! writing it in the message. [`Explanation::finish`] enforces it: systems may write a bare
//! criterion (`C12`) or a trailing `[TAG]`, and it is normalised once.
use crate::model::PlayerIdx;

/// Appends `n` in decimal to `out`. Explanations write numbers by the hundred per
/// request, and a `write!` costs several times this push (issue 37).
pub fn push_number(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut n = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // A char at a time: for the few digits of a number cheaper than a `str` check and copy.
    for &digit in &buf[at..] {
        out.push(char::from(digit));
    }
}

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

    /// Keeps the steps of the requested detail level; drops empty groups; makes group
    /// labels unique (a repeated label gets ` (2)`, ` (3)`, … in order) and moves
    /// JavaPairing tags from the messages to the rule ids ([`Explanation::finish`]).
    pub fn filtered(mut self, detail: Detail) -> Explanation {
        if detail == Detail::None {
            return Explanation::default();
        }
        for g in &mut self.groups {
            g.steps.retain(|s| s.detail <= detail);
        }
        self.groups.retain(|g| !g.steps.is_empty());
        self.finish();
        self
    }

    /// Puts every rule id in the one shape (module docs) and makes the group labels unique.
    pub fn finish(&mut self) {
        // Each group's occurrence of its label, counted without copying the labels.
        let mut nth = Vec::with_capacity(self.groups.len());
        let mut seen: rustc_hash::FxHashMap<&str, u32> = rustc_hash::FxHashMap::default();
        for g in &self.groups {
            let count = seen.entry(g.label.as_str()).or_insert(0);
            *count += 1;
            nth.push(*count);
        }
        drop(seen);
        for (g, count) in self.groups.iter_mut().zip(nth) {
            if count > 1 {
                g.label = format!("{} ({count})", g.label);
            }
            for s in &mut g.steps {
                if let Some((text, tag)) = trailing_tag(&s.message) {
                    s.rule_id = format!("{} JP-{tag}", s.rule_id).trim().to_string();
                    s.message = text;
                }
            }
        }
    }

    /// Qualifies bare article or criterion numbers (`C12`, `3.8`) with the FIDE document
    /// they belong to (`C.04.3`), so that the ids have the one shape.
    pub fn qualify_rule_ids(&mut self, document: &str) {
        for s in self.groups.iter_mut().flat_map(|g| g.steps.iter_mut()) {
            let bare = !s.rule_id.contains(' ')
                && (s.rule_id.starts_with(|c: char| c.is_ascii_digit())
                    || (s.rule_id.starts_with('C')
                        && s.rule_id[1..].chars().all(|c| c.is_ascii_digit())
                        && s.rule_id.len() > 1));
            if bare {
                s.rule_id = format!("{document} {}", s.rule_id);
            }
        }
    }
}

/// A message ending in a JavaPairing step tag, ` [OUT]`, ` [PCS-SWITCH]` or with the
/// section of javapairing.md, ` [SS-GROUP 3.4.2]`: the text without it, and the tag
/// (`OUT`, `SS-GROUP:3.4.2`).
fn trailing_tag(message: &str) -> Option<(String, String)> {
    let body = message.strip_suffix(']')?;
    let open = body.rfind('[')?;
    let inner = &body[open + 1..];
    let (tag, section) = match inner.split_once(' ') {
        Some((tag, section)) => (tag, Some(section)),
        None => (inner, None),
    };
    let tag_ok = !tag.is_empty()
        && tag.starts_with(|c: char| c.is_ascii_uppercase())
        && tag
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    let section_ok =
        section.is_none_or(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.'));
    (tag_ok && section_ok).then(|| {
        let tag = match section {
            Some(s) => format!("{tag}:{s}"),
            None => tag.to_string(),
        };
        (body[..open].trim_end().to_string(), tag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_and_tags_move_to_the_rule_id() {
        let mut e = Explanation::default();
        e.group("score 1");
        e.step("AM-3.3", "boards in the order stored [OUT]", vec![1]);
        e.group("score 1");
        e.step("C12", "preferences met", Vec::new());
        e.qualify_rule_ids("C.04.3");
        let e = e.filtered(Detail::Full);
        assert_eq!(e.groups[0].label, "score 1");
        assert_eq!(e.groups[1].label, "score 1 (2)");
        assert_eq!(e.groups[0].steps[0].rule_id, "AM-3.3 JP-OUT");
        assert_eq!(e.groups[0].steps[0].message, "boards in the order stored");
        assert_eq!(e.groups[1].steps[0].rule_id, "C.04.3 C12");
        // A bracket in ordinary text is not a tag; a section follows the tag's name.
        assert_eq!(trailing_tag("pairs [a, b]"), None);
        assert_eq!(
            trailing_tag("taken anyway [SS-GROUP 3.4.2]"),
            Some(("taken anyway".to_string(), "SS-GROUP:3.4.2".to_string()))
        );
    }

    #[test]
    fn push_number_writes_decimal() {
        for n in [0, 7, 10, 99, 100, 12_345, u64::MAX] {
            let mut out = String::from("board ");
            push_number(&mut out, n);
            assert_eq!(out, format!("board {n}"));
        }
    }
}
