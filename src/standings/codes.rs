//! Tie-break codes as MTB26 (TRF-26 records 202/212) and C.07 write them: `BH/C1`,
//! `SB`, `KS/L60`, `ARO/U1000`, `DE/P`, each optionally pinned to an edition with
//! `/V2024` or `/V2026`. `BH-C1` (the C.07 prose spelling) is read too.
use std::fmt;

use super::Edition;

/// The individual tie-breaks of C.07 (2026-03-01), by their MTB26 acronym.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Points (the primary score).
    Pts,
    /// Buchholz (art. 8.1).
    Bh,
    /// Average of opponents' Buchholz (art. 8.2).
    Aob,
    /// Fore Buchholz: the last round's games counted as draws (art. 8.3).
    Fb,
    /// Sonneborn-Berger (art. 9.1).
    Sb,
    /// Koya (art. 9.2).
    Ks,
    /// Direct encounter (art. 6).
    De,
    /// Number of wins, played or not (art. 7.1).
    Win,
    /// Games won over the board (art. 7.2).
    Won,
    /// Games played with Black (art. 7.3).
    Bpg,
    /// Games won with Black (art. 7.4).
    Bwg,
    /// Progressive score (art. 7.5).
    Ps,
    /// Rounds elected to play (art. 7.6; `GE` before 2024-08).
    Rep,
    /// Standard points: 1 / ½ / 0 per round whatever the scoring (art. 7.7, 2026).
    Std,
    /// Tournament pairing number, ascending (art. 7.8, 2026).
    Tpn,
    /// Average rating of opponents (art. 10.1).
    Aro,
    /// Tournament performance rating (art. 10.2).
    Tpr,
    /// Perfect tournament performance (art. 10.3).
    Ptp,
    /// Average of opponents' TPR (art. 10.4).
    Apro,
    /// Average of opponents' PTP (art. 10.5).
    Appo,
    /// The player's own rating (art. 10.6, 2026).
    Rtng,
    /// The pairing system's own ranking, ranked before points (Keizer's score, KZ-6): not a
    /// C.07 code, never parsed; its column comes from the system (`OwnColumn`).
    Own,
}

impl Kind {
    pub const ALL: [(&'static str, Kind); 22] = [
        ("PTS", Kind::Pts),
        ("BH", Kind::Bh),
        ("FB", Kind::Fb),
        ("AOB", Kind::Aob),
        ("SB", Kind::Sb),
        ("KS", Kind::Ks),
        ("DE", Kind::De),
        ("WIN", Kind::Win),
        ("WON", Kind::Won),
        ("BPG", Kind::Bpg),
        ("BWG", Kind::Bwg),
        ("PS", Kind::Ps),
        ("REP", Kind::Rep),
        ("GE", Kind::Rep),
        ("STD", Kind::Std),
        ("TPN", Kind::Tpn),
        ("ARO", Kind::Aro),
        ("TPR", Kind::Tpr),
        ("PTP", Kind::Ptp),
        ("APRO", Kind::Apro),
        ("APPO", Kind::Appo),
        ("RTNG", Kind::Rtng),
    ];

    /// Whether a higher value ranks higher (everything but DE and TPN, which are ranks
    /// and pairing numbers).
    pub fn descending(self) -> bool {
        !matches!(self, Kind::De | Kind::Tpn | Kind::Own)
    }

    /// Whether the value is a rating (undefined when unrated players take part and no
    /// `/U` rating is set for them, C.07 art. 10).
    pub fn is_rating(self) -> bool {
        matches!(
            self,
            Kind::Aro | Kind::Tpr | Kind::Ptp | Kind::Apro | Kind::Appo | Kind::Rtng
        )
    }
}

/// A parsed tie-break code with its modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TieBreak {
    pub kind: Kind,
    /// The code as written in MTB26 form (`GE` stays `GE`), without the `/V` pin.
    pub code: String,
    /// `/Cn` cuts the n least significant values; `/Mn` cuts n at each end (art. 14).
    pub cut_low: u32,
    pub cut_high: u32,
    /// KS limit (art. 9.2 with `/L`): percentage of the maximum score, default 50.
    pub limit_percent: u32,
    /// KS limit shift, in hundredths of a point (`/L+1` = +0.5, `/L+1.0` = +1.0).
    pub limit_shift_hundredths: i64,
    /// `/U<rating>`: the rating given to unrated players for rating tie-breaks.
    pub unrated_rating: Option<u32>,
    /// `/P`: forfeits count as played (DE).
    pub forfeits_played: bool,
    /// `/R`: the order reversed (RTNG and TPN, C.07 2026 art. 7.8 and 10.6 allow both
    /// orders: RTNG/R ranks the lower rating first, TPN/R the higher number).
    pub reversed: bool,
    /// `/V2024`, `/V2026`: the edition for this code only.
    pub edition: Option<Edition>,
}

