//! `gpu-noise verify`: the GPU's (or the SIMD backend's) image of any job, flat spec or graph,
//! against the f64 reference, texel by texel. A job whose stated bound would say nothing fails
//! without rendering (an all-zero image would pass it).

use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::low_level::gpu::LowLevelRenderer;
use gpu_noise::low_level::tolerance::{Bound, compare};
use gpu_noise::{Renderer, Result, Window, cpu, gpu::AdapterChoice, gpu::RendererOptions, simd};

use crate::args::{VerifyArgs, VerifyBackend};
use crate::world::World;

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let layer = crate::spec_layers(&args.noise)?;
    let graph = crate::graph::load(args.graph.as_deref(), &layer)?;
    let world = World::of(&layer, graph)?;
    let job = &world.job;
    let bound = job.gpu_error_bound();
    if let Some(fail) = meaningless(&world, &bound) {
        outln!("bound: {:.3e} ({})", bound.value, bound.reason)?;
        outln!("FAIL: {fail}")?;
        return Ok(ExitCode::from(1));
    }
    let start = Instant::now();
    let values = match args.backend {
        VerifyBackend::Gpu => {
            let choice = AdapterChoice::from_env()?;
            let options = RendererOptions::default();
            let mut renderer = pollster::block_on(Renderer::open(&choice, options))?;
            outln!("adapter: {}", renderer.adapter_name())?;
            renderer.read(job, Window::full(job.size()))?
        }
        VerifyBackend::Simd => {
            let isa = simd::InstructionSet::detect();
            outln!("SIMD CPU backend: {} lanes", isa.name())?;
            simd::render_f32(job)?
        }
    };
    let gpu_time = start.elapsed();
    let engine = match args.backend {
        VerifyBackend::Gpu => "gpu",
        VerifyBackend::Simd => "simd",
    };
    let start = Instant::now();
    let reference = cpu::render_f64(job)?;
    let running = cpu::render_error_bounds(job)?;
    let checked = Checked {
        job,
        engine,
        values: &values,
        reference: &reference,
        running: &running,
        times: [gpu_time, start.elapsed()],
        size: world.spec.size,
    };
    checked.report(&bound)
}

/// Why the bound cannot mean anything, if it cannot: a flat spec's above 1e-3 of its output
/// range (the GPU's f32 points cannot resolve it), a graph's above 1% of its nominal span
/// (CONVENTIONS §7, §13). An all-zero image would pass such a bound.
fn meaningless(world: &World, bound: &Bound) -> Option<String> {
    let (limit, why) = match world.job.spec() {
        Some(spec) => (
            Bound::meaningful_limit(spec),
            "1e-3 of the output range: the GPU's f32 points cannot resolve this spec (move it \
             nearer the origin, or render it with --backend cpu)",
        ),
        None => (
            1e-2 * 2.0 * world.job.magnitude_bound(),
            "1% of the nominal span: smaller warp amplitudes or gentler curves keep it lower",
        ),
    };
    (bound.value > limit).then(|| format!("a bound above {limit:e} ({why}) is not meaningful"))
}

/// An image checked against the f64 reference.
struct Checked<'a> {
    job: &'a gpu_noise::Job,
    engine: &'static str,
    values: &'a [f32],
    reference: &'a [f64],
    /// Each texel's running bound (CONVENTIONS §13), never above the static one.
    running: &'a [f64],
    /// The engine's and the reference's render times.
    times: [std::time::Duration; 2],
    size: gpu_noise::Size,
}

impl Checked<'_> {
    /// Prints the comparison and the verdict: every texel within its running bound, or beyond
    /// it only next to a discontinuity (where the static bound and the tests' rule apply).
    fn report(&self, bound: &Bound) -> gpu_noise::Result<ExitCode> {
        let cmp = compare(self.values, self.reference);
        let n = cmp.worst_index;
        outln!(
            "texels: {} ({} {}, cpu {})",
            self.values.len(),
            self.engine,
            crate::seconds(self.times[0]),
            crate::seconds(self.times[1])
        )?;
        outln!("max_abs_err: {:e}", cmp.max_abs_err)?;
        outln!("rmse: {:e}", cmp.rmse)?;
        outln!("bound: {:.3e} ({})", bound.value, bound.reason)?;
        let top = self.running.iter().fold(0.0f64, |m, &b| m.max(b));
        outln!(
            "running bound: at most {top:.3e} ({:.0}x the max error; each texel's own, from the \
             twin's values and gradients there, CONVENTIONS §13)",
            top / cmp.max_abs_err
        )?;
        outln!(
            "worst texel: {} {} {} cpu {} (its running bound {:.3e})",
            self.texel(n),
            self.engine,
            cmp.worst_gpu,
            cmp.worst_cpu,
            self.running[n]
        )?;
        let over = (self.values.iter().zip(self.reference).zip(self.running))
            .filter(|((v, r), b)| !(f64::from(**v) - **r).abs().le(b))
            .count();
        if over == 0 {
            outln!("PASS")?;
            return Ok(ExitCode::SUCCESS);
        }
        // The tests' rule at discontinuities (CONVENTIONS §7): a texel beyond its bound passes
        // where the twin a point error away agrees with the engine within the static bound.
        let beyond =
            cpu::jumps::texels_beyond_the_bound(self.job, self.values, self.reference, &|n| {
                if self.job.has_discontinuities() {
                    bound.value
                } else {
                    self.running[n]
                }
            });
        if beyond.is_empty() {
            outln!(
                "PASS: the {over} texel(s) beyond their running bound are within the static \
                 bound, or within {:e} cells of a discontinuity where the twin there agrees \
                 (the job jumps; CONVENTIONS §7)",
                cpu::jumps::POINT_ERROR_CELLS
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        let (n, error) = beyond[0];
        outln!(
            "FAIL: {} texel(s) exceed their bound away from any discontinuity, first {} by \
             {error:e} (its running bound {:.3e})",
            beyond.len(),
            self.texel(n),
            self.running[n]
        )?;
        Ok(ExitCode::from(1))
    }

    /// Texel `n`'s coordinates, `(x, y, z)`.
    fn texel(&self, n: usize) -> String {
        let (w, h) = (self.size.width as usize, self.size.height as usize);
        format!("({}, {}, {})", n % w, (n / w) % h, n / (w * h))
    }
}
