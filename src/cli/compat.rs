//! The reference engines' command lines, accepted literally so that a tool that drives
//! bbpPairings or JaVaFo can drive swisspair instead:
//!
//! ```text
//! swisspair [-r] (--dutch | --burstein | --fast) in.trf -p [out.txt]    pair the next round
//! swisspair [-r] (--dutch | --burstein | --fast) in.trf -c              check every round
//! swisspair [-r] (--dutch | --burstein | --fast) -g [config] -o out.trf [-s SEED]   generate
//! swisspair in.trf -p [out.txt]                                  JaVaFo's form: Dutch
//! ```
//!
//! `--burstein` pairs (and generates) with the Burstein profile `BBP` (bbpPairings' own
//! reading) unless the file sets another `profile`. `--fast` is the flag of bbpPairings'
//! fork for lichess (its greedy "Fast Swiss", which lichess runs above 700 players): here it
//! pairs with the exact Dutch system, which is fast enough at that size, and says so once
//! on standard error. The fork's `XXW <digits>` (player ids wider than 4 digits) is read in
//! every form (`trf/reader.rs`).
//!
//! A round that cannot be paired exits 1 with bbpPairings' `Error while pairing FILE: No
//! valid pairing exists: …` on standard error, the phrase lichess looks for.
//!
//! Exit codes are the engines' documented ones: 0 done, 1 no valid pairing, 2 unexpected
//! error, 3 invalid request, 5 file error. `-c` prints bbpPairings' report to the letter:
//! `STEM: Round #r` for every round checked (STEM: the file name without its extension),
//! for a round that differs its table (`  Checker pairings        Tournament pairings `,
//! then per pair of the record that the engine does not make, the engine's pair beside it,
//! both in board order, then a blank line), `No valid pairing exists for round r.` and a
//! blank line for a round that cannot be paired, and a closing blank line; it exits 0
//! (a round that cannot be paired is a discrepancy, not an error).
//! `-l [file]` writes bbpPairings' check-list file (`checklist.rs`: the layout; the values
//! from the system's `System::checklist`) with `-p`, `-c` (`Round #r` before each
//! round's table) and `-g` (`Round #r.`); `-r` (positional ids) is accepted and has no
//! effect: the pairing numbers of a TRF are its starting ranks. The generator reads the reference's
//! configuration keys (`PlayersNumber`, `RoundsNumber`, `DrawPercentage`, `ForfeitRate`,
//! `HalfPointByeRate`, `HighestRating`, `LowestRating`, `PointsForWin`, `PointsForDraw`,
//! `PointsForLoss`, `PointsForForfeitLoss`, `PointsForZPB`, `PointsForPAB`); the rates are
//! "one in N" as there (`RetiredRate`: the chance that a player withdraws). swisspair's
//! own keys give the rest of the checklist's RTG settings (VCL4THP Q24), with the values
//! of `swisspair simulate` (`N`, `P%`, `@R`, comma-separated): `FullPointByes`,
//! `HalfPointByes`, `ZeroPointByes`, `Forfeits`, `DoubleForfeits`, `HalfZero`, `ZeroHalf`,
//! `ZeroZero`, `Withdrawals`, `LateEntries`; `Model` (`tec` or `draw-rate`, the default
//! here, which `DrawPercentage` sets), `StrengthSigma`, `Acceleration` (`BAKU`) and
//! `TieBreaks` (record 202). Without `-s` the seed is 0: the same command gives the same
//! file.
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use swisspair::check::{self, CheckOptions};
use swisspair::model::{Colour, Score, Scoring, SystemId, Tournament};
use swisspair::pairing;
use swisspair::service::convert;
use swisspair::simulate::plan::Planned;
use swisspair::simulate::{self, ResultModel, SimConfig};
use swisspair::systems::common::board_order_key;
use swisspair::systems::{PairOptions, RoundPairing};

use super::CliError;
use super::args::{read_text, read_trf};
use super::checklist;
use super::output::{pair_list, write_output};

/// The subcommands of swisspair's own command line: anything else in first place is read
/// as an engine's form.
const SUBCOMMANDS: [&str; 9] = [
    "serve", "pair", "check", "validate", "simulate", "finals", "systems", "client", "help",
];

