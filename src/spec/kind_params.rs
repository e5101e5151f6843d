//! What a spec's kind derives from its own fields (`KindParams`, in the kinds' layer).

use super::NoiseSpec;
use crate::kinds::KindParams;

impl NoiseSpec {
    /// What the spec's kind derives from its fields.
    pub fn kind_params(&self) -> KindParams {
        KindParams::new(self.kind, self.dims, &self.kind_fields)
    }
}
