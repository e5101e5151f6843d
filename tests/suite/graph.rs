//! Noise graphs (CONVENTIONS §13) on the f64 twin, against independent oracles: the flat spec's
//! own renderer (a one-source graph and a fractal over it must equal it bit for bit), sampling
//! at transformed points (translate, scale, rotate), algebraic identities (a warp by constants
//! is a translation, by coordinates a scaling; a + (-a) = 0), and the validator's messages.

use gpu_noise::Job;
use gpu_noise::graph::{Graph, GraphBuilder};
use gpu_noise::low_level::graph::meta;
use gpu_noise::{Error, Fractal, Kind, NoiseSpec, Size, cpu, spec::Interp};

fn render(graph: &Graph, size: Size, offset: [f64; 4]) -> Vec<f64> {
    cpu::render_f64(&graph.prepare(size, offset).unwrap()).unwrap()
}

fn flat(spec: &NoiseSpec) -> Vec<f64> {
    cpu::render_f64(&spec.validate().unwrap()).unwrap()
}

/// How far the frames' steps (multiples of 2^-32 cells per texel, CONVENTIONS §1) can put a
/// texel of a `side`-texel image from the exactly transformed point, times 4, a bound on the
/// kinds' slope in cells: what two correct evaluations of one point may differ by.
fn step_rounding_bound(side: u32) -> f64 {
    4.0 * 2.0 * f64::from(side) * 2f64.powi(-33)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The graph `out = fractal(src)` (or `src` alone for Fractal::None) of a flat spec.
fn graph_of(spec: &NoiseSpec) -> Graph {
    let mut g = GraphBuilder::new(spec.dims);
    let mut src = g.node("src", spec.kind.name());
    src.set("frequency", spec.frequency).set("seed", spec.seed);
    if spec.kind.interpolates() {
        src.set("interp", spec.interp.name());
    }
    if spec.kind == Kind::Cellular {
        src.set("jitter", spec.kind_fields.cellular.jitter)
            .set("return", spec.kind_fields.cellular.cell_return.name())
            .set("distance", spec.kind_fields.cellular.distance.name());
    }
    if spec.fractal == Fractal::None {
        g.output("src");
    } else {
        g.node("out", spec.fractal.name())
            .input("source", "src")
            .set("octaves", spec.octaves)
            .set("lacunarity", spec.lacunarity)
            .set("persistence", spec.persistence);
        g.output("out");
    }
    g.lattice(spec.lattice);
    g.build().unwrap()
}

#[test]
fn a_flat_spec_as_a_graph_renders_bit_for_bit_the_same() {
    let mut cases = Vec::new();
    let mut s = NoiseSpec::new(Kind::Perlin, 2);
    (s.fractal, s.octaves, s.seed) = (Fractal::Fbm, 4, 9);
    (s.offset, s.size) = ([1e12 + 0.25, -3.5, 0.0, 0.0], Size::new(24, 16, 1));
    cases.push(s);
    let mut s = NoiseSpec::new(Kind::Simplex, 3);
    (s.fractal, s.octaves, s.lacunarity, s.persistence) = (Fractal::Ridged, 3, 1.93, 0.61);
    (s.offset, s.size, s.frequency) = ([123.5, 1e9, 7.0, 0.0], Size::new(12, 8, 3), 0.0371);
    cases.push(s);
    let mut s = NoiseSpec::new(Kind::Cellular, 2);
    (s.fractal, s.octaves, s.kind_fields.cellular.jitter) = (Fractal::Billow, 2, 0.8);
    s.kind_fields.cellular.cell_return = gpu_noise::spec::CellReturn::F2MinusF1;
    s.size = Size::new(16, 16, 1);
    cases.push(s);
    let mut s = NoiseSpec::new(Kind::Value, 1);
    (s.interp, s.fractal, s.octaves) = (Interp::CatmullRom, Fractal::Turbulence, 5);
    (s.lattice, s.size) = (gpu_noise::spec::LatticeKind::Hash, Size::new(64, 1, 1));
    cases.push(s);
    let mut s = NoiseSpec::new(Kind::Gradient, 3);
    (s.size, s.offset) = (Size::new(8, 8, 2), [-5e6, 3.0, 1.0, 0.0]);
    cases.push(s);
    for spec in cases {
        let g = graph_of(&spec);
        assert_eq!(render(&g, spec.size, spec.offset), flat(&spec), "{spec:?}");
    }
}

/// The flat spec (frequency f, seed s) sampled at noise-space points `f * map(offset + t)`.
fn sampled(spec: &NoiseSpec, map: impl Fn([f64; 4]) -> [f64; 4]) -> Vec<f64> {
    let mut points = Vec::new();
    for j in 0..spec.size.height {
        for i in 0..spec.size.width {
            let p = [
                spec.offset[0] + f64::from(i),
                spec.offset[1] + f64::from(j),
                spec.offset[2],
                0.0,
            ];
            points.push(map(p).map(|c| spec.frequency * c));
        }
    }
    cpu::sample(&spec.validate().unwrap(), &points)
}

fn one_node_wrapped(
    spec: &NoiseSpec,
    ty: &str,
    params: &[(&str, gpu_noise::graph::Value)],
) -> Graph {
    let mut g = GraphBuilder::new(spec.dims);
    g.node("src", spec.kind.name())
        .set("frequency", spec.frequency)
        .set("seed", spec.seed);
    let mut node = g.node("out", ty);
    node.input("source", "src");
    for (k, v) in params {
        node.set(k, v.clone());
    }
    g.output("out");
    g.build().unwrap()
}

#[test]
fn translate_and_scale_move_the_point_exactly() {
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    (spec.seed, spec.size, spec.offset) = (4, Size::new(16, 12, 1), [1e9 + 0.5, -40.25, 0.0, 0.0]);
    // Dyadic numbers: every product below is exact, so the results must be equal, not close.
    let moved = one_node_wrapped(&spec, "translate", &[("by", [96.5, -3.75].into())]);
    let want = sampled(&spec, |p| [p[0] + 96.5, p[1] - 3.75, 0.0, 0.0]);
    assert_eq!(render(&moved, spec.size, spec.offset), want);
    let scaled = one_node_wrapped(&spec, "scale", &[("by", [0.75, 1.5].into())]);
    let want = sampled(&spec, |p| [0.75 * p[0], 1.5 * p[1], 0.0, 0.0]);
    assert_eq!(render(&scaled, spec.size, spec.offset), want);
}

#[test]
fn rotations_turn_the_point_about_the_origin() {
    let mut spec = NoiseSpec::new(Kind::Simplex, 2);
    (spec.size, spec.offset, spec.frequency) = (Size::new(16, 16, 1), [40.0, -7.0, 0.0, 0.0], 0.07);
    let turned = one_node_wrapped(&spec, "rotate", &[("degrees", 90.0.into())]);
    let want = sampled(&spec, |p| [-p[1], p[0], 0.0, 0.0]);
    let err = max_diff(&render(&turned, spec.size, spec.offset), &want);
    assert!(err < step_rounding_bound(16), "90 degrees in 2D: {err}");
    // 120 degrees about (1, 1, 1) sends x to y, y to z and z to x.
    let mut spec3 = NoiseSpec::new(Kind::Perlin, 3);
    (spec3.size, spec3.offset, spec3.frequency) =
        (Size::new(12, 12, 1), [3.0, -9.0, 21.5, 0.0], 0.05);
    let turned = one_node_wrapped(
        &spec3,
        "rotate",
        &[("degrees", 120.0.into()), ("axis", [1.0, 1.0, 1.0].into())],
    );
    let want = sampled(&spec3, |p| [p[2], p[0], p[1], 0.0]);
    let err = max_diff(&render(&turned, spec3.size, spec3.offset), &want);
    assert!(
        err < step_rounding_bound(12),
        "120 degrees about the diagonal: {err}"
    );
}

fn warp_graph(extra: &dyn Fn(&mut GraphBuilder)) -> GraphBuilder {
    let mut g = GraphBuilder::new(2);
    g.node("src", "perlin")
        .set("frequency", 0.05)
        .set("seed", 2u64);
    extra(&mut g);
    g.output("out");
    g
}

#[test]
fn a_warp_by_constants_is_a_translation_and_by_coordinates_a_scaling() {
    let size = Size::new(16, 16, 1);
    let offset = [1e6 + 0.5, 33.0, 0.0, 0.0];
    // Three iterations of amplitude 8, gain 0.5 by (0.25, -0.5): 14 (0.25, -0.5) in all, the
    // same for independent and progressive iterations (constants do not depend on the point).
    let translated = warp_graph(&|g| {
        g.node("out", "translate")
            .input("source", "src")
            .set("by", [3.5, -7.0]);
    });
    let want = render(&translated.build().unwrap(), size, offset);
    for mode in ["independent", "progressive"] {
        let warped = warp_graph(&|g| {
            g.node("cx", "constant").set("value", 0.25);
            g.node("cy", "constant").set("value", -0.5);
            g.node("out", "warp")
                .input("source", "src")
                .inputs("by", &["cx", "cy"])
                .set("amplitude", 8.0)
                .set("iterations", 3u32)
                .set("gain", 0.5)
                .set("mode", mode);
        });
        let err = max_diff(&render(&warped.build().unwrap(), size, offset), &want);
        assert!(err < 1e-9, "{mode}: {err}");
    }
    // Displaced by 4 * (x / 8, y / 8): the point times 1.5.
    let scaled = warp_graph(&|g| {
        g.node("out", "scale").input("source", "src").set("by", 1.5);
    });
    let warped = warp_graph(&|g| {
        g.node("x", "coordinate")
            .set("axis", "x")
            .set("frequency", 0.125);
        g.node("y", "coordinate")
            .set("axis", "y")
            .set("frequency", 0.125);
        g.node("out", "warp")
            .input("source", "src")
            .inputs("by", &["x", "y"])
            .set("amplitude", 4.0);
    });
    let near = [10.0, -20.0, 0.0, 0.0];
    let err = max_diff(
        &render(&warped.build().unwrap(), size, near),
        &render(&scaled.build().unwrap(), size, near),
    );
    assert!(err < step_rounding_bound(16), "warp by coordinates: {err}");
}

#[test]
fn a_fractal_over_a_subgraph_sums_its_octaves_with_the_next_seeds() {
    // fbm over (perlin seed 1 + simplex seed 5): octave k evaluates both at 2^k times the
    // point with seeds 1 + k and 5 + k, weights 0.5^k normalized.
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin")
        .set("frequency", 0.03)
        .set("seed", 1u64);
    g.node("s", "simplex")
        .set("frequency", 0.02)
        .set("seed", 5u64);
    g.node("sum", "add").inputs("inputs", &["p", "s"]);
    g.node("out", "fbm")
        .input("source", "sum")
        .set("octaves", 3u32);
    g.output("out");
    let size = Size::new(16, 16, 1);
    let got = render(&g.build().unwrap(), size, [0.0; 4]);
    let weights = [4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0];
    let mut want = vec![0.0; got.len()];
    for (k, w) in weights.iter().enumerate() {
        for (kind, f, seed) in [(Kind::Perlin, 0.03, 1), (Kind::Simplex, 0.02, 5)] {
            let mut spec = NoiseSpec::new(kind, 2);
            (spec.size, spec.frequency, spec.seed) = (size, f * f64::from(1 << k), seed + k as u64);
            for (acc, v) in want.iter_mut().zip(flat(&spec)) {
                *acc += w * v;
            }
        }
    }
    let err = max_diff(&got, &want);
    assert!(err < 1e-12, "{err}");
}

#[test]
fn combiners_obey_their_identities() {
    let size = Size::new(12, 12, 1);
    let mut g = GraphBuilder::new(2);
    g.node("a", "perlin").set("frequency", 0.1);
    g.node("b", "value")
        .set("frequency", 0.07)
        .set("seed", 3u64);
    g.node("neg", "negate").input("source", "a");
    g.node("zero", "add").inputs("inputs", &["a", "neg"]);
    g.output("zero");
    assert!(
        render(&g.build().unwrap(), size, [0.0; 4])
            .iter()
            .all(|&v| v == 0.0)
    );
    let a = render(
        &{
            let mut h = g.clone();
            h.output("a");
            h.build().unwrap()
        },
        size,
        [0.0; 4],
    );
    let b = render(
        &{
            let mut h = g.clone();
            h.output("b");
            h.build().unwrap()
        },
        size,
        [0.0; 4],
    );
    type Binary = fn(f64, f64) -> f64;
    let checks: [(&str, Binary); 4] = [
        ("min", f64::min),
        ("max", f64::max),
        ("multiply", |x, y| x * y),
        ("subtract", |x, y| x - y),
    ];
    for (ty, f) in checks {
        let mut h = g.clone();
        if ty == "subtract" {
            h.node("c", ty).input("a", "a").input("b", "b");
        } else {
            h.node("c", ty).inputs("inputs", &["a", "b"]);
        }
        h.output("c");
        let got = render(&h.build().unwrap(), size, [0.0; 4]);
        for i in 0..got.len() {
            assert_eq!(got[i], f(a[i], b[i]), "{ty} at {i}");
        }
    }
    // Select with no falloff picks b exactly where the control reaches the threshold.
    let mut h = g.clone();
    h.node("sel", "select")
        .input("a", "a")
        .input("b", "b")
        .input("control", "a")
        .set("threshold", 0.1);
    h.output("sel");
    let got = render(&h.build().unwrap(), size, [0.0; 4]);
    for i in 0..got.len() {
        assert_eq!(got[i], if a[i] < 0.1 { a[i] } else { b[i] });
    }
}

#[test]
fn ridged_multifractal_without_gain_keeps_only_the_first_octave() {
    // gain 0: every octave after the first is weighted by clamp(0) = 0, so the output is
    // 2 (1 - |n0|)^2 w0 / sum(w) - 1 with w_k = 2^(-k h).
    let mut g = GraphBuilder::new(2);
    g.node("n", "perlin").set("frequency", 0.05);
    g.node("out", "ridged-multifractal")
        .input("source", "n")
        .set("octaves", 3u32)
        .set("gain", 0.0)
        .set("h", 1.0);
    g.output("out");
    let size = Size::new(16, 16, 1);
    let got = render(&g.build().unwrap(), size, [0.0; 4]);
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    (spec.size, spec.frequency) = (size, 0.05);
    let total = 1.0 + 0.5 + 0.25;
    for (v, n) in got.iter().zip(flat(&spec)) {
        let want = 2.0 * (1.0 - n.abs()).powi(2) / total - 1.0;
        assert!((v - want).abs() < 1e-12, "{v} vs {want}");
    }
}

fn error_of(json: &str) -> (String, String, String) {
    match Graph::from_json(json) {
        Err(Error::InvalidGraph {
            node,
            field,
            reason,
        }) => (node, field, reason),
        other => panic!("expected a graph error for {json}, got {other:?}"),
    }
}

#[test]
fn invalid_graphs_are_refused_naming_the_node_and_field() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            r#"{"output":"a","nodes":{"a":{"type":"abs","source":"b"},"b":{"type":"negate","source":"a"}}}"#,
            "a",
            "",
            "cycle: a -> b -> a",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"abs","source":"nowhere"}}}"#,
            "a",
            "source",
            "names no node",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"fractal-thing"}}}"#,
            "a",
            "type",
            "is no node type",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"abs"}}}"#,
            "a",
            "source",
            "missing",
        ),
        (
            r#"{"dims":3,"output":"a","nodes":{"a":{"type":"gabor"}}}"#,
            "a",
            "type",
            "supports 2..=2 dims",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"perlin","gabor_bandwidth":2}}}"#,
            "a",
            "gabor_bandwidth",
            "does not apply to a perlin node",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"perlin","frequency":0}}}"#,
            "a",
            "frequency",
            "must be in (0,",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"fbm","source":"b","octaves":17},"b":{"type":"perlin"}}}"#,
            "a",
            "octaves",
            "1..=16",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"add","inputs":["b"]},"b":{"type":"perlin"}}}"#,
            "a",
            "inputs",
            "at least 2",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"warp","source":"b","by":["b"]},"b":{"type":"perlin"}}}"#,
            "a",
            "by",
            "2 (one per axis)",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"curve","source":"b","points":[[0,0],[0,1]]},"b":{"type":"perlin"}}}"#,
            "a",
            "points",
            "increase strictly",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"perlin","seed":-1}}}"#,
            "a",
            "seed",
            "0..=2^64-1",
        ),
        (
            r#"{"output":"a","nodes":{"a":{"type":"perlin","frequency":0.1,"frequency":0.2}}}"#,
            "",
            "",
            "appears twice",
        ),
        (
            r#"{"output":"zz","nodes":{"a":{"type":"perlin"}}}"#,
            "",
            "output",
            "names no node",
        ),
        (
            r#"{"output":"a","colour":1,"nodes":{"a":{"type":"perlin"}}}"#,
            "",
            "colour",
            "no graph field",
        ),
        (
            r#"{"dims":1,"output":"a","nodes":{"a":{"type":"rotate","source":"b"},"b":{"type":"perlin"}}}"#,
            "a",
            "type",
            "nothing to turn",
        ),
    ];
    // Numbers the GPU's f32 would round to zero or merge are refused too.
    for (json, field) in [
        (
            r#"{"output":"s","nodes":{"a":{"type":"perlin"},"s":{"type":"smooth-min","a":"a","b":"a","k":1e-300}}}"#,
            "k",
        ),
        (
            r#"{"output":"s","nodes":{"a":{"type":"perlin"},"s":{"type":"smoothstep","source":"a","edge0":1,"edge1":1.00000001}}}"#,
            "edge1",
        ),
        (
            r#"{"output":"s","nodes":{"a":{"type":"perlin"},"s":{"type":"curve","source":"a","points":[[0,0],[1e-50,1]]}}}"#,
            "points",
        ),
    ] {
        let (_, f, reason) = error_of(json);
        assert_eq!(f, field, "{json}: {reason}");
    }
    let long = format!(
        r#"{{"output":"a","nodes":{{"{}":{{"type":"perlin"}}}}}}"#,
        "n".repeat(100)
    );
    let (node, _, reason) = error_of(&long);
    assert!(
        node.len() <= 24 && reason.contains("1 to 64 characters"),
        "{node}: {reason}"
    );
    for (json, node, field, needle) in cases {
        let (n, f, reason) = error_of(json);
        assert_eq!(
            (n.as_str(), f.as_str()),
            (*node, *field),
            "{json}: {reason}"
        );
        assert!(
            reason.contains(needle),
            "{json}: {reason:?} lacks {needle:?}"
        );
    }
}

