//! Analytic derivatives (CONVENTIONS §12): each octave's value with its gradient along the
//! lattice axes, for perlin, gradient, value (every interpolation but `nearest`) and simplex,
//! chained through the fractal sums into partial derivatives per texel; mirrors
//! `shaders/noise/derivative.wgsl`. The value is the same noise as `noise_octave`'s (summed in
//! another order, so equal to rounding).

use super::common::{CellFrame, Lattice, LatticePoint, cell_frame, lattice_gradient};
use super::common::{lattice_cell, lattice_hash, lattice_value};
use super::perlin::{PERLIN1_SCALE, PERLIN2_SCALE, grad1};
use super::simplex::{SimplexCorners, simplex2_corners, simplex3_corners, simplex4_corners};
use super::value::catmull_rom;
use crate::spec::{Fractal, Interp, Kind};
use crate::tables::{PERLIN2_GRADIENTS, PERLIN3_GRADIENTS, PERLIN4_GRADIENTS};

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

/// Perlin's gradient vector for a corner hash (the vectors `perlin1`..`perlin4` dot).
#[inline(always)]
pub fn perlin_gradient_vector(h: usize, dims: usize) -> [f64; 4] {
    match dims {
        1 => [grad1(h, 1.0), 0.0, 0.0, 0.0],
        2 => {
            let g = PERLIN2_GRADIENTS[h & 15];
            [g[0], g[1], 0.0, 0.0]
        }
        3 => {
            let g = PERLIN3_GRADIENTS[h & 15];
            [g[0], g[1], g[2], 0.0]
        }
        _ => PERLIN4_GRADIENTS[h & 31],
    }
}

/// Perlin (`perlin = true`) or classic gradient noise with its gradient: corners `g . (f - b)`,
/// whose gradients are g.
pub fn gradient_kinds_d(lat: &Lattice, pt: &LatticePoint, dims: usize, perlin: bool) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    let (cells, frac) = (frame.cells, frame.frac);
    let mut v = [0.0; 16];
    let mut g = [[0.0; 4]; 16];
    for n in 0..1usize << dims {
        let corner = [0, 1, 2, 3].map(|a| if a < dims { cells[a][(n >> a) & 1] } else { 0 });
        let h = lattice_hash(lat, corner, dims);
        let grad = if perlin {
            perlin_gradient_vector(h, dims)
        } else {
            lattice_gradient(lat, h).map(f64::from)
        };
        for a in 0..dims {
            v[n] += grad[a] * (frac[a] - ((n >> a) & 1) as f64);
        }
        g[n] = grad;
    }
    let (value, grad) = interp_corners_d(&mut v, &mut g, &frame, lat.interp, dims);
    let scale = match (perlin, dims) {
        (true, 1) => PERLIN1_SCALE,
        (true, 2) => PERLIN2_SCALE,
        _ => 1.0,
    };
    (scale * value, grad.map(|c| scale * c))
}

/// Value noise with its gradient (corner values are constants).
pub fn value_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    let cells = frame.cells;
    let mut v = [0.0; 16];
    let mut g = [[0.0; 4]; 16];
    for (n, slot) in v.iter_mut().enumerate().take(1 << dims) {
        let corner = [0, 1, 2, 3].map(|a| if a < dims { cells[a][(n >> a) & 1] } else { 0 });
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    interp_corners_d(&mut v, &mut g, &frame, lat.interp, dims)
}

/// The derivative in t of `catmull_rom`.
#[inline(always)]
pub fn catmull_rom_derivative(t: f64, vm1: f64, v0: f64, v1: f64, v2: f64) -> f64 {
    0.5 * ((-3.0 * t * t + 4.0 * t - 1.0) * vm1
        + (9.0 * t * t - 10.0 * t) * v0
        + (-9.0 * t * t + 8.0 * t + 1.0) * v1
        + (3.0 * t * t - 2.0 * t) * v2)
}

