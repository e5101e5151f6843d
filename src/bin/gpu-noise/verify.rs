//! `gpu-noise verify`: the GPU image against the f64 reference, texel by texel.

use std::process::ExitCode;
use std::time::Instant;

use gpu_noise::tolerance::{compare, gpu_error_bound};
use gpu_noise::{AdapterChoice, Renderer, Result, cpu};

use crate::args::VerifyArgs;

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    let spec = crate::spec_layers(&args.noise)?.noise_spec()?;
    let prepared = spec.validate()?;
    let mut renderer = Renderer::new(&AdapterChoice::from_env())?;
    let info = &renderer.adapter().info;
    println!("adapter: {} ({:?})", info.name, info.backend);
    let start = Instant::now();
    let gpu = renderer.render(&prepared)?;
    let gpu_time = start.elapsed();
    let start = Instant::now();
    let reference = cpu::render_f64(&prepared);
    let cpu_time = start.elapsed();
    let cmp = compare(&gpu, &reference);
    let bound = gpu_error_bound(&spec);
    let s = spec.size;
    let (w, h) = (s.width as usize, s.height as usize);
    let n = cmp.worst_index;
    println!(
        "texels: {} (gpu {}, cpu {})",
        gpu.len(),
        crate::seconds(gpu_time),
        crate::seconds(cpu_time)
    );
    println!("max_abs_err: {:e}", cmp.max_abs_err);
    println!("rmse: {:e}", cmp.rmse);
    println!("bound: {:e} ({})", bound.value, bound.reason);
    println!(
        "worst texel: ({}, {}, {}) gpu {} cpu {}",
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