#[test]
fn graphs_past_the_limits_are_refused() {
    // A chain of 70 abs nodes is deeper than 64.
    let mut g = GraphBuilder::new(2);
    g.node("n0", "perlin");
    for i in 1..70 {
        g.node(&format!("n{i}"), "abs")
            .input("source", &format!("n{}", i - 1));
    }
    g.output("n69");
    let err = g.build().unwrap_err().to_string();
    assert!(err.contains("70 deep; at most 64"), "{err}");
    // 257 nodes.
    let mut g = GraphBuilder::new(2);
    for i in 0..257 {
        g.node(&format!("c{i}"), "constant");
    }
    g.output("c0");
    let err = g.build().unwrap_err().to_string();
    assert!(err.contains("at most 256 nodes"), "{err}");
    // fbm of 16 octaves over fbm of 16 over fbm of 16: 4096 noises, more than the step limit.
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 1e-4);
    // (Distinct lacunarities: equal products with equal seeds would be evaluated once.)
    g.node("f1", "fbm")
        .input("source", "p")
        .set("octaves", 16u32)
        .set("lacunarity", 1.1);
    g.node("f2", "fbm")
        .input("source", "f1")
        .set("octaves", 16u32)
        .set("lacunarity", 1.3);
    g.node("f3", "fbm")
        .input("source", "f2")
        .set("octaves", 16u32)
        .set("lacunarity", 1.7);
    g.output("f3");
    match g.build().unwrap().prepare(Size::new(4, 4, 1), [0.0; 4]) {
        Err(e) => assert!(e.to_string().contains("more than 4096 evaluations"), "{e}"),
        Ok(p) => panic!("expanded to {} steps", p.steps()),
    }
    // A source beyond 2^62 cells names its node.
    let mut g = GraphBuilder::new(2);
    g.node("far", "perlin").set("frequency", 1e6);
    g.output("far");
    match g
        .build()
        .unwrap()
        .prepare(Size::new(4, 4, 1), [1e14, 0.0, 0.0, 0.0])
    {
        Err(e) => assert!(
            matches!(&e, Error::InvalidGraph { node, .. } if node == "far"),
            "{e}"
        ),
        Ok(_) => panic!("a point past 2^62 cells was accepted"),
    }
    // Values past f32's range and warps past 2^24 cells name their node.
    for (json, node, needle) in [
        (
            r#"{"output":"m","nodes":{"c":{"type":"constant","value":3e38},"m":{"type":"multiply","inputs":["c","c"]}}}"#,
            "m",
            "past f32",
        ),
        (
            r#"{"output":"w","nodes":{"p":{"type":"perlin"},"w":{"type":"warp","source":"p","by":["p","p"],"amplitude":1e12}}}"#,
            "p",
            "at most 2^24",
        ),
    ] {
        match Graph::from_json(json)
            .unwrap()
            .prepare(Size::new(4, 4, 1), [0.0; 4])
        {
            Err(Error::InvalidGraph {
                node: n, reason, ..
            }) => {
                assert_eq!(n, node, "{reason}");
                assert!(reason.contains(needle), "{reason}");
            }
            other => panic!("{json}: {:?}", other.map(|p| p.steps())),
        }
    }
}

