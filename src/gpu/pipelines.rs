//! The kernels' entry points and their target layouts, and what a flat program's pipelines are
//! specialized for ([`NoiseKey`]: the driver sees only the branches a spec takes).

use std::num::NonZeroU64;

use crate::error::Result;
use crate::job::Job;

/// The `override` constants of the noise library, in declaration order, as the composed module
/// spells them (with the library's prefix, `wgsl::PREFIX`; checked by a test).
pub const OVERRIDE_NAMES: [&str; 9] = [
    "GN_NOISE_KIND",
    "GN_NOISE_DIMS",
    "GN_NOISE_INTERP",
    "GN_NOISE_FRACTAL",
    "GN_NOISE_LATTICE",
    "GN_NOISE_OCTAVES",
    "GN_NOISE_TILED",
    "GN_NOISE_VOLUME",
    "GN_NOISE_SHORT_TEXELS",
];

/// What a pipeline is specialized for: the override constants' values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoiseKey {
    /// `Kind` code.
    pub kind: u32,
    /// Dimensions.
    pub dims: u32,
    /// `Interp` code.
    pub interp: u32,
    /// `Fractal` code.
    pub fractal: u32,
    /// `LatticeKind` code.
    pub lattice: u32,
    /// Octaves: the fractal sum's loop has a constant trip count (a loop bounded by a uniform
    /// ran the whole kernel at about half speed on lavapipe).
    pub octaves: u32,
    /// 1 where some axis tiles: only then does a cell wrap by its period (the wrap's integer
    /// divisions were the largest single cost of Perlin 3D on lavapipe).
    pub tiled: u32,
    /// 1 where the image has more than one slice: only then does texel z step the point.
    pub volume: u32,
    /// 1 where every texel index is below 2^16: texel products take two partial products.
    pub short_texels: u32,
}

impl NoiseKey {
    /// The key of a flat job (a graph's is all zeros: its program is its generated code).
    pub fn of(job: &Job) -> Self {
        let Some(flat) = job.flat() else {
            return Self::default();
        };
        let spec = &flat.spec;
        Self {
            kind: spec.kind as u32,
            dims: spec.dims,
            interp: spec.interp as u32,
            fractal: spec.fractal as u32,
            lattice: spec.lattice as u32,
            octaves: flat.octaves() as u32,
            tiled: u32::from((0..flat.octaves()).any(|k| job.period(k) != [0; 4])),
            volume: u32::from(job.size().depth > 1),
            short_texels: u32::from(job.short_texels()),
        }
    }

    /// Values for the WGSL overrides, named as in [`OVERRIDE_NAMES`].
    pub fn constants(&self) -> [(&'static str, f64); 9] {
        let values = [
            self.kind,
            self.dims,
            self.interp,
            self.fractal,
            self.lattice,
            self.octaves,
            self.tiled,
            self.volume,
            self.short_texels,
        ];
        std::array::from_fn(|i| (OVERRIDE_NAMES[i], f64::from(values[i])))
    }
}

/// The kernels' entry points (`shaders/kernels/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// `render_buffer`: f32 per texel into a storage buffer.
    Buffer,
    /// `render_r32_2d`: an r32float 2D storage texture.
    R32Texture2d,
    /// `render_r32_2d_array`: an r32float 2D array storage texture (layer = z).
    R32Texture2dArray,
    /// `render_r32_3d`: an r32float 3D storage texture.
    R32Texture3d,
    /// `render_rgba8`: an rgba8unorm 2D storage texture through a colormap.
    Rgba8Texture,
    /// `pack_r16`: 16-bit levels, two per u32 word, rows padded for a texture copy.
    PackR16,
    /// `sample_points`: caller-given points.
    Sample,
    /// `range_partial`: per-workgroup min/max of the noise.
    RangePartial,
    /// `range_final`: the min/max of the partial results.
    RangeFinal,
    /// `render_gradient`: value and partial derivatives, 4 f32 per texel, into a buffer.
    Gradient,
    /// `render_normal`: a tangent-space normal map into an rgba8unorm 2D storage texture.
    Normal,
}

