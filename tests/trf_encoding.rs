//! TRF files in other encodings than UTF-8 (Latin-1 / Windows-1252 from Windows programs),
//! with a byte-order mark, and files with several errors: the library, the CLI and the
//! service's `trf_bytes`.
mod common;

use common::server::Server;
use common::swisspair;
use swisspair::proto;
use swisspair::service::ServerConfig;
use swisspair::trf::{self, Encoding};

const NAMES: [&str; 4] = ["Müller, Jürgen", "Çelik, Ayşe", "Øster, Åse", "Smith, John"];

/// A four-player round robin, not yet started, as UTF-8 text.
fn text() -> String {
    let mut out = String::from("012 Großes Turnier\nXXR 3\n192 FIDE_ROUNDROBIN\n");
    for (k, name) in NAMES.iter().enumerate() {
        // Columns: 1-3 record, 5-8 rank, 15-47 name, 49-52 rating, 81-84 points.
        let mut line = format!("001 {:>4}      {:<33} {:>4}", k + 1, name, 2000 - 100 * k);
        while line.chars().count() < 80 {
            line.push(' ');
        }
        line.push_str(" 0.0");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The same text in Latin-1 (every character above fits in it but "ş", replaced).
fn latin1() -> Vec<u8> {
    text()
        .replace('ş', "s")
        .chars()
        .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
        .collect()
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("swisspair-encoding-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("temporary file");
    path
}

#[test]
fn latin1_names_are_kept() {
    let bytes = latin1();
    assert!(std::str::from_utf8(&bytes).is_err(), "not UTF-8");
    let decoded = trf::decode(&bytes, Encoding::Auto).expect("decoded");
    assert_eq!(decoded.encoding, "latin-1");
    let doc = swisspair::pairing::read_trf_reporting(&decoded.text).expect("read");
    let names: Vec<_> = doc
        .tournament
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["Müller, Jürgen", "Çelik, Ayse", "Øster, Åse", "Smith, John"]
    );
    assert_eq!(doc.tournament.name, "Großes Turnier");
}

#[test]
fn utf8_with_bom_reads_like_without() {
    let plain = text();
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(plain.as_bytes());
    let a = swisspair::pairing::read_trf_reporting(
        &trf::decode(&bom, Encoding::Auto).expect("bom").text,
    );
    let b = swisspair::pairing::read_trf_reporting(&plain);
    assert_eq!(a.ok(), b.ok());
}

#[test]
fn cli_reads_latin1_and_reports_every_error() {
    let path = temp("latin1.trf", &latin1());
    let p = path.to_str().expect("path");
    let (code, out, err) = swisspair(&["pair", "--system", "round-robin", p, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2\n"), "{out}");
    // Forced UTF-8: refused with the line and column of the first bad byte, exit 3.
    let (code, _, err) = swisspair(&[
        "pair",
        "--encoding",
        "utf-8",
        "--system",
        "round-robin",
        p,
        "-p",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains(&format!("{p}:1:8:")), "{err}");
    assert!(err.contains("not valid UTF-8"), "{err}");
    // Forced Windows-1252 reads it too.
    let (code, _, err) = swisspair(&[
        "pair",
        "--encoding",
        "windows-1252",
        "--system",
        "round-robin",
        p,
        "-p",
    ]);
    assert_eq!(code, 0, "{err}");

    // Three errors on three lines: each reported as file:line:column.
    let bad = text()
        .replace("XXR 3", "XXR three")
        .replace("192 FIDE_ROUNDROBIN\n", "192 FIDE_ROUNDROBIN\nXXC purple\n")
        .replace(
            "Smith, John                       1700",
            "Smith, John                       17x0",
        );
    let bad_path = temp("bad.trf", bad.as_bytes());
    let b = bad_path.to_str().expect("path");
    let (code, _, err) = swisspair(&["pair", "--system", "round-robin", b, "-p"]);
    assert_eq!(code, 3, "{err}");
    let located: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(&format!("{b}:")))
        .collect();
    assert_eq!(located.len(), 3, "{err}");
    assert!(located[0].contains(&format!("{b}:2:5: XXR")), "{err}");
    assert!(located[1].contains(&format!("{b}:4:5: XXC")), "{err}");
    assert!(located[2].contains(&format!("{b}:8:")), "{err}");
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(bad_path);
}

#[tokio::test]
async fn service_takes_trf_bytes() {
    let server = Server::start(ServerConfig::default()).await;
    let mut client = server.client().await;
    let request = |bytes: Vec<u8>, encoding: &str| proto::PairRequest {
        input: Some(proto::pair_request::Input::TrfBytes(bytes)),
        trf_encoding: encoding.to_string(),
        ..proto::PairRequest::default()
    };
    let answer = client
        .pair(request(latin1(), ""))
        .await
        .expect("Latin-1 bytes paired");
    assert_eq!(answer.get_ref().boards.len(), 2);
    let status = client
        .pair(request(latin1(), "utf-8"))
        .await
        .expect_err("not UTF-8");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().contains("trf_bytes"), "{status:?}");
    assert!(status.message().contains("line 1, column 8"), "{status:?}");
    let status = client
        .pair(request(latin1(), "ebcdic"))
        .await
        .expect_err("unknown encoding");
    assert!(status.message().contains("trf_encoding"), "{status:?}");
    // A text with two errors: both reported.
    let bad = text()
        .replace("XXR 3", "XXR three")
        .replace("192 FIDE_ROUNDROBIN\n", "192 FIDE_ROUNDROBIN\nXXC purple\n");
    let status = client
        .pair(proto::PairRequest {
            input: Some(proto::pair_request::Input::Trf(bad)),
            ..proto::PairRequest::default()
        })
        .await
        .expect_err("two errors");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status.message().contains("line 2, column 5: XXR"),
        "{status:?}"
    );
    assert!(
        status.message().contains("line 4, column 5: XXC"),
        "{status:?}"
    );
    server.stop().await;
}
