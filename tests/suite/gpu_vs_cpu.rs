//! The GPU against the f64 reference, texel by texel, with the bound of CONVENTIONS §7 stated:
//! 2e-5 for f32 arithmetic inside an octave plus the GPU's 24-bit fractions
//! (`tolerance::gpu_error_bound`), at any distance from the origin (tests/suite/worlds.rs).

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::tolerance::{compare, gpu_error_bound};
use gpu_noise::simd::{self, InstructionSet};
use gpu_noise::{
    Fractal, Kind, NoiseSpec, Renderer, Size, Window, cpu, gpu::AdapterChoice,
    gpu::RendererOptions, spec::Interp, spec::LatticeKind,
};

use crate::support::{assert_rows_agree_one_row_down, dump_failure, renderer, spec};

const FRACTALS: [Fractal; 5] = [
    Fractal::None,
    Fractal::Fbm,
    Fractal::Turbulence,
    Fractal::Ridged,
    Fractal::Billow,
];
const INTERPS: [Interp; 6] = [
    Interp::Nearest,
    Interp::Linear,
    Interp::Cosine,
    Interp::Cubic,
    Interp::Quintic,
    Interp::CatmullRom,
];

/// The f32 engine held to the bound: the GPU, or the SIMD CPU backend (tested exactly as the
/// GPU is).
pub enum Backend<'a> {
    Gpu(&'a mut Renderer),
    Simd(InstructionSet),
}

impl Backend<'_> {
    fn render(&mut self, prep: &gpu_noise::Job) -> gpu_noise::Result<Vec<f32>> {
        match self {
            Backend::Gpu(r) => r.read(prep, Window::full(prep.size())),
            Backend::Simd(isa) => simd::render_window_on(*isa, prep, Window::full(prep.size())),
        }
    }

    fn name(&self) -> String {
        match self {
            Backend::Gpu(r) => r.adapter_name().to_string(),
            Backend::Simd(isa) => format!("SIMD ({})", isa.name()),
        }
    }
}

/// Renders on both sides and asserts the bound; returns the max error.
fn check(backend: &mut Backend, s: &NoiseSpec, name: &str) -> f64 {
    let prep = s.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    let gpu = backend
        .render(&prep)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let reference = cpu::render_f64(&prep).unwrap();
    let cmp = compare(&gpu, &reference);
    let bound = gpu_error_bound(s);
    if cmp.max_abs_err > bound.value {
        let dir = dump_failure(name, s, &gpu, &reference);
        panic!(
            "{name} on {}: max_abs_err {:e} > bound {:e} ({}) at texel {} (gpu {}, cpu {}); rmse {:e}; images in {dir}",
            backend.name(),
            cmp.max_abs_err,
            bound.value,
            bound.reason,
            cmp.worst_index,
            cmp.worst_gpu,
            cmp.worst_cpu,
            cmp.rmse
        );
    }
    cmp.max_abs_err
}

/// Perlin, gradient and value noise: for every kind and dims, every fractal (each with an
/// interpolation in turn) and every interpolation (each with a fractal in turn): pairwise
/// coverage, not the product. The fractal loop and the interpolation are separate code paths
/// (the kinds see their point, the fractal sees their values), and each pipeline is a compile
/// (about 0.5 s on llvmpipe with a cold shader cache), so the product (295 cases) bought no
/// path that these do not run.
fn lattice_kind_cases() -> Vec<(String, NoiseSpec)> {
    let mut cases: Vec<(String, NoiseSpec)> = Vec::new();
    for kind in [Kind::Perlin, Kind::Gradient, Kind::Value] {
        let interps: Vec<Interp> = INTERPS
            .into_iter()
            .filter(|i| *i != Interp::CatmullRom || kind == Kind::Value)
            .collect();
        for dims in 1..=kind.max_dims() {
            let turn = dims as usize;
            let pairs = FRACTALS
                .iter()
                .enumerate()
                .map(|(f, fractal)| (*fractal, interps[(f + turn) % interps.len()]))
                .chain(
                    interps
                        .iter()
                        .enumerate()
                        .map(|(i, interp)| (FRACTALS[(i + turn) % FRACTALS.len()], *interp)),
                );
            for (fractal, interp) in pairs {
                let name = format!("{kind:?}-{dims}d-{fractal:?}-{interp:?}");
                if cases.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                let mut s = spec(kind, dims, 16, 12);
                s.frequency = 0.125;
                s.offset = [-5.0, 3.0, 1.0, 2.0];
                s.seed = (cases.len() % 4) as u64; // seed 0 (Ken Perlin's table) and others
                s.interp = interp;
                s.fractal = fractal;
                s.octaves = if fractal == Fractal::None { 1 } else { 3 };
                cases.push((name, s));
            }
        }
    }
    let lattice = [Kind::Perlin, Kind::Gradient, Kind::Value];
    assert_covers(&cases, "kind", &lattice, |s| s.kind);
    assert_covers(&cases, "dims", &[1, 2, 3, 4], |s| s.dims);
    assert_covers(&cases, "fractal", &FRACTALS, |s| s.fractal);
    assert_covers(&cases, "interp", &INTERPS, |s| s.interp);
    cases
}

