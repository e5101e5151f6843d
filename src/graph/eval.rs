//! The f64 twin of a graph (CONVENTIONS §13): each step of the expanded plan in order, per
//! texel, with the kinds' own f64 functions at each noise instance's exact point.

use super::Graph;
use super::codegen::{self, GraphKernel};
use super::ops;
use super::plan::{self, Plan, Step};
use crate::cpu::fractal::{fractal_finish, fractal_term};
use crate::cpu::points::texel_coordinates;
use crate::cpu::points::texel_lattice_point;
use crate::error::{Error, Result};
use crate::kinds::lattice::twin::{Lattice, LatticePoint, lattice_point};
use crate::kinds::noise_octave;
use crate::spec::{MAX_OCTAVES, Size};
use crate::window::Window;

/// Where the graph is evaluated: an image texel (through the frames) or any root point.
#[derive(Clone, Copy, Debug)]
enum Position {
    Texel([u32; 3]),
    Point([f64; 4]),
}

/// A graph placed in an image: size, offset, and the expanded plan with every frame and table.
#[derive(Clone, Debug)]
pub struct PreparedGraph {
    graph: Graph,
    size: Size,
    offset: [f64; 4],
    plan: Plan,
    kernel: GraphKernel,
}

impl Graph {
    /// Places the graph in an image of `size` texels whose texel (0, 0, 0) sits at `offset`
    /// (texel units, as a spec's offset) and expands it (CONVENTIONS §13).
    pub fn prepare(&self, size: Size, offset: [f64; 4]) -> Result<PreparedGraph> {
        let mut probe = crate::NoiseSpec::new(crate::Kind::Value, self.dims);
        probe.size = size;
        probe.check_size()?;
        if let Some(v) = offset.iter().find(|v| !v.abs().le(&(f32::MAX as f64))) {
            return Err(Error::InvalidSpec {
                field: "offset",
                reason: format!(
                    "every coordinate must be a finite number of magnitude <= 3.4e38, got {v}"
                ),
            });
        }
        let plan = plan::expand(self, size, offset)?;
        let kernel = codegen::generate(&plan, self.dims as usize);
        let prepared = PreparedGraph {
            graph: self.clone(),
            size,
            offset,
            plan,
            kernel,
        };
        let corners = |i: usize, axis: usize| prepared.coordinate_reach(i, axis);
        if let Err((node, reason)) = super::bound::check_ranges(&prepared.plan, &corners) {
            return Err(super::read::graph_error(&self.nodes[node].name, "", reason));
        }
        Ok(prepared)
    }
}

impl PreparedGraph {
    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The image size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Texel (0, 0, 0)'s place, texel units.
    pub fn offset(&self) -> [f64; 4] {
        self.offset
    }

    /// The GPU kernel's generated part and state.
    pub(crate) fn kernel(&self) -> &GraphKernel {
        &self.kernel
    }

    /// The tables of every seed the graph reads, by slot.
    pub(crate) fn tables(&self) -> &[crate::tables::OctaveTables] {
        &self.plan.tables
    }

    /// The seed of each table slot.
    pub(crate) fn table_seeds(&self) -> &[u64] {
        &self.plan.table_seeds
    }

    /// The WGSL the GPU runs for this graph: the noise library, shaders/graph/ and the
    /// generated `GraphState` and `gn_graph_value(t)` (CONVENTIONS §13). Graphs of the same
    /// structure give the same source.
    pub fn wgsl(&self) -> String {
        crate::wgsl::sources::graph_source(&self.kernel.source)
    }

