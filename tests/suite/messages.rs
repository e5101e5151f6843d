//! Messages that name what is wrong (issue 13, point 11), each exit 2.

use std::os::unix::ffi::OsStrExt;

use crate::cli::{command, run, run_stdin, text, tmp};

fn refused(o: &std::process::Output, words: &[&str]) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for w in words {
        assert!(err.contains(w), "missing {w:?} in: {err}");
    }
}

#[test]
fn a_spec_files_type_error_names_the_field() {
    let d = tmp();
    let path = d.path().join("s.json");
    std::fs::write(&path, r#"{"kind": "value", "dims": "2"}"#).unwrap();
    refused(
        &run(&["render", "--spec", path.to_str().unwrap(), "--print-spec"]),
        &["--spec", "`dims`"],
    );
}

#[test]
fn a_tile_index_past_u32_says_so() {
    let o = run(&[
        "render",
        "--tiles",
        "8",
        "--tile-range",
        "0..18446744073709551615,0..1",
        "-o",
        "x/",
    ]);
    refused(&o, &["--tile-range", "larger than any tile index"]);
}

#[test]
fn a_bad_wgpu_backend_stops_every_command_alike() {
    for args in [
        &["render", "--backend", "cpu", "--print-spec"][..],
        &["sample", "--backend", "cpu"],
    ] {
        let o = command()
            .env("WGPU_BACKEND", "foo")
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        refused(&o, &["WGPU_BACKEND"]);
    }
    let o = command()
        .env("WGPU_BACKEND", std::ffi::OsStr::from_bytes(b"vulk\xffan"))
        .args(["sample", "--backend", "cpu"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    refused(&o, &["WGPU_BACKEND"]);
    // Unset, sampling works.
    assert!(
        run_stdin(&["sample", "--backend", "cpu"], "1 2\n")
            .status
            .success()
    );
}

#[test]
fn level_flags_on_a_plotted_1d_profile_are_refused() {
    let d = tmp();
    let png = d.path().join("p.png");
    let s = png.to_str().unwrap();
    for (flag, value) in [
        ("--colormap", "magma"),
        ("--bits", "16"),
        ("--range", "-1,1"),
    ] {
        let o = run(&[
            "render", "--dims", "1", "--size", "64", flag, value, "-o", s,
        ]);
        refused(&o, &[flag, "plotted profile"]);
        assert!(!png.exists());
    }
    assert!(
        run(&["render", "--dims", "1", "--size", "64", "-o", s])
            .status
            .success()
    );
}

/// Issue 13, point 7: a FIFO given as `-o` was replaced by a regular file; a symbolic link too.
/// Now a FIFO is refused and a link is written through (it stays a link).
#[test]
fn a_fifo_is_refused_and_a_link_is_written_through() {
    let d = tmp();
    let fifo = d.path().join("pipe.png");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let o = run(&["render", "--size", "16", "-o", fifo.to_str().unwrap()]);
    refused(&o, &["-o", "not a regular file"]);
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()));
    let real = d.path().join("real.png");
    let link = d.path().join("link.png");
    std::os::unix::fs::symlink("real.png", &link).unwrap();
    let o = run(&[
        "render",
        "--backend",
        "cpu",
        "--size",
        "16",
        "-o",
        link.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(image::open(&real).is_ok());
}