/// Asserts that the cases give `of` every value in `all`. The lists are chosen by hand to run
/// every code path without the full product of options, so a value dropped by an edit (a
/// kind, a metric, a return) would leave its path unchecked.
fn assert_covers<T: PartialEq + std::fmt::Debug>(
    cases: &[(String, NoiseSpec)],
    what: &str,
    all: &[T],
    of: impl Fn(&NoiseSpec) -> T,
) {
    for value in all {
        assert!(
            cases.iter().any(|(_, s)| of(s) == *value),
            "no case has {what} {value:?}"
        );
    }
}

/// The newer kinds, choosing cases so every code path runs (each dims, fractal, metric, return,
/// jitter extreme, orientation and tiling) without the full product of options.
fn newer_kind_cases() -> Vec<(String, NoiseSpec)> {
    use gpu_noise::{spec::CellReturn, spec::Distance};
    let mut cases: Vec<(String, NoiseSpec)> = Vec::new();
    let base = |kind: Kind, dims: u32| {
        let mut s = spec(kind, dims, 16, 12);
        s.frequency = 0.125;
        s.offset = [-5.0, 3.0, 1.0, 2.0];
        s
    };
    for dims in 2..=4 {
        for (f, fractal) in FRACTALS.into_iter().enumerate() {
            let mut s = base(Kind::Simplex, dims);
            s.fractal = fractal;
            s.octaves = if f == 0 { 1 } else { 3 };
            s.seed = f as u64;
            cases.push((format!("simplex-{dims}d-{fractal:?}"), s));
        }
    }
    for dims in 2..=3 {
        for (n, distance) in Distance::ALL.iter().enumerate() {
            let mut s = base(Kind::Cellular, dims);
            s.kind_fields.cellular.distance = *distance;
            s.kind_fields.cellular.jitter = [1.0, 0.0, 0.5, 0.9][n];
            s.fractal = Fractal::Fbm;
            s.octaves = 2;
            cases.push((format!("cellular-{dims}d-{distance:?}"), s));
        }
        for cell_return in CellReturn::ALL {
            let mut s = base(Kind::Cellular, dims);
            s.kind_fields.cellular.cell_return = *cell_return;
            s.seed = 3;
            cases.push((format!("cellular-{dims}d-{cell_return:?}"), s));
        }
        for fractal in [Fractal::None, Fractal::Ridged] {
            let mut s = base(Kind::SparseConvolution, dims);
            s.fractal = fractal;
            s.octaves = if fractal == Fractal::None { 1 } else { 3 };
            s.kind_fields.impulse.density = 5.0;
            cases.push((format!("sparse-{dims}d-{fractal:?}"), s));
        }
    }
    for (orientation, bandwidth, fractal) in [
        (Some(30.0), 1.0, Fractal::None),
        (None, 0.6, Fractal::Fbm),
        (Some(-100.0), 2.5, Fractal::Turbulence),
    ] {
        let mut s = base(Kind::Gabor, 2);
        s.kind_fields.impulse.gabor_orientation = orientation;
        s.kind_fields.impulse.gabor_bandwidth = bandwidth;
        s.fractal = fractal;
        s.octaves = if fractal == Fractal::None { 1 } else { 2 };
        cases.push((format!("gabor-{orientation:?}-{bandwidth}"), s));
    }
    for kind in [Kind::Cellular, Kind::SparseConvolution] {
        let mut s = spec(kind, 2, 32, 16);
        s.tile = true;
        s.frequency = 0.125;
        s.offset = [-40.0, 7.0, 0.0, 0.0];
        s.fractal = Fractal::Fbm;
        s.octaves = 3;
        cases.push((format!("{kind:?}-tiled"), s));
    }
    let newer = [
        Kind::Simplex,
        Kind::Cellular,
        Kind::SparseConvolution,
        Kind::Gabor,
    ];
    assert_covers(&cases, "kind", &newer, |s| s.kind);
    assert_covers(&cases, "fractal", &FRACTALS, |s| s.fractal);
    assert_covers(&cases, "distance", Distance::ALL, |s| {
        s.kind_fields.cellular.distance
    });
    assert_covers(&cases, "return", CellReturn::ALL, |s| {
        s.kind_fields.cellular.cell_return
    });
    assert_covers(
        &cases,
        "(kind, dims)",
        &[(Kind::Simplex, 4), (Kind::Cellular, 3)],
        |s| (s.kind, s.dims),
    );
    assert_covers(&cases, "tiling", &[true, false], |s| s.tile);
    cases
}

