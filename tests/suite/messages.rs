//! Messages that name what is wrong (issue 13, point 11), each exit 2.

use std::os::unix::ffi::OsStrExt;

use crate::cli::{
    assert_bad_input, command, leftovers, out, run, run_stdin, run_stdin_bytes, text, tmp,
};

#[test]
fn a_spec_files_type_error_names_the_field() {
    let d = tmp();
    let path = d.path().join("s.json");
    std::fs::write(&path, r#"{"kind": "value", "dims": "2"}"#).unwrap();
    assert_bad_input(
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
    assert_bad_input(&o, &["--tile-range", "larger than any tile index"]);
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
        assert_bad_input(&o, &["WGPU_BACKEND"]);
    }
    let o = command()
        .env("WGPU_BACKEND", std::ffi::OsStr::from_bytes(b"vulk\xffan"))
        .args(["sample", "--backend", "cpu"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_bad_input(&o, &["WGPU_BACKEND"]);
    // Unset, sampling works.
    assert!(
        run_stdin(&["sample", "--backend", "cpu"], "1 2\n")
            .status
            .success()
    );
}

#[test]
fn level_flags_on_a_plotted_1d_profile_are_assert_bad_input() {
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
        assert_bad_input(&o, &[flag, "plotted profile"]);
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
    assert_bad_input(&o, &["-o", "not a regular file"]);
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

/// Found by hostile input: Messages that misled.
#[test]
fn messages_name_the_real_cause_and_values_parse_as_users_write_them() {
    let d = tmp();
    let (png, s) = out(d.path(), "a.png");
    // Offset and lacunarity overflows were blamed on --frequency.
    assert_bad_input(
        &run(&["render", "--offset", "1e21,0", "-o", &s]),
        &["--offset", "2^62"],
    );
    let o = run(&[
        "render",
        "--fractal",
        "fbm",
        "--octaves",
        "16",
        "--lacunarity",
        "10",
        "-o",
        &s,
    ]);
    assert_bad_input(&o, &["--lacunarity"]);
    // `--frequency -inf` said "unexpected argument '-i'".
    assert_bad_input(
        &run(&["render", "--frequency", "-inf", "-o", &s]),
        &["--frequency"],
    );
    // sample rejected a --frequency it then ignored: now it says it does not apply.
    let o = run_stdin(&["sample", "--frequency", "0.5"], "1 2\n");
    assert_bad_input(&o, &["--frequency", "does not apply"]);
    // WGPU_BACKEND=nonsense was shown as Backends(0x0).
    let o = command()
        .args(["info"])
        .env("WGPU_BACKEND", "nonsense")
        .output()
        .unwrap();
    assert_bad_input(&o, &["WGPU_BACKEND", "vulkan"]);
    // bench --repeat 0 printed "median of 0".
    assert_bad_input(&run(&["bench", "--repeat", "0"]), &["--repeat"]);
    assert_bad_input(&run(&["bench", "--grid", "1000"]), &["--grid", "256^3"]);
    assert_bad_input(
        &run(&["bench", "--workload", "perlin"]),
        &["--workload", "gabor-2d"],
    );
    // --range/--bits for .f32 were silently ignored.
    let (_, f32_out) = out(d.path(), "a.f32");
    for flag in [
        ["--range", "0,1"],
        ["--bits", "16"],
        ["--colormap", "magma"],
    ] {
        let args = [
            &["render", "--backend", "cpu", "-o", &f32_out][..],
            &flag[..],
        ]
        .concat();
        assert_bad_input(&run(&args), &[flag[0], ".png"]);
    }
    // sample with invalid UTF-8 exited 1.
    assert_bad_input(
        &run_stdin_bytes(&["sample"], b"1 \xff\n"),
        &["stdin", "UTF-8"],
    );
    assert!(!png.exists() && leftovers(d.path()).is_empty());
}

/// sizes, ranges and the tiling fix-it.
#[test]
fn one_number_means_a_square_huge_ranges_map_and_tile_suggestions_tile() {
    let d = tmp();
    let (png, s) = out(d.path(), "square.png");
    let o = run(&["render", "--backend", "cpu", "--size", "40", "-o", &s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (40, 40));
    // --range=-1e308,1e308 overflowed hi - lo into a black image; every value maps to mid-gray.
    let (png, s) = out(d.path(), "range.png");
    let o = run(&[
        "render",
        "--backend",
        "cpu",
        "--size",
        "16",
        "--range=-1e308,1e308",
        "-o",
        &s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gray = image::open(&png).unwrap().to_luma8();
    assert!(
        gray.pixels().all(|p| p[0] == 128),
        "{:?}",
        gray.pixels().next()
    );
    // The --tile fix-it suggested a frequency that failed when lacunarity was not 2.
    let (_, s) = out(d.path(), "tile.png");
    let base = [
        "render",
        "--backend",
        "cpu",
        "--size",
        "60",
        "--tile",
        "--fractal",
        "fbm",
    ];
    let o = run(&[
        &base[..],
        &["--octaves", "4", "--lacunarity", "1.5", "-o", &s],
    ]
    .concat());
    assert_bad_input(&o, &["--tile", "e.g. frequency"]);
    let err = text(&o.stderr);
    let suggested = err
        .split("e.g. frequency ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| c == ')' || c.is_whitespace()).next())
        .expect("a suggested frequency");
    let o = run(&[
        &base[..],
        &[
            "--octaves",
            "4",
            "--lacunarity",
            "1.5",
            "--frequency",
            suggested,
            "-o",
            &s,
        ],
    ]
    .concat());
    assert!(
        o.status.success(),
        "suggested {suggested}: {}",
        text(&o.stderr)
    );
}

/// `gpu-noise info | grep -q Vulkan` closes the pipe before the command is done. It ends
/// quietly by SIGPIPE, as `cat` does, instead of panicking ("failed printing to stdout") or
/// reporting the closed pipe as an error (which made `grep -q` pipelines fail under pipefail).
#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let runs: [(&[&str], &str); 3] = [
        (&["info"], ""),
        (&["render", "--print-spec", "--kind", "cellular"], ""),
        (&["sample", "--backend", "cpu"], "0 0\n1 1\n"),
    ];
    for (args, input) in runs {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let mut child = command()
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            let _ = stdin.write_all(input.as_bytes());
        }
        let out = child.wait_with_output().expect("wait");
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.signal(),
            Some(13),
            "{args:?}: expected an end by SIGPIPE, got {:?}; stderr: {stderr}",
            out.status
        );
        assert!(stderr.is_empty(), "{args:?} printed: {stderr}");
    }
}

/// Found by the third hostile probe: messages that blamed the wrong flag, misquoted a value or
/// misdescribed what was written.
#[test]
fn messages_name_the_flag_and_quote_the_value_given() {
    let d = tmp();
    let graph = |name: &str, json: &str| {
        let p = d.path().join(name);
        std::fs::write(&p, json).unwrap();
        p.display().to_string()
    };
    let cpu = ["--backend", "cpu", "--size", "4"];
    let missing = d.path().join("nonexist/x.png").display().to_string();
    let o = run(&[&["render", "-o", &missing][..], &cpu].concat());
    assert_bad_input(&o, &["-o ", "nonexist/x.png", "No such file"]);
    let (_, x) = out(d.path(), "x.f32");
    let o = run(&[&["render", "--graph", "no-such.json", "-o", &x][..], &cpu].concat());
    assert_bad_input(&o, &["--graph no-such.json"]);
    // Integral floats are whole numbers, as Python's json writes them; a refused one is
    // quoted as written.
    let fbm = |octaves: &str| {
        format!(
            r#"{{"dims":2.0,"seed":3.0,"output":"c","nodes":{{"p":{{"type":"perlin"}},
                "c":{{"type":"fbm","source":"p","octaves":{octaves}}}}}}}"#
        )
    };
    let ok = run(&[
        &["render", "--graph", &graph("a.json", &fbm("4.0")), "-o", &x][..],
        &cpu,
    ]
    .concat());
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(text(&ok.stderr).contains("a graph of 2 nodes, 4 noise evaluations"));
    let o = run(&[
        &[
            "render",
            "--graph",
            &graph("b.json", &fbm("40.0")),
            "-o",
            &x,
        ][..],
        &cpu,
    ]
    .concat());
    assert_bad_input(&o, &["octaves", "got 40.0"]);
    // A control character in a name is shown escaped, not dropped.
    let bell = graph(
        "c.json",
        "{\"output\":\"a\\u0007b\",\"nodes\":{\"a\\u0007b\":{\"type\":\"perlin\"}}}",
    );
    let o = run(&[&["render", "--graph", &bell, "-o", &x][..], &cpu].concat());
    assert_bad_input(&o, &["\"a\\u{7}b\""]);
    let empty = graph("e.json", r#"{"output":"","nodes":{"p":{"type":"perlin"}}}"#);
    let o = run(&[&["render", "--graph", &empty, "-o", &x][..], &cpu].concat());
    assert_bad_input(&o, &["output: is empty"]);
    // An overflowing number is quoted as given, not reported as "inf".
    let o = run(&["render", "--frequency", "1e999", "-o", &x]);
    assert_bad_input(&o, &["--frequency", "\"1e999\""]);
    // A normal map of a volume is the size's fault, not the output's.
    let (_, n) = out(d.path(), "n.png");
    let volume = ["--backend", "cpu", "--dims", "3", "--size", "16x16x4"];
    let o = run(&[&["render", "--channels", "normal", "-o", &n][..], &volume].concat());
    assert_bad_input(&o, &["--size", "16x16x4"]);
    let (_, g) = out(d.path(), "g.npy");
    let o = run(&[&["render", "--channels", "gradient", "-o", &g][..], &volume].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("gradient of 16x16x4"),
        "{}",
        text(&o.stderr)
    );
}
