//! [`Job`]: one render of one world, the only thing a backend executes. A job is a plan (a
//! flat spec is the graph `fractal(kind)`, expanded like any graph: CONVENTIONS §13) placed in
//! an image (its size, where its texels are in the world, at which level of detail:
//! CONVENTIONS §1), with the channels asked for (values, or values and gradients). The twin
//! (`cpu`), the SIMD lanes (`simd`) and the GPU (`Renderer`) each have one entry that runs any
//! job, on any window of its image.

mod bounds;
mod build;
mod chunk;
mod equivalent;
mod flat;
mod place;
mod state;
mod tiling;

use std::sync::Arc;

pub use chunk::{Chunk, MAX_LOD};
pub(crate) use flat::FlatView;

use crate::graph::Graph;
use crate::graph::plan::Plan;
use crate::spec::frames::{OctaveFrame, Placement};
use crate::spec::{NoiseSpec, Size};
use crate::tables::OctaveTables;

/// A validated render: a plan placed in an image. Build it from a flat spec
/// ([`NoiseSpec::validate`]) or a graph ([`Graph::prepare`]); place it elsewhere with
/// [`Job::chunk`] or [`Job::set_offset`]; ask for gradients with [`Job::with_gradient`].
///
/// Its fields are private, so a job cannot be edited behind a backend's back:
///
/// ```compile_fail
/// let mut job = gpu_noise::NoiseSpec::new(gpu_noise::Kind::Perlin, 2).validate()?;
/// job.size = gpu_noise::Size::new(1, 1, 1); // error: field `size` is private
/// # Ok::<(), gpu_noise::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Job {
    world: Arc<World>,
    size: Size,
    place: Placement,
    /// Per noise instance, then per coordinate instance: where the image's texels land.
    frames: Arc<[OctaveFrame]>,
    /// Per noise instance: its tiling period in cells per axis, 0 where the axis does not wrap.
    periods: Arc<[[i64; 4]]>,
    gradient: bool,
    /// The flat spec of a job made from one: its offset and size follow the job's moves.
    spec: Option<Arc<NoiseSpec>>,
    /// A chunk stays placed in its world ([`Job::chunk`]).
    chunk: bool,
}

/// What a job's image shows: the same for every placement.
#[derive(Debug)]
pub(crate) struct World {
    pub plan: Plan,
    pub made_from: MadeFrom,
    /// The flat spec's octaves, for the backends' single-kind fast paths.
    pub flat: Option<FlatView>,
    /// Whether the image repeats with its size (CONVENTIONS §5).
    pub tiled: bool,
    /// The plan's GPU kernel, generated on first use.
    pub kernel: std::sync::OnceLock<crate::wgsl::codegen::GraphKernel>,
}

/// What a job was made from.
#[derive(Clone, Debug)]
pub(crate) enum MadeFrom {
    Spec,
    Graph(Box<Graph>),
}

impl Job {
    /// The image's size in texels.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The dimensions of the noise's domain.
    pub fn dims(&self) -> u32 {
        self.world.plan.dims as u32
    }

    /// The flat spec this job renders, if it was made from one: its offset follows
    /// [`set_offset`](Self::set_offset); a chunk's spec keeps the world's offset and has the
    /// chunk's size.
    pub fn spec(&self) -> Option<&NoiseSpec> {
        self.spec.as_deref()
    }

    /// Each noise instance's frame (a flat spec's: one per octave), then each coordinate
    /// node's: where the image's texels land on their lattices (CONVENTIONS §1).
    pub fn frames(&self) -> &[OctaveFrame] {
        &self.frames
    }

    /// The graph this job renders, if it was made from one.
    pub fn graph(&self) -> Option<&Graph> {
        match &self.world.made_from {
            MadeFrom::Graph(graph) => Some(graph),
            MadeFrom::Spec => None,
        }
    }

    /// Where image texel (0, 0, 0) is in the world, in texel units (the offset of an image; for
    /// a chunk, its first texel's place), rounded to f64.
    pub fn offset(&self) -> [f64; 4] {
        std::array::from_fn(|a| self.place.texel[a] as f64 + self.place.fraction[a])
    }

    /// Image texels are `2^lod` world texels apart.
    pub fn lod(&self) -> u32 {
        self.place.lod
    }

    /// Whether the job computes each texel's gradient with its value (CONVENTIONS §12).
    pub fn has_gradient(&self) -> bool {
        self.gradient
    }

    /// The range the values nominally span, which levels map to black..white by default: the
    /// fractal's (CONVENTIONS §6) for a flat job, [-1, 1] for a graph.
    pub fn nominal_range(&self) -> (f64, f64) {
        self.spec()
            .map_or((-1.0, 1.0), |s| s.fractal.nominal_range())
    }

    /// Whether the image repeats exactly with its size (CONVENTIONS §5).
    pub fn is_tiled(&self) -> bool {
        self.world.tiled
    }

    /// Steps per texel once octaves and warp iterations are expanded.
    pub fn steps(&self) -> usize {
        self.world.plan.steps.len()
    }

    /// Noise evaluations per texel (the samples of a Msamples/s figure).
    pub fn noise_evaluations(&self) -> usize {
        self.world.plan.instances.len()
    }

