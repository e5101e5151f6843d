//! Random graphs (CONVENTIONS §13): valid ones of every node type render the same texel values
//! through any window, and broken ones (a dangling input, an unknown key, a value out of range,
//! a missing input) are refused with a graph error, never a panic.

use gpu_noise::Job;
use gpu_noise::graph::{GraphBuilder, Value};
use gpu_noise::low_level::graph::meta;
use gpu_noise::{Error, Graph, Size, Window};
use proptest::prelude::*;

/// A random DAG: node i reads only nodes before it, so there are no cycles; the last is the
/// output. Each node is (type index, input picks, a random number for its main parameter).
fn random_graph() -> impl Strategy<Value = (u32, Vec<(usize, Vec<usize>, f64)>)> {
    let node = (
        0..meta::node_types().len(),
        prop::collection::vec(0usize..64, 3),
        0.0..1.0f64,
    );
    (2u32..=3, prop::collection::vec(node, 1..12))
}

/// The builder for a random graph: sources first where a type needs inputs and none exist.
fn build(dims: u32, nodes: &[(usize, Vec<usize>, f64)]) -> GraphBuilder {
    let mut g = GraphBuilder::new(dims);
    g.node("n0", "perlin").set("frequency", 0.05);
    for (i, (t, picks, x)) in nodes.iter().enumerate() {
        let mut ty = &meta::node_types()[*t];
        if ty.name == "gabor" && dims == 3 {
            ty = &meta::node_types()[0];
        }
        let name = format!("n{}", i + 1);
        let earlier = |k: usize| format!("n{}", picks[k % picks.len()] % (i + 1));
        let mut node = g.node(&name, ty.name);
        for (k, input) in ty.inputs.iter().enumerate() {
            let count = match input.arity {
                meta::Arity::One => 0,
                meta::Arity::List(n) => n,
                meta::Arity::PerAxis => dims as usize,
            };
            if count == 0 {
                node.input(input.name, &earlier(k));
            } else {
                let names: Vec<String> = (0..count).map(|j| earlier(k + j)).collect();
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                node.inputs(input.name, &refs);
            }
        }
        set_main_parameter(&mut node, ty.name, *x);
    }
    g.output(&format!("n{}", nodes.len()));
    g
}

/// One parameter per type drawn from its range, so that values other than defaults are read.
fn set_main_parameter(node: &mut gpu_noise::graph::NodeBuilder<'_>, ty: &str, x: f64) {
    match ty {
        "perlin" | "gradient" | "value" | "simplex" | "cellular" | "sparse-convolution"
        | "gabor" => {
            node.set("frequency", 0.01 + 0.2 * x)
                .set("seed", (x * 1e6) as u64);
        }
        "fbm" | "turbulence" | "ridged" | "billow" | "ridged-multifractal" => {
            node.set("octaves", 1 + (x * 3.0) as u32);
        }
        "translate" => {
            node.set("by", 1e6 * x - 5e5);
        }
        "scale" => {
            node.set("by", 0.25 + 2.0 * x);
        }
        "rotate" => {
            node.set("degrees", 360.0 * x - 180.0);
        }
        "warp" => {
            node.set("amplitude", 20.0 * x)
                .set("iterations", 1 + (x * 2.0) as u32);
        }
        "curve" => {
            node.set("points", vec![[-1.0, 1.0], [x - 0.5, 0.0], [1.0, 1.0]]);
        }
        "constant" => {
            node.set("value", 2.0 * x - 1.0);
        }
        "power" => {
            node.set("exponent", 0.5 + 2.0 * x);
        }
        _ => {}
    }
}