/// A node of each type with all of its inputs on one constant node and no parameters (curve:
/// its required points), so every entry of the table reads through the reader.
#[test]
fn every_node_type_reads_with_its_defaults_and_every_choice_is_understood() {
    for ty in meta::node_types() {
        for dims in [2u32, 3] {
            if ty.name == "gabor" && dims == 3 {
                continue;
            }
            let mut g = GraphBuilder::new(dims);
            g.node("c", "constant").set("value", 0.5);
            let mut node = g.node("n", ty.name);
            for input in ty.inputs {
                match input.arity {
                    meta::Arity::One => node.input(input.name, "c"),
                    meta::Arity::List(k) => node.inputs(input.name, &vec!["c"; k]),
                    meta::Arity::PerAxis => node.inputs(input.name, &vec!["c"; dims as usize]),
                };
            }
            if ty.name == "curve" {
                node.set("points", vec![[0.0, 1.0], [1.0, 2.0]]);
            }
            g.output("n");
            let graph = g
                .build()
                .unwrap_or_else(|e| panic!("{} {dims}D: {e}", ty.name));
            let values = render(&graph, Size::new(4, 4, 1), [0.0; 4]);
            assert!(values.iter().all(|v| v.is_finite()), "{}", ty.name);
            for param in ty.params {
                if let meta::ParamType::Choice { options, .. } = param.ty {
                    for option in options {
                        let value = replace_param(&g.to_value(), param.name, option);
                        let read = Graph::from_value(&value);
                        // An axis the graph does not have is refused; every other option reads.
                        let axis = ["x", "y", "z", "w"].iter().position(|a| a == option);
                        let beyond = param.name == "axis" && axis >= Some(dims as usize);
                        assert_eq!(read.is_ok(), !beyond, "{} {}={option}", ty.name, param.name);
                    }
                }
            }
        }
    }
}

