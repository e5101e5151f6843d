//! The world (CONVENTIONS §1): one definition of the point each world texel samples, and the
//! frames that place an image, a window, a chunk or a tile of that world.
//!
//! A noise sees the root point `x` (texel units) through an affine map `q = shift + A x`
//! ([`PointMap`]: `A` is the noise's frequency times the domain transforms above it, `shift`
//! their translations, exact), skewed for simplex. World texel `t` (integer, per axis) of a
//! world whose offset has the fractional part `phi` lands at
//! `l(t) = K(shift + sum_b round_64(A_b phi_b)) + sum_b t_b K(round_64(A_b))`: each column of
//! `A` rounded once to 2^-64 (exact for entries of at least 2^-12), the skew `K` applied to
//! the origin and to each step, and the texel multiples added exactly. Every way of rendering
//! (images at any offset, windows, tiles, chunks at any level of detail, slices, texel-unit
//! samples) adds the same exact steps to the same origin, so they agree bit for bit.

use crate::fixed::{FRACTION_BITS, Fixed};

/// A 4x4 matrix, rows = output (lattice) axes, columns = root axes.
pub type Mat = [[f64; 4]; 4];

/// One noise's map from a root point (texel units) to its lattice, before the skew:
/// `shift + map x`, and simplex's skew on the first `dims` axes.
#[derive(Clone, Debug, PartialEq)]
pub struct PointMap {
    /// `A`: lattice cells per texel along each root axis (rows = lattice axes).
    pub map: Mat,
    /// The lattice point of the root origin, exact.
    pub shift: [Fixed; 4],
    /// Simplex's `F`, or `None`.
    pub skew: Option<f64>,
    /// Axes the noise reads.
    pub dims: usize,
}

/// One noise's map from image texels to lattice coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OctaveFrame {
    /// The lattice coordinate of image texel (0, 0, 0) per axis; on tiled axes its cell is
    /// already wrapped into `[0, period)`.
    pub origin: [Fixed; 4],
    /// `step[b][a]`: how far lattice axis a moves per texel along image axis b (x, y, z), exact
    /// to 2^-64 cells.
    pub step: [[Fixed; 4]; 3],
}

/// Where an image's texel (0, 0, 0) is in the world, and how far apart its texels are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The world texel of image texel (0, 0, 0), per axis (w: the slice's w).
    pub texel: [i128; 4],
    /// The world's fractional offset per axis, in [0, 1): a world at offset `n + phi`.
    pub fraction: [f64; 4],
    /// Image texels are `2^lod` world texels apart along x, y and z.
    pub lod: u32,
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

/// `v * n` exactly, or `None` past 2^62 cells.
fn times(v: Fixed, n: i128) -> Option<Fixed> {
    Fixed(v.0.checked_mul(n)?).checked()
}

impl PointMap {
    /// The map of a noise at frequency `f` in a context `x -> m x + c` (the domain transforms
    /// above it), skewed by `skew`, or `None` past 2^62 cells.
    pub fn new(m: &Mat, c: &[Fixed; 4], f: f64, skew: Option<f64>, dims: usize) -> Option<Self> {
        let mut map = [[0.0; 4]; 4];
        let mut shift = [Fixed::ZERO; 4];
        for a in 0..dims {
            for b in 0..dims {
                map[a][b] = f * m[a][b];
            }
            shift[a] = c[a].mul_f64(f)?;
        }
        Some(PointMap {
            map,
            shift,
            skew,
            dims,
        })
    }

    /// A flat spec's octave: frequency `f` (times the octave's scale, an f64 product) on every
    /// axis.
    pub fn uniform(f: f64, skew: Option<f64>, dims: usize) -> Self {
        let mut map = [[0.0; 4]; 4];
        for (a, row) in map.iter_mut().enumerate().take(dims) {
            row[a] = f;
        }
        PointMap {
            map,
            shift: [Fixed::ZERO; 4],
            skew,
            dims,
        }
    }

    /// The step per world texel along root axis `b`: column b of the map rounded half up to
    /// 2^-64 cells, then skewed.
    fn step(&self, b: usize) -> Option<[Fixed; 4]> {
        let mut u = [Fixed::ZERO; 4];
        for (a, v) in u.iter_mut().enumerate().take(self.dims) {
            *v = Fixed::from_f64(self.map[a][b])?;
        }
        skewed(u, self.skew, self.dims)
    }

    /// The skewed lattice point of the fractional offset `phi` (world texel 0 of a world at
    /// offset `phi`): `shift + sum_b round_64(A_b phi_b)`, each product exact and rounded once.
    fn origin(&self, phi: &[f64; 4]) -> Option<[Fixed; 4]> {
        let mut q = self.shift;
        for (a, v) in q.iter_mut().enumerate().take(self.dims) {
            for (b, &p) in phi.iter().enumerate().take(self.dims) {
                if p != 0.0 && self.map[a][b] != 0.0 {
                    *v = v.checked_add(Fixed::product(self.map[a][b], p, FRACTION_BITS)?)?;
                }
            }
        }
        skewed(q, self.skew, self.dims)
    }

    /// The frame of an image placed at `place` (CONVENTIONS §1), or `None` past 2^62 cells at
    /// its first texel.
    // Root axis b indexes the steps, the texels and the image's axes at once.
    #[allow(clippy::needless_range_loop)]
    pub fn frame(&self, place: &Placement) -> Option<OctaveFrame> {
        let mut origin = self.origin(&place.fraction)?;
        let mut step = [[Fixed::ZERO; 4]; 3];
        let spacing = 1i128.checked_shl(place.lod)?;
        for b in 0..self.dims.min(4) {
            let s = self.step(b)?;
            if place.texel[b] != 0 {
                for (o, v) in origin.iter_mut().zip(&s) {
                    *o = o.checked_add(times(*v, place.texel[b])?)?;
                }
            }
            if b < 3 {
                for a in 0..4 {
                    step[b][a] = times(s[a], spacing)?;
                }
            }
        }
        Some(OctaveFrame { origin, step })
    }

