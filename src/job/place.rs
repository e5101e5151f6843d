//! A job's frames: every instance's map placed in the image (CONVENTIONS §1), with the reach
//! checks that keep every texel below 2^62 cells, and moves of the image within its world.

use std::sync::Arc;

use super::{Job, World};
use crate::error::{Error, Result};
use crate::graph::read::graph_error;
use crate::spec::frames::{OctaveFrame, Placement, PointMap, wrap_cells};
use crate::spec::validate::MAX_OFFSET;
use crate::spec::{NoiseSpec, Size};

impl Job {
    /// The job of `world` in an image of `size` at `place`: each instance's frame, its origin's
    /// cells wrapped by `periods` (noise instances), checked to stay below 2^62 cells at every
    /// texel. An error names the node whose points go too far.
    pub(crate) fn placed(
        world: Arc<World>,
        size: Size,
        place: Placement,
        periods: Arc<[[i64; 4]]>,
    ) -> Result<Job> {
        let plan = &world.plan;
        let extent = [size.width, size.height, size.depth];
        let noise = plan.instances.iter().map(|i| &i.points);
        let coordinates = plan.coordinates.iter().map(|c| &c.points);
        let mut frames = Vec::with_capacity(plan.instances.len() + plan.coordinates.len());
        for (i, points) in noise.chain(coordinates).enumerate() {
            let mut frame =
                place_map(points, &place, extent).ok_or_else(|| world.reach_error(i, &place))?;
            if let Some(period) = periods.get(i) {
                wrap_cells(&mut frame.origin, *period);
            }
            frames.push(frame);
        }
        if let Some(i) = (plan.instances.len()..frames.len())
            .find(|&i| !coordinate_span_fits(&frames[i], extent))
        {
            return Err(world.span_error(i));
        }
        Ok(Job {
            world,
            size,
            place,
            frames: frames.into(),
            periods,
            gradient: false,
            spec: None,
            chunk: false,
        })
    }

    /// The same world with the image's texel (0, 0, 0) at `offset` (texel units): to scroll or
    /// animate (time as z or w). On error `self` is unchanged.
    pub fn set_offset(&mut self, offset: [f64; 4]) -> Result<()> {
        *self = self.with_offset(offset)?;
        Ok(())
    }

    /// This job with the image's texel (0, 0, 0) at `offset`. A chunk stays placed in its
    /// world: move the world's job and take the chunk again.
    pub fn with_offset(&self, offset: [f64; 4]) -> Result<Job> {
        self.refuse_chunk()?;
        if let Some(v) = offset.iter().find(|v| !v.abs().le(&MAX_OFFSET)) {
            return Err(Error::invalid(
                "offset",
                format!("every coordinate must be a finite number of magnitude <= 3.4e38, got {v}"),
            ));
        }
        let place = Placement::at(&offset)
            .ok_or_else(|| Error::invalid("offset", "every coordinate must be finite"))?;
        let mut job = Job::placed(
            Arc::clone(&self.world),
            self.size,
            Placement {
                lod: self.place.lod,
                ..place
            },
            Arc::clone(&self.periods),
        )?;
        job.gradient = self.gradient;
        job.spec = self.spec.as_ref().map(|s| {
            let mut spec = NoiseSpec::clone(s);
            spec.offset = offset;
            Arc::new(spec)
        });
        Ok(job)
    }

    /// The job of another flat spec (as [`NoiseSpec::validate`]); on error `self` is unchanged.
    pub fn set_spec(&mut self, spec: NoiseSpec) -> Result<()> {
        self.refuse_chunk()?;
        *self = spec.validate()?;
        Ok(())
    }

    fn refuse_chunk(&self) -> Result<()> {
        if self.chunk {
            return Err(super::chunk::chunk_error(
                "coords",
                "a chunk stays placed in its world: move the world's job and take the chunk \
                 again"
                    .into(),
            ));
        }
        Ok(())
    }

    pub(crate) fn with_spec(mut self, spec: NoiseSpec) -> Job {
        self.spec = Some(Arc::new(spec));
        self
    }

