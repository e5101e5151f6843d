//! A block of `LANES` consecutive texels of one row, as every kind receives it: per lattice
//! axis and lane the cell (modulo 2^32), the f32 fraction, its interpolation weight and the
//! wrapped corner cells. The coordinates are the GPU's (`texel_lattice_point` in common.wgsl):
//! three 32-bit words (cell, fraction's top and low words) stepped exactly, so a lane sees the
//! GPU's point bit for bit.

use crate::kinds::Interp;

/// Texels per block: 16 f32 lanes fill one AVX-512 register and two AVX2 ones.
pub const LANES: usize = 16;

/// One lattice axis of a block, lane by lane.
#[derive(Clone, Copy, Debug, Default)]
pub struct AxisLanes {
    /// The lower cell, unwrapped, modulo 2^32.
    pub cell: [u32; LANES],
    /// The fraction in [0, 1): its top 24 bits times 2^-24, exactly the GPU's f32.
    pub frac: [f32; LANES],
    /// The interpolation weight of `frac`.
    pub weight: [f32; LANES],
    /// The lower and upper corner cells, wrapped by the tiling period.
    pub lo: [u32; LANES],
    /// The upper corner cell, wrapped.
    pub hi: [u32; LANES],
}

/// A block of texels on one octave's lattice (the lanes' `LatticePoint`s and `AxisFrame`s).
#[derive(Clone, Copy, Debug, Default)]
pub struct Points {
    /// Per lattice axis.
    pub axis: [AxisLanes; 4],
}

/// Copies a block's lanes into the texels of a run, `texels.len()` of them (a row's last block
/// may be short). A whole block is one fixed-size copy, and a short one goes through a
/// function of its own: the compiler merged the two into a call of memcpy per block, with a
/// `vzeroupper` before it (5-6% of a Perlin 3D render's profile).
#[inline(always)]
pub fn store_block(texels: &mut [f32], block: &[f32; LANES]) {
    match <&mut [f32; LANES]>::try_from(&mut *texels) {
        Ok(whole) => *whole = *block,
        Err(_) => store_short(texels, block),
    }
}

#[cold]
#[inline(never)]
fn store_short(texels: &mut [f32], block: &[f32; LANES]) {
    for (t, &v) in texels.iter_mut().zip(block) {
        *t = v;
    }
}

/// Reads a block's lanes from a run (the lanes past its end keep their values), as
/// [`store_block`] writes them.
#[inline(always)]
pub fn load_block(run: &[f32], block: &mut [f32; LANES]) {
    match run.first_chunk::<LANES>() {
        Some(whole) => *block = *whole,
        None => load_short(run, block),
    }
}

#[cold]
#[inline(never)]
fn load_short(run: &[f32], block: &mut [f32; LANES]) {
    for (b, &v) in block.iter_mut().zip(run) {
        *b = v;
    }
}

/// A coordinate as the GPU's three words in one u128, modulo 2^96: the cell modulo 2^32, the
/// fraction's top and low 32 bits. Sums wrap exactly as the GPU's `add_steps` carries.
pub const MOD_96: u128 = (1 << 96) - 1;

/// Where one noise puts a row: the coordinate of its first texel per axis and the step from
/// texel to texel along x (modulo 2^96, as the GPU's three words), and each lane's offset
/// within a block split as the lanes add it: the top 64 bits (cell and top fraction word) and
/// the low fraction word.
#[derive(Clone, Copy, Debug)]
pub struct RowFrame {
    /// The first texel's coordinate per lattice axis.
    pub start: [u128; 4],
    /// The step per texel along x per lattice axis.
    pub step: [u128; 4],
    /// `l * step` per axis and lane: its top 64 bits.
    pub lane: [[u64; LANES]; 4],
    /// `l * step` per axis and lane: its low fraction word.
    pub lane_low: [[u32; LANES]; 4],
}

