//! The `swisspair` command: the gRPC server and the same engine from the command line
//! (`src/cli/`, a file per command).
mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
