//! Any plan in lanes (CONVENTIONS §13): the graph kernel's steps in the GPU's f32, in order,
//! over segments of a row. Each register is a run of one segment's lanes (a displacement four
//! runs, one per axis; segments as long as the registers fit the L2 cache, up to 1024
//! texels); a noise step runs its kind's kernel over the segment (the kinds' [`NoiseRow`]),
//! every other step the shared functions of `graph::ops` lane by lane (`values`), so the
//! SIMD backend computes what the generated WGSL computes, as the GPU's numbers (f32 state,
//! f32 tables, the frames' exact words) give it; the point and displacement steps are in
//! `points`. Two noise steps whose seeds alone differ (a warp's axes) run as one pair where
//! the kind has a pair row (`noise_pairs`). A flat job is the plan `fractal(kind)`: its octaves' registers, then their sum
//! (as fast as adding each octave into the sum from its kernel, measured). With gradients the
//! same steps run forward mode (`dual`).

mod dual;
mod pairs;
mod points;
mod values;

use crate::graph::plan::Step;
use crate::job::Job;
use crate::kinds::lattice::kernel::NoiseInputs;
use crate::kinds::lattice::lane_hash::LaneLattice;
use crate::kinds::lattice::lanes::{LANES, RowFrame, Shift};
use crate::kinds::{InstructionSet, Interp, KindState, LatticeKind, NoiseRow, NoiseRowD};
use crate::spec::frames::OctaveFrame;
use crate::tables::{PERM_LEN, TABLE_SIZE, perm_windows};
use pairs::{Pair, noise_pairs};
use points::{coordinate_row, displace, linear};
use values::value_step;

/// Register floats of one segment: 512 KiB, about a core's L2 cache.
const REGISTER_BUDGET: usize = 128 * 1024;
/// The longest segment: long enough that the per-segment work (the fixed axes' points, the
/// sums' start and finish) is a small part of a row.
const MAX_SEGMENT: usize = 64 * LANES;

/// One table slot as the lanes read it: the permutation's windows and the values in f32.
struct LaneTables {
    windows: Box<[u32; PERM_LEN]>,
    values: Box<[f32; TABLE_SIZE]>,
}

/// One noise instance as the lanes run it: its kernel, kind state, lattice and displacement
/// map, the numbers the GPU's `GraphInstance` and `KindState` hold.
struct NoiseLanes {
    row: NoiseRow,
    kind: KindState,
    interp: Interp,
    period: [i32; 4],
    slot: usize,
    delta_map: [[f32; 4]; 4],
}

impl NoiseLanes {
    /// Every noise instance of `job`'s plan, its row on `lattice` and `isa`.
    fn of_plan(job: &Job, lattice: LatticeKind, isa: InstructionSet) -> Vec<NoiseLanes> {
        let plan = job.plan();
        (plan.instances.iter().enumerate())
            .map(|(i, inst)| NoiseLanes {
                row: (inst.kind.info()).row(plan.dims as u32, inst.interp, lattice, isa),
                kind: KindState::new(&inst.params),
                interp: inst.interp,
                period: job.period(i).map(|p| p as i32),
                slot: inst.tables,
                delta_map: inst.delta_map.map(|row| row.map(|x| x as f32)),
            })
            .collect()
    }
}

/// A plan ready for the lanes.
pub(super) struct PlanLanes<'a> {
    job: &'a Job,
    isa: InstructionSet,
    dims: usize,
    lattice: LatticeKind,
    tables: Vec<LaneTables>,
    noises: Vec<NoiseLanes>,
    /// With gradients: each noise's dual kernel (`None` for kinds without derivatives).
    duals: Vec<Option<NoiseRowD>>,
    /// With gradients: each noise's, then each coordinate's root-to-lattice map and frequency.
    maps: Vec<(dual::Map, f32)>,
    gradient: bool,
    steps: Vec<Step<f32>>,
    /// Linear steps whose every reader is a noise's displacement: those noises map from the
    /// Linear's input themselves ([`Shift::Mapped`]), and the step is not run (values only).
    fused: Vec<bool>,
    /// Noise steps run together with a later one (`pairs`): step i's pair row also writes
    /// step j's register, and step j is not run (values only).
    pairs: Vec<Option<Pair>>,
    paired: Vec<bool>,
    /// Each step's first register run; a value takes one run, a displacement four.
    runs: Vec<usize>,
    total_runs: usize,
    /// Texels per segment, a multiple of LANES.
    segment: usize,
}