fn replace_param(
    graph: &gpu_noise::graph::Value,
    key: &str,
    option: &str,
) -> gpu_noise::graph::Value {
    use gpu_noise::graph::Value;
    let Value::Object(top) = graph else {
        unreachable!()
    };
    let mut top = top.clone();
    for (k, v) in top.iter_mut() {
        if k == "nodes" {
            let Value::Object(nodes) = v else {
                unreachable!()
            };
            for (name, node) in nodes.iter_mut() {
                if name == "n" {
                    let Value::Object(fields) = node else {
                        unreachable!()
                    };
                    fields.push((key.into(), Value::Text(option.into())));
                }
            }
        }
    }
    Value::Object(top)
}

#[test]
fn conventions_hold_the_node_table() {
    let doc = include_str!("../../docs/CONVENTIONS.md");
    assert!(
        doc.contains(&meta::markdown_table()),
        "docs/CONVENTIONS.md §13 must hold gpu_noise::low_level::graph::meta::markdown_table() verbatim:\n{}",
        meta::markdown_table()
    );
}

#[test]
fn a_prepared_graph_reports_its_expansion() {
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin");
    g.node("f", "fbm").input("source", "p").set("octaves", 6u32);
    g.node("m", "abs").input("source", "f");
    g.node("s", "add").inputs("inputs", &["m", "f"]);
    g.output("s");
    let prepared: Job = g
        .build()
        .unwrap()
        .prepare(Size::new(2, 2, 1), [0.0; 4])
        .unwrap();
    // f is evaluated once although two nodes read it.
    assert_eq!(prepared.noise_evaluations(), 6);
    assert_eq!(prepared.steps(), 6 + 1 + 1 + 1);
}

