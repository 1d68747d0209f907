//! bbpPairings' check-list file (`-l`), laid out to the letter: per round, a table whose
//! cells are right-aligned to their column's widest entry and each followed by a tab; a
//! blank line before the table and before every change of score; `\n\n\n` after it. The
//! facts come from the systems (`System::checklist`); only the layout is here.
use std::path::{Path, PathBuf};

use swisspair::model::{Colour, PlayerIdx, Tournament};
use swisspair::systems::checklist::{Floated, Preference, SystemColumns};
use swisspair::systems::{Checklist, RoundPairing};

/// The file's last line: the reference writes its build there; swisspair its own.
pub fn stamp() -> String {
    format!(
        "swisspair {} (check-list in the layout of bbpPairings)",
        env!("CARGO_PKG_VERSION")
    )
}

/// Where the check-list goes: `-l name` as given (a bare name in `base`'s folder), else
/// `base` with the extension `.list`.
pub fn path(given: Option<&str>, base: &Path) -> PathBuf {
    match given {
        Some(name) => {
            let name = Path::new(name);
            if name.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
                name.to_path_buf()
            } else {
                base.with_file_name(name)
            }
        }
        None => base.with_extension("list"),
    }
}

/// A number of hundredths (or tenths) with `decimals` decimals, as the reference prints
/// its fixed-point values.
fn fixed(value: i128, decimals: u32) -> String {
    let scale = 10i128.pow(decimals);
    let sign = if value < 0 { "-" } else { "" };
    let v = value.abs();
    format!(
        "{sign}{}.{:0width$}",
        v / scale,
        v % scale,
        width = decimals as usize
    )
}

fn colour_letter(c: Colour) -> char {
    match c {
        Colour::White => 'W',
        Colour::Black => 'B',
    }
}

fn preference(p: Preference) -> String {
    match p {
        Preference::None => "A ".to_string(),
        Preference::Mild(c) => format!("{} ", colour_letter(c).to_ascii_lowercase()),
        Preference::Strong(c) => format!("({})", colour_letter(c)),
        Preference::Absolute(c) => format!("{} ", colour_letter(c)),
    }
}

fn floated(f: Floated) -> String {
    match f {
        Floated::None => " ",
        Floated::Up => "U",
        Floated::Down => "D",
    }
    .to_string()
}

/// Each player's pairing this round as the `Cur` column shows it: `(12W)`, `(bye)`.
fn current(t: &Tournament, pairing: Option<&RoundPairing>, p: PlayerIdx) -> String {
    let Some(pairing) = pairing else {
        return String::new();
    };
    for b in &pairing.boards {
        let (opponent, colour) = if b.white == p {
            (b.black, 'W')
        } else if b.black == p {
            (b.white, 'B')
        } else {
            continue;
        };
        return format!("({}{colour})", t.pairing_number(opponent));
    }
    if pairing
        .byes
        .iter()
        .any(|b| b.player == p && b.kind.is_pairing_allocated())
    {
        return "(bye)".to_string();
    }
    String::new()
}

/// One round's table; `pairing` fills the `Cur` column (empty when the round could not
/// be paired).
pub fn table(t: &Tournament, list: &Checklist, pairing: Option<&RoundPairing>) -> String {
    let rounds = list.round.saturating_sub(1) as usize;
    let burstein = list
        .rows
        .first()
        .is_some_and(|r| matches!(r.columns, SystemColumns::Burstein { .. }));
    let own: &[&str] = if burstein {
        &[
            "Sonneborn-Berger",
            "Buchholz score",
            "Buchholz tiebreak",
            "Median score",
            "Median tiebreak",
            "Cur",
        ]
    } else {
        &["C2", "C14", "C16", "Cur"]
    };
    let mut header: Vec<String> = vec!["ID".into(), "Pts".into(), "-".repeat(rounds + 1)];
    header.push("Pref".into());
    header.extend(own.iter().map(|s| s.to_string()));
    header.push(String::new());
    header.extend((1..=rounds).map(|r| format!("R{r}")));
    let rows: Vec<Vec<String>> = list
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                t.pairing_number(row.player).to_string(),
                fixed(i128::from(row.score.tenths()), 1),
                row.colours.iter().map(|&c| colour_letter(c)).collect(),
                preference(row.preference),
            ];
            match row.columns {
                SystemColumns::Dutch {
                    bye_eligible,
                    float1,
                    float2,
                } => cells.extend([
                    if bye_eligible { "Y" } else { "N" }.to_string(),
                    floated(float1),
                    floated(float2),
                ]),
                SystemColumns::Burstein {
                    sonneborn_berger,
                    buchholz_score,
                    buchholz,
                    median_score,
                    median,
                } => cells.extend([
                    fixed(sonneborn_berger, 2),
                    fixed(buchholz_score, 2),
                    fixed(buchholz, 1),
                    fixed(median_score, 2),
                    fixed(median, 1),
                ]),
            }
            cells.push(current(t, pairing, row.player));
            cells.push(String::new());
            cells.extend((0..rounds).map(|r| {
                row.opponents
                    .get(r)
                    .copied()
                    .flatten()
                    .map_or_else(String::new, |o| t.pairing_number(o).to_string())
            }));
            cells
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(String::len).collect();
    for cells in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, &w)| format!("{c:>w$}\t"))
            .collect()
    };
    let mut out = String::from("\n");
    out.push_str(&line(&header));
    let mut previous = None;
    for (row, cells) in list.rows.iter().zip(&rows) {
        out.push('\n');
        if previous != Some(row.score) {
            out.push('\n');
        }
        out.push_str(&line(cells));
        previous = Some(row.score);
    }
    out.push_str("\n\n\n");
    out
}
