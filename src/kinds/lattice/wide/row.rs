//! The wide rows' driver: a kernel's blocks over a row with its axes stepped in registers
//! (`frame`), compiled once per instruction set and lattice, and the `NoiseRow` that runs it
//! where a row fits and the lanes' kernel elsewhere.

use super::Wide;
use super::avx2::Avx2;
use super::avx512::Avx512;
use super::frame::{AxisPoint, Cursor, RowAxis, RowShift, shift_block, shifted};
use crate::kinds::lattice::kernel::{InstructionSet, NoiseInputs, NoiseRow};
use crate::kinds::lattice::lanes::{LANES, RowFrame, Shift, store_block};
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

/// `K`'s blocks over `out.len()` texels of `row` from texel `first`, each point moved by
/// `shift` cells (per axis, texel by texel) where given. A row that moves along x alone (an
/// unrotated frame, the common case) runs a loop of its own that takes the other axes once:
/// matching each axis for fixed or moving in every block cost value noise a tenth.
#[inline(always)]
fn wide_row<W: Wide, K: WideKernel, const PRIME: bool>(
    s: W,
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    out: &mut [f32],
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
        (true, None) => blocks::<W, K, PRIME, true>(s, inputs, &axes, first, None, out),
        (_, shift) => blocks::<W, K, PRIME, false>(s, inputs, &axes, first, shift, out),
    }
}

