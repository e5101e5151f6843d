//! Graph gradients (CONVENTIONS §13, "Derivatives"): for every node type with derivatives, the
//! twin's forward-mode gradient against fourth-order central differences of the twin's values,
//! near the origin and far out; the GPU's against the twin's.

use std::collections::BTreeSet;

use gpu_noise::graph::{GraphBuilder, Value};
use gpu_noise::low_level::graph::meta;
use gpu_noise::{Error, Job, Size, Window, cpu};

/// Sources every case may use: four kinds with derivatives (simplex from 2D) at frequencies
/// well below a cell per texel.
fn sources(dims: u32) -> GraphBuilder {
    let mut g = GraphBuilder::new(dims);
    g.node("p", "perlin").set("frequency", 0.05);
    if dims >= 2 {
        g.node("s", "simplex")
            .set("frequency", 0.04)
            .set("seed", 3u64);
    }
    g.node("v", "value")
        .set("frequency", 0.07)
        .set("seed", 5u64);
    g.node("g", "gradient")
        .set("frequency", 0.06)
        .set("seed", 7u64);
    g
}

/// One graph per node type (several for some), its output the node under test.
fn cases() -> Vec<(String, GraphBuilder)> {
    let mut cases = Vec::new();
    let mut add = |name: &str, dims: u32, build: &dyn Fn(&mut GraphBuilder)| {
        let mut g = sources(dims);
        build(&mut g);
        g.output("out");
        cases.push((name.to_string(), g));
    };
    for kind in ["perlin", "simplex", "value", "gradient"] {
        for dims in [2, 3] {
            add(&format!("{kind} {dims}D"), dims, &|g| {
                g.node("out", kind).set("frequency", 0.083);
            });
        }
    }
    add("value cubic 1D", 1, &|g| {
        g.node("out", "value")
            .set("frequency", 0.09)
            .set("interp", "cubic");
    });
    // Twin only: lavapipe takes about 20 s to compile Catmull-Rom's derivative.
    add("value catmull-rom 2D twin", 2, &|g| {
        g.node("out", "value")
            .set("frequency", 0.09)
            .set("interp", "catmull-rom");
    });
    add("constant and coordinate", 2, &|g| {
        g.node("c", "constant").set("value", 0.25);
        g.node("x", "coordinate")
            .set("axis", "y")
            .set("frequency", 0.01);
        g.node("out", "multiply").inputs("inputs", &["p", "x", "c"]);
    });
    for fractal in [
        "fbm",
        "turbulence",
        "ridged",
        "billow",
        "ridged-multifractal",
    ] {
        add(fractal, 2, &|g| {
            g.node("out", fractal)
                .input("source", "s")
                .set("octaves", 4u32)
                .set("lacunarity", 1.9);
        });
    }
    add("fbm of a product", 2, &|g| {
        g.node("ps", "multiply").inputs("inputs", &["p", "v"]);
        g.node("out", "fbm")
            .input("source", "ps")
            .set("octaves", 3u32);
    });
    add("translate, scale and rotate", 2, &|g| {
        g.node("t", "translate")
            .input("source", "p")
            .set("by", [1e3 + 0.5, -77.25]);
        g.node("sc", "scale")
            .input("source", "t")
            .set("by", [1.5, 0.75]);
        g.node("out", "rotate")
            .input("source", "sc")
            .set("degrees", 33.0);
    });
    add("rotate 3D", 3, &|g| {
        g.node("out", "rotate")
            .input("source", "s")
            .set("degrees", -71.0)
            .set("axis", [1.0, 2.0, 0.5]);
    });
    add("warp", 2, &|g| {
        g.node("out", "warp")
            .input("source", "g")
            .inputs("by", &["s", "v"])
            .set("amplitude", 6.0);
    });
    add("progressive warp of transforms", 2, &|g| {
        g.node("r", "ridged")
            .input("source", "p")
            .set("octaves", 2u32);
        g.node("turned", "rotate")
            .input("source", "r")
            .set("degrees", 21.0);
        g.node("scaled", "scale")
            .input("source", "turned")
            .set("by", [1.25, 0.5]);
        g.node("out", "warp")
            .input("source", "scaled")
            .inputs("by", &["s", "g"])
            .set("amplitude", 5.0)
            .set("iterations", 2u32)
            .set("mode", "progressive");
    });
    add("coordinate under a warp", 2, &|g| {
        g.node("x", "coordinate")
            .set("axis", "x")
            .set("frequency", 0.02);
        g.node("out", "warp")
            .input("source", "x")
            .inputs("by", &["s", "p"])
            .set("amplitude", 3.0);
    });
    add("abs", 2, &|g| {
        g.node("out", "abs").input("source", "p");
    });
    add("negate", 2, &|g| {
        g.node("out", "negate").input("source", "p");
    });
    add("clamp", 2, &|g| {
        g.node("out", "clamp")
            .input("source", "p")
            .set("min", -0.3)
            .set("max", 0.4);
    });
    add("remap", 2, &|g| {
        g.node("out", "remap")
            .input("source", "p")
            .set("from", [-1.0, 1.0])
            .set("to", [2.0, 3.5]);
    });
    for interp in ["cubic", "linear"] {
        add(&format!("curve {interp}"), 2, &|g| {
            g.node("out", "curve")
                .input("source", "s")
                .set(
                    "points",
                    vec![[-1.0, -1.0], [-0.2, 0.3], [0.1, -0.1], [1.0, 0.8]],
                )
                .set("interp", interp);
        });
    }
    for invert in [false, true] {
        add(&format!("terrace invert {invert}"), 2, &|g| {
            g.node("out", "terrace")
                .input("source", "p")
                .set("invert", invert);
        });
    }
    for exponent in [2.5, 0.75] {
        add(&format!("power {exponent}"), 2, &|g| {
            g.node("out", "power")
                .input("source", "p")
                .set("exponent", exponent);
        });
    }
    add("smoothstep", 2, &|g| {
        g.node("out", "smoothstep")
            .input("source", "p")
            .set("edge0", -0.5)
            .set("edge1", 0.5);
    });
    for combiner in ["add", "multiply", "min", "max"] {
        add(combiner, 2, &|g| {
            g.node("out", combiner).inputs("inputs", &["p", "s", "v"]);
        });
    }
    add("subtract", 2, &|g| {
        g.node("out", "subtract").input("a", "p").input("b", "g");
    });
    for (ty, k) in [("smooth-min", 0.3), ("smooth-max", 0.2)] {
        add(ty, 2, &|g| {
            g.node("out", ty)
                .input("a", "p")
                .input("b", "s")
                .set("k", k);
        });
    }
    add("blend", 2, &|g| {
        g.node("out", "blend")
            .input("a", "p")
            .input("b", "s")
            .input("control", "v");
    });
    for falloff in [0.2, 0.0] {
        add(&format!("select falloff {falloff}"), 2, &|g| {
            g.node("out", "select")
                .input("a", "p")
                .input("b", "s")
                .input("control", "g")
                .set("threshold", 0.1)
                .set("falloff", falloff);
        });
    }
    cases
}

