//! A flat job in lanes: octaves outermost over a row, each octave's kind kernel (picked once
//! per job and instruction set from the kinds' table) adding `weight * fractal_term(n)` per
//! texel, as the GPU's `fractal_noise_texel` sums them.

use crate::job::{FlatView, Job};
use crate::kinds::lattice::kernel::OctaveInputs;
use crate::kinds::lattice::lane_hash::LaneLattice;
use crate::kinds::lattice::lanes::RowFrame;
use crate::kinds::{Fractal, InstructionSet, LatticeKind, OctaveRow};
use crate::tables::{PERM_LEN, TABLE_SIZE, perm_windows};
use crate::wgsl::host::NoiseState;

/// A flat job as the lanes read it: the GPU's uniform, the octaves' values in f32 (as the
/// GPU's table), the permutation windows and the row function of its kind.
pub(super) struct FlatLanes<'a> {
    job: &'a Job,
    flat: &'a FlatView,
    state: NoiseState,
    values: Vec<[f32; TABLE_SIZE]>,
    windows: Vec<[u32; PERM_LEN]>,
    octave_row: OctaveRow,
}

impl<'a> FlatLanes<'a> {
    /// The lanes of a flat job on an available instruction set.
    pub(super) fn new(job: &'a Job, flat: &'a FlatView, isa: InstructionSet) -> Self {
        let octaves = flat.octaves();
        let spec = &flat.spec;
        let slots: Vec<u32> = (0..octaves as u32).collect();
        FlatLanes {
            job,
            flat,
            state: job.noise_state(&slots).unwrap_or_default(),
            values: (0..octaves)
                .map(|k| job.tables(k).values.map(|v| v as f32))
                .collect(),
            windows: (0..octaves)
                .map(|k| perm_windows(&job.tables(k).perm))
                .collect(),
            octave_row: (spec.kind.info().lanes)(
                spec.dims,
                spec.interp,
                spec.lattice == LatticeKind::Hash,
                isa,
            ),
        }
    }

    /// The noise of texels `(x0 + i, j, k)`, one per element of `out` (fractal_noise_texel).
    pub(super) fn render_row(&self, texel: [u32; 3], out: &mut [f32]) {
        let flat = self.flat;
        let spec = &flat.spec;
        out.fill(0.0);
        for o in 0..flat.octaves() {
            let tables = self.job.tables(o);
            let inputs = OctaveInputs {
                lat: LaneLattice {
                    perm: &tables.perm,
                    windows: &self.windows[o],
                    gradients: &tables.gradients,
                    values: &self.values[o],
                    period: self.state.period[o],
                    salt: tables.impulse_salt,
                    hash_seed: tables.hash_seed,
                    hashed: spec.lattice == LatticeKind::Hash,
                },
                kind: &self.state.kind,
                weight: self.state.octave[o].weight,
                fractal: spec.fractal,
                interp: spec.interp,
            };
            let f = &self.state.frame[o];
            let origin = std::array::from_fn(|a| [f.cell[a], f.word[a], f.low[a]]);
            let e = [f.step[0], f.step[1], f.step_low[0]];
            let d = [f.step[2], f.step[3], f.step_low[1]];
            let row = RowFrame::new(origin, e, d, spec.dims as usize, texel);
            (self.octave_row)(&inputs, &row, out);
        }
        if spec.fractal == Fractal::Ridged {
            for v in out.iter_mut() {
                *v = 2.0 * *v - 1.0;
            }
        }
    }
}
