//! What `render --print-spec` writes can be given back (issue 13, point 9): to `render --spec`
//! with another `--kind`, and to `sample --spec`, which sets aside the image's fields.

use crate::cli::{assert_bad_input, out, run, run_stdin, text, tmp};

fn printed(args: &[&str], path: &std::path::Path) {
    let o = run(&[&["render", "--print-spec"][..], args].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::write(path, &o.stdout).unwrap();
}

#[test]
fn a_printed_spec_takes_another_kind_without_the_old_kinds_fields() {
    let d = tmp();
    let spec = d.path().join("c.json");
    printed(&["--kind", "cellular", "--jitter", "0.5"], &spec);
    let o = run(&[
        "render",
        "--spec",
        spec.to_str().unwrap(),
        "--kind",
        "gradient",
        "--print-spec",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(out["kind"], "gradient");
    assert!(out.get("jitter").is_none(), "{out}");
    assert_eq!(
        out["interp"], "cubic",
        "gradient's own default, not perlin's quintic"
    );
    // A flag of the old kind beside the new one is still an error.
    let o = run(&[
        "render",
        "--kind",
        "gradient",
        "--jitter",
        "0.5",
        "--print-spec",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn sample_takes_a_printed_spec_and_still_refuses_image_flags() {
    let d = tmp();
    let spec = d.path().join("s.json");
    printed(
        &[
            "--kind", "simplex", "--dims", "3", "--seed", "5", "--offset", "7,8,9",
        ],
        &spec,
    );
    let points = "0.5 1.25 -3\n100.75 -2 0.125\n";
    let from_spec = run_stdin(&["sample", "--spec", spec.to_str().unwrap()], points);
    assert!(from_spec.status.success(), "{}", text(&from_spec.stderr));
    let from_flags = run_stdin(
        &["sample", "--kind", "simplex", "--dims", "3", "--seed", "5"],
        points,
    );
    assert!(from_flags.status.success(), "{}", text(&from_flags.stderr));
    assert_eq!(text(&from_spec.stdout), text(&from_flags.stdout));
    assert_eq!(text(&from_spec.stdout).lines().count(), 2);
    // A tiling spec keeps its size and frequency: they set the period.
    let tiled = d.path().join("t.json");
    printed(
        &["--tile", "--size", "64x64", "--frequency", "0.125"],
        &tiled,
    );
    let a = run_stdin(
        &["sample", "--spec", tiled.to_str().unwrap()],
        "1.5 2.5\n9.5 10.5\n",
    );
    assert!(a.status.success(), "{}", text(&a.stderr));
    let b = run_stdin(
        &[
            "sample",
            "--tile",
            "--size",
            "64x64",
            "--frequency",
            "0.125",
        ],
        "1.5 2.5\n9.5 10.5\n",
    );
    assert_eq!(text(&a.stdout), text(&b.stdout));
    let o = run_stdin(&["sample", "--offset", "1,2"], "0 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--offset"), "{}", text(&o.stderr));
}

/// `--print-spec` of a tile-set run records the tile settings, and the spec replays the same
/// tile set (issue 13, point 9).
#[test]
fn a_tile_set_spec_records_its_tiles_and_replays() {
    let d = tmp();
    let folder = d.path().join("w");
    let s = format!("{}/", folder.display());
    let args = [
        "render",
        "--backend",
        "cpu",
        "--size",
        "96x64",
        "--tiles",
        "32",
        "--tile-range",
        "1..3,0..1",
        "--tile-format",
        "f32",
        "-q",
        "-o",
        &s,
        "--print-spec",
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let spec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(spec["tiles"], 32);
    assert_eq!(spec["tile_range"], "1..3,0..1");
    assert_eq!(spec["tile_format"], "f32");
    let mut first: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    first.sort();
    assert_eq!(first, ["1_0.f32", "2_0.f32", "index.json"]);
    let path = d.path().join("spec.json");
    std::fs::write(&path, &o.stdout).unwrap();
    let again = d.path().join("again");
    let again_s = format!("{}/", again.display());
    let o = run(&[
        "render",
        "--spec",
        path.to_str().unwrap(),
        "-q",
        "-o",
        &again_s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for name in ["1_0.f32", "2_0.f32", "index.json"] {
        assert_eq!(
            std::fs::read(folder.join(name)).unwrap(),
            std::fs::read(again.join(name)).unwrap(),
            "{name}"
        );
    }
}

/// Found by hostile input: `--print-spec` printed specs that do not validate, with NaN as `null`,
/// which a later `--spec` silently replaced by the default.
#[test]
fn print_spec_validates_first_and_null_fields_are_errors() {
    let o = run(&["render", "--print-spec", "--frequency", "NaN"]);
    assert_bad_input(&o, &["--frequency"]);
    assert!(o.stdout.is_empty(), "printed {}", text(&o.stdout));
    let d = tmp();
    let (spec_path, spec) = out(d.path(), "s.json");
    std::fs::write(&spec_path, r#"{"kind": "perlin", "frequency": null}"#).unwrap();
    let (path, s) = out(d.path(), "a.f32");
    let o = run(&["render", "--spec", &spec, "--backend", "cpu", "-o", &s]);
    assert_bad_input(&o, &["--spec", "frequency", "null"]);
    assert!(!path.exists());
}

/// Found by hostile input: `--spec /dev/zero` read 4.2 GB before failing.
#[test]
fn spec_files_are_read_up_to_a_small_limit() {
    let d = tmp();
    let (_, s) = out(d.path(), "a.png");
    let o = run(&["render", "--spec", "/dev/zero", "-o", &s]);
    assert_bad_input(&o, &["--spec", "larger than"]);
}

/// A normal-map render's spec records `channels` and `normal_strength`, so replaying it (as
/// the previewer's exported specs are) writes the same normal map as the flags did; a level
/// field beside it is refused from a spec file as from a flag.
#[test]
fn a_normal_map_spec_replays_the_normal_map() {
    let d = tmp();
    let spec = d.path().join("n.json");
    let flags = [
        "--kind",
        "simplex",
        "--size",
        "32x32",
        "--channels",
        "normal",
    ];
    printed(&[&flags[..], &["--normal-strength", "4"]].concat(), &spec);
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&spec).unwrap()).unwrap();
    assert_eq!(written["channels"], "normal");
    assert_eq!(written["normal_strength"], 4.0);
    let (by_flags, by_flags_name) = out(d.path(), "flags.png");
    let (by_spec, by_spec_name) = out(d.path(), "spec.png");
    let mut args = vec!["render"];
    args.extend(flags);
    args.extend([
        "--normal-strength",
        "4",
        "--backend",
        "cpu",
        "-o",
        &by_flags_name,
    ]);
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let s = spec.to_str().unwrap();
    let o = run(&[
        "render",
        "--spec",
        s,
        "--backend",
        "cpu",
        "-o",
        &by_spec_name,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read(by_flags).unwrap(),
        std::fs::read(by_spec).unwrap()
    );
    let mut with_levels = written.clone();
    with_levels["colormap"] = "terrain".into();
    std::fs::write(&spec, with_levels.to_string()).unwrap();
    let o = run(&["render", "--spec", s, "-o", &by_spec_name]);
    assert_bad_input(&o, &["--channels", "`colormap`"]);
}
