//! The layering ARCHITECTURE.md states: the pairing core knows nothing of gRPC, and only the
//! pipeline resolves systems by id.
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
