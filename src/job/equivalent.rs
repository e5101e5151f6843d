//! What a plan's noise evaluations cost on the flat path: the yardstick for the executors'
//! overhead on a graph (`gpu-noise bench --graph`).

use super::Job;
use crate::kinds::MAX_OCTAVES;
use crate::spec::{Fractal, NoiseSpec};

impl Job {
    /// Flat fBm specs that evaluate the same noises as this job's plan, over its image: the
    /// plan's instances grouped by kind, interpolation and lattice, one octave per instance
    /// (a group of more than 16 split into several specs). Rendering all of them samples the
    /// kinds this job samples, as often, through the flat kernels; the ratio of the two times
    /// is what the plan's other steps, its registers and its warps cost.
    pub fn flat_equivalents(&self) -> Vec<NoiseSpec> {
        let plan = self.plan();
        let mut groups: Vec<(NoiseSpec, u32)> = Vec::new();
        for instance in &plan.instances {
            let same = |spec: &NoiseSpec| {
                spec.kind == instance.kind
                    && spec.interp == instance.interp
                    && spec.lattice == instance.lattice
            };
            match groups.iter_mut().find(|(spec, _)| same(spec)) {
                Some((_, count)) => *count += 1,
                None => {
                    let mut spec = NoiseSpec::new(instance.kind, plan.dims as u32);
                    spec.interp = instance.interp;
                    spec.lattice = instance.lattice;
                    spec.seed = instance.seed;
                    spec.frequency = instance.frequency;
                    spec.kind_fields = instance.fields;
                    spec.size = self.size();
                    spec.fractal = Fractal::Fbm;
                    groups.push((spec, 1));
                }
            }
        }
        let mut specs = Vec::new();
        for (spec, count) in groups {
            let mut left = count;
            while left > 0 {
                let octaves = left.min(MAX_OCTAVES);
                specs.push(NoiseSpec {
                    octaves,
                    ..spec.clone()
                });
                left -= octaves;
            }
        }
        specs
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use crate::graph::Graph;
    use crate::{Kind, Size};

    /// The terrain example samples perlin 10 times (fBm 5 and ridged 5) and simplex twice
    /// (the warp): two specs, with those octave counts, at the job's size.
    #[test]
    fn the_terrain_example_is_ten_perlin_and_two_simplex_octaves() {
        let text = include_str!("../../examples/graphs/terrain.json");
        let graph = Graph::from_json(text).expect("the example reads");
        let job = (graph.prepare(Size::new(64, 32, 1), [0.0; 4])).expect("it prepares");
        let specs = job.flat_equivalents();
        let summary: Vec<(Kind, u32)> = specs.iter().map(|s| (s.kind, s.octaves)).collect();
        assert_eq!(summary, [(Kind::Perlin, 10), (Kind::Simplex, 2)]);
        assert!(specs.iter().all(|s| s.size == Size::new(64, 32, 1)));
        assert!(specs.iter().all(|s| s.validate().is_ok()));
    }
}
