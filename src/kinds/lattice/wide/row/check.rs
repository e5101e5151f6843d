//! The check every wide kernel's tests run: its wide rows (and pair rows) against the lanes'
//! rows, case by case.

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

/// One row a check runs: the noise's inputs, its row frame, the texels and the shift.
pub(crate) struct Case<'a> {
    pub isa: InstructionSet,
    pub lattice: LatticeKind,
    pub inputs: NoiseInputs<'a>,
    pub row: RowFrame,
    pub first: usize,
    pub len: usize,
    pub shift: Option<Shift<'a>>,
}

impl Case<'_> {
    /// What the case names in a failure.
    fn what(&self) -> String {
        let (isa, lattice, first) = (self.isa, self.lattice, self.first);
        let moved = self.shift.is_some();
        format!(
            "{isa:?} {lattice:?}: row {:?} from {first}, displaced {moved}",
            self.row
        )
    }
}

/// Every case of the wide rows' checks, on every instruction set this CPU has and both
/// hash lattices: rows that start near the origin, below zero and far out, move along x
/// alone or along every axis (rotated frames), with steps whose low words carry, long and
/// short, with and without displacements; `kind` holds the kind's parameters. Returns how
/// many ran.
fn for_each_case<K: WideKernel>(kind: &KindState, mut check: impl FnMut(&Case)) -> usize {
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
            if pick::<K>(lattice, isa).is_none() {
                continue;
            }
            let lat = LaneLattice {
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
                        let inputs = NoiseInputs {
                            lat,
                            kind,
                            interp: Interp::Quintic,
                        };
                        check(&Case {
                            isa,
                            lattice,
                            inputs,
                            row,
                            first,
                            len,
                            shift,
                        });
                        checked += 1;
                    }
                }
            }
        }
    }
    checked
}

/// `K`'s wide rows equal the lanes' rows, value for value (a zero's sign aside: a kernel
/// may leave out the lanes' additions of zero terms), on every case of [`for_each_case`].
pub fn wide_rows_equal_lanes<K: WideKernel>(kind: &KindState) {
    let checked = for_each_case::<K>(kind, |case| {
        let (Some(wide), lanes) = (
            pick::<K>(case.lattice, case.isa),
            K::lanes(case.lattice, case.isa),
        ) else {
            return;
        };
        let (mut want, mut got) = (vec![0.0f32; case.len], vec![1.0f32; case.len]);
        let (row, first, shift) = (&case.row, case.first, case.shift.as_ref());
        lanes(&case.inputs, row, first, shift, &mut want);
        wide(&case.inputs, row, first, shift, &mut got);
        assert_eq!(want, got, "{}", case.what());
    });
    // This CPU has AVX2 at least (CI and every x86-64 machine this project runs on).
    assert!(
        checked > 0,
        "no wide row ran: this CPU has neither AVX-512 nor AVX2"
    );
}

/// `K`'s pair rows equal the lanes' rows of each noise, under two seeds, on every case of
/// [`for_each_case`]; and a pair whose kind parameters differ runs each noise as its own.
pub fn pair_rows_equal_lanes<K: WideKernel>(kind: &KindState, other_kind: &KindState) {
    let checked = for_each_case::<K>(kind, |case| {
        let Some(pair) = pick_pair::<K>(case.lattice, case.isa) else {
            return;
        };
        let lanes = K::lanes(case.lattice, case.isa);
        let (row, first, shift) = (&case.row, case.first, case.shift.as_ref());
        for second in [kind, other_kind] {
            let other = NoiseInputs {
                lat: LaneLattice {
                    hash_seed: case.inputs.lat.hash_seed ^ 0x9E37_79B9,
                    ..case.inputs.lat
                },
                kind: second,
                interp: case.inputs.interp,
            };
            let mut want = [vec![0.0f32; case.len], vec![0.0f32; case.len]];
            lanes(&case.inputs, row, first, shift, &mut want[0]);
            lanes(&other, row, first, shift, &mut want[1]);
            let (mut a, mut b) = (vec![1.0f32; case.len], vec![1.0f32; case.len]);
            let inputs = [NoiseInputs { ..case.inputs }, other];
            pair(&inputs, row, first, shift, [&mut a, &mut b]);
            assert_ne!(
                want[0],
                want[1],
                "{}: the seeds give one noise",
                case.what()
            );
            assert_eq!(want, [a, b], "{}", case.what());
        }
    });
    assert!(
        checked > 0,
        "no pair row ran: this CPU has neither AVX-512 nor AVX2"
    );
}
