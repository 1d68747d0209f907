//! TRF reader. Accepts CR, LF and CRLF line ends; never panics on malformed input.
use std::collections::HashMap;

use super::{EventDates, SystemCodes, TrfDocument, TrfError};
use crate::model::limits;
use crate::model::{
    Acceleration, Bye, ByeKind, Colour, ForbiddenPairing, Game, GameResult, NotRatedGame, Player,
    PlayerIdx, Round, Score, Scoring, Tournament,
};

/// One side of a game as a player line writes it.
#[derive(Clone, Copy, Debug)]
struct Side {
    opponent: u32,
    colour: char,
    code: char,
    line: usize,
    column: usize,
    /// The digits of the opponent field (4, or `XXW`'s): the colour is 2 columns after it,
    /// the result 4.
    width: usize,
}

impl Side {
    fn colour_column(&self) -> usize {
        self.column + self.width + 1
    }
    fn code_column(&self) -> usize {
        self.column + self.width + 3
    }
}

/// A bye-like record found in a header line (240, XXZ), applied once players are known.
struct ByeRecord {
    round: Option<u32>,
    rank: u32,
    kind: ByeKind,
    line: usize,
    column: usize,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        message: message.into(),
    }
}

/// Characters of columns `from..=to` (1-based), trimmed.
pub(crate) fn cols(chars: &[char], from: usize, to: usize) -> String {
    if from > chars.len() {
        return String::new();
    }
    let end = to.min(chars.len());
    chars[from - 1..end]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn col(chars: &[char], at: usize) -> char {
    chars.get(at - 1).copied().unwrap_or(' ')
}

/// Splits a text into lines at CR, LF or CRLF.
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Parses a whole number in a field, naming the field on error.
fn number(text: &str, what: &str, line: usize, column: usize) -> Result<u32, TrfError> {
    text.trim().parse::<u32>().map_err(|_| {
        err(
            line,
            column,
            format!("{what}: expected a whole number, found {text:?}"),
        )
    })
}

fn score(text: &str, what: &str, line: usize, column: usize) -> Result<Score, TrfError> {
    Score::parse(text).ok_or_else(|| {
        err(
            line,
            column,
            format!("{what}: expected points like 1.5, found {text:?}"),
        )
    })
}

/// Whitespace-separated tokens of a line after its 3-character code, with their columns.
fn tokens(chars: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut i = 3;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        out.push((start + 1, chars[start..i].iter().collect()));
    }
    out
}

/// Characters of an unreadable line shown when a text is not a TRF.
const NOT_TRF_SHOWN: usize = 20;

/// The digits of a player id (starting rank) in the fixed columns of a TRF: 4, unless an
/// `XXW <digits>` line says more.
pub const NARROW_ID_WIDTH: usize = 4;

/// The widest player ids an `XXW <digits>` line may announce (a starting rank is a `u32`).
pub const MAX_ID_WIDTH: usize = 9;

/// The columns of a player line (`001`) and of an `XXA` line whose player ids have `width`
/// digits. bbpPairings' fork for lichess (`XXW 7`) widens the starting rank (columns 5 to
/// 4 + width) and every round's opponent field (`width` columns, a bye zero-filled), and so
/// moves every later field right by `width - 4`; each round block is `width + 6` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlayerColumns {
    pub width: usize,
}

impl PlayerColumns {
    /// Column `c` (1-based) of TRF-16's four-digit layout, after the starting rank, in
    /// this layout.
    pub(crate) fn at(self, c: usize) -> usize {
        c + self.width - NARROW_ID_WIDTH
    }

    /// The last column of the starting rank (its first is 5).
    pub(crate) fn rank_end(self) -> usize {
        4 + self.width
    }

    /// The first column of round 1's block (TRF-16: 92).
    pub(crate) fn first_round(self) -> usize {
        self.at(92)
    }

    /// The columns of one round's block (TRF-16: 10).
    pub(crate) fn round_block(self) -> usize {
        self.width + 6
    }
}

/// The `XXW <digits>` line's value, if the line is one: `XXW` with a single token (the
/// withdrawal record `XXW <rank> <round>` has two).
fn width_token(chars: &[char]) -> Option<(usize, String)> {
    let code: String = chars.iter().take(3).collect();
    if code != "XXW" {
        return None;
    }
    match tokens(chars).as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The width of player ids a TRF text's `XXW <digits>` line announces (its first readable
/// one, wherever it stands), else 4: the reader applies it to every player line, before
/// or after it.
pub(crate) fn id_width<'a>(lines: impl IntoIterator<Item = &'a str>) -> usize {
    lines
        .into_iter()
        .filter(|l| l.starts_with("XXW"))
        .find_map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let (_, value) = width_token(&chars)?;
            value
                .parse::<usize>()
                .ok()
                .filter(|w| (NARROW_ID_WIDTH..=MAX_ID_WIDTH).contains(w))
        })
        .unwrap_or(NARROW_ID_WIDTH)
}

/// Reads a TRF text; the pairing systems (`codes`) read their record 192 code.
///
/// One pass over the lines, each record read by its own method ([`Reader::line`]), then
/// the passes that need every player ([`Reader::finish`]).
pub fn read(text: &str, codes: &dyn SystemCodes) -> Result<TrfDocument, TrfError> {
    let lines = lines(text);
    // The width of player ids first: an `XXW <digits>` line may follow the player lines.
    let mut reader = Reader::new(codes, id_width(lines.iter().copied()));
    for (index, raw) in lines.into_iter().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let chars: Vec<char> = raw.chars().collect();
        let line = Line {
            raw,
            code: chars.iter().take(3).collect(),
            chars,
            ln: index + 1,
        };
        reader.line(&line)?;
    }
    reader.finish(text)
}

/// One line of the file: its text, characters, record code (its first three characters)
/// and number.
struct Line<'a> {
    raw: &'a str,
    chars: Vec<char>,
    code: String,
    ln: usize,
}

/// A late entry or withdrawal record: the starting rank, the round, where it was written.
type RankRound = (u32, u32, usize, usize);

/// Virtual points of a record: rank, first and last round, points, where it was written.
type VirtualPoints = (u32, u32, u32, Score, usize, usize);

