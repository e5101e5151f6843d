//! The f32 kernels written once (issue "the house, round 3", item 3): a kind moved onto the
//! 16-lane `Wide` keeps one f32 implementation, its `lanes.rs` (with helpers beside it, e.g.
//! simplex's `corners.rs`), for every instruction set, lattice and row path; no `rows.rs` or
//! `wide.rs` of its own, no intrinsics and no `unsafe` in its folder. Intrinsics live in the
//! `Wide` implementations alone (`lattice/wide/avx2.rs`, `avx512.rs`), the code that picks an
//! instruction set (`row.rs`, `kernel.rs`) and one cast of the lanes' points (`lanes.rs`).

use std::path::Path;

/// Every kind's folder: each kind's f32 kernels are written once over `Wide`. The list is
/// checked against the folders of src/kinds, so a new kind joins it.
const WRITTEN_ONCE: [&str; 6] = [
    "perlin", "value", "simplex", "gradient", "cellular", "impulse",
];

fn folder(kind: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/kinds")
        .join(kind)
}

#[test]
fn a_kind_written_over_wide_has_one_f32_kernel_file() {
    let kinds = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds");
    let mut with_lanes: Vec<String> = std::fs::read_dir(&kinds)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("lanes.rs").exists())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    with_lanes.sort();
    let mut listed = WRITTEN_ONCE.map(String::from).to_vec();
    listed.push("lattice".into()); // the lanes' points (lattice/lanes.rs), not a kind
    listed.sort();
    assert_eq!(
        with_lanes, listed,
        "a kind's f32 kernels are not in the list"
    );
    for kind in WRITTEN_ONCE {
        for second in ["rows.rs", "wide.rs"] {
            let path = folder(kind).join(second);
            assert!(
                !path.exists(),
                "{kind}: a second f32 kernel in {}",
                path.display()
            );
        }
        let lanes = std::fs::read_to_string(folder(kind).join("lanes.rs")).unwrap();
        assert!(
            lanes.contains("W: Wide"),
            "{kind}: lanes.rs is not written over Wide"
        );
        // The lanes' per-lane corner shape (`Corners`, `corner_block`) is gone from it, and
        // no kernel ignores its instruction set's token (`_: W`, a lane-by-lane block).
        assert!(
            !lanes.contains("corner_block") && !lanes.contains("_: W,"),
            "{kind}: a per-lane kernel left"
        );
    }
}

#[test]
fn intrinsics_and_unsafe_live_in_the_wide_implementations_and_the_dispatch() {
    let kinds = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/kinds");
    let allowed = [
        "lattice/wide/avx2.rs",
        "lattice/wide/avx512.rs",
        "lattice/wide/row.rs",
        "lattice/kernel.rs",
        // The points' vectorizable cast (`saturating_i32`), until the points move onto Wide.
        "lattice/lanes.rs",
    ];
    let mut strays = Vec::new();
    let mut stack = vec![kinds.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(&kinds)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if !rel.ends_with(".rs") || allowed.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if text.contains("unsafe") || text.contains("std::arch") {
                strays.push(rel);
            }
        }
    }
    strays.sort();
    assert!(
        strays.is_empty(),
        "intrinsics or unsafe outside the Wide files: {strays:?}"
    );
}
