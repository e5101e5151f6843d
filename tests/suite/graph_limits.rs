//! Graphs at the edges of their ranges (found by a hostile probe): tiny frequencies rendered
//! exactly or refused naming the node, points past 2^62 cells refused rather than printed as
//! NaN, and parameters whose f32 arithmetic would overflow refused at validation.

use super::cli::{f32_file, out, run, run_stdin, text, tmp};

fn graph_file(dir: &std::path::Path, name: &str, json: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, json).unwrap();
    path.display().to_string()
}

fn perlin_1d(frequency: &str) -> String {
    format!(
        r#"{{"dims":1,"output":"p","nodes":{{"p":{{"type":"perlin","frequency":{frequency}}}}}}}"#
    )
}

/// Was: frequencies below 2^-32 were rendered with a step rounded to 2^-32 (a row of 2^20
/// texels at 1e-10 was one value; 2e-10 and 3e-10 rendered alike) while `sample` differed.
#[test]
fn a_continent_sized_frequency_renders_exactly_what_sample_gives() {
    let d = tmp();
    let mut middles = Vec::new();
    for frequency in ["1e-10", "2e-10", "3e-10"] {
        let graph = graph_file(d.path(), "tiny.json", &perlin_1d(frequency));
        let (p, s) = out(d.path(), "row.f32");
        let args = [
            "render",
            "--graph",
            &graph,
            "--backend",
            "cpu",
            "--size",
            "1048576x1",
        ];
        let o = run(&[&args[..], &["--offset", "3e9", "-o", &s]].concat());
        assert!(o.status.success(), "{}", text(&o.stderr));
        let row = f32_file(&p);
        // Across 2^20 texels the value moves (1e-4 cells at 1e-10 per texel).
        assert_ne!(row[0], row[row.len() - 1], "{frequency}: a flat row");
        let o = run_stdin(
            &["sample", "--graph", &graph, "--backend", "cpu"],
            "3000524288\n",
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let sampled: f64 = text(&o.stdout).trim().parse().unwrap();
        assert_eq!(row[524_288], sampled as f32, "{frequency}: texel 2^19");
        middles.push(row[524_288]);
    }
    assert!(middles[0] != middles[1] && middles[1] != middles[2]);
}

#[test]
fn a_frequency_below_2_to_the_minus_40_is_refused_naming_the_node() {
    let d = tmp();
    let (p, s) = out(d.path(), "x.f32");
    let scaled = r#"{"dims":2,"output":"s","nodes":{"p":{"type":"perlin","frequency":1e-6},
        "s":{"type":"scale","source":"p","by":1e-8}}}"#;
    for json in [perlin_1d("1e-13"), scaled.to_string()] {
        let graph = graph_file(d.path(), "g.json", &json);
        let o = run(&["render", "--graph", &graph, "--size", "4x1", "-o", &s]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{json}: {err}");
        assert!(
            err.contains("graph node \"p\"") && err.contains("2^-40"),
            "{err}"
        );
        assert!(!p.exists());
    }
}

/// Was: `sample --graph` past 2^62 cells printed NaN, or a clamped 1.0, with exit 0.
#[test]
fn sample_graph_refuses_points_past_2_to_the_62_cells() {
    let d = tmp();
    let p1 = r#"{"dims":2,"output":"p","nodes":{"p":{"type":"perlin","frequency":1}}}"#;
    let graphs = [
        (graph_file(d.path(), "p1.json", p1), "1e19 0\n"),
        (super::graph_cli::TERRAIN.to_string(), "0 0\n1e25 0\n"),
    ];
    for (graph, input) in graphs {
        let o = run_stdin(&["sample", "--graph", &graph, "--backend", "cpu"], input);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{graph}: {err}");
        let point = input.lines().count();
        assert!(
            err.contains(&format!("point {point}:")) && err.contains("2^62"),
            "{err}"
        );
        assert!(!text(&o.stdout).contains("NaN"));
    }
}