/// What the reader has read so far: the document, and the records that name players by
/// starting rank, resolved once every player is read.
struct Reader<'c> {
    doc: TrfDocument,
    codes: &'c dyn SystemCodes,
    /// A `BBU` line gave the PAB's points (else `BBW`'s apply).
    pab_given: bool,
    /// The record 192 code of a known system, read by that system once the dates are known.
    system_code: Option<(crate::model::SystemId, String)>,
    dates: EventDates,
    sides: Vec<Vec<Option<Side>>>,
    ranks: Vec<u32>,
    rank_line: Vec<usize>,
    bye_records: Vec<ByeRecord>,
    late: Vec<RankRound>,
    withdrawn: Vec<RankRound>,
    /// `XRR rank first_round rating`: (rank, first round, rating, line, column).
    round_ratings: Vec<(u32, u32, u32, usize, usize)>,
    forbidden: Vec<ForbiddenRecord>,
    accel: Vec<VirtualPoints>,
    /// `XCL` and `XGR` records: the record code, the starting rank, the text, where.
    clubs_groups: Vec<(bool, u32, String, usize, usize)>,
    /// `XTF`, `XTC` and `XTG` records (a team's federation, club, named group): the record
    /// code, the team pairing number, the text, where.
    team_groups: Vec<(String, u32, String, usize, usize)>,
    /// `XTM` records: the starting rank, the team id, where.
    memberships: Vec<(u32, String, usize, usize)>,
    /// `XRG` records: the starting rank, rated games, games in the period, reached 2400,
    /// where.
    rating_records: Vec<(u32, u32, Option<u32>, bool, usize, usize)>,
    team_records: super::team::TeamRecords,
    /// The first line with no record code this reader knows.
    unread: Option<usize>,
    /// The layout of player ids (`XXW <digits>`, found before the first pass).
    columns: PlayerColumns,
    /// A `092` (type of tournament, free text) that is exactly a record 192 code of a
    /// known system, as chesspairing writes it: the system when no `192` names one.
    code_092: Option<(crate::model::SystemId, String)>,
    /// `XXC rank`: pairing numbers are the players' positions in the file (trf.md §6.1).
    pairing_by_position: bool,
    /// The line of the first `XXW <digits>` read.
    width_line: Option<usize>,
}

impl<'c> Reader<'c> {
    fn new(codes: &'c dyn SystemCodes, width: usize) -> Reader<'c> {
        Reader {
            doc: TrfDocument::default(),
            codes,
            pab_given: false,
            system_code: None,
            dates: EventDates::default(),
            sides: Vec::new(),
            ranks: Vec::new(),
            rank_line: Vec::new(),
            bye_records: Vec::new(),
            late: Vec::new(),
            withdrawn: Vec::new(),
            round_ratings: Vec::new(),
            forbidden: Vec::new(),
            accel: Vec::new(),
            clubs_groups: Vec::new(),
            team_groups: Vec::new(),
            memberships: Vec::new(),
            rating_records: Vec::new(),
            team_records: super::team::TeamRecords::default(),
            unread: None,
            columns: PlayerColumns { width },
            width_line: None,
            code_092: None,
            pairing_by_position: false,
        }
    }

    /// Reads one line by its record code.
    fn line(&mut self, line: &Line) -> Result<(), TrfError> {
        match line.code.as_str() {
            "001" => self.player(line),
            "012" => self.name(line),
            // `TNR` (CPPDubovSystem's files): the total number of rounds, as `XXR`.
            "XXR" | "142" | "TNR" => self.rounds(line),
            "XXC" => self.colour_xxc(line),
            "152" => self.colour_152(line),
            "162" => self.scoring_162(line),
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => self.scoring_bb(line),
            "XXS" => self.scoring_xxs(line),
            "XXO" => self.settings(line),
            "192" => self.system(line),
            "092" => self.tournament_type(line),
            "042" => self.start_date(line),
            "240" => self.bye_240(line),
            "XXZ" => self.absent_xxz(line),
            "XXL" => self.late_or_withdrawn(line),
            "XRR" => self.round_rating_xrr(line),
            // One token: the width of player ids; two: a withdrawal.
            "XXW" if width_token(&line.chars).is_some() => self.id_width(line),
            "XXW" => self.late_or_withdrawn(line),
            "XXP" => self.forbidden_xxp(line),
            "260" => self.forbidden_260(line),
            "XXA" => self.virtual_points_xxa(line),
            "XSP" => self.separation_xsp(line),
            "XCL" | "XGR" => self.club_or_group(line),
            "XTF" | "XTC" | "XTG" => self.team_group(line),
            "XTM" => self.team_membership(line),
            "XRG" => self.rating_record(line),
            "250" => self.virtual_points_250(line),
            "300" | "310" | "013" | "320" | "330" | "352" | "362" => self.team(line),
            _ => self.unknown(line),
        }
    }

    /// A player line (`001`): the player, his starting rank, the points column and the round columns.
    fn player(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        let (player, rank, declared, row) = read_player(chars, ln, self.columns)?;
        if let Some(pos) = self.ranks.iter().position(|&r| r == rank) {
            return Err(err(
                ln,
                5,
                format!(
                    "starting rank {rank} is already used by the player on line {}",
                    self.rank_line[pos]
                ),
            ));
        }
        self.ranks.push(rank);
        self.rank_line.push(ln);
        t.players.push(player);
        doc.declared_points.push(declared);
        self.sides.push(row);
        Ok(())
    }

    /// `012`: the tournament name.
    fn name(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        t.name = cols(chars, 5, chars.len());
        if let Some(m) = limits::too_long(&t.name, limits::MAX_NAME_CHARS, "tournament name") {
            return Err(err(ln, 5, format!("012: {m}")));
        }
        Ok(())
    }

    /// `XXR` (bbp/JaVaFo) or `142` (TRF-16): the number of rounds.
    fn rounds(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            raw,
            ref chars,
            ref code,
            ln,
        } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        let value = cols(chars, 4, chars.len());
        match value.parse::<u32>() {
            Ok(n) if n > limits::MAX_ROUNDS => {
                let m = limits::too_many(n.into(), limits::MAX_ROUNDS.into(), "number of rounds");
                return Err(err(ln, 5, format!("{code}: {}", m.unwrap_or_default())));
            }
            Ok(n) => t.total_rounds = n,
            // The Istanbul-2012 meaning of 142 (arbiters), or a `TNR` that is not a
            // number: keep the line as it is.
            Err(_) if code == "142" || code == "TNR" => doc.other_lines.push(raw.to_string()),
            Err(_) => {
                return Err(err(
                    ln,
                    5,
                    format!("XXR: expected the number of rounds, found {value:?}"),
                ));
            }
        }
        Ok(())
    }

    /// `XXC`: the first-round colour (`white1`, `black1`); `rank` is kept as written.
    fn colour_xxc(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        let mut kept = false;
        for (c, tok) in tokens(chars) {
            match tok.to_ascii_lowercase().as_str() {
                "white1" => t.initial_colour = Some(Colour::White),
                "black1" => t.initial_colour = Some(Colour::Black),
                "rank" => kept = true,
                other => {
                    return Err(err(
                        ln,
                        c,
                        format!("XXC: unknown option {other:?} (white1, black1 or rank)"),
                    ));
                }
            }
        }
        if kept {
            // Kept for the writer; `finish` numbers the players by their position.
            doc.other_lines.push("XXC rank".to_string());
            self.pairing_by_position = true;
        }
        Ok(())
    }

    /// `152` (TRF-26): the first-round colour.
    fn colour_152(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ref chars, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        match cols(chars, 5, chars.len()).as_str() {
            "W" | "w" => t.initial_colour = Some(Colour::White),
            "B" | "b" => t.initial_colour = Some(Colour::Black),
            // Istanbul 2012: 152 listed appeals committee members.
            _ => doc.other_lines.push(raw.to_string()),
        }
        Ok(())
    }

    /// `162` (TRF-26): the points of each result.
    fn scoring_162(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ref chars, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        if !read_scoring_162(chars, &mut t.scoring) {
            // Istanbul 2012: 162 listed norm holders.
            doc.other_lines.push(raw.to_string());
        }
        Ok(())
    }

