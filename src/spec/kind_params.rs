//! What a spec's kind derives from its fields (`KindParams`, in the kinds' layer).

use super::NoiseSpec;
use crate::kinds::{KindFields, KindParams};

impl NoiseSpec {
    /// The spec's own kind parameters (its cellular, impulse and Gabor fields).
    pub fn kind_fields(&self) -> KindFields {
        KindFields {
            jitter: self.jitter,
            distance: self.distance,
            cell_return: self.cell_return,
            density: self.density,
            gabor_frequency: self.gabor_frequency,
            gabor_orientation: self.gabor_orientation,
            gabor_bandwidth: self.gabor_bandwidth,
        }
    }

    /// Sets the spec's kind-owned fields.
    pub fn set_kind_fields(&mut self, fields: &KindFields) {
        self.jitter = fields.jitter;
        self.distance = fields.distance;
        self.cell_return = fields.cell_return;
        self.density = fields.density;
        self.gabor_frequency = fields.gabor_frequency;
        self.gabor_orientation = fields.gabor_orientation;
        self.gabor_bandwidth = fields.gabor_bandwidth;
    }

    /// What the spec's kind derives from its fields.
    pub fn kind_params(&self) -> KindParams {
        KindParams::new(self.kind, self.dims, &self.kind_fields())
    }
}
