//! The wide rows' driver: a kernel's blocks over a row with its axes stepped in registers
//! (`frame`), compiled once per instruction set and lattice, and the `NoiseRow` that runs it
//! where a row fits and the lanes' kernel elsewhere.

use super::Wide;
use super::avx2::Avx2;
use super::avx512::Avx512;
use super::frame::{AxisPoint, Cursor, RowAxis, RowShift, shift_block, shifted};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseInputs, NoisePairRow, NoiseRow};
use crate::kinds::lattice::lanes::{LANES, RowFrame, Shift};
use crate::kinds::{Interp, KindState, LatticeKind};

/// A kind in `DIMS` dimensions whose blocks run in registers.
pub trait WideKernel {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// Whether it reads the interpolation weights (then only quintic rows are wide).
    const WEIGHTS: bool = true;
    /// Whether the wide kernel computes the kind with these parameters.
    fn takes(_kind: &KindState) -> bool {
        true
    }
    /// The noise of every lane of a block from its points (the first `DIMS` axes), on the
    /// prime lattice (`PRIME`) or xxHash32's, with the lattice's seed.
    fn block<W: Wide, const PRIME: bool>(
        s: W,
        seed: u32,
        kind: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> W::F;
    /// The noise of every lane of a block under each of `seeds` (noises of the kind at the
    /// same points whose seeds alone differ): by default a block per seed; a kind whose seed
    /// changes only its hashes shares the rest.
    #[inline(always)]
    fn block_seeds<W: Wide, const PRIME: bool, const N: usize>(
        s: W,
        seeds: [u32; N],
        kind: &KindState,
        p: &[AxisPoint<W>; 4],
    ) -> [W::F; N] {
        let mut values = [s.splat(0.0); N];
        for (value, &seed) in values.iter_mut().zip(&seeds) {
            *value = Self::block::<W, PRIME>(s, seed, kind, p);
        }
        values
    }
    /// The lanes' row function for what the wide row does not take.
    fn lanes(lattice: LatticeKind, isa: InstructionSet) -> NoiseRow;
}

/// Whether a wide row computes this row: a hash lattice with no tiling, quintic weights
/// where the kind reads weights.
#[inline(always)]
fn fits<K: WideKernel>(inputs: &NoiseInputs) -> bool {
    inputs.lat.hashed
        && inputs.lat.period == [0; 4]
        && (!K::WEIGHTS || inputs.interp == Interp::Quintic)
        && K::takes(inputs.kind)
}

/// What a wide row computes besides its points: the kind's parameters and one seed per noise.
struct Noises<'a, const N: usize> {
    kind: &'a KindState,
    seeds: [u32; N],
}

/// `K`'s blocks over `outs[k].len()` texels of `row` from texel `first` (the noise under
/// seed k into `outs[k]`), each point moved by `shift` cells (per axis, texel by texel) where
/// given. A row that moves along x alone (an unrotated frame, the common case) runs a loop of
/// its own that takes the other axes once: matching each axis for fixed or moving in every
/// block cost value noise a tenth.
#[inline(always)]
fn wide_row<W: Wide, K: WideKernel, const PRIME: bool, const N: usize>(
    s: W,
    noises: &Noises<N>,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    outs: [&mut [f32]; N],
) {
    let zero = RowAxis::Fixed(AxisPoint {
        cell: s.splat_u(0),
        frac: s.splat(0.0),
        weight: s.splat(0.0),
    });
    let mut axes = [zero; 4];
    for a in 0..K::DIMS {
        axes[a] = RowAxis::new(s, row, a);
    }
    let x_only = (1..K::DIMS).all(|a| matches!(axes[a], RowAxis::Fixed(_)));
    let shift = shift.map(|shift| RowShift::new(shift, K::DIMS));
    match (x_only, shift.as_ref()) {
        (true, None) => blocks::<W, K, PRIME, true, N>(s, noises, &axes, first, None, outs),
        (_, shift) => blocks::<W, K, PRIME, false, N>(s, noises, &axes, first, shift, outs),
    }
}

