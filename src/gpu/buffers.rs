//! The GPU buffers of a [`Renderer`](super::Renderer) and their bind group layout, matching the
//! `@binding`s in shaders/common.wgsl. Created once; output, staging and points grow on demand.

use wgpu::util::DeviceExt;

use crate::params::Params;
use crate::spec::{MAX_OCTAVES, Prepared};
use crate::tables::{PERM_LEN, TABLE_SIZE};

/// The buffers that grow with the work.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Growable {
    Output,
    Staging,
    Points,
}

pub(crate) struct Buffers {
    params: wgpu::Buffer,
    perm: wgpu::Buffer,
    gradients: wgpu::Buffer,
    values: wgpu::Buffer,
    pub(crate) points: wgpu::Buffer,
    pub(crate) output: wgpu::Buffer,
    pub(crate) staging: wgpu::Buffer,
}

fn layout_entry(binding: u32, ty: wgpu::BufferBindingType, min: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: wgpu::BufferSize::new(min),
        },
        count: None,
    }
}

fn buffer(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16),
        usage,
        mapped_at_creation: false,
    })
}

impl Growable {
    fn label_and_usage(self) -> (&'static str, wgpu::BufferUsages) {
        use wgpu::BufferUsages as U;
        match self {
            Growable::Output => ("output", U::STORAGE | U::COPY_SRC),
            Growable::Staging => ("staging", U::MAP_READ | U::COPY_DST),
            Growable::Points => ("points", U::STORAGE | U::COPY_DST),
        }
    }
}

impl Buffers {
    /// Bindings 0..=5: params (uniform), perm, gradients, values, points (read-only storage),
    /// output (read-write storage).
    pub(crate) fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
        use wgpu::BufferBindingType::{Storage, Uniform};
        let read = Storage { read_only: true };
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gpu-noise bindings"),
            entries: &[
                layout_entry(0, Uniform, std::mem::size_of::<Params>() as u64),
                layout_entry(1, read, 4),
                layout_entry(2, read, 16),
                layout_entry(3, read, 4),
                layout_entry(4, read, 16),
                layout_entry(5, Storage { read_only: false }, 4),
            ],
        })
    }

    /// Table buffers sized for [`MAX_OCTAVES`] octaves; the growable ones start minimal.
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        use wgpu::BufferUsages as U;
        let octaves = u64::from(MAX_OCTAVES);
        let tables = U::STORAGE | U::COPY_DST;
        let grow = |kind: Growable| {
            let (label, usage) = kind.label_and_usage();
            buffer(device, label, 16, usage)
        };
        Self {
            params: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("params"),
                contents: bytemuck::bytes_of(&Params::default()),
                usage: U::UNIFORM | U::COPY_DST,
            }),
            perm: buffer(device, "perm", octaves * PERM_LEN as u64 * 4, tables),
            gradients: buffer(
                device,
                "gradients",
                octaves * TABLE_SIZE as u64 * 16,
                tables,
            ),
            values: buffer(device, "values", octaves * TABLE_SIZE as u64 * 4, tables),
            points: grow(Growable::Points),
            output: grow(Growable::Output),
            staging: grow(Growable::Staging),
        }
    }

    /// Replaces a growable buffer with a larger one when it holds fewer than `bytes`.
    pub(crate) fn ensure(&mut self, device: &wgpu::Device, kind: Growable, bytes: u64) {
        let slot = match kind {
            Growable::Output => &mut self.output,
            Growable::Staging => &mut self.staging,
            Growable::Points => &mut self.points,
        };
        if slot.size() < bytes {
            let (label, usage) = kind.label_and_usage();
            *slot = buffer(device, label, bytes, usage);
        }
    }

    /// Uploads every octave's tables (octave o at o * PERM_LEN and o * TABLE_SIZE).
    pub(crate) fn upload_tables(&self, queue: &wgpu::Queue, prep: &Prepared) {
        let perm: Vec<u32> = prep.tables.iter().flat_map(|t| t.perm).collect();
        let gradients: Vec<[f32; 4]> = prep.tables.iter().flat_map(|t| t.gradients).collect();
        let values: Vec<f32> = prep
            .tables
            .iter()
            .flat_map(|t| t.values.map(|v| v as f32))
            .collect();
        queue.write_buffer(&self.perm, 0, bytemuck::cast_slice(&perm));
        queue.write_buffer(&self.gradients, 0, bytemuck::cast_slice(&gradients));
        queue.write_buffer(&self.values, 0, bytemuck::cast_slice(&values));
    }

    pub(crate) fn write_params(&self, queue: &wgpu::Queue, params: &Params) {
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(params));
    }

    /// A bind group over the buffers as they are now; make it after the last `ensure`.
    pub(crate) fn bind_group(
        &self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
    ) -> wgpu::BindGroup {
        let order = [
            &self.params,
            &self.perm,
            &self.gradients,
            &self.values,
            &self.points,
            &self.output,
        ];
        let entries: Vec<wgpu::BindGroupEntry> = order
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gpu-noise"),
            layout,
            entries: &entries,
        })
    }
}
