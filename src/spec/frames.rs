//! Octave frames (CONVENTIONS §1): where each texel lands on an octave's lattice, in exact
//! fixed point. Texel `t = (i, j, k)` of octave k's frame sits at lattice coordinate
//! `origin[a] + t.x step[0][a] + t.y step[1][a] + t.z step[2][a]`, summed exactly; the kinds
//! then receive that coordinate split into a whole cell and a fraction.

use super::{Kind, NoiseSpec};
use crate::fixed::{FRACTION_BITS, Fixed, STEP_FRACTION_BITS};

/// One octave's map from texels to lattice coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OctaveFrame {
    /// The lattice coordinate of texel (0, 0, 0) per axis; on tiled axes its cell is already
    /// wrapped into `[0, period)`.
    pub origin: [Fixed; 4],
    /// `step[b][a]`: how far lattice axis a moves per texel along image axis b (x, y, z), a
    /// multiple of 2^-32 cells.
    pub step: [[Fixed; 4]; 3],
}

/// The skew of a kind's lattice: simplex works on `l_a = q_a + F (q_0 + ... + q_{dims-1})`
/// (Gustavson's F of CONVENTIONS §8); every other kind on `l = q` (the kinds' table).
pub fn lattice_skew(kind: Kind, dims: u32) -> Option<f64> {
    kind.skew(dims)
}

/// How much the skew can stretch a coordinate: `1 + dims F` (1 without skew).
pub fn skew_stretch(kind: Kind, dims: u32) -> f64 {
    kind.skew_stretch(dims)
}

/// `l = q + F sum(q)` on the first `dims` axes, or `q` itself without skew.
pub fn skewed(q: [Fixed; 4], skew: Option<f64>, dims: usize) -> Option<[Fixed; 4]> {
    let Some(f) = skew else {
        return Some(q);
    };
    let mut sum = Fixed::ZERO;
    for v in &q[..dims] {
        sum = sum.checked_add(*v)?;
    }
    let shift = sum.mul_f64(f)?;
    let mut l = q;
    for v in &mut l[..dims] {
        *v = v.checked_add(shift)?;
    }
    Some(l)
}

/// Wraps each tiled axis's cell into `[0, period)`, keeping the fraction (CONVENTIONS §5).
pub fn wrap_cells(l: &mut [Fixed; 4], period: [i64; 4]) {
    for (v, p) in l.iter_mut().zip(period) {
        if p > 0 {
            v.0 = v.0.rem_euclid(i128::from(p) << FRACTION_BITS);
        }
    }
}

impl OctaveFrame {
    /// The frame of one octave: `frequency_k = frequency * scale` (an f64 product), origin
    /// `frequency_k x offset` and steps `frequency_k x (1 or the skew's entries)`, exact
    /// products rounded half up to 2^-64 (origin) and 2^-32 (steps). `None` past 2^62 cells.
    pub fn new(spec: &NoiseSpec, scale: f64, period: [i64; 4]) -> Option<OctaveFrame> {
        let frequency = spec.frequency * scale;
        let dims = spec.dims as usize;
        let skew = lattice_skew(spec.kind, spec.dims);
        // Axes past `dims` stay 0: the noise never reads them.
        let mut q = [Fixed::ZERO; 4];
        for (v, &o) in q.iter_mut().zip(&spec.offset).take(dims) {
            *v = Fixed::product(frequency, o, FRACTION_BITS)?;
        }
        let mut origin = skewed(q, skew, dims)?;
        wrap_cells(&mut origin, period);
        let mut step = [[Fixed::ZERO; 4]; 3];
        for (b, row) in step.iter_mut().enumerate() {
            for (a, s) in row.iter_mut().enumerate().take(dims) {
                let diagonal = if a == b { 1.0 } else { 0.0 };
                let factor = match skew {
                    Some(f) if a < dims && b < dims => diagonal + f,
                    _ => diagonal,
                };
                if factor != 0.0 {
                    *s = Fixed::product(frequency, factor, STEP_FRACTION_BITS)?;
                }
            }
        }
        Some(OctaveFrame { origin, step })
    }

