//! The noise library's uniform: mirrors `struct NoiseState` in `shaders/noise/common.wgsl`;
//! `tests/suite/layout.rs` checks every field offset and the size against naga's layouter.

use bytemuck::{Pod, Zeroable};

use crate::layout::host_struct;

use crate::fixed::Fixed;
use crate::kinds::KindState;
use crate::spec::frames::OctaveFrame;
use crate::spec::{MAX_OCTAVES, Prepared};

host_struct! {
    /// One octave's frame as the GPU reads it (`struct OctaveFrame` in common.wgsl): the cells
    /// modulo 2^32 and the fractions' top 32 bits of [`OctaveFrame`]'s exact numbers.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
    pub struct FrameState as "OctaveFrame" {
        /// Cell of texel (0, 0, 0) per lattice axis, modulo 2^32.
        pub cell: [u32; 4],
        /// Its fraction's top 32 bits.
        pub word: [u32; 4],
        /// The steps in cells (modulo 2^32) and 2^-32 words (steps have no finer bits):
        /// `[e cell, e word, o cell, o word]`, where every diagonal step `step[b][b]` equals
        /// `e + o` and every off-diagonal one `o` (0 but for simplex's skew), so texel t lands at
        /// `origin[a] + t[a] e + (t.x + t.y + t.z) o` on lattice axis a (CONVENTIONS §1).
        pub step: [u32; 4],
    }
}

/// A fixed-point number's cell modulo 2^32 and its fraction's top 32 bits.
pub fn words(v: Fixed) -> (u32, u32) {
    (v.cell() as u32, (v.fraction_bits() >> 32) as u32)
}

impl FrameState {
    /// The GPU's view of an octave frame: its origin and its two distinct steps.
    pub fn new(frame: &OctaveFrame) -> Self {
        let mut state = FrameState::default();
        for a in 0..4 {
            (state.cell[a], state.word[a]) = words(frame.origin[a]);
        }
        let (diagonal, off) = frame.diagonal_steps();
        // e = f_k (1 + F) - f_k F, rounded alike: |e| <= |diagonal|, so no overflow.
        let e = Fixed(diagonal.0 - off.0);
        (state.step[0], state.step[1]) = words(e);
        (state.step[2], state.step[3]) = words(off);
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

impl NoiseState {
    /// The state of `prep` with octave k's tables in `slots[k]`.
    pub fn new(prep: &Prepared, slots: &[u32]) -> Self {
        let mut state = NoiseState {
            octaves: prep.octaves().len() as u32,
            ..Default::default()
        };
        for (k, (octave, &slot)) in prep.octaves().iter().zip(slots).enumerate() {
            state.octave[k] = OctaveState {
                scale: octave.scale() as f32,
                weight: octave.weight() as f32,
                slot,
                salt: octave.tables().impulse_salt,
                hash_seed: octave.tables().hash_seed,
                texel_frequency: (prep.spec().frequency * octave.scale()) as f32,
                _pad: [0; 2],
            };
            state.frame[k] = FrameState::new(octave.frame());
            // Validation keeps periods below 2^30.
            state.period[k] = octave.period().map(|c| c as i32);
        }
        state.kind = KindState::new(prep.kind_params());
        state
    }
}
