//! A row's points block by block in registers, as the lanes' `block_points` computes them: per
//! lattice axis, each lane's coordinate as three 32-bit words (cell, the fraction's top and low
//! words), the row's first block from its start plus each lane's offset, the next ones by a
//! block's step added with the carries between words ([`Cursor`]), giving the cell and the
//! fraction's top 24 bits. An axis that does not move along the row is computed once.

use super::{Wide, quintic};
use crate::kinds::lattice::lanes::{LANES, MOD_96, RowFrame, Shift, Terms, load_block};

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
    split_frac(s, cell, top_fraction(s, top))
}

/// The fraction of a top word: its top 24 bits times 2^-24.
#[inline(always)]
fn top_fraction<W: Wide>(s: W, top: W::U) -> W::F {
    s.mul(s.to_f(s.shr_u::<8>(top)), s.splat(1.0 / 16_777_216.0))
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
        match *self {
            RowAxis::Fixed(p) => p,
            RowAxis::Moving { .. } => self.cursor(s, first).point(s),
        }
    }

    /// The lanes' three words at the block whose first texel is `first` texels into the row
    /// (zeros for a fixed axis, whose point is read instead).
    #[inline(always)]
    pub fn cursor(&self, s: W, first: usize) -> Cursor<W> {
        let RowAxis::Moving {
            start,
            step,
            offset,
        } = *self
        else {
            let zero = s.splat_u(0);
            return Cursor {
                words: [zero; 3],
                block: [zero; 3],
            };
        };
        let base = start.wrapping_add(step.wrapping_mul(first as u128)) & MOD_96;
        let block = step.wrapping_mul(LANES as u128) & MOD_96;
        Cursor {
            words: add_words(s, words_of(s, base), offset),
            block: words_of(s, block),
        }
    }
}

/// The three words of a coordinate modulo 2^96 (cell, fraction's top and low word), in every
/// lane.
#[inline(always)]
fn words_of<W: Wide>(s: W, v: u128) -> [W::U; 3] {
    [(v >> 64) as u32, (v >> 32) as u32, v as u32].map(|w| s.splat_u(w))
}

/// `a + b` per lane modulo 2^96, word by word with the carries between them.
#[inline(always)]
fn add_words<W: Wide>(s: W, a: [W::U; 3], b: [W::U; 3]) -> [W::U; 3] {
    // A word's sum carries where it wraps below the addend.
    let low = s.add_u(a[2], b[2]);
    let low_carry = s.lt_u(low, b[2]);
    let top_sum = s.add_u(a[1], b[1]);
    let top_carry = s.lt_u(top_sum, b[1]);
    let top = s.inc_where(low_carry, top_sum);
    // Adding the low word's carry wraps the top word only from all ones to zero.
    let wrapped = s.and_m(low_carry, s.eq_u(top, s.splat_u(0)));
    let cell = s.inc_where(s.or_m(top_carry, wrapped), s.add_u(a[0], b[0]));
    [cell, top, low]
}

/// A moving axis's lanes at one block, stepped to the next block by adding a block's step
/// (`LANES` texels) to the words: exact modulo 2^96 like the product it replaces, without the
/// row's start and the lanes' offsets taken again in every block.
#[derive(Clone, Copy)]
pub struct Cursor<W: Wide> {
    words: [W::U; 3],
    block: [W::U; 3],
}

impl<W: Wide> Cursor<W> {
    /// The lanes' cells and fractions here.
    #[inline(always)]
    pub fn cell_frac(&self, s: W) -> (W::U, W::F) {
        (self.words[0], top_fraction(s, self.words[1]))
    }

    /// The lanes' points here, with their weights.
    #[inline(always)]
    pub fn point(&self, s: W) -> AxisPoint<W> {
        let (cell, frac) = self.cell_frac(s);
        split_frac(s, cell, frac)
    }

    /// Moves on to the next block.
    #[inline(always)]
    pub fn advance(&mut self, s: W) {
        self.words = add_words(s, self.words, self.block);
    }
}

/// The points moved by `shift` cells (`shift_points` of the lanes, graph_displaced in
/// graph.wgsl): the fraction plus the shift, split again by floor and kept below 1, the cell
/// moved by the whole part (saturating, NaN to 0), then the weight of the new fraction.
#[inline(always)]
pub fn shifted<W: Wide>(s: W, (cell, frac): (W::U, W::F), shift: W::F) -> AxisPoint<W> {
    let f = s.add(frac, shift);
    let whole = s.floor(f);
    // Truncation gives i32::MIN exactly where a lane's whole part is NaN or out of i32's range
    // (or is -2^31 itself); where no lane has it, the saturation changes nothing: the clamps,
    // the NaN test and their selects run only where some lane may need them.
    let truncated = s.trunc_i(whole);
    let moved = if s.any(s.eq_u(truncated, s.splat_u(i32::MIN as u32))) {
        saturating_cells(s, whole)
    } else {
        truncated
    };
    split_frac(
        s,
        s.add_u(cell, moved),
        s.min(s.sub(f, whole), s.splat(0.999_999_94)),
    )
}