/// The `type` of each node of `g`.
fn node_types(g: &GraphBuilder) -> Vec<String> {
    let Value::Object(top) = g.to_value() else {
        panic!("a graph is an object")
    };
    let Some((_, Value::Object(nodes))) = top.iter().find(|(k, _)| k == "nodes") else {
        panic!("a graph has nodes")
    };
    let type_of = |fields: &Value| match fields {
        Value::Object(f) => f.iter().find(|(k, _)| k == "type").map(|(_, v)| v.clone()),
        _ => None,
    };
    nodes
        .iter()
        .filter_map(|(_, fields)| match type_of(fields) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        })
        .collect()
}

/// Root points (texel units) around `centre`, spread over a few hundred texels: binary
/// fractions, so every stencil point is exact in f64 and in the fixed point.
fn points(centre: [f64; 2], dims: u32, n: usize) -> Vec<[f64; 4]> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        ((state >> 40) as f64 / (1u64 << 24) as f64 - 0.5) * 400.0
    };
    (0..n)
        .map(|_| {
            let mut p = [0.0; 4];
            for (a, x) in p.iter_mut().enumerate().take(dims as usize) {
                *x = (centre.get(a).copied().unwrap_or(0.0) + next()) * 64.0;
                *x = x.round() / 64.0;
            }
            p
        })
        .collect()
}

/// `d/dx_axis` at each point by the fourth-order central difference of the twin's values.
fn central_differences(job: &Job, points: &[[f64; 4]], axis: usize, h: f64) -> Vec<f64> {
    let moved: Vec<[f64; 4]> = points
        .iter()
        .flat_map(|p| {
            [2.0, 1.0, -1.0, -2.0].map(|k| {
                let mut q = *p;
                q[axis] += k * h;
                q
            })
        })
        .collect();
    let v = cpu::sample_texels(job, &moved);
    v.chunks_exact(4)
        .map(|f| (-f[0] + 8.0 * f[1] - 8.0 * f[2] + f[3]) / (12.0 * h))
        .collect()
}

