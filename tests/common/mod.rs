//! Helpers shared by the integration tests.
#![allow(dead_code)]
use std::path::{Path, PathBuf};

/// `../shared/conformance/<sub>` relative to the crate (CI clones the repo beside shared/).
pub fn conformance_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("conformance")
        .join(sub)
}

/// Every `.trf` file below a folder, sorted.
pub fn trf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "trf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
