//! Compiles `proto/` with protox (pure Rust, no system `protoc`) and generates the tonic
//! server and client, plus the file descriptor set that gRPC reflection serves.
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = ["proto/swisspair/v1/pairing.proto"];
    for p in &protos {
        println!("cargo:rerun-if-changed={p}");
    }
    let fds = protox::compile(protos, ["proto"])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let descriptor = out.join("swisspair_descriptor.bin");
    std::fs::write(&descriptor, prost::Message::encode_to_vec(&fds))?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(fds)?;
    Ok(())
}
