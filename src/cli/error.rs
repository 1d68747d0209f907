//! The CLI's errors and their exit codes.
use swisspair::simulate::SimError;
use swisspair::systems::PairError;

/// Why a command failed, by exit code.
pub enum CliError {
    /// 1: no valid pairing.
    NoPairing(String),
    /// 3: invalid input.
    Invalid(String),
    /// 5: a file could not be read or written.
    File(String),
    /// 2: anything else (an engine fault, the server unreachable).
    Unexpected(String),
}

impl CliError {
    pub fn code(&self) -> u8 {
        match self {
            CliError::NoPairing(_) => 1,
            CliError::Unexpected(_) => 2,
            CliError::Invalid(_) => 3,
            CliError::File(_) => 5,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            CliError::NoPairing(m)
            | CliError::Invalid(m)
            | CliError::File(m)
            | CliError::Unexpected(m) => m,
        }
    }
}

impl From<PairError> for CliError {
    fn from(e: PairError) -> CliError {
        match e {
            PairError::NoLegalPairing { .. } => CliError::NoPairing(e.to_string()),
            PairError::Internal(_) => CliError::Unexpected(e.to_string()),
            other => CliError::Invalid(other.to_string()),
        }
    }
}

impl From<SimError> for CliError {
    fn from(e: SimError) -> CliError {
        match e {
            SimError::Invalid(m) => CliError::Invalid(m),
            SimError::Refused(error) => CliError::from(error),
            SimError::Pairing { round, error } => match CliError::from(error) {
                CliError::NoPairing(m) => CliError::NoPairing(format!("round {round}: {m}")),
                CliError::Unexpected(m) => CliError::Unexpected(format!("round {round}: {m}")),
                other => CliError::Invalid(format!("round {round}: {}", other.message())),
            },
        }
    }
}

/// How a server's refusal reaches the exit code.
impl From<tonic::Status> for CliError {
    fn from(s: tonic::Status) -> CliError {
        match s.code() {
            tonic::Code::InvalidArgument => CliError::Invalid(s.message().to_string()),
            tonic::Code::FailedPrecondition => CliError::NoPairing(s.message().to_string()),
            _ => CliError::Unexpected(s.message().to_string()),
        }
    }
}