/// Volumes, tiling (a negative offset included) and points that are not exact in f32.
fn volume_tiling_and_inexact_cases() -> Vec<(String, NoiseSpec)> {
    let mut cases = Vec::new();
    // 3D and 4D volumes (x fastest, then y, then z).
    for (kind, dims) in [(Kind::Perlin, 3), (Kind::Value, 4), (Kind::Gradient, 3)] {
        let mut s = spec(kind, dims, 9, 7);
        s.size = Size::new(9, 7, 5);
        s.frequency = 0.25;
        cases.push((format!("{kind:?}-{dims}d-volume"), s));
    }
    // Tiling, including a negative offset (Euclidean wrap).
    for kind in [Kind::Perlin, Kind::Gradient, Kind::Value] {
        let mut s = spec(kind, 2, 32, 16);
        s.tile = true;
        s.frequency = 0.125;
        s.offset = [-40.0, 7.0, 0.0, 0.0];
        s.fractal = Fractal::Fbm;
        s.octaves = 4;
        s.seed = 5;
        cases.push((format!("{kind:?}-tiled"), s));
    }
    // High frequencies: a row of 16 texels spans many cells (the SIMD backend's per-lane path,
    // where low frequencies take its one-or-two-cells-per-block path).
    for (kind, dims) in [
        (Kind::Perlin, 1),
        (Kind::Perlin, 2),
        (Kind::Perlin, 3),
        (Kind::Value, 2),
        (Kind::Value, 3),
        (Kind::Gradient, 2),
    ] {
        let mut s = spec(kind, dims, 40, 3);
        s.frequency = 0.7;
        s.offset = [-3.3, 1.1, 2.0, 0.0];
        cases.push((format!("{kind:?}-{dims}d-high-frequency"), s));
    }
    // Points that are not exact in f32: split exactly on the host, they keep the bound of
    // points near the origin.
    let mut s = spec(Kind::Perlin, 3, 24, 24);
    let near = gpu_error_bound(&s).value;
    s.frequency = 0.013;
    s.offset = [1000.3, -77.7, 5.5, 0.0];
    s.fractal = Fractal::Fbm;
    s.octaves = 6;
    s.lacunarity = 1.9;
    assert_eq!(gpu_error_bound(&s).value, near);
    cases.push(("perlin-inexact-points".into(), s));
    cases
}

/// Every kind on the two integer-hash lattices (CONVENTIONS §2), each hashing code path once
/// per lattice: the cell hash in 1D and 4D, the corner hashes of 2D and 3D cells, simplex's own
/// corner hashes, feature points, impulse states, Catmull-Rom's 4^dims cells; with a fractal,
/// tiling where the kind tiles, and high frequencies (a block of lanes over many cells). Paths
/// rather than every kind x dims: each case is a pipeline that compiles cold in CI.
fn hashed_lattice_cases() -> Vec<(String, NoiseSpec)> {
    let paths = [
        (Kind::Perlin, 1, Interp::Quintic),
        (Kind::Perlin, 2, Interp::Quintic),
        (Kind::Perlin, 3, Interp::Quintic),
        (Kind::Perlin, 4, Interp::Quintic),
        (Kind::Gradient, 3, Interp::Cubic),
        (Kind::Value, 2, Interp::Quintic),
        (Kind::Value, 3, Interp::CatmullRom),
        (Kind::Simplex, 2, Interp::Quintic),
        (Kind::Simplex, 3, Interp::Quintic),
        (Kind::Simplex, 4, Interp::Quintic),
        (Kind::Cellular, 3, Interp::Quintic),
        (Kind::SparseConvolution, 2, Interp::Quintic),
        (Kind::Gabor, 2, Interp::Quintic),
    ];
    let mut cases = Vec::new();
    for lattice in [LatticeKind::Hash, LatticeKind::Prime] {
        for (n, (kind, dims, interp)) in paths.into_iter().enumerate() {
            let mut s = spec(kind, dims, 16, if dims == 1 { 1 } else { 12 });
            s.lattice = lattice;
            s.interp = interp;
            // Every third case at a high frequency, untiled.
            s.tile = kind.tiles() && n % 3 != 0;
            s.frequency = if n % 3 == 0 { 0.7 } else { 0.25 };
            s.fractal = Fractal::Fbm;
            s.octaves = 2;
            s.seed = n as u64;
            s.offset = [-8.0, 4.0, 0.0, 0.0];
            cases.push((format!("{kind:?}-{dims}d-{interp:?}-{lattice:?}"), s));
        }
    }
    cases
}