/// Every node type with derivatives: the analytic gradient within `1e-6 + 1e-5 |fd|` (plus the
/// quotient's rounding, `8 |v| eps / h`) of the
/// fourth-order central difference (h = 2^-10 texels), at 48 points near the origin and 48 at
/// (1e9, -1e9), skipping stencils where the twin is not smooth (two step sizes disagree: a
/// kink of |v|, a terrace level, a clamp or curve end, a hard select edge), at most 1 in 8.
#[test]
fn every_node_type_has_gradients_matching_central_differences() {
    let h = 1.0 / 1024.0;
    let mut covered = BTreeSet::new();
    for (name, g) in cases() {
        covered.extend(node_types(&g));
        let graph = g.build().unwrap();
        let job = graph.prepare(Size::new(8, 8, 1), [0.0; 4]).unwrap();
        let dims = job.dims();
        let (mut checked, mut skipped) = (0, 0);
        for centre in [[3.5, -7.25], [1e9, -1e9]] {
            let points = points(centre, dims, 48);
            let duals = cpu::sample_texels_gradient(&job, &points).unwrap();
            let values = cpu::sample_texels(&job, &points);
            for (d, v) in duals.iter().zip(&values) {
                // The kinds' dual functions order their arithmetic differently.
                assert!((d[0] - v).abs() < 1e-12, "{name}: value {} vs {v}", d[0]);
            }
            for axis in 0..(dims as usize).min(3) {
                let fd = central_differences(&job, &points, axis, h);
                let fine = central_differences(&job, &points, axis, h / 8.0);
                for i in 0..points.len() {
                    // The difference quotient's own rounding: the values' ulps over h (a
                    // coordinate far out is large), eight times that at h / 8.
                    let rounding = 8.0 * values[i].abs() * f64::EPSILON / h;
                    if (fd[i] - fine[i]).abs() > 1e-6 * (1.0 + fd[i].abs()) + 9.0 * rounding {
                        skipped += 1;
                        continue;
                    }
                    let analytic = duals[i][1 + axis];
                    assert!(
                        (analytic - fd[i]).abs() <= 1e-6 + 1e-5 * fd[i].abs() + rounding,
                        "{name}: point {:?} axis {axis}: analytic {analytic} vs {}",
                        points[i],
                        fd[i]
                    );
                    checked += 1;
                }
            }
        }
        assert!(
            skipped * 8 <= checked,
            "{name}: {checked} checked, {skipped} skipped"
        );
        println!("{name}: {checked} checked, {skipped} skipped");
    }
    // Every node type but the kinds the kind table says have no derivatives.
    let without = |name: &str| {
        name.parse::<gpu_noise::Kind>()
            .is_ok_and(|k| !k.has_derivatives())
    };
    for ty in meta::node_types() {
        assert!(
            covered.contains(ty.name) || without(ty.name),
            "no gradient case uses node type {}",
            ty.name
        );
    }
}

/// A graph with a noise that has no derivatives refuses gradients naming that node and `type`
/// (or `interp` for nearest steps).
#[test]
fn graphs_without_derivatives_refuse_gradients_naming_the_node() {
    for (kind, interp, field) in [
        ("cellular", None, "type"),
        ("gabor", None, "type"),
        ("value", Some("nearest"), "interp"),
    ] {
        let mut g = sources(2);
        let mut node = g.node("rough", kind);
        if let Some(i) = interp {
            node.set("interp", i);
        }
        g.node("out", "add").inputs("inputs", &["p", "rough"]);
        g.output("out");
        let job = g
            .build()
            .unwrap()
            .prepare(Size::new(4, 4, 1), [0.0; 4])
            .unwrap();
        match job.with_gradient() {
            Err(Error::InvalidGraph { node, field: f, .. }) => {
                assert_eq!((node.as_str(), f.as_str()), ("rough", field), "{kind}")
            }
            other => panic!("{kind}: {other:?}"),
        }
    }
}