impl TieBreak {
    pub fn new(kind: Kind) -> TieBreak {
        let name = Kind::ALL
            .iter()
            .find(|(_, k)| *k == kind)
            .map_or("", |(n, _)| n);
        TieBreak {
            kind,
            code: name.to_string(),
            cut_low: 0,
            cut_high: 0,
            limit_percent: 50,
            limit_shift_hundredths: 0,
            unrated_rating: None,
            forfeits_played: false,
            reversed: false,
            edition: None,
        }
    }

    /// Parses one code. Errors name the code and what is wrong.
    pub fn parse(text: &str) -> Result<TieBreak, String> {
        let text = text.trim();
        let upper = text.to_ascii_uppercase();
        let (name, mods): (&str, Vec<&str>) = if upper.contains('/') {
            let mut parts = upper.split('/');
            let name = parts.next().unwrap_or("");
            (name, parts.collect())
        } else if let Some((name, m)) = upper.split_once('-') {
            (name, vec![m])
        } else {
            (upper.as_str(), Vec::new())
        };
        let kind = Kind::ALL
            .iter()
            .find(|(n, _)| *n == name.trim())
            .map(|(_, k)| *k)
            .ok_or_else(|| {
                format!(
                    "tie-break {text:?}: unknown code {name:?} (known: {})",
                    Kind::ALL.map(|(n, _)| n).join(", ")
                )
            })?;
        let mut tb = TieBreak::new(kind);
        tb.code = name.trim().to_string();
        let bad = |m: &str, why: &str| format!("tie-break {text:?}: modifier /{m} {why}");
        for m in mods {
            let m = m.trim();
            let mut chars = m.chars();
            let letter = chars.next().ok_or_else(|| bad(m, "is empty"))?;
            let arg = chars.as_str();
            let number = || arg.parse::<u32>().map_err(|_| bad(m, "needs a number"));
            match letter {
                'C' => {
                    if !matches!(
                        kind,
                        Kind::Bh
                            | Kind::Fb
                            | Kind::Sb
                            | Kind::Ps
                            | Kind::Aro
                            | Kind::Tpr
                            | Kind::Ptp
                            | Kind::Aob
                    ) {
                        return Err(bad(m, "(cut) is not defined for this tie-break (art. 14)"));
                    }
                    tb.cut_low = number()?;
                }
                'M' => {
                    if !matches!(kind, Kind::Bh | Kind::Fb | Kind::Aro | Kind::Aob) {
                        return Err(bad(
                            m,
                            "(median) is not defined for this tie-break (art. 14)",
                        ));
                    }
                    let n = number()?;
                    tb.cut_low = n;
                    tb.cut_high = n;
                }
                'L' => {
                    if kind != Kind::Ks {
                        return Err(bad(m, "(limit) is defined for KS only (art. 9.2)"));
                    }
                    if let Some(shift) = arg.strip_prefix('+').or(arg.strip_prefix('-')) {
                        let sign = if arg.starts_with('-') { -1 } else { 1 };
                        let h = if shift.contains('.') {
                            super::Value::parse(shift)
                                .map(|v| v.as_hundredths())
                                .ok_or_else(|| bad(m, "needs a number of points"))?
                        } else {
                            // Whole steps are half points (KS/L+1 = half a point more).
                            i64::from(shift.parse::<u32>().map_err(|_| bad(m, "needs a number"))?)
                                * 50
                        };
                        tb.limit_shift_hundredths = sign * h;
                    } else {
                        let p = number()?;
                        if p > 100 {
                            return Err(bad(m, "is a percentage, at most 100"));
                        }
                        tb.limit_percent = p;
                    }
                }
                'U' => {
                    if !kind.is_rating() {
                        return Err(bad(m, "(unrated rating) is for rating tie-breaks only"));
                    }
                    tb.unrated_rating = Some(number()?);
                }
                'P' if arg.is_empty() => {
                    if kind != Kind::De {
                        return Err(bad(m, "(forfeits as played) is defined for DE only"));
                    }
                    tb.forfeits_played = true;
                }
                'R' if arg.is_empty() => {
                    if !matches!(kind, Kind::Rtng | Kind::Tpn) {
                        return Err(bad(m, "(reversed order) is defined for RTNG and TPN only"));
                    }
                    tb.reversed = true;
                }
                'V' => {
                    tb.edition = Some(match arg {
                        "2024" | "1" => Edition::V2024,
                        "2026" | "2" | "" => Edition::V2026,
                        _ => return Err(bad(m, "must be V2024 or V2026")),
                    });
                }
                _ => return Err(bad(m, "is unknown")),
            }
        }
        Ok(tb)
    }