/// A row's scratch: every register of a segment, one displacement in lattice cells, and with
/// gradients one noise's lattice gradient.
pub(super) struct Scratch {
    /// Each noise's row frame, moved from row to row: the lanes' offsets along a row are
    /// the same on every row (computing them per row took 3.5% of a 1024-wide terrain).
    frames: Vec<RowFrame>,
    registers: Vec<f32>,
    shift: [Vec<f32>; 4],
    lattice: [Vec<f32>; 4],
}

/// The row of `frame` through image texel `texel` and along x, as the lanes step it.
fn row_frame(frame: &OctaveFrame, texel: [u32; 3], dims: usize) -> RowFrame {
    let step = frame.step[0].map(|s| s.0 as u128);
    RowFrame::new(row_start(frame, texel), step, dims)
}

/// The coordinate of image texel `texel` in `frame`, per lattice axis.
fn row_start(frame: &OctaveFrame, texel: [u32; 3]) -> [u128; 4] {
    frame.texel_coordinates(texel).map(|l| l.0 as u128)
}

impl<'a> PlanLanes<'a> {
    /// The lanes of `job`'s plan on an available instruction set.
    pub(super) fn new(job: &'a Job, isa: InstructionSet) -> Self {
        let plan = job.plan();
        // One lattice for the whole plan (a graph's `lattice`).
        let lattice = plan
            .instances
            .first()
            .map_or(LatticeKind::Table, |i| i.lattice);
        let tables = plan
            .tables
            .iter()
            .map(|t| LaneTables {
                windows: Box::new(perm_windows(&t.perm)),
                values: Box::new(t.values.map(|v| v as f32)),
            })
            .collect();
        let noises = NoiseLanes::of_plan(job, lattice, isa);
        let gradient = job.has_gradient();
        let duals = (plan.instances.iter())
            .map(|inst| {
                let row_d = inst.kind.info().lanes_dual.filter(|_| gradient)?;
                Some(row_d(plan.dims as u32, inst.interp, lattice, isa))
            })
            .collect();
        let f32_map = |m: &crate::spec::frames::Mat| m.map(|row| row.map(|x| x as f32));
        let maps = (plan.instances.iter())
            .map(|i| (f32_map(&i.points.map), i.frequency as f32))
            .chain((plan.coordinates.iter()).map(|c| (f32_map(&c.points.map), c.frequency as f32)))
            .collect();
        let (mut runs, mut total_runs) = (Vec::with_capacity(plan.steps.len()), 0);
        for step in &plan.steps {
            runs.push(total_runs);
            total_runs += match (gradient, step.is_vector()) {
                (false, false) => 1,
                (false, true) => 4,
                (true, false) => dual::VALUE_RUNS,
                (true, true) => dual::VECTOR_RUNS,
            };
        }
        let steps: Vec<Step<f32>> = plan.steps.iter().map(Step::to_f32).collect();
        // With gradients each noise runs its dual row alone.
        let (pairs, paired) = match gradient {
            false => noise_pairs(job, &steps, &noises, lattice, isa),
            true => (vec![None; steps.len()], vec![false; steps.len()]),
        };
        PlanLanes {
            job,
            isa,
            dims: plan.dims,
            lattice,
            tables,
            noises,
            duals,
            maps,
            gradient,
            steps,
            fused: fused_linears(&plan.steps, plan.output),
            pairs,
            paired,
            runs,
            total_runs,
            segment: (REGISTER_BUDGET / total_runs.max(1) / LANES * LANES)
                .clamp(LANES, MAX_SEGMENT),
        }
    }

    /// A thread's scratch for [`render_row`](Self::render_row): every register of a segment.
    pub(super) fn scratch(&self) -> Scratch {
        let lattice_runs = if self.gradient { self.segment } else { 0 };
        Scratch {
            frames: (self.job.frames().iter())
                .map(|f| row_frame(f, [0; 3], self.dims))
                .collect(),
            registers: vec![0.0; self.total_runs * self.segment],
            shift: std::array::from_fn(|_| vec![0.0; self.segment]),
            lattice: std::array::from_fn(|_| vec![0.0; lattice_runs]),
        }
    }

