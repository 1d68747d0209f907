//! The layering ARCHITECTURE.md states: the pairing core knows nothing of gRPC, and only the
//! pipeline resolves systems by id; the layers import one way, each only those below it.
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_core_does_not_know_grpc() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for layer in [
        "model",
        "trf",
        "matching",
        "systems",
        "check",
        "simulate",
        "pairing",
        "standings",
        "audit",
    ] {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has no Rust files");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            for needle in ["tonic::", "crate::proto", "crate::service", "use tonic"] {
                if text.contains(needle) {
                    offenders.push(format!("{} uses {needle}", f.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The crate's top-level modules (`src/lib.rs`).
const MODULES: [&str; 13] = [
    "allocator",
    "audit",
    "cancel",
    "check",
    "matching",
    "model",
    "pairing",
    "proto",
    "service",
    "simulate",
    "standings",
    "systems",
    "trf",
];

/// Each layer of the library, bottom up, with the top-level modules its files may name: only
/// layers below it (and `cancel`, the leaf cancellation token). The single-round pipeline
/// (`pairing`) is the floor the checker, manual validation and the simulator stand on; the
/// systems never call the pipeline; the checker and the simulator do not call each other.
/// What the layers standing on the pipeline (the checker, the simulator) may name.
const ON_THE_PIPELINE: &[&str] = &[
    "cancel",
    "model",
    "matching",
    "trf",
    "standings",
    "systems",
    "pairing",
];

/// The audit stands on the checker.
const AUDIT: &[&str] = &[
    "cancel",
    "model",
    "matching",
    "trf",
    "standings",
    "systems",
    "pairing",
    "check",
];

const LAYERS: [(&str, &[&str]); 9] = [
    ("model", &[]),
    ("matching", &["cancel"]),
    ("trf", &["model"]),
    ("standings", &["model", "trf"]),
    (
        "systems",
        &["cancel", "model", "matching", "trf", "standings"],
    ),
    (
        "pairing",
        &["cancel", "model", "matching", "trf", "standings", "systems"],
    ),
    ("check", ON_THE_PIPELINE),
    ("simulate", ON_THE_PIPELINE),
    ("audit", AUDIT),
];

/// The text without line comments (doc links to other layers are no imports).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifier at the start of `rest`.
fn ident(rest: &str) -> &str {
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The first names of the items of a `{...}` group at the start of `rest`
/// (`{check, pairing::Resolved}` gives `check`, `pairing`).
fn group_heads(rest: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => {
                depth += 1;
                start = depth == 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => start = true,
            c if c.is_whitespace() => {}
            _ if start && depth == 1 => {
                heads.push(ident(&rest[i..]));
                start = false;
            }
            _ => start = false,
        }
    }
    heads
}

/// The crate's top-level modules a file names: `crate::X`, `crate::{X, ..}`, and `super::X`
/// where the `super`s climb from the file's module (`depth` below the crate) to the root.
fn modules_named(code: &str, depth: usize) -> Vec<String> {
    let mut named = Vec::new();
    let mut push = |rest: &str| {
        let names = if rest.starts_with('{') {
            group_heads(rest)
        } else {
            vec![ident(rest)]
        };
        named.extend(
            names
                .into_iter()
                .filter(|n| MODULES.contains(n))
                .map(str::to_string),
        );
    };
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        push(&code[i + "crate::".len()..]);
    }
    let mut from = 0;
    while let Some(i) = code[from..].find("super::") {
        let at = from + i;
        let before = code[..at].chars().next_back();
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        from = code.len() - rest.len();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if climbs == depth {
            push(rest);
        }
    }
    named
}

/// The module depth of a file under `src/` (`systems/mod.rs` 1, `systems/dutch/mod.rs` 2,
/// `matching/wide.rs` 2).
fn depth_of(src: &Path, file: &Path) -> usize {
    let relative = file.strip_prefix(src).unwrap_or(file);
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|n| n == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

#[test]
fn layers_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for (layer, allowed) in LAYERS {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has no Rust files");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let code = code_of(&text);
            for name in modules_named(&code, depth_of(&src, &f)) {
                if name != layer && !allowed.contains(&name.as_str()) {
                    offenders.push(format!("{} ({layer}) names {name}", f.display()));
                }
            }
        }
    }
    offenders.sort();
    offenders.dedup();
    assert!(
        offenders.is_empty(),
        "imports against the layers: {offenders:#?}"
    );
}

/// The scanner itself: grouped imports, `super` climbing to the crate root, comments.
#[test]
fn the_layer_scanner_sees_every_form() {
    let code = code_of(
        "use crate::{check::manual, model};\nuse super::pairing::pair_with; // crate::simulate\nlet x = crate::systems::find(id);\nuse super::super::trf;",
    );
    let mut top = modules_named(&code, 1);
    top.sort();
    assert_eq!(top, ["check", "model", "pairing", "systems"]);
    let mut deeper = modules_named(&code, 2);
    deeper.sort();
    assert_eq!(deeper, ["check", "model", "systems", "trf"]);
}

/// The systems' folders (`src/systems/<name>/`): each system's whole story.
fn system_folders(systems: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(systems)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| name != "common")
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The `systems` submodules a file names: `crate::systems::X` (or a `{..}` group), and
/// `super::X` where the `super`s climb from the file's module to `systems` (`climbs`).
fn systems_named(code: &str, climbs: usize) -> Vec<String> {
    let mut named = Vec::new();
    let mut push = |rest: &str| {
        if rest.starts_with('{') {
            named.extend(group_heads(rest).into_iter().map(str::to_string));
        } else {
            named.push(ident(rest).to_string());
        }
    };
    for (i, _) in code.match_indices("crate::systems::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        push(&code[i + "crate::systems::".len()..]);
    }
    let mut from = 0;
    while let Some(i) = code[from..].find("super::") {
        let at = from + i;
        let before = code[..at].chars().next_back();
        let mut rest = &code[at..];
        let mut count = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            count += 1;
            rest = r;
        }
        from = code.len() - rest.len();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if count == climbs {
            push(rest);
        }
    }
    named
}

/// Each system owns its story: no system's folder names another system's folder, and the
/// shared code (`systems/common/`, the shared files beside the folders) names none. A system
/// defined in terms of another (Burstein's seeding rounds are Dutch rounds, art. 1.6.2)
/// reaches it through the registry by id (`systems::find`), never by its folder. Only the
/// registry, `systems/mod.rs`, lists the folders.
#[test]
fn no_system_imports_another_systems_folder() {
    let systems = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/systems");
    let folders = system_folders(&systems);
    assert!(folders.len() >= 13, "{folders:?}");
    let mut files = Vec::new();
    rust_files(&systems, &mut files);
    let mut offenders = Vec::new();
    for f in files {
        let relative = f.strip_prefix(&systems).unwrap_or(&f).to_path_buf();
        if relative == Path::new("mod.rs") {
            continue;
        }
        let own = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .filter(|first| folders.iter().any(|s| s == first))
            .map(str::to_string);
        // From `systems/x.rs` or `systems/x/mod.rs` one `super` reaches `systems`; one more
        // per folder below.
        let parts = relative.components().count();
        let climbs = if relative.file_name().is_some_and(|n| n == "mod.rs") {
            parts - 1
        } else {
            parts
        };
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let code = code_of(&text);
        for name in systems_named(&code, climbs) {
            if folders.contains(&name) && own.as_deref() != Some(name.as_str()) {
                offenders.push(format!("{} names systems::{name}", f.display()));
            }
        }
    }
    offenders.sort();
    offenders.dedup();
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The checker and "why not?" ask each system through its trait (`PairingSystem`,
/// `Configured`): no match on a system's id in `check/`.
#[test]
fn check_holds_no_per_system_match() {
    let check = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/check");
    let mut files = Vec::new();
    rust_files(&check, &mut files);
    assert!(!files.is_empty());
    let mut offenders = Vec::new();
    for f in files {
        let code = code_of(&std::fs::read_to_string(&f).unwrap_or_default());
        for (i, _) in code.match_indices("SystemId::") {
            let variant = ident(&code[i + "SystemId::".len()..]);
            if variant
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase())
            {
                offenders.push(format!("{} matches SystemId::{variant}", f.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The scanner of system folders: paths, groups and `super` climbing to `systems`.
#[test]
fn the_system_scanner_sees_every_form() {
    let code = code_of(
        "use crate::systems::{dutch::Dutch, common};\nuse super::super::lim::x; // crate::systems::vincze\nuse super::players;",
    );
    let mut named = systems_named(&code, 2);
    named.sort();
    assert_eq!(named, ["common", "dutch", "lim"]);
}