proptest! {
    // Each case compiles a pipeline (about 0.5 s on lavapipe): few cases, every node type
    // drawn with equal chance.
    #![proptest_config(ProptestConfig::with_cases(10))]

    #[test]
    #[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
    fn random_graphs_on_the_gpu_stay_within_their_bound_of_the_twin(
        (dims, nodes) in random_graph(),
        far in prop::bool::ANY,
    ) {
        let graph = build(dims, &nodes).build().unwrap();
        let offset = if far { [1e9 + 0.5, -2e7, 3e5, 0.0] } else { [0.0; 4] };
        let prepared = prepare_within_limits(&graph, Size::new(24, 16, 1), offset)?;
        prop_assume!(prepared.is_some(), "refused for a documented limit");
        let prepared = prepared.unwrap();
        let bound = prepared.gpu_error_bound();
        let gpu = crate::support::renderer().read(&prepared, Window::full(prepared.size())).unwrap();
        let twin = gpu_noise::cpu::render_f64(&prepared).unwrap();
        let over = gpu
            .iter()
            .zip(&twin)
            .filter(|(g, c)| !(f64::from(**g) - **c).abs().le(&bound.value))
            .count();
        // A step (select without falloff, cell-value borders, Gabor's truncation) may flip a
        // texel that sits on it; the bound's reason names such nodes.
        let steps = bound.reason.contains("discontinuous");
        prop_assert!(over == 0 || (steps && over <= 4), "{over} texels past {bound:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_graphs_give_each_texel_one_value_through_any_window(
        (dims, nodes) in random_graph(),
        origin in (0u32..6, 0u32..6),
    ) {
        let graph = build(dims, &nodes).build().unwrap();
        let size = Size::new(12, 10, if dims == 3 { 2 } else { 1 });
        let prepared = prepare_within_limits(&graph, size, [1e9 + 0.5, -17.25, 3.0, 0.0])?;
        prop_assume!(prepared.is_some(), "refused for a documented limit");
        let prepared = prepared.unwrap();
        let full = gpu_noise::cpu::render_f64(&prepared).unwrap();
        let window = Window::new([origin.0, origin.1, 0], Size::new(6, 4, size.depth));
        let part = gpu_noise::cpu::render_window_f32(&prepared, window).unwrap();
        for (n, v) in part.iter().enumerate() {
            let (i, j, k) = (n as u32 % 6, n as u32 / 6 % 4, n as u32 / 24);
            let at = ((k * size.height + origin.1 + j) * size.width + origin.0 + i) as usize;
            prop_assert!(*v == full[at] as f32 || (v.is_nan() && full[at].is_nan()));
        }
    }

    #[test]
    fn broken_graphs_are_refused_with_a_graph_error(
        (dims, nodes) in random_graph(),
        damage in 0usize..4,
        which in 0usize..64,
    ) {
        let value = build(dims, &nodes).to_value();
        let broken = break_graph(&value, damage, which);
        match Graph::from_value(&broken) {
            Err(Error::InvalidGraph { .. }) => {}
            Ok(_) => prop_assert!(false, "accepted damage {damage}"),
            Err(other) => prop_assert!(false, "not a graph error: {other}"),
        }
    }
}

/// Prepares a random graph, or `None` when it is refused for one of the limits of CONVENTIONS
/// §13 that random graphs can reach (a coordinate node far out, scaled or multiplied, feeding a
/// warp past 2^24 cells or values past f32). Such a refusal must name its node; any other error
/// fails the case.
fn prepare_within_limits(
    graph: &Graph,
    size: Size,
    offset: [f64; 4],
) -> Result<Option<Job>, TestCaseError> {
    match graph.prepare(size, offset) {
        Ok(prepared) => Ok(Some(prepared)),
        Err(Error::InvalidGraph { node, reason, .. })
            if !node.is_empty() && (reason.contains("2^24") || reason.contains("past f32")) =>
        {
            Ok(None)
        }
        Err(other) => Err(TestCaseError::fail(format!("refused: {other}"))),
    }
}

/// Damages node `which` (modulo the count): 0 points an input nowhere (or adds an unknown key
/// to a source), 1 adds a key no type takes, 2 sets a type no one knows, 3 removes its type.
fn break_graph(value: &Value, damage: usize, which: usize) -> Value {
    let Value::Object(top) = value else {
        unreachable!()
    };
    let mut top = top.clone();
    let nodes = top.iter_mut().find(|(k, _)| k == "nodes").map(|(_, v)| v);
    let Some(Value::Object(nodes)) = nodes else {
        unreachable!()
    };
    let count = nodes.len();
    let Value::Object(fields) = &mut nodes[which % count].1 else {
        unreachable!()
    };
    let input = fields
        .iter()
        .position(|(k, v)| k != "type" && matches!(v, Value::Text(t) if t.starts_with('n')));
    match (damage, input) {
        (0, Some(i)) => fields[i].1 = Value::Text("nowhere".into()),
        (0 | 1, _) => fields.push(("no_such_key".into(), Value::Whole(1))),
        (2, _) => fields[0].1 = Value::Text("no-such-type".into()),
        _ => {
            fields.remove(0);
        }
    }
    Value::Object(top)
}
