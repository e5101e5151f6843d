//! The plan's point steps over a segment: a displacement mapped into a noise's lattice cells,
//! a coordinate's value, and the displacement steps (a Linear map, a Displace sum), as the
//! generated WGSL computes them.

use super::Registers;
use crate::kinds::Interp;
use crate::kinds::lattice::lanes::{LANES, Points, RowFrame, Shift, block_points, shift_points};

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
        // The first term is written, not added to a zeroed run (one pass less; the sum's bits
        // are the same, a zero's sign aside, which the displaced point cannot tell).
        let mut first = true;
        for (b, &m) in map[a].iter().enumerate() {
            if m == 0.0 {
                continue;
            }
            let axis = regs.axis(d, b);
            if first {
                for (o, &v) in out.iter_mut().zip(axis) {
                    *o = m * v;
                }
            } else {
                for (o, &v) in out.iter_mut().zip(axis) {
                    *o += m * v;
                }
            }
            first = false;
        }
        if first {
            out.fill(0.0);
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
    shift: Option<&Shift>,
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
            // The axes below `axis` move too; only `axis` is read.
            shift.block(b, dims, &mut moved);
            shift_points(&mut p, &moved, Interp::Linear, &[0; 4], dims);
        }
        let at = &p.axis[axis];
        for (l, v) in texels.iter_mut().enumerate() {
            let cells = at.cell[l].wrapping_sub(low) as i32;
            *v = base + (cells as f32 + at.frac[l]);
        }
    }
}

/// `m d` per texel (a Linear step: mat4x4 times vec4, summed in order). Zero entries are
/// skipped, as [`lattice_shift`] skips them: adding `0 d` to a finite sum changes no bit (a
/// zero's sign aside, which no displacement can tell). A 2D graph's map is mostly zeros, and
/// its four full rows were 44% of the terrain example's plan steps.
#[inline(always)]
pub(super) fn linear(regs: &Registers, input: usize, m: &[[f32; 4]; 4], into: &mut [f32]) {
    for a in 0..4 {
        let out = &mut into[a * regs.segment..a * regs.segment + regs.n];
        let mut terms = (0..4).filter(|&b| m[a][b] != 0.0);
        let Some(b) = terms.next() else {
            out.fill(0.0);
            continue;
        };
        let k = m[a][b];
        for (o, &v) in out.iter_mut().zip(regs.axis(input, b)) {
            *o = k * v;
        }
        for b in terms {
            let k = m[a][b];
            for (o, &v) in out.iter_mut().zip(regs.axis(input, b)) {
                *o += k * v;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::lattice::lanes::Shift;

    /// A mapped shift's blocks equal the separate passes it replaces (a Linear step into a
    /// register, then `lattice_shift`), bit for bit, with and without the Linear, over a
    /// segment whose last block is short, maps with zero entries and a zero row included.
    #[test]
    fn a_mapped_shift_equals_the_linear_and_lattice_shift_passes() {
        let (segment, n) = (64, 53);
        // Register 0: a displacement (4 runs); register 1: its Linear map (4 runs).
        let runs = [0, 4];
        let mut done = vec![0.0f32; 8 * segment];
        for (i, v) in done[..4 * segment].iter_mut().enumerate() {
            *v = ((i * 2_654_435_761) % 1000) as f32 * 0.037 - 17.0;
        }
        let linear_m = [
            [2.0, 0.0, 0.0, 0.0],
            [0.3, 1.7, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0],
            [0.0, -0.5, 0.25, 4.0],
        ];
        let map = [
            [0.031_25, 0.0, 0.0, 0.0],
            [0.0, 0.011, -0.002, 0.0],
            [0.5, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.0],
        ];
        let mut mapped = vec![0.0f32; 4 * segment];
        {
            let regs = Registers {
                done: &done,
                runs: &runs,
                segment,
                n,
            };
            linear(&regs, 0, &linear_m, &mut mapped);
        }
        done[4 * segment..].copy_from_slice(&mapped);
        let regs = Registers {
            done: &done,
            runs: &runs,
            segment,
            n,
        };
        for (input, fused) in [(0, Some(&linear_m)), (1, None)] {
            let dims = 4;
            let mut want: [Vec<f32>; 4] = std::array::from_fn(|_| vec![0.0; segment]);
            lattice_shift(&regs, 1, &map, dims, &mut want);
            let shift = Shift::mapped(regs.axes(input), fused, &map, dims);
            let mut moved = [[0.0f32; LANES]; 4];
            for b in 0..n.div_ceil(LANES) {
                shift.block(b, dims, &mut moved);
                for a in 0..dims {
                    for l in 0..LANES.min(n - b * LANES) {
                        let (w, g) = (want[a][b * LANES + l], moved[a][l]);
                        assert_eq!(
                            w.to_bits(),
                            g.to_bits(),
                            "fused {}: axis {a}, texel {}",
                            fused.is_some(),
                            b * LANES + l
                        );
                    }
                }
            }
        }
    }
}
