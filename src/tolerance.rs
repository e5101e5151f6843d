//! How far the GPU's f32 result may lie from the f64 reference, and why (REFERENCE §7).

use crate::spec::{Fractal, Interp, NoiseSpec};

/// REFERENCE §7: f32 arithmetic inside one octave stays within 2e-5 of the f64 reference when
/// the sample point reaches the GPU exactly (measured: about 1e-7 on lavapipe and llvmpipe).
pub const ARITHMETIC_BOUND: f64 = 2e-5;

/// A generous Lipschitz constant of one octave (|gradient| of any kind and smooth
/// interpolation here stays below it): how much a small error in the point moves the value.
pub const OCTAVE_LIPSCHITZ: f64 = 8.0;

/// The bound and the reasoning behind it, as `verify` prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub value: f64,
    pub reason: String,
}

/// True when every sample point is an exact f32: power-of-two frequency and lacunarity, and
/// whole offsets with every texel coordinate below 2^24. Then the GPU sees the same points.
pub fn points_exact_in_f32(spec: &NoiseSpec) -> bool {
    let pow2 = |v: f64| v > 0.0 && v.log2().fract() == 0.0;
    let extent = [spec.size.width, spec.size.height, spec.size.depth, 1];
    let offsets_whole = spec
        .offset
        .iter()
        .zip(extent)
        .all(|(o, e)| o.fract() == 0.0 && o.abs() + f64::from(e) < (1u64 << 24) as f64);
    pow2(spec.frequency) && (spec.octaves == 1 || pow2(spec.lacunarity)) && offsets_whole
}

/// The largest |GPU - CPU| a correct kernel can produce for `spec`.
///
/// `2e-5` for the arithmetic, plus, when the points are not exact f32 values, the error from
/// rounding them: `8 * 2^-22 * |p|` per octave at that octave's |p|, weighted like the sum.
pub fn gpu_error_bound(spec: &NoiseSpec) -> Bound {
    if points_exact_in_f32(spec) {
        return Bound {
            value: ARITHMETIC_BOUND,
            reason: "2e-5: f32 arithmetic within an octave (REFERENCE §7); every sample point is \
                     exact in f32"
                .into(),
        };
    }
    let p = spec.max_abs_coord();
    let (mut weighted, mut norm, mut amp, mut scale) = (0.0, 0.0, 1.0, 1.0);
    for _ in 0..spec.octaves {
        weighted += amp * p * scale;
        norm += amp;
        amp *= spec.persistence;
        scale *= spec.lacunarity;
    }
    let shaping = match spec.fractal {
        Fractal::Ridged => 4.0,
        Fractal::Billow => 2.0,
        _ => 1.0,
    };
    let rounding = OCTAVE_LIPSCHITZ * shaping * 2f64.powi(-22) * weighted / norm;
    let mut reason = format!(
        "2e-5 for f32 arithmetic + {rounding:.2e} for rounding sample points to f32 (|p| up to \
         {p:.4e}; the frequency, lacunarity or offset is not a power of two / whole number)"
    );
    if spec.interp == Interp::Nearest {
        reason.push_str("; nearest steps are discontinuous, so a rounded point can flip a step");
    }
    Bound {
        value: ARITHMETIC_BOUND + rounding,
        reason,
    }
}

/// Texel-by-texel comparison of a GPU image with the f64 reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub max_abs_err: f64,
    pub rmse: f64,
    /// Linear index of the texel with the largest error.
    pub worst_index: usize,
    pub worst_gpu: f32,
    pub worst_cpu: f64,
}

pub fn compare(gpu: &[f32], cpu: &[f64]) -> Comparison {
    let mut cmp = Comparison {
        max_abs_err: 0.0,
        rmse: 0.0,
        worst_index: 0,
        worst_gpu: gpu.first().copied().unwrap_or(0.0),
        worst_cpu: cpu.first().copied().unwrap_or(0.0),
    };
    let mut sum_sq = 0.0;
    for (n, (&g, &c)) in gpu.iter().zip(cpu).enumerate() {
        let err = (f64::from(g) - c).abs();
        // NaN on either side must count as the worst error, never be skipped.
        let err = if err.is_nan() { f64::INFINITY } else { err };
        sum_sq += err * err;
        if err > cmp.max_abs_err {
            cmp = Comparison {
                max_abs_err: err,
                worst_index: n,
                worst_gpu: g,
                worst_cpu: c,
                ..cmp
            };
        }
    }
    cmp.rmse = (sum_sq / cpu.len().max(1) as f64).sqrt();
    if gpu.len() != cpu.len() {
        cmp.max_abs_err = f64::INFINITY;
    }
    cmp
}