/// The block loop of [`wide_row`]: with `X_ONLY`, the axes past x are fixed (taken once).
/// Blocks go in pairs: a block is one long chain of dependent operations (hashes, gradients,
/// lerps), and two independent ones side by side keep the vector units busy while each waits
/// on its last result. (Functions, not closures: closures over vectors were not inlined.)
#[inline(always)]
fn blocks<W: Wide, K: WideKernel, const PRIME: bool, const X_ONLY: bool, const N: usize>(
    s: W,
    noises: &Noises<N>,
    axes: &[RowAxis<W>; 4],
    first: usize,
    shift: Option<&RowShift>,
    mut outs: [&mut [f32]; N],
) {
    let Noises { kind, seeds } = *noises;
    let len = outs.iter().map(|out| out.len()).min().unwrap_or(0);
    let mut fixed = [axes[0].at(s, first); 4];
    let mut cursors = [axes[0].cursor(s, first); 4];
    for a in 1..K::DIMS {
        fixed[a] = axes[a].at(s, first);
        cursors[a] = axes[a].cursor(s, first);
    }
    let c = &mut cursors;
    if N == 1 {
        // One noise: its own loop, as it was before pairs (through the arrays of the loop
        // below, cellular's AVX2 rows spilled and ran at a third of the speed).
        if let Some(out) = outs.into_iter().next() {
            let noise = (seeds[0], kind);
            single_blocks::<W, K, PRIME, X_ONLY>(s, noise, axes, (&fixed, c), shift, out);
        }
        return;
    }
    let mut b = 0;
    // Whole pairs, then the rest (under two blocks) as one more pair written in part: a loop
    // of single blocks for the rest would inline the kernel a third time (build time).
    while b * LANES < len {
        let p0 = block_points::<W, K, X_ONLY>(s, axes, &fixed, c, shift, b);
        let p1 = block_points::<W, K, X_ONLY>(s, axes, &fixed, c, shift, b + 1);
        let v0 = K::block_seeds::<W, PRIME, N>(s, seeds, kind, &p0);
        let v1 = K::block_seeds::<W, PRIME, N>(s, seeds, kind, &p1);
        for (out, (&v0, &v1)) in outs.iter_mut().zip(v0.iter().zip(&v1)) {
            store_pair(s, &mut out[b * LANES..len.min((b + 2) * LANES)], v0, v1);
        }
        b += 2;
    }
}

/// Two blocks' values into `texels` (two blocks long, or shorter at a row's end: the lanes
/// past it are dropped).
#[inline(always)]
fn store_pair<W: Wide>(s: W, texels: &mut [f32], v0: W::F, v1: W::F) {
    if let Ok(whole) = <&mut [f32; 2 * LANES]>::try_from(&mut *texels) {
        return store_two(s, whole, v0, v1);
    }
    let mut pair = [0.0f32; 2 * LANES];
    store_two(s, &mut pair, v0, v1);
    let n = texels.len().min(2 * LANES);
    texels[..n].copy_from_slice(&pair[..n]);
}

/// Two blocks' values into a whole pair's texels.
#[inline(always)]
fn store_two<W: Wide>(s: W, pair: &mut [f32; 2 * LANES], v0: W::F, v1: W::F) {
    let (lo, hi) = pair.split_at_mut(LANES);
    if let (Ok(lo), Ok(hi)) = (
        <&mut [f32; LANES]>::try_from(lo),
        <&mut [f32; LANES]>::try_from(hi),
    ) {
        s.store(lo, v0);
        s.store(hi, v1);
    }
}