/// The GPU's gradients against the twin's for every node type, the cases merged into five
/// graphs (one pipeline each), near the origin and at 1e9: within
/// [`Job::gradient_error_bound`], skipping texels within 2^-10 texels of a place where the
/// twin's gradient jumps (a kink of |v| or min/max, a terrace level, a hard select edge: there
/// f32 may take the other side), at most 1 in 8.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn gpu_gradients_match_the_twin() {
    let mut r = crate::support::renderer();
    let mut worst = 0.0f64;
    let all = cases();
    let mut merged_cases = 0;
    for group in GPU_GROUPS {
        let members: Vec<&(String, GraphBuilder)> = (all.iter())
            .filter(|(n, _)| gpu_group(n) == Some(group))
            .collect();
        merged_cases += members.len();
        let graph = merge(&members);
        for offset in [[0.0; 4], [1e9, -1e9, 0.0, 0.0]] {
            let started = std::time::Instant::now();
            let job = graph.prepare(Size::new(24, 16, 1), offset).unwrap();
            let job = job.with_gradient().unwrap();
            gpu_noise::wgsl::validate(&job.wgsl()).unwrap_or_else(|e| panic!("{group}: {e}"));
            let gpu = r.read(&job, Window::full(job.size())).unwrap();
            let twin = cpu::render_f64(&job).unwrap();
            let bound = job.gradient_error_bound();
            let jumps = near_jumps(&job, offset, bound);
            let what = format!("{group} at {offset:?}: gpu");
            let (skipped, ratio) = within_bound(&gpu, &twin, &jumps, bound, &what);
            worst = worst.max(ratio);
            println!(
                "{group}: {skipped} of {} skipped, {:?}",
                gpu.len(),
                started.elapsed()
            );
        }
    }
    // The 1D and twin-only cases aside, every case is in one group.
    assert_eq!(merged_cases, all.len() - 2);
    println!("worst GPU-vs-twin graph gradient error: {worst:.3} of the bound");
}

/// The SIMD backend's gradients against the twin's for every case, one graph each, near the
/// origin and at 1e9, on every instruction set this CPU has: within the GPU's bound
/// ([`Job::gradient_error_bound`]; the lanes compute the GPU's f32), skipping texels near a
/// jump of the twin's gradient as the GPU test does.
#[test]
fn simd_gradients_match_the_twin() {
    use gpu_noise::simd::{self, InstructionSet};
    let mut worst = 0.0f64;
    for (name, g) in cases() {
        let graph = g.build().unwrap();
        for offset in [[0.0; 4], [1e9, -1e9, 0.0, 0.0]] {
            let height = if graph.dims() == 1 { 1 } else { 16 };
            let job = graph.prepare(Size::new(24, height, 1), offset).unwrap();
            let job = job.with_gradient().unwrap();
            let twin = cpu::render_f64(&job).unwrap();
            let bound = job.gradient_error_bound();
            let jumps = near_jumps(&job, offset, bound);
            for isa in InstructionSet::ALL.into_iter().filter(|i| i.available()) {
                let lanes = simd::render_window_on(isa, &job, Window::full(job.size())).unwrap();
                let what = format!("{name} at {offset:?} on {}: simd", isa.name());
                worst = worst.max(within_bound(&lanes, &twin, &jumps, bound, &what).1);
            }
        }
    }
    println!("worst SIMD-vs-twin graph gradient error: {worst:.3} of the bound");
}

/// Holds an f32 backend's `[value, d/dx, d/dy, d/dz]` texels to the twin's within `bound`,
/// skipping texels near a jump of the twin's gradient (`jumps`, at most 1 in 8): how many it
/// skipped, and the worst error as a fraction of the bound.
fn within_bound(got: &[f32], twin: &[f64], jumps: &[bool], bound: f64, what: &str) -> (usize, f64) {
    assert_eq!(got.len(), twin.len(), "{what}");
    let (mut skipped, mut worst) = (0, 0.0f64);
    for (n, (a, b)) in got.iter().zip(twin).enumerate() {
        if jumps[n / 4] {
            skipped += 1;
            continue;
        }
        let err = (f64::from(*a) - b).abs();
        worst = worst.max(err / bound);
        assert!(
            err <= bound,
            "{what} texel {} channel {}: {a} twin {b} (bound {bound:e})",
            n / 4,
            n % 4
        );
    }
    assert!(skipped * 8 <= got.len(), "{what}: {skipped} skipped");
    (skipped, worst)
}

const GPU_GROUPS: [&str; 5] = [
    "kinds 2D",
    "kinds 3D",
    "fractals and domain",
    "modifiers",
    "combiners",
];