    pub(crate) fn plan(&self) -> &Plan {
        &self.world.plan
    }

    pub(crate) fn flat(&self) -> Option<&FlatView> {
        self.world.flat.as_ref()
    }

    /// Noise instance `i`'s frame (coordinates follow the noise instances).
    pub(crate) fn frame(&self, i: usize) -> &OctaveFrame {
        &self.frames[i]
    }

    /// Coordinate instance `i`'s frame.
    pub(crate) fn coordinate_frame(&self, i: usize) -> &OctaveFrame {
        &self.frames[self.world.plan.instances.len() + i]
    }

    /// Noise instance `i`'s tiling period per axis (0: no wrap).
    pub(crate) fn period(&self, i: usize) -> [i64; 4] {
        self.periods[i]
    }

    /// Noise instance `i`'s tables.
    pub(crate) fn tables(&self, i: usize) -> &OctaveTables {
        &self.world.plan.tables[self.world.plan.instances[i].tables]
    }

    pub(crate) fn placement(&self) -> &Placement {
        &self.place
    }

    /// The plan as one GPU kernel (CONVENTIONS §13): its generated WGSL and numbers.
    pub(crate) fn kernel(&self) -> &crate::wgsl::codegen::GraphKernel {
        (self.world.kernel).get_or_init(|| crate::wgsl::codegen::generate(&self.world.plan))
    }

    /// The graph kernel's state for this placement.
    pub(crate) fn kernel_state(&self) -> Vec<u8> {
        self.kernel().state_bytes(&self.frames, &self.periods)
    }

    /// The WGSL the GPU runs for this job's plan: the noise library, `shaders/graph/` and the
    /// generated `GraphState` and `gn_graph_value(t)` (CONVENTIONS §13). Plans of the same
    /// structure give the same source.
    pub fn wgsl(&self) -> String {
        crate::wgsl::sources::graph_source(&self.kernel().source)
    }

    /// The plan as WGSL for a caller's own shader: the noise library and the plan with their
    /// bindings at `@group(group)` (bind a [`GraphBindings`](crate::gpu::GraphBindings) there),
    /// and `fn gn_graph_value(t: vec3<u32>) -> f32`, the job's value at image texel `t` (z = 0
    /// but in volumes), exact at any offset. Plans of the same structure give the same module.
    ///
    /// ```
    /// # use gpu_noise::graph::GraphBuilder;
    /// let mut g = GraphBuilder::new(2);
    /// g.node("hills", "perlin").set("frequency", 0.02);
    /// g.node("out", "fbm").input("source", "hills").set("octaves", 4u32);
    /// g.output("out");
    /// let job = g.build()?.prepare(gpu_noise::Size::new(256, 256, 1), [0.0; 4])?;
    /// let shader = job.wgsl_module(1) + r#"
    ///     @group(0) @binding(0) var<storage, read_write> heights: array<f32>;
    ///     @compute @workgroup_size(8, 8)
    ///     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    ///         heights[id.y * 256u + id.x] = gn_graph_value(vec3<u32>(id.xy, 0u));
    ///     }
    /// "#;
    /// gpu_noise::wgsl::validate(&shader).expect("valid WGSL");
    /// # Ok::<(), gpu_noise::Error>(())
    /// ```
    pub fn wgsl_module(&self, group: u32) -> String {
        crate::wgsl::sources::graph_module(group, &self.kernel().source)
    }
}

impl Job {
    /// This job computing each texel's gradient along the image axes with its value:
    /// `[value, d/dx, d/dy, d/dz]` per texel (CONVENTIONS §12). An error names the kind (or
    /// the node) without analytic derivatives.
    pub fn with_gradient(&self) -> crate::Result<Job> {
        let mut job = self.clone();
        job.gradient = true;
        job.check_gradient()?;
        Ok(job)
    }

    /// This job computing values only.
    pub fn with_values(&self) -> Job {
        let mut job = self.clone();
        job.gradient = false;
        job
    }

    /// Whether every noise of the job has analytic derivatives: a flat spec's error names
    /// `kind` or `interp`, a graph's the first node without them.
    pub(crate) fn check_gradient(&self) -> crate::Result<()> {
        if let Some(spec) = self.spec() {
            return spec.check_derivatives();
        }
        let plan = self.plan();
        for (step, node) in plan.steps.iter().zip(&plan.step_nodes) {
            let crate::graph::plan::Step::Noise { instance, .. } = step else {
                continue;
            };
            let inst = &plan.instances[*instance];
            let name = self.graph().map_or("", |g| g.nodes()[*node].name.as_str());
            if !inst.kind.has_derivatives() {
                return Err(crate::graph::read::graph_error(
                    name,
                    "type",
                    format!(
                        "{} noise has no analytic derivatives, so the graph has no gradient; \
                         perlin, gradient, value and simplex do (CONVENTIONS §12)",
                        inst.kind
                    ),
                ));
            }
            if inst.interp == crate::kinds::Interp::Nearest && inst.kind.interpolates() {
                return Err(crate::graph::read::graph_error(
                    name,
                    "interp",
                    "nearest steps have no derivatives; use linear, cosine, cubic, quintic or \
                     catmull-rom",
                ));
            }
        }
        Ok(())
    }
}
