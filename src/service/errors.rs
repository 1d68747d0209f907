//! How the engine's errors reach a gRPC client: one mapping, used by every handler.
use tonic::Status;

use crate::model::validate::Problems;
use crate::simulate::SimError;
use crate::systems::PairError;

/// Every problem of a request, each with its field path: `INVALID_ARGUMENT`.
pub fn invalid(problems: &Problems) -> Status {
    Status::invalid_argument(problems.to_string())
}

impl From<PairError> for Status {
    fn from(e: PairError) -> Status {
        match &e {
            PairError::Invalid(p) => invalid(p),
            PairError::NoLegalPairing { .. } => Status::failed_precondition(e.to_string()),
            PairError::NotImplemented(..) | PairError::NoSystem(_) => {
                Status::invalid_argument(format!("system: {e}"))
            }
            PairError::Internal(_) => Status::internal(e.to_string()),
        }
    }
}

impl From<SimError> for Status {
    fn from(e: SimError) -> Status {
        match e {
            SimError::Invalid(m) => Status::invalid_argument(m),
            SimError::Refused(error) => Status::from(error),
            SimError::Pairing { round, error } => {
                let status = Status::from(error);
                Status::new(
                    status.code(),
                    format!("round {round}: {}", status.message()),
                )
            }
        }
    }
}
