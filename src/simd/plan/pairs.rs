//! Noise steps run in pairs: two whose seeds alone differ (a warp's axes) in one pass of the
//! kind's pair row ([`NoisePairRow`]), where it has one.

use super::NoiseLanes;
use crate::graph::plan::Step;
use crate::job::Job;
use crate::kinds::{InstructionSet, LatticeKind, NoisePairRow};

/// A later noise step that a noise step runs with, in one pass ([`NoisePairRow`]).
#[derive(Clone, Copy)]
pub(super) struct Pair {
    pub step: usize,
    pub instance: usize,
    pub row: NoisePairRow,
}

/// Noise steps to run in pairs: a noise step and a later one of the same kind, frame,
/// parameters, interpolation, tiling and displacement whose seeds alone differ (a warp's axes),
/// where the kind has a pair row here. The later one is never the last step (which may write
/// the texels directly). Every noise is in one pair at most. Returns each step's pair, and
/// whether a step is the later one of a pair.
pub(super) fn noise_pairs(
    job: &Job,
    steps: &[Step<f32>],
    noises: &[NoiseLanes],
    lattice: LatticeKind,
    isa: InstructionSet,
) -> (Vec<Option<Pair>>, Vec<bool>) {
    let plan = job.plan();
    let mut pairs = vec![None; steps.len()];
    let mut taken = vec![false; steps.len()];
    let noise = |i: usize| match steps[i] {
        Step::Noise { instance, delta } => Some((instance, delta)),
        _ => None,
    };
    for i in 0..steps.len() {
        let Some((a, delta)) = noise(i).filter(|_| !taken[i]) else {
            continue;
        };
        let (inst, lanes) = (&plan.instances[a], &noises[a]);
        let Some(row) = (inst.kind.info()).pair_row(plan.dims as u32, inst.interp, lattice, isa)
        else {
            continue;
        };
        let alike = |b: usize| {
            let (other, theirs) = (&plan.instances[b], &noises[b]);
            other.kind == inst.kind
                && theirs.interp == lanes.interp
                && theirs.period == lanes.period
                && theirs.delta_map == lanes.delta_map
                && bytemuck::bytes_of(&theirs.kind) == bytemuck::bytes_of(&lanes.kind)
                && job.frames()[b] == job.frames()[a]
        };
        let partner = (i + 1..steps.len().saturating_sub(1))
            .find(|&j| !taken[j] && noise(j).is_some_and(|(b, d)| d == delta && alike(b)));
        if let Some(j) = partner {
            let instance = noise(j).map_or(a, |(b, _)| b);
            pairs[i] = Some(Pair {
                step: j,
                instance,
                row,
            });
            taken[i] = true;
            taken[j] = true;
        }
    }
    let mut paired = vec![false; steps.len()];
    for pair in pairs.iter().flatten() {
        paired[pair.step] = true;
    }
    (pairs, paired)
}

#[cfg(test)]
mod tests {
    use super::super::PlanLanes;
    use crate::graph::Graph;
    use crate::kinds::InstructionSet;
    use crate::{Size, Window};

    /// A warp whose axes are simplex noises under two seeds (the terrain example's, in 2D on the
    /// prime lattice), and a 3D one on xxHash32's lattice whose third axis, simplex too, is
    /// displaced (it pairs with neither): on every wide instruction set this CPU has, the
    /// undisplaced axes run as one pair, and the images equal the baseline's bit for bit (it
    /// has no pair rows: each noise runs alone there).
    #[test]
    fn paired_noise_steps_give_the_bits_of_each_noise_alone() {
        let warped_3d = r#"{"dims": 3, "seed": 4, "lattice": "hash", "output": "out", "nodes": {
            "base": {"type": "perlin", "frequency": 0.05},
            "push": {"type": "value", "frequency": 0.1, "seed": 8},
            "sx": {"type": "simplex", "frequency": 0.03, "seed": 1},
            "sy": {"type": "simplex", "frequency": 0.03, "seed": 2},
            "sz": {"type": "simplex", "frequency": 0.03, "seed": 3},
            "wz": {"type": "warp", "source": "sz", "by": ["push", "push", "push"], "amplitude": 3},
            "out": {"type": "warp", "source": "base", "by": ["sx", "sy", "wz"], "amplitude": 9}
        }}"#;
        let terrain = include_str!("../../../examples/graphs/terrain.json");
        for (text, size) in [
            (terrain, Size::new(75, 6, 1)),
            (warped_3d, Size::new(41, 3, 3)),
        ] {
            let graph = Graph::from_json(text).expect("the graph reads");
            let job = graph.prepare(size, [0.0; 4]).expect("it prepares");
            let window = Window::full(size);
            let baseline = crate::simd::render_window_on(InstructionSet::Baseline, &job, window)
                .expect("the baseline renders");
            let bits = |image: &[f32]| image.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            let mut wide = 0;
            for isa in [InstructionSet::Avx512, InstructionSet::Avx2] {
                if !isa.available() {
                    continue;
                }
                let pairs = PlanLanes::new(&job, isa).pairs.iter().flatten().count();
                assert_eq!(pairs, 1, "{isa:?}: pairs found");
                let image = crate::simd::render_window_on(isa, &job, window).expect("it renders");
                assert_eq!(bits(&image), bits(&baseline), "{isa:?}");
                wide += 1;
            }
            assert!(
                wide > 0 || !cfg!(target_arch = "x86_64"),
                "an x86-64 CPU without AVX2"
            );
        }
    }
}
