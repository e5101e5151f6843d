//! Making jobs: from a flat spec (the graph `fractal(kind)`, expanded like any graph) or from a
//! graph placed in an image.

use std::sync::Arc;

use super::flat::FlatView;
use super::{Job, MadeFrom, World};
use crate::error::{Error, Result};
use crate::graph::node::{Node, Op, Source};
use crate::graph::{Graph, plan};
use crate::kinds::Fractal;
use crate::spec::frames::Placement;
use crate::spec::validate::MAX_OFFSET;
use crate::spec::{NoiseSpec, Size};

impl NoiseSpec {
    /// Checks every field and builds the job: the plan `fractal(kind)` with its tables, octave
    /// weights and tiling periods, placed at the spec's offset (CONVENTIONS §1, §4, §5).
    pub fn validate(&self) -> Result<Job> {
        self.check_fields()?;
        let periods = self.tiling_periods()?;
        let graph = Graph::of_spec(self);
        let plan = plan::expand(&graph).map_err(|e| spec_error(self, e))?;
        let flat = FlatView::of(self, &plan);
        let world = World {
            plan,
            made_from: MadeFrom::Spec,
            flat: Some(flat),
            tiled: self.tile,
            kernel: Default::default(),
        };
        let place = Placement::at(&self.offset)
            .ok_or_else(|| Error::invalid("offset", "every coordinate must be a finite number"))?;
        let job = Job::placed(Arc::new(world), self.size, place, periods.into())
            .map_err(|e| spec_error(self, e))?;
        Ok(job.with_spec(self.clone()))
    }
}

/// A plan's or a placement's error about the flat spec's own graph, as an error naming the
/// spec field at fault.
fn spec_error(spec: &NoiseSpec, e: Error) -> Error {
    match e {
        Error::InvalidGraph { reason, .. } => Error::invalid(spec.offset_or_frequency(), reason),
        other => other,
    }
}

impl Graph {
    /// The graph of a flat spec: its kind node under its fractal node (the kind alone without a
    /// fractal); the spec's seed is the graph's, its lattice the graph's (CONVENTIONS §13).
    pub(crate) fn of_spec(spec: &NoiseSpec) -> Graph {
        let source = Node {
            name: "source".into(),
            op: Op::Source(Source {
                kind: spec.kind,
                frequency: spec.frequency,
                seed: 0,
                interp: spec.interp,
                fields: spec.kind_fields,
            }),
        };
        let mut nodes = vec![source];
        if spec.fractal != Fractal::None {
            nodes.push(Node {
                name: "fractal".into(),
                op: Op::Fractal {
                    source: 0,
                    fractal: spec.fractal,
                    octaves: spec.octaves,
                    lacunarity: spec.lacunarity,
                    persistence: spec.persistence,
                },
            });
        }
        Graph::from_parts(spec.dims, spec.seed, spec.lattice, nodes)
    }

    /// Places the graph in an image of `size` texels whose texel (0, 0, 0) sits at `offset`
    /// (texel units, as a spec's offset) and expands it (CONVENTIONS §13).
    pub fn prepare(&self, size: Size, offset: [f64; 4]) -> Result<Job> {
        self.place(size, offset, false)
    }

    /// As [`prepare`](Self::prepare), the image repeating exactly with its size (CONVENTIONS
    /// §5, §13): every noise must tile with it, on axis-aligned maps giving whole numbers of
    /// cells over the image; an error names the node that does not (`tile`).
    ///
    /// ```
    /// # use gpu_noise::graph::GraphBuilder;
    /// let mut g = GraphBuilder::new(2);
    /// g.node("hills", "perlin").set("frequency", 1.0 / 32.0);
    /// g.node("out", "fbm").input("source", "hills").set("octaves", 4u32);
    /// g.output("out");
    /// let job = g.build()?.prepare_tiled(gpu_noise::Size::new(256, 256, 1), [0.0; 4])?;
    /// assert!(job.is_tiled());
    /// # Ok::<(), gpu_noise::Error>(())
    /// ```
    pub fn prepare_tiled(&self, size: Size, offset: [f64; 4]) -> Result<Job> {
        self.place(size, offset, true)
    }

    fn place(&self, size: Size, offset: [f64; 4], tile: bool) -> Result<Job> {
        let mut probe = NoiseSpec::new(crate::Kind::Value, self.dims());
        probe.size = size;
        probe.check_size()?;
        if let Some(v) = offset.iter().find(|v| !v.abs().le(&MAX_OFFSET)) {
            return Err(Error::invalid(
                "offset",
                format!("every coordinate must be a finite number of magnitude <= 3.4e38, got {v}"),
            ));
        }
        let plan = plan::expand(self)?;
        let periods = if tile {
            let name = |step: usize| self.nodes()[plan.step_nodes[step]].name.clone();
            super::tiling::graph_periods(&plan, size, &name)?
        } else {
            vec![[0; 4]; plan.instances.len()]
        };
        let world = World {
            plan,
            made_from: MadeFrom::Graph(Box::new(self.clone())),
            flat: None,
            tiled: tile,
            kernel: Default::default(),
        };
        let place = Placement::at(&offset)
            .ok_or_else(|| Error::invalid("offset", "every coordinate must be a finite number"))?;
        let job = Job::placed(Arc::new(world), size, place, periods.into())?;
        job.check_ranges()?;
        Ok(job)
    }
}