    /// The graph as WGSL for a caller's own shader: the noise library and the graph with their
    /// bindings at `@group(group)` (bind a [`GraphBindings`](crate::GraphBindings) there),
    /// and `fn gn_graph_value(t: vec3<u32>) -> f32`, the graph at image texel `t` (z = 0 but in
    /// volumes), exact at any offset. Graphs of the same structure give the same module.
    ///
    /// ```
    /// # use gpu_noise::graph::GraphBuilder;
    /// let mut g = GraphBuilder::new(2);
    /// g.node("hills", "perlin").set("frequency", 0.02);
    /// g.node("out", "fbm").input("source", "hills").set("octaves", 4u32);
    /// g.output("out");
    /// let prepared = g.build()?.prepare(gpu_noise::Size::new(256, 256, 1), [0.0; 4])?;
    /// let shader = prepared.wgsl_module(1) + r#"
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
        crate::wgsl::sources::graph_module(group, &self.kernel.source)
    }

    /// The largest |GPU - twin| a correct GPU kernel can produce for this graph, and why
    /// (CONVENTIONS §13): each node's error carried by its Lipschitz constant.
    pub fn gpu_error_bound(&self) -> crate::tolerance::Bound {
        self.bounds().0
    }

    /// A bound on |value| over the image from the nodes' nominal ranges (each kind's nominal
    /// magnitude, CONVENTIONS §13): `2 x` it is the nominal span the error bound is judged by.
    pub fn magnitude_bound(&self) -> f64 {
        self.bounds().1
    }

    fn bounds(&self) -> (crate::tolerance::Bound, f64) {
        let reach = |i: usize, axis: usize| self.coordinate_reach(i, axis);
        super::bound::gpu_error_bound(&self.plan, &reach)
    }

    /// The largest |value| of coordinate instance `i` on `axis` over the image: it is affine in
    /// the texel, so the largest is at a corner.
    fn coordinate_reach(&self, i: usize, axis: usize) -> f64 {
        let s = self.size;
        let far = [s.width, s.height, s.depth].map(|n| i64::from(n) - 1);
        let frame = &self.plan.coordinates[i].frame;
        (0..8)
            .filter_map(|c| {
                frame.point([0, 1, 2].map(|b| if c >> b & 1 == 1 { far[b] } else { 0 }))
            })
            .map(|p| p[axis].to_f64().abs())
            .fold(0.0, f64::max)
    }

    /// Steps per texel once octaves and iterations are expanded.
    pub fn steps(&self) -> usize {
        self.plan.steps.len()
    }

    /// Noise evaluations per texel.
    pub fn noise_evaluations(&self) -> usize {
        (self.plan.steps.iter())
            .filter(|s| matches!(s, Step::Noise { .. }))
            .count()
    }

    /// The graph's value at image texel `t`, `scratch` holding one register per step.
    pub fn value_at_texel(&self, t: [u32; 3], scratch: &mut Vec<[f64; 4]>) -> f64 {
        self.value_at(Position::Texel(t), scratch)
    }

    /// The graph's value at root point `p` (texel units: texel (i, j, k) of the image is
    /// `offset + (i, j, k, 0)`), each noise at `p`'s exact lattice point (CONVENTIONS §13); NaN
    /// where a noise's point would pass 2^62 cells.
    pub fn value_at_point(&self, p: [f64; 4], scratch: &mut Vec<[f64; 4]>) -> f64 {
        self.value_at(Position::Point(p), scratch)
    }

    /// The graph at many root points, in parallel with the `parallel` feature.
    pub fn sample(&self, points: &[[f64; 4]]) -> Vec<f64> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            points
                .par_iter()
                .map_init(Vec::new, |scratch, p| self.value_at_point(*p, scratch))
                .collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            let mut scratch = Vec::new();
            points
                .iter()
                .map(|p| self.value_at_point(*p, &mut scratch))
                .collect()
        }
    }

    fn value_at(&self, at: Position, scratch: &mut Vec<[f64; 4]>) -> f64 {
        scratch.resize(self.plan.steps.len(), [0.0; 4]);
        for (i, step) in self.plan.steps.iter().enumerate() {
            let r = self.step(step, at, scratch);
            scratch[i] = r;
        }
        scratch[self.plan.output][0]
    }

    fn step(&self, step: &Step, at: Position, r: &[[f64; 4]]) -> [f64; 4] {
        let v = |i: usize| r[i][0];
        let value = match step {
            Step::Noise { instance, delta } => self.noise(*instance, at, delta.map(|d| r[d])),
            Step::Coordinate {
                instance,
                axis,
                delta,
            } => {
                let c = &self.plan.coordinates[*instance];
                let coordinate = match at {
                    Position::Texel(t) => Some(texel_coordinates(&c.frame, t)),
                    Position::Point(p) => c.points.lattice(&p),
                };
                let x = coordinate.map_or(f64::NAN, |l| l[*axis].to_f64());
                x + delta.map_or(0.0, |d| c.frequency * r[d][*axis])
            }
            Step::Constant(x) => *x,
            Step::Fractal { fractal, terms } => {
                let sum = terms
                    .iter()
                    .map(|&(i, w)| w * fractal_term(*fractal, v(i)))
                    .sum();
                fractal_finish(*fractal, sum)
            }
            Step::RidgedMulti {
                values,
                weights,
                offset,
                gain,
            } => {
                let mut n = [0.0; MAX_OCTAVES as usize];
                for (slot, &i) in n.iter_mut().zip(values) {
                    *slot = v(i);
                }
                ops::ridged_multi(&n[..values.len()], weights, *offset, *gain)
            }
            Step::Modify { input, modifier } => ops::modify(modifier, v(*input)),
            Step::Combine { combiner, inputs } => {
                let values: Vec<f64> = inputs.iter().map(|&i| v(i)).collect();
                ops::combine(*combiner, &values)
            }
            Step::Blend { a, b, control } => ops::blend(v(*a), v(*b), v(*control)),
            Step::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => ops::select(v(*a), v(*b), v(*control), *threshold, *falloff),
            Step::Linear { input, m } => return mat_vec(m, &r[*input]),
            Step::Displace {
                base,
                by,
                amplitude,
            } => {
                let mut d = base.map_or([0.0; 4], |b| r[b]);
                for (a, &i) in by.iter().enumerate() {
                    d[a] += amplitude * v(i);
                }
                return d;
            }
        };
        [value, 0.0, 0.0, 0.0]
    }

    fn noise(&self, instance: usize, at: Position, delta: Option<[f64; 4]>) -> f64 {
        let inst = &self.plan.instances[instance];
        let tables = &self.plan.tables[inst.tables];
        let lat = Lattice {
            perm: &tables.perm,
            gradients: &tables.gradients,
            values: &tables.values,
            period: [0; 4],
            interp: inst.spec.interp,
            params: &inst.params,
            salt: tables.impulse_salt,
            mode: inst.spec.lattice,
            hash_seed: tables.hash_seed,
        };
        let mut pt = match at {
            Position::Texel(t) => texel_lattice_point(&inst.frame, t),
            Position::Point(p) => match inst.points.lattice(&p) {
                Some(l) => lattice_point(&l),
                None => return f64::NAN,
            },
        };
        if let Some(d) = delta {
            pt = displaced(&pt, &mat_vec(&inst.delta_map, &d));
        }
        noise_octave(&lat, inst.spec.kind, inst.spec.dims as usize, &pt)
    }

    /// Every texel of the image in f64, x fastest.
    pub fn render_f64(&self) -> Result<Vec<f64>> {
        let window = Window::full(self.size);
        window.check_in_memory()?;
        let mut out = vec![0.0; window.texels() as usize];
        self.render_window_into(window, &mut out, |v| v, &|_, _| {});
        Ok(out)
    }

    /// The texels of `window` rounded to f32, x fastest.
    pub fn render_window_f32(&self, window: Window) -> Result<Vec<f32>> {
        window.check_inside(self.size)?;
        window.check_in_memory()?;
        let mut out = vec![0.0; window.texels() as usize];
        self.render_window_into(window, &mut out, |v| v as f32, &|_, _| {});
        Ok(out)
    }

    /// Renders `window` into `out` through `convert`, rows in parallel, calling
    /// `progress(rows_done, rows_total)` after each row.
    pub fn render_window_into<T: Send>(
        &self,
        window: Window,
        out: &mut [T],
        convert: impl Fn(f64) -> T + Sync,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) {
        let [x0, y0, z0] = window.origin;
        let height = window.size.height;
        let rows_total = window.size.rows();
        let rows_done = std::sync::atomic::AtomicU64::new(0);
        crate::cpu::for_each_row(out, window.size.width as usize, |_, (row, texels)| {
            let (j, k) = (y0 + row as u32 % height, z0 + row as u32 / height);
            let mut scratch = Vec::new();
            for (i, texel) in texels.iter_mut().enumerate() {
                *texel = convert(self.value_at_texel([x0 + i as u32, j, k], &mut scratch));
            }
            let done = rows_done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(done, rows_total);
        });
    }
}

fn mat_vec(m: &super::affine::Mat, d: &[f64; 4]) -> [f64; 4] {
    let mut out = [0.0; 4];
    for a in 0..4 {
        out[a] = (0..4).map(|b| m[a][b] * d[b]).sum();
    }
    out
}

/// A lattice point moved by `d` cells per axis: the fraction plus d, split again (kept below
/// 1), and the decision key from the new fraction (as the GPU's f32 one).
fn displaced(pt: &LatticePoint, d: &[f64; 4]) -> LatticePoint {
    let mut out = *pt;
    for a in 0..4 {
        let f = pt.frac[a] + d[a];
        let whole = f.floor();
        out.cell[a] = pt.cell[a].wrapping_add(whole as i64);
        out.frac[a] = (f - whole).min(1.0 - f64::EPSILON / 2.0);
        out.key[a] = (out.frac[a] * 16_777_216.0) as u32;
    }
    out
}
