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
    let spec = crate::spec_layers(&args.noise)?.noise_spec()?;
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
    let cpu_time = start.elapsed();
    let cmp = compare(&gpu, &reference);
    let s = spec.size;
    let (w, h) = (s.width as usize, s.height as usize);
    let n = cmp.worst_index;
    println!(
        "texels: {} ({engine} {}, cpu {})",
        gpu.len(),
        crate::seconds(gpu_time),
        crate::seconds(cpu_time)
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
        Ok(ExitCode::SUCCESS)
    } else {
        println!("FAIL: max_abs_err exceeds the bound");
        Ok(ExitCode::from(1))
    }
}