    /// The plan's value at texels `(x0 + i, j, k)`, one per element of `out`; with
    /// gradients `[value, d/dx, d/dy, d/dz]`, four per texel.
    pub(super) fn render_row(&self, scratch: &mut Scratch, texel: [u32; 3], out: &mut [f32]) {
        let mut frames = std::mem::take(&mut scratch.frames);
        for (row, frame) in frames.iter_mut().zip(self.job.frames()) {
            row.move_to(row_start(frame, texel), self.dims);
        }
        let output = self.runs[self.job.plan().output] * self.segment;
        let per_texel = if self.gradient { 4 } else { 1 };
        for (s, texels) in out.chunks_mut(self.segment * per_texel).enumerate() {
            let n = texels.len() / per_texel;
            let first = s * self.segment;
            if self.gradient {
                self.segment_on_isa::<true>(&frames, first, n, scratch, None);
                for (i, texel) in texels.chunks_exact_mut(4).enumerate() {
                    for (c, v) in texel.iter_mut().enumerate() {
                        *v = scratch.registers[output + c * self.segment + i];
                    }
                }
            } else if self.job.plan().output + 1 == self.steps.len() {
                // The last step writes the texels itself: no copy out of its register.
                self.segment_on_isa::<false>(&frames, first, n, scratch, Some(texels));
            } else {
                self.segment_on_isa::<false>(&frames, first, n, scratch, None);
                texels.copy_from_slice(&scratch.registers[output..output + n]);
            }
        }
        scratch.frames = frames;
    }

    /// Every step over `n` texels of the segment starting at row texel `first`, compiled for
    /// the plan's instruction set: the value steps' lane loops then run as wide as the noise
    /// kernels' (in the baseline's 4 lanes they took a sixth of the terrain example's time).
    /// (`DUAL`: with gradients.)
    fn segment_on_isa<const DUAL: bool>(
        &self,
        frames: &[RowFrame],
        first: usize,
        n: usize,
        scratch: &mut Scratch,
        last: Option<&mut [f32]>,
    ) {
        let at = (first, n);
        match self.isa {
            // SAFETY: `new` took `isa` from the caller, who checked it is available (the
            // kernels picked for it assert so).
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => unsafe {
                self.segment_avx512::<DUAL>(frames, at, scratch, last)
            },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2 => unsafe { self.segment_avx2::<DUAL>(frames, at, scratch, last) },
            _ => self.segment_steps::<DUAL>(frames, at, scratch, last),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn segment_avx512<const DUAL: bool>(
        &self,
        frames: &[RowFrame],
        at: (usize, usize),
        scratch: &mut Scratch,
        last: Option<&mut [f32]>,
    ) {
        self.segment_steps::<DUAL>(frames, at, scratch, last)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
    fn segment_avx2<const DUAL: bool>(
        &self,
        frames: &[RowFrame],
        at: (usize, usize),
        scratch: &mut Scratch,
        last: Option<&mut [f32]>,
    ) {
        self.segment_steps::<DUAL>(frames, at, scratch, last)
    }

    /// The steps over the `n` texels of the segment from row texel `first` (`at`); the last
    /// writes into `last` where given, instead of its register.
    #[inline(always)]
    fn segment_steps<const DUAL: bool>(
        &self,
        frames: &[RowFrame],
        (first, n): (usize, usize),
        scratch: &mut Scratch,
        mut last: Option<&mut [f32]>,
    ) {
        let steps = self.steps.len();
        for i in 0..steps {
            if DUAL {
                self.step_d(i, frames, first, n, scratch);
            } else if !self.fused[i] && !self.paired[i] {
                let out = if i + 1 == steps { last.take() } else { None };
                self.step(i, frames, (first, n), scratch, out);
            }
        }
    }

    /// Step `i` over `n` texels of the segment starting at row texel `first`, into its
    /// register or, for a value, into `direct` where given.
    #[inline(always)]
    fn step(
        &self,
        i: usize,
        frames: &[RowFrame],
        (first, n): (usize, usize),
        scratch: &mut Scratch,
        direct: Option<&mut [f32]>,
    ) {
        let Scratch { registers, .. } = scratch;
        let (done, rest) = registers.split_at_mut(self.runs[i] * self.segment);
        let regs = Registers {
            done,
            runs: &self.runs,
            segment: self.segment,
            n,
        };
        if let (Step::Noise { instance, delta }, Some(pair)) = (&self.steps[i], self.pairs[i]) {
            let map = &self.noises[*instance].delta_map;
            let shift = delta.map(|d| self.mapped(&regs, d, map));
            let (mine, theirs) =
                rest.split_at_mut((self.runs[pair.step] - self.runs[i]) * self.segment);
            let inputs = [self.inputs(*instance), self.inputs(pair.instance)];
            let outs = [&mut mine[..n], &mut theirs[..n]];
            (pair.row)(&inputs, &frames[*instance], first, shift.as_ref(), outs);
            return;
        }
        let value_out = match direct {
            Some(out) => out,
            None => &mut rest[..n],
        };
        match &self.steps[i] {
            Step::Noise { instance, delta } => {
                let map = &self.noises[*instance].delta_map;
                let shift = delta.map(|d| self.mapped(&regs, d, map));
                self.noise(
                    *instance,
                    &frames[*instance],
                    first,
                    shift.as_ref(),
                    value_out,
                );
            }
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => {
                let frequency = self.job.plan().coordinates[*instance].frequency as f32;
                let map: [[f32; 4]; 4] = std::array::from_fn(|a| {
                    std::array::from_fn(|b| if a == b { frequency } else { 0.0 })
                });
                let shift = delta.map(|d| self.mapped(&regs, d, &map));
                let index = self.noises.len() + instance;
                let origin = self.job.frames()[index].origin[*axis];
                let row = &frames[index];
                coordinate_row(row, origin, *axis, first, shift.as_ref(), value_out);
            }
            Step::Linear { input, m } => linear(&regs, *input, m, &mut rest[..4 * self.segment]),
            Step::Displace {
                base,
                by,
                amplitude,
            } => displace(&regs, *base, by, *amplitude, &mut rest[..4 * self.segment]),
            step => value_step(step, &regs, value_out),
        }
    }

    /// Displacement register `d` mapped into lattice cells by `map`, block by block in the
    /// noise's row: through the Linear step that makes `d` where that step is fused.
    fn mapped<'r>(&self, regs: &Registers<'r>, d: usize, map: &[[f32; 4]; 4]) -> Shift<'r> {
        match &self.steps[d] {
            Step::Linear { input, m } if self.fused[d] => {
                Shift::mapped(regs.axes(*input), Some(m), map, self.dims)
            }
            _ => Shift::mapped(regs.axes(d), None, map, self.dims),
        }
    }

    /// Noise instance `i` over a segment, its points moved by `shift` where given.
    fn noise(
        &self,
        i: usize,
        row: &RowFrame,
        first: usize,
        shift: Option<&Shift>,
        out: &mut [f32],
    ) {
        (self.noises[i].row)(&self.inputs(i), row, first, shift, out);
    }

    /// What noise instance `i`'s kernels read: its lattice, kind state and interpolation.
    fn inputs(&self, i: usize) -> NoiseInputs<'_> {
        let noise = &self.noises[i];
        let tables = self.job.tables(i);
        let lanes = &self.tables[noise.slot];
        NoiseInputs {
            lat: LaneLattice {
                perm: &tables.perm,
                windows: &lanes.windows,
                gradients: &tables.gradients,
                values: &lanes.values,
                period: noise.period,
                salt: tables.impulse_salt,
                hash_seed: tables.hash_seed,
                hashed: self.lattice != LatticeKind::Table,
                prime: self.lattice == LatticeKind::Prime,
                // Set per compiled kernel (`kernel::noise_row`, `lane_dual::noise_row_d`).
                share_corners: true,
            },
            kind: &noise.kind,
            interp: noise.interp,
        }
    }
}

