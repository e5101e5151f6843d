//! The uniform block sent to the kernels (kind, dims, interpolation and fractal are pipeline
//! constants instead: see `gpu::pipelines`). Mirrors `struct Params` in `shaders/common.wgsl`;
//! `tests/layout.rs` checks every field offset and the size against naga's layouter.

use bytemuck::{Pod, Zeroable};

use crate::spec::{MAX_OCTAVES, Prepared};

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Params {
    pub offset: [f32; 4],
    pub frequency: f32,
    pub lacunarity: f32,
    pub persistence: f32,
    pub octaves: u32,
    pub width: u32,
    pub height: u32,
    /// First texel (linear index) of the chunk this dispatch renders.
    pub texel_base: u32,
    /// Texels in the chunk; invocations past it return.
    pub texel_count: u32,
    /// Invocations per dispatch row (groups in x times the workgroup size).
    pub row_pitch: u32,
    pub _pad: [u32; 3],
    /// Tiling period in cells per octave and axis; 0 = no wrap.
    pub periods: [[i32; 4]; MAX_OCTAVES as usize],
}

impl Params {
    /// The spec's fields rounded to what the kernel computes with; chunk fields start at zero.
    pub fn from_prepared(prep: &Prepared) -> Self {
        let spec = &prep.spec;
        let mut periods = [[0i32; 4]; MAX_OCTAVES as usize];
        for (dst, src) in periods.iter_mut().zip(&prep.periods) {
            // Validation keeps periods below 2^30.
            *dst = src.map(|c| c as i32);
        }
        Self {
            offset: spec.offset.map(|v| v as f32),
            frequency: spec.frequency as f32,
            lacunarity: spec.lacunarity as f32,
            persistence: spec.persistence as f32,
            octaves: spec.octaves,
            width: spec.size.width,
            height: spec.size.height,
            texel_base: 0,
            texel_count: 0,
            row_pitch: 0,
            _pad: [0; 3],
            periods,
        }
    }
}

/// Field names in declaration order with their Rust offsets, for the layout test.
pub fn field_offsets() -> Vec<(&'static str, usize)> {
    use std::mem::offset_of;
    vec![
        ("offset", offset_of!(Params, offset)),
        ("frequency", offset_of!(Params, frequency)),
        ("lacunarity", offset_of!(Params, lacunarity)),
        ("persistence", offset_of!(Params, persistence)),
        ("octaves", offset_of!(Params, octaves)),
        ("width", offset_of!(Params, width)),
        ("height", offset_of!(Params, height)),
        ("texel_base", offset_of!(Params, texel_base)),
        ("texel_count", offset_of!(Params, texel_count)),
        ("row_pitch", offset_of!(Params, row_pitch)),
        ("_pad0", offset_of!(Params, _pad)),
        ("_pad1", offset_of!(Params, _pad) + 4),
        ("_pad2", offset_of!(Params, _pad) + 8),
        ("periods", offset_of!(Params, periods)),
    ]
}