/// Whether the arguments (without the program name) are one of the engines' forms.
pub fn is_engine_form(args: &[OsString]) -> bool {
    let Some(first) = args.first().and_then(|a| a.to_str()) else {
        return false;
    };
    if SUBCOMMANDS.contains(&first) || matches!(first, "-h" | "--help" | "-V" | "--version") {
        return false;
    }
    let has = |flag: &str| args.iter().any(|a| a == flag);
    matches!(first, "--dutch" | "--burstein" | "--fast" | "-r")
        || has("-p")
        || has("-c")
        || has("-g")
}

enum Operation {
    Pair(Option<PathBuf>),
    Check,
    Generate {
        config: Option<PathBuf>,
        output: PathBuf,
        seed: u64,
    },
}

struct EngineArgs {
    system: SystemId,
    /// `--fast` was given (paired as `--dutch`).
    fast: bool,
    input: Option<PathBuf>,
    operation: Operation,
    /// `-l [file]`: the check-list is wanted, in the file named or the default one.
    checklist: Option<Option<String>>,
}

fn usage(what: &str) -> CliError {
    CliError::Invalid(format!(
        "{what}; usage: swisspair (--dutch | --burstein | --fast) in.trf (-p [out] | -c), or \
         (--dutch | --burstein | --fast) -g [config] -o out.trf [-s seed]"
    ))
}

fn parse(args: &[OsString]) -> Result<EngineArgs, CliError> {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            a.to_str()
                .map(str::to_string)
                .ok_or_else(|| usage(&format!("argument {a:?} is not valid text")))
        })
        .collect::<Result<_, _>>()?;
    // JaVaFo pairs by the Dutch system without being told.
    let mut system = SystemId::Dutch;
    let mut fast = false;
    let mut input = None;
    let (mut pair, mut check, mut generate) = (None, false, false);
    let (mut config, mut output, mut seed) = (None, None, 0u64);
    let mut checklist = None;
    let mut i = 0;
    // An optional value: the next argument unless it is a flag.
    let optional = |i: &mut usize| -> Option<String> {
        match args.get(*i + 1) {
            Some(v) if !v.starts_with('-') => {
                *i += 1;
                Some(v.clone())
            }
            _ => None,
        }
    };
    while i < args.len() {
        match args[i].as_str() {
            "--dutch" => (system, fast) = (SystemId::Dutch, false),
            "--burstein" => (system, fast) = (SystemId::Burstein, false),
            // bbpPairings' fork for lichess: its approximate "Fast Swiss"; here the Dutch.
            "--fast" => (system, fast) = (SystemId::Dutch, true),
            "-r" => {}
            "-l" => checklist = Some(optional(&mut i)),
            "-p" => pair = Some(optional(&mut i).map(PathBuf::from)),
            "-c" => check = true,
            "-g" => {
                generate = true;
                config = optional(&mut i).map(PathBuf::from);
            }
            "-o" => {
                output = Some(PathBuf::from(
                    optional(&mut i).ok_or_else(|| usage("-o needs a file name"))?,
                ))
            }
            "-s" => {
                let v = optional(&mut i).ok_or_else(|| usage("-s needs a seed"))?;
                seed = v
                    .parse()
                    .map_err(|_| usage(&format!("-s {v:?}: the seed is a whole number")))?;
            }
            flag if flag.starts_with('-') => return Err(usage(&format!("unknown flag {flag}"))),
            file if input.is_none() => input = Some(PathBuf::from(file)),
            extra => return Err(usage(&format!("unexpected argument {extra:?}"))),
        }
        i += 1;
    }
    let operation = match (pair, check, generate) {
        (Some(out), false, false) => Operation::Pair(out),
        (None, true, false) => Operation::Check,
        (None, false, true) => {
            if input.is_some() {
                return Err(usage(
                    "generating from a model file is not supported: give a configuration after -g",
                ));
            }
            Operation::Generate {
                config,
                output: output.ok_or_else(|| usage("-g needs -o with the output file"))?,
                seed,
            }
        }
        _ => return Err(usage("give exactly one of -p, -c and -g")),
    };
    if !matches!(operation, Operation::Generate { .. }) && input.is_none() {
        return Err(usage("give the tournament file"));
    }
    Ok(EngineArgs {
        system,
        fast,
        input,
        operation,
        checklist,
    })
}

/// Runs an engine form.
pub fn run(args: &[OsString]) -> Result<ExitCode, CliError> {
    let engine = parse(args)?;
    if engine.fast {
        eprintln!("{FAST_NOTE}");
    }
    match &engine.operation {
        Operation::Pair(out) => pair(&engine, out.as_deref()),
        Operation::Check => check(&engine),
        Operation::Generate {
            config,
            output,
            seed,
        } => generate(&engine, config.as_deref(), output, *seed),
    }
}

