//! Compiles `proto/` with protox (pure Rust, no system `protoc`) and generates the tonic
//! server and client, the file descriptor set that gRPC reflection serves, and the proto3
//! JSON mapping of every message (pbjson-build: serde impls for the Connect protocol's JSON).
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos = ["proto/swisspair/v1/pairing.proto"];
    for p in &protos {
        println!("cargo:rerun-if-changed={p}");
    }
    let fds = protox::compile(protos, ["proto"])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let descriptor = out.join("swisspair_descriptor.bin");
    let descriptor_bytes = prost::Message::encode_to_vec(&fds);
    std::fs::write(&descriptor, &descriptor_bytes)?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // prost's codec, decoding each message from one slice (`src/proto/codec.rs`).
        .codec_path("crate::proto::codec::SliceCodec")
        .compile_fds(fds)?;
    // Writes `swisspair.v1.serde.rs` beside the prost output: field names in lowerCamelCase
    // (the original names are accepted too), enums by name, 64-bit integers as strings,
    // bytes in base64, defaults omitted. Unknown fields are refused, so that a misspelt
    // field is an error, not a silently ignored setting.
    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_bytes)?
        .out_dir(&out)
        .build(&[".swisspair.v1"])?;
    Ok(())
}