impl Entry {
    /// Runs one invocation per texel in TILE_SIZE x TILE_SIZE x 1 workgroups over the window
    /// (the others run WORKGROUP_SIZE in a row over points, words or partial results).
    pub fn is_texel_kernel(self) -> bool {
        !matches!(
            self,
            Entry::PackR16 | Entry::Sample | Entry::RangePartial | Entry::RangeFinal
        )
    }

    /// Computes the noise's values alone, `PROGRAM_ROWS` texel rows an invocation (the
    /// program's rows: src/wgsl/sources.rs); the other kernels one texel, word, point or result.
    pub fn is_value_kernel(self) -> bool {
        matches!(
            self,
            Entry::Buffer
                | Entry::R32Texture2d
                | Entry::R32Texture2dArray
                | Entry::R32Texture3d
                | Entry::Rgba8Texture
        )
    }

    /// The texels (x, y, z) one workgroup of a texel kernel covers under a program computing
    /// `program_rows` rows an invocation: the workgroup size, times those rows along y for the
    /// value kernels.
    pub fn tile(self, program_rows: u32) -> [u32; 3] {
        let [x, y, z] = self.workgroup_size();
        let rows = if self.is_value_kernel() {
            program_rows
        } else {
            1
        };
        [x, y * rows, z]
    }

    /// The entry's `@workgroup_size`.
    pub fn workgroup_size(self) -> [u32; 3] {
        use crate::wgsl::sources::{TILE_SIZE, WORKGROUP_SIZE};
        if self.is_texel_kernel() {
            [TILE_SIZE, TILE_SIZE, 1]
        } else {
            [WORKGROUP_SIZE, 1, 1]
        }
    }
}

/// Every entry point.
pub const ENTRIES: [Entry; 11] = [
    Entry::Buffer,
    Entry::R32Texture2d,
    Entry::R32Texture2dArray,
    Entry::R32Texture3d,
    Entry::Rgba8Texture,
    Entry::PackR16,
    Entry::Sample,
    Entry::RangePartial,
    Entry::RangeFinal,
    Entry::Gradient,
    Entry::Normal,
];

fn storage_buffer(binding: u32, read_only: bool, min: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: NonZeroU64::new(min),
        },
        count: None,
    }
}

fn storage_texture(
    binding: u32,
    format: wgpu::TextureFormat,
    view_dimension: wgpu::TextureViewDimension,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension,
        },
        count: None,
    }
}

