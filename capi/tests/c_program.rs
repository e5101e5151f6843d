//! A C program (tests/c/render.c) compiled with `cc` against the C API's shared library:
//! every kind and a graph rendered on the twin and the SIMD backend equal `gpu-noise render`'s
//! `.f32` bit for bit, and bad input (JSON, fields, sizes, NULL pointers, short buffers) gets
//! its status and a message naming what was wrong.

use std::path::{Path, PathBuf};
use std::process::Command;

/// target/<profile>/deps/, where `cargo test` puts this test and the libraries it built with
/// it. (`cargo test` does not copy a cdylib up to target/<profile>/ as `cargo build` does: a
/// library there may be stale, so the test links the one beside itself.)
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

/// target/<profile>/, where the root crate's tests left the CLI.
fn target_dir() -> PathBuf {
    deps_dir().parent().unwrap().to_path_buf()
}

fn compiled(dir: &Path) -> PathBuf {
    let crate_dir = env!("CARGO_MANIFEST_DIR");
    let libs = deps_dir();
    assert!(
        libs.join("libgpu_noise_c.so").exists(),
        "no libgpu_noise_c.so in {}: cargo builds it with this test",
        libs.display()
    );
    let program = dir.join("render");
    let out = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&program)
        .arg(format!("-I{crate_dir}/include"))
        .arg(format!("{crate_dir}/tests/c/render.c"))
        .arg(format!("-L{}", libs.display()))
        .arg(format!("-Wl,-rpath,{}", libs.display()))
        .args(["-lgpu_noise_c", "-lm"])
        .output()
        .expect("cc runs (apt-get install -y gcc)");
    assert!(
        out.status.success(),
        "cc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    program
}

/// The compiled program, to run with the library beside this test: cargo runs tests with
/// LD_LIBRARY_PATH naming target/<profile>/ too, which the loader searches before the
/// program's runpath, so a stale library there (an earlier `cargo build`'s) would be the one
/// loaded. Found when a default changed and the C API answered with the old one.
fn program_command(program: &Path) -> Command {
    let mut command = Command::new(program);
    command.env("LD_LIBRARY_PATH", deps_dir());
    command
}

fn cli() -> PathBuf {
    let cli = target_dir().join("gpu-noise");
    assert!(
        cli.exists(),
        "the CLI is compared against: build it first (cargo build --release at the root)"
    );
    cli
}

/// Runs `command`, failing with its stderr unless it succeeds.
fn succeeds(command: &mut Command, name: &str) {
    let run = command.output().unwrap();
    assert!(
        run.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn bad_input_gets_a_status_and_a_message_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = program_command(&compiled(dir.path()))
        .arg("bad")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("0 failed"), "{stdout}");
}

#[test]
fn every_kind_and_a_graph_equal_the_clis_output_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let program = compiled(dir.path());
    let mut specs: Vec<(String, String)> = gpu_noise::Kind::NAMES
        .iter()
        .map(|kind| {
            let json = format!(
                "{{\"kind\": \"{kind}\", \"size\": [23, 17], \"seed\": 5, \"frequency\": 0.07, \
                 \"offset\": [1e9, -3.5], \"fractal\": \"fbm\", \"octaves\": 3}}"
            );
            (kind.to_string(), json)
        })
        .collect();
    let terrain = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/graphs/terrain.json"
    );
    let graph = std::fs::read_to_string(terrain).unwrap();
    // A spec file holding the graph, so that both read its size from the same text.
    let json = format!("{{\"graph\": {graph}, \"size\": [23, 17]}}");
    specs.push(("terrain".into(), json));
    for (name, json) in specs {
        let spec = dir.path().join(format!("{name}.json"));
        std::fs::write(&spec, &json).unwrap();
        for (backend, cli_backend) in [("0", "cpu"), ("1", "simd")] {
            let ours = dir.path().join(format!("{name}-{backend}.f32"));
            succeeds(
                program_command(&program).arg(&spec).arg(backend).arg(&ours),
                &name,
            );
            let theirs = dir.path().join(format!("{name}-{cli_backend}-cli.f32"));
            succeeds(
                Command::new(cli())
                    .args(["render", "--quiet", "--spec"])
                    .arg(&spec)
                    .args(["--backend", cli_backend, "-o"])
                    .arg(&theirs),
                &name,
            );
            let (a, b) = (
                std::fs::read(&ours).unwrap(),
                std::fs::read(&theirs).unwrap(),
            );
            assert!(
                !a.is_empty() && a == b,
                "{name} on {cli_backend}: the C API's bytes differ from the CLI's"
            );
        }
    }
}