    /// The lattice point of a root point `x` in texel units: the frame's origin of an image at
    /// offset `x` (its integer part as world texels, the rest as the fraction), or `None` past
    /// 2^62 cells.
    pub fn lattice(&self, x: &[f64; 4]) -> Option<[Fixed; 4]> {
        Some(self.frame(&Placement::at(x)?)?.origin)
    }
}

impl Placement {
    /// The placement of an image whose texel (0, 0, 0) sits at `offset` (texel units): world
    /// texel `floor(offset)`, fraction `offset - floor(offset)` (exact in f64), spacing 1;
    /// `None` for a non-finite offset.
    pub fn at(offset: &[f64; 4]) -> Option<Placement> {
        let mut place = Placement {
            texel: [0; 4],
            fraction: [0.0; 4],
            lod: 0,
        };
        for (a, &o) in offset.iter().enumerate() {
            if !o.is_finite() || o.abs() >= 1e38 {
                return None;
            }
            let whole = o.floor();
            place.texel[a] = whole as i128;
            place.fraction[a] = o - whole;
        }
        Some(place)
    }

    /// The same world seen from image texel `t0` on, texels `2^lod` apart (a chunk or window).
    pub fn moved(&self, t0: [i128; 3], lod: u32) -> Option<Placement> {
        let mut place = *self;
        let spacing = 1i128.checked_shl(self.lod)?;
        for (texel, &t) in place.texel.iter_mut().zip(&t0) {
            *texel = texel.checked_add(t.checked_mul(spacing)?)?;
        }
        place.lod = self.lod.checked_add(lod)?;
        Some(place)
    }
}

impl OctaveFrame {
    /// The frame's two distinct steps: every diagonal step `step[b][b]` (b below dims) is the
    /// first, every off-diagonal one between used axes the second (zero but for simplex's
    /// skew). The flat kernels step texels with them (CONVENTIONS §1).
    pub fn diagonal_steps(&self) -> (Fixed, Fixed) {
        (self.step[0][0], self.step[0][1])
    }

    /// The lattice coordinate of texel `t` (image axes x, y, z), exact, or `None` past 2^62.
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

    /// The lattice coordinate of image texel `t`, for texels of a validated image (which keeps
    /// every texel below 2^62 cells, so the sums cannot overflow there).
    #[inline(always)]
    pub fn texel_coordinates(&self, t: [u32; 3]) -> [Fixed; 4] {
        let mut l = self.origin;
        for (step, &n) in self.step.iter().zip(&t) {
            for (v, s) in l.iter_mut().zip(step) {
                v.0 = v.0.wrapping_add(s.0.wrapping_mul(i128::from(n)));
            }
        }
        l
    }

    /// Whether every texel of an image of `size` (x, y, z) stays below 2^62 cells: the frame
    /// is affine, so its corners suffice.
    pub fn reaches(&self, size: [u32; 3]) -> bool {
        let far = size.map(|s| i64::from(s.max(1)) - 1);
        (0..8).all(|corner| {
            let t = [0, 1, 2].map(|b| if corner >> b & 1 == 1 { far[b] } else { 0 });
            self.point(t).is_some()
        })
    }
}

/// A caller-given point `p` (noise space) on octave `scale`'s lattice: `p x scale` exact,
/// rounded half up to 2^-64, then skewed and wrapped like texel points (axes past `dims` are 0).
pub fn sample_point(
    p: [f64; 4],
    scale: f64,
    skew: Option<f64>,
    dims: usize,
    period: [i64; 4],
) -> Option<[Fixed; 4]> {
    let mut q = [Fixed::ZERO; 4];
    for (v, &c) in q.iter_mut().zip(&p).take(dims) {
        *v = Fixed::product(c, scale, FRACTION_BITS)?;
    }
    let mut l = skewed(q, skew, dims)?;
    wrap_cells(&mut l, period);
    Some(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_at_a_whole_offset_is_the_worlds_texels_from_there() {
        // Frequency 0.0371 is no dyadic number: only exact steps keep these equal.
        for skew in [None, Some(1.0 / 3.0)] {
            let map = PointMap::uniform(0.0371 * 1.93, skew, 3);
            let world = map.frame(&Placement::at(&[0.0; 4]).unwrap()).unwrap();
            let n = [1_000_000_007i64, -5, 1 << 40];
            let offset = n.map(|v| v as f64);
            let image = map
                .frame(&Placement::at(&[offset[0], offset[1], offset[2], 0.0]).unwrap())
                .unwrap();
            for t in [[0i64, 0, 0], [1, 2, 3], [255, 17, 1]] {
                let far = [0, 1, 2].map(|b| n[b] + t[b]);
                assert_eq!(image.point(t), world.point(far), "{skew:?} {t:?}");
            }
        }
    }

    #[test]
    fn a_moved_placement_spaces_texels_by_its_level_of_detail() {
        let map = PointMap::uniform(0.1, None, 2);
        let base = Placement::at(&[12.25, -3.5, 0.0, 0.0]).unwrap();
        let frame = map.frame(&base).unwrap();
        let (t0, lod) = ([-1_000_000_007i128, 5, 0], 3);
        let moved = map.frame(&base.moved(t0, lod).unwrap()).unwrap();
        for t in [[0i64, 0, 0], [1, 2, 0], [255, 17, 0]] {
            let far = [0, 1, 2].map(|b| t0[b] as i64 + (t[b] << lod));
            assert_eq!(moved.point(t), frame.point(far), "{t:?}");
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
