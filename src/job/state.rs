//! A flat job as the noise library's uniform reads it ([`NoiseState`]: the octaves' frames,
//! f32 scales and weights, table slots and kind state), for the GPU and the SIMD lanes.

use super::Job;
use crate::kinds::KindState;
use crate::wgsl::host::{FrameState, NoiseState, OctaveState};

impl Job {
    /// The uniform of a flat job with octave k's tables in `slots[k]`; `None` for a graph job.
    pub(crate) fn noise_state(&self, slots: &[u32]) -> Option<NoiseState> {
        let flat = self.flat()?;
        let mut state = NoiseState {
            octaves: flat.octaves() as u32,
            ..Default::default()
        };
        for (k, &slot) in slots.iter().enumerate().take(flat.octaves()) {
            let tables = self.tables(k);
            state.octave[k] = OctaveState {
                scale: flat.scales[k] as f32,
                weight: flat.weights[k] as f32,
                slot,
                salt: tables.impulse_salt,
                hash_seed: tables.hash_seed,
                texel_frequency: (flat.spec.frequency * flat.scales[k]) as f32,
                _pad: [0; 2],
            };
            state.frame[k] = FrameState::new(self.frame(k));
            // Validation keeps periods below 2^30.
            state.period[k] = self.period(k).map(|c| c as i32);
        }
        state.kind = KindState::new(&flat.params);
        Some(state)
    }
}
