//! `ListSystems`: every implemented system with what it declares of itself.
use super::enums::system_to_proto;
use crate::proto;
use crate::systems;

/// Every implemented system with its options.
pub fn list_systems() -> proto::ListSystemsResponse {
    proto::ListSystemsResponse {
        systems: systems::implemented()
            .iter()
            .map(|s| {
                let info = s.info();
                proto::SystemInfo {
                    system: system_to_proto(info.id) as i32,
                    name: info.id.name().to_string(),
                    title: info.title.to_string(),
                    rule_set: info.rule_set.to_string(),
                    options: info
                        .options
                        .iter()
                        .map(|o| proto::SystemOption {
                            name: o.name.to_string(),
                            r#type: o.kind.to_string(),
                            default_value: o.default_value.to_string(),
                            description: o.description.to_string(),
                        })
                        .collect(),
                    default_rounds: s
                        .default_rounds_table()
                        .into_iter()
                        .map(|(min_players, max_players, rounds)| proto::DefaultRounds {
                            min_players,
                            max_players,
                            rounds,
                        })
                        .collect(),
                }
            })
            .collect(),
        engine_version: crate::ENGINE_VERSION.to_string(),
    }
}
