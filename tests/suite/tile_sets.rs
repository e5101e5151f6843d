//! Tile sets at scale (CONVENTIONS §6): the index is written once and lists no tile, so one
//! tile of a planet-sized world costs one tile; a run keeps the whole tiles already there and
//! re-renders cut ones; two worlds cannot share a folder, even started at once; and tile counts
//! past 2^24 files are refused.

use std::process::Stdio;

use crate::cli::{command, run, text, tmp};

fn tile_set(folder: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let s = format!("{}/", folder.display());
    let base = [
        "render",
        "--backend",
        "cpu",
        "--size",
        "64x64",
        "--tiles",
        "32",
    ];
    run(&[&base[..], extra, &["-o", &s]].concat())
}

#[test]
fn a_rerun_keeps_whole_tiles_and_renders_cut_or_emptied_ones_again() {
    let d = tmp();
    for format in ["png", "f32", "npy"] {
        let folder = d.path().join(format);
        let o = tile_set(&folder, &["--tile-format", format]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let first = |name: &str| std::fs::read(folder.join(format!("{name}.{format}"))).unwrap();
        let (a, b) = (first("0_0"), first("1_1"));
        // `truncate -s 10` one tile, empty another.
        let cut = std::fs::OpenOptions::new()
            .write(true)
            .open(folder.join(format!("0_0.{format}")))
            .unwrap();
        cut.set_len(10).unwrap();
        std::fs::write(folder.join(format!("1_1.{format}")), b"").unwrap();
        let o = tile_set(&folder, &["--tile-format", format]);
        let err = text(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(err.contains("wrote 2 tiles and kept 2"), "{format}: {err}");
        assert_eq!(first("0_0"), a, "{format}: 0_0 not rendered again");
        assert_eq!(first("1_1"), b, "{format}: 1_1 not rendered again");
    }
}

/// Two different worlds started together into one empty folder: exactly one claims it, the
/// other exits 2 naming `-o`, so tiles of two worlds never mix (8 tries).
#[test]
fn two_worlds_started_at_once_cannot_share_a_folder() {
    let d = tmp();
    for attempt in 0..8 {
        let folder = d.path().join(format!("w{attempt}"));
        let s = format!("{}/", folder.display());
        let children: Vec<_> = ["1", "2"]
            .iter()
            .map(|seed| {
                command()
                    .args(["render", "--backend", "cpu", "--size", "256x256"])
                    .args(["--tiles", "64", "--quiet", "--seed", seed, "-o", &s])
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outputs: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let codes: Vec<_> = outputs.iter().map(|o| o.status.code()).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        assert_eq!(sorted, vec![Some(0), Some(2)], "try {attempt}: {codes:?}");
        let refused = outputs.iter().find(|o| o.status.code() == Some(2)).unwrap();
        let err = text(&refused.stderr);
        assert!(
            err.contains("-o") && err.contains("another tile set"),
            "{err}"
        );
    }
}

#[test]
fn one_tile_of_a_planet_costs_one_tile_and_absurd_counts_are_refused() {
    let d = tmp();
    let folder = d.path().join("planet");
    let s = format!("{}/", folder.display());
    let o = run(&[
        "render",
        "--backend",
        "cpu",
        "--size",
        "1048576x1048576",
        "--tiles",
        "256",
        "--tile-range",
        "0..1,0..1",
        "-o",
        &s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let names: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
    assert_eq!(names.len(), 2, "{names:?}"); // 0_0.png and index.json
    let index = std::fs::metadata(folder.join("index.json")).unwrap().len();
    assert!(index < 4096, "index.json is {index} bytes");
    // 16384^2 one-texel tiles: 2^28 files.
    let o = run(&[
        "render",
        "--size",
        "16384x16384",
        "--tiles",
        "1",
        "-o",
        &format!("{}/", d.path().join("dust").display()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("--tiles") && err.contains("2^24"), "{err}");
    assert!(!d.path().join("dust").exists(), "a folder was left");
}
