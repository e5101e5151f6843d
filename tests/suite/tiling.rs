//! Tiling (CONVENTIONS §5): with `tile`, every octave repeats with the image's size.

use gpu_noise::cpu::fractal_noise;
use gpu_noise::{Error, Fractal, Kind, NoiseSpec, Size, spec::Interp};

#[test]
fn tiled_noise_repeats_with_the_image_size_for_every_kind() {
    let cases = [
        (Kind::Perlin, 1, Interp::Quintic),
        (Kind::Perlin, 2, Interp::Quintic),
        (Kind::Perlin, 3, Interp::Quintic),
        (Kind::Gradient, 2, Interp::Cubic),
        (Kind::Gradient, 3, Interp::Linear),
        (Kind::Value, 2, Interp::CatmullRom),
        (Kind::Value, 3, Interp::Cosine),
        (Kind::Cellular, 2, Interp::Quintic),
        (Kind::Cellular, 3, Interp::Quintic),
        (Kind::SparseConvolution, 2, Interp::Quintic),
        (Kind::SparseConvolution, 3, Interp::Quintic),
    ];
    for (kind, dims, interp) in cases {
        let mut s = NoiseSpec::new(kind, dims);
        s.size = Size::new(48, 80, if dims == 3 { 16 } else { 1 });
        s.frequency = 0.125; // 6 x 10 (x 2) cells
        s.interp = interp;
        s.tile = true;
        s.fractal = Fractal::Fbm;
        s.octaves = 3;
        s.seed = 11;
        let prep = s.validate().expect("whole periods");
        let period = [48.0 * 0.125, 80.0 * 0.125, 16.0 * 0.125];
        // Shifting p by a period changes how the fraction rounds (p + c - floor(p + c)), so the
        // values agree to f64 rounding, not bit for bit.
        let same = |a: f64, b: f64| (a - b).abs() < 1e-12;
        for n in 0..300 {
            let p = [n as f64 * 0.0377, n as f64 * 0.0519, n as f64 * 0.0213, 0.0];
            let v = fractal_noise(&prep, p);
            for axis in 0..dims as usize {
                let mut q = p;
                q[axis] += period[axis];
                assert!(
                    same(fractal_noise(&prep, q), v),
                    "{kind:?} {dims}D axis {axis}"
                );
                q[axis] -= 3.0 * period[axis];
                assert!(
                    same(fractal_noise(&prep, q), v),
                    "{kind:?} {dims}D axis {axis}, negative side"
                );
            }
        }
        // Without tiling the same shift gives another value somewhere.
        let mut untiled = prep.spec().unwrap().clone();
        untiled.tile = false;
        let u = untiled.validate().unwrap();
        let differs = (0..50).any(|n| {
            let p = [n as f64 * 0.31, n as f64 * 0.17, 0.3, 0.0];
            !same(
                fractal_noise(&u, p),
                fractal_noise(&u, [p[0] + period[0], p[1], p[2], 0.0]),
            )
        });
        assert!(differs, "{kind:?} {dims}D repeats even without tiling");
    }
}

#[test]
fn fractional_periods_are_rejected_with_a_clear_error() {
    let mut s = NoiseSpec::new(Kind::Perlin, 2);
    s.size = Size::new(100, 64, 1);
    s.frequency = 0.05; // 5 cells across x: fine at octave 0
    s.tile = true;
    s.fractal = Fractal::Fbm;
    s.octaves = 2;
    s.lacunarity = 2.1; // 10.5 cells at octave 1: not whole
    match s.validate() {
        Err(Error::InvalidSpec { field, reason }) => {
            assert_eq!(field, "tile");
            assert!(reason.contains("octave 1"), "{reason}");
        }
        other => panic!("expected --tile error, got {other:?}"),
    }
}