impl Entry {
    /// The WGSL function name.
    pub fn name(self) -> &'static str {
        match self {
            Entry::Buffer => "render_buffer",
            Entry::R32Texture2d => "render_r32_2d",
            Entry::R32Texture2dArray => "render_r32_2d_array",
            Entry::R32Texture3d => "render_r32_3d",
            Entry::Rgba8Texture => "render_rgba8",
            Entry::PackR16 => "pack_r16",
            Entry::Sample => "sample_points",
            Entry::RangePartial => "range_partial",
            Entry::RangeFinal => "range_final",
            Entry::Gradient => "render_gradient",
            Entry::Normal => "render_normal",
        }
    }

    /// Whether the device's limits allow this kernel's storage buffers (the library's and its
    /// target's); else [`Error::Unsupported`](crate::Error::Unsupported) naming the limit.
    pub fn fits(self, limits: &wgpu::Limits) -> Result<()> {
        self.fits_beside(limits, 0)
    }

    /// [`fits`](Self::fits) with `more` storage buffers in the program's group (a graph's
    /// state).
    pub fn fits_beside(self, limits: &wgpu::Limits, more: u32) -> Result<()> {
        let own = self
            .target_layout_entries()
            .iter()
            .filter(|e| {
                matches!(
                    e.ty,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { .. },
                        ..
                    }
                )
            })
            .count() as u32;
        // The library's group is in every pipeline layout, so its buffers always count.
        super::limits::check_target(limits, self.name(), own + more)
    }

    /// The group 2 (target) bindings the entry uses, as in render.wgsl and reduce.wgsl.
    pub fn target_layout_entries(self) -> Vec<wgpu::BindGroupLayoutEntry> {
        use wgpu::TextureFormat::{R32Float, Rgba8Unorm};
        use wgpu::TextureViewDimension as V;
        let range_pair = 8;
        match self {
            Entry::Buffer => vec![storage_buffer(0, false, 4)],
            Entry::Gradient => vec![storage_buffer(0, false, 16)],
            Entry::Normal => vec![storage_texture(4, Rgba8Unorm, V::D2)],
            Entry::R32Texture2d => vec![storage_texture(1, R32Float, V::D2)],
            Entry::R32Texture2dArray => vec![storage_texture(2, R32Float, V::D2Array)],
            Entry::R32Texture3d => vec![storage_texture(3, R32Float, V::D3)],
            Entry::Rgba8Texture => vec![
                storage_texture(4, Rgba8Unorm, V::D2),
                storage_buffer(5, true, crate::colormap::COLORMAP_LEN as u64 * 4),
                storage_buffer(6, true, range_pair),
            ],
            Entry::PackR16 => vec![
                storage_buffer(6, true, range_pair),
                storage_buffer(7, false, 4),
            ],
            Entry::Sample => vec![storage_buffer(0, false, 4), storage_buffer(8, true, 32)],
            Entry::RangePartial => vec![storage_buffer(9, false, super::PARTIAL_RANGE_BYTES)],
            Entry::RangeFinal => vec![
                storage_buffer(9, false, super::PARTIAL_RANGE_BYTES),
                storage_buffer(10, false, range_pair),
            ],
        }
    }
}

impl Job {
    /// The values of the WGSL override constants a pipeline of yours needs for this job: for a
    /// flat job's `gn_fractal_noise` (with [`wgsl::noise_module`](crate::wgsl::noise_module))
    /// `GN_NOISE_KIND`, `GN_NOISE_DIMS`, `GN_NOISE_INTERP`, `GN_NOISE_FRACTAL`,
    /// `GN_NOISE_LATTICE`, `GN_NOISE_OCTAVES`, `GN_NOISE_TILED`, `GN_NOISE_VOLUME`,
    /// `GN_NOISE_SHORT_TEXELS`; for a graph's `gn_graph_value` ([`Job::wgsl_module`])
    /// `GN_NOISE_TILED`, `GN_NOISE_VOLUME` and `GN_NOISE_SHORT_TEXELS`. Pass them as
    /// `PipelineCompilationOptions::constants` (left out, each takes the value that is right for
    /// any job, but slower). A pipeline serves every job with the same constants, so moving the
    /// offset or the frequency each frame needs no new one.
    pub fn pipeline_constants(&self) -> Vec<(&'static str, f64)> {
        match self.flat() {
            Some(_) => NoiseKey::of(self).constants().to_vec(),
            None => GraphKey::of(self).constants(),
        }
    }

    /// Whether every texel index of the image is below 2^16 (NOISE_SHORT_TEXELS).
    pub(crate) fn short_texels(&self) -> bool {
        let size = self.size();
        size.width.max(size.height).max(size.depth) <= 1 << 16
    }
}

/// What a graph program's pipelines are specialized for besides its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphKey {
    /// Some axis of some noise wraps.
    pub tiled: bool,
    /// Every texel index is below 2^16.
    pub short_texels: bool,
    /// The image has more than one slice.
    pub volume: bool,
}

impl GraphKey {
    /// The key of a job's graph program.
    pub fn of(job: &Job) -> Self {
        GraphKey {
            tiled: job.is_tiled(),
            short_texels: job.short_texels(),
            volume: job.size().depth > 1,
        }
    }

    /// Values for the WGSL overrides a graph's code reads.
    pub fn constants(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("GN_NOISE_TILED", f64::from(u8::from(self.tiled))),
            ("GN_NOISE_VOLUME", f64::from(u8::from(self.volume))),
            (
                "GN_NOISE_SHORT_TEXELS",
                f64::from(u8::from(self.short_texels)),
            ),
        ]
    }
}
