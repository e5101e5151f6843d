//! PNG slice sequences (`-o 's_{k}.png'`) are all or nothing: a failure or a signal part way
//! leaves no slice, and every `{k}` of the pattern is the slice number.

use std::process::Stdio;

use crate::cli::{command, run, text, tmp};

/// A 3D render of `size` on the CPU backend to the slice pattern `pattern`.
fn render_volume(size: &str, pattern: &str) -> std::process::Output {
    run(&[
        "render",
        "--backend",
        "cpu",
        "--dims",
        "3",
        "--size",
        size,
        "-o",
        pattern,
    ])
}

fn slices(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_folder_in_the_way_of_slice_5_leaves_no_slice() {
    let d = tmp();
    std::fs::create_dir(d.path().join("s_5.png")).unwrap();
    let pattern = format!("{}/s_{{k}}.png", d.path().display());
    let o = render_volume("16x16x8", &pattern);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(slices(d.path()), vec!["s_5.png"], "slices were left");
}

#[test]
fn a_sigterm_part_way_through_a_sequence_leaves_no_slice() {
    let d = tmp();
    let pattern = format!("{}/s_{{k:03}}.png", d.path().display());
    let mut child = command()
        .args([
            "render",
            "--backend",
            "cpu",
            "--dims",
            "3",
            "--size",
            "512x512x256",
        ])
        .args([
            "--fractal",
            "fbm",
            "--octaves",
            "4",
            "--quiet",
            "-o",
            &pattern,
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for four temporaries: slices 0-2 finished (waiting under temporary names for the
    // last) and slice 3 in progress.
    let mut waited = 0;
    while slices(d.path()).len() < 4 && waited < 2400 {
        std::thread::sleep(std::time::Duration::from_millis(25));
        waited += 1;
    }
    assert!(
        slices(d.path()).len() >= 4,
        "no progress: {:?}",
        slices(d.path())
    );
    std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert_eq!(slices(d.path()), Vec::<String>::new());
}

#[test]
fn every_k_of_a_pattern_is_the_slice_number_and_bad_forms_are_named() {
    let d = tmp();
    let pattern = format!("{}/s_{{k}}_{{k:02}}.png", d.path().display());
    let o = render_volume("8x8x3", &pattern);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        slices(d.path()),
        vec!["s_0_00.png", "s_1_01.png", "s_2_02.png"]
    );
    for bad in ["t_{k:3}.png", "t_{k.png"] {
        let pattern = format!("{}/{bad}", d.path().display());
        let o = render_volume("8x8x3", &pattern);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            text(&o.stderr).contains("{k:04}"),
            "{bad}: {}",
            text(&o.stderr)
        );
    }
    // A tile set is not a sequence: no folder named after the pattern is made.
    let pattern = format!("{}/tk/{{k}}.png", d.path().display());
    let o = run(&["render", "--size", "64x64", "--tiles", "32", "-o", &pattern]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!d.path().join("tk").exists());
}
