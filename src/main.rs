//! The `swisspair` command: the gRPC server and the same engine from the command line
//! (`src/cli/`, a file per command).
mod cli;

/// mimalloc for the whole process (server and CLI): see Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
