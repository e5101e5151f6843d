//! Flags that would do nothing are refused naming them, and `--quiet` means errors only
//! (found by a hostile probe: each of these exited 0 having ignored the flag).

use super::cli::{assert_bad_input, out, run, run_stdin, text, tmp};

#[test]
fn bench_modes_refuse_the_workload_tables_flags() {
    let graph = super::graph_cli::TERRAIN;
    for extra in [
        &["--json", "x.json"][..],
        &["--plot", "x.png"],
        &["--grid", "512"],
    ] {
        let o = run(&[&["bench", "--graph", graph][..], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(text(&o.stderr).contains(extra[0]), "{}", text(&o.stderr));
    }
    let o = run(&["bench", "--fastnoise2", "lib.so", "--workload", "value-2d"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--workload"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn sample_graph_refuses_noise_flags() {
    let o = run_stdin(
        &[
            "sample",
            "--graph",
            super::graph_cli::TERRAIN,
            "--frequency",
            "-5",
        ],
        "0 0\n",
    );
    assert_bad_input(&o, &["--frequency", "node parameter"]);
    assert!(o.stdout.is_empty());
}

#[test]
fn an_empty_tile_range_is_refused_with_the_half_open_rule() {
    let d = tmp();
    let s = format!("{}/", d.path().join("t").display());
    let args = ["render", "--backend", "cpu", "--size", "8", "--tiles", "4"];
    for range in ["0..0,0..0", "1..1,0..2"] {
        let o = run(&[&args[..], &["--tile-range", range, "-o", &s]].concat());
        assert_bad_input(&o, &["--tile-range", "half-open"]);
        assert!(!d.path().join("t").exists(), "{range}: wrote a folder");
    }
}

#[test]
fn quiet_means_errors_only() {
    let d = tmp();
    let (p, s) = out(d.path(), "q.png");
    let tiles = format!("{}/", d.path().join("t").display());
    let (pn, n) = out(d.path(), "n.png");
    let runs: [&[&str]; 3] = [
        &["render", "--size", "8", "-q", "-o", &s],
        &["render", "--size", "8", "-q", "--tiles", "4", "-o", &tiles],
        &[
            "render",
            "--size",
            "8",
            "--quiet",
            "--channels",
            "normal",
            "-o",
            &n,
        ],
    ];
    for args in runs {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{args:?}");
        assert!(o.stdout.is_empty());
    }
    assert!(p.exists() && pn.exists() && d.path().join("t/index.json").exists());
    // Errors still speak.
    let o = run(&["render", "--size", "0", "-q", "-o", &s]);
    assert_bad_input(&o, &["--size"]);
}

/// Was: offsets past 2^53 were rounded silently (9007199254740993 rendered, and printed, as
/// ...992). Offsets are f64; the CLI now says when a whole number was rounded.
#[test]
fn an_offset_no_f64_holds_is_said_to_be_rounded() {
    let d = tmp();
    let (_, s) = out(d.path(), "o.f32");
    let args = ["render", "--backend", "cpu", "--size", "4", "-q", "-o", &s];
    let o = run(&[&args[..], &["--offset", "9007199254740993,-3"]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("9007199254740993") && err.contains("rounded to 9007199254740992"),
        "{err}"
    );
    // Exact ones pass in silence.
    let o = run(&[&args[..], &["--offset", "9007199254740992,-3"]].concat());
    assert_eq!(text(&o.stderr), "");
}

/// The README's first command (`--range auto`): the image's own extremes become black and white
/// (the nominal range left a first picture gray), --print-spec holds them, so the printed spec
/// renders the same file again; a tile set, whose tiles must agree, refuses it.
#[test]
fn range_auto_stretches_one_image_to_its_extremes_and_replays() {
    let d = tmp();
    let (p, s) = out(d.path(), "perlin.png");
    let first = [
        "render",
        "--kind",
        "perlin",
        "--fractal",
        "fbm",
        "--octaves",
        "6",
    ];
    let o = run(&[
        &first[..],
        &["--range", "auto", "--print-spec", "-q", "-o", &s],
    ]
    .concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gray = image::open(&p).unwrap().to_luma8();
    let (lo, hi) = gray
        .pixels()
        .fold((255, 0), |(lo, hi), q| (lo.min(q.0[0]), hi.max(q.0[0])));
    assert_eq!((lo, hi), (0, 255));
    let spec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let range = spec["range"].as_array().expect("the spec holds the range");
    assert!(range[0].as_f64().unwrap() < -0.3 && range[1].as_f64().unwrap() > 0.3);
    let spec_path = d.path().join("spec.json");
    std::fs::write(&spec_path, &o.stdout).unwrap();
    let (again, s2) = out(d.path(), "again.png");
    let o = run(&[
        "render",
        "--spec",
        spec_path.to_str().unwrap(),
        "-q",
        "-o",
        &s2,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(&p).unwrap(), std::fs::read(&again).unwrap());
    let tiles = format!("{}/", d.path().join("t").display());
    let o = run(&["render", "--range", "auto", "--tiles", "64", "-o", &tiles]);
    assert_bad_input(&o, &["--range", "tile set"]);
}
