//! The `swisspair` command: the gRPC server and the same engine from the command line
//! (`src/cli/`, a file per command).
mod cli;

/// mimalloc for the whole process (server and CLI): see Cargo.toml and
/// `swisspair::allocator`.
#[global_allocator]
static ALLOCATOR: swisspair::allocator::Allocator = swisspair::allocator::Allocator;

/// mimalloc's options (`mi_option_e` in its `mimalloc.h`, v3): arenas committed as they are
/// used, and freed memory returned at once. With its defaults a 10,000-player pairing
/// peaked at 1.75 times glibc's resident memory (67 MiB against 38 MiB); with these, the
/// same as glibc, for the same CPU per small request (issue 22, measured both ways).
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Sets the options before the first allocation: mimalloc reserves and commits its first
/// arena then, so `main` is too late. A constructor of a numbered `.init_array` section runs
/// before the unnumbered ones (mimalloc's own) and before the Rust runtime allocates.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00099")]
static SET_ALLOCATOR_OPTIONS: extern "C" fn() = set_allocator_options;

#[cfg(target_os = "linux")]
extern "C" fn set_allocator_options() {
    // SAFETY: `mi_option_set` stores an option's value; both are valid option numbers.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}

fn main() -> std::process::ExitCode {
    cli::run()
}