impl RowFrame {
    /// The row whose first texel sits at `start` and whose texels are `step` apart, per
    /// lattice axis (exact numbers, taken modulo 2^96 as the GPU's words wrap).
    pub fn new(start: [u128; 4], step: [u128; 4], dims: usize) -> RowFrame {
        let mut row = RowFrame {
            start: [0; 4],
            step: [0; 4],
            lane: [[0; LANES]; 4],
            lane_low: [[0; LANES]; 4],
        };
        for a in 0..dims {
            row.start[a] = start[a] & MOD_96;
            row.step[a] = step[a] & MOD_96;
            for l in 0..LANES {
                let offset = row.step[a].wrapping_mul(l as u128) & MOD_96;
                row.lane[a][l] = (offset >> 32) as u64;
                row.lane_low[a][l] = offset as u32;
            }
        }
        row
    }

    /// The same frame's row whose first texel sits at `start`: the step and the lanes'
    /// offsets are those of every row of a frame, so only the start changes from row to row.
    pub fn move_to(&mut self, start: [u128; 4], dims: usize) {
        for (a, &s) in start.iter().enumerate().take(dims) {
            self.start[a] = s & MOD_96;
        }
    }
}

/// Fills the points of the block whose first texel is `first` texels into `row`: cells and
/// fractions, weights and wrapped corner cells (the axes' `AxisFrame`s). Unless `fresh`, axes
/// that do not move along the row (all but x, except for simplex's skew and rotated frames)
/// keep what the previous block of the same row left.
#[inline(always)]
pub fn block_points(
    row: &RowFrame,
    interp: Interp,
    period: &[i32; 4],
    dims: usize,
    (first, fresh): (usize, bool),
    p: &mut Points,
) {
    for a in 0..dims {
        if !fresh && row.step[a] == 0 {
            continue;
        }
        let base = row.start[a].wrapping_add(row.step[a].wrapping_mul(first as u128)) & MOD_96;
        let (top, low) = ((base >> 32) as u64, base as u32);
        let axis = &mut p.axis[a];
        for l in 0..LANES {
            let carry = (u64::from(low) + u64::from(row.lane_low[a][l])) >> 32;
            let q = top.wrapping_add(row.lane[a][l]).wrapping_add(carry);
            axis.cell[l] = (q >> 32) as u32;
            axis.frac[l] = ((q as u32) >> 8) as f32 * (1.0 / 16_777_216.0);
        }
        axis_corners(axis, interp, period[a]);
    }
}