/// Checks every case on `backend`, reporting the worst error.
fn check_all(backend: &mut Backend, cases: &[(String, NoiseSpec)]) {
    let mut worst = (0.0, String::new());
    for (name, s) in cases {
        let err = check(backend, s, name);
        if err > worst.0 {
            worst = (err, name.clone());
        }
    }
    eprintln!(
        "{} cases on {}; worst max_abs_err {:e} ({})",
        cases.len(),
        backend.name(),
        worst.0,
        worst.1
    );
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn every_kind_dims_fractal_and_interpolation_matches_the_reference() {
    check_all(&mut Backend::Gpu(&mut renderer()), &lattice_kind_cases());
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn every_newer_kind_matches_the_reference_on_every_code_path() {
    check_all(&mut Backend::Gpu(&mut renderer()), &newer_kind_cases());
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn every_kind_on_the_hash_lattices_matches_the_reference() {
    check_all(&mut Backend::Gpu(&mut renderer()), &hashed_lattice_cases());
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn volumes_tiling_and_inexact_points_match_the_reference() {
    check_all(
        &mut Backend::Gpu(&mut renderer()),
        &volume_tiling_and_inexact_cases(),
    );
}

/// The SIMD backend is held to the GPU's bound on the GPU's cases, on every instruction set
/// this CPU has (the CI machines have AVX-512, so all three run there).
#[test]
fn the_simd_backend_matches_the_reference_on_every_gpu_case() {
    let mut cases = lattice_kind_cases();
    cases.extend(newer_kind_cases());
    cases.extend(volume_tiling_and_inexact_cases());
    cases.extend(hashed_lattice_cases());
    let available: Vec<_> = InstructionSet::ALL
        .into_iter()
        .filter(|i| i.available())
        .collect();
    assert!(available.contains(&InstructionSet::Baseline));
    for isa in available {
        check_all(&mut Backend::Simd(isa), &cases);
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn chunked_rendering_gives_the_same_bytes_as_one_dispatch() {
    let mut r = renderer();
    let options = RendererOptions {
        max_chunk_texels: Some(100),
        ..Default::default()
    };
    let choice = AdapterChoice::from_env().expect("adapter choice");
    let mut small = pollster::block_on(Renderer::open(&choice, options)).expect("second renderer");
    assert_eq!(small.chunk_texels(), 100);
    let mut s = spec(Kind::Perlin, 3, 37, 23);
    s.size = Size::new(37, 23, 3);
    s.fractal = Fractal::Ridged;
    s.octaves = 2;
    let prep = s.validate().unwrap();
    let whole = r.read(&prep, Window::full(prep.size())).unwrap();
    let window = Window::full(s.size);
    let mut bands = Vec::new();
    let mut pieces = Vec::new();
    small
        .for_each_band(&prep, window, u64::MAX, &mut |band, values| {
            assert_eq!(values.len() as u64, band.texels());
            bands.push(band);
            pieces.extend(values);
            Ok(())
        })
        .unwrap();
    // 100 texels hold 2 rows of 37: 12 bands per slice (11 of 2 rows, 1 of 1), 3 slices.
    assert_eq!(bands.len(), 36);
    assert_eq!(whole, pieces);
}

/// `read_into` fills the caller's slice with what `read` returns, bit for bit, band after band
/// (a renderer of 400-value chunks reads this window in 4 bands, and its gradients in 14),
/// gradients too; a slice of the wrong length is an error naming `out`, and nothing is written.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn read_into_fills_the_callers_slice_with_what_read_returns() {
    let options = RendererOptions {
        max_chunk_texels: Some(400),
        ..Default::default()
    };
    let choice = AdapterChoice::from_env().expect("adapter choice");
    let mut small = pollster::block_on(Renderer::open(&choice, options)).expect("renderer");
    let mut s = spec(Kind::Simplex, 3, 37, 23);
    s.size = Size::new(37, 23, 3);
    s.octaves = 2;
    s.fractal = Fractal::Fbm;
    let values = s.validate().unwrap();
    let gradients = values.with_gradient().unwrap();
    for (job, per_texel) in [(&values, 1), (&gradients, 4)] {
        let window = Window::new([3, 2, 1], Size::new(30, 19, 2));
        let read = small.read(job, window).unwrap();
        let mut out = vec![f32::NAN; (window.texels() * per_texel) as usize];
        small.read_into(job, window, &mut out).unwrap();
        assert_eq!(read.len(), out.len());
        for (n, (a, b)) in read.iter().zip(&out).enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "value {n} of {per_texel} a texel");
        }
        let mut short = vec![7.0f32; out.len() - 1];
        let err = small.read_into(job, window, &mut short).unwrap_err();
        assert!(err.to_string().contains("out"), "{err}");
        assert!(short.iter().all(|&v| v == 7.0));
    }
}

/// Specs whose row step carries in every word: a frequency with no short binary expansion, an
/// offset far out, several octaves, simplex's skew (2D and 3D), a volume and the hash lattice.
fn row_step_cases() -> Vec<(&'static str, NoiseSpec)> {
    let mut cases = Vec::new();
    for (name, kind, dims, lattice) in [
        ("simplex-2d", Kind::Simplex, 2, LatticeKind::Table),
        ("simplex-3d-prime", Kind::Simplex, 3, LatticeKind::Prime),
        ("perlin-3d-hash", Kind::Perlin, 3, LatticeKind::Hash),
        ("value-2d", Kind::Value, 2, LatticeKind::Table),
        ("cellular-2d-prime", Kind::Cellular, 2, LatticeKind::Prime),
    ] {
        let mut s = spec(kind, dims, 19, 13);
        s.lattice = lattice;
        s.frequency = 0.013_7;
        s.octaves = 3;
        s.fractal = Fractal::Fbm;
        s.offset = [-7.3e10 + 0.1, 4.1e11 + 0.7, 9.9e10 + 0.3, 0.0];
        if dims == 3 {
            s.size = Size::new(19, 13, 3);
        }
        cases.push((name, s));
    }
    cases
}

/// The value kernels compute two rows an invocation, the second from the first's exact
/// coordinate plus one row step (shaders/noise/fractal.wgsl `fractal_noise_texel_pair`). The
/// window one row down swaps which texel of each pair every row is, so a row step off by one
/// carry anywhere shows as a texel whose two renders differ; odd heights leave a last row alone.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn a_pairs_second_row_is_bit_for_bit_the_texel_it_is_alone() {
    let mut r = renderer();
    for (name, s) in row_step_cases() {
        let prep = s.validate().unwrap();
        assert_rows_agree_one_row_down(&mut r, &prep, name);
        // And the rows are the noise: within the bound of the twin.
        check(&mut Backend::Gpu(&mut r), &s, name);
    }
}

/// Tables bound as uniform buffers (the default on a CPU adapter, `wgsl::tables`) give the
/// bits of tables in storage: every kind that reads a table (permutation windows, gradients,
/// values), 16 octaves (every uniform slot, each its own seed), a graph of several seeds, and a
/// graph of more seeds than uniform slots, which binds storage instead. Both renderers must
/// bind what they were asked to, or the comparison would say nothing.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn tables_in_uniform_buffers_give_the_bits_of_tables_in_storage() {
    use gpu_noise::gpu::TableSpace;
    let open = |tables| {
        let options = RendererOptions {
            tables: Some(tables),
            ..Default::default()
        };
        let choice = AdapterChoice::from_env().expect("adapter choice");
        pollster::block_on(Renderer::open(&choice, options)).expect("renderer")
    };
    let [mut storage, mut uniform] = [TableSpace::Storage, TableSpace::Uniform].map(open);
    assert_eq!(storage.table_space(), TableSpace::Storage);
    assert_eq!(
        uniform.table_space(),
        TableSpace::Uniform,
        "this adapter's uniform limits"
    );
    let mut jobs = Vec::new();
    for (kind, dims, octaves) in [
        (Kind::Perlin, 2, 16),
        (Kind::Gradient, 3, 2),
        (Kind::Value, 2, 3),
        (Kind::Simplex, 3, 2),
        (Kind::Cellular, 2, 1),
    ] {
        let mut s = spec(kind, dims, 33, 17);
        s.seed = 91;
        s.frequency = 0.0731;
        s.offset = [2.5e4 + 0.25, -1.75e3, 12.5, 0.0];
        if octaves > 1 {
            s.fractal = Fractal::Fbm;
            s.octaves = octaves;
        }
        jobs.push((format!("{kind:?} {dims}D"), s.validate().unwrap()));
    }
    for (name, path) in [("terrain", "terrain.json"), ("marble", "marble.json")] {
        let text = std::fs::read_to_string(format!("examples/graphs/{path}")).unwrap();
        let graph = gpu_noise::Graph::from_json(&text).unwrap();
        jobs.push((
            name.into(),
            graph.prepare(Size::new(29, 19, 1), [0.0; 4]).unwrap(),
        ));
    }
    let mut g = gpu_noise::graph::GraphBuilder::new(2);
    g.node("a", "perlin").set("frequency", 0.05);
    g.node("b", "perlin")
        .set("frequency", 0.09)
        .set("seed", 40u64);
    g.node("fa", "fbm")
        .input("source", "a")
        .set("octaves", 10u32);
    g.node("fb", "fbm")
        .input("source", "b")
        .set("octaves", 10u32);
    g.node("sum", "add").inputs("inputs", &["fa", "fb"]);
    g.output("sum");
    let many = g
        .build()
        .unwrap()
        .prepare(Size::new(21, 11, 1), [0.0; 4])
        .unwrap();
    jobs.push(("20 seeds".into(), many));
    for (name, job) in &jobs {
        let window = Window::full(job.size());
        let a = storage.read(job, window).unwrap();
        let b = uniform.read(job, window).unwrap();
        for (n, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x.to_bits(), y.to_bits(), "{name}: texel {n}: {x} vs {y}");
        }
        assert!(
            a.iter().any(|v| *v != a[0]),
            "{name}: a constant image says nothing"
        );
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn sampled_points_match_the_reference_and_ken_perlins_value() {
    let mut r = renderer();
    let mut s = NoiseSpec::new(Kind::Perlin, 3);
    let prep = s.validate().unwrap();
    let v = r.sample(&prep, &[[3.14, 42.0, 7.0, 0.0]]).unwrap();
    // 3.14 is not exact in f32: rounding moves the point by < 1e-7, the value by < 1e-6.
    assert!(
        (f64::from(v[0]) - 0.136_919_958_784_000_12).abs() < 1e-6,
        "{}",
        v[0]
    );
    s.fractal = Fractal::Billow;
    s.octaves = 4;
    s.seed = 77;
    let prep = s.validate().unwrap();
    let points: Vec<[f64; 4]> = (0..500)
        .map(|n| {
            [
                n as f64 / 64.0 - 3.0,
                n as f64 / 16.0,
                -(n as f64) / 32.0,
                0.0,
            ]
        })
        .collect();
    let gpu = r.sample(&prep, &points).unwrap();
    let reference = cpu::sample(&prep, &points);
    let cmp = compare(&gpu, &reference);
    assert!(cmp.max_abs_err <= 2e-5, "{cmp:?}");
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn images_wider_than_one_dispatch_reaches_render_in_several_and_still_match() {
    let mut r = renderer();
    // Texel kernels run 8 x 8 workgroups, at most max_compute_workgroups_per_dimension of them
    // along x (65535 on lavapipe and llvmpipe: 524280 texels): a wider image takes a second
    // dispatch whose texels start at `base`.
    let max = r.device().limits().max_compute_workgroups_per_dimension;
    let width = max * gpu_noise::low_level::wgsl::TILE_SIZE + 40;
    let s = spec(Kind::Perlin, 2, width, 2);
    let err = check(&mut Backend::Gpu(&mut r), &s, "perlin-2d-two-dispatches");
    eprintln!("{}x{}: max_abs_err {err:e}", s.size.width, s.size.height);
}
