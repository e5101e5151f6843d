//! `gpu-noise`: render, sample, verify, info, bench. Bad input (flags, spec files, paths, a full
//! disk) exits 2 naming the cause, device failures exit 1; Ctrl-C and SIGTERM remove any
//! temporary file before exiting.

mod args;
mod backend;
mod bench;
mod derivatives;
mod graph;
mod info;
mod kind_args;
mod progress;
mod render;
mod sample;
mod tiles;
mod verify;
mod world;

use std::process::ExitCode;

use clap::Parser;
use gpu_noise::Error;

use args::{Cli, Command, NoiseArgs};
use gpu_noise::low_level::spec_file::SpecFile;

fn main() -> ExitCode {
    quiet_mesa();
    end_quietly_when_the_reader_leaves();
    clean_up_on_signals();
    let cli = Cli::parse();
    // A bad WGPU_BACKEND is refused by every command alike, whichever backend it runs on.
    let adapters = gpu_noise::gpu::AdapterChoice::from_env();
    let result = adapters.and_then(|_| match cli.command {
        Command::Render(a) => render::run(a),
        Command::Sample(a) => sample::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Info => info::run(),
        Command::Bench(a) => bench::run(a),
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gpu-noise: error: {}", describe(&e));
            // A path that cannot be read or written (a missing folder, a full disk) is bad
            // input like a bad flag: exit 2; device failures exit 1.
            if e.is_bad_input() || matches!(e, Error::Io { .. }) {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// The message of an error with the CLI's flag names for the library's fields, followed by
/// its sources.
fn describe(e: &Error) -> String {
    let mut text = match e {
        Error::InvalidSpec { field, reason }
        | Error::InvalidOutput { field, reason }
        | Error::Precision { field, reason } => {
            format!("{}: {reason}", flag(field))
        }
        Error::NoAdapter { .. } => format!(
            "{e} `gpu-noise info` lists what is found; `--backend cpu` renders without a GPU."
        ),
        other => other.to_string(),
    };
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}

/// The flag that sets a library field (`octaves` -> `--octaves`).
pub fn flag(field: &str) -> String {
    match field {
        "output" => "-o".into(),
        "points" => "stdin".into(),
        "cell_return" => "--return".into(),
        other => format!("--{}", other.replace('_', "-")),
    }
}

/// Removes temporary output files on SIGINT, SIGTERM and SIGHUP, then exits 128 + the signal's
/// number (130, 143, 129), as shells report a process killed by it. The exit happens while the
/// registry of temporaries is held, so no other thread can create or report a file after the
/// clean-up. (SIGKILL cannot be caught: it can leave a `.gpu-noise-PID-N.tmp` file beside the
/// target.)
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(e) => {
            eprintln!(
                "gpu-noise: warning: cannot handle signals ({e}); an interrupt may leave a temporary file"
            );
            return;
        }
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            gpu_noise::low_level::export::remove_all_temporaries(|_| {
                eprintln!("\ngpu-noise: interrupted; no partial output was left");
                std::process::exit(128 + signal)
            })
        }
    });
}

/// `gpu-noise info | head -1` or `| grep -q`: the reader closes the pipe before we are done.
/// Rust ignores SIGPIPE, so `println!` would then panic ("failed printing to stdout"); restore
/// the default action, as `cat` and `ls` have it: the process ends silently, killed by SIGPIPE.
/// No temporary file is at risk: every command that writes files prints nothing to stdout
/// while one exists (`sample`, `info`, `verify`, `bench` and `--print-spec` write no files).
fn end_quietly_when_the_reader_leaves() {
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

/// Mesa prints "XDG_RUNTIME_DIR is invalid or not set" twice when wgpu creates an instance on a
/// headless machine without one; point it at the temp dir (for this process only).
fn quiet_mesa() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // SAFETY: called first thing in main, before any other thread exists.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir()) };
    }
}

/// The spec file (if any) with the flags laid over it.
pub fn spec_layers(noise: &NoiseArgs) -> gpu_noise::Result<SpecFile> {
    let base = match &noise.spec {
        Some(path) => SpecFile::read(path)?,
        None => SpecFile::default(),
    };
    Ok(base.overlay(noise.layer()))
}

/// Seconds as a short human string.
pub fn seconds(d: std::time::Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}