/// [`blocks`] of one noise (`seed`, `kind`), from the axes' fixed points and cursors.
#[inline(always)]
fn single_blocks<W: Wide, K: WideKernel, const PRIME: bool, const X_ONLY: bool>(
    s: W,
    (seed, kind): (u32, &KindState),
    axes: &[RowAxis<W>; 4],
    (fixed, c): (&[AxisPoint<W>; 4], &mut [Cursor<W>; 4]),
    shift: Option<&RowShift>,
    out: &mut [f32],
) {
    // As in `blocks`: the rest of the row (under two blocks) is one more pair, in part.
    for (pair, texels) in out.chunks_mut(2 * LANES).enumerate() {
        let b = 2 * pair;
        let p0 = block_points::<W, K, X_ONLY>(s, axes, fixed, c, shift, b);
        let p1 = block_points::<W, K, X_ONLY>(s, axes, fixed, c, shift, b + 1);
        let v0 = K::block::<W, PRIME>(s, seed, kind, &p0);
        let v1 = K::block::<W, PRIME>(s, seed, kind, &p1);
        store_pair(s, texels, v0, v1);
    }
}

/// Block `b`'s points: x stepped, the other axes fixed (`X_ONLY`) or stepped, each moved by
/// the shift where given (then the weights are only the moved fractions'). The moving axes'
/// cursors are at block `b` and move on to the next.
#[inline(always)]
fn block_points<W: Wide, K: WideKernel, const X_ONLY: bool>(
    s: W,
    axes: &[RowAxis<W>; 4],
    fixed: &[AxisPoint<W>; 4],
    cursors: &mut [Cursor<W>; 4],
    shift: Option<&RowShift>,
    b: usize,
) -> [AxisPoint<W>; 4] {
    let mut p = *fixed;
    let moving = if X_ONLY { 1 } else { K::DIMS };
    let Some(shift) = shift else {
        for a in 0..moving {
            if let RowAxis::Moving { .. } = axes[a] {
                p[a] = cursors[a].point(s);
                cursors[a].advance(s);
            }
        }
        return p;
    };
    // A displaced row is never `X_ONLY` (`wide_row`); a fixed axis gives its point.
    let moved = shift_block(s, shift, b, K::DIMS);
    for a in 0..K::DIMS {
        let here = match axes[a] {
            RowAxis::Fixed(point) => (point.cell, point.frac),
            RowAxis::Moving { .. } => {
                let here = cursors[a].cell_frac(s);
                cursors[a].advance(s);
                here
            }
        };
        p[a] = shifted(s, here, moved[a]);
    }
    p
}

/// A wide kernel's rows per instruction set. Methods, not free functions: rustc builds a
/// method's copies in the codegen unit of its `Self` type's module, so each kind's rows
/// compile apart (in this module they were one unit that took most of the library's build
/// alone on one core; see `kernel::per_isa`).
trait WideRows: WideKernel + Sized {
    /// # Safety
    /// The CPU must have AVX-512 F, BW, DQ and VL.
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
    unsafe fn row_avx512<const PRIME: bool, const N: usize>(
        noises: &Noises<N>,
        row: &RowFrame,
        first: usize,
        shift: Option<&Shift>,
        outs: [&mut [f32]; N],
    ) {
        // SAFETY: this function runs only where the CPU has AVX-512 (its contract).
        let s = unsafe { Avx512::new() };
        wide_row::<Avx512, Self, PRIME, N>(s, noises, row, first, shift, outs)
    }

    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn row_avx2<const PRIME: bool, const N: usize>(
        noises: &Noises<N>,
        row: &RowFrame,
        first: usize,
        shift: Option<&Shift>,
        outs: [&mut [f32]; N],
    ) {
        // SAFETY: this function runs only where the CPU has AVX2 (its contract).
        let s = unsafe { Avx2::new() };
        wide_row::<Avx2, Self, PRIME, N>(s, noises, row, first, shift, outs)
    }
}

impl<K: WideKernel> WideRows for K {}

/// `K`'s wide row of `noises` on instruction set `ISA` (0: AVX-512, 1: AVX2).
///
/// # Safety
/// The CPU must have the instruction set.
unsafe fn wide_row_on<K: WideKernel, const ISA: u8, const PRIME: bool, const N: usize>(
    noises: &Noises<N>,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    outs: [&mut [f32]; N],
) {
    // SAFETY: the caller's contract.
    unsafe {
        match ISA {
            0 => K::row_avx512::<PRIME, N>(noises, row, first, shift, outs),
            _ => K::row_avx2::<PRIME, N>(noises, row, first, shift, outs),
        }
    }
}

