//! The noise library's uniform: mirrors `struct NoiseState` in `shaders/noise/common.wgsl`;
//! `tests/suite/layout.rs` checks every field offset and the size against naga's layouter.

use bytemuck::{Pod, Zeroable};

use crate::spec::{MAX_OCTAVES, Prepared};

/// One octave as the GPU reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct OctaveState {
    /// `lacunarity^k`, rounded to f32.
    pub scale: f32,
    /// The octave's normalized weight, rounded to f32.
    pub weight: f32,
    /// The table slot holding this octave's permutation, gradients and values.
    pub slot: u32,
    /// Padding to 16 bytes.
    pub _pad: u32,
}

/// The octaves of a prepared spec, with their table slots: what `fractal_noise(p)` reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct NoiseState {
    /// Octaves in use.
    pub octaves: u32,
    /// Padding to 16 bytes.
    pub _pad: [u32; 3],
    /// Per octave: scale, weight, table slot.
    pub octave: [OctaveState; MAX_OCTAVES as usize],
    /// Tiling period in cells per octave and axis; 0 = no wrap.
    pub period: [[i32; 4]; MAX_OCTAVES as usize],
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
                _pad: 0,
            };
            // Validation keeps periods below 2^30.
            state.period[k] = octave.period().map(|c| c as i32);
        }
        state
    }

    /// Field names in declaration order with their Rust offsets, for the layout test.
    pub fn field_offsets() -> Vec<(&'static str, usize)> {
        use std::mem::offset_of;
        vec![
            ("octaves", offset_of!(NoiseState, octaves)),
            ("_pad0", offset_of!(NoiseState, _pad)),
            ("_pad1", offset_of!(NoiseState, _pad) + 4),
            ("_pad2", offset_of!(NoiseState, _pad) + 8),
            ("octave", offset_of!(NoiseState, octave)),
            ("period", offset_of!(NoiseState, period)),
        ]
    }
}

impl OctaveState {
    /// Field names in declaration order with their Rust offsets, for the layout test.
    pub fn field_offsets() -> Vec<(&'static str, usize)> {
        use std::mem::offset_of;
        vec![
            ("scale", offset_of!(OctaveState, scale)),
            ("weight", offset_of!(OctaveState, weight)),
            ("slot", offset_of!(OctaveState, slot)),
            ("_pad", offset_of!(OctaveState, _pad)),
        ]
    }
}