    /// `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU` (bbpPairings): the points of each result.
    fn scoring_bb(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            ref chars,
            ref code,
            ln,
            ..
        } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        let value = score(&cols(chars, 4, chars.len()), code, ln, 5)?;
        let s = &mut t.scoring;
        match code.as_str() {
            "BBW" => {
                s.win = value;
                s.forfeit_win = value;
                s.full_point_bye = value;
                // BBU defaults to the win value (bbpPairings, trf.md §6).
                if !self.pab_given {
                    s.pab = value;
                }
            }
            "BBD" => {
                s.draw = value;
                s.half_point_bye = value;
            }
            "BBL" => s.loss = value,
            "BBZ" => s.zero_point_bye = value,
            "BBF" => s.forfeit_loss = value,
            _ => {
                s.pab = value;
                self.pab_given = true;
            }
        }
        Ok(())
    }

    /// `XXS` (JaVaFo): the points of each result.
    fn scoring_xxs(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        read_xxs(chars, ln, &mut t.scoring)?;
        Ok(())
    }

    /// `XXO`: the system options.
    fn settings(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        super::settings::read_xxo(chars, ln, t)?;
        Ok(())
    }

    /// `192` (TRF-26): the pairing system, read by the system itself once the dates are known.
    fn system(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ref chars, .. } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        let value = cols(chars, 5, chars.len());
        let upper = value.trim().to_ascii_uppercase();
        match self.codes.system_of(&upper) {
            Some(id) => {
                t.unknown_system = None;
                t.system = Some(id);
                self.system_code = Some((id, upper));
            }
            None => {
                t.unknown_system = Some(value.trim().to_string());
                doc.other_lines.push(raw.to_string());
            }
        }
        Ok(())
    }

    /// `092`: the type of tournament, free text, kept as written. chesspairing writes the
    /// record 192 code here (`092 FIDE_DUTCH_2025`); a value that is exactly a code a
    /// system reads names the system when no `192` does (`finish`).
    fn tournament_type(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ref chars, .. } = line;
        let upper = cols(chars, 5, chars.len()).trim().to_ascii_uppercase();
        if let Some(id) = self.codes.system_of(&upper) {
            self.code_092 = Some((id, upper));
        }
        self.doc.other_lines.push(raw.to_string());
        Ok(())
    }

    /// `042`: the start date (kept as written; the Dutch edition follows it).
    fn start_date(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ref chars, .. } = line;
        let doc = &mut self.doc;
        self.dates.start = parse_date(&cols(chars, 5, chars.len()));
        doc.other_lines.push(raw.to_string());
        Ok(())
    }

    /// `240` (TRF-26): byes of a round.
    fn bye_240(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let kind = match col(chars, 5) {
            'F' | 'f' => ByeKind::FullPoint,
            'H' | 'h' => ByeKind::HalfPoint,
            'Z' | 'z' => ByeKind::ZeroPoint,
            other => {
                return Err(err(
                    ln,
                    5,
                    format!("240: bye type must be F, H or Z, found {other:?}"),
                ));
            }
        };
        let toks = tokens(chars);
        let Some((c, round)) = toks.get(1) else {
            return Err(err(ln, 7, "240: missing round number"));
        };
        let round = number(round, "240 round", ln, *c)?;
        for (c, id) in toks.iter().skip(2) {
            self.bye_records.push(ByeRecord {
                round: Some(round),
                rank: number(id, "240 player", ln, *c)?,
                kind,
                line: ln,
                column: *c,
            });
        }
        Ok(())
    }

    /// `XXZ`: players absent from the next round.
    fn absent_xxz(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        for (c, id) in tokens(chars) {
            self.bye_records.push(ByeRecord {
                round: None,
                rank: number(&id, "XXZ player", ln, c)?,
                kind: ByeKind::Absent,
                line: ln,
                column: c,
            });
        }
        Ok(())
    }

    /// `XXW <digits>` (bbpPairings' fork for lichess): player ids have that many digits in
    /// the player lines' fixed columns (and in `XXA`), a bye's opponent zero-filled. Read
    /// before the first pass ([`id_width`]); here each such line is checked.
    fn id_width(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let Some((c, value)) = width_token(chars) else {
            return Ok(());
        };
        let width = number(&value, "XXW width of player ids", ln, c)? as usize;
        if !(NARROW_ID_WIDTH..=MAX_ID_WIDTH).contains(&width) {
            return Err(err(
                ln,
                c,
                format!(
                    "XXW: player ids of {width} digits: the width is {NARROW_ID_WIDTH} to {MAX_ID_WIDTH} \
                     (XXW <rank> <round>, with two numbers, is a withdrawal)"
                ),
            ));
        }
        if width != self.columns.width {
            let first = self
                .width_line
                .map_or(String::new(), |l| format!(" on line {l}"));
            return Err(err(
                ln,
                c,
                format!(
                    "XXW: player ids of {width} digits, but {} digits{first}: a file has one width",
                    self.columns.width
                ),
            ));
        }
        self.width_line.get_or_insert(ln);
        Ok(())
    }

    /// `XXL`/`XXW`: a late entry or a withdrawal, by starting rank and round.
    fn late_or_withdrawn(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            ref chars,
            ref code,
            ln,
            ..
        } = line;
        let toks = tokens(chars);
        if toks.len() != 2 {
            let width = if code == "XXW" {
                " (or, alone, the number of digits of player ids)"
            } else {
                ""
            };
            return Err(err(
                ln,
                5,
                format!("{code}: expected a starting rank and a round{width}"),
            ));
        }
        let rank = number(&toks[0].1, &format!("{code} player"), ln, toks[0].0)?;
        let round = number(&toks[1].1, &format!("{code} round"), ln, toks[1].0)?;
        let list = if code == "XXL" {
            &mut self.late
        } else {
            &mut self.withdrawn
        };
        list.push((rank, round, ln, toks[0].0));
        Ok(())
    }

    /// `XRR rank first_round rating` (swisspair): the player's rating from that round on
    /// (`Player::round_ratings`, docs/formats.md).
    fn round_rating_xrr(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        if toks.len() != 3 {
            return Err(err(
                ln,
                5,
                "XRR: expected a starting rank, a first round and a rating",
            ));
        }
        let rank = number(&toks[0].1, "XRR player", ln, toks[0].0)?;
        let first = number(&toks[1].1, "XRR round", ln, toks[1].0)?;
        let rating = number(&toks[2].1, "XRR rating", ln, toks[2].0)?;
        self.round_ratings
            .push((rank, first, rating, ln, toks[0].0));
        Ok(())
    }

    /// `XXP`: a forbidden pairing for the whole event.
    fn forbidden_xxp(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let mut ids = Vec::new();
        for (c, id) in tokens(chars) {
            ids.push((number(&id, "XXP player", ln, c)?, ln, c));
        }
        self.forbidden.push((ids, None, None));
        Ok(())
    }

    /// `260` (TRF-26): a forbidden pairing over a round range.
    fn forbidden_260(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        if toks.len() < 2 {
            return Err(err(ln, 5, "260: expected a round range and players"));
        }
        let first = number(&toks[0].1, "260 first round", ln, toks[0].0)?;
        let last = number(&toks[1].1, "260 last round", ln, toks[1].0)?;
        let mut ids = Vec::new();
        for (c, id) in toks.iter().skip(2) {
            ids.push((number(id, "260 player", ln, *c)?, ln, *c));
        }
        self.forbidden.push((ids, Some(first), Some(last)));
        Ok(())
    }

    /// `XSP KEY MODE [FIRST LAST [TOP FROM]]` (swisspair): a separation (SEP-1..SEP-3);
    /// KEY is federation, club, team or a group prefix, MODE absolute, weak, weak-first or weak-last, 0 an open
    /// round or no exemption (docs/formats.md).
    fn separation_xsp(&mut self, line: &Line) -> Result<(), TrfError> {
        use crate::model::{Separation, SeparationKey, SeparationMode};
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        if !matches!(toks.len(), 2 | 4 | 6) {
            return Err(err(
                ln,
                5,
                "XSP: expected KEY MODE [FIRST LAST [TOP FROM]], e.g. XSP club absolute 1 3",
            ));
        }
        if self.doc.tournament.separations.len() >= limits::MAX_SEPARATIONS {
            let m = limits::too_many(
                (limits::MAX_SEPARATIONS + 1) as u64,
                limits::MAX_SEPARATIONS as u64,
                "number of separations",
            )
            .unwrap_or_default();
            return Err(err(ln, 1, format!("XSP: {m}")));
        }
        let (kc, key) = &toks[0];
        if let Some(m) = limits::too_long(key, limits::MAX_GROUP_CHARS, "group prefix") {
            return Err(err(ln, *kc, format!("XSP: {m}")));
        }
        let key = SeparationKey::parse(key).ok_or_else(|| {
            err(
                ln,
                *kc,
                format!("XSP: key {key:?}: federation, club, team or a group prefix"),
            )
        })?;
        let (mc, mode) = &toks[1];
        let mode = SeparationMode::parse(mode).ok_or_else(|| {
            err(
                ln,
                *mc,
                format!("XSP: mode {mode:?}: absolute, weak, weak-first or weak-last"),
            )
        })?;
        let mut numbers = Vec::new();
        for (c, text) in toks.iter().skip(2) {
            let n = number(text, "XSP round", ln, *c)?;
            if let Some(m) = limits::too_many(n.into(), limits::MAX_ROUNDS.into(), "round") {
                return Err(err(ln, *c, format!("XSP: {m}")));
            }
            numbers.push((n > 0).then_some(n));
        }
        let at = |i: usize| numbers.get(i).copied().flatten();
        self.doc.tournament.separations.push(Separation {
            key,
            mode,
            first_round: at(0),
            last_round: at(1),
            exempt_top_groups: at(2),
            exempt_from_round: at(3),
        });
        Ok(())
    }

    /// `XCL RANK CLUB` and `XGR RANK GROUP` (swisspair): a player's club, one of his
    /// named groups (the rest of the line, trimmed).
    fn club_or_group(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            ref chars,
            ref code,
            ln,
            ..
        } = line;
        let toks = tokens(chars);
        let Some((c, rank)) = toks.first() else {
            return Err(err(
                ln,
                5,
                format!("{code}: expected a starting rank and a text"),
            ));
        };
        let rank = number(rank, &format!("{code} player"), ln, *c)?;
        let start = (*c - 1 + toks[0].1.chars().count()).min(chars.len());
        let text: String = chars[start..].iter().collect::<String>().trim().to_string();
        let club = code == "XCL";
        let (max, what) = if club {
            (limits::MAX_NAME_CHARS, "club")
        } else {
            (limits::MAX_GROUP_CHARS, "group")
        };
        if text.is_empty() {
            return Err(err(
                ln,
                start + 1,
                format!("{code}: expected a {what} after the rank"),
            ));
        }
        if let Some(m) = limits::too_long(&text, max, what) {
            return Err(err(ln, start + 1, format!("{code}: {m}")));
        }
        self.clubs_groups.push((club, rank, text, ln, *c));
        Ok(())
    }

    /// `XTF TPN FED`, `XTC TPN CLUB` and `XTG TPN GROUP` (swisspair): a team's
    /// federation, club, one of its named groups (the rest of the line, trimmed), which a
    /// separation in a team event groups teams by (SEP-6; `310` has no column for them).
    fn team_group(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            ref chars,
            ref code,
            ln,
            ..
        } = line;
        let toks = tokens(chars);
        let Some((c, tpn)) = toks.first() else {
            return Err(err(
                ln,
                5,
                format!("{code}: expected a team pairing number and a text"),
            ));
        };
        let tpn = number(tpn, &format!("{code} team"), ln, *c)?;
        let start = (*c - 1 + toks[0].1.chars().count()).min(chars.len());
        let text: String = chars[start..].iter().collect::<String>().trim().to_string();
        let (max, what) = match code.as_str() {
            "XTF" => (limits::MAX_CODE_CHARS, "federation"),
            "XTC" => (limits::MAX_NAME_CHARS, "club"),
            _ => (limits::MAX_GROUP_CHARS, "group"),
        };
        if text.is_empty() {
            return Err(err(
                ln,
                start + 1,
                format!("{code}: expected a {what} after the team pairing number"),
            ));
        }
        if let Some(m) = limits::too_long(&text, max, what) {
            return Err(err(ln, start + 1, format!("{code}: {m}")));
        }
        self.team_groups.push((code.clone(), tpn, text, ln, *c));
        Ok(())
    }

    /// `XTM RANK TEAM` (swisspair): a player's team in an individual event (his
    /// `team_id`, a TEAM separation's group), written where `013` lines would not read back
    /// as an individual event's (every player rostered, a long team id).
    fn team_membership(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        let Some((c, rank)) = toks.first() else {
            return Err(err(ln, 5, "XTM: expected a starting rank and a team"));
        };
        let rank = number(rank, "XTM player", ln, *c)?;
        let start = (*c - 1 + toks[0].1.chars().count()).min(chars.len());
        let text: String = chars[start..].iter().collect::<String>().trim().to_string();
        if text.is_empty() {
            return Err(err(ln, start + 1, "XTM: expected a team after the rank"));
        }
        if let Some(m) = limits::too_long(&text, limits::MAX_ID_CHARS, "team id") {
            return Err(err(ln, start + 1, format!("XTM: {m}")));
        }
        self.memberships.push((rank, text, ln, *c));
        Ok(())
    }

    /// `XRG RANK GAMES [PERIOD] [2400]` (swisspair): a player's FIDE-rated games before the
    /// event (B.02 8.3.3's 30), his games in the rating period (n of K × n ≤ 700), and
    /// `2400` when his published rating has reached 2400 (docs/ratings.md).
    fn rating_record(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        let (Some((c, rank)), Some((gc, games))) = (toks.first(), toks.get(1)) else {
            return Err(err(
                ln,
                5,
                "XRG: expected a starting rank and the number of rated games",
            ));
        };
        let rank = number(rank, "XRG player", ln, *c)?;
        let games = number(games, "XRG rated games", ln, *gc)?;
        let mut period = None;
        let mut reached = false;
        for (c, tok) in toks.iter().skip(2) {
            if tok == "2400" && period.is_some() {
                reached = true;
            } else if period.is_none() {
                period = Some(number(tok, "XRG games in the period", ln, *c)?);
            } else {
                return Err(err(
                    ln,
                    *c,
                    format!("XRG: unexpected {tok:?} (the last field is 2400 or nothing)"),
                ));
            }
        }
        self.rating_records
            .push((rank, games, period, reached, ln, *c));
        Ok(())
    }

    /// `XXA`: a player's virtual points per round.
    fn virtual_points_xxa(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let columns = self.columns;
        let rank = number(&cols(chars, 5, columns.rank_end()), "XXA player", ln, 5)?;
        let mut round = 1;
        let mut c = columns.at(10);
        while c <= chars.len() {
            let field = cols(chars, c, c + 3);
            if !field.is_empty() {
                let points = score(&field, "XXA points", ln, c)?;
                self.accel.push((rank, round, round, points, ln, c));
            }
            round += 1;
            c += 5;
        }
        Ok(())
    }

    /// `250` (TRF-26): virtual points over a round and player range.
    fn virtual_points_250(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { ref chars, ln, .. } = line;
        let toks = tokens(chars);
        // MMMM GGGG RRF RRL IIII IIII: with an empty team-points field, five tokens.
        let (gp, rest) = match toks.len() {
            6 => (&toks[1], &toks[2..]),
            5 => (&toks[0], &toks[1..]),
            _ => {
                return Err(err(
                    ln,
                    5,
                    "250: expected points, a round range and a player range",
                ));
            }
        };
        let points = score(&gp.1, "250 points", ln, gp.0)?;
        let first = number(&rest[0].1, "250 first round", ln, rest[0].0)?;
        let last = number(&rest[1].1, "250 last round", ln, rest[1].0)?;
        let from = number(&rest[2].1, "250 first player", ln, rest[2].0)?;
        let to = number(&rest[3].1, "250 last player", ln, rest[3].0)?;
        for (value, max, what, at) in [
            (first, limits::MAX_ROUNDS, "first round", rest[0].0),
            (last, limits::MAX_ROUNDS, "last round", rest[1].0),
            (from, limits::MAX_PAIRING_NUMBER, "first player", rest[2].0),
            (to, limits::MAX_PAIRING_NUMBER, "last player", rest[3].0),
        ] {
            if let Some(m) = limits::too_many(value.into(), max.into(), what) {
                return Err(err(ln, at, format!("250: {m}")));
            }
        }
        for rank in from..=to.max(from) {
            self.accel.push((rank, first, last, points, ln, rest[2].0));
        }
        Ok(())
    }

    /// A team record (`300`, `310`, `013`, `320`, `330`, `352`, `362`).
    fn team(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line {
            ref chars,
            ref code,
            ln,
            ..
        } = line;
        let doc = &mut self.doc;
        let t = &mut doc.tournament;
        self.team_records.read(code, chars, ln, t)?;
        Ok(())
    }

    /// A record this reader does not interpret: kept verbatim.
    fn unknown(&mut self, line: &Line) -> Result<(), TrfError> {
        let &Line { raw, ln, .. } = line;
        let doc = &mut self.doc;
        self.unread.get_or_insert(ln);
        doc.other_lines.push(raw.to_string());
        Ok(())
    }

    /// The passes that need every player: the file is a TRF at all, the games both lines
    /// name, the byes of `240`/`XXZ`, blank rounds dropped, the records by starting rank,
    /// the team records, and last the system's reading of its record 192 code.
    fn finish(self, text: &str) -> Result<TrfDocument, TrfError> {
        let Reader {
            mut doc,
            codes,
            system_code,
            dates,
            sides,
            ranks,
            bye_records,
            late,
            withdrawn,
            round_ratings,
            forbidden,
            accel,
            clubs_groups,
            team_groups,
            memberships,
            rating_records,
            mut team_records,
            unread,
            code_092,
            pairing_by_position,
            ..
        } = self;
        // Bytes that are not a TRF: no player line, and a line no record explains.
        if ranks.is_empty()
            && let Some(line) = unread
        {
            return Err(not_a_trf(text, line));
        }
        let ranked = Ranked::new(&ranks);
        let t = &mut doc.tournament;
        games(t, &sides, &ranked)?;
        byes(t, bye_records, &ranked)?;
        // Round columns that are blank for every player record nothing.
        while t
            .rounds
            .last()
            .is_some_and(|r| r.games.is_empty() && r.byes.is_empty())
        {
            t.rounds.pop();
        }
        entries_and_withdrawals(t, late, withdrawn, &ranked)?;
        ratings_by_round(t, round_ratings, &ranked)?;
        forbidden_pairings(t, forbidden, &ranked)?;
        virtual_points(t, accel, &ranked)?;
        clubs_and_groups(t, clubs_groups, &ranked)?;
        for (rank, games, period, reached, line, column) in rating_records {
            let p = ranked.find(rank, line, column)?;
            let player = &mut t.players[p];
            player.rated_games = Some(games);
            player.period_games = period.filter(|&n| n > 0);
            player.reached_2400 = reached;
        }
        if team_records.only_013_for_some_players(ranks.len(), t.system) {
            // An individual event with `013` lines (JaVaFo's AUM sample, py4swiss's
            // javafo_example.trf): the rosters leave players out, so they are not a team
            // event's; the players are paired one by one, and each rostered player's team
            // is his group for a TEAM separation (SEP-1, SEP-5). The lines are not kept
            // verbatim: the writer writes the players' teams back from their `team_id`s
            // (`team::individual_team_lines`), so that a read, write and read agree.
            team_records
                .individual_teams(t, &|rank, line, column| ranked.find(rank, line, column))?;
            doc.notes.push(
                "013 records name only some of the players: read as an individual event; a player's 013 team is his team for separations (XSP team ...)".to_string(),
            );
        }
        team_records.finish(t, &|rank, line, column| ranked.find(rank, line, column))?;
        for (rank, team, line, column) in memberships {
            if t.is_team_event() {
                return Err(err(
                    line,
                    1,
                    "XTM: a player's team in an individual event; a team event's rosters are its 310 or 013 records",
                ));
            }
            let p = ranked.find(rank, line, column)?;
            t.players[p].team_id = team;
        }
        team_groups_of(t, team_groups)?;
        let system_code = match (system_code, code_092) {
            (None, Some((id, code))) if t.system.is_none() && t.unknown_system.is_none() => {
                // Silently, as a `192` would be read: the answer names the system.
                t.system = Some(id);
                Some((id, code))
            }
            (code, _) => code,
        };
        if let Some((id, code)) = system_code {
            let notes = codes.read(id, &code, &dates, t);
            doc.notes.extend(notes);
        }
        if pairing_by_position {
            // `XXC rank` (JaVaFo): pairing numbers follow the order of the player lines,
            // not the starting ranks (trf.md §6.1).
            for (position, player) in t.players.iter_mut().enumerate() {
                player.pairing_number = Some(position as u32 + 1);
            }
        } else if let Some(gap) = rank_gap(&ranks) {
            doc.notes.push(gap);
        }
        Ok(doc)
    }
}

