//! gRPC server reflection, in both versions of the protocol: `grpc.reflection.v1` and the
//! older `grpc.reflection.v1alpha`, which Python's grpcio-reflection and grpcurl up to 1.8
//! still speak. Both describe every service served: `swisspair.v1.PairingService`,
//! `grpc.health.v1.Health` and the two reflection services themselves.
use tonic_reflection::server::{Builder, Error, v1, v1alpha};

/// The descriptor sets of everything this server answers.
fn builder() -> Builder<'static> {
    Builder::configure()
        .register_encoded_file_descriptor_set(crate::proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
}

/// The v1 and the v1alpha reflection services (each also lists the other).
#[allow(clippy::type_complexity)]
pub fn services() -> Result<
    (
        v1::ServerReflectionServer<impl v1::ServerReflection>,
        v1alpha::ServerReflectionServer<impl v1alpha::ServerReflection>,
    ),
    Error,
> {
    let v1 = builder()
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let v1alpha = builder()
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;
    Ok((v1, v1alpha))
}
