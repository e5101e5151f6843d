//! Outputs under hostile conditions (found by hostile input, each failing before its fix):
//! `sample` streams in bounded memory, an interrupted render leaves no temporary file, the
//! longest legal names can be written, and the output folder is checked before any work.

use std::io::Read;
use std::process::Stdio;

use crate::cli::{assert_bad_input, command, leftovers, out, run, text, tmp};

/// Found by hostile input: `sample` held every point and printed nothing until EOF (10 million
/// points aborted under a 1 GiB limit). Now values come out while input is still arriving, and
/// memory stays flat however long the input is.
#[test]
fn sample_streams_its_output_in_bounded_memory() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = command()
        .args(["sample", "--dims", "3", "--lattice", "table"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // An answer arrives while stdin is still open: nothing waits for EOF.
    stdin.write_all(b"3.14 42 7\n").unwrap();
    stdin.flush().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut first = String::new();
        let _ = stdout.read_line(&mut first);
        let _ = send.send((first, stdout));
    });
    let Ok((first, mut stdout)) = receive.recv_timeout(std::time::Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("no answer while stdin stays open: sample waits for EOF");
    };
    assert_eq!(first, "0.13691995878400012\n");
    // Two million more points, read as they come; peak memory stays far below what holding
    // them would take (2e6 points x 32 bytes = 64 MB, plus their text).
    let pid = child.id();
    let writer = std::thread::spawn(move || {
        let line = b"0.5 1.25 -3.75\n".repeat(10_000);
        for _ in 0..200 {
            stdin.write_all(&line).unwrap();
        }
    });
    let mut lines = 0u64;
    let mut peak_kib = 0u64;
    let mut buf = String::new();
    while stdout.read_line(&mut buf).unwrap() > 0 {
        lines += 1;
        buf.clear();
        if lines.is_multiple_of(100_000) {
            peak_kib = peak_kib.max(vm_hwm_kib(pid));
        }
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    assert_eq!(lines, 2_000_000);
    assert!(
        peak_kib > 0 && peak_kib < 48 * 1024,
        "peak RSS {peak_kib} KiB"
    );
}

/// The peak resident set of a running process, from /proc.
fn vm_hwm_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Found by hostile input: SIGINT or SIGTERM during a long render left `.NAME.tmp-PID` behind
/// (and later SIGUSR1, SIGALRM and SIGPIPE did). The exit status is 128 + the signal's number, as
/// a shell reports it (SIGINT 2, SIGHUP 1, SIGTERM 15, SIGUSR1 10, SIGALRM 14 on Linux); SIGPIPE
/// ends it quietly, killed by SIGPIPE, once the temporaries are gone.
#[test]
fn interrupting_a_render_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    // (exit code, killing signal): 128 + n, or for SIGPIPE a quiet death by it, as `cat`'s.
    let signals = [
        ("-INT", (Some(130), None)),
        ("-TERM", (Some(143), None)),
        ("-HUP", (Some(129), None)),
        ("-USR1", (Some(138), None)),
        ("-ALRM", (Some(142), None)),
        ("-PIPE", (None, Some(13))),
    ];
    for (signal, expected) in signals {
        let d = tmp();
        let (path, s) = out(d.path(), "big.f32");
        let mut child = command()
            .args([
                "render",
                "--backend",
                "cpu",
                "--size",
                "16384x16384",
                "--quiet",
                "-o",
                &s,
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the temporary file exists and is growing, then interrupt.
        let mut waited = 0;
        while leftovers(d.path()).is_empty() && waited < 600 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            waited += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            !leftovers(d.path()).is_empty(),
            "{signal}: no temporary file appeared"
        );
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(
            (status.code(), status.signal()),
            expected,
            "{signal}: {err}"
        );
        assert!(!path.exists(), "{signal}: a partial file at the target");
        assert!(
            leftovers(d.path()).is_empty(),
            "{signal}: left {:?}",
            leftovers(d.path())
        );
    }
}

/// Found by hostile input: Legal names of 246-255 bytes could not be written: the temporary name
/// added ~10 bytes.
#[test]
fn the_longest_legal_file_names_can_be_written() {
    let d = tmp();
    for len in [246, 251, 255] {
        let name = format!("{}.f32", "n".repeat(len - 4));
        let (path, s) = out(d.path(), &name);
        let o = run(&["render", "--backend", "cpu", "--size", "8x8", "-o", &s]);
        assert!(o.status.success(), "{len} bytes: {}", text(&o.stderr));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8 * 8 * 4);
    }
    assert_eq!(leftovers(d.path()).len(), 3);
}

/// Found by hostile input: The output path was checked only after rendering (65 s at 2^30 texels).
/// Now it is the first thing checked: here, before even looking for a GPU adapter that does not
/// exist.
#[test]
fn the_output_folder_is_checked_before_any_work() {
    let d = tmp();
    let missing = d.path().join("no-such-folder").join("a.f32");
    let o = command()
        .args(["render", "--backend", "gpu", "-o"])
        .arg(&missing)
        .env("WGPU_ADAPTER_NAME", "no adapter has this name")
        .output()
        .unwrap();
    assert_bad_input(&o, &["no-such-folder"]);
    assert!(!text(&o.stderr).contains("adapter"), "{}", text(&o.stderr));
}