/// A warning when the starting ranks are not 1 to the number of players: a rank no player
/// line has (the pairing numbers are the ranks as written, C.04.2 2.1 numbers players
/// 1..n).
fn rank_gap(ranks: &[u32]) -> Option<String> {
    let n = ranks.len() as u32;
    if ranks.iter().all(|&r| (1..=n).contains(&r)) {
        // n distinct ranks (a repeated rank is refused) within 1..=n: exactly 1..=n.
        return None;
    }
    let used: std::collections::BTreeSet<u32> = ranks.iter().copied().collect();
    let top = used.last().copied().unwrap_or(0);
    let missing: Vec<u32> = (1..=top).filter(|r| !used.contains(r)).collect();
    let shown: Vec<String> = missing.iter().take(10).map(u32::to_string).collect();
    Some(format!(
        "the starting ranks of the {n} player lines leave a gap: no player has rank {}{}; the ranks as written are the pairing numbers",
        shown.join(", "),
        if missing.len() > 10 {
            format!(" (and {} more)", missing.len() - 10)
        } else {
            String::new()
        }
    ))
}

/// The error for bytes that are not a TRF: no player line, and `line` no record explains.
fn not_a_trf(text: &str, line: usize) -> TrfError {
    let start: String = lines(text)
        .get(line - 1)
        .map(|l| l.chars().take(NOT_TRF_SHOWN).collect())
        .unwrap_or_default();
    err(
        line,
        1,
        format!(
            "not a TRF: no player (001) line; line {line} could not be read: it starts {start:?}"
        ),
    )
}