/// What `--fast` says on standard error, once.
pub const FAST_NOTE: &str = "swisspair: --fast pairs with the exact Dutch system (FIDE C.04.3), \
     which pairs a field of this size as fast as an approximate pairing would";

fn input(engine: &EngineArgs) -> Result<&Path, CliError> {
    engine
        .input
        .as_deref()
        .ok_or_else(|| usage("give the tournament file"))
}

/// bbpPairings' `--burstein` is its own (pre-2026) reading: the engine form pairs with the
/// Burstein profile `BBP` unless the file's options name a profile.
fn engine_tournament(engine: &EngineArgs, t: &mut swisspair::model::Tournament) {
    if engine.system == SystemId::Burstein && t.options.get("profile").is_none() {
        let _ = t.options.set("profile", "BBP");
    }
}

fn pair(engine: &EngineArgs, out: Option<&Path>) -> Result<ExitCode, CliError> {
    let mut doc = read_trf(input(engine)?)?;
    engine_tournament(engine, &mut doc.tournament);
    let options = PairOptions {
        system: Some(engine.system),
        ..PairOptions::default()
    };
    let answer = pairing::pair(&doc.tournament, &options);
    if let Some(given) = &engine.checklist {
        // Written even when the round cannot be paired (without the `Cur` column).
        let list = pairing::checklist(&doc.tournament, &options)?;
        let numbered = answer.as_ref().map_or_else(
            |_| pairing::numbered(&doc.tournament, None),
            |a| a.tournament.clone(),
        );
        let text = list.map_or_else(String::new, |l| {
            checklist::table(&numbered, &l, answer.as_ref().ok().map(|a| &a.pairing))
        });
        write_checklist(given.as_deref(), input(engine)?, text)?;
    }
    let answer = answer.map_err(|e| match CliError::from(e) {
        // bbpPairings' words, which a driver (lichess) reads to tell "no pairing" apart.
        CliError::NoPairing(m) => CliError::NoPairing(format!(
            "Error while pairing {}: No valid pairing exists: {m}",
            input(engine).map_or_else(|_| String::new(), |p| p.display().to_string())
        )),
        other => other,
    })?;
    for w in doc.points_warnings().iter().chain(&answer.pairing.warnings) {
        eprintln!("swisspair: warning: {w}");
    }
    let response = convert::pair::pair_answer(&answer);
    write_output(
        out.unwrap_or(Path::new("-")),
        &pair_list(&response.boards, &response.byes),
    )?;
    Ok(ExitCode::SUCCESS)
}

