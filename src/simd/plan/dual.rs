//! Any plan in lanes with gradients (CONVENTIONS §13, "Derivatives"): forward mode, as the
//! GPU's generated `graph_value_d` and the twin's `cpu::plan_d` run it, in the GPU's f32.
//! A value register is four runs (value, d/dx, d/dy, d/dz); a displacement twenty (its four
//! axes, then its Jacobian `J[a][b] = dD_a/dx_b` row by row). A noise step runs its kind's dual
//! kernel (value and lattice gradient) and chains the gradient through `U + f J`, U its
//! root-to-lattice map, f its frequency and J its displacement's Jacobian; every other step
//! runs `graph::ops_d` lane by lane, the twin's functions in f32.

use super::points::{coordinate_row, lattice_shift};
use super::{PlanLanes, Registers, Scratch};
use crate::graph::ops_d::{TexelDual, fractal_finish_dual, fractal_term_dual, value_step_d};
use crate::graph::plan::Step;
use crate::kinds::Fractal;
use crate::kinds::lattice::lanes::{RowFrame, Shift};

/// Runs of a value register with gradients.
pub(super) const VALUE_RUNS: usize = 4;
/// Runs of a displacement register with its Jacobian.
pub(super) const VECTOR_RUNS: usize = 4 + 16;

/// A 4x4 map in f32.
pub(super) type Map = [[f32; 4]; 4];

impl Registers<'_> {
    /// Value register `k`'s dual at segment texel `i`.
    #[inline(always)]
    fn dual(&self, k: usize, i: usize) -> TexelDual<f32> {
        let at = self.runs[k] * self.segment + i;
        std::array::from_fn(|c| self.done[at + c * self.segment])
    }

    /// Entry `J[a][b]` of displacement register `k`'s Jacobian, over the segment's texels.
    fn jacobian(&self, k: usize, a: usize, b: usize) -> &[f32] {
        self.axis(k, 4 + 4 * a + b)
    }
}

/// Writes `d` at segment texel `i` of a value register starting at `out`.
#[inline(always)]
fn put(out: &mut [f32], segment: usize, i: usize, d: TexelDual<f32>) {
    for c in 0..4 {
        out[c * segment + i] = d[c];
    }
}

impl PlanLanes<'_> {
    /// Step `i` with gradients over `n` texels of the segment starting at row texel `first`.
    #[inline(always)]
    pub(super) fn step_d(
        &self,
        i: usize,
        frames: &[RowFrame],
        first: usize,
        n: usize,
        scratch: &mut Scratch,
    ) {
        let Scratch {
            registers,
            shift,
            lattice,
            ..
        } = scratch;
        let (done, rest) = registers.split_at_mut(self.runs[i] * self.segment);
        let regs = Registers {
            done,
            runs: &self.runs,
            segment: self.segment,
            n,
        };
        match &self.steps[i] {
            Step::Noise { instance, delta } => {
                if let Some(d) = delta {
                    let map = &self.noises[*instance].delta_map;
                    lattice_shift(&regs, *d, map, self.dims, shift);
                }
                let moved = delta.map(|_| &*shift);
                let row = &frames[*instance];
                self.noise_d(*instance, row, first, moved, &mut rest[..n], lattice);
                let (map, frequency) = &self.maps[*instance];
                chain(&regs, lattice, map, *frequency, *delta, rest);
            }
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => {
                let index = self.noises.len() + instance;
                let (map, frequency) = &self.maps[index];
                if let Some(d) = delta {
                    let scaled = std::array::from_fn(|a| {
                        std::array::from_fn(|b| if a == b { *frequency } else { 0.0 })
                    });
                    lattice_shift(&regs, *d, &scaled, self.dims, shift);
                }
                let moved = delta.map(|_| Shift::Cells(&*shift));
                let origin = self.job.frames()[index].origin[*axis];
                let row = &frames[index];
                coordinate_row(row, origin, *axis, first, moved.as_ref(), &mut rest[..n]);
                coordinate_gradient(&regs, map, *frequency, *axis, *delta, rest);
            }
            Step::Linear { input, m } => linear_d(&regs, *input, m, rest),
            Step::Displace {
                base,
                by,
                amplitude,
            } => displace_d(&regs, *base, by, *amplitude, rest),
            Step::Fractal { fractal, terms } => fractal_sum_d(*fractal, terms, &regs, rest),
            step => {
                for t in 0..n {
                    put(
                        rest,
                        self.segment,
                        t,
                        value_step_d(step, |k| regs.dual(k, t)),
                    );
                }
            }
        }
    }

    /// Noise instance `i`'s value (into `out`, one per texel) and lattice gradient (into
    /// `lattice`) over a segment, its points moved by `shift` where given.
    fn noise_d(
        &self,
        i: usize,
        row: &RowFrame,
        first: usize,
        shift: Option<&[Vec<f32>; 4]>,
        out: &mut [f32],
        lattice: &mut [Vec<f32>; 4],
    ) {
        let Some(dual) = self.duals[i] else {
            // Jobs refuse kinds without derivatives first (`Job::with_gradient`); NaN as the
            // twin and the GPU give.
            out.fill(f32::NAN);
            lattice.iter_mut().for_each(|g| g.fill(f32::NAN));
            return;
        };
        let inputs = self.inputs(i);
        let n = out.len();
        let [g0, g1, g2, g3] = lattice;
        let mut runs = [out, &mut g0[..n], &mut g1[..n], &mut g2[..n], &mut g3[..n]];
        dual(&inputs, row, first, shift, &mut runs);
    }
}