    /// Noise instance `i`'s (or, past the noise instances, coordinate instance's) exact lattice
    /// point at the root point `x` in texel units (CONVENTIONS §1: the origin of an image at
    /// offset `x`), wrapped when tiling; `None` past 2^62 cells.
    pub(crate) fn lattice_at(&self, i: usize, x: &[f64; 4]) -> Option<[crate::fixed::Fixed; 4]> {
        let plan = &self.world.plan;
        let points = match plan.instances.get(i) {
            Some(inst) => &inst.points,
            None => &plan.coordinates[i - plan.instances.len()].points,
        };
        let mut l = points.lattice(x)?;
        if let Some(period) = self.periods.get(i) {
            wrap_cells(&mut l, *period);
        }
        Some(l)
    }
}

impl Job {
    /// Refuses root points (texel units, as [`crate::cpu::sample_texels`] reads them) where any
    /// noise or coordinate of the job passes 2^62 lattice cells (field `points`, with the
    /// 1-based index of the first such point), as [`NoiseSpec::check_points`] does for flat
    /// specs; past that the twin has no exact point and would return NaN.
    pub fn check_texel_points(&self, points: &[[f64; 4]]) -> Result<()> {
        let count = self.world.plan.instances.len() + self.world.plan.coordinates.len();
        let reaches = |p: &[f64; 4]| (0..count).all(|i| self.lattice_at(i, p).is_some());
        match points.iter().position(|p| !reaches(p)) {
            None => Ok(()),
            Some(n) => Err(Error::invalid(
                "points",
                format!(
                    "point {}: every noise's lattice coordinates must be finite and below 2^62 \
                     cells in magnitude (CONVENTIONS §1)",
                    n + 1
                ),
            )),
        }
    }
}

/// `points` placed at `place`, if every texel of an image of `extent` stays below 2^62 cells.
fn place_map(points: &PointMap, place: &Placement, extent: [u32; 3]) -> Option<OctaveFrame> {
    let frame = points.frame(place)?;
    frame.reaches(extent).then_some(frame)
}

/// Whether a coordinate's cells stay within 2^31 of the image's first texel over an image of
/// `extent` (warps included: they move a point at most 2^24 cells), as the GPU's
/// `graph_coordinate` reads them relative to it in 32 bits.
fn coordinate_span_fits(frame: &OctaveFrame, extent: [u32; 3]) -> bool {
    let limit = 2_147_483_648.0 - crate::graph::bound::MAX_DISPLACEMENT_CELLS;
    (0..4).all(|a| {
        let span: f64 = (0..3)
            .map(|b| frame.step[b][a].to_f64().abs() * f64::from(extent[b].max(1) - 1))
            .sum();
        span < limit
    })
}

impl World {
    /// The error of coordinate instance `i` (counted after the noise instances) whose cells
    /// span 2^31 or more across the image.
    fn span_error(&self, i: usize) -> Error {
        graph_error(
            &self.instance_node(i),
            "frequency",
            "its cells span 2^31 or more across this image: a coordinate is read relative to \
             the image's first texel in 32 bits (CONVENTIONS §13); use a smaller size or \
             frequency",
        )
    }

    /// The name of the node of instance `i` (noise, then coordinates); empty for a flat spec.
    fn instance_node(&self, i: usize) -> String {
        let plan = &self.plan;
        let step = (plan.steps.iter()).position(|s| match s {
            crate::graph::plan::Step::Noise { instance, .. } => *instance == i,
            crate::graph::plan::Step::Coordinate { instance, .. } => {
                *instance + plan.instances.len() == i
            }
            _ => false,
        });
        let node = step.map_or(0, |s| plan.step_nodes[s]);
        match &self.made_from {
            super::MadeFrom::Graph(graph) => graph.nodes()[node].name.clone(),
            super::MadeFrom::Spec => String::new(),
        }
    }

    /// The error of instance `i` (noise, then coordinates) whose points pass 2^62 cells.
    fn reach_error(&self, i: usize, place: &Placement) -> Error {
        let name = self.instance_node(i);
        let lod = if place.lod > 0 {
            format!(" at lod {}", place.lod)
        } else {
            String::new()
        };
        graph_error(
            &name,
            "frequency",
            format!(
                "takes points past 2^62 lattice cells at this offset and size{lod} (CONVENTIONS \
                 §1); use a smaller frequency, scale or offset"
            ),
        )
    }
}