/// Was: accepted, then `edge1 - edge0` or `2 falloff` overflowed f32 on the GPU (0 where the
/// twin gave 0.5).
#[test]
fn parameters_whose_f32_arithmetic_overflows_are_refused() {
    let d = tmp();
    let (p, s) = out(d.path(), "x.f32");
    let cases = [
        (
            r#"{"output":"s","nodes":{"p":{"type":"perlin"},
              "s":{"type":"smoothstep","source":"p","edge0":-2e38,"edge1":2e38}}}"#,
            "graph node \"s\", edge1",
        ),
        (
            r#"{"output":"s","nodes":{"p":{"type":"perlin"},"q":{"type":"value"},
              "s":{"type":"select","a":"p","b":"q","control":"p","falloff":2e38}}}"#,
            "graph node \"s\", falloff",
        ),
    ];
    for (json, needle) in cases {
        let graph = graph_file(d.path(), "g.json", json);
        let o = run(&["render", "--graph", &graph, "--size", "4", "-o", &s]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(needle) && err.contains("f32's range"), "{err}");
        assert!(!p.exists());
    }
}

/// Was: `--normal-strength` above about 4e20 was accepted and every normal collapsed to (128,
/// 128, 128): `(s d)^2` overflowed f32. Now the slopes dominate: normals lie almost flat in
/// the image plane (blue near 128, |(red, green) - 128| near 127), as a strong height should.
#[test]
fn a_huge_normal_strength_gives_horizontal_normals_not_flat_gray() {
    let d = tmp();
    let (p, s) = out(d.path(), "n.png");
    let args = [
        "render",
        "--size",
        "32",
        "--channels",
        "normal",
        "--backend",
        "cpu",
    ];
    let o = run(&[&args[..], &["--normal-strength", "1e21", "-o", &s]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let img = image::open(&p).unwrap().to_rgb8();
    let mut horizontal = 0;
    for px in img.pixels() {
        let [r, g, b] = px.0.map(|c| i32::from(c) - 128);
        // A texel with no slope at all (a lattice point's zero gradient) stays upright.
        if px.0 == [128, 128, 255] {
            continue;
        }
        assert!(b.abs() <= 1, "a normal with height left: {:?}", px.0);
        // A unit vector in the image plane: |(r, g)| about 127.
        if r * r + g * g >= 120 * 120 {
            horizontal += 1;
        }
    }
    assert!(
        horizontal >= 32 * 32 * 9 / 10,
        "{horizontal} of 1024 horizontal"
    );
}

/// Was: an `add` of 5000 inputs failed `verify` on correct f32 arithmetic (1.85e-1 against a
/// bound of 1.04e-1): the bound counted one rounding per node, the engines make n - 1.
#[test]
fn a_sum_of_thousands_of_inputs_stays_within_its_bound() {
    let inputs = vec!["\"p\""; 5000].join(",");
    let json = format!(
        r#"{{"dims":2,"output":"s","nodes":{{"p":{{"type":"perlin"}},
            "s":{{"type":"add","inputs":[{inputs}]}}}}}}"#
    );
    let graph = gpu_noise::Graph::from_json(&json).unwrap();
    let job = graph
        .prepare(gpu_noise::Size::new(64, 64, 1), [0.0; 4])
        .unwrap();
    let twin = gpu_noise::cpu::render_f64(&job).unwrap();
    let bound = job.gpu_error_bound().value;
    for isa in gpu_noise::simd::InstructionSet::ALL {
        if !isa.available() {
            continue;
        }
        let window = gpu_noise::Window::full(job.size());
        let lanes = gpu_noise::simd::render_window_on(isa, &job, window).unwrap();
        let worst = (lanes.iter().zip(&twin))
            .map(|(l, t)| (f64::from(*l) - t).abs())
            .fold(0.0, f64::max);
        assert!(
            worst <= bound,
            "{isa:?}: {worst:e} over the bound {bound:e}"
        );
        // Still a bound that says something: within 100x of what f32 does here.
        assert!(
            bound < 100.0 * worst.max(1e-3),
            "{isa:?}: {bound:e} against {worst:e}"
        );
    }
}

fn coordinate_job(offset: [f64; 4]) -> gpu_noise::Job {
    let json =
        r#"{"dims":2,"output":"c","nodes":{"c":{"type":"coordinate","axis":"x","frequency":1}}}"#;
    let graph = gpu_noise::Graph::from_json(json).unwrap();
    graph
        .prepare(gpu_noise::Size::new(8, 2, 1), offset)
        .unwrap()
}

