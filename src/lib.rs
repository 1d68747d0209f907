//! swisspair: a stateless pairing engine and gRPC service for Swiss and round-robin
//! tournaments.
//!
//! A request carries a whole tournament (players, past rounds, results, settings); the
//! answer is the next round's pairing with an explanation citing rule ids
//! (`docs/rules/systems.md`, FIDE C.04). The server keeps no state (CG-1).
//!
//! # Layout
//! - [`model`]: tournament, player, round, game, result, colour, exact scores;
//! - [`trf`]: FIDE TRF-16 (+ TRF-26 records, JaVaFo `XX*` and bbp `BB*` lines) reader and
//!   writer;
//! - [`systems`]: one module per pairing system behind [`systems::PairingSystem`]; what
//!   systems share lives in [`systems::common`];
//! - [`matching`]: maximum-weight and maximum-cardinality matching on general graphs, with
//!   exact wide-integer weights (the Dutch system's engine; knows nothing of chess);
//! - [`pairing`]: the single-round pipeline every request path goes through, once (system
//!   resolved, options checked, pairing numbers assigned, system run); the floor [`check`]
//!   and [`simulate`] stand on (imports go one way, `tests/layers.rs`);
//! - [`check`]: re-pairs a tournament round by round and reports differences; checks a
//!   manual pairing ([`check::manual`]);
//! - [`audit`]: one verdict per tournament report (pairings, points column, rank column),
//!   standing on [`check`] and [`standings`];
//! - [`standings`]: FIDE tie-breaks (C.07 2026 and 2024), rating change, performance;
//! - [`simulate`]: random tournaments, each round paired by the pipeline;
//! - [`cancel`]: stopping a pairing when its client goes away or its deadline passes;
//! - [`service`]: the tonic server (proto <-> model, validation, limits, health, reflection).
//!
//! `ARCHITECTURE.md` says where each kind of change goes.
//!
//! # How unplayed rounds count
//! Stated once here; every system and the tie-breaks follow this table unless the system's
//! own rules say otherwise (the FIDE systems follow `fide.md` §2, which agrees with it).
//!
//! | round (TRF code) | points (settings, CG-3) | a meeting (no rematch)? | colour history? | blocks a later PAB (C.04.1 art. 4)? | tie-breaks ([`standings`], C.07 art. 15-16) |
//! |---|---|---|---|---|---|
//! | played win / draw / loss (`1 = 0`, also `W D L`) | win / draw / loss | yes | yes | no | a game: the opponent's score (BH), rating tie-breaks, DE |
//! | adjourned | none yet; a draw for pairing (GHR 3.1) | yes | yes | no | a game with no points yet |
//! | played ½-0, 0-½, 0-0 (each side its own code: `=`/`0`, `0`/`=`, `0`/`0`) | each player's own: draw or loss points | yes | yes | no | a game with each player's own points; not a rated result (no rating tie-break counts its score) |
//! | forfeit win (`+`) | forfeit win (default: win) | no (CG-4, GHR 3.5) | no (GHR 3.4) | yes | unplayed, not a VUR: a dummy with the own score, in 2026 at most the opponent's (16.4.1); a win for WIN and REP |
//! | forfeit loss (`-`), double forfeit | forfeit loss (default 0) | no | no | no | a VUR (cut first): a dummy with the own score, in 2026 at most the opponent's |
//! | pairing-allocated bye (`U`) | PAB (default: win) | no | no | yes | unplayed, not a VUR: a dummy with the own score, in 2026 at most a draw per round (16.4.2); REP |
//! | full-point bye (`F`) | full-point bye (default: win) | no | no | yes | as a PAB; a win for WIN |
//! | half-point bye (`H`) | half-point bye (default: draw) | no | no | no | a VUR: a dummy as for a PAB; cut first |
//! | zero-point bye (`Z`) | zero-point bye (default 0) | no | no | no | a VUR, as `H`; after the player's last non-VUR round, a draw in opponents' BH (16.3) |
//! | backgammon win against "[absent]" (`V`, BG-3) | forfeit win (default: win); one win for BG-2 | no, but at most once per player (BG-3) | no | yes | nothing (BG-3); its points stay in PTS |
//! | absent / withdrawn / not yet entered (blank) | 0 | no | no | no | a VUR, as `Z`; in opponents' BH it counts as a draw after the player's last non-VUR round (16.3) |
//!
//! Colour histories skip unplayed rounds (GHR 3.4: `BWBuW` reads as `uBWBW`). Forbidden
//! pairs (CG-10) count as having met. In a round robin the schedule is fixed: the opponent
//! of an absent player, like the player meeting the bye number of an odd table, gets a
//! pairing-allocated bye. A backgammon game against the phantom "[absent]" is a bye of its
//! own kind (`AbsentOpponent`): a win, a down-float against a 0-win opponent for BG-7, and
//! nothing at all in tie-breaks (BG-3). The tie-break column is the 2026-03-01 text; the
//! 2024-08-01 rules (`edition 2024`) never cap the dummy. In a round robin forfeits count as
//! played for BH, SB and DE (C.07 15.2).
//!
//! Two systems count in larger units, stated here once too. **Double-Swiss** (C.04.5): a
//! round of the model is one game; match k is rounds 2k-1 and 2k. A match forfeited by one
//! player in both games is no meeting (the pair may meet again) and gives no colour; a match
//! with one game played is a meeting whose colour is game 1's. The PAB is worth 1.5 for the
//! match (option `pab`), counted once, in game 1's column; requested byes cover the whole
//! match. **Team events** (C.04.6 and any system on teams as units): a team round is
//! derived from its players' games; a match forfeited on every board is no meeting and
//! gives no colour, one with some boards played is both; the team PAB is worth a drawn
//! match (TRF-26 `320`), gives no colour and no float, and it, like a match won by forfeit,
//! blocks a later PAB (C.04.6 art. 2.1.2). In team tie-breaks a PAB or a match forfeited on
//! every board counts as a dummy at the team's own score, capped as in C.07 16.4.
pub mod allocator;
pub mod audit;
pub mod cancel;
pub mod check;
pub mod matching;
pub mod model;
pub mod pairing;
pub mod service;
pub mod simulate;
pub mod standings;
pub mod systems;
pub mod trf;

pub mod proto {
    //! Code generated from `proto/swisspair/v1/pairing.proto`.
    #![allow(clippy::all, clippy::pedantic)]
    pub mod codec;
    pub mod fast_answer;
    mod fast_pair;
    pub use fast_pair::{GameIds, PairRequestInPlace};
    tonic::include_proto!("swisspair.v1");
    // The canonical proto3 JSON mapping of every message (serde), generated by pbjson-build.
    include!(concat!(env!("OUT_DIR"), "/swisspair.v1.serde.rs"));
    /// The compiled proto descriptors, for gRPC reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/swisspair_descriptor.bin"));
}

/// This build's version, reported in every response.
pub const ENGINE_VERSION: &str = concat!("swisspair ", env!("CARGO_PKG_VERSION"));
