//! A job's error and magnitude bounds (CONVENTIONS §7, §13): what a correct f32 backend may
//! differ from the twin by, and the refusals of values that leave f32's range.

use super::Job;
use crate::error::Result;
use crate::graph::bound;
use crate::graph::read::graph_error;
use crate::tolerance::Bound;

impl Job {
    /// The largest |GPU - twin| (or |SIMD - twin|) a correct f32 backend can produce for this
    /// job, and why.
    pub fn gpu_error_bound(&self) -> Bound {
        match self.spec() {
            Some(spec) => crate::tolerance::gpu_error_bound(spec),
            None => self.bounds().0,
        }
    }

    /// The largest |GPU - twin| of a gradient component for this job with gradients
    /// (CONVENTIONS §13): the value's bound times `1 + 8 S`, S the lattice cells per world
    /// texel summed over the noise and coordinate instances (each instance's f32 error in its
    /// lattice fraction is stretched by its map).
    pub fn gradient_error_bound(&self) -> f64 {
        let plan = self.plan();
        let maps = (plan.instances.iter().map(|i| &i.points.map))
            .chain(plan.coordinates.iter().map(|c| &c.points.map));
        let stretch: f64 = maps
            .map(|m| {
                (0..3)
                    .map(|b| (0..4).map(|a| m[a][b].abs()).sum::<f64>())
                    .fold(0.0, f64::max)
            })
            .sum();
        self.gpu_error_bound().value * (1.0 + 8.0 * stretch)
    }

    /// A bound on |value| over the image: each kind's nominal magnitude carried through the
    /// nodes (CONVENTIONS §13); twice it is the span a bound is judged by.
    pub fn magnitude_bound(&self) -> f64 {
        self.bounds().1
    }

    /// Whether the job's values jump anywhere (cellular `cell-value` borders, Gabor's
    /// truncation, a select without falloff): near a jump an f32 engine may take the other side
    /// (CONVENTIONS §7).
    pub fn has_discontinuities(&self) -> bool {
        let reach = |i: usize, axis: usize| self.coordinate_reach(i, axis);
        bound::has_jumps(self.plan(), &reach)
    }

    /// Every plan step's static error bound, in order (`graph::bound::step_errors`).
    pub(crate) fn step_error_bounds(&self) -> Vec<f64> {
        let reach = |i: usize, axis: usize| self.coordinate_reach(i, axis);
        bound::step_errors(self.plan(), &reach)
    }

    fn bounds(&self) -> (Bound, f64) {
        let reach = |i: usize, axis: usize| self.coordinate_reach(i, axis);
        bound::gpu_error_bound(self.plan(), &reach)
    }

    /// Refuses flat jobs whose f32 error bound would say nothing (above 1e-3 of the output
    /// range: an all-zero image would pass it; CONVENTIONS §7) before an f32 backend renders
    /// them. A graph's bound is judged where it is compared (`verify`, CONVENTIONS §13).
    pub fn check_gpu_precision(&self) -> Result<()> {
        match self.spec() {
            Some(spec) => crate::tolerance::check_gpu_precision(spec),
            None => Ok(()),
        }
    }

    /// Refuses a graph whose fused GPU kernel a driver would take minutes to compile: more
    /// than 256 noise evaluations a texel, or more than 32 outside the kernel's loops (warped
    /// noise under fractals), naming the node (CONVENTIONS §13). Flat specs and other graphs
    /// pass; the SIMD backend and the twin render every graph.
    pub fn check_gpu_kernel(&self) -> Result<()> {
        if self.spec().is_some() {
            return Ok(());
        }
        let kernel = self.kernel();
        match crate::wgsl::batches::past_gpu_limits(self.plan(), &kernel.batches) {
            None => Ok(()),
            Some((node, reason)) => {
                let name = self.graph().map_or("", |g| g.nodes()[node].name.as_str());
                Err(graph_error(name, "", reason))
            }
        }
    }

    /// Refuses graphs whose values can leave f32's range or whose warps move points too far,
    /// naming the node.
    pub(crate) fn check_ranges(&self) -> Result<()> {
        let reach = |i: usize, axis: usize| self.coordinate_reach(i, axis);
        bound::check_ranges(self.plan(), &reach).map_err(|(node, reason)| {
            let name = self.graph().map_or("", |g| g.nodes()[node].name.as_str());
            graph_error(name, "", reason)
        })
    }

    /// The largest |value| of coordinate instance `i` on `axis` over the image: it is affine in
    /// the texel, so the largest is at a corner.
    fn coordinate_reach(&self, i: usize, axis: usize) -> f64 {
        let s = self.size();
        let far = [s.width, s.height, s.depth].map(|n| i64::from(n) - 1);
        let frame = self.coordinate_frame(i);
        (0..8)
            .filter_map(|c| {
                frame.point([0, 1, 2].map(|b| if c >> b & 1 == 1 { far[b] } else { 0 }))
            })
            .map(|p| p[axis].to_f64().abs())
            .fold(0.0, f64::max)
    }
}