/// The offsets of the probe: the GPU wrote -1.29e9 for 3e9 (the cell read as i32).
const FAR: [[f64; 4]; 3] = [
    [3e9, 0.0, 0.0, 0.0],
    [1e9, -3e11, 0.0, 0.0],
    [-1e15, 7.5, 0.0, 0.0],
];

/// Was: a `coordinate` wrapped at 2^31 cells on the GPU and the SIMD lanes.
#[test]
fn coordinates_far_out_round_in_f32_instead_of_wrapping_on_the_simd_lanes() {
    for offset in FAR {
        let job = coordinate_job(offset);
        let twin = gpu_noise::cpu::render_f64(&job).unwrap();
        let lanes = gpu_noise::simd::render_f32(&job).unwrap();
        assert_eq!(twin[0], offset[0], "the twin is the exact coordinate");
        let bound = job.gpu_error_bound().value;
        for (l, t) in lanes.iter().zip(&twin) {
            assert!((f64::from(*l) - t).abs() <= bound, "{offset:?}: {l} vs {t}");
        }
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn coordinates_far_out_round_in_f32_instead_of_wrapping_on_the_gpu() {
    let mut renderer = super::support::renderer();
    for offset in FAR {
        let job = coordinate_job(offset);
        let twin = gpu_noise::cpu::render_f64(&job).unwrap();
        let gpu = renderer
            .read(&job, gpu_noise::Window::full(job.size()))
            .unwrap();
        let bound = job.gpu_error_bound().value;
        for (g, t) in gpu.iter().zip(&twin) {
            assert!((f64::from(*g) - t).abs() <= bound, "{offset:?}: {g} vs {t}");
        }
    }
}

#[test]
fn a_coordinate_spanning_2_to_the_31_cells_across_an_image_is_refused() {
    let json = r#"{"dims":2,"output":"c","nodes":{"c":{"type":"coordinate","axis":"x","frequency":100000}}}"#;
    let graph = gpu_noise::Graph::from_json(json).unwrap();
    let err = graph
        .prepare(gpu_noise::Size::new(65536, 1, 1), [0.0; 4])
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"c\"") && err.contains("2^31"), "{err}");
    assert!(
        graph
            .prepare(gpu_noise::Size::new(16384, 1, 1), [0.0; 4])
            .is_ok()
    );
}

/// A `combiner` of n inputs cycling over 5 distinct noises (the GPU's compile time grows with
/// the distinct noises, not with the inputs).
fn wide(combiner: &str, n: usize) -> gpu_noise::Job {
    combined(combiner, n, 5, gpu_noise::Size::new(8, 8, 1), [0.0; 4])
}