/// Value noise under Catmull-Rom with its gradient: the same separable reduction, four values
/// (and gradients) per axis.
pub fn value_catmull_rom_d(lat: &Lattice, pt: &LatticePoint, dims: usize) -> Dual {
    let (base, frac) = (pt.cell, pt.frac);
    let mut v = vec![0.0; 1 << (2 * dims)];
    let mut g = vec![[0.0; 4]; 1 << (2 * dims)];
    for (n, slot) in v.iter_mut().enumerate() {
        let mut corner = [0u32; 4];
        for a in 0..dims {
            let step = ((n >> (2 * a)) & 3) as i64 - 1;
            corner[a] = lattice_cell(base[a] + step, lat.period[a]);
        }
        *slot = lattice_value(lat, lattice_hash(lat, corner, dims));
    }
    let mut count = 1usize << (2 * dims);
    for a in 0..dims {
        let t = frac[a];
        count /= 4;
        for m in 0..count {
            let q = [v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]];
            let gq = [g[4 * m], g[4 * m + 1], g[4 * m + 2], g[4 * m + 3]];
            v[m] = catmull_rom(t, q[0], q[1], q[2], q[3]);
            g[m] = [0, 1, 2, 3].map(|c| catmull_rom(t, gq[0][c], gq[1][c], gq[2][c], gq[3][c]));
            g[m][a] += catmull_rom_derivative(t, q[0], q[1], q[2], q[3]);
        }
    }
    (v[0], g[0])
}

/// Simplex noise with its gradient along the unskewed axes: each corner adds
/// `t^4 g - 8 t^3 (g . d) d`, `t = r2 - |d|^2` (zero where t < 0).
pub fn simplex_d(c: &SimplexCorners) -> Dual {
    let (mut value, mut grad) = (0.0, [0.0; 4]);
    for m in 0..c.count {
        let (d, g) = (c.d[m], c.g[m]);
        let t = c.r2 - d.iter().map(|x| x * x).sum::<f64>();
        if t < 0.0 {
            continue;
        }
        let dot = g[0] * d[0] + g[1] * d[1] + g[2] * d[2] + g[3] * d[3];
        let (t2, t4) = (t * t, t * t * t * t);
        value += t4 * dot;
        for a in 0..4 {
            grad[a] += t4 * g[a] - 8.0 * t2 * t * dot * d[a];
        }
    }
    (c.scale * value, grad.map(|x| c.scale * x))
}

/// One octave's value and gradient (lattice units), or `None` for kinds without derivatives.
pub fn noise_octave_d(lat: &Lattice, kind: Kind, dims: usize, pt: &LatticePoint) -> Option<Dual> {
    Some(match kind {
        Kind::Perlin => gradient_kinds_d(lat, pt, dims, true),
        Kind::Gradient => gradient_kinds_d(lat, pt, dims, false),
        Kind::Value if lat.interp == Interp::CatmullRom => value_catmull_rom_d(lat, pt, dims),
        Kind::Value => value_d(lat, pt, dims),
        Kind::Simplex => simplex_d(&match dims {
            2 => simplex2_corners(lat, pt),
            3 => simplex3_corners(lat, pt),
            _ => simplex4_corners(lat, pt),
        }),
        _ => return None,
    })
}

/// `fractal_term` with its gradient: |N|' = sign(N) N' (sign(0) = +1).
#[inline(always)]
pub fn fractal_term_d(fractal: Fractal, (n, g): Dual) -> Dual {
    let s = if n < 0.0 { -1.0 } else { 1.0 };
    match fractal {
        Fractal::None | Fractal::Fbm => (n, g),
        Fractal::Turbulence => (n.abs(), g.map(|c| s * c)),
        Fractal::Ridged => {
            let r = 1.0 - n.abs();
            (r * r, g.map(|c| -2.0 * r * s * c))
        }
        Fractal::Billow => (2.0 * n.abs() - 1.0, g.map(|c| 2.0 * s * c)),
    }
}
