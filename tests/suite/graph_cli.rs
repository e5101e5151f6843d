//! `render --graph` and `verify --graph` end to end: the GPU, SIMD and CPU files agree within
//! the graph's bound, a flat spec and its one-node graph write the same file, and bad graphs exit 2
//! naming the node and field with no file left behind.

use crate::cli::{f32_file, out, run, text, tmp};

pub const TERRAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/graphs/terrain.json");

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_graph_renders_alike_on_gpu_and_cpu_and_verifies() {
    let d = tmp();
    let (pc, sc) = out(d.path(), "cpu.f32");
    let (pg, sg) = out(d.path(), "gpu.f32");
    let base = [
        "render",
        "--graph",
        TERRAIN,
        "--size",
        "48x32",
        "--offset",
        "1e10,-7e8",
        "-q",
    ];
    let (ps, ss) = out(d.path(), "simd.f32");
    for (backend, path) in [("cpu", &sc), ("gpu", &sg), ("simd", &ss)] {
        let o = run(&[&base[..], &["--backend", backend, "-o", path]].concat());
        assert!(o.status.success(), "{backend}: {}", text(&o.stderr));
    }
    let c = f32_file(&pc);
    assert_eq!(c.len(), 48 * 32);
    for (engine, path) in [("gpu", &pg), ("simd", &ps)] {
        let worst = (c.iter().zip(&f32_file(path)))
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "{engine} and cpu files differ by {worst}");
    }
    let o = run(&[
        "verify",
        "--graph",
        TERRAIN,
        "--size",
        "48x32",
        "--offset",
        "1e10,-7e8",
    ]);
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).contains("PASS"));
}

#[test]
fn a_flat_spec_and_its_one_node_graph_write_the_same_file() {
    let d = tmp();
    let graph = d.path().join("g.json");
    std::fs::write(
        &graph,
        r#"{"dims": 3, "output": "r", "nodes": {
            "s": {"type": "simplex", "frequency": 0.05, "seed": 3},
            "r": {"type": "ridged", "source": "s", "octaves": 3}}}"#,
    )
    .unwrap();
    let (pf, sf) = out(d.path(), "flat.npy");
    let (pg, sg) = out(d.path(), "graph.npy");
    let size = [
        "--size",
        "16x16x2",
        "--offset",
        "5e8,3,1",
        "--backend",
        "cpu",
        "-q",
    ];
    let flat = [
        "render",
        "--kind",
        "simplex",
        "--dims",
        "3",
        "--frequency",
        "0.05",
        "--seed",
        "3",
    ];
    let o = run(&[
        &flat[..],
        &["--fractal", "ridged", "--octaves", "3", "-o", &sf],
        &size,
    ]
    .concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run(&[
        &["render", "--graph", graph.to_str().unwrap(), "-o", &sg][..],
        &size,
    ]
    .concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(pf).unwrap(), std::fs::read(pg).unwrap());
}

