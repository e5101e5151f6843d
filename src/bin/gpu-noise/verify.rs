//! `gpu-noise verify`: the GPU's (or the SIMD backend's) image against the f64 reference,
//! texel by texel. A spec whose
//! stated bound would exceed 1e-3 of the output range fails without rendering: such a bound
//! proves nothing (an all-zero image would pass it).

use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::tolerance::{Bound, compare, gpu_error_bound};
use gpu_noise::{AdapterChoice, Renderer, RendererOptions, Result, cpu, simd};

use crate::args::{VerifyArgs, VerifyBackend};

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let layer = crate::spec_layers(&args.noise)?;
    if let Some((graph, _)) = crate::graph::load(args.graph.as_deref(), &layer)? {
        return run_graph(&args, graph, &layer);
    }
    let spec = layer.noise_spec()?;
    let prepared = spec.validate()?;
    let bound = gpu_error_bound(&spec);
    let limit = Bound::meaningful_limit(&spec);
    if bound.value > limit {
        println!("bound: {:.3e} ({})", bound.value, bound.reason);
        println!(
            "FAIL: a bound above {limit:e} (1e-3 of the output range) is not meaningful: the \
             GPU's f32 points cannot resolve this spec (move it nearer the origin, or render it \
             with --backend cpu)"
        );
        return Ok(ExitCode::from(1));
    }
    let start = Instant::now();
    let gpu = match args.backend {
        VerifyBackend::Gpu => {
            let choice = AdapterChoice::from_env()?;
            let options = RendererOptions::default();
            let mut renderer = pollster::block_on(Renderer::open(&choice, options))?;
            println!("adapter: {}", renderer.adapter_name());
            renderer.render(&prepared)?
        }
        VerifyBackend::Simd => {
            let isa = simd::InstructionSet::detect();
            println!("SIMD CPU backend: {} lanes", isa.name());
            simd::render_f32(&prepared)?
        }
    };
    let gpu_time = start.elapsed();
    let engine = match args.backend {
        VerifyBackend::Gpu => "gpu",
        VerifyBackend::Simd => "simd",
    };
    let start = Instant::now();
    let reference = cpu::render_f64(&prepared)?;
    let checked = Checked {
        engine,
        values: &gpu,
        reference: &reference,
        times: [gpu_time, start.elapsed()],
        size: spec.size,
    };
    Ok(checked.report(&bound))
}

/// An image checked against the f64 reference.
struct Checked<'a> {
    engine: &'static str,
    values: &'a [f32],
    reference: &'a [f64],
    /// The engine's and the reference's render times.
    times: [std::time::Duration; 2],
    size: gpu_noise::Size,
}

impl Checked<'_> {
    /// Prints the comparison and the verdict.
    fn report(&self, bound: &Bound) -> ExitCode {
        let cmp = compare(self.values, self.reference);
        let (w, h) = (self.size.width as usize, self.size.height as usize);
        let (n, engine) = (cmp.worst_index, self.engine);
        println!(
            "texels: {} ({engine} {}, cpu {})",
            self.values.len(),
            crate::seconds(self.times[0]),
            crate::seconds(self.times[1])
        );
        println!("max_abs_err: {:e}", cmp.max_abs_err);
        println!("rmse: {:e}", cmp.rmse);
        println!("bound: {:.3e} ({})", bound.value, bound.reason);
        println!(
            "worst texel: ({}, {}, {}) {engine} {} cpu {}",
            n % w,
            (n / w) % h,
            n / (w * h),
            cmp.worst_gpu,
            cmp.worst_cpu
        );
        if cmp.max_abs_err <= bound.value {
            println!("PASS");
            ExitCode::SUCCESS
        } else {
            println!("FAIL: max_abs_err exceeds the bound");
            ExitCode::from(1)
        }
    }
}

/// `verify --graph`: the graph on the GPU against its twin, held to its propagated bound
/// (CONVENTIONS §13), which must stay within 1% of the nominal span to mean anything.
fn run_graph(
    args: &VerifyArgs,
    graph: gpu_noise::Graph,
    layer: &gpu_noise::spec_file::SpecFile,
) -> Result<ExitCode> {
    if args.backend == VerifyBackend::Simd {
        return Err(gpu_noise::Error::InvalidSpec {
            field: "backend",
            reason: "the SIMD backend takes single-kind specs; verify a graph on gpu".into(),
        });
    }
    let (prepared, spec) = crate::graph::prepare(graph, layer)?;
    let bound = prepared.gpu_error_bound();
    let span = 2.0 * prepared.magnitude_bound();
    if bound.value > 1e-2 * span {
        println!("bound: {:.3e} ({})", bound.value, bound.reason);
        println!(
            "FAIL: a bound above {:e} (1% of the nominal span {span}) is not meaningful; \
             smaller warp amplitudes or gentler curves keep it lower",
            1e-2 * span
        );
        return Ok(ExitCode::from(1));
    }
    let start = Instant::now();
    let choice = AdapterChoice::from_env()?;
    let mut renderer = pollster::block_on(Renderer::open(&choice, RendererOptions::default()))?;
    println!("adapter: {}", renderer.adapter_name());
    let values = renderer.render_graph(&prepared)?;
    let gpu_time = start.elapsed();
    let start = Instant::now();
    let reference = prepared.render_f64()?;
    let checked = Checked {
        engine: "gpu",
        values: &values,
        reference: &reference,
        times: [gpu_time, start.elapsed()],
        size: spec.size,
    };
    Ok(checked.report(&bound))
}
