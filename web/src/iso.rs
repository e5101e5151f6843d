//! Surface nets (Gibson 1998): one vertex a cell the level crosses, at the mean of the
//! crossings on its edges, and one quad a grid edge the level crosses, joining the four cells
//! around it.

use crate::world::IsoMesh;

/// Each corner of a cell as its offset bits (x: 1, y: 2, z: 4).
const AXIS_BITS: [usize; 3] = [1, 2, 4];

/// The mesh of an `n^3` grid of values (x fastest), where they cross `level`; edges owned as
/// [`IsoMesh`] says: along axis a, starting in `0..n - 2`; across it, at `1..=n - 2`.
pub fn surface_nets(values: &[f32], n: usize, level: f32) -> IsoMesh {
    let at = |i: usize, j: usize, k: usize| (k * n + j) * n + i;
    let inside = |p: usize| values[p] > level;
    let cells = n - 1;
    let mut vertex_of = vec![u32::MAX; cells * cells * cells];
    let mut positions = Vec::new();
    for k in 0..cells {
        for j in 0..cells {
            for i in 0..cells {
                let d: [f32; 8] = std::array::from_fn(|c| {
                    values[at(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2))] - level
                });
                if let Some(p) = cell_vertex(&d) {
                    vertex_of[(k * cells + j) * cells + i] = (positions.len() / 3) as u32;
                    positions.extend([i as f32 + p[0], j as f32 + p[1], k as f32 + p[2]]);
                }
            }
        }
    }
    let mut indices = Vec::new();
    let mut quads = 0;
    let s = n - 2;
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let p = [i, j, k];
                for a in 0..3 {
                    let (b, c) = ((a + 1) % 3, (a + 2) % 3);
                    if p[a] >= s || !(1..=s).contains(&p[b]) || !(1..=s).contains(&p[c]) {
                        continue;
                    }
                    let mut q = p;
                    q[a] += 1;
                    let low = inside(at(p[0], p[1], p[2]));
                    if low == inside(at(q[0], q[1], q[2])) {
                        continue;
                    }
                    // The four cells around the edge: their low corners p - {0, e_b} - {0, e_c}.
                    let cell = |db: usize, dc: usize| {
                        let mut m = p;
                        m[b] -= db;
                        m[c] -= dc;
                        vertex_of[(m[2] * cells + m[1]) * cells + m[0]]
                    };
                    let quad = [cell(1, 1), cell(0, 1), cell(0, 0), cell(1, 0)];
                    // (b, c, a) is right-handed: this order faces +a; the level's high side
                    // (inside) lies behind the quad.
                    let [v0, v1, v2, v3] = if low {
                        quad
                    } else {
                        [quad[0], quad[3], quad[2], quad[1]]
                    };
                    indices.extend([v0, v1, v2, v0, v2, v3]);
                    quads += 1;
                }
            }
        }
    }
    IsoMesh::new(positions, indices, quads)
}

/// The vertex of a cell whose corners are `d` above the level (`d[c]`, corner c's offset bits
/// x 1, y 2, z 4), in the cell's unit cube: the mean of its edges' crossings; `None` where
/// the level does not cross it.
fn cell_vertex(d: &[f32; 8]) -> Option<[f32; 3]> {
    let mut sum = [0.0f32; 3];
    let mut count = 0.0f32;
    for c in 0..8 {
        for (axis, &bit) in AXIS_BITS.iter().enumerate() {
            if c & bit != 0 || (d[c] > 0.0) == (d[c | bit] > 0.0) {
                continue;
            }
            let t = d[c] / (d[c] - d[c | bit]);
            for (a, s) in sum.iter_mut().enumerate() {
                let corner = ((c >> a) & 1) as f32;
                *s += if a == axis { t } else { corner };
            }
            count += 1.0;
        }
    }
    (count > 0.0).then(|| sum.map(|s| s / count))
}
