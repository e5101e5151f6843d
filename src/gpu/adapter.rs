//! Which adapter to use when the crate opens its own device: `WGPU_BACKEND` and
//! `WGPU_ADAPTER_NAME` from the environment, hardware preferred over software, Vulkan, Metal
//! and DX12 preferred over GL.

use wgpu::{Adapter, AdapterInfo, Backend, Backends, DeviceType, DownlevelFlags, Instance};

use crate::error::{Error, Result};

/// The backends `WGPU_BACKEND` may name, with the names it accepts.
const BACKEND_NAMES: [(&str, Backends); 10] = [
    ("vulkan", Backends::VULKAN),
    ("vk", Backends::VULKAN),
    ("metal", Backends::METAL),
    ("mtl", Backends::METAL),
    ("dx12", Backends::DX12),
    ("d3d12", Backends::DX12),
    ("gl", Backends::GL),
    ("gles", Backends::GL),
    ("opengl", Backends::GL),
    ("webgpu", Backends::BROWSER_WEBGPU),
];

/// Which adapters may be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterChoice {
    /// Backends to search.
    pub backends: Backends,
    /// Case-insensitive substring the adapter's name must contain.
    pub name: Option<String>,
}

impl Default for AdapterChoice {
    /// Every backend, any name.
    fn default() -> Self {
        Self {
            backends: Backends::all(),
            name: None,
        }
    }
}

impl AdapterChoice {
    /// `WGPU_BACKEND` (a comma list of `vulkan`, `metal`, `dx12`, `gl`; default all) and
    /// `WGPU_ADAPTER_NAME`. A `WGPU_BACKEND` that names no backend is an error.
    pub fn from_env() -> Result<Self> {
        let backends = match std::env::var("WGPU_BACKEND") {
            Ok(value) if !value.trim().is_empty() => parse_backends(&value)?,
            // Not text: it cannot name a backend, and ignoring it would pick any.
            Err(std::env::VarError::NotUnicode(value)) => {
                return Err(Error::BadBackendVariable {
                    value: value.to_string_lossy().into_owned(),
                });
            }
            _ => Backends::all(),
        };
        Ok(Self {
            backends,
            name: std::env::var("WGPU_ADAPTER_NAME")
                .ok()
                .filter(|s| !s.is_empty()),
        })
    }

    /// "backends vulkan, gl, name containing ..." for messages.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = [
            (Backends::VULKAN, "vulkan"),
            (Backends::METAL, "metal"),
            (Backends::DX12, "dx12"),
            (Backends::GL, "gl"),
            (Backends::BROWSER_WEBGPU, "webgpu"),
        ]
        .iter()
        .filter(|(b, _)| self.backends.contains(*b))
        .map(|(_, n)| *n)
        .collect();
        let mut s = format!("backends {}", names.join(", "));
        if let Some(name) = &self.name {
            s.push_str(&format!(", name containing {name:?}"));
        }
        s
    }
}

/// Parses a `WGPU_BACKEND` value strictly: every item must name a backend.
pub fn parse_backends(value: &str) -> Result<Backends> {
    let mut backends = Backends::empty();
    for item in value.split(',') {
        let item = item.trim().to_ascii_lowercase();
        match BACKEND_NAMES.iter().find(|(name, _)| *name == item) {
            Some((_, b)) => backends |= *b,
            None => {
                return Err(Error::BadBackendVariable {
                    value: value.to_string(),
                });
            }
        }
    }
    Ok(backends)
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

/// A wgpu instance over the chosen backends.
pub fn new_instance(choice: &AdapterChoice) -> Instance {
    Instance::new(wgpu::InstanceDescriptor {
        backends: choice.backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

/// One adapter found on this machine, as `info` lists it.
#[derive(Clone, Debug)]
pub struct AdapterSummary {
    /// wgpu's description (name, backend, device type, driver).
    pub info: AdapterInfo,
    /// Runs on the CPU (llvmpipe, lavapipe, ...).
    pub software: bool,
    /// Can run compute shaders.
    pub compute: bool,
    /// The adapter's limits, which a device of ours requests in full.
    pub limits: wgpu::Limits,
    /// The adapter's features.
    pub features: wgpu::Features,
}

/// Every adapter the choice allows, best first.
pub async fn list_adapters(
    instance: &Instance,
    choice: &AdapterChoice,
) -> Vec<(Adapter, AdapterSummary)> {
    let mut found: Vec<(Adapter, AdapterSummary)> = instance
        .enumerate_adapters(choice.backends)
        .await
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
                features: a.features(),
                info,
            };
            (a, summary)
        })
        .collect();
    found.sort_by_key(|(_, s)| rank(&s.info));
    found
}

/// The best adapter that can run compute shaders, if any.
pub async fn best_adapter(
    instance: &Instance,
    choice: &AdapterChoice,
) -> Option<(Adapter, AdapterSummary)> {
    list_adapters(instance, choice)
        .await
        .into_iter()
        .find(|(_, s)| s.compute)
}
