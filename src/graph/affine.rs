//! The affine part of a graph's domain (CONVENTIONS §13): matrices of scales, rotations and
//! simplex's skew, and [`PointMap`], a noise's exact map from a root point to its lattice and
//! the texel frame it gives.

use crate::fixed::{FRACTION_BITS, Fixed, STEP_FRACTION_BITS};
use crate::spec::frames::{OctaveFrame, skewed};

/// A 4x4 matrix, rows = output axes.
pub(crate) type Mat = [[f64; 4]; 4];

pub(crate) const IDENTITY: Mat = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// A noise's (or coordinate's) map from a root point to its lattice: `shift + map p`, each
/// product exact and rounded half up to 2^-64, then skewed (CONVENTIONS §13).
#[derive(Clone, Debug)]
pub(crate) struct PointMap {
    /// `f M`, rows = lattice axes.
    pub map: Mat,
    /// `f c`.
    pub shift: [Fixed; 4],
    pub skew: Option<f64>,
    pub dims: usize,
}

impl PointMap {
    /// The exact lattice coordinate of root point `p`, or `None` past 2^62 cells.
    pub(crate) fn lattice(&self, p: &[f64; 4]) -> Option<[Fixed; 4]> {
        let mut q = [Fixed::ZERO; 4];
        for a in 0..self.dims {
            let mut v = self.shift[a];
            for b in 0..self.dims {
                v = v.checked_add(Fixed::product(self.map[a][b], p[b], FRACTION_BITS)?)?;
            }
            q[a] = v;
        }
        skewed(q, self.skew, self.dims)
    }
}

impl PointMap {
    /// The map `f (m x + c)` of a context (m, c) and a frequency f, skewed as `skew`, or `None`
    /// past 2^62 cells.
    pub(crate) fn new(
        m: &Mat,
        c: &[Fixed; 4],
        f: f64,
        skew: Option<f64>,
        dims: usize,
    ) -> Option<Self> {
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

    /// The texel frame of an image whose texel (0, 0, 0) is the root point `offset`: origin the
    /// exact lattice point of `offset`, steps `K (f M)` rounded to 2^-32 (§1), or `None` past
    /// 2^62 cells.
    pub(crate) fn frame(&self, offset: &[f64; 4]) -> Option<OctaveFrame> {
        let dims = self.dims;
        let origin = self.lattice(offset)?;
        let k = skew_matrix(self.skew, dims);
        let mut step = [[Fixed::ZERO; 4]; 3];
        for (b, row) in step.iter_mut().enumerate().take(dims.min(3)) {
            for (a, s) in row.iter_mut().enumerate().take(dims) {
                for j in 0..dims {
                    if self.map[j][b] != 0.0 && k[a][j] != 0.0 {
                        let p = Fixed::product(self.map[j][b], k[a][j], STEP_FRACTION_BITS)?;
                        *s = s.checked_add(p)?;
                    }
                }
            }
        }
        Some(OctaveFrame { origin, step })
    }
}

pub(crate) fn uniform_scale(s: f64) -> Mat {
    let mut m = [[0.0; 4]; 4];
    for (a, row) in m.iter_mut().enumerate() {
        row[a] = s;
    }
    m
}

/// `I + F 1 1^T` on the first `dims` axes (simplex's skew), or the identity.
pub(crate) fn skew_matrix(skew: Option<f64>, dims: usize) -> Mat {
    let mut k = IDENTITY;
    if let Some(f) = skew {
        for row in k.iter_mut().take(dims) {
            for v in row.iter_mut().take(dims) {
                *v += f;
            }
        }
    }
    k
}

/// The rotation by `degrees` counterclockwise: in the plane for 2D, about `axis` (Rodrigues)
/// on x, y, z for 3D and 4D (w stays).
pub(crate) fn rotation(dims: usize, degrees: f64, axis: [f64; 3]) -> Mat {
    let (s, c) = degrees.to_radians().sin_cos();
    let mut m = IDENTITY;
    if dims == 2 {
        m[0][0] = c;
        m[0][1] = -s;
        m[1][0] = s;
        m[1][1] = c;
        return m;
    }
    let norm = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let [x, y, z] = axis.map(|v| v / norm);
    let t = 1.0 - c;
    m[0] = [t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0.0];
    m[1] = [t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0.0];
    m[2] = [t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0.0];
    m
}
