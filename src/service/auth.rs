//! Bearer tokens (`serve --auth-token-file`): every RPC of `PairingService` must carry
//! `authorization: Bearer <token>` with one of the file's tokens, else it is answered
//! `UNAUTHENTICATED`. Health and reflection are not checked: orchestrators probe health
//! without credentials, and reflection only describes the API.
//!
//! The file holds one token per line (blank lines and lines starting with `#` are
//! skipped), so that tokens can be rotated: add the new one, reload, retire the old one.
//! SIGHUP reloads it; a reload that fails (file missing, no token) keeps the tokens in
//! force and logs why, so that a bad edit never locks every client out.
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use tonic::Status;
use tonic::metadata::MetadataMap;

/// The tokens in force (cheap to clone; a reload is seen by every clone).
#[derive(Clone, Debug)]
pub struct Tokens {
    file: PathBuf,
    set: Arc<RwLock<HashSet<String>>>,
}

/// Reads the token file: one token per line; none at all is an error.
fn read(file: &Path) -> Result<HashSet<String>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("--auth-token-file {}: {e}", file.display()))?;
    let set: HashSet<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if set.is_empty() {
        return Err(format!(
            "--auth-token-file {}: no token (one per line)",
            file.display()
        ));
    }
    if let Some(bad) = set.iter().find(|t| t.chars().any(char::is_whitespace)) {
        return Err(format!(
            "--auth-token-file {}: a token contains white space ({} characters)",
            file.display(),
            bad.len()
        ));
    }
    Ok(set)
}

impl Tokens {
    pub fn load(file: &Path) -> Result<Tokens, String> {
        Ok(Tokens {
            file: file.to_path_buf(),
            set: Arc::new(RwLock::new(read(file)?)),
        })
    }

    /// Reads the file again; on error the tokens in force stay. Returns how many tokens.
    pub fn reload(&self) -> Result<usize, String> {
        let set = read(&self.file)?;
        let n = set.len();
        match self.set.write() {
            Ok(mut s) => *s = set,
            Err(poisoned) => *poisoned.into_inner() = set,
        }
        Ok(n)
    }

    /// `Ok` when `metadata` carries `authorization: Bearer <a token in force>`.
    pub fn check(&self, metadata: &MetadataMap) -> Result<(), Status> {
        let Some(value) = metadata.get("authorization") else {
            return Err(Status::unauthenticated(
                "missing credentials: send `authorization: Bearer <token>`",
            ));
        };
        let presented = value
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .ok_or_else(|| {
                Status::unauthenticated("malformed credentials: expected `Bearer <token>`")
            })?;
        let known = match self.set.read() {
            Ok(s) => s
                .iter()
                .any(|t| constant_time_eq(t.as_bytes(), presented.as_bytes())),
            Err(poisoned) => poisoned
                .into_inner()
                .iter()
                .any(|t| constant_time_eq(t.as_bytes(), presented.as_bytes())),
        };
        if known {
            Ok(())
        } else {
            Err(Status::unauthenticated("invalid bearer token"))
        }
    }

    /// Reloads the file on every SIGHUP, for as long as the process runs.
    pub fn reload_on_sighup(&self) {
        #[cfg(unix)]
        {
            let tokens = self.clone();
            let signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup());
            match signal {
                Ok(mut s) => {
                    tokio::spawn(async move {
                        while s.recv().await.is_some() {
                            match tokens.reload() {
                                Ok(n) => {
                                    tracing::info!(tokens = n, "SIGHUP: bearer tokens reloaded")
                                }
                                Err(e) => {
                                    tracing::error!(error = %e, "SIGHUP: reload failed, the tokens in force stay")
                                }
                            }
                        }
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "no SIGHUP handler: tokens are not reloadable")
                }
            }
        }
    }
}

/// Compares without stopping at the first difference, so that the answer time does not
/// tell how much of a guessed token is right (the length still shows).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The interceptor in front of `PairingService`: no tokens configured lets every call in.
#[derive(Clone, Debug, Default)]
pub struct Check(pub Option<Tokens>);

impl tonic::service::Interceptor for Check {
    fn call(&mut self, request: tonic::Request<()>) -> Result<tonic::Request<()>, Status> {
        match &self.0 {
            None => Ok(request),
            Some(tokens) => tokens.check(request.metadata()).map(|()| request),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(v: &str) -> MetadataMap {
        let mut m = MetadataMap::new();
        if let Ok(v) = v.parse() {
            m.insert("authorization", v);
        }
        m
    }

    #[test]
    fn tokens_are_checked_and_reloaded() {
        let dir = std::env::temp_dir().join(format!("swisspair-auth-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join("tokens");
        std::fs::write(&file, "# comment\nalpha\n\nbeta\n").unwrap();
        let t = Tokens::load(&file).unwrap();
        assert!(t.check(&md("Bearer alpha")).is_ok());
        assert!(t.check(&md("Bearer beta")).is_ok());
        assert_eq!(
            t.check(&md("Bearer gamma")).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            t.check(&MetadataMap::new()).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            t.check(&md("Basic alpha")).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        std::fs::write(&file, "gamma\n").unwrap();
        assert_eq!(t.reload().unwrap(), 1);
        assert!(t.check(&md("Bearer gamma")).is_ok());
        assert!(t.check(&md("Bearer alpha")).is_err());
        // A bad reload keeps the tokens in force.
        std::fs::write(&file, "# none\n").unwrap();
        assert!(t.reload().is_err());
        assert!(t.check(&md("Bearer gamma")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