/// The registers a step reads: those of the steps before it.
struct Registers<'r> {
    done: &'r [f32],
    runs: &'r [usize],
    segment: usize,
    /// Texels in this segment (the row's last may be short).
    n: usize,
}

impl<'r> Registers<'r> {
    /// Value register `k` over the segment's texels.
    fn value(&self, k: usize) -> &'r [f32] {
        let at = self.runs[k] * self.segment;
        &self.done[at..at + self.n]
    }

    /// Axis `a` of displacement register `k`.
    fn axis(&self, k: usize, a: usize) -> &'r [f32] {
        let at = (self.runs[k] + a) * self.segment;
        &self.done[at..at + self.n]
    }

    /// Every axis of displacement register `k`.
    fn axes(&self, k: usize) -> [&'r [f32]; 4] {
        [
            self.axis(k, 0),
            self.axis(k, 1),
            self.axis(k, 2),
            self.axis(k, 3),
        ]
    }
}

/// Which steps are Linear steps read only as noises' displacements (not the output): each such
/// noise maps the Linear's input itself, and the Linear need not run.
fn fused_linears<R>(steps: &[Step<R>], output: usize) -> Vec<bool> {
    let mut fused: Vec<bool> = (steps.iter().enumerate())
        .map(|(i, s)| matches!(s, Step::Linear { .. }) && i != output)
        .collect();
    for step in steps {
        let (values, vectors) = step.inputs();
        let by_noise = matches!(step, Step::Noise { .. });
        for k in values
            .into_iter()
            .chain(vectors.into_iter().filter(|_| !by_noise))
        {
            fused[k] = false;
        }
    }
    fused
}
