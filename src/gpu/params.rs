//! The kernels' own uniform: mirrors `struct RenderParams` in `shaders/kernels/render.wgsl`;
//! `tests/suite/layout.rs` checks every field offset and the size against naga's layouter.

use bytemuck::{Pod, Zeroable};

use crate::layout::host_struct;

use crate::window::Window;

host_struct! {
    /// Where a dispatch samples and what it writes.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct RenderParams as "RenderParams" {
        /// The window's first texel in image coordinates (x, y, z, unused).
        pub origin: [u32; 4],
        /// The window's extent (x, y, z, unused).
        pub extent: [u32; 4],
        /// Texel kernels: this dispatch's first texel within the window (x, y, z, unused).
        pub base: [u32; 4],
        /// Fixed output range (lo, hi) for normalized targets; z = 1 when the colormap buffer
        /// holds stops (`Colormap::packed_table`); w unused.
        pub range: [f32; 4],
        /// Invocations that do work: texels, words or points.
        pub item_count: u32,
        /// Invocations per dispatch row.
        pub row_pitch: u32,
        /// Elements (f32 or u32 words) per output row: padded for texture copies, else the width.
        pub words_per_row: u32,
        /// 1 when the range comes from the GPU's min/max reduction.
        pub auto_range: u32,
        /// Normal maps: heights are the noise value times this many texels.
        pub normal_strength: f32,
        /// Always 0: the value kernels or it into each value's bits before they store it
        /// (`texel_values` in render.wgsl says why).
        pub zero_bits: u32,
        /// Padding to a multiple of 16 bytes.
        pub _pad: [u32; 2],
    }
}

impl RenderParams {
    /// The parameters for rendering `window`; the dispatch fields start at zero. Where its
    /// texels land on the lattice is the noise library's state (`NoiseState::frame`).
    pub fn new(window: Window) -> Self {
        let [x, y, z] = window.origin;
        let s = window.size;
        Self {
            origin: [x, y, z, 0],
            extent: [s.width, s.height, s.depth, 0],
            words_per_row: s.width,
            ..Default::default()
        }
    }
}
