//! The SIMD CPU backend: the WGSL kernels ported to f32 and evaluated 16 texels at a time in
//! SIMD lanes (AVX-512, AVX2 or the baseline, chosen at run time), rows in parallel with the
//! `parallel` feature. It reads the very uniform the GPU reads ([`NoiseState`]: the octaves'
//! 32.32 frames, f32 weights and kind parameters) and the twin's tables and integer hashing,
//! so it computes the GPU's f32 noise on the GPU's points; tests hold it to the GPU's bound of
//! the f64 twin (CONVENTIONS §7), which stays the oracle.
//!
//! Function names mirror the WGSL's (`perlin3`, `corner_hashes3`, `cellular_search`, ...);
//! each takes a block of lanes (`lanes::Points`) and a lane index, or a whole block.

// Lane loops index several arrays by the lane; iterator rewrites would hide the mirror.
#![allow(clippy::needless_range_loop)]

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::gpu::state::NoiseState;
use crate::kinds::lattice::kernel::OctaveInputs;
use crate::kinds::lattice::lane_hash::LaneLattice;
use crate::kinds::lattice::lanes::RowFrame;
pub use crate::kinds::{InstructionSet, OctaveRow};
use crate::spec::{Fractal, LatticeKind, Prepared};
use crate::tables::{PERM_LEN, TABLE_SIZE, perm_windows};
use crate::window::Window;

/// Renders every texel as f32, memory order x fastest, then y, then z (CONVENTIONS §1).
pub fn render_f32(prep: &Prepared) -> Result<Vec<f32>> {
    render_window_f32(prep, Window::full(prep.spec().size))
}

/// Renders the texels of `window` (inside the image, at most
/// [`MAX_TEXELS`](crate::limits::MAX_TEXELS)).
pub fn render_window_f32(prep: &Prepared, window: Window) -> Result<Vec<f32>> {
    render_window_on(InstructionSet::detect(), prep, window)
}

/// [`render_window_f32`] on a given instruction set; an error where this CPU lacks it.
pub fn render_window_on(isa: InstructionSet, prep: &Prepared, window: Window) -> Result<Vec<f32>> {
    if !isa.available() {
        return Err(Error::Unsupported(format!(
            "the SIMD backend's {} lanes: this CPU lacks the instructions",
            isa.name()
        )));
    }
    window.check_inside(prep.spec().size)?;
    window.check_in_memory()?;
    let mut out = vec![0.0; window.texels() as usize];
    render_into(&Plan::new(prep, isa), window, &mut out, &|_, _| {});
    Ok(out)
}

/// Renders `window` into `out` (one value per texel, x fastest), calling
/// `progress(rows_done, rows_total)` after each row, from any thread.
pub fn render_window_into(
    prep: &Prepared,
    window: Window,
    out: &mut [f32],
    progress: &(dyn Fn(u64, u64) + Sync),
) {
    render_into(
        &Plan::new(prep, InstructionSet::detect()),
        window,
        out,
        progress,
    );
}

fn render_into(plan: &Plan, window: Window, out: &mut [f32], progress: &(dyn Fn(u64, u64) + Sync)) {
    let height = window.size.height;
    let [x0, y0, z0] = window.origin;
    let rows_total = window.size.rows();
    let rows_done = AtomicU64::new(0);
    let render_one = |(row, texels): (usize, &mut [f32])| {
        let j = y0 + row as u32 % height;
        let k = z0 + row as u32 / height;
        plan.render_row([x0, j, k], texels);
        progress(rows_done.fetch_add(1, Ordering::Relaxed) + 1, rows_total);
    };
    let width = window.size.width as usize;
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        // As the scalar backend: a small window runs on this thread.
        if out.len() < crate::cpu::MIN_PARALLEL_TEXELS {
            out.chunks_mut(width).enumerate().for_each(render_one);
        } else {
            out.par_chunks_mut(width).enumerate().for_each(render_one);
        }
    }
    #[cfg(not(feature = "parallel"))]
    out.chunks_mut(width).enumerate().for_each(render_one);
}

/// A prepared spec as the lanes read it: the GPU's uniform, the octaves' values in f32 (as the
/// GPU's table) and the row function of its kind.
struct Plan<'a> {
    prep: &'a Prepared,
    state: NoiseState,
    values: Vec<[f32; TABLE_SIZE]>,
    windows: Vec<[u32; PERM_LEN]>,
    octave_row: OctaveRow,
}

impl<'a> Plan<'a> {
    fn new(prep: &'a Prepared, isa: InstructionSet) -> Self {
        let spec = prep.spec();
        let slots: Vec<u32> = (0..prep.octaves().len() as u32).collect();
        Plan {
            prep,
            state: NoiseState::new(prep, &slots),
            values: prep
                .octaves()
                .iter()
                .map(|o| o.tables().values.map(|v| v as f32))
                .collect(),
            windows: prep
                .octaves()
                .iter()
                .map(|o| perm_windows(&o.tables().perm))
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
    fn render_row(&self, texel: [u32; 3], out: &mut [f32]) {
        let spec = self.prep.spec();
        out.fill(0.0);
        for (o, octave) in self.prep.octaves().iter().enumerate() {
            let tables = octave.tables();
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
            let row = RowFrame::new((f.cell, f.word, f.step), spec.dims as usize, texel);
            (self.octave_row)(&inputs, &row, out);
        }
        if spec.fractal == Fractal::Ridged {
            for v in out.iter_mut() {
                *v = 2.0 * *v - 1.0;
            }
        }
    }
}
