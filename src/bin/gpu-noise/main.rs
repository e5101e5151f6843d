//! `gpu-noise`: render, sample, verify, info, bench. Bad input (flags, spec files, paths, a full
//! disk) exits 2 naming the cause, device failures exit 1; Ctrl-C and every other terminating
//! signal remove any temporary file before exiting.

/// `println!` that fails instead of panicking: a full or broken standard output is an error
/// ("stdout: ...", exit 2). Defined before the modules so that every one can use it.
macro_rules! outln {
    () => {
        $crate::write_stdout(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!($($arg)*))
    };
}

/// `eprintln!` that cannot panic: a status line that cannot be written to a full or closed
/// standard error is dropped (there is nowhere left to say so), and the command goes on to its
/// own exit code.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::write_stderr(format_args!($($arg)*))
    };
}

/// An informational line on stderr (which engine ran, what was written): `note!` unless
/// `--quiet` asked for errors only.
macro_rules! status {
    ($($arg:tt)*) => {
        if !$crate::QUIET.load(std::sync::atomic::Ordering::Relaxed) {
            $crate::write_stderr(format_args!($($arg)*))
        }
    };
}

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
mod shader;
mod stream;
mod tiles;
mod verify;
mod workloads;
mod world;
mod zarr;

use std::process::ExitCode;

use clap::Parser;
use gpu_noise::Error;

use args::{Cli, Command, NoiseArgs};
use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::low_level::text::shown_path;

/// `--quiet`: errors only (no progress bar, no engine notice, no summary line).
pub static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn main() -> ExitCode {
    quiet_mesa();
    clean_up_on_signals();
    let cli = Cli::parse();
    let paths = path_flags(&cli.command);
    for rounded in rounded_offsets(&cli.command) {
        note!("gpu-noise: warning: --offset {rounded}");
    }
    // A bad WGPU_BACKEND is refused by every command alike, whichever backend it runs on.
    let adapters = gpu_noise::gpu::AdapterChoice::from_env();
    let result = adapters.and_then(|_| match cli.command {
        Command::Render(a) => {
            QUIET.store(a.quiet, std::sync::atomic::Ordering::Relaxed);
            render::run(a)
        }
        Command::Sample(a) => sample::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Info => info::run(),
        Command::Bench(a) => bench::run(a),
        Command::Shader(a) => shader::run(a),
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            note!("gpu-noise: error: {}", describe(&e, &paths));
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

/// The noise flags of a command that has them.
fn noise_args(command: &Command) -> Option<&NoiseArgs> {
    match command {
        Command::Render(a) => Some(&a.noise),
        Command::Sample(a) => Some(&a.noise),
        Command::Verify(a) => Some(&a.noise),
        Command::Shader(a) => Some(&a.noise),
        Command::Bench(_) | Command::Info => None,
    }
}

/// The paths the command was given, with the flag that gave each (`-o`, `--graph`,
/// `--spec`), so that a file error names its flag.
fn path_flags(command: &Command) -> Vec<(std::path::PathBuf, &'static str)> {
    let (graph, output) = match command {
        Command::Render(a) => (&a.graph, &a.output),
        Command::Sample(a) => (&a.graph, &None),
        Command::Verify(a) => (&a.graph, &None),
        Command::Bench(a) => (&a.graph, &None),
        Command::Shader(a) => (&a.graph, &a.output),
        Command::Info => (&None, &None),
    };
    let spec = noise_args(command).and_then(|n| n.spec.clone());
    [
        (output.clone(), "-o"),
        (graph.clone(), "--graph"),
        (spec, "--spec"),
    ]
    .into_iter()
    .filter_map(|(path, flag)| Some((path?, flag)))
    .collect()
}

/// What `--offset` rounded (whole numbers past 2^53), to say so.
fn rounded_offsets(command: &Command) -> Vec<String> {
    (noise_args(command).and_then(|n| n.offset.as_ref())).map_or(Vec::new(), |c| c.1.clone())
}

/// The message of an error with the CLI's flag names for the library's fields (and for the
/// paths it was given), followed by its sources.
fn describe(e: &Error, paths: &[(std::path::PathBuf, &str)]) -> String {
    let mut text = match e {
        Error::InvalidSpec { field, reason }
        | Error::InvalidOutput { field, reason }
        | Error::Precision { field, reason } => {
            format!("{}: {reason}", flag(field))
        }
        // A file the command was given, or one inside a folder it was given (a tile set).
        Error::Io { path, .. } => match paths.iter().find(|(p, _)| path.starts_with(p)) {
            Some((_, flag)) => format!("{flag} {}", shown_path(path)),
            None => shown_path(path),
        },
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

/// Removes temporary output files on every signal that would end the process (SIGINT,
/// SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE), then exits 128 + the signal's number
/// (130, 143, 129, ...), as shells report a process killed by it. The exit happens while the
/// registry of temporaries is held, so no other thread can create or report a file after the
/// clean-up. SIGXFSZ (a `ulimit -f` reached) is ignored, so the write fails with EFBIG and the
/// ordinary error path removes the file and names it. (SIGKILL cannot be caught: it can leave a
/// `.gpu-noise-PID-N.tmp` file beside the target.)
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGPIPE, SIGTERM, SIGUSR1, SIGUSR2};
    // SAFETY: called in main before any other thread exists; SIG_IGN is a valid disposition.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let handled = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE];
    let mut signals = match signal_hook::iterator::Signals::new(handled) {
        Ok(signals) => signals,
        Err(e) => {
            note!(
                "gpu-noise: warning: cannot handle signals ({e}); an interrupt may leave a temporary file"
            );
            return;
        }
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            leave(signal)
        }
    });
}

/// Removes every temporary and exits 128 + `signal` with a line on stderr; for SIGPIPE (the
/// reader of our output left, as in `gpu-noise info | head -1`, and there is no one to tell)
/// it ends quietly, killed by SIGPIPE as `cat` would be.
fn leave(signal: i32) -> ! {
    gpu_noise::low_level::export::remove_all_temporaries(|removed| {
        if signal == libc::SIGPIPE {
            // SAFETY: restoring the default action and raising it ends the process here.
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                libc::raise(libc::SIGPIPE);
            }
        }
        let what = if removed > 0 {
            "; its partial output was removed"
        } else {
            ""
        };
        note!("\ngpu-noise: interrupted{what}");
        std::process::exit(128 + signal)
    })
}

/// The error of a failed write to stdout; a reader that left (a broken pipe) ends the process
/// as SIGPIPE would, quietly.
pub fn stdout_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        leave(libc::SIGPIPE)
    }
    Error::io("stdout", e)
}

/// Mesa prints "XDG_RUNTIME_DIR is invalid or not set" twice when wgpu creates an instance on a
/// headless machine without one; point it at the temp dir (for this process only).
fn quiet_mesa() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // SAFETY: called first thing in main, before any other thread exists.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir()) };
    }
}

/// One line on standard output (see `outln!`).
pub fn write_stdout(line: std::fmt::Arguments) -> gpu_noise::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    (out.write_fmt(line))
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// One line on standard error (see `note!`).
pub fn write_stderr(line: std::fmt::Arguments) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    // Nowhere to report a failure to report: dropped on purpose.
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
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
