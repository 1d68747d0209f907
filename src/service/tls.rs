//! TLS for the server (`serve --tls-cert/--tls-key`), and mutual TLS (`--tls-client-ca`):
//! rustls through tonic (`tls-ring`), no system OpenSSL.
use std::path::{Path, PathBuf};

use tonic::transport::{Certificate, Identity, ServerTlsConfig};

/// The PEM files of the server's TLS settings.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    /// The server's certificate chain (PEM).
    pub cert: PathBuf,
    /// The server's private key (PEM).
    pub key: PathBuf,
    /// With it, clients must present a certificate signed by this CA (mutual TLS).
    pub client_ca: Option<PathBuf>,
}

fn read(path: &Path, flag: &str) -> Result<Vec<u8>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{flag} {}: {e}", path.display()))?;
    if !String::from_utf8_lossy(&bytes).contains("-----BEGIN ") {
        return Err(format!("{flag} {}: not a PEM file", path.display()));
    }
    Ok(bytes)
}

impl TlsFiles {
    /// Reads the files: a missing or non-PEM one is named in the error.
    pub fn server_config(&self) -> Result<ServerTlsConfig, String> {
        let cert = read(&self.cert, "--tls-cert")?;
        let key = read(&self.key, "--tls-key")?;
        let mut config = ServerTlsConfig::new().identity(Identity::from_pem(cert, key));
        if let Some(ca) = &self.client_ca {
            config = config.client_ca_root(Certificate::from_pem(read(ca, "--tls-client-ca")?));
        }
        Ok(config)
    }
}
