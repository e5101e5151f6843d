//! The plan's point steps over a segment: a displacement mapped into a noise's lattice cells,
//! a coordinate's value, and the displacement steps (a Linear map, a Displace sum), as the
//! generated WGSL computes them.

use super::Registers;
use crate::kinds::Interp;
use crate::kinds::lattice::lanes::{LANES, Points, RowFrame, block_points, shift_points};

/// A displacement register mapped into lattice cells: `shift[a] = sum_b map[a][b] d[b]` in
/// order (graph_point_moved's `delta_map * d`), on the lattice's `dims` axes. Zero entries
/// (every off-diagonal one but for rotations and simplex's skew) are skipped: adding `0 d` to
/// a finite sum changes no bit.
#[inline(always)]
pub(super) fn lattice_shift(
    regs: &Registers,
    d: usize,
    map: &[[f32; 4]; 4],
    dims: usize,
    shift: &mut [Vec<f32>; 4],
) {
    for (a, out) in shift.iter_mut().enumerate().take(dims) {
        let out = &mut out[..regs.n];
        out.fill(0.0);
        for (b, &m) in map[a].iter().enumerate() {
            if m != 0.0 {
                for (o, &v) in out.iter_mut().zip(regs.axis(d, b)) {
                    *o += m * v;
                }
            }
        }
    }
}

/// A coordinate step over a segment (graph_coordinate): the image origin's cell as f32, plus
/// the point's cells relative to it (a signed 32-bit difference), plus its fraction; the
/// point moved by `shift` where given.
#[inline(always)]
pub(super) fn coordinate_row(
    row: &RowFrame,
    origin: crate::fixed::Fixed,
    axis: usize,
    first: usize,
    shift: Option<&[Vec<f32>; 4]>,
    out: &mut [f32],
) {
    let mut p = Points::default();
    let mut moved = [[0.0f32; LANES]; 4];
    let dims = axis + 1;
    // The image origin's cell: as f32, and its low word the lanes' cells are relative to.
    let (base, low) = (origin.cell() as f32, origin.cell() as u32);
    for (b, texels) in out.chunks_mut(LANES).enumerate() {
        block_points(
            row,
            Interp::Linear,
            &[0; 4],
            dims,
            (first + b * LANES, true),
            &mut p,
        );
        if let Some(shift) = shift {
            let lanes = &shift[axis][b * LANES..];
            let count = lanes.len().min(LANES);
            moved[axis][..count].copy_from_slice(&lanes[..count]);
            shift_points(&mut p, &moved, Interp::Linear, &[0; 4], dims);
        }
        let at = &p.axis[axis];
        for (l, v) in texels.iter_mut().enumerate() {
            let cells = at.cell[l].wrapping_sub(low) as i32;
            *v = base + (cells as f32 + at.frac[l]);
        }
    }
}

/// `m d` per texel (a Linear step: mat4x4 times vec4, summed in order).
#[inline(always)]
pub(super) fn linear(regs: &Registers, input: usize, m: &[[f32; 4]; 4], into: &mut [f32]) {
    for a in 0..4 {
        let out = &mut into[a * regs.segment..a * regs.segment + regs.n];
        let [d0, d1, d2, d3]: [&[f32]; 4] = std::array::from_fn(|b| regs.axis(input, b));
        // Zipped, not indexed: four indexed reads keep a bounds check each and do not vectorize.
        let d = d0.iter().zip(d1).zip(d2).zip(d3);
        for (o, (((&x, &y), &z), &w)) in out.iter_mut().zip(d) {
            *o = m[a][0] * x + m[a][1] * y + m[a][2] * z + m[a][3] * w;
        }
    }
}

/// `base + amplitude (by_0, by_1, ...)` per texel (a Displace step).
#[inline(always)]
pub(super) fn displace(
    regs: &Registers,
    base: Option<usize>,
    by: &[usize],
    amplitude: f32,
    into: &mut [f32],
) {
    for a in 0..4 {
        let out = &mut into[a * regs.segment..a * regs.segment + regs.n];
        match base {
            Some(b) => out.copy_from_slice(regs.axis(b, a)),
            None => out.fill(0.0),
        }
        if let Some(&k) = by.get(a) {
            for (o, &v) in out.iter_mut().zip(regs.value(k)) {
                *o += amplitude * v;
            }
        }
    }
}
