//! `gpu-noise info`: every adapter, software or hardware, and the limits that matter here.

use std::process::ExitCode;

use gpu_noise::low_level::HOW_TO_GET_AN_ADAPTER;
use gpu_noise::low_level::gpu::{list_adapters, new_instance};
use gpu_noise::{Result, gpu::AdapterChoice};

pub fn run() -> Result<ExitCode> {
    let choice = AdapterChoice::from_env()?;
    outln!("looking for adapters: {}", choice.describe())?;
    let instance = new_instance(&choice);
    let adapters = pollster::block_on(list_adapters(&instance, &choice));
    if adapters.is_empty() {
        outln!("no adapters found. {HOW_TO_GET_AN_ADAPTER}")?;
    }
    for (n, (_, a)) in adapters.iter().enumerate() {
        let i = &a.info;
        let l = &a.limits;
        outln!(
            "[{n}] {} ({:?}, {:?}, {}){}",
            i.name,
            i.backend,
            i.device_type,
            if a.software { "software" } else { "hardware" },
            if a.compute {
                ""
            } else {
                " - no compute shaders, unusable"
            }
        )?;
        outln!("    driver: {} {}", i.driver, i.driver_info)?;
        outln!(
            "    max_storage_buffer_binding_size {} MiB, max_buffer_size {} MiB, \
             max_compute_workgroups_per_dimension {}, R16Unorm targets {}",
            l.max_storage_buffer_binding_size >> 20,
            l.max_buffer_size >> 20,
            l.max_compute_workgroups_per_dimension,
            if a.features
                .contains(wgpu::Features::TEXTURE_FORMAT_16BIT_NORM)
            {
                "yes"
            } else {
                "no"
            }
        )?;
    }
    match adapters.iter().position(|(_, a)| a.compute) {
        Some(best) => {
            outln!("--backend gpu uses [{best}]")?;
            outln!(
                "--backend auto uses {}",
                if adapters[best].1.software {
                    "the CPU backend (only software adapters)"
                } else {
                    "that adapter"
                }
            )?;
        }
        None => outln!("--backend gpu fails; --backend auto uses the CPU backend")?,
    }
    Ok(ExitCode::SUCCESS)
}
