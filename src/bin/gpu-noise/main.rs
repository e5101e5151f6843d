//! `gpu-noise`: render, sample, verify, info, bench. Bad input exits 2, failures exit 1.

mod args;
mod bench;
mod info;
mod render;
mod sample;
mod verify;

use std::process::ExitCode;

use clap::Parser;
use gpu_noise::Error;
use gpu_noise::spec_file::SpecFile;

use args::{Cli, Command, NoiseArgs};

fn main() -> ExitCode {
    quiet_mesa();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Render(a) => render::run(a),
        Command::Sample(a) => sample::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Info => info::run(),
        Command::Bench(a) => bench::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gpu-noise: error: {e}");
            match e {
                Error::InvalidSpec { .. } => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
    }
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
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| Error::InvalidSpec {
                field: "--spec",
                reason: format!("{}: {e}", path.display()),
            })?;
            SpecFile::from_json(&text)?
        }
        None => SpecFile::default(),
    };
    Ok(base.overlay(noise.layer()))
}

/// Seconds as a short human string.
pub fn seconds(d: std::time::Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}
