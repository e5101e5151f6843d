//! A row's points block by block in registers, as the lanes' `block_points` computes them: per
//! lattice axis, the first texel's coordinate plus each lane's offset (three 32-bit words:
//! cell, the fraction's top and low words) with the carries between words, giving the cell and
//! the fraction's top 24 bits. An axis that does not move along the row is computed once.

use super::{Wide, quintic};
use crate::kinds::lattice::lanes::{LANES, MOD_96, RowFrame, Shift, load_block};

/// One lattice axis of a row: each lane's offset within a block as three words (cell,
/// fraction's top word, fraction's low word), or the point it keeps all along the row.
#[derive(Clone, Copy)]
pub enum RowAxis<W: Wide> {
    Moving {
        start: u128,
        step: u128,
        offset: [W::U; 3],
    },
    Fixed(AxisPoint<W>),
}

/// Every lane's cell (modulo 2^32), fraction in [0, 1) and its quintic weight on one axis.
#[derive(Clone, Copy)]
pub struct AxisPoint<W: Wide> {
    pub cell: W::U,
    pub frac: W::F,
    pub weight: W::F,
}

/// The interpolation weights of the four axes.
#[inline(always)]
pub fn weights<W: Wide>(p: &[AxisPoint<W>; 4]) -> [W::F; 4] {
    [p[0].weight, p[1].weight, p[2].weight, p[3].weight]
}

/// The cell and fraction of words (cell, top) (the fraction's top 24 bits times 2^-24).
#[inline(always)]
fn split<W: Wide>(s: W, cell: W::U, top: W::U) -> AxisPoint<W> {
    let frac = s.mul(s.to_f(s.shr_u::<8>(top)), s.splat(1.0 / 16_777_216.0));
    split_frac(s, cell, frac)
}

/// A point of its cell and fraction, with the fraction's quintic weight.
#[inline(always)]
fn split_frac<W: Wide>(s: W, cell: W::U, frac: W::F) -> AxisPoint<W> {
    AxisPoint {
        cell,
        frac,
        weight: quintic(s, frac),
    }
}

impl<W: Wide> RowAxis<W> {
    /// Axis `a` of `row`.
    #[inline(always)]
    pub fn new(s: W, row: &RowFrame, a: usize) -> Self {
        let (start, step) = (row.start[a] & MOD_96, row.step[a] & MOD_96);
        if step == 0 {
            let top = (start >> 32) as u64;
            return RowAxis::Fixed(split(
                s,
                s.splat_u((top >> 32) as u32),
                s.splat_u(top as u32),
            ));
        }
        let mut words = [[0u32; LANES]; 3];
        for l in 0..LANES {
            words[0][l] = (row.lane[a][l] >> 32) as u32;
            words[1][l] = row.lane[a][l] as u32;
            words[2][l] = row.lane_low[a][l];
        }
        RowAxis::Moving {
            start,
            step,
            offset: [
                s.load_u(&words[0]),
                s.load_u(&words[1]),
                s.load_u(&words[2]),
            ],
        }
    }

    /// The points of the block whose first texel is `first` texels into the row.
    #[inline(always)]
    pub fn at(&self, s: W, first: usize) -> AxisPoint<W> {
        let (start, step, offset) = match *self {
            RowAxis::Fixed(p) => return p,
            RowAxis::Moving {
                start,
                step,
                offset,
            } => (start, step, offset),
        };
        let base = start.wrapping_add(step.wrapping_mul(first as u128)) & MOD_96;
        let [cell, top, low] = [(base >> 64) as u32, (base >> 32) as u32, base as u32];
        // low + offset's low word: it carries where the sum wraps below the offset.
        let low_carry = s.lt_u(s.add_u(s.splat_u(low), offset[2]), offset[2]);
        let top_sum = s.add_u(s.splat_u(top), offset[1]);
        let top_carry = s.lt_u(top_sum, offset[1]);
        let top_word = s.inc_where(low_carry, top_sum);
        // Adding the low word's carry wraps the top word only from all ones to zero.
        let wrapped = s.and_m(low_carry, s.eq_u(top_word, s.splat_u(0)));
        let cell = s.add_u(s.splat_u(cell), offset[0]);
        let cell = s.inc_where(s.or_m(top_carry, wrapped), cell);
        split(s, cell, top_word)
    }
}

/// The points moved by `shift` cells (`shift_points` of the lanes, graph_displaced in
/// graph.wgsl): the fraction plus the shift, split again by floor and kept below 1, the cell
/// moved by the whole part (saturating, NaN to 0), then the weight of the new fraction.
#[inline(always)]
pub fn shifted<W: Wide>(s: W, p: AxisPoint<W>, shift: W::F) -> AxisPoint<W> {
    let f = s.add(p.frac, shift);
    let whole = s.floor(f);
    // `saturating_i32` of the lanes: clamped to i32's range, NaN to 0, 2^31 and up to i32::MAX.
    let clamped = s.min(
        s.max(whole, s.splat(-2_147_483_648.0)),
        s.splat(2_147_483_520.0),
    );
    let mut moved = s.trunc_i(clamped);
    moved = s.select_u(
        s.lt(whole, s.splat(2_147_483_648.0)),
        moved,
        s.splat_u(i32::MAX as u32),
    );
    moved = s.select_u(s.is_nan(whole), s.splat_u(0), moved);
    split_frac(
        s,
        s.add_u(p.cell, moved),
        s.min(s.sub(f, whole), s.splat(0.999_999_94)),
    )
}

/// Block `b`'s moves on the first `dims` axes in registers: [`Shift::block`]'s operations,
/// term for term, on vectors (through arrays in memory they cost a warped fractal more than
/// the passes they replace).
#[inline(always)]
pub fn shift_block<W: Wide>(s: W, shift: &Shift, b: usize, dims: usize) -> [W::F; 4] {
    let at = b * LANES;
    let zero = s.splat(0.0);
    let mut moved = [zero; 4];
    let load = |run: &[f32]| -> W::F {
        match run
            .get(at..at + LANES)
            .and_then(|w| <&[f32; LANES]>::try_from(w).ok())
        {
            Some(whole) => s.load(whole),
            None => {
                let mut block = [0.0f32; LANES];
                load_block(run.get(at..).unwrap_or(&[]), &mut block);
                s.load(&block)
            }
        }
    };
    let (d, linear, map, read) = match shift {
        Shift::Cells(cells) => {
            for a in 0..dims {
                moved[a] = load(&cells[a]);
            }
            return moved;
        }
        Shift::Mapped {
            d,
            linear,
            map,
            read,
        } => (d, linear, map, read),
    };
    let mut input = [zero; 4];
    for c in 0..4 {
        if read[c] {
            input[c] = load(d[c]);
        }
    }
    if let Some(m) = linear {
        let mut mapped = [zero; 4];
        for a in 0..4 {
            mapped[a] = map_terms(s, &m.rows[a][..m.len[a]], &input);
        }
        input = mapped;
    }
    for a in 0..dims {
        moved[a] = map_terms(s, &map.rows[a][..map.len[a]], &input);
    }
    moved
}

/// `map_terms` of the lanes on vectors: the row's nonzero entries in order, the first written.
#[inline(always)]
fn map_terms<W: Wide>(s: W, terms: &[(usize, f32)], v: &[W::F; 4]) -> W::F {
    let Some((&(b, k), rest)) = terms.split_first() else {
        return s.splat(0.0);
    };
    let mut out = s.mul(s.splat(k), v[b]);
    for &(b, k) in rest {
        out = s.add(out, s.mul(s.splat(k), v[b]));
    }
    out
}
