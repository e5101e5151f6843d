//! Specialized compute pipelines: one per (entry point, kind, dims, interpolation, fractal),
//! compiled on first use and cached, so the driver sees only the branches a spec takes.

use std::collections::HashMap;

use super::shader::{ENTRY_RENDER, ENTRY_SAMPLE};
use crate::error::{Error, Result};
use crate::spec::NoiseSpec;

/// The `override` constants in common.wgsl, in this order (checked by a test through naga).
pub const OVERRIDE_NAMES: [&str; 4] = ["KIND", "DIMS", "INTERP", "FRACTAL"];

/// What a pipeline is specialized for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    /// `sample_points` rather than `render_texels`.
    pub points: bool,
    pub kind: u32,
    pub dims: u32,
    pub interp: u32,
    pub fractal: u32,
}

impl PipelineKey {
    pub fn new(spec: &NoiseSpec, points: bool) -> Self {
        Self {
            points,
            kind: spec.kind as u32,
            dims: spec.dims,
            interp: spec.interp as u32,
            fractal: spec.fractal as u32,
        }
    }

    /// Values for the WGSL overrides, named as in [`OVERRIDE_NAMES`].
    pub fn constants(&self) -> [(&'static str, f64); 4] {
        let values = [self.kind, self.dims, self.interp, self.fractal];
        let mut out = [("", 0.0); 4];
        for (slot, (name, value)) in out.iter_mut().zip(OVERRIDE_NAMES.iter().zip(values)) {
            *slot = (name, f64::from(value));
        }
        out
    }
}

/// The shader module and the pipelines built from it so far.
pub struct PipelineCache {
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    pipelines: HashMap<PipelineKey, wgpu::ComputePipeline>,
}

impl PipelineCache {
    pub fn new(module: wgpu::ShaderModule, layout: wgpu::PipelineLayout) -> Self {
        Self {
            module,
            layout,
            pipelines: HashMap::new(),
        }
    }

    /// The pipeline for `key`, compiling it (inside a validation error scope) the first time.
    pub fn get(
        &mut self,
        device: &wgpu::Device,
        key: PipelineKey,
    ) -> Result<&wgpu::ComputePipeline> {
        if !self.pipelines.contains_key(&key) {
            let entry = if key.points {
                ENTRY_SAMPLE
            } else {
                ENTRY_RENDER
            };
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&self.layout),
                module: &self.module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &key.constants(),
                    ..Default::default()
                },
                cache: None,
            });
            if let Some(err) = pollster::block_on(scope.pop()) {
                return Err(Error::Gpu(format!(
                    "building the {entry} pipeline for {key:?}: {err}"
                )));
            }
            self.pipelines.insert(key, pipeline);
        }
        self.pipelines
            .get(&key)
            .ok_or_else(|| Error::Gpu("pipeline cache lost an entry".into()))
    }

    pub fn len(&self) -> usize {
        self.pipelines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pipelines.is_empty()
    }
}
