//! Debug: pair round R of a TRF file with the Dutch system and print the explanation.
use swisspair::model::{ByeKind, Round, SystemId};
use swisspair::systems::{self, Detail, PairOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    let round: u32 = args[2].parse().expect("round");
    let mode: Option<usize> = args.get(3).and_then(|m| m.parse().ok());
    swisspair::systems::dutch::brackets::set_global_up_to(mode);
    let doc = swisspair::trf::read(&text).expect("trf");
    let t = &doc.tournament;
    let mut before = t.clone();
    before.rounds.truncate(round as usize - 1);
    let recorded = t.round(round).expect("round").clone();
    before.rounds.push(Round {
        games: Vec::new(),
        byes: recorded
            .byes
            .iter()
            .filter(|b| b.kind != ByeKind::Pab)
            .cloned()
            .collect(),
    });
    let opts = PairOptions {
        round: Some(round),
        system: Some(SystemId::Dutch),
        detail: Detail::Full,
        ..PairOptions::default()
    };
    let p = systems::pair(&before, &opts).expect("pairs");
    for g in &p.explanation.groups {
        println!("== {}", g.label);
        for s in &g.steps {
            println!("  [{}] {}", s.rule_id, s.message);
        }
    }
    let id = |i: usize| t.players[i].id.clone();
    let mut eng: Vec<String> = p
        .boards
        .iter()
        .map(|b| format!("{} - {}", id(b.white), id(b.black)))
        .collect();
    eng.sort();
    println!("engine: {}", eng.join(", "));
    let mut rec: Vec<String> = recorded
        .games
        .iter()
        .map(|g| format!("{} - {}", id(g.white), id(g.black)))
        .collect();
    rec.sort();
    println!("record: {}", rec.join(", "));
}
