//! The flat view of a job made from a spec: its plan is `fractal(kind)`, noise instance k being
//! octave k, so the backends' single-kind fast paths (the twin's rows, the lanes' octave rows,
//! the GPU's specialized kernels) read the octaves here, weights and scales as the fractal step
//! sums them.

use super::Job;
use crate::graph::plan::Plan;
use crate::kinds::KindParams;
use crate::spec::{NoiseSpec, octave_weights};

/// A flat spec's octaves, in the plan's instance order.
#[derive(Clone, Debug)]
pub(crate) struct FlatView {
    /// The validated spec (kind, dims, interpolation, fractal, lattice, kind fields).
    pub spec: NoiseSpec,
    pub params: KindParams,
    /// Octave k's scale `lacunarity^k`, by repeated products (CONVENTIONS §4).
    pub scales: Vec<f64>,
    /// Octave k's weight; the weights sum to 1.
    pub weights: Vec<f64>,
}

impl FlatView {
    /// The view of `spec`, whose plan has one noise instance per octave.
    pub(crate) fn of(spec: &NoiseSpec, plan: &Plan) -> FlatView {
        let mut scale = 1.0;
        let scales = (0..spec.octaves)
            .map(|_| {
                let s = scale;
                scale *= spec.lacunarity;
                s
            })
            .collect();
        debug_assert_eq!(plan.instances.len(), spec.octaves as usize);
        FlatView {
            spec: spec.clone(),
            params: spec.kind_params(),
            scales,
            weights: octave_weights(spec.persistence, spec.octaves),
        }
    }

    /// Octaves summed.
    pub(crate) fn octaves(&self) -> usize {
        self.weights.len()
    }
}

impl Job {
    /// The flat spec's kind parameters as the kinds derive them (for a flat job).
    pub fn kind_params(&self) -> Option<&KindParams> {
        self.flat().map(|f| &f.params)
    }
}