/// A tiled graph (a warped ridged sum of perlin under a scale and a translation, terraced,
/// plus cellular) repeats with its size, bit for bit on the twin, the GPU and every SIMD
/// instruction set: the image at offset (w, -h) is the image at 0; untiled it is not.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_tiled_graph_repeats_with_its_size_on_every_backend() {
    use gpu_noise::graph::GraphBuilder;
    use gpu_noise::simd::{self, InstructionSet};
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.125);
    g.node("v", "value")
        .set("frequency", 0.0625)
        .set("seed", 3u64);
    g.node("c", "cellular").set("frequency", 0.25);
    g.node("r", "ridged")
        .input("source", "p")
        .set("octaves", 3u32);
    g.node("sc", "scale")
        .input("source", "r")
        .set("by", [2.0, 0.5]);
    g.node("t", "translate")
        .input("source", "sc")
        .set("by", [3.25, -1e6]);
    g.node("w", "warp")
        .input("source", "t")
        .inputs("by", &["v", "v"])
        .set("amplitude", 6.0);
    g.node("te", "terrace").input("source", "w");
    g.node("out", "add").inputs("inputs", &["te", "c"]);
    g.output("out");
    let graph = g.build().unwrap();
    let size = Size::new(48, 32, 1);
    let far = [48.0, -32.0, 0.0, 0.0];
    let renders = |job: &gpu_noise::Job| {
        let window = gpu_noise::Window::full(size);
        let mut images = vec![
            ("twin".to_string(), gpu_noise::cpu::render_f32(job).unwrap()),
            (
                "GPU".to_string(),
                crate::support::renderer().read(job, window).unwrap(),
            ),
        ];
        for isa in InstructionSet::ALL.into_iter().filter(|i| i.available()) {
            let lanes = simd::render_window_on(isa, job, window).unwrap();
            images.push((format!("SIMD {}", isa.name()), lanes));
        }
        images
    };
    let job = graph.prepare_tiled(size, [0.0; 4]).unwrap();
    let here = renders(&job);
    let there = renders(&graph.prepare_tiled(size, far).unwrap());
    for ((engine, a), (_, b)) in here.iter().zip(&there) {
        assert!(a == b, "{engine}: the tiled graph does not repeat");
    }
    // The same frames repeat on any engine; the wrap of the cells past the period (corners,
    // displaced points) is what the f32 engines must share with the twin.
    let twin = gpu_noise::cpu::render_f64(&job).unwrap();
    let bound = job.gpu_error_bound().value;
    for (engine, image) in &here[1..] {
        for (n, (a, b)) in image.iter().zip(&twin).enumerate() {
            let err = (f64::from(*a) - b).abs();
            // Cellular's nearest-point choice may flip within the error (CONVENTIONS §7).
            assert!(
                err <= bound || err < 0.05,
                "{engine} texel {n}: {a} vs twin {b}"
            );
        }
    }
    let untiled = |offset| gpu_noise::cpu::render_f32(&graph.prepare(size, offset).unwrap());
    assert_ne!(untiled([0.0; 4]).unwrap(), untiled(far).unwrap());
}

/// A graph that cannot tile is refused naming the node and `tile`: a rotation, simplex, a
/// coordinate, a period that is not a whole number of cells.
#[test]
fn graphs_that_cannot_tile_name_the_node() {
    use gpu_noise::graph::GraphBuilder;
    let size = Size::new(64, 64, 1);
    let refused = |g: &mut GraphBuilder, node: &str| {
        g.output("out");
        match g.build().unwrap().prepare_tiled(size, [0.0; 4]) {
            Err(Error::InvalidGraph {
                node: n,
                field,
                reason,
            }) => {
                assert_eq!((n.as_str(), field.as_str()), (node, "tile"), "{reason}");
            }
            other => panic!("{node}: {other:?}"),
        }
    };
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.125);
    g.node("out", "rotate")
        .input("source", "p")
        .set("degrees", 30.0);
    refused(&mut g, "p");
    let mut g = GraphBuilder::new(2);
    g.node("out", "simplex").set("frequency", 0.125);
    refused(&mut g, "out");
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.125);
    g.node("x", "coordinate").set("axis", "x");
    g.node("out", "add").inputs("inputs", &["p", "x"]);
    refused(&mut g, "x");
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.1);
    g.node("out", "fbm").input("source", "p");
    refused(&mut g, "p");
}
