//! Host structs the GPU (and the SIMD lanes) read, each a mirror of a WGSL struct of the noise
//! library or the graph kernel: `#[repr(C)]` and `Pod`, their field lists derived by
//! [`host_struct!`](crate::layout::host_struct), checked against naga's layout of the WGSL by
//! `tests/suite/layout.rs`. A frame's exact Q64.64 numbers travel as three 32-bit words per
//! coordinate: the cell modulo 2^32, the fraction's top and low 32 bits (CONVENTIONS §1).

use bytemuck::{Pod, Zeroable};

use crate::fixed::Fixed;
use crate::kinds::{KindState, MAX_OCTAVES};
use crate::layout::host_struct;
use crate::spec::frames::OctaveFrame;

/// A fixed-point number's cell modulo 2^32, and its fraction's top and low 32 bits.
pub fn words(v: Fixed) -> [u32; 3] {
    let bits = v.fraction_bits();
    [v.cell() as u32, (bits >> 32) as u32, bits as u32]
}

host_struct! {
    /// One octave's frame as the GPU reads it (`struct OctaveFrame` in common.wgsl): the exact
    /// origin of [`OctaveFrame`] and its two distinct steps, as words.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct FrameState as "OctaveFrame" {
        /// Cell of texel (0, 0, 0) per lattice axis, modulo 2^32.
        pub cell: [u32; 4],
        /// Its fraction's top 32 bits.
        pub word: [u32; 4],
        /// Its fraction's low 32 bits.
        pub low: [u32; 4],
        /// The steps' cells (modulo 2^32) and fractions' top words: `[e cell, e word, o cell,
        /// o word]`, where every diagonal step `step[b][b]` equals `e + o` and every
        /// off-diagonal one `o` (0 but for simplex's skew), so texel t lands at
        /// `origin[a] + t[a] e + (t.x + t.y + t.z) o` on lattice axis a (CONVENTIONS §1).
        pub step: [u32; 4],
        /// The steps' fractions' low words: `[e low, o low, 0, 0]`.
        pub step_low: [u32; 4],
    }
}

impl FrameState {
    /// The GPU's view of an octave frame: its origin and its two distinct steps.
    pub fn new(frame: &OctaveFrame) -> Self {
        let mut state = FrameState::default();
        for a in 0..4 {
            [state.cell[a], state.word[a], state.low[a]] = words(frame.origin[a]);
        }
        let (diagonal, off) = frame.diagonal_steps();
        // e = f_k (1 + F) - f_k F, rounded alike: |e| <= |diagonal|, so no overflow.
        let e = words(Fixed(diagonal.0 - off.0));
        let o = words(off);
        state.step = [e[0], e[1], o[0], o[1]];
        state.step_low = [e[2], o[2], 0, 0];
        state
    }
}

host_struct! {
    /// One octave as the GPU reads it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct OctaveState as "OctaveState" {
        /// `lacunarity^k`, rounded to f32.
        pub scale: f32,
        /// The octave's normalized weight, rounded to f32.
        pub weight: f32,
        /// The table slot holding this octave's permutation, gradients and values.
        pub slot: u32,
        /// The impulse kinds' salt of this octave's seed.
        pub salt: u32,
        /// The hash lattice's seed of this octave's seed.
        pub hash_seed: u32,
        /// Lattice cells per texel, `frequency * scale`, rounded to f32 (derivatives per texel).
        pub texel_frequency: f32,
        /// Padding to 16-byte alignment.
        pub _pad: [u32; 2],
    }
}

host_struct! {
    /// The octaves of a prepared spec, with their table slots: what `fractal_noise(p)` reads.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct NoiseState as "NoiseState" {
        /// Octaves in use.
        pub octaves: u32,
        /// Padding to 16 bytes.
        pub _pad: [u32; 3],
        /// Per octave: scale, weight, table slot.
        pub octave: [OctaveState; MAX_OCTAVES as usize],
        /// Per octave: where the image's texels land on its lattice.
        pub frame: [FrameState; MAX_OCTAVES as usize],
        /// Tiling period in cells per octave and axis; 0 = no wrap.
        pub period: [[i32; 4]; MAX_OCTAVES as usize],
        /// The cellular, sparse-convolution and Gabor parameters.
        pub kind: KindState,
    }
}

host_struct! {
    /// One noise or coordinate evaluation; mirrors `struct GraphInstance` in
    /// shaders/graph/graph.wgsl (checked through naga by tests/suite/layout.rs).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct GraphInstance as "GraphInstance" {
        /// Texel (0, 0, 0)'s cell per lattice axis (modulo 2^32).
        pub cell: [u32; 4],
        /// Its fraction's top 32 bits.
        pub word: [u32; 4],
        /// Its fraction's low 32 bits.
        pub low: [u32; 4],
        /// Whole cells per texel along image axis b, per lattice axis.
        pub step_cell: [[u32; 4]; 3],
        /// The steps' fractions' top words.
        pub step_word: [[u32; 4]; 3],
        /// The steps' fractions' low words.
        pub step_low: [[u32; 4]; 3],
        /// Lattice cells per unit of displacement, column by column.
        pub delta_map: [[f32; 4]; 4],
        /// Table slot, impulse salt, hash seed, kind-state index.
        pub lattice: [u32; 4],
        /// Tiling period in cells per axis; 0 where the axis does not wrap.
        pub period: [i32; 4],
        /// Texel (0, 0, 0)'s whole cell per axis as f32 (rounded from its 64 bits): what a
        /// coordinate adds the texel's relative cells to.
        pub origin_cell: [f32; 4],
    }
}

impl GraphInstance {
    /// The instance of a frame, a displacement map (rows = lattice axes) and lattice words.
    pub(crate) fn new(
        frame: &OctaveFrame,
        delta_map: &[[f64; 4]; 4],
        lattice: [u32; 4],
        period: [i64; 4],
    ) -> Self {
        let mut g = GraphInstance {
            lattice,
            // Tiling periods stay below 2^30 cells.
            period: period.map(|p| p as i32),
            ..Default::default()
        };
        for a in 0..4 {
            [g.cell[a], g.word[a], g.low[a]] = words(frame.origin[a]);
            g.origin_cell[a] = frame.origin[a].cell() as f32;
            for b in 0..3 {
                [g.step_cell[b][a], g.step_word[b][a], g.step_low[b][a]] = words(frame.step[b][a]);
            }
            for (c, column) in g.delta_map.iter_mut().enumerate() {
                column[a] = delta_map[a][c] as f32;
            }
        }
        g
    }
}
