//! The comparison rule at discontinuities (CONVENTIONS §7), shared by `verify` and the tests:
//! where a job's values jump, an f32 engine whose point is a hair off the exact one may take
//! the other side, so a texel beyond the bound is explained when the twin, at a point within
//! [`POINT_ERROR_CELLS`] of the texel's, agrees with the engine within the bound.

use super::sample_texels;
use crate::job::Job;

/// How far an f32 engine's point may be from the exact one, in lattice cells of the job's
/// coarsest noise: its fractions keep 24 bits and its frames 32 (CONVENTIONS §1, §7), with
/// room for f32 distances.
pub const POINT_ERROR_CELLS: f64 = 1e-6;

/// The texels (index, error) of `image` (an f32 engine's render of `job`, at lod 0) farther
/// than `bound(texel index)` from the twin's `reference` that no point within the point error
/// explains: every texel beyond its bound for a continuous job; for a job with
/// discontinuities, those where the twin at every corner of the cube of half side
/// [`POINT_ERROR_CELLS`] around the texel's point also differs from the engine by more than
/// `bound`. The bound is one number for the whole image ([`Job::gpu_error_bound`]) or each
/// texel's running bound ([`render_error_bounds`](super::render_error_bounds)).
pub fn texels_beyond_the_bound(
    job: &Job,
    image: &[f32],
    reference: &[f64],
    bound: &dyn Fn(usize) -> f64,
) -> Vec<(usize, f64)> {
    let jumps = job.has_discontinuities();
    let size = job.size();
    let (w, h) = (size.width as usize, size.height as usize);
    let dims = job.dims() as usize;
    let step = POINT_ERROR_CELLS / coarsest_frequency(job);
    let offset = job.offset();
    let mut beyond = Vec::new();
    for (n, (&engine, &exact)) in image.iter().zip(reference).enumerate() {
        let error = (f64::from(engine) - exact).abs();
        let bound = bound(n);
        if error.le(&bound) {
            continue;
        }
        if !jumps {
            beyond.push((n, error));
            continue;
        }
        let t = [n % w, (n / w) % h, n / (w * h)];
        let mut root = offset;
        for (a, &i) in t.iter().enumerate() {
            root[a] += i as f64;
        }
        let corners: Vec<[f64; 4]> = (0..1usize << dims)
            .map(|corner| {
                let mut q = root;
                for (a, x) in q.iter_mut().enumerate().take(dims) {
                    *x += if corner >> a & 1 == 1 { step } else { -step };
                }
                q
            })
            .collect();
        let explained =
            (sample_texels(job, &corners).iter()).any(|&v| (v - f64::from(engine)).abs() <= bound);
        if !explained {
            beyond.push((n, error));
        }
    }
    beyond
}

/// The smallest lattice cells per texel of any noise of the job (its coarsest lattice).
fn coarsest_frequency(job: &Job) -> f64 {
    job.plan()
        .instances
        .iter()
        .map(|i| {
            (0..4)
                .flat_map(|a| (0..4).map(move |b| (a, b)))
                .map(|(a, b)| i.points.map[a][b].abs())
                .fold(0.0, f64::max)
        })
        .filter(|&f| f > 0.0)
        .fold(f64::INFINITY, f64::min)
        .min(1e300)
}