fn check(engine: &EngineArgs) -> Result<ExitCode, CliError> {
    let path = input(engine)?;
    let mut doc = read_trf(path)?;
    engine_tournament(engine, &mut doc.tournament);
    let options = CheckOptions {
        system: Some(engine.system),
        checklist: engine.checklist.is_some(),
        other_readings: false,
        ..CheckOptions::default()
    };
    let answer = check::run(&doc.tournament, &options)?;
    let report = &answer.report;
    for w in &report.warnings {
        eprintln!("swisspair: warning: {w}");
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let mut out = String::new();
    for r in &report.rounds {
        out.push_str(&format!("{stem}: Round #{}\n", r.round));
        match &r.engine {
            None => out.push_str(&format!(
                "No valid pairing exists for round {}.\n\n",
                r.round
            )),
            Some(engine) => out.push_str(&reference_table(&answer.tournament, r.round, engine)),
        }
    }
    out.push('\n');
    write_output(Path::new("-"), &out)?;
    if let Some(given) = &engine.checklist {
        let mut list = String::new();
        for r in &report.rounds {
            list.push_str(&format!("Round #{}\n", r.round));
            if let Some(l) = &r.checklist {
                list.push_str(&checklist::table(&answer.tournament, l, r.engine.as_ref()));
            }
        }
        write_checklist(given.as_deref(), path, list)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the check-list file (`-l`) with swisspair's stamp as its last line.
fn write_checklist(given: Option<&str>, base: &Path, mut text: String) -> Result<(), CliError> {
    text.push_str(&checklist::stamp());
    write_output(&checklist::path(given, base), &text)
}

/// A pair as the reference's checker lists it: white, black (the same player for a bye).
type RefPair = (usize, usize);

/// The reference checker's table for one round: the engine's pairs that the record does
/// not have, beside the record's pairs of the players concerned, in board order; empty
/// when the round agrees.
fn reference_table(t: &Tournament, number: u32, engine: &RoundPairing) -> String {
    let Some(recorded) = t.round(number) else {
        return String::new();
    };
    // Each player's recorded opponent (himself for an allocated bye) and colour.
    let mut record: Vec<Option<(usize, Option<Colour>)>> = vec![None; t.players.len()];
    let mut set = |p: usize, v: (usize, Option<Colour>)| {
        if let Some(slot) = record.get_mut(p) {
            *slot = Some(v);
        }
    };
    for g in &recorded.games {
        set(g.white, (g.black, Some(Colour::White)));
        set(g.black, (g.white, Some(Colour::Black)));
    }
    for b in recorded
        .byes
        .iter()
        .filter(|b| b.kind.is_pairing_allocated())
    {
        set(b.player, (b.player, None));
    }
    let mut correct: Vec<RefPair> = engine.boards.iter().map(|b| (b.white, b.black)).collect();
    correct.extend(
        engine
            .byes
            .iter()
            .filter(|b| b.kind.is_pairing_allocated())
            .map(|b| (b.player, b.player)),
    );
    let mut provided: Vec<RefPair> = Vec::new();
    let as_pair = |p: usize, (o, c): (usize, Option<Colour>)| -> RefPair {
        if c == Some(Colour::White) {
            (p, o)
        } else {
            (o, p)
        }
    };
    correct.retain(|&(w, b)| {
        let wm = record.get(w).copied().flatten();
        if let Some((o, c)) = wm
            && o == b
            && c != Some(Colour::Black)
        {
            return false;
        }
        if let Some(m) = wm
            && w <= m.0
        {
            provided.push(as_pair(w, m));
        }
        if b != w
            && let Some(m) = record.get(b).copied().flatten()
            && b <= m.0
        {
            provided.push(as_pair(b, m));
        }
        true
    });
    if correct.is_empty() {
        return String::new();
    }
    let points = t.points_after(number - 1);
    let key = |&(w, b): &RefPair| {
        let of = |p: usize| {
            (
                points.get(p).copied().unwrap_or(Score::ZERO),
                t.pairing_number(p),
            )
        };
        (w == b, board_order_key(of(w), of(b)))
    };
    provided.sort_by_key(key);
    correct.sort_by_key(key);
    let number_of = |p: usize| t.pairing_number(p).to_string();
    let pair = |(w, b): RefPair| {
        let black = if w == b {
            "0".to_string()
        } else {
            number_of(b)
        };
        format!("{:>3} - {:>3}", number_of(w), black)
    };
    let mut out = format!("  Checker pairings{:8}Tournament pairings \n", "");
    let mut checker = correct.into_iter();
    for p in provided {
        let left = checker.next().map_or_else(|| " ".repeat(9), pair);
        out.push_str(&format!("    {left}{:16}{}\n", "", pair(p)));
    }
    out.push('\n');
    out
}

/// The reference generator's configuration (`Key=Value` lines, `#` comments).
fn read_config(config: &mut SimConfig, text: &str, path: &Path) -> Result<(), CliError> {
    let mut points = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| {
            CliError::Invalid(format!("{}:{}: {what}: {line:?}", path.display(), n + 1))
        };
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| bad("expected Key=Value"))?;
        let value = value.trim();
        let number = || value.parse::<f64>().map_err(|_| bad("not a number"));
        let count = || value.parse::<u32>().map_err(|_| bad("not a whole number"));
        // "One in N": the reference's rates.
        let one_in = |n: f64| if n >= 1.0 { 1.0 / n } else { 0.0 };
        match key.trim() {
            "PlayersNumber" => config.players = count()?,
            "RoundsNumber" => config.rounds = count()?,
            "DrawPercentage" => config.draw_rate = (number()? / 100.0).clamp(0.0, 1.0),
            "ForfeitRate" => config.forfeit_rate = one_in(number()?),
            "HalfPointByeRate" | "HalfPointByteRate" => config.bye_request_rate = one_in(number()?),
            "HighestRating" => config.max_rating = count()?,
            "LowestRating" => config.min_rating = count()?,
            // The reference's chance that a player retires, "one in N" per player.
            "RetiredRate" => config.withdrawals = vec![Planned::share(one_in(number()?))],
            // swisspair's own keys (the RTG settings of VCL4THP Q24): `N`, `P%`, `@R` as
            // `swisspair simulate` reads them, comma-separated.
            key @ ("FullPointByes" | "HalfPointByes" | "ZeroPointByes" | "Forfeits"
            | "DoubleForfeits" | "HalfZero" | "ZeroHalf" | "ZeroZero" | "Withdrawals"
            | "LateEntries") => {
                let plans = value
                    .split(',')
                    .filter(|v| !v.trim().is_empty())
                    .map(Planned::parse)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| bad(&e))?;
                *match key {
                    "FullPointByes" => &mut config.full_point_byes,
                    "HalfPointByes" => &mut config.half_point_byes,
                    "ZeroPointByes" => &mut config.zero_point_byes,
                    "Forfeits" => &mut config.forfeits,
                    "DoubleForfeits" => &mut config.double_forfeits,
                    "HalfZero" => &mut config.half_zero,
                    "ZeroHalf" => &mut config.zero_half,
                    "ZeroZero" => &mut config.zero_zero,
                    "Withdrawals" => &mut config.withdrawals,
                    _ => &mut config.late_entries,
                } = plans;
            }
            "Model" => config.model = ResultModel::parse(value).map_err(|e| bad(&e))?,
            "StrengthSigma" => config.strength_sigma = number()?,
            "Acceleration" => config
                .options
                .set("acceleration", value)
                .map_err(|e| bad(&e))?,
            "TieBreaks" => config.tie_breaks = value.to_string(),
            key @ ("PointsForWin"
            | "PointsForDraw"
            | "PointsForLoss"
            | "PointsForForfeitLoss"
            | "PointsForZPB"
            | "PointsForPAB") => {
                let v = Score::from_points_f64(number()?).map_err(|e| bad(&e.to_string()))?;
                points.push((key.to_string(), v));
            }
            other => return Err(bad(&format!("unknown key {other}"))),
        }
    }
    let get = |k: &str| points.iter().find(|(key, _)| key == k).map(|&(_, v)| v);
    let base = Scoring::default();
    let mut scoring = Scoring::with_game_points(
        get("PointsForWin").unwrap_or(base.win),
        get("PointsForDraw").unwrap_or(base.draw),
        get("PointsForLoss").unwrap_or(base.loss),
    );
    if let Some(v) = get("PointsForForfeitLoss") {
        scoring.forfeit_loss = v;
        scoring.zero_point_bye = v;
    }
    if let Some(v) = get("PointsForZPB") {
        scoring.zero_point_bye = v;
    }
    if let Some(v) = get("PointsForPAB") {
        scoring.pab = v;
    }
    config.scoring = scoring;
    if config.min_rating > config.max_rating {
        return Err(CliError::Invalid(format!(
            "{}: LowestRating {} is above HighestRating {}",
            path.display(),
            config.min_rating,
            config.max_rating
        )));
    }
    Ok(())
}