/// `d n / d x_b = sum_a g_a M[a][b]` with `M = U + f J` (noise_texel_d): the lattice gradient
/// chained into the texel gradient runs of `out`. Every one of the four lattice components
/// counts, as on the GPU and the twin (a 2D kind's corner gradients may have a third).
#[inline(always)]
fn chain(
    regs: &Registers,
    lattice: &[Vec<f32>; 4],
    map: &Map,
    frequency: f32,
    delta: Option<usize>,
    out: &mut [f32],
) {
    for b in 0..3 {
        let column = &mut out[(1 + b) * regs.segment..(1 + b) * regs.segment + regs.n];
        column.fill(0.0);
        for (a, g) in lattice.iter().enumerate() {
            match delta {
                None => {
                    let m = map[a][b];
                    for (o, &g) in column.iter_mut().zip(g) {
                        *o += g * m;
                    }
                }
                Some(d) => {
                    let jacobian = regs.jacobian(d, a, b);
                    for ((o, &g), &j) in column.iter_mut().zip(g).zip(jacobian) {
                        *o += g * (map[a][b] + frequency * j);
                    }
                }
            }
        }
    }
}

/// A coordinate's gradient: row `axis` of `U + f J`.
#[inline(always)]
fn coordinate_gradient(
    regs: &Registers,
    map: &Map,
    frequency: f32,
    axis: usize,
    delta: Option<usize>,
    out: &mut [f32],
) {
    for b in 0..3 {
        let column = &mut out[(1 + b) * regs.segment..(1 + b) * regs.segment + regs.n];
        column.fill(map[axis][b]);
        if let Some(d) = delta {
            for (o, &j) in column.iter_mut().zip(regs.jacobian(d, axis, b)) {
                *o += frequency * j;
            }
        }
    }
}

/// `m d` with its Jacobian `m J` (a Linear step).
#[inline(always)]
fn linear_d(regs: &Registers, input: usize, m: &Map, into: &mut [f32]) {
    let s = regs.segment;
    for a in 0..4 {
        // The displacement's axis a, then Jacobian row a, column by column.
        for (run, source) in
            std::iter::once((a, None)).chain((0..4).map(|b| (4 + 4 * a + b, Some(b))))
        {
            let out = &mut into[run * s..run * s + regs.n];
            out.fill(0.0);
            for k in 0..4 {
                if m[a][k] == 0.0 {
                    continue;
                }
                let from = match source {
                    None => regs.axis(input, k),
                    Some(b) => regs.jacobian(input, k, b),
                };
                for (o, &v) in out.iter_mut().zip(from) {
                    *o += m[a][k] * v;
                }
            }
        }
    }
}

/// `base + amplitude (by_0, by_1, ...)`: Jacobian row a is the base's plus amplitude times
/// by_a's gradient (a Displace step).
#[inline(always)]
fn displace_d(
    regs: &Registers,
    base: Option<usize>,
    by: &[usize],
    amplitude: f32,
    into: &mut [f32],
) {
    let s = regs.segment;
    for run in 0..VECTOR_RUNS {
        let out = &mut into[run * s..run * s + regs.n];
        match base {
            Some(k) => out.copy_from_slice(regs.axis(k, run)),
            None => out.fill(0.0),
        }
    }
    for (a, &k) in by.iter().enumerate() {
        let at = regs.runs[k] * s;
        for (c, run) in std::iter::once(a)
            .chain((0..3).map(|b| 4 + 4 * a + b))
            .enumerate()
        {
            let from = &regs.done[at + c * s..at + c * s + regs.n];
            for (o, &v) in into[run * s..run * s + regs.n].iter_mut().zip(from) {
                *o += amplitude * v;
            }
        }
    }
}

/// `fractal_finish_dual(sum of w_k fractal_term_dual(n_k))` over a segment, term by term in
/// the terms' order, so the lane loops vectorize: every flat job ends in one.
#[inline(always)]
fn fractal_sum_d(fractal: Fractal, terms: &[(usize, f32)], regs: &Registers, out: &mut [f32]) {
    let s = regs.segment;
    let (value, rest) = out.split_at_mut(s);
    let (dx, rest) = rest.split_at_mut(s);
    let (dy, dz) = rest.split_at_mut(s);
    let sums = [
        &mut value[..regs.n],
        &mut dx[..regs.n],
        &mut dy[..regs.n],
        &mut dz[..regs.n],
    ];
    let [value, dx, dy, dz] = sums;
    for run in [&mut *value, &mut *dx, &mut *dy, &mut *dz] {
        run.fill(0.0);
    }
    for &(k, w) in terms {
        let [v, gx, gy, gz]: [&[f32]; 4] = std::array::from_fn(|c| {
            let at = regs.runs[k] * s + c * s;
            &regs.done[at..at + regs.n]
        });
        let inputs = v.iter().zip(gx).zip(gy).zip(gz);
        let sums = value
            .iter_mut()
            .zip(dx.iter_mut())
            .zip(dy.iter_mut())
            .zip(dz.iter_mut());
        for ((((sv, sx), sy), sz), (((&v, &x), &y), &z)) in sums.zip(inputs) {
            let term = fractal_term_dual(fractal, [v, x, y, z]);
            *sv += w * term[0];
            *sx += w * term[1];
            *sy += w * term[2];
            *sz += w * term[3];
        }
    }
    let sums = value
        .iter_mut()
        .zip(dx.iter_mut())
        .zip(dy.iter_mut())
        .zip(dz.iter_mut());
    for (((v, x), y), z) in sums {
        [*v, *x, *y, *z] = fractal_finish_dual(fractal, [*v, *x, *y, *z]);
    }
}