/// `saturating_i32` of the lanes: clamped to i32's range, NaN to 0, 2^31 and up to i32::MAX.
#[inline(always)]
fn saturating_cells<W: Wide>(s: W, whole: W::F) -> W::U {
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
    s.select_u(s.is_nan(whole), s.splat_u(0), moved)
}

/// A row's shift as its blocks read it, resolved once a row: the moves themselves, one
/// displacement axis per lattice axis times a factor (a warp's map: a diagonal of
/// frequencies), times another first where a fused Linear is diagonal too (a fractal's
/// octave scale), or the general maps. The general maps' terms, matched block by block, kept
/// their inputs on the stack (indexed at run time) in the loop of every warped noise.
pub enum RowShift<'a> {
    Cells([&'a [f32]; 4]),
    Scaled {
        runs: [&'a [f32]; 4],
        linear: Option<[f32; 4]>,
        map: [f32; 4],
    },
    Mapped {
        d: [&'a [f32]; 4],
        linear: Option<&'a Terms>,
        map: &'a Terms,
        read: &'a [bool; 4],
    },
}

impl<'a> RowShift<'a> {
    /// `shift` on the first `dims` axes.
    pub fn new(shift: &'a Shift<'a>, dims: usize) -> Self {
        let (d, linear, map, read) = match shift {
            Shift::Cells(cells) => {
                return RowShift::Cells([&cells[0], &cells[1], &cells[2], &cells[3]]);
            }
            Shift::Mapped {
                d,
                linear,
                map,
                read,
            } => (*d, linear.as_ref(), map, read),
        };
        Self::scaled(d, linear, map, dims).unwrap_or(RowShift::Mapped {
            d,
            linear,
            map,
            read,
        })
    }

    /// The single-term form, where every row the moves read has one term: then each move is
    /// `map_terms`' first term, `k v`, of the other's.
    fn scaled(d: [&'a [f32]; 4], linear: Option<&Terms>, map: &Terms, dims: usize) -> Option<Self> {
        let single = |t: &Terms, a: usize| (t.len[a] == 1).then_some(t.rows[a][0]);
        let mut runs: [&[f32]; 4] = [&[]; 4];
        let (mut pre, mut k) = ([0.0; 4], [0.0; 4]);
        for a in 0..dims {
            let (mut b, factor) = single(map, a)?;
            k[a] = factor;
            if let Some(linear) = linear {
                (b, pre[a]) = single(linear, b)?;
            }
            runs[a] = d[b];
        }
        Some(RowShift::Scaled {
            runs,
            linear: linear.map(|_| pre),
            map: k,
        })
    }
}

/// Block `b`'s moves on the first `dims` axes in registers: [`Shift::block`]'s operations,
/// term for term, on vectors (through arrays in memory they cost a warped fractal more than
/// the passes they replace). A single term is `k d`, the first term of `map_terms`.
#[inline(always)]
pub fn shift_block<W: Wide>(s: W, shift: &RowShift, b: usize, dims: usize) -> [W::F; 4] {
    let at = b * LANES;
    let zero = s.splat(0.0);
    let mut moved = [zero; 4];
    let (d, linear, map, read) = match shift {
        RowShift::Cells(cells) => {
            for a in 0..dims {
                moved[a] = load_run(s, cells[a], at);
            }
            return moved;
        }
        RowShift::Scaled { runs, linear, map } => {
            for a in 0..dims {
                let mut v = load_run(s, runs[a], at);
                if let Some(pre) = linear {
                    v = s.mul(s.splat(pre[a]), v);
                }
                moved[a] = s.mul(s.splat(map[a]), v);
            }
            return moved;
        }
        RowShift::Mapped {
            d,
            linear,
            map,
            read,
        } => (d, linear, map, read),
    };
    let mut input = [zero; 4];
    for c in 0..4 {
        if read[c] {
            input[c] = load_run(s, d[c], at);
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

/// The block of `run` from texel `at` (lanes past the run's end zero).
#[inline(always)]
fn load_run<W: Wide>(s: W, run: &[f32], at: usize) -> W::F {
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