/// The block loop of [`wide_row`]: with `X_ONLY`, the axes past x are fixed (taken once).
/// Blocks go in pairs: a block is one long chain of dependent operations (hashes, gradients,
/// lerps), and two independent ones side by side keep the vector units busy while each waits
/// on its last result. (Functions, not closures: closures over vectors were not inlined.)
#[inline(always)]
fn blocks<W: Wide, K: WideKernel, const PRIME: bool, const X_ONLY: bool>(
    s: W,
    inputs: &NoiseInputs,
    axes: &[RowAxis<W>; 4],
    first: usize,
    shift: Option<&RowShift>,
    out: &mut [f32],
) {
    let seed = inputs.lat.hash_seed;
    let mut fixed = [axes[0].at(s, first); 4];
    let mut cursors = [axes[0].cursor(s, first); 4];
    for a in 1..K::DIMS {
        fixed[a] = axes[a].at(s, first);
        cursors[a] = axes[a].cursor(s, first);
    }
    let c = &mut cursors;
    let mut pairs = out.chunks_exact_mut(2 * LANES);
    let mut b = 0;
    for pair in &mut pairs {
        let p0 = block_points::<W, K, X_ONLY>(s, axes, &fixed, c, shift, b);
        let p1 = block_points::<W, K, X_ONLY>(s, axes, &fixed, c, shift, b + 1);
        let v0 = K::block::<W, PRIME>(s, seed, inputs.kind, &p0);
        let v1 = K::block::<W, PRIME>(s, seed, inputs.kind, &p1);
        let (lo, hi) = pair.split_at_mut(LANES);
        if let (Ok(lo), Ok(hi)) = (
            <&mut [f32; LANES]>::try_from(lo),
            <&mut [f32; LANES]>::try_from(hi),
        ) {
            s.store(lo, v0);
            s.store(hi, v1);
        }
        b += 2;
    }
    for texels in pairs.into_remainder().chunks_mut(LANES) {
        let p = block_points::<W, K, X_ONLY>(s, axes, &fixed, c, shift, b);
        let mut block = [0.0f32; LANES];
        s.store(&mut block, K::block::<W, PRIME>(s, seed, inputs.kind, &p));
        store_block(texels, &block);
        b += 1;
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

/// # Safety
/// The CPU must have AVX-512 F, BW, DQ and VL.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
unsafe fn row_avx512<K: WideKernel, const PRIME: bool>(
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    out: &mut [f32],
) {
    // SAFETY: this function runs only where the CPU has AVX-512 (its contract).
    let s = unsafe { Avx512::new() };
    wide_row::<Avx512, K, PRIME>(s, inputs, row, first, shift, out)
}

/// # Safety
/// The CPU must have AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
unsafe fn row_avx2<K: WideKernel, const PRIME: bool>(
    inputs: &NoiseInputs,
    row: &RowFrame,
    first: usize,
    shift: Option<&Shift>,
    out: &mut [f32],
) {
    // SAFETY: this function runs only where the CPU has AVX2 (its contract).
    let s = unsafe { Avx2::new() };
    wide_row::<Avx2, K, PRIME>(s, inputs, row, first, shift, out)
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
        // SAFETY: `pick` returns this function only for an instruction set the CPU has.
        unsafe {
            match ISA {
                0 => row_avx512::<K, PRIME>(inputs, row, first, shift, out),
                _ => row_avx2::<K, PRIME>(inputs, row, first, shift, out),
            }
        }
        return;
    }
    let lattice = if PRIME {
        LatticeKind::Prime
    } else {
        LatticeKind::Hash
    };
    K::lanes(lattice, isa)(inputs, row, first, shift, out)
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

/// The check every wide kernel's tests run.
#[cfg(test)]
pub(crate) mod check {
    use super::*;
    use crate::kinds::lattice::lane_hash::LaneLattice;
    use crate::kinds::lattice::lanes::MOD_96;
    use crate::tables::{OctaveTables, perm_windows};

    /// Displacements of `len` texels per axis: small and large, negative, 2^31 cells and more
    /// (saturating), NaN (no move), as a warp may give them.
    fn shifts(len: usize) -> [Vec<f32>; 4] {
        let edge = [
            0.3,
            -0.7,
            24.75,
            -31.5,
            3e9,
            -3e9,
            f32::NAN,
            1e-7,
            -2.0,
            0.999_999_9,
        ];
        std::array::from_fn(|a| {
            (0..len)
                .map(|t| {
                    let n = t * 7 + a * 3;
                    if n % 11 == 0 {
                        edge[(n / 11) % edge.len()]
                    } else {
                        ((n % 97) as f32 - 48.0) * 0.173
                    }
                })
                .collect()
        })
    }

    /// Displacements mapped into cells as a plan maps them ([`Shift::mapped`]), in each form
    /// a row resolves ([`RowShift`]): one term a row (a warp's frequencies, here permuted),
    /// the same after a one-term Linear (a fractal octave's scale), and rows of two terms (a
    /// rotation).
    fn mapped_shifts(d: [&[f32]; 4], dims: usize) -> [Shift<'_>; 3] {
        const PERMUTED: [[f32; 4]; 4] = [
            [0.0, 0.3, 0.0, 0.0],
            [0.7, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, -1.5],
            [0.0, 0.0, 1.0, 0.0],
        ];
        const SCALE: [[f32; 4]; 4] = [
            [2.0, 0.0, 0.0, 0.0],
            [0.0, -0.5, 0.0, 0.0],
            [0.0, 0.0, 4.0, 0.0],
            [0.0, 0.0, 0.0, 0.125],
        ];
        const TURNED: [[f32; 4]; 4] = [
            [0.6, 0.8, 0.0, 0.0],
            [-0.8, 0.6, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.9],
            [0.0, 0.0, 1.0, 0.0],
        ];
        [
            Shift::mapped(d, None, &PERMUTED, dims),
            Shift::mapped(d, Some(&SCALE), &PERMUTED, dims),
            Shift::mapped(d, Some(&SCALE), &TURNED, dims),
        ]
    }

    /// A coordinate in cells as the frames' Q32.64 words, modulo 2^96.
    fn fixed(c: f64) -> u128 {
        ((c * 2f64.powi(64)) as i128 as u128) & MOD_96
    }

    /// `K`'s wide rows equal the lanes' rows on every instruction set this CPU has and both
    /// hash lattices, value for value (a zero's sign aside: a kernel may leave out the lanes'
    /// additions of zero terms), over rows that start near the origin, below zero and far out,
    /// move along x alone or along every axis (rotated frames), with steps whose low words
    /// carry, long and short, with and without displacements; `kind` holds the kind's
    /// parameters.
    pub fn wide_rows_equal_lanes<K: WideKernel>(kind: &KindState) {
        let tables = OctaveTables::new(5, 3);
        let windows = perm_windows(&tables.perm);
        let values = tables.values.map(|v| v as f32);
        let rows = [
            ([0.0, 0.0, 0.0], [1.0 / 32.0, 0.0, 0.0]),
            ([-3.3, 1.7, 2.2], [0.037_1, 0.0, 0.0]),
            ([1e9 + 0.37, -2.5e8, 5.5], [0.1, 0.0, 0.0]),
            ([4_294_967_290.5, 7.25, -1.0], [1.0 / 3.0, 0.0, 0.0]),
            ([-7e11, 2e9, 3e5], [0.712_345_678_9, 0.0, 0.0]),
            ([12.5, -0.25, 8.0], [0.031, 0.017_3, -0.011]),
            ([-2e9, 3e9, 1e10], [0.5, -0.3, 0.9]),
        ];
        let mut checked = 0;
        for isa in [InstructionSet::Avx512, InstructionSet::Avx2] {
            for lattice in [LatticeKind::Prime, LatticeKind::Hash] {
                let Some(wide) = pick::<K>(lattice, isa) else {
                    continue;
                };
                let lanes = K::lanes(lattice, isa);
                let inputs = NoiseInputs {
                    lat: LaneLattice {
                        perm: &tables.perm,
                        windows: &windows,
                        gradients: &tables.gradients,
                        values: &values,
                        period: [0; 4],
                        salt: tables.impulse_salt,
                        hash_seed: tables.hash_seed,
                        hashed: true,
                        prime: lattice == LatticeKind::Prime,
                        share_corners: true,
                    },
                    kind,
                    interp: Interp::Quintic,
                };
                for (start, step) in rows {
                    let frame = |c: [f64; 3]| [fixed(c[0]), fixed(c[1]), fixed(c[2]), 0];
                    let row = RowFrame::new(frame(start), frame(step), K::DIMS);
                    for (first, len) in [(0, LANES * 37 + 5), (123, 3), (16, 64)] {
                        let cells = shifts(len);
                        let d = [&cells[0][..], &cells[1][..], &cells[2][..], &cells[3][..]];
                        for shift in [None, Some(Shift::Cells(&cells))]
                            .into_iter()
                            .chain(mapped_shifts(d, K::DIMS).map(Some))
                        {
                            let (mut want, mut got) = (vec![0.0f32; len], vec![1.0f32; len]);
                            lanes(&inputs, &row, first, shift.as_ref(), &mut want);
                            wide(&inputs, &row, first, shift.as_ref(), &mut got);
                            let moved = shift.is_some();
                            assert_eq!(
                                want, got,
                                "{isa:?} {lattice:?}: row at {start:?} step {step:?} from \
                                 {first}, displaced {moved}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        // This CPU has AVX2 at least (CI and every x86-64 machine this project runs on).
        assert!(
            checked > 0,
            "no wide row ran: this CPU has neither AVX-512 nor AVX2"
        );
    }
}
