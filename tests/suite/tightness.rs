//! Bounds that mean something (CONVENTIONS §7, §13): every stated GPU bound holds the GPU's
//! measured worst error and is at most 100 times it, for flat specs across the kinds and the
//! corner counts that set their arithmetic term, and for the example graphs, near the origin
//! and at 1e9.

use gpu_noise::{Fractal, Job, Kind, NoiseSpec, Size, Window, cpu, spec::Interp};

/// The GPU's worst |GPU - twin| over the job's image.
fn measured(job: &Job) -> f64 {
    let gpu = crate::support::renderer()
        .read(job, Window::full(job.size()))
        .unwrap();
    let twin = cpu::render_f64(job).unwrap();
    (gpu.iter().zip(&twin))
        .map(|(g, c)| (f64::from(*g) - c).abs())
        .fold(0.0, f64::max)
}

fn check(job: &Job, what: &str) {
    let bound = job.gpu_error_bound().value;
    let worst = measured(job);
    println!(
        "{what}: bound {bound:.2e}, measured {worst:.2e}, {:.0}x",
        bound / worst
    );
    assert!(
        worst <= bound,
        "{what}: measured {worst:e} over the bound {bound:e}"
    );
    assert!(
        bound <= 100.0 * worst,
        "{what}: the bound {bound:e} is {:.0} times the measured {worst:e}",
        bound / worst
    );
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn flat_bounds_are_within_100x_of_the_measured_error() {
    let cases = [
        (Kind::Perlin, 2, Fractal::Fbm, 6, Interp::Quintic),
        (Kind::Perlin, 1, Fractal::None, 1, Interp::Quintic),
        (Kind::Value, 2, Fractal::None, 1, Interp::Nearest),
        (Kind::Value, 3, Fractal::Billow, 3, Interp::CatmullRom),
        (Kind::Simplex, 3, Fractal::Ridged, 5, Interp::Quintic),
        (Kind::Cellular, 2, Fractal::None, 1, Interp::Quintic),
        (Kind::SparseConvolution, 2, Fractal::Fbm, 2, Interp::Quintic),
        (Kind::Gabor, 2, Fractal::None, 1, Interp::Quintic),
    ];
    for (kind, dims, fractal, octaves, interp) in cases {
        for offset in [0.0, 1e9] {
            let mut s = NoiseSpec::new(kind, dims);
            s.size = Size::new(128, if dims == 1 { 1 } else { 128 }, 1);
            s.fractal = fractal;
            s.octaves = octaves;
            s.interp = interp;
            s.offset = [offset, -offset, 0.0, 0.0];
            s.offset
                .iter_mut()
                .skip(dims as usize)
                .for_each(|o| *o = 0.0);
            let what = format!("{kind:?} {dims}D {fractal:?} {interp:?} at {offset:e}");
            check(&s.validate().unwrap(), &what);
        }
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn example_graph_bounds_are_within_100x_of_the_measured_error() {
    for name in ["terrain", "marble", "caves"] {
        let path = format!("{}/examples/graphs/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let graph = gpu_noise::Graph::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        // The worst of 65536 texels: a graph's worst texel is rarer than one noise's.
        let size = if graph.dims() == 3 {
            Size::new(64, 64, 16)
        } else {
            Size::new(256, 256, 1)
        };
        for offset in [0.0, 1e9] {
            let job = graph.prepare(size, [offset, -offset, 0.0, 0.0]).unwrap();
            check(&job, &format!("{name} at {offset:e}"));
        }
    }
}

/// Each kind's Lipschitz constant (CONVENTIONS §7) holds the L1 norm of its gradient in
/// lattice cells, the norm the bounds multiply per-axis errors by: fourth-order central
/// differences of the twin at 20,000 random points per kind and dims stay under it, and
/// reach at least a third of it (a constant far above every slope would hide nothing but
/// would make the bounds say little).
#[test]
fn lipschitz_constants_hold_the_sampled_gradients() {
    let cases = [
        (Kind::Perlin, 1..=4),
        (Kind::Gradient, 1..=3),
        (Kind::Value, 1..=4),
        (Kind::Simplex, 2..=4),
    ];
    let h = 1.0 / 4096.0;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 1000.0
    };
    for (kind, dims) in cases {
        for dims in dims {
            let mut s = NoiseSpec::new(kind, dims);
            s.frequency = 1.0;
            let lipschitz = gpu_noise::low_level::tolerance::octave_lipschitz(&s);
            let job = s.validate().unwrap();
            let mut steepest = 0.0f64;
            for _ in 0..20_000 {
                let p: [f64; 4] =
                    std::array::from_fn(|a| if a < dims as usize { next() } else { 0.0 });
                let stencil: Vec<[f64; 4]> = (0..dims as usize)
                    .flat_map(|a| {
                        [2.0, 1.0, -1.0, -2.0].map(|k| {
                            let mut q = p;
                            q[a] += k * h;
                            q
                        })
                    })
                    .collect();
                let v = cpu::sample(&job, &stencil);
                let l1: f64 = (v.chunks_exact(4))
                    .map(|f| ((-f[0] + 8.0 * f[1] - 8.0 * f[2] + f[3]) / (12.0 * h)).abs())
                    .sum();
                steepest = steepest.max(l1);
            }
            assert!(
                steepest <= lipschitz,
                "{kind:?} {dims}D: a slope of {steepest} over its constant {lipschitz}"
            );
            assert!(
                steepest >= lipschitz / 3.0,
                "{kind:?} {dims}D: its constant {lipschitz} is far above every slope ({steepest})"
            );
        }
    }
}
