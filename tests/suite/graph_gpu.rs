//! Graphs on the GPU and the SIMD lanes (CONVENTIONS §13): the generated kernel validates with
//! naga, and every node type renders within the graph's stated bound of the f64 twin on both
//! f32 engines (the lanes on every instruction set this CPU has), near the origin and far out;
//! random graphs too.

use gpu_noise::Job;
use gpu_noise::graph::GraphBuilder;
use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::simd::{self, InstructionSet};
use gpu_noise::{Graph, Size, gpu::Target, wgsl};

use crate::support::{assert_rows_agree_one_row_down, renderer};
use gpu_noise::Window;

/// The f32 engines' images of a job: the GPU's, then the SIMD lanes' on each instruction set.
fn f32_images(prepared: &Job, what: &str) -> Vec<(String, Vec<f32>)> {
    let window = Window::full(prepared.size());
    let gpu = renderer()
        .read(prepared, window)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut images = vec![("GPU".to_string(), gpu)];
    for isa in InstructionSet::ALL.into_iter().filter(|i| i.available()) {
        let lanes = simd::render_window_on(isa, prepared, window)
            .unwrap_or_else(|e| panic!("{what} on SIMD {}: {e}", isa.name()));
        images.push((format!("SIMD {}", isa.name()), lanes));
    }
    images
}

/// Texels farther than the bound from the twin on the worst f32 engine, and its worst error.
fn compare(prepared: &Job, what: &str) -> (usize, f64, f64) {
    wgsl::validate(&prepared.wgsl()).unwrap_or_else(|e| panic!("{what}: generated WGSL:\n{e}"));
    let twin = gpu_noise::cpu::render_f64(prepared).unwrap();
    let bound = prepared.gpu_error_bound().value;
    let (mut over, mut worst) = (0, 0.0f64);
    for (engine, image) in f32_images(prepared, what) {
        let errors: Vec<f64> = (image.iter().zip(&twin))
            .map(|(g, c)| (f64::from(*g) - c).abs())
            .collect();
        let engine_worst =
            errors.iter().fold(
                0.0f64,
                |w, &e| if e.is_nan() { f64::INFINITY } else { w.max(e) },
            );
        let engine_over = errors.iter().filter(|&&e| !e.le(&bound)).count();
        if engine_over > 0 {
            eprintln!("{what} on {engine}: {engine_over} texels over, worst {engine_worst:e}");
        }
        over = over.max(engine_over);
        worst = worst.max(engine_worst);
    }
    (over, worst, bound)
}

fn check(prepared: &Job, what: &str) {
    let (over, worst, bound) = compare(prepared, what);
    assert_eq!(
        over, 0,
        "{what}: max error {worst:e} exceeds the bound {bound:e}"
    );
    // A bound that says nothing would let anything pass: graphs compound each node's worst
    // case, so it must stay within 1% of the nominal span (CONVENTIONS §13).
    let span = 2.0 * prepared.magnitude_bound();
    assert!(
        bound <= 1e-2 * span,
        "{what}: bound {bound:e} is loose for a nominal span of {span}"
    );
    eprintln!("{what}: worst {worst:.2e}, bound {bound:.2e}, nominal span {span:.3}");
}

const FAR: [f64; 4] = [1e9 + 0.5, -3e7 - 0.25, 4e5, 0.0];