/// The merged graph a case joins on the GPU, by its name (none: 1D, and the twin-only case).
fn gpu_group(name: &str) -> Option<&'static str> {
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if name.ends_with("twin") || name.ends_with("1D") {
        None
    } else if name.ends_with("2D") {
        Some(GPU_GROUPS[0])
    } else if name.ends_with("3D") {
        Some(GPU_GROUPS[1])
    } else if starts(&[
        "fbm",
        "turb",
        "ridged",
        "billow",
        "translate",
        "warp",
        "progr",
        "coord",
    ]) {
        Some(GPU_GROUPS[2])
    } else if starts(&[
        "abs",
        "negate",
        "clamp",
        "remap",
        "curve",
        "terrace",
        "power",
        "smoothstep",
    ]) {
        Some(GPU_GROUPS[3])
    } else {
        Some(GPU_GROUPS[4])
    }
}

/// Cases of the same dims as one graph: their nodes (the shared sources once, the others
/// prefixed with the case's index) and the sum of their outputs.
fn merge(members: &[&(String, GraphBuilder)]) -> gpu_noise::Graph {
    let shared = ["p", "s", "v", "g"];
    let mut nodes: Vec<(String, Value)> = Vec::new();
    let mut outputs = Vec::new();
    let mut dims = Value::Null;
    for (k, (_, g)) in members.iter().enumerate() {
        let Value::Object(top) = g.to_value() else {
            panic!("a graph is an object")
        };
        let field = |name: &str| {
            top.iter()
                .find(|(key, _)| key == name)
                .map(|(_, v)| v.clone())
        };
        dims = field("dims").unwrap();
        let Some(Value::Object(case_nodes)) = field("nodes") else {
            panic!("a graph has nodes")
        };
        let rename = |name: &str| {
            if shared.contains(&name) {
                name.to_string()
            } else {
                format!("c{k}_{name}")
            }
        };
        for (name, fields) in case_nodes {
            if shared.contains(&name.as_str()) && k > 0 {
                continue;
            }
            let Value::Object(fields) = fields else {
                panic!("a node is an object")
            };
            let fields = fields
                .into_iter()
                .map(|(key, v)| {
                    let input =
                        ["source", "a", "b", "control", "inputs", "by"].contains(&key.as_str());
                    let v = match v {
                        Value::Text(t) if input => Value::Text(rename(&t)),
                        Value::List(items) if input => Value::List(
                            items
                                .into_iter()
                                .map(|i| match i {
                                    Value::Text(t) => Value::Text(rename(&t)),
                                    other => other,
                                })
                                .collect(),
                        ),
                        other => other,
                    };
                    (key, v)
                })
                .collect();
            nodes.push((rename(&name), Value::Object(fields)));
        }
        outputs.push(Value::Text(rename("out")));
    }
    nodes.push((
        "sum".into(),
        Value::Object(vec![
            ("type".into(), Value::Text("add".into())),
            ("inputs".into(), Value::List(outputs)),
        ]),
    ));
    let top = Value::Object(vec![
        ("dims".into(), dims),
        ("output".into(), Value::Text("sum".into())),
        ("nodes".into(), Value::Object(nodes)),
    ]);
    gpu_noise::Graph::from_value(&top).unwrap()
}

/// Per texel of a 2D job at `offset`: whether the twin's gradient jumps by more than `bound`
/// within 2^-10 texels along an axis.
fn near_jumps(job: &Job, offset: [f64; 4], bound: f64) -> Vec<bool> {
    let size = job.size();
    let eps = 1.0 / 1024.0;
    let mut points = Vec::new();
    for j in 0..size.height {
        for i in 0..size.width {
            let root = [offset[0] + f64::from(i), offset[1] + f64::from(j), 0.0, 0.0];
            points.push(root);
            for (axis, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0)] {
                let mut q = root;
                q[axis] += sign * eps;
                points.push(q);
            }
        }
    }
    let duals = cpu::sample_texels_gradient(job, &points).unwrap();
    duals
        .chunks_exact(5)
        .map(|d| {
            // The second difference along each axis: O(eps^2) where the gradient is smooth,
            // the jump itself where one lies between.
            [(1, 2), (3, 4)].iter().any(|&(plus, minus)| {
                (1..4).any(|c| (d[plus][c] - 2.0 * d[0][c] + d[minus][c]).abs() > bound)
            })
        })
        .collect()
}
