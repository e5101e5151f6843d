//! The affine part of a graph's domain (CONVENTIONS §13): matrices of scales, rotations and
//! simplex's skew. A noise's exact map from a root point to its lattice is the world's
//! [`PointMap`](crate::spec::frames::PointMap).

pub(crate) use crate::spec::frames::Mat;

pub(crate) const IDENTITY: Mat = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

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