/// Where a row's points move, per axis and texel of the run, in lattice cells: the moves
/// themselves, or a displacement register mapped into the noise's cells block by block, so
/// that the moves never go through memory (a warped fractal maps one displacement into each
/// octave's lattice: a pass over the run per octave, and another per Linear step before it).
// Built once per segment and noise step on the stack; boxing `Mapped` would allocate there.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
pub enum Shift<'a> {
    /// The moves, per axis.
    Cells(&'a [Vec<f32>; 4]),
    /// A displacement per axis, first taken through a Linear step's map where given (fused
    /// into the noise), then into lattice cells by the instance's `delta_map`: the plan's
    /// `linear` and `lattice_shift`, term for term ([`Shift::mapped`]).
    Mapped {
        d: [&'a [f32]; 4],
        linear: Option<Terms>,
        map: Terms,
        /// The displacement axes the maps read.
        read: [bool; 4],
    },
}

/// A 4 x 4 map's nonzero entries, row by row in order (the zero ones are never multiplied).
#[derive(Clone, Copy, Debug)]
pub struct Terms {
    pub rows: [[(usize, f32); 4]; 4],
    pub len: [usize; 4],
}

impl Terms {
    /// The nonzero entries of `m`'s rows `0..rows`.
    pub fn new(m: &[[f32; 4]; 4], rows: usize) -> Terms {
        let mut t = Terms {
            rows: [[(0, 0.0); 4]; 4],
            len: [0; 4],
        };
        for a in 0..rows {
            for b in 0..4 {
                if m[a][b] != 0.0 {
                    t.rows[a][t.len[a]] = (b, m[a][b]);
                    t.len[a] += 1;
                }
            }
        }
        t
    }

    /// The columns any row reads.
    fn columns(&self) -> [bool; 4] {
        let mut read = [false; 4];
        for a in 0..4 {
            for &(b, _) in &self.rows[a][..self.len[a]] {
                read[b] = true;
            }
        }
        read
    }
}

impl<'a> Shift<'a> {
    /// Displacement `d` taken through `linear` where given, then into the cells of the first
    /// `dims` lattice axes by `map`.
    pub fn mapped(
        d: [&'a [f32]; 4],
        linear: Option<&[[f32; 4]; 4]>,
        map: &[[f32; 4]; 4],
        dims: usize,
    ) -> Shift<'a> {
        let map = Terms::new(map, dims);
        // Only the Linear rows the cell map reads are computed.
        let through = map.columns();
        let linear = linear.map(|m| {
            let mut kept = *m;
            for (a, row) in kept.iter_mut().enumerate() {
                if !through[a] {
                    *row = [0.0; 4];
                }
            }
            Terms::new(&kept, 4)
        });
        let read = linear.as_ref().map_or(through, Terms::columns);
        Shift::Mapped {
            d,
            linear,
            map,
            read,
        }
    }

    /// Block `b`'s moves on the first `dims` axes (lanes past the run's end keep what they
    /// held).
    #[inline(always)]
    pub fn block(&self, b: usize, dims: usize, moved: &mut [[f32; LANES]; 4]) {
        let at = b * LANES;
        let (d, linear, map, read) = match self {
            Shift::Cells(cells) => {
                for a in 0..dims {
                    load_block(&cells[a][at..], &mut moved[a]);
                }
                return;
            }
            Shift::Mapped {
                d,
                linear,
                map,
                read,
            } => (d, linear, map, read),
        };
        let mut input = [[0.0f32; LANES]; 4];
        for c in 0..4 {
            if read[c] {
                load_block(d[c].get(at..).unwrap_or(&[]), &mut input[c]);
            }
        }
        if let Some(m) = linear {
            let mut mapped = [[0.0f32; LANES]; 4];
            for a in 0..4 {
                mapped[a] = map_terms(&m.rows[a][..m.len[a]], &input);
            }
            input = mapped;
        }
        for a in 0..dims {
            moved[a] = map_terms(&map.rows[a][..map.len[a]], &input);
        }
    }
}

/// `sum k v[b]` per lane over a row's nonzero entries `(b, k)` in order, the first written
/// rather than added to zero (the plan's `linear` and `lattice_shift` per texel; zero for an
/// empty row).
#[inline(always)]
fn map_terms(terms: &[(usize, f32)], v: &[[f32; LANES]; 4]) -> [f32; LANES] {
    let mut out = [0.0f32; LANES];
    let Some((&(b, k), rest)) = terms.split_first() else {
        return out;
    };
    for l in 0..LANES {
        out[l] = k * v[b][l];
    }
    for &(b, k) in rest {
        for l in 0..LANES {
            out[l] += k * v[b][l];
        }
    }
    out
}

/// The points of a block moved by `shift[a][l]` cells (graph_displaced in graph.wgsl): the
/// fraction plus the shift, split again by floor and kept below 1, then the weights and corner
/// cells of the new point.
#[inline(always)]
pub fn shift_points(
    p: &mut Points,
    shift: &[[f32; LANES]; 4],
    interp: Interp,
    period: &[i32; 4],
    dims: usize,
) {
    for a in 0..dims {
        let axis = &mut p.axis[a];
        for l in 0..LANES {
            let f = axis.frac[l] + shift[a][l];
            let whole = f.floor();
            axis.cell[l] = axis.cell[l].wrapping_add(saturating_i32(whole) as u32);
            axis.frac[l] = (f - whole).min(0.999_999_94);
        }
        axis_corners(axis, interp, period[a]);
    }
}

/// `x as i32` (saturating, NaN to 0) in a form the lane loops vectorize: the compiler made
/// every lane's `as i32` a scalar conversion with its range checks (a tenth of the terrain
/// example's profile on AVX-512).
#[inline(always)]
fn saturating_i32(x: f32) -> i32 {
    // The largest f32 below 2^31; -2^31 is exact. Not `clamp`: it keeps a NaN.
    #[allow(clippy::manual_clamp)]
    let clamped = x.max(-2_147_483_648.0).min(2_147_483_520.0);
    // SAFETY: `clamped` is finite (max and min drop a NaN for the bound) and in i32's range.
    let i = unsafe { clamped.to_int_unchecked::<i32>() };
    if x.is_nan() {
        0
    } else if x >= 2_147_483_648.0 {
        i32::MAX
    } else {
        i
    }
}

/// An axis's interpolation weights and corner cells from its cells and fractions.
#[inline(always)]
fn axis_corners(axis: &mut AxisLanes, interp: Interp, period: i32) {
    interp_weights(interp, &axis.frac, &mut axis.weight);
    // Untiled axes (the common case) skip the remainder's f64 division.
    if period > 0 {
        for l in 0..LANES {
            axis.lo[l] = lattice_cell(axis.cell[l], period);
            axis.hi[l] = lattice_cell(axis.cell[l].wrapping_add(1), period);
        }
    } else {
        for l in 0..LANES {
            axis.lo[l] = axis.cell[l];
            axis.hi[l] = axis.cell[l].wrapping_add(1);
        }
    }
}

/// `interp_weight` for every lane; the match stays outside the lane loops so each vectorizes.
#[inline(always)]
fn interp_weights(interp: Interp, t: &[f32; LANES], w: &mut [f32; LANES]) {
    match interp {
        Interp::Nearest => {
            for l in 0..LANES {
                w[l] = if t[l] >= 0.5 { 1.0 } else { 0.0 };
            }
        }
        Interp::Linear => *w = *t,
        Interp::Cosine => {
            for l in 0..LANES {
                w[l] = (1.0 - (std::f32::consts::PI * t[l]).cos()) * 0.5;
            }
        }
        Interp::Cubic => {
            for l in 0..LANES {
                w[l] = t[l] * t[l] * (3.0 - 2.0 * t[l]);
            }
        }
        Interp::Quintic | Interp::CatmullRom => {
            for l in 0..LANES {
                let t = t[l];
                w[l] = t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
            }
        }
    }
}

/// `lattice_cell` of common.wgsl: a cell wrapped by the tiling period (Euclidean), or as it
/// is where the axis does not wrap. Tiled cells stay within a few periods of [0, period), so
/// they read as i32; the remainder is taken in f64 (exact for i32, and without the integer
/// division that would keep the lane loops from vectorizing).
#[inline(always)]
pub fn lattice_cell(cell: u32, period: i32) -> u32 {
    let c = f64::from(cell as i32);
    let p = f64::from(period.max(1));
    let wrapped = (c - p * (c / p).floor()) as i32 as u32;
    if period > 0 { wrapped } else { cell }
}

/// Cell `base + o` of one axis, o a small signed offset (`cell_offset` in common.wgsl).
#[inline(always)]
pub fn cell_offset(base: u32, o: i32) -> u32 {
    base.wrapping_add(o as u32)
}

#[cfg(test)]
mod tests {
    use super::saturating_i32;

    #[test]
    fn the_vectorizable_cast_is_rusts_saturating_cast() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1e9,
            -1e9,
            2_147_483_520.0,
            2_147_483_648.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
            3e38,
            -3e38,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ];
        for x in edges {
            assert_eq!(saturating_i32(x), x as i32, "{x}");
        }
        for n in 0..100_000u32 {
            let x = f32::from_bits(n.wrapping_mul(2_654_435_761));
            assert_eq!(saturating_i32(x), x as i32, "{x}");
        }
    }
}