/// The row function: `K`'s wide row on instruction set `ISA` (0: AVX-512, 1: AVX2) where the
/// row fits, else the lanes' kernel.
fn wide_or_lanes<K: WideKernel, const ISA: u8, const PRIME: bool>(
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    out: &mut [f32],
) {
    let isa = [InstructionSet::Avx512, InstructionSet::Avx2][ISA as usize];
    if fits::<K>(inputs) {
        let noises = Noises {
            kind: inputs.kind,
            seeds: [inputs.lat.hash_seed],
        };
        // SAFETY: `pick` returns this function only for an instruction set the CPU has.
        unsafe { wide_row_on::<K, ISA, PRIME, 1>(&noises, row, first, shift, [out]) };
        return;
    }
    let lattice = if PRIME {
        LatticeKind::Prime
    } else {
        LatticeKind::Hash
    };
    K::lanes(lattice, isa)(inputs, row, first, shift, out)
}

/// The pair row function: two noises of `K` in one wide row where both fit and only their
/// seeds differ (the kind's parameters and interpolation alike), else each its own row.
fn wide_pair_or_lanes<K: WideKernel, const ISA: u8, const PRIME: bool>(
    inputs: &[NoiseInputs; 2],
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    [a, b]: [&mut [f32]; 2],
) {
    let [i, j] = inputs;
    let alike = bytemuck::bytes_of(i.kind) == bytemuck::bytes_of(j.kind) && i.interp == j.interp;
    if alike && fits::<K>(i) && fits::<K>(j) {
        let noises = Noises {
            kind: i.kind,
            seeds: [i.lat.hash_seed, j.lat.hash_seed],
        };
        // SAFETY: `pick_pair` returns this function only for an instruction set the CPU has.
        unsafe { wide_row_on::<K, ISA, PRIME, 2>(&noises, row, first, shift, [a, b]) };
        return;
    }
    wide_or_lanes::<K, ISA, PRIME>(i, row, first, shift, a);
    wide_or_lanes::<K, ISA, PRIME>(j, row, first, shift, b);
}

/// `K`'s row function for a hash lattice on AVX-512 or AVX2 (available on this CPU), `None`
/// for the table lattice and other instruction sets.
pub fn pick<K: WideKernel>(lattice: LatticeKind, isa: InstructionSet) -> Option<NoiseRow> {
    if !isa.available() {
        return None;
    }
    Some(match (isa, lattice) {
        (InstructionSet::Avx512, LatticeKind::Prime) => wide_or_lanes::<K, 0, true>,
        (InstructionSet::Avx512, LatticeKind::Hash) => wide_or_lanes::<K, 0, false>,
        (InstructionSet::Avx2, LatticeKind::Prime) => wide_or_lanes::<K, 1, true>,
        (InstructionSet::Avx2, LatticeKind::Hash) => wide_or_lanes::<K, 1, false>,
        _ => return None,
    })
}

/// `K`'s pair row function ([`NoisePairRow`]) where [`pick`] has a row function.
pub fn pick_pair<K: WideKernel>(lattice: LatticeKind, isa: InstructionSet) -> Option<NoisePairRow> {
    if !isa.available() {
        return None;
    }
    Some(match (isa, lattice) {
        (InstructionSet::Avx512, LatticeKind::Prime) => wide_pair_or_lanes::<K, 0, true>,
        (InstructionSet::Avx512, LatticeKind::Hash) => wide_pair_or_lanes::<K, 0, false>,
        (InstructionSet::Avx2, LatticeKind::Prime) => wide_pair_or_lanes::<K, 1, true>,
        (InstructionSet::Avx2, LatticeKind::Hash) => wide_pair_or_lanes::<K, 1, false>,
        _ => return None,
    })
}

#[cfg(test)]
pub(crate) mod check;
