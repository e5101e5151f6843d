//! Analytic derivatives (CONVENTIONS §12), the twin's shared part: a value with its gradient
//! along the lattice axes ([`Dual`]), the interpolation weights' derivatives, and the corner
//! kinds' separable reduction carried with gradients; mirrors `shaders/noise/derivative.wgsl`.
//! Each kind's `twin.rs` has its own derivative (`perlin_d`, `value_d`, ...).

use super::twin::{CellFrame, Lattice, LatticePoint, cell_frame, lattice_hash};
use crate::kinds::Interp;

/// A value and its gradient (lattice or texel units).
pub type Dual = (f64, [f64; 4]);

/// The derivative of `interp_weight` in t (CONVENTIONS §3).
#[inline(always)]
pub fn interp_weight_derivative(t: f64, interp: Interp) -> f64 {
    match interp {
        Interp::Nearest => 0.0,
        Interp::Linear => 1.0,
        Interp::Cosine => 0.5 * std::f64::consts::PI * (std::f64::consts::PI * t).sin(),
        Interp::Cubic => 6.0 * t * (1.0 - t),
        Interp::Quintic | Interp::CatmullRom => 30.0 * t * t * (t - 1.0) * (t - 1.0),
    }
}

/// `interp_corners` with gradients: each lerp along axis a (weight `frame.weight[a]`) also lerps
/// the corner gradients and adds `w'_a (upper - lower)` to component a (the product rule, axis
/// by axis).
#[inline(always)]
pub fn interp_corners_d(
    v: &mut [f64; 16],
    g: &mut [[f64; 4]; 16],
    frame: &CellFrame,
    interp: Interp,
    dims: usize,
) -> Dual {
    let mut n = 1usize << dims;
    for a in 0..dims {
        let w = frame.weight[a];
        let dw = interp_weight_derivative(frame.frac[a], interp);
        n /= 2;
        for m in 0..n {
            let (lo, hi) = (v[2 * m], v[2 * m + 1]);
            let (glo, ghi) = (g[2 * m], g[2 * m + 1]);
            v[m] = lo + w * (hi - lo);
            g[m] = [0, 1, 2, 3].map(|c| glo[c] + w * (ghi[c] - glo[c]));
            g[m][a] += dw * (hi - lo);
        }
    }
    (v[0], g[0])
}

/// A corner kind whose corner n contributes `g . (f - b_n)` with `g = gradient(hash)` (Perlin
/// and classic gradient noise), with its gradient: corners' values and gradients reduced by
/// [`interp_corners_d`], times `scale`.
pub fn gradient_corners_d(
    lat: &Lattice,
    pt: &LatticePoint,
    dims: usize,
    gradient: impl Fn(usize) -> [f64; 4],
    scale: f64,
) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    let (cells, frac) = (frame.cells, frame.frac);
    let mut v = [0.0; 16];
    let mut g = [[0.0; 4]; 16];
    for n in 0..1usize << dims {
        let corner = [0, 1, 2, 3].map(|a| if a < dims { cells[a][(n >> a) & 1] } else { 0 });
        let grad = gradient(lattice_hash(lat, corner, dims));
        for a in 0..dims {
            v[n] += grad[a] * (frac[a] - ((n >> a) & 1) as f64);
        }
        g[n] = grad;
    }
    let (value, grad) = interp_corners_d(&mut v, &mut g, &frame, lat.interp, dims);
    (scale * value, grad.map(|c| scale * c))
}
