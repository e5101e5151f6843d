//! Analytic derivatives (CONVENTIONS §12) against central finite differences of the f64 twin,
//! for every kind, dims, interpolation and fractal sum that has them; the GPU against the twin.

use gpu_noise::Window;
use gpu_noise::{Error, Fractal, Kind, NoiseSpec, Size, cpu, spec::Interp, spec::LatticeKind};

const FRACTALS: [Fractal; 5] = [
    Fractal::None,
    Fractal::Fbm,
    Fractal::Turbulence,
    Fractal::Ridged,
    Fractal::Billow,
];

/// Every kind and dims with derivatives, interpolations in turn, fractals in turn.
pub fn derivative_cases() -> Vec<NoiseSpec> {
    let interps = [
        Interp::Linear,
        Interp::Cosine,
        Interp::Cubic,
        Interp::Quintic,
        Interp::CatmullRom,
    ];
    let mut cases = Vec::new();
    for kind in [Kind::Perlin, Kind::Gradient, Kind::Value, Kind::Simplex] {
        for dims in kind.min_dims()..=kind.max_dims() {
            let n = cases.len();
            let mut s = NoiseSpec::new(kind, dims);
            s.size = Size::new(12, if dims == 1 { 1 } else { 6 }, 1);
            s.frequency = 0.173;
            s.fractal = FRACTALS[n % FRACTALS.len()];
            s.octaves = if s.fractal == Fractal::None { 1 } else { 3 };
            s.lacunarity = 1.87;
            s.seed = n as u64;
            s.lattice = [LatticeKind::Table, LatticeKind::Hash, LatticeKind::Prime][n % 3];
            if kind == Kind::Value {
                s.interp = interps[dims as usize % interps.len()];
            } else if kind == Kind::Gradient {
                s.interp = interps[(dims as usize + 2) % 4];
            }
            s.offset = [1e9 + 0.375, -2.625, 5.1875, 0.8125];
            cases.push(s);
        }
    }
    // Catmull-Rom in 1D and 2D too, and every fractal on 3D perlin.
    for dims in [1, 2] {
        let mut s = NoiseSpec::new(Kind::Value, dims);
        s.size = Size::new(12, if dims == 1 { 1 } else { 6 }, 1);
        s.interp = Interp::CatmullRom;
        s.frequency = 0.21;
        cases.push(s);
    }
    for fractal in FRACTALS {
        let mut s = NoiseSpec::new(Kind::Perlin, 3);
        s.size = Size::new(10, 6, 1);
        s.frequency = 0.11;
        s.fractal = fractal;
        s.octaves = if fractal == Fractal::None { 1 } else { 4 };
        s.offset = [0.3125, 0.765625, 1.25, 0.0];
        cases.push(s);
    }
    cases
}

/// `d/dt_a` by the fourth-order central difference of the twin, the texel moved by +-h and
/// +-2h along axis a through the offset (h and the offsets are binary fractions, so the moves
/// are exact in f64 and in the fixed point of CONVENTIONS §1).
fn central_difference(s: &NoiseSpec, i: u32, j: u32, axis: usize, h: f64) -> f64 {
    let at = |delta: f64| {
        let mut moved = s.clone();
        moved.offset[axis] += delta;
        cpu::noise_at_texel(&moved.validate().unwrap(), [i, j, 0])
    };
    (-at(2.0 * h) + 8.0 * at(h) - 8.0 * at(-h) + at(-2.0 * h)) / (12.0 * h)
}