#[test]
fn points_and_texels_agree() {
    // A texel's value is the value at its root point, offset + (i, j, k): exactly where the
    // frames' steps are exact (dyadic frequencies), within their 2^-32 rounding otherwise.
    let mut g = GraphBuilder::new(3);
    g.node("p", "perlin").set("frequency", 0.0625);
    // (Not simplex: its skew, F = 1/3 in 3D, makes the texels' steps inexact.)
    g.node("s", "value")
        .set("frequency", 0.03125)
        .set("seed", 2u64);
    g.node("m", "scale")
        .input("source", "s")
        .set("by", [0.5, 2.0, 1.0]);
    g.node("sum", "add").inputs("inputs", &["p", "m"]);
    g.node("t", "rotate")
        .input("source", "sum")
        .set("degrees", 40.0)
        .set("axis", [0.0, 1.0, 1.0]);
    for (out, exact) in [("sum", true), ("t", false)] {
        g.output(out);
        let offset = [4e9 + 0.5, -1024.0, 33.25, 0.0];
        let prepared = g
            .build()
            .unwrap()
            .prepare(Size::new(9, 7, 3), offset)
            .unwrap();
        let texels = gpu_noise::cpu::render_f64(&prepared).unwrap();
        let points: Vec<[f64; 4]> = (0..3u32)
            .flat_map(|k| (0..7u32).flat_map(move |j| (0..9u32).map(move |i| (i, j, k))))
            .map(|(i, j, k)| {
                [
                    offset[0] + f64::from(i),
                    offset[1] + f64::from(j),
                    offset[2] + f64::from(k),
                    0.0,
                ]
            })
            .collect();
        let sampled = cpu::sample_texels(&prepared, &points);
        if exact {
            assert_eq!(sampled, texels);
        } else {
            assert!(
                max_diff(&sampled, &texels) < step_rounding_bound(9),
                "{out}"
            );
        }
    }
}