/// The players by starting rank, for the records that name them so.
struct Ranked<'a> {
    ranks: &'a [u32],
    by_rank: HashMap<u32, PlayerIdx>,
}

impl<'a> Ranked<'a> {
    fn new(ranks: &'a [u32]) -> Ranked<'a> {
        Ranked {
            ranks,
            by_rank: ranks.iter().enumerate().map(|(i, &r)| (r, i)).collect(),
        }
    }

    /// The player of starting rank `rank`, or the error at the record's place.
    fn find(&self, rank: u32, line: usize, column: usize) -> Result<PlayerIdx, TrfError> {
        self.by_rank
            .get(&rank)
            .copied()
            .ok_or_else(|| err(line, column, format!("no player has starting rank {rank}")))
    }
}

/// Games: each side names the other; both lines must agree.
fn games(t: &mut Tournament, sides: &[Vec<Option<Side>>], ranked: &Ranked) -> Result<(), TrfError> {
    let ranks = ranked.ranks;
    let n_rounds = sides.iter().map(Vec::len).max().unwrap_or(0);
    t.rounds = vec![Round::default(); n_rounds];
    for (p, row) in sides.iter().enumerate() {
        for (r, side) in row.iter().enumerate() {
            let Some(side) = side else { continue };
            let round = r as u32 + 1;
            if side.opponent == 0 {
                let kind = bye_kind(side)?;
                t.rounds[r].byes.push(Bye { player: p, kind });
                continue;
            }
            let q = ranked.find(side.opponent, side.line, side.column)?;
            if q == p {
                return Err(err(
                    side.line,
                    side.column,
                    format!("round {round}: player {} plays against himself", ranks[p]),
                ));
            }
            let other = sides[q].get(r).copied().flatten();
            let Some(other) = other.filter(|o| o.opponent == ranks[p]) else {
                return Err(err(
                    side.line,
                    side.column,
                    format!(
                        "round {round}: player {} names {} as opponent, but player {}'s line does not name {}",
                        ranks[p], ranks[q], ranks[q], ranks[p]
                    ),
                ));
            };
            // Each game once, from its first-listed side.
            if q < p {
                continue;
            }
            let game = make_game(p, side, q, &other, round, ranks[p], ranks[q])?;
            // `W`/`D`/`L` (on either side): a game of under one move, not rated.
            let unrated_code = |c: char| matches!(c, 'W' | 'D' | 'L');
            if (unrated_code(side.code) || unrated_code(other.code))
                && matches!(
                    game.result,
                    GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins
                )
            {
                t.not_rated_games.push(NotRatedGame {
                    round,
                    white: game.white,
                    black: game.black,
                });
            }
            t.rounds[r].games.push(game);
        }
    }
    Ok(())
}

/// The byes of `240` and `XXZ` records, unless the round columns already say so.
fn byes(t: &mut Tournament, records: Vec<ByeRecord>, ranked: &Ranked) -> Result<(), TrfError> {
    for b in records {
        let p = ranked.find(b.rank, b.line, b.column)?;
        let round = match b.round {
            Some(r) => r,
            None => t.rounds_paired() + 1,
        };
        if round == 0 {
            return Err(err(b.line, b.column, "round numbers start at 1"));
        }
        let r = round as usize - 1;
        if t.rounds.len() <= r {
            t.rounds.resize(r + 1, Round::default());
        }
        let round_data = &mut t.rounds[r];
        let already = round_data.byes.iter().any(|x| x.player == p)
            || round_data
                .games
                .iter()
                .any(|g| g.white == p || g.black == p);
        if already {
            // The same fact in the round columns and in a 240/XXZ record: keep one.
            continue;
        }
        round_data.byes.push(Bye {
            player: p,
            kind: b.kind,
        });
    }
    Ok(())
}

/// `XXL` late entries and `XXW` withdrawals.
fn entries_and_withdrawals(
    t: &mut Tournament,
    late: Vec<RankRound>,
    withdrawn: Vec<RankRound>,
    ranked: &Ranked,
) -> Result<(), TrfError> {
    for (rank, round, line, column) in late {
        let p = ranked.find(rank, line, column)?;
        t.players[p].late_entry_round = Some(round);
    }
    for (rank, round, line, column) in withdrawn {
        let p = ranked.find(rank, line, column)?;
        t.players[p].withdrawn_from_round = Some(round);
    }
    Ok(())
}

/// `XRR` ratings by round, checked as the API checks `Player.round_ratings`.
fn ratings_by_round(
    t: &mut Tournament,
    records: Vec<(u32, u32, u32, usize, usize)>,
    ranked: &Ranked,
) -> Result<(), TrfError> {
    let mut lines: Vec<Vec<usize>> = vec![Vec::new(); t.players.len()];
    for (rank, first, rating, line, column) in records {
        let p = ranked.find(rank, line, column)?;
        if t.players[p].round_ratings.len() >= limits::MAX_ROUNDS as usize {
            return Err(err(
                line,
                1,
                format!("XRR: player {rank}: more ratings than rounds"),
            ));
        }
        t.players[p].round_ratings.push((first, rating));
        lines[p].push(line);
    }
    for (p, player) in t.players.iter().enumerate() {
        if let Some((j, message)) = player
            .round_ratings_problems(t.total_rounds)
            .into_iter()
            .next()
        {
            let line = lines[p].get(j).copied().unwrap_or(0);
            return Err(err(
                line,
                1,
                format!("XRR: player {}: {message}", player.id),
            ));
        }
    }
    Ok(())
}

/// `XCL` clubs and `XGR` groups, by starting rank.
fn clubs_and_groups(
    t: &mut Tournament,
    records: Vec<(bool, u32, String, usize, usize)>,
    ranked: &Ranked,
) -> Result<(), TrfError> {
    for (club, rank, text, line, column) in records {
        let p = ranked.find(rank, line, column)?;
        let player = &mut t.players[p];
        if club {
            player.club = text;
        } else {
            if player.groups.len() >= limits::MAX_GROUPS_PER_PLAYER {
                let m = limits::too_many(
                    (limits::MAX_GROUPS_PER_PLAYER + 1) as u64,
                    limits::MAX_GROUPS_PER_PLAYER as u64,
                    "number of groups",
                )
                .unwrap_or_default();
                return Err(err(line, 1, format!("XGR: player {rank}: {m}")));
            }
            player.groups.push(text);
        }
    }
    Ok(())
}

/// `XTF` federations, `XTC` clubs and `XTG` groups, by team pairing number (SEP-6).
fn team_groups_of(
    t: &mut Tournament,
    records: Vec<(String, u32, String, usize, usize)>,
) -> Result<(), TrfError> {
    for (code, tpn, text, line, column) in records {
        let Some(i) = t.team_by_tpn(tpn).filter(|_| t.is_team_event()) else {
            return Err(err(
                line,
                column,
                format!("{code}: no team has pairing number {tpn} (team records are 310 or 013)"),
            ));
        };
        let team = &mut t.teams[i];
        match code.as_str() {
            "XTF" => team.federation = text,
            "XTC" => team.club = text,
            _ => {
                if team.groups.len() >= limits::MAX_GROUPS_PER_PLAYER {
                    let m = limits::too_many(
                        (limits::MAX_GROUPS_PER_PLAYER + 1) as u64,
                        limits::MAX_GROUPS_PER_PLAYER as u64,
                        "number of groups",
                    )
                    .unwrap_or_default();
                    return Err(err(line, 1, format!("XTG: team {tpn}: {m}")));
                }
                team.groups.push(text);
            }
        }
    }
    Ok(())
}

/// `XXP` and `260` forbidden pairings.
fn forbidden_pairings(
    t: &mut Tournament,
    forbidden: Vec<ForbiddenRecord>,
    ranked: &Ranked,
) -> Result<(), TrfError> {
    for (ids, first, last) in forbidden {
        let mut players = Vec::new();
        for (rank, line, column) in ids {
            players.push(ranked.find(rank, line, column)?);
        }
        t.forbidden_pairings.push(ForbiddenPairing {
            players,
            first_round: first,
            last_round: last,
        });
    }
    Ok(())
}

/// `XXA` and `250` virtual points, consecutive rounds with the same points as one range.
fn virtual_points(
    t: &mut Tournament,
    accel: Vec<VirtualPoints>,
    ranked: &Ranked,
) -> Result<(), TrfError> {
    for (rank, first, last, points, line, column) in accel {
        let player = ranked.find(rank, line, column)?;
        if points == Score::ZERO {
            continue;
        }
        if let Some(prev) = t.accelerations.last_mut()
            && prev.player == player
            && prev.points == points
            && prev.last_round + 1 == first
        {
            prev.last_round = last;
            continue;
        }
        t.accelerations.push(Acceleration {
            player,
            first_round: first,
            last_round: last,
            points,
        });
    }
    Ok(())
}

/// Players (rank, line, column) of a forbidden-pairing record and its round range.
type ForbiddenRecord = (Vec<(u32, usize, usize)>, Option<u32>, Option<u32>);

type PlayerRow = (Player, u32, Option<Score>, Vec<Option<Side>>);

fn read_player(chars: &[char], ln: usize, columns: PlayerColumns) -> Result<PlayerRow, TrfError> {
    let at = |c: usize| columns.at(c);
    let rank_end = columns.rank_end();
    let rank_text = cols(chars, 5, rank_end);
    let rank = number(
        &rank_text,
        &format!("starting rank (columns 5-{rank_end})"),
        ln,
        5,
    )?;
    if rank == 0 {
        return Err(err(ln, 5, "starting ranks start at 1"));
    }
    if let Some(m) = limits::too_many(
        rank.into(),
        limits::MAX_PAIRING_NUMBER.into(),
        "starting rank",
    ) {
        return Err(err(ln, 5, m));
    }
    let rating_text = cols(chars, at(49), at(52));
    let rating = if rating_text.is_empty() {
        0
    } else {
        number(
            &rating_text,
            &format!("rating (columns {}-{})", at(49), at(52)),
            ln,
            at(49),
        )?
    };
    let points_text = cols(chars, at(81), at(84));
    let declared = if points_text.is_empty() {
        None
    } else {
        Some(score(
            &points_text,
            &format!("points (columns {}-{})", at(81), at(84)),
            ln,
            at(81),
        )?)
    };
    let player = Player {
        id: rank.to_string(),
        name: cols(chars, at(15), at(47)),
        rating,
        title: cols(chars, at(11), at(13)),
        federation: cols(chars, at(54), at(56)),
        fide_id: cols(chars, at(58), at(68)),
        sex: cols(chars, at(10), at(10)),
        birth_date: cols(chars, at(70), at(79)),
        pairing_number: Some(rank),
        ..Player::default()
    };
    // A round block: the opponent (`width` columns), a space, the colour, a space, the result.
    let width = columns.width;
    let (colour_at, code_at) = (width + 1, width + 3);
    let mut row = Vec::new();
    let mut base = columns.first_round();
    while base <= chars.len() {
        let opponent_text = cols(chars, base, base + width - 1);
        let colour = col(chars, base + colour_at).to_ascii_lowercase();
        let code = col(chars, base + code_at).to_ascii_uppercase();
        if opponent_text.is_empty() && colour == ' ' && code == ' ' {
            row.push(None);
        } else if row.len() >= limits::MAX_ROUNDS as usize {
            return Err(err(
                ln,
                base,
                format!(
                    "round {}: more rounds than the limit of {}",
                    row.len() + 1,
                    limits::MAX_ROUNDS
                ),
            ));
        } else {
            let opponent = if opponent_text.is_empty() {
                0
            } else {
                number(&opponent_text, "opponent (round columns)", ln, base)?
            };
            if !matches!(colour, 'w' | 'b' | '-' | ' ') {
                return Err(err(
                    ln,
                    base + colour_at,
                    format!("colour must be w, b or -, found {colour:?}"),
                ));
            }
            if !matches!(
                code,
                '1' | '=' | '0' | '+' | '-' | 'W' | 'D' | 'L' | 'H' | 'F' | 'U' | 'Z' | 'V' | ' '
            ) {
                return Err(err(
                    ln,
                    base + code_at,
                    format!("unknown result code {code:?}"),
                ));
            }
            row.push(Some(Side {
                opponent,
                colour,
                code,
                line: ln,
                column: base,
                width,
            }));
        }
        base += columns.round_block();
    }
    Ok((player, rank, declared, row))
}

fn bye_kind(side: &Side) -> Result<ByeKind, TrfError> {
    if matches!(side.colour, 'w' | 'b') {
        return Err(err(
            side.line,
            side.colour_column(),
            format!("a bye (0000) has no colour, found {:?}", side.colour),
        ));
    }
    Ok(match side.code {
        'U' => ByeKind::Pab,
        'H' | '=' => ByeKind::HalfPoint,
        'F' | '+' => ByeKind::FullPoint,
        'Z' | '-' => ByeKind::ZeroPoint,
        ' ' => ByeKind::Absent,
        // swisspair's code for a backgammon win against the phantom "[absent]" (BG-3).
        'V' => ByeKind::AbsentOpponent,
        other => {
            return Err(err(
                side.line,
                side.code_column(),
                format!("result {other:?} on a bye (0000): a bye is U, H, F, Z or V"),
            ));
        }
    })
}

fn make_game(
    p: PlayerIdx,
    a: &Side,
    q: PlayerIdx,
    b: &Side,
    round: u32,
    rank_a: u32,
    rank_b: u32,
) -> Result<Game, TrfError> {
    for s in [a, b] {
        if matches!(s.code, 'H' | 'F' | 'U' | 'Z' | 'V') {
            return Err(err(
                s.line,
                s.code_column(),
                format!(
                    "round {round}: result {:?} is a bye code but the round names an opponent",
                    s.code
                ),
            ));
        }
    }
    // Who had White: either side may say so; forfeits may leave it as '-'.
    let a_white = match (a.colour, b.colour) {
        ('w', 'b') | ('w', '-' | ' ') | ('-' | ' ', 'b') => true,
        ('b', 'w') | ('b', '-' | ' ') | ('-' | ' ', 'w') => false,
        ('-' | ' ', '-' | ' ') => true,
        _ => {
            return Err(err(
                a.line,
                a.colour_column(),
                format!(
                    "round {round}: players {rank_a} and {rank_b} both have colour {:?}",
                    a.colour
                ),
            ));
        }
    };
    let (w, bl) = if a_white { (a, b) } else { (b, a) };
    let result = match (w.code, bl.code) {
        ('1' | 'W', '0' | 'L') => GameResult::WhiteWins,
        ('0' | 'L', '1' | 'W') => GameResult::BlackWins,
        ('=' | 'D', '=' | 'D') => GameResult::Draw,
        ('+', '-') => GameResult::WhiteWinsForfeit,
        ('-', '+') => GameResult::BlackWinsForfeit,
        ('-', '-') => GameResult::DoubleForfeit,
        // Unusual scores of a played game (½-0, 0-½, 0-0): each side writes its own points.
        ('=', '0') => GameResult::WhiteHalfBlackZero,
        ('0', '=') => GameResult::WhiteZeroBlackHalf,
        ('0', '0') => GameResult::BothLose,
        (' ', ' ') => GameResult::Pending,
        (x, y) => {
            return Err(err(
                a.line,
                a.code_column(),
                format!(
                    "round {round}: results of players {rank_a} and {rank_b} disagree ({x:?} and {y:?})"
                ),
            ));
        }
    };
    if result.is_played() && (w.colour != 'w' || bl.colour != 'b') {
        return Err(err(
            a.line,
            a.colour_column(),
            format!(
                "round {round}: a played game needs colours w and b (players {rank_a} and {rank_b})"
            ),
        ));
    }
    let (white, black) = if a_white { (p, q) } else { (q, p) };
    Ok(Game {
        white,
        black,
        result,
        board: None,
    })
}

/// TRF-26 record 162: symbol and points pairs (`162  W 3.0    D 1.0`). Returns false when
/// the line is not a scoring record (the Istanbul-2012 norm-holders line).
fn read_scoring_162(chars: &[char], s: &mut Scoring) -> bool {
    // The table's layout: symbol at column 6, points at 7-10, then every 9 columns. Some
    // writers only separate the fields by spaces, so fall back to tokens.
    let mut parsed = Vec::new();
    let mut at = 6;
    while at <= chars.len() && col(chars, at) != ' ' {
        let symbol = col(chars, at).to_ascii_uppercase().to_string();
        match Score::parse(&cols(chars, at + 1, at + 4)) {
            Some(points) if matches!(symbol.as_str(), "W" | "D" | "L" | "A" | "P" | "X") => {
                parsed.push((symbol, points));
            }
            _ => {
                parsed.clear();
                break;
            }
        }
        at += 9;
    }
    if parsed.is_empty() {
        let toks: Vec<String> = tokens(chars).into_iter().map(|(_, t)| t).collect();
        if toks.is_empty() || !toks.len().is_multiple_of(2) {
            return false;
        }
        for pair in toks.chunks(2) {
            let symbol = pair[0].to_ascii_uppercase();
            let Some(points) = Score::parse(&pair[1]) else {
                return false;
            };
            if !matches!(symbol.as_str(), "W" | "D" | "L" | "A" | "P" | "X") {
                return false;
            }
            parsed.push((symbol, points));
        }
    }
    for (symbol, points) in parsed {
        match symbol.as_str() {
            "W" => {
                s.win = points;
                s.forfeit_win = points;
                s.full_point_bye = points;
                s.pab = points;
            }
            "D" => {
                s.draw = points;
                s.half_point_bye = points;
            }
            "L" => s.loss = points,
            "A" => {
                s.zero_point_bye = points;
                s.forfeit_loss = points;
            }
            "P" => s.pab = points,
            // X (unknown or adjourned) counts as a draw: nothing of its own to set.
            _ => {}
        }
    }
    true
}

/// JaVaFo's `XXS CODE=VALUE …`.
fn read_xxs(chars: &[char], ln: usize, s: &mut Scoring) -> Result<(), TrfError> {
    for (c, tok) in tokens(chars) {
        let Some((key, value)) = tok.split_once('=') else {
            return Err(err(
                ln,
                c,
                format!("XXS: expected CODE=VALUE, found {tok:?}"),
            ));
        };
        let points = score(value, "XXS points", ln, c)?;
        match key.to_ascii_uppercase().as_str() {
            "W" | "WW" | "BW" => {
                s.win = points;
            }
            "D" | "WD" | "BD" => s.draw = points,
            "L" | "WL" | "BL" => s.loss = points,
            "FW" => s.forfeit_win = points,
            "FL" => s.forfeit_loss = points,
            "ZPB" => s.zero_point_bye = points,
            "HPB" => s.half_point_bye = points,
            "FPB" => s.full_point_bye = points,
            "PAB" => s.pab = points,
            other => return Err(err(ln, c, format!("XXS: unknown code {other:?}"))),
        }
    }
    Ok(())
}

/// A date as TRF files write it (`2025/06/14`, `2025-06-14`, `14.06.2025`, `14/06/2025`):
/// (year, month, day), or `None`.
fn parse_date(text: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<&str> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let (y, m, d) = if a.len() == 4 {
        (a, b, c)
    } else if c.len() == 4 {
        (c, b, a)
    } else {
        return None;
    };
    let (y, m, d): (u32, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}