/// A graph whose output is `combiner` over `n` inputs cycling through `distinct` Perlin
/// noises (each its own seed), prepared at `size` and `offset`.
fn combined(
    combiner: &str,
    n: usize,
    distinct: usize,
    size: gpu_noise::Size,
    offset: [f64; 4],
) -> gpu_noise::Job {
    let mut nodes: Vec<String> = (0..distinct)
        .map(|k| format!(r#""p{k}":{{"type":"perlin","seed":{k}}}"#))
        .collect();
    let inputs: Vec<String> = (0..n).map(|k| format!("\"p{}\"", k % distinct)).collect();
    nodes.push(format!(
        r#""m":{{"type":"{combiner}","inputs":[{}]}}"#,
        inputs.join(",")
    ));
    let json = format!(
        r#"{{"dims":2,"output":"m","nodes":{{{}}}}}"#,
        nodes.join(",")
    );
    let graph = gpu_noise::Graph::from_json(&json).unwrap();
    graph.prepare(size, offset).unwrap()
}

/// Was: a `max` or `min` of about 200 inputs (inside the 256-node limit) generated nested calls
/// that naga refused ("Parser recursion limit exceeded"), exit 1 naming no node.
#[test]
fn a_combiner_of_hundreds_of_inputs_generates_valid_wgsl() {
    for combiner in ["max", "min"] {
        let job = wide(combiner, 250);
        gpu_noise::wgsl::validate(&job.wgsl()).unwrap_or_else(|e| panic!("{combiner}: {e}"));
        let job = job.with_gradient().unwrap();
        gpu_noise::wgsl::validate(&job.wgsl()).unwrap_or_else(|e| panic!("{combiner}: {e}"));
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_combiner_of_hundreds_of_inputs_renders_on_the_gpu_within_its_bound() {
    let job = wide("max", 250);
    gpu_within(&job, job.gpu_error_bound().value, "max of 250");
}

/// Every value the GPU renders for `job` (four a texel with gradients) within `bound` of the
/// twin's.
fn gpu_within(job: &gpu_noise::Job, bound: f64, what: &str) {
    let gpu = (super::support::renderer())
        .read(job, gpu_noise::Window::full(job.size()))
        .unwrap();
    let twin = gpu_noise::cpu::render_f64(job).unwrap();
    for (g, t) in gpu.iter().zip(&twin) {
        assert!((f64::from(*g) - t).abs() <= bound, "{what}: {g} vs {t}");
    }
}

/// A sum of `n` distinct Perlin noises (each its own seed).
fn summed(n: usize) -> gpu_noise::Job {
    combined(
        "add",
        n,
        n,
        gpu_noise::Size::new(16, 16, 1),
        [1e9, -3.5, 0.0, 0.0],
    )
}

/// Was: every noise evaluation inlined its kind's code, so the pipeline grew with the graph
/// (64 summed Perlin nodes: 37 s and 0.8 GB to build on lavapipe). Runs of one kind are one
/// loop now: the value and gradient functions call Perlin once each, whatever the run's length.
#[test]
fn a_run_of_one_kind_is_one_loop_in_the_generated_wgsl() {
    let wgsl = summed(64).with_gradient().unwrap().wgsl();
    gpu_noise::wgsl::validate(&wgsl).unwrap();
    let body = |name: &str| {
        let start = wgsl
            .find(&format!("fn gn_graph_{name}(t: vec3<u32>)"))
            .unwrap();
        let end = wgsl[start..].find("\n}\n").unwrap();
        wgsl[start..start + end].to_string()
    };
    let (value, gradient) = (body("value"), body("value_d"));
    assert_eq!(value.matches("gn_perlin2(").count(), 1, "{value}");
    let points = gradient.matches("gn_graph_point(").count()
        + gradient.matches("gn_graph_point_axes(").count();
    assert_eq!(points, 1, "{gradient}");
    // Short runs stay straight-line code (4 octaves of fBm: 4 calls).
    let fbm = r#"{"dims":2,"output":"f","nodes":{"p":{"type":"perlin"},"f":{"type":"fbm","source":"p","octaves":4}}}"#;
    let job = gpu_noise::Graph::from_json(fbm).unwrap();
    let wgsl = job
        .prepare(gpu_noise::Size::new(4, 4, 1), [0.0; 4])
        .unwrap()
        .wgsl();
    assert_eq!(wgsl.matches("gn_perlin2(gn_graph_lattice").count(), 4);
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_run_of_one_kind_renders_values_and_gradients_within_their_bounds_on_the_gpu() {
    let job = summed(20);
    gpu_within(&job, job.gpu_error_bound().value, "value");
    let job = job.with_gradient().unwrap();
    gpu_within(&job, job.gradient_error_bound(), "gradient");
}

/// A graph's state is a uniform buffer where it takes at most 16 KiB (every device binds that
/// much; lavapipe reads it far faster than storage), else read-only storage: 20 noises take
/// 20 x 304 bytes of instances and fit, 64 do not. One renderer takes them in turn, so its
/// state buffer and bind group follow the space and the length (a uniform binding bound at a
/// larger graph's length would be a validation error), and each stays within its bound.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn graph_states_bind_as_uniform_up_to_16_kib_and_as_storage_past_it() {
    let (small, large) = (summed(20), summed(64));
    assert!(small.wgsl().contains("var<uniform> gn_graph_state"));
    assert!(large.wgsl().contains("var<storage, read> gn_graph_state"));
    let mut r = super::support::renderer();
    for (job, what) in [(&small, "20"), (&large, "64"), (&small, "20 again")] {
        let gpu = r.read(job, gpu_noise::Window::full(job.size())).unwrap();
        let twin = gpu_noise::cpu::render_f64(job).unwrap();
        let bound = job.gpu_error_bound().value;
        for (g, t) in gpu.iter().zip(&twin) {
            assert!((f64::from(*g) - t).abs() <= bound, "{what}: {g} vs {t}");
        }
    }
}