    /// Parses a comma-, space- or semicolon-separated list.
    pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, String> {
        text.split([',', ';', ' ', '\t'])
            .filter(|s| !s.trim().is_empty())
            .map(TieBreak::parse)
            .collect()
    }
}

impl fmt::Display for TieBreak {
    /// The code with its modifiers, without the edition pin (`BH/C1`, `KS/L60`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code)?;
        if self.cut_low > 0 && self.cut_low == self.cut_high {
            write!(f, "/M{}", self.cut_low)?;
        } else if self.cut_low > 0 {
            write!(f, "/C{}", self.cut_low)?;
        }
        if self.limit_percent != 50 {
            write!(f, "/L{}", self.limit_percent)?;
        }
        if self.limit_shift_hundredths != 0 {
            let v = self.limit_shift_hundredths;
            let sign = if v < 0 { '-' } else { '+' };
            write!(f, "/L{sign}{}", super::Value::hundredths(v.abs()))?;
        }
        if let Some(u) = self.unrated_rating {
            write!(f, "/U{u}")?;
        }
        if self.reversed {
            f.write_str("/R")?;
        }
        if self.forfeits_played {
            f.write_str("/P")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_and_modifiers() {
        let bh = TieBreak::parse("BH/C1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((bh.kind, bh.cut_low, bh.cut_high), (Kind::Bh, 1, 0));
        assert_eq!(bh.to_string(), "BH/C1");
        let m = TieBreak::parse("bh-m1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((m.cut_low, m.cut_high), (1, 1));
        assert_eq!(m.to_string(), "BH/M1");
        let v = TieBreak::parse("SB/C1/V2024").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.edition, Some(Edition::V2024));
        assert_eq!(v.to_string(), "SB/C1");
        let ks = TieBreak::parse("KS/L+1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ks.limit_shift_hundredths, 50);
        let ge = TieBreak::parse("GE").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((ge.kind, ge.code.as_str()), (Kind::Rep, "GE"));
        assert!(TieBreak::parse("XYZ").is_err());
        assert!(TieBreak::parse("WIN/C1").is_err());
        assert!(TieBreak::parse("BH/Cx").is_err());
        assert_eq!(
            TieBreak::parse_list("PTS, BH/C1,SB DE")
                .unwrap_or_default()
                .len(),
            4
        );
    }
}