#[test]
fn bad_graphs_exit_2_naming_the_node_and_field_and_leave_no_file() {
    let d = tmp();
    let graph = d.path().join("bad.json");
    let (p, s) = out(d.path(), "x.png");
    let cases = [
        (
            r#"{"output":"a","nodes":{"a":{"type":"perlin","jitter":0.5}}}"#,
            "graph node \"a\", jitter",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"abs","source":"a"}}}"#,
            "cycle: a -> a",
        ),
        ("{\"output\":", "not valid JSON"),
    ];
    for (json, needle) in cases {
        std::fs::write(&graph, json).unwrap();
        let o = run(&[
            "render",
            "--graph",
            graph.to_str().unwrap(),
            "--size",
            "8",
            "-o",
            &s,
        ]);
        assert_eq!(o.status.code(), Some(2), "{json}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(needle),
            "{json}: {}",
            text(&o.stderr)
        );
        assert!(!p.exists());
    }
    // A node parameter given as a flag is refused rather than ignored.
    let o = run(&["render", "--graph", TERRAIN, "--frequency", "0.1", "-o", &s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--frequency: is a node parameter in a graph"));
    assert!(!p.exists());
}

#[test]
fn sample_graph_gives_the_texels_value_at_its_root_point() {
    let d = tmp();
    let (p, s) = out(d.path(), "one.f32");
    let o = run(&[
        "render",
        "--graph",
        TERRAIN,
        "--size",
        "4x2",
        "--offset",
        "1e9,-3.5",
        "--backend",
        "cpu",
        "-q",
        "-o",
        &s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let texels = f32_file(&p);
    // Texel (2, 1) is the root point (1e9 + 2, -2.5).
    let o = crate::cli::run_stdin(&["sample", "--graph", TERRAIN], "1000000002 -2.5\n");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let value: f64 = text(&o.stdout).trim().parse().unwrap();
    assert!(
        (value - f64::from(texels[4 + 2])).abs() < 1e-6,
        "{value} vs {}",
        texels[6]
    );
    let o = crate::cli::run_stdin(&["sample", "--graph", TERRAIN, "--offset", "1,2"], "0 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--offset: does not apply to sample --graph"));
}

#[test]
fn print_spec_of_a_graph_render_replays_it_byte_for_byte() {
    let d = tmp();
    let (p1, s1) = out(d.path(), "first.f32");
    let (p2, s2) = out(d.path(), "again.f32");
    let args = [
        "render", "--graph", TERRAIN, "--size", "24x16", "--offset", "1e9,-5.5",
    ];
    let o = run(&[
        &args[..],
        &[
            "--seed",
            "77",
            "--lattice",
            "hash",
            "--backend",
            "cpu",
            "-q",
        ],
    ]
    .concat());
    assert_eq!(
        o.status.code(),
        Some(2),
        "no output and no --print-spec: {}",
        text(&o.stderr)
    );
    let o = run(&[
        &args[..],
        &[
            "--seed",
            "77",
            "--lattice",
            "hash",
            "--backend",
            "cpu",
            "-q",
            "--print-spec",
            "-o",
            &s1,
        ],
    ]
    .concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let spec = d.path().join("spec.json");
    std::fs::write(&spec, o.stdout).unwrap();
    let o = run(&["render", "--spec", spec.to_str().unwrap(), "-o", &s2, "-q"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read(p1).unwrap(), std::fs::read(p2).unwrap());
    // The spec's graph is read strictly: a duplicate key inside it is refused.
    std::fs::write(&spec, r#"{"size": [4, 4], "graph": {"output": "a", "nodes": {"a": {"type": "perlin", "seed": 1, "seed": 2}}}}"#).unwrap();
    let o = run(&["render", "--spec", spec.to_str().unwrap(), "-o", &s2]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("appears twice"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_graph_tile_set_holds_the_windows_of_the_whole_image() {
    let d = tmp();
    let (whole, s_whole) = out(d.path(), "whole.f32");
    let folder = d.path().join("world");
    let image = [
        "--graph",
        TERRAIN,
        "--size",
        "48x32",
        "--offset",
        "5e8,-2e3",
        "--backend",
        "cpu",
        "-q",
    ];
    let o = run(&[&["render"][..], &image, &["-o", &s_whole]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let tiles = [
        "--tiles",
        "16",
        "--tile-format",
        "f32",
        "-o",
        folder.to_str().unwrap(),
    ];
    let o = run(&[&["render"][..], &image, &tiles].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let whole = f32_file(&whole);
    let tile = f32_file(&folder.join("2_1.f32"));
    for j in 0..16 {
        for i in 0..16 {
            assert_eq!(
                tile[j * 16 + i],
                whole[(16 + j) * 48 + 32 + i],
                "({i}, {j})"
            );
        }
    }
    // The index identifies the world by its graph: another seed is another world.
    let index = std::fs::read_to_string(folder.join("index.json")).unwrap();
    assert!(index.contains("\"graph\""), "{index}");
    let o = run(&[&["render"][..], &image, &tiles, &["--seed", "9"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// `render --graph --channels gradient` writes the value and both partials per texel: the
/// value channel is the graph's values (the same job without gradients) and the partials
/// equal the twin's, on the CPU and within the gradient bound on the GPU and the SIMD backend
/// (which computes them itself, and says so); a graph with a
/// cellular node refuses gradients with exit 2, naming the node, and writes nothing.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn graph_gradients_reach_the_cli() {
    let d = tmp();
    let marble = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/graphs/marble.json");
    let graph = gpu_noise::Graph::from_json(&std::fs::read_to_string(marble).unwrap()).unwrap();
    let job = graph
        .prepare(gpu_noise::Size::new(40, 24, 1), [0.0; 4])
        .unwrap();
    let job = job.with_gradient().unwrap();
    let twin = gpu_noise::cpu::render_f64(&job).unwrap();
    for backend in ["cpu", "simd", "gpu"] {
        let (path, s) = out(d.path(), &format!("g-{backend}.npy"));
        let o = run(&[
            "render",
            "--graph",
            marble,
            "--size",
            "40x24",
            "--channels",
            "gradient",
            "--backend",
            backend,
            "-o",
            &s,
        ]);
        assert!(o.status.success(), "{backend}: {}", text(&o.stderr));
        if backend == "simd" {
            let summary = text(&o.stderr);
            assert!(summary.contains("on SIMD CPU"), "{summary}");
        }
        let bytes = std::fs::read(&path).unwrap();
        let header = String::from_utf8_lossy(&bytes[..128]).into_owned();
        assert!(header.contains("'shape': (24, 40, 3)"), "{header}");
        let body: Vec<f32> = (bytes[128..].chunks_exact(4))
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let tolerance = if backend == "cpu" {
            0.0
        } else {
            job.gradient_error_bound()
        };
        for (n, got) in body.chunks_exact(3).enumerate() {
            for c in 0..3 {
                let want = twin[4 * n + c];
                let err = (f64::from(got[c]) - want).abs();
                assert!(
                    err <= tolerance + f64::from(f32::EPSILON) * want.abs(),
                    "{backend} texel {n} channel {c}: {} vs {want}",
                    got[c]
                );
            }
        }
    }
    let bad = d.path().join("cells.json");
    std::fs::write(
        &bad,
        r#"{"dims": 2, "output": "out", "nodes": {"p": {"type": "perlin"},
            "cells": {"type": "cellular"}, "out": {"type": "add", "inputs": ["p", "cells"]}}}"#,
    )
    .unwrap();
    let (path, s) = out(d.path(), "n.png");
    let o = run(&[
        "render",
        "--graph",
        bad.to_str().unwrap(),
        "--channels",
        "normal",
        "-o",
        &s,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let message = text(&o.stderr);
    assert!(
        message.contains("cells") && message.contains("derivatives"),
        "{message}"
    );
    assert!(!path.exists());
}
