//! Systems, bye kinds and game results.
use crate::model::{ByeKind, GameResult, SystemId};
use crate::proto;

pub fn system_from_proto(value: i32) -> Option<SystemId> {
    use proto::PairingSystem as P;
    Some(match P::try_from(value).ok()? {
        P::Unspecified => return None,
        P::RoundRobin => SystemId::RoundRobin,
        P::Dutch => SystemId::Dutch,
        P::Burstein => SystemId::Burstein,
        P::Dubov => SystemId::Dubov,
        P::Lim => SystemId::Lim,
        P::DoubleSwiss => SystemId::DoubleSwiss,
        P::TeamSwiss => SystemId::TeamSwiss,
        P::Amalfi => SystemId::Amalfi,
        P::Vincze => SystemId::Vincze,
        P::Buchholz => SystemId::Buchholz,
        P::Simple => SystemId::Simple,
        P::ColourAlternation => SystemId::ColourAlternation,
        P::Backgammon => SystemId::Backgammon,
        P::Keizer => SystemId::Keizer,
        P::Monrad => SystemId::Monrad,
        P::Knockout => SystemId::Knockout,
        P::Scheveningen => SystemId::Scheveningen,
    })
}

pub fn system_to_proto(id: SystemId) -> proto::PairingSystem {
    use proto::PairingSystem as P;
    match id {
        SystemId::RoundRobin => P::RoundRobin,
        SystemId::Dutch => P::Dutch,
        SystemId::Burstein => P::Burstein,
        SystemId::Dubov => P::Dubov,
        SystemId::Lim => P::Lim,
        SystemId::DoubleSwiss => P::DoubleSwiss,
        SystemId::TeamSwiss => P::TeamSwiss,
        SystemId::Amalfi => P::Amalfi,
        SystemId::Vincze => P::Vincze,
        SystemId::Buchholz => P::Buchholz,
        SystemId::Simple => P::Simple,
        SystemId::ColourAlternation => P::ColourAlternation,
        SystemId::Backgammon => P::Backgammon,
        SystemId::Keizer => P::Keizer,
        SystemId::Monrad => P::Monrad,
        SystemId::Knockout => P::Knockout,
        SystemId::Scheveningen => P::Scheveningen,
    }
}

pub fn bye_kind_to_proto(kind: ByeKind) -> proto::ByeKind {
    match kind {
        ByeKind::Pab => proto::ByeKind::Pab,
        ByeKind::HalfPoint => proto::ByeKind::HalfPoint,
        ByeKind::ZeroPoint => proto::ByeKind::ZeroPoint,
        ByeKind::FullPoint => proto::ByeKind::FullPoint,
        ByeKind::Absent => proto::ByeKind::Absent,
        ByeKind::AbsentOpponent => proto::ByeKind::AbsentOpponent,
    }
}

pub fn bye_kind_from_proto(value: i32) -> Option<ByeKind> {
    Some(match proto::ByeKind::try_from(value).ok()? {
        proto::ByeKind::Unspecified => return None,
        proto::ByeKind::Pab => ByeKind::Pab,
        proto::ByeKind::HalfPoint => ByeKind::HalfPoint,
        proto::ByeKind::ZeroPoint => ByeKind::ZeroPoint,
        proto::ByeKind::FullPoint => ByeKind::FullPoint,
        proto::ByeKind::Absent => ByeKind::Absent,
        proto::ByeKind::AbsentOpponent => ByeKind::AbsentOpponent,
    })
}

pub fn result_from_proto(value: i32) -> Option<GameResult> {
    use proto::GameResult as R;
    Some(match R::try_from(value).ok()? {
        R::Unspecified | R::Pending => GameResult::Pending,
        R::WhiteWins => GameResult::WhiteWins,
        R::Draw => GameResult::Draw,
        R::BlackWins => GameResult::BlackWins,
        R::WhiteWinsForfeit => GameResult::WhiteWinsForfeit,
        R::BlackWinsForfeit => GameResult::BlackWinsForfeit,
        R::DoubleForfeit => GameResult::DoubleForfeit,
        R::Adjourned => GameResult::Adjourned,
        R::WhiteHalfBlackZero => GameResult::WhiteHalfBlackZero,
        R::WhiteZeroBlackHalf => GameResult::WhiteZeroBlackHalf,
        R::BothLose => GameResult::BothLose,
    })
}

pub fn result_to_proto(r: GameResult) -> proto::GameResult {
    use proto::GameResult as R;
    match r {
        GameResult::WhiteWins => R::WhiteWins,
        GameResult::Draw => R::Draw,
        GameResult::BlackWins => R::BlackWins,
        GameResult::WhiteWinsForfeit => R::WhiteWinsForfeit,
        GameResult::BlackWinsForfeit => R::BlackWinsForfeit,
        GameResult::DoubleForfeit => R::DoubleForfeit,
        GameResult::Adjourned => R::Adjourned,
        GameResult::Pending => R::Pending,
        GameResult::WhiteHalfBlackZero => R::WhiteHalfBlackZero,
        GameResult::WhiteZeroBlackHalf => R::WhiteZeroBlackHalf,
        GameResult::BothLose => R::BothLose,
    }
}

/// A request's `system` field: unset is `None`; a number this build does not know is a
/// problem naming the field.
pub fn system_field(
    value: i32,
    problems: &mut Vec<crate::model::validate::Problem>,
) -> Option<SystemId> {
    let system = system_from_proto(value);
    if value != 0 && system.is_none() {
        problems.push(crate::model::validate::Problem::new(
            "system",
            format!("unknown pairing system number {value}"),
        ));
    }
    system
}