fn generate(
    engine: &EngineArgs,
    config_file: Option<&Path>,
    output: &Path,
    seed: u64,
) -> Result<ExitCode, CliError> {
    let system = engine.system;
    let mut config = SimConfig::new(system, 30, 7, seed);
    if system == SystemId::Burstein {
        // As for pairing: the engine form's Burstein is bbpPairings' reading.
        let _ = config.options.set("profile", "BBP");
    }
    if let Some(path) = config_file {
        read_config(&mut config, &read_text(path)?, path)?;
    }
    let answer = simulate::run(&config)?;
    if let Some(given) = &engine.checklist {
        // Each round's check-list is that of the round as the generator paired it: the
        // engine re-pairs it from the rounds before, as it did while generating.
        let options = CheckOptions {
            system: Some(system),
            checklist: true,
            other_readings: false,
            ..CheckOptions::default()
        };
        let checked = check::run(&answer.tournament, &options)?;
        let mut list = String::new();
        for r in &checked.report.rounds {
            list.push_str(&format!("Round #{}.\n", r.round));
            if let Some(l) = &r.checklist {
                list.push_str(&checklist::table(&checked.tournament, l, r.engine.as_ref()));
            }
        }
        write_checklist(given.as_deref(), output, list)?;
    }
    let text = answer.trf().map_err(|e| CliError::Invalid(e.to_string()))?;
    write_output(output, &text)?;
    Ok(ExitCode::SUCCESS)
}
