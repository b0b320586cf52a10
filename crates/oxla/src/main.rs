//! The `oxla` command line (`oxla --help`; the implementation is `oxla::cli`).

fn main() -> std::process::ExitCode {
    oxla::cli::main_with(std::env::args_os())
}
