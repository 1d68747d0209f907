//! swisspair: a stateless pairing engine and gRPC service for Swiss and round-robin
//! tournaments.
pub mod check;
pub mod model;
pub mod service;
pub mod systems;
pub mod trf;

pub mod proto {
    #![allow(clippy::all, clippy::pedantic)]
    tonic::include_proto!("swisspair.v1");
    /// The compiled proto descriptors, for gRPC reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/swisspair_descriptor.bin"));
}

/// This build's version, reported in every response.
pub const ENGINE_VERSION: &str = concat!("swisspair ", env!("CARGO_PKG_VERSION"));