fn both(g: &GraphBuilder, size: Size, what: &str) {
    let graph = g.build().unwrap_or_else(|e| panic!("{what}: {e}"));
    for offset in [[0.0; 4], FAR] {
        let prepared = graph.prepare(size, offset).unwrap();
        check(&prepared, &format!("{what} at {offset:?}"));
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn every_source_kind_matches_the_twin_in_2d_and_3d() {
    for dims in [2u32, 3] {
        let mut g = GraphBuilder::new(dims);
        let mut names = vec!["p", "g", "v", "s", "c", "sc", "k", "x"];
        g.node("p", "perlin").set("frequency", 0.07);
        g.node("g", "gradient")
            .set("frequency", 0.05)
            .set("seed", 3u64);
        g.node("v", "value")
            .set("frequency", 0.09)
            .set("interp", "catmull-rom");
        g.node("s", "simplex").set("frequency", 0.06);
        g.node("c", "cellular")
            .set("frequency", 0.08)
            .set("return", "f2-f1");
        g.node("sc", "sparse-convolution").set("frequency", 0.04);
        g.node("k", "constant").set("value", 0.25);
        g.node("x", "coordinate")
            .set("axis", "y")
            .set("frequency", 1e-8);
        if dims == 2 {
            g.node("gb", "gabor")
                .set("frequency", 0.05)
                .set("gabor_orientation", "isotropic");
            names.push("gb");
        }
        g.node("sum", "add").inputs("inputs", &names);
        g.output("sum");
        // Far out the coordinate reads y = 3e7 texels as 0.3: f32 keeps it to 2^-23 of that.
        let size = Size::new(40, 24, if dims == 3 { 2 } else { 1 });
        both(&g, size, &format!("sources {dims}D"));
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn fractal_nodes_match_the_twin() {
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.03);
    g.node("s", "simplex")
        .set("frequency", 0.02)
        .set("seed", 9u64);
    g.node("ps", "multiply").inputs("inputs", &["p", "s"]);
    g.node("f", "fbm")
        .input("source", "ps")
        .set("octaves", 3u32);
    g.node("t", "turbulence")
        .input("source", "p")
        .set("octaves", 2u32);
    g.node("r", "ridged")
        .input("source", "s")
        .set("octaves", 3u32)
        .set("lacunarity", 2.3);
    g.node("b", "billow")
        .input("source", "p")
        .set("octaves", 2u32);
    g.node("m", "ridged-multifractal")
        .input("source", "s")
        .set("octaves", 4u32);
    g.node("out", "add")
        .inputs("inputs", &["f", "t", "r", "b", "m"]);
    g.output("out");
    both(&g, Size::new(48, 32, 1), "fractals");
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn domain_nodes_match_the_twin() {
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin")
        .set("frequency", 0.05)
        .set("seed", 2u64);
    g.node("wx", "simplex")
        .set("frequency", 0.03)
        .set("seed", 11u64);
    g.node("wy", "value")
        .set("frequency", 0.04)
        .set("seed", 12u64);
    g.node("r", "ridged")
        .input("source", "p")
        .set("octaves", 2u32);
    g.node("w", "warp")
        .input("source", "r")
        .inputs("by", &["wx", "wy"])
        .set("amplitude", 9.0)
        .set("iterations", 2u32)
        .set("mode", "progressive");
    g.node("turned", "rotate")
        .input("source", "w")
        .set("degrees", 33.0);
    g.node("scaled", "scale")
        .input("source", "turned")
        .set("by", [1.5, 0.75]);
    g.node("moved", "translate")
        .input("source", "scaled")
        .set("by", [1e3 + 0.5, -77.25]);
    g.node("wi", "warp")
        .input("source", "moved")
        .inputs("by", &["wy", "wx"])
        .set("amplitude", 4.0);
    g.output("wi");
    both(&g, Size::new(48, 32, 1), "domain 2D");
    let mut g = GraphBuilder::new(3);
    g.node("s", "simplex").set("frequency", 0.05);
    g.node("t", "rotate")
        .input("source", "s")
        .set("degrees", -71.0)
        .set("axis", [1.0, 2.0, 0.5]);
    g.output("t");
    both(&g, Size::new(24, 24, 3), "rotate 3D");
}

/// A noise whose map keeps to the axes takes one wide product per axis on the GPU
/// (`graph_point_axes`); under a `rotate` it takes the general sum over texel axes
/// (`graph_point`). Turned by 0 degrees, the map is the same numbers, so the two must give the
/// same bits, far out and at a frequency whose steps carry (a volume: texel z too).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn an_axis_aligned_noise_gives_the_bits_of_the_general_point_sum() {
    for (dims, size) in [(2, Size::new(21, 17, 1)), (3, Size::new(9, 7, 5))] {
        let graph = |turned: bool| {
            let mut g = GraphBuilder::new(dims);
            g.node("p", "perlin").set("frequency", 0.0137);
            g.node("f", "fbm").input("source", "p").set("octaves", 3u32);
            if turned {
                g.node("t", "rotate")
                    .input("source", "f")
                    .set("degrees", 0.0);
                g.output("t");
            } else {
                g.output("f");
            }
            g.build()
                .unwrap()
                .prepare(size, [3.3e11 + 0.25, -7.7e10, 1.5e9, 0.0])
                .unwrap()
        };
        let (aligned, turned) = (graph(false), graph(true));
        // The calls (the library defines both functions in every module).
        assert!(
            aligned.wgsl().contains("gn_graph_point_axes(0u, t)"),
            "{dims}D"
        );
        assert!(turned.wgsl().contains("gn_graph_point(0u, t)"), "{dims}D");
        // The shared renderer's guard ends with the statement: `check` takes it again.
        let [a, b] =
            [&aligned, &turned].map(|job| renderer().read(job, Window::full(size)).unwrap());
        for (n, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x.to_bits(), y.to_bits(), "{dims}D texel {n}: {x} vs {y}");
        }
        check(&aligned, &format!("axis-aligned {dims}D"));
    }
}

/// A graph's value kernels compute texel rows in pairs (`GRAPH_PROGRAM_ROWS`): each row must be
/// the same bits whether it is the first texel of its invocation (a window one row down) or the
/// second, through a warp and far out; an odd height leaves the last row alone, and a volume
/// pairs rows within each slice.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_graphs_second_row_is_bit_for_bit_the_texel_it_is_alone() {
    for (dims, size) in [(2, Size::new(19, 13, 1)), (3, Size::new(7, 9, 3))] {
        let mut g = GraphBuilder::new(dims);
        g.node("p", "perlin").set("frequency", 0.0137);
        g.node("r", "ridged")
            .input("source", "p")
            .set("octaves", 3u32);
        g.node("wx", "simplex").set("frequency", 0.021);
        g.node("wy", "value").set("frequency", 0.033);
        g.node("wz", "perlin").set("frequency", 0.05);
        g.node("w", "warp")
            .input("source", "r")
            .inputs("by", &["wx", "wy", "wz"][..dims as usize])
            .set("amplitude", 7.5);
        g.output("w");
        let job = (g.build().unwrap())
            .prepare(size, [3.3e11 + 0.25, -7.7e10, 1.5e9, 0.0])
            .unwrap();
        assert_rows_agree_one_row_down(&mut renderer(), &job, &format!("{dims}D"));
        check(&job, &format!("pairs {dims}D"));
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn modifiers_match_the_twin() {
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.06);
    g.node("a", "abs").input("source", "p");
    g.node("n", "negate").input("source", "a");
    g.node("c", "clamp")
        .input("source", "p")
        .set("min", -0.3)
        .set("max", 0.4);
    g.node("r", "remap")
        .input("source", "p")
        .set("from", [-1.0, 1.0])
        .set("to", [2.0, 3.0]);
    g.node("cc", "curve").input("source", "p").set(
        "points",
        vec![[-1.0, -1.0], [-0.2, 0.3], [0.1, -0.1], [1.0, 0.8]],
    );
    g.node("cl", "curve")
        .input("source", "p")
        .set("points", vec![[-0.5, 0.0], [0.5, 1.0]])
        .set("interp", "linear");
    g.node("t", "terrace")
        .input("source", "p")
        .set("invert", true);
    g.node("pw", "power")
        .input("source", "p")
        .set("exponent", 2.5);
    g.node("ss", "smoothstep")
        .input("source", "p")
        .set("edge0", -0.5)
        .set("edge1", 0.5);
    let all = ["n", "c", "r", "cc", "cl", "t", "pw", "ss"];
    g.node("out", "add").inputs("inputs", &all);
    g.output("out");
    both(&g, Size::new(48, 32, 1), "modifiers");
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn combiners_match_the_twin() {
    let mut g = GraphBuilder::new(2);
    g.node("a", "perlin").set("frequency", 0.05);
    g.node("b", "cellular").set("frequency", 0.04);
    g.node("c", "simplex")
        .set("frequency", 0.03)
        .set("seed", 4u64);
    g.node("sub", "subtract").input("a", "a").input("b", "b");
    g.node("mn", "min").inputs("inputs", &["a", "b", "c"]);
    g.node("mx", "max").inputs("inputs", &["a", "c"]);
    g.node("smn", "smooth-min")
        .input("a", "a")
        .input("b", "c")
        .set("k", 0.3);
    g.node("smx", "smooth-max")
        .input("a", "b")
        .input("b", "c")
        .set("k", 0.2);
    g.node("bl", "blend")
        .input("a", "a")
        .input("b", "b")
        .input("control", "c");
    g.node("sel", "select")
        .input("a", "a")
        .input("b", "c")
        .input("control", "b")
        .set("threshold", 0.1)
        .set("falloff", 0.2);
    let all = ["sub", "mn", "mx", "smn", "smx", "bl", "sel"];
    g.node("out", "multiply").inputs("inputs", &["a", "c"]);
    g.node("sum", "add")
        .inputs("inputs", &[&all[..], &["out"]].concat());
    g.output("sum");
    both(&g, Size::new(48, 32, 1), "combiners");
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_hard_select_jumps_only_where_its_control_meets_the_threshold() {
    // Without falloff, select is a step: a texel whose control lies within the control's error
    // of the threshold may take the other side on the GPU. Elsewhere it must hold the bound.
    let mut g = GraphBuilder::new(2);
    g.node("a", "perlin").set("frequency", 0.05);
    g.node("b", "constant").set("value", 3.0);
    g.node("c", "simplex").set("frequency", 0.04);
    g.node("sel", "select")
        .input("a", "a")
        .input("b", "b")
        .input("control", "c");
    g.output("sel");
    let prepared = g
        .build()
        .unwrap()
        .prepare(Size::new(64, 64, 1), FAR)
        .unwrap();
    assert!(
        prepared
            .gpu_error_bound()
            .reason
            .contains("select nodes without falloff")
    );
    let (over, _, _) = compare(&prepared, "hard select");
    assert!(over <= 8, "{over} of 4096 texels jumped");
}

/// The gallery's graphs (examples/graphs/), the caves as a volume.
pub const EXAMPLES: [(&str, &str); 3] = [
    (
        "terrain",
        include_str!("../../examples/graphs/terrain.json"),
    ),
    ("marble", include_str!("../../examples/graphs/marble.json")),
    ("caves", include_str!("../../examples/graphs/caves.json")),
];

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn the_example_graphs_match_the_twin() {
    for (name, json) in EXAMPLES {
        let graph = Graph::from_json(json).unwrap();
        let depth = if graph.dims() == 3 { 3 } else { 1 };
        let prepared = graph.prepare(Size::new(64, 48, depth), FAR).unwrap();
        check(&prepared, name);
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn node_by_node_evaluation_gives_the_fused_values() {
    // The fusion measurement's baseline computes the same steps through a register buffer; it
    // must agree with the fused kernel (and so with the twin) for its timings to mean anything.
    // A small graph (each step compiles a pipeline) with values and displacement registers.
    let mut g = GraphBuilder::new(2);
    g.node("p", "perlin").set("frequency", 0.05);
    g.node("wx", "simplex").set("frequency", 0.03);
    g.node("wy", "value").set("frequency", 0.04);
    g.node("f", "fbm").input("source", "p").set("octaves", 2u32);
    g.node("w", "warp")
        .input("source", "f")
        .inputs("by", &["wx", "wy"])
        .set("amplitude", 6.0);
    g.node("s", "scale").input("source", "w").set("by", 1.5);
    g.output("s");
    let prepared = g
        .build()
        .unwrap()
        .prepare(Size::new(40, 24, 1), FAR)
        .unwrap();
    let fused = renderer()
        .read(&prepared, Window::full(prepared.size()))
        .unwrap();
    let steps = unfused(&prepared);
    let bound = prepared.gpu_error_bound().value;
    let twin = gpu_noise::cpu::render_f64(&prepared).unwrap();
    for i in 0..fused.len() {
        assert!((f64::from(steps[i]) - twin[i]).abs() <= bound, "texel {i}");
        assert!(
            (steps[i] - fused[i]).abs() <= 1e-5,
            "texel {i}: {} vs {}",
            steps[i],
            fused[i]
        );
    }
}

/// The job one step per dispatch (the unfused baseline), read back.
fn unfused(job: &Job) -> Vec<f32> {
    let mut renderer = renderer();
    let (device, queue) = (renderer.device().clone(), renderer.queue().clone());
    let registers = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test registers"),
        size: gpu_noise::low_level::gpu::unfused_bytes(job),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    let at = renderer
        .record_unfused(&mut encoder, job, &registers)
        .unwrap();
    queue.submit([encoder.finish()]);
    let bytes = at + job.size().texels() * 4;
    read_back(&device, &queue, &registers, bytes)[(at / 4) as usize..].to_vec()
}

/// Reads `bytes` of `buffer` (COPY_SRC) back as f32.
fn read_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Vec<f32> {
    bytemuck::cast_slice(&crate::support::read_buffer(device, queue, buffer, bytes)).to_vec()
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_new_frame_of_a_graph_with_new_numbers_writes_the_state_and_creates_nothing() {
    let frame = |frequency: f64, amplitude: f64| {
        let mut g = GraphBuilder::new(2);
        g.node("p", "perlin").set("frequency", frequency);
        g.node("w", "simplex").set("frequency", 0.02);
        g.node("out", "warp")
            .input("source", "p")
            .inputs("by", &["w", "w"])
            .set("amplitude", amplitude);
        g.output("out");
        g.build()
            .unwrap()
            .prepare(Size::new(32, 32, 1), [1e6, 0.0, 0.0, 0.0])
            .unwrap()
    };
    let mut renderer = renderer();
    let (device, queue) = (renderer.device().clone(), renderer.queue().clone());
    let target = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test graph target"),
        size: 32 * 32 * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut record = |prepared: &Job| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let buffer = Target::Buffer {
            buffer: &target,
            offset: 0,
        };
        renderer.record(&mut encoder, prepared, buffer).unwrap();
        queue.submit([encoder.finish()]);
        renderer.stats()
    };
    let first = frame(0.05, 8.0);
    let before = record(&first);
    let second = frame(0.07, 3.0);
    let after = record(&second);
    assert_eq!(
        after.pipelines_compiled, before.pipelines_compiled,
        "same structure, same pipeline"
    );
    assert_eq!(after.buffers_created, before.buffers_created);
    assert_eq!(after.bind_groups_created, before.bind_groups_created);
    assert_eq!(after.table_uploads, before.table_uploads);
    assert_eq!(
        after.uniform_writes,
        before.uniform_writes + 1,
        "one state write"
    );
    assert_eq!(after.dispatches, before.dispatches + 1);
    // The write took effect: the second frame's values are the second graph's.
    let values = read_back(&device, &queue, &target, 32 * 32 * 4);
    let twin = gpu_noise::cpu::render_f64(&second).unwrap();
    let bound = second.gpu_error_bound().value;
    for (g, c) in values.iter().zip(&twin) {
        assert!((f64::from(*g) - c).abs() <= bound);
    }
}

/// Renders `prepared` through a caller's own shader that includes the graph module at group 1.
struct CallerShader {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    output: wgpu::Buffer,
    group: wgpu::BindGroup,
}

impl CallerShader {
    fn new(prepared: &Job, side: u32) -> Self {
        let (device, queue, _) = crate::support::caller_device();
        let source = prepared.wgsl_module(1)
            + &format!(
                "@group(0) @binding(0) var<storage, read_write> heights: array<f32>;
                 @compute @workgroup_size(8, 8)
                 fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
                     if all(id.xy < vec2<u32>({side}u)) {{
                         heights[id.y * {side}u + id.x] = gn_graph_value(vec3<u32>(id.xy, 0u));
                     }}
                 }}"
            );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("caller's shader"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let own = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: false },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let graph_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &gpu_noise::gpu::GraphBindings::layout_entries(prepared),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&own), Some(&graph_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let output = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(side * side) * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &own,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: output.as_entire_binding(),
            }],
        });
        CallerShader {
            device,
            queue,
            pipeline,
            output,
            group,
        }
    }

    fn run(&self, graph: &gpu_noise::gpu::GraphBindings, side: u32) -> Vec<f32> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.set_bind_group(1, graph.bind_group(), &[]);
            pass.dispatch_workgroups(side.div_ceil(8), side.div_ceil(8), 1);
        }
        self.queue.submit([encoder.finish()]);
        read_back(&self.device, &self.queue, &self.output, self.output.size())
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_callers_shader_calls_the_graph_and_takes_new_numbers_by_update() {
    let frame = |frequency: f64, seed: u64| {
        let mut g = GraphBuilder::new(2);
        g.node("p", "perlin")
            .set("frequency", frequency)
            .set("seed", seed);
        g.node("c", "cellular").set("frequency", 0.04);
        g.node("m", "min").inputs("inputs", &["p", "c"]);
        g.output("m");
        g.build()
            .unwrap()
            .prepare(Size::new(24, 24, 1), FAR)
            .unwrap()
    };
    let first = frame(0.05, 1);
    let shader_graph = CallerShader::new(&first, 24);
    let mut bindings = gpu_noise::gpu::GraphBindings::new(&shader_graph.device, &first);
    for prepared in [first.clone(), frame(0.08, 7)] {
        bindings
            .update(&shader_graph.device, &shader_graph.queue, &prepared)
            .unwrap();
        let values = shader_graph.run(&bindings, 24);
        let twin = gpu_noise::cpu::render_f64(&prepared).unwrap();
        let bound = prepared.gpu_error_bound().value;
        for (g, c) in values.iter().zip(&twin) {
            assert!((f64::from(*g) - c).abs() <= bound, "{g} vs {c}");
        }
    }
    // Another structure needs another module.
    let mut g = GraphBuilder::new(2);
    g.node("p", "value");
    g.output("p");
    let other = g
        .build()
        .unwrap()
        .prepare(Size::new(24, 24, 1), FAR)
        .unwrap();
    assert!(
        bindings
            .update(&shader_graph.device, &shader_graph.queue, &other)
            .is_err()
    );
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn graphs_fill_r32float_textures_2d_and_3d() {
    for (size, dims) in [(Size::new(37, 23, 1), 2u32), (Size::new(12, 10, 3), 3)] {
        let mut g = GraphBuilder::new(dims);
        g.node("s", "simplex").set("frequency", 0.07);
        g.node("c", "cellular").set("frequency", 0.05);
        g.node("out", "smooth-min").input("a", "s").input("b", "c");
        g.output("out");
        let prepared = g.build().unwrap().prepare(size, FAR).unwrap();
        let mut renderer = renderer();
        let (device, queue) = (renderer.device().clone(), renderer.queue().clone());
        let extent = wgpu::Extent3d {
            width: size.width,
            height: size.height,
            depth_or_array_layers: size.depth,
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("graph texture"),
            size: extent,
            mip_level_count: 1,
            sample_count: 1,
            dimension: if dims == 3 {
                wgpu::TextureDimension::D3
            } else {
                wgpu::TextureDimension::D2
            },
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let output = gpu_noise::gpu::TextureOutput::default();
        let row = (size.width * 4).next_multiple_of(256);
        let rows = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(row * size.height * size.depth),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        let target = Target::Texture {
            texture: &texture,
            output: &output,
        };
        renderer.record(&mut encoder, &prepared, target).unwrap();
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &rows,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(size.height),
                },
            },
            extent,
        );
        queue.submit([encoder.finish()]);
        let padded = read_back(&device, &queue, &rows, rows.size());
        let twin = gpu_noise::cpu::render_f64(&prepared).unwrap();
        let bound = prepared.gpu_error_bound().value;
        let per_row = (row / 4) as usize;
        for (n, c) in twin.iter().enumerate() {
            let (w, h) = (size.width as usize, size.height as usize);
            let (i, j, k) = (n % w, n / w % h, n / (w * h));
            let g = padded[(k * h + j) * per_row + i];
            assert!(
                (f64::from(g) - c).abs() <= bound,
                "{dims}D texel ({i}, {j}, {k}): {g} vs {c}"
            );
        }
        // A texture of another size is refused, naming the target.
        let small = device.create_texture(&wgpu::TextureDescriptor {
            size: wgpu::Extent3d { width: 4, ..extent },
            label: None,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING,
            view_formats: &[],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        let target = Target::Texture {
            texture: &small,
            output: &output,
        };
        let err = renderer
            .record(&mut encoder, &prepared, target)
            .unwrap_err();
        assert!(
            matches!(
                err,
                gpu_noise::Error::InvalidTarget {
                    target: "texture",
                    ..
                }
            ),
            "{err}"
        );
    }
}