/// One rule per common parameter: a flat spec and a graph's fractal node (and a warp's
/// iterations) accept and refuse the same lacunarity, persistence and octaves, naming the same
/// field.
#[test]
fn flat_specs_and_graph_nodes_share_the_common_parameters_rules() {
    // (lacunarity, persistence, octaves, the field refused or None).
    let cases = [
        (2000.0, 0.5, 3, None),               // 2000^2 = 4e6 <= 2^30
        (2000.0, 0.5, 4, Some("lacunarity")), // 2000^3 = 8e9 > 2^30
        (2.0, 1e300, 3, None),                // the weights are normalized
        (2.0, 1e-40, 3, Some("persistence")), // 0 in f32
        (0.5, 0.5, 16, None),                 // shrinking octaves
    ];
    for (lacunarity, persistence, octaves, refused) in cases {
        let mut spec = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2);
        spec.fractal = gpu_noise::Fractal::Fbm;
        spec.octaves = octaves;
        spec.lacunarity = lacunarity;
        spec.persistence = persistence;
        let flat = spec.validate().map(drop).map_err(|e| e.to_string());
        let mut g = GraphBuilder::new(2);
        g.node("p", "perlin");
        g.node("f", "fbm")
            .input("source", "p")
            .set("octaves", octaves)
            .set("lacunarity", lacunarity)
            .set("persistence", persistence);
        g.node("w", "warp")
            .input("source", "f")
            .inputs("by", &["p", "p"])
            .set("iterations", octaves.min(8))
            .set("lacunarity", lacunarity);
        g.output("w");
        let graph = g.build().map(drop).map_err(|e| e.to_string());
        let what = format!("lacunarity {lacunarity}, persistence {persistence}, {octaves} octaves");
        assert_eq!(flat.is_ok(), refused.is_none(), "{what}: flat {flat:?}");
        assert_eq!(graph.is_ok(), refused.is_none(), "{what}: graph {graph:?}");
        if let (Err(f), Err(g), Some(field)) = (&flat, &graph, refused) {
            assert!(f.contains(field) && g.contains(field), "{what}: {f} / {g}");
        }
    }
}

/// A curve's points are pairs: a flat list says so, with the form to write.
#[test]
fn curve_points_given_as_a_flat_list_are_refused_showing_the_pair_form() {
    let json = r#"{"output": "c", "nodes": {
        "p": {"type": "perlin"},
        "c": {"type": "curve", "source": "p", "points": [-1, 0, 1]}}}"#;
    let message = Graph::from_json(json).expect_err("a flat list").to_string();
    assert!(
        message.contains("\"c\", points") && message.contains("pair [x, y]"),
        "{message}"
    );
    assert!(message.contains("got -1"), "{message}");
}