    /// The frame's two distinct steps: every diagonal step `step[b][b]` (b below dims) is the
    /// first, every off-diagonal one between used axes the second (zero but for simplex's
    /// skew), since each is `frequency_k` times `1 + F` or `F` rounded alike. The GPU steps
    /// texels with them (CONVENTIONS §1).
    pub fn diagonal_steps(&self) -> (Fixed, Fixed) {
        (self.step[0][0], self.step[0][1])
    }

    /// The lattice coordinate of texel `t` (image axes x, y, z), exact.
    pub fn point(&self, t: [i64; 3]) -> Option<[Fixed; 4]> {
        let mut l = self.origin;
        for (b, &n) in t.iter().enumerate() {
            if n == 0 {
                continue;
            }
            for (v, s) in l.iter_mut().zip(&self.step[b]) {
                *v = v.checked_add(s.times(n)?)?;
            }
        }
        Some(l)
    }

    /// The same map with texel (0, 0, 0) moved to `t0` and texels spaced `2^lod` apart: the
    /// frame of a chunk or window whose first texel is `t0` at level of detail `lod`.
    pub fn moved(&self, t0: [i64; 3], lod: u32, period: [i64; 4]) -> Option<OctaveFrame> {
        let mut origin = self.point(t0)?;
        wrap_cells(&mut origin, period);
        let mut step = self.step;
        for row in &mut step {
            for s in row.iter_mut() {
                *s = s.shifted(lod)?;
            }
        }
        Some(OctaveFrame { origin, step })
    }
}

/// A caller-given point `p` (noise space) on octave `scale`'s lattice: `p x scale` exact,
/// rounded half up to 2^-64, then skewed and wrapped like texel points (axes past the spec's
/// dims are 0).
pub fn sample_point(
    spec: &NoiseSpec,
    p: [f64; 4],
    scale: f64,
    period: [i64; 4],
) -> Option<[Fixed; 4]> {
    let mut q = [Fixed::ZERO; 4];
    for (v, &c) in q.iter_mut().zip(&p).take(spec.dims as usize) {
        *v = Fixed::product(c, scale, FRACTION_BITS)?;
    }
    let mut l = skewed(q, lattice_skew(spec.kind, spec.dims), spec.dims as usize)?;
    wrap_cells(&mut l, period);
    Some(l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Kind;

    #[test]
    fn a_moved_frame_is_the_same_map_from_another_texel_and_spacing() {
        for kind in [Kind::Perlin, Kind::Simplex] {
            let mut spec = NoiseSpec::new(kind, 3);
            spec.frequency = 0.0371;
            spec.offset = [1e12 + 0.25, -3.5, 7.0, 0.0];
            let frame = OctaveFrame::new(&spec, 1.93, [0; 4]).unwrap();
            let (t0, lod) = ([-1_000_000_007i64, 5, 1 << 40], 3);
            let moved = frame.moved(t0, lod, [0; 4]).unwrap();
            for t in [[0i64, 0, 0], [1, 2, 3], [255, 17, 1]] {
                let far = [0, 1, 2].map(|b| t0[b] + (t[b] << lod));
                assert_eq!(moved.point(t), frame.point(far), "{kind:?} {t:?}");
            }
        }
    }

    #[test]
    fn the_skew_adds_f_times_the_sum_to_every_axis() {
        let q = [1.5, -2.25, 0.0, 9.0].map(|v| Fixed::from_f64(v).unwrap());
        let l = skewed(q, Some(0.5), 2).unwrap();
        // F (1.5 - 2.25) = -0.375 on x and y; z and w (past dims) unchanged.
        let expect = [1.125, -2.625, 0.0, 9.0].map(|v| Fixed::from_f64(v).unwrap());
        assert_eq!(l, expect);
    }
}
