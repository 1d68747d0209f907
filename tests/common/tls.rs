//! Test certificates made at test time (rcgen): no private key is in the repository.
use std::path::{Path, PathBuf};

/// A CA, a server certificate for `localhost` and 127.0.0.1, and a client certificate, as
/// PEM files in `dir`: (ca, server cert, server key, client cert, client key).
pub fn certificates(dir: &Path) -> [PathBuf; 5] {
    use rcgen::{
        BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    };
    let ca_key = KeyPair::generate().expect("key");
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // Distinct names: OpenSSL (Node's TLS) takes a certificate whose issuer is its own
    // subject for a self-signed one, and rcgen's default name is the same for all.
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "swisspair test CA");
    let ca_cert = ca_params.self_signed(&ca_key).expect("CA");
    let issuer = Issuer::new(ca_params, ca_key);
    let server_key = KeyPair::generate().expect("key");
    let mut server_params =
        CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
            .expect("params");
    server_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    server_params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    let server_cert = server_params
        .signed_by(&server_key, &issuer)
        .expect("server cert");
    let client_key = KeyPair::generate().expect("key");
    let mut client_params = CertificateParams::new(vec!["client".to_string()]).expect("params");
    client_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    client_params
        .distinguished_name
        .push(DnType::CommonName, "client");
    let client_cert = client_params
        .signed_by(&client_key, &issuer)
        .expect("client cert");
    let files = [
        ("ca.pem", ca_cert.pem()),
        ("server.pem", server_cert.pem()),
        ("server.key", server_key.serialize_pem()),
        ("client.pem", client_cert.pem()),
        ("client.key", client_key.serialize_pem()),
    ];
    files.map(|(name, text)| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write PEM");
        p
    })
}
