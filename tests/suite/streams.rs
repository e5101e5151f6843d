//! Standard streams and signals: a full or closed stdout or stderr is an error or a dropped
//! status line, never a panic; terminating signals leave no temporary file.

use std::process::{Output, Stdio};

use super::cli::{command, out, text, tmp};

/// Runs the CLI with stdout (or stderr) on /dev/full, the other captured.
fn full(args: &[&str], stdout_full: bool) -> Output {
    let dev_full = || Stdio::from(std::fs::File::create("/dev/full").expect("/dev/full"));
    let mut c = command();
    c.args(args);
    if stdout_full {
        c.stdout(dev_full()).stderr(Stdio::piped());
    } else {
        c.stdout(Stdio::piped()).stderr(dev_full());
    }
    c.output().expect("run gpu-noise")
}

#[test]
fn a_full_stdout_is_a_clear_error_with_exit_2_not_a_panic() {
    let d = tmp();
    let (_, s) = out(d.path(), "x.f32");
    let commands: [&[&str]; 3] = [
        &[
            "render",
            "--print-spec",
            "--size",
            "4",
            "--backend",
            "cpu",
            "-o",
            &s,
        ],
        &["verify", "--size", "16", "--backend", "simd"],
        &["info"],
    ];
    for args in commands {
        let o = full(args, true);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("stdout: No space left on device"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_full_stderr_drops_status_lines_and_keeps_the_exit_code() {
    let d = tmp();
    let (p, s) = out(d.path(), "x.png");
    let o = full(
        &["render", "--size", "4", "--backend", "cpu", "-o", &s],
        false,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(p.exists());
    // Bad input still exits 2 though its message cannot be written.
    let missing = d.path().join("no/such/folder/x.png");
    let args = ["render", "--size", "4", "--backend", "cpu", "-o"];
    let o = full(&[&args[..], &[missing.to_str().unwrap()]].concat(), false);
    assert_eq!(o.status.code(), Some(2));
}

/// Found by hostile input: under `ulimit -f` the process was killed by SIGXFSZ (exit 153, no
/// message) and left its temporary file.
#[test]
fn a_file_size_limit_is_an_error_naming_the_file_and_leaves_nothing() {
    let d = tmp();
    let (path, s) = out(d.path(), "x.png");
    let o = std::process::Command::new("sh")
        .args(["-c", "ulimit -f 2000; exec \"$0\" \"$@\""])
        .arg(super::cli::bin())
        .args(["render", "--backend", "cpu", "--size", "4096", "-o", &s])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .output()
        .expect("sh");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("x.png: File too large"), "{err}");
    assert!(!path.exists());
    assert!(super::cli::leftovers(d.path()).is_empty(), "{err}");
}
