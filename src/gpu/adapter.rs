//! Which adapter to use: `WGPU_BACKEND` and `WGPU_ADAPTER_NAME` from the environment, hardware
//! preferred over software, Vulkan preferred over GL.

use wgpu::{Adapter, AdapterInfo, Backend, Backends, DeviceType, DownlevelFlags, Instance};

/// Which adapters may be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterChoice {
    pub backends: Backends,
    /// Case-insensitive substring the adapter's name must contain.
    pub name: Option<String>,
}

impl AdapterChoice {
    /// `WGPU_BACKEND` (e.g. `vulkan`, `gl`; default all) and `WGPU_ADAPTER_NAME`.
    pub fn from_env() -> Self {
        Self {
            backends: Backends::from_env().unwrap_or(Backends::all()),
            name: std::env::var("WGPU_ADAPTER_NAME")
                .ok()
                .filter(|s| !s.is_empty()),
        }
    }

    pub fn describe(&self) -> String {
        let mut s = format!("backends {:?}", self.backends);
        if let Some(name) = &self.name {
            s.push_str(&format!(", name containing {name:?}"));
        }
        s
    }
}

/// True for adapters that run on the CPU (llvmpipe, lavapipe, SwiftShader, WARP).
pub fn is_software(info: &AdapterInfo) -> bool {
    let name = info.name.to_lowercase();
    info.device_type == DeviceType::Cpu
        || ["llvmpipe", "lavapipe", "softpipe", "swiftshader", "warp"]
            .iter()
            .any(|s| name.contains(s))
}

/// Lower is better: hardware before software, then native APIs before GL.
fn rank(info: &AdapterInfo) -> (u8, u8) {
    let device = match info.device_type {
        DeviceType::DiscreteGpu => 0,
        DeviceType::IntegratedGpu => 1,
        DeviceType::VirtualGpu => 2,
        DeviceType::Other => 3,
        DeviceType::Cpu => 4,
    };
    let software = if is_software(info) { 5 } else { 0 };
    let backend = match info.backend {
        Backend::Vulkan | Backend::Metal | Backend::Dx12 => 0,
        _ => 1,
    };
    (device.max(software), backend)
}

pub fn new_instance(choice: &AdapterChoice) -> Instance {
    Instance::new(wgpu::InstanceDescriptor {
        backends: choice.backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

/// One adapter found on this machine, as `info` lists it.
#[derive(Clone, Debug)]
pub struct AdapterSummary {
    pub info: AdapterInfo,
    pub software: bool,
    pub compute: bool,
    pub limits: wgpu::Limits,
}

/// Every adapter the choice allows, best first.
pub fn list_adapters(
    instance: &Instance,
    choice: &AdapterChoice,
) -> Vec<(Adapter, AdapterSummary)> {
    let mut found: Vec<(Adapter, AdapterSummary)> =
        pollster::block_on(instance.enumerate_adapters(choice.backends))
            .into_iter()
            .filter(|a| match &choice.name {
                Some(n) => a.get_info().name.to_lowercase().contains(&n.to_lowercase()),
                None => true,
            })
            .map(|a| {
                let info = a.get_info();
                let summary = AdapterSummary {
                    software: is_software(&info),
                    compute: a
                        .get_downlevel_capabilities()
                        .flags
                        .contains(DownlevelFlags::COMPUTE_SHADERS),
                    limits: a.limits(),
                    info,
                };
                (a, summary)
            })
            .collect();
    found.sort_by_key(|(_, s)| rank(&s.info));
    found
}

/// The best adapter that can run compute shaders, if any.
pub fn best_adapter(
    instance: &Instance,
    choice: &AdapterChoice,
) -> Option<(Adapter, AdapterSummary)> {
    list_adapters(instance, choice)
        .into_iter()
        .find(|(_, s)| s.compute)
}