#[test]
fn analytic_derivatives_match_central_differences_of_the_twin() {
    let h = 1.0 / 1024.0;
    let (mut checked, mut skipped) = (0, 0);
    for s in derivative_cases() {
        let prep = s.validate().unwrap();
        let dims = (s.dims as usize).min(2); // the image's axes
        for j in 0..s.size.height {
            for i in 0..s.size.width {
                let d = cpu::noise_gradient_at_texel(&prep, [i, j, 0]).unwrap();
                let value = cpu::noise_at_texel(&prep, [i, j, 0]);
                assert!(
                    (d[0] - value).abs() < 1e-12,
                    "{:?} {}d value",
                    s.kind,
                    s.dims
                );
                for axis in 0..dims {
                    let fd = central_difference(&s, i, j, axis, h);
                    // Where the twin itself is not smooth within the stencil (a kink of |N|
                    // under turbulence, ridged or billow; a face of 3D/4D simplex, §8), two
                    // step sizes disagree and no derivative is defined: skip, and count.
                    let fine = central_difference(&s, i, j, axis, h / 8.0);
                    if (fd - fine).abs() > 1e-6 * (1.0 + fd.abs()) {
                        skipped += 1;
                        continue;
                    }
                    let tolerance = 1e-6 + 1e-5 * fd.abs();
                    assert!(
                        (d[1 + axis] - fd).abs() <= tolerance,
                        "{:?} {}d {:?} {:?} texel ({i}, {j}) axis {axis}: analytic {} vs {fd}",
                        s.kind,
                        s.dims,
                        s.interp,
                        s.fractal,
                        d[1 + axis]
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 1500 && skipped * 20 < checked,
        "{checked} checked, {skipped} skipped"
    );
}

/// A volume's z derivative too (the slice axis of 3D noise).
#[test]
fn the_slice_axis_has_its_derivative_in_volumes() {
    let mut s = NoiseSpec::new(Kind::Simplex, 3);
    s.size = Size::new(4, 4, 4);
    s.frequency = 0.3;
    let prep = s.validate().unwrap();
    let d = cpu::noise_gradient_at_texel(&prep, [1, 2, 3]).unwrap();
    let at = |dz: f64| {
        let mut m = s.clone();
        m.offset[2] += dz;
        cpu::noise_at_texel(&m.validate().unwrap(), [1, 2, 3])
    };
    let h = 1.0 / 1024.0;
    let fd = (-at(2.0 * h) + 8.0 * at(h) - 8.0 * at(-h) + at(-2.0 * h)) / (12.0 * h);
    assert!((d[3] - fd).abs() < 1e-6, "{} vs {fd}", d[3]);
}

#[test]
fn kinds_without_derivatives_are_errors_naming_the_field() {
    for (kind, interp, field) in [
        (Kind::Cellular, Interp::Quintic, "kind"),
        (Kind::Gabor, Interp::Quintic, "kind"),
        (Kind::Value, Interp::Nearest, "interp"),
    ] {
        let mut s = NoiseSpec::new(kind, 2);
        s.interp = interp;
        s.size = Size::new(4, 4, 1);
        match cpu::render_gradient_f64(&s.validate().unwrap()) {
            Err(Error::InvalidSpec { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{kind:?}: {other:?}"),
        }
    }
}

/// The GPU's partial derivatives against the twin's for every case above, far out included:
/// within `2e-5 x (1 + sum of the octaves' lattice cells per texel)` (the value's bound,
/// scaled by how much each octave's lattice gradient is stretched per texel).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn gpu_derivatives_match_the_twin() {
    let mut r = crate::support::renderer();
    let mut worst = 0.0f64;
    // One case per code path, since each pipeline compiles cold in CI: the corner loop in 1D
    // and 4D, the constant-index cells in 2D and 3D (Perlin's and the seed's gradients, value),
    // both value paths, every simplex, and all five fractals.
    let wanted = |s: &NoiseSpec| match (s.kind, s.dims) {
        (Kind::Perlin, 3) => s.fractal == Fractal::Billow,
        (Kind::Perlin, 1 | 2 | 4) | (Kind::Gradient, 3) | (Kind::Value, 2 | 3) => true,
        (Kind::Simplex, _) => true,
        _ => false,
    };
    for s in derivative_cases().into_iter().filter(wanted) {
        let prep = s.validate().unwrap();
        let gradient = prep.with_gradient().unwrap();
        let gpu: Vec<[f32; 4]> = (r.read(&gradient, Window::full(s.size)).unwrap())
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect();
        let cpu = cpu::render_gradient_f64(&prep).unwrap();
        let scales = (0..s.octaves).map(|k| s.lacunarity.powi(k as i32));
        let stretch: f64 = scales.map(|scale| s.frequency * scale).sum();
        let bound =
            gpu_noise::low_level::tolerance::gpu_error_bound(&s).value * (1.0 + 8.0 * stretch);
        for (n, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
            for a in 0..4 {
                let err = (f64::from(g[a]) - c[a]).abs();
                worst = worst.max(err);
                assert!(
                    err <= bound,
                    "{:?} {}d {:?} texel {n} channel {a}: gpu {} cpu {} (bound {bound:e})",
                    s.kind,
                    s.dims,
                    s.fractal,
                    g[a],
                    c[a]
                );
            }
        }
    }
    println!("worst GPU-vs-CPU derivative error: {worst:e}");
}

/// The SIMD backend's partial derivatives against the twin's for every case above, on every
/// instruction set this CPU has, within the GPU's bound: the lanes compute the GPU's f32.
#[test]
fn simd_derivatives_match_the_twin() {
    use gpu_noise::simd::{self, InstructionSet};
    let mut worst = 0.0f64;
    for s in derivative_cases() {
        let prep = s.validate().unwrap();
        let gradient = prep.with_gradient().unwrap();
        let cpu = cpu::render_gradient_f64(&prep).unwrap();
        let scales = (0..s.octaves).map(|k| s.lacunarity.powi(k as i32));
        let stretch: f64 = scales.map(|scale| s.frequency * scale).sum();
        let bound =
            gpu_noise::low_level::tolerance::gpu_error_bound(&s).value * (1.0 + 8.0 * stretch);
        for isa in InstructionSet::ALL.into_iter().filter(|i| i.available()) {
            let lanes = simd::render_window_on(isa, &gradient, Window::full(s.size)).unwrap();
            assert_eq!(lanes.len(), cpu.len() * 4);
            for (n, (g, c)) in lanes.chunks_exact(4).zip(&cpu).enumerate() {
                // Axes beyond the kind's dims move nothing (a 2D kind's corner gradients may
                // have a third component).
                for a in 1 + s.dims as usize..4 {
                    assert_eq!([g[a], c[a] as f32], [0.0; 2], "{:?} {}d", s.kind, s.dims);
                }
                for a in 0..4 {
                    let err = (f64::from(g[a]) - c[a]).abs();
                    worst = worst.max(err / bound);
                    assert!(
                        err <= bound,
                        "{:?} {}d {:?} {:?} on {}: texel {n} channel {a}: simd {} cpu {} \
                         (bound {bound:e})",
                        s.kind,
                        s.dims,
                        s.interp,
                        s.fractal,
                        isa.name(),
                        g[a],
                        c[a]
                    );
                }
            }
        }
    }
    println!("worst SIMD-vs-CPU derivative error: {worst:.3} of the bound");
}

/// `render --channels gradient` writes (H, W, 1 + axes) .npy, the same on GPU and CPU within
/// the bound; `--channels normal` writes the same RGB normal map on GPU and CPU (levels within
/// one step), whose normals are unit vectors facing up.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn the_cli_writes_gradient_arrays_and_normal_maps_alike_on_both_backends() {
    use crate::cli::{out, run, text, tmp};
    let d = tmp();
    let noise = [
        "--kind",
        "simplex",
        "--fractal",
        "fbm",
        "--octaves",
        "4",
        "--size",
        "40x24",
    ];
    let mut arrays = Vec::new();
    for backend in ["gpu", "cpu"] {
        let (path, s) = out(d.path(), &format!("g-{backend}.npy"));
        let mut args = vec![
            "render",
            "--channels",
            "gradient",
            "--backend",
            backend,
            "-o",
            &s,
        ];
        args.extend(noise);
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let bytes = std::fs::read(&path).unwrap();
        let header = String::from_utf8_lossy(&bytes[..128]).into_owned();
        assert!(header.contains("'shape': (24, 40, 3)"), "{header}");
        let body: Vec<f32> = bytes[128..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(body.len(), 24 * 40 * 3);
        arrays.push(body);
    }
    let worst = arrays[0]
        .iter()
        .zip(&arrays[1])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 1e-4, "{worst}");
    let mut maps = Vec::new();
    for backend in ["gpu", "cpu"] {
        let (path, s) = out(d.path(), &format!("n-{backend}.png"));
        let mut args = vec![
            "render",
            "--channels",
            "normal",
            "--backend",
            backend,
            "-o",
            &s,
        ];
        args.extend(noise);
        let o = run(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        maps.push(image::open(&path).unwrap().to_rgb8());
    }
    for (a, b) in maps[0].pixels().zip(maps[1].pixels()) {
        for c in 0..3 {
            assert!(a[c].abs_diff(b[c]) <= 1, "{a:?} vs {b:?}");
        }
        let n = a.0.map(|v| f32::from(v) / 255.0 * 2.0 - 1.0);
        let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        assert!((length - 1.0).abs() < 0.02 && n[2] > 0.0, "{n:?}");
    }
}
