//! Expansion of a graph into straight-line steps (CONVENTIONS §13): every domain transform
//! above a noise folds into that noise's exact frame, every fractal octave and warp iteration
//! evaluates its subgraph again in its own context, and a node met twice in the same context is
//! evaluated once.

use std::collections::HashMap;

use super::affine::{IDENTITY, Mat, rotation, skew_matrix, uniform_scale};
use super::node::{Op, Source, Warp};
use super::read::graph_error;
pub(crate) use super::step::Step;
use super::{Graph, MAX_STEPS};
use crate::error::{Error, Result};
use crate::fixed::Fixed;
use crate::kinds::{Interp, Kind, KindFields, KindParams, LatticeKind};
use crate::spec::frames::PointMap;
use crate::spec::octave_weights;
use crate::tables::OctaveTables;

/// Where a node is evaluated: its point is `m root + c + delta`, root = offset + texel (texel
/// units), `delta` a displacement register (warps) or none.
#[derive(Clone, Debug)]
struct Context {
    m: Mat,
    c: [Fixed; 4],
    seed: u64,
    delta: Option<usize>,
    /// A `rotate` node lies above: `m` may mix axes. Without one it is diagonal, whatever the
    /// numbers, so the kernel's code can rely on it (`Instance::axis_aligned`).
    turned: bool,
}

/// One noise evaluation: a source node in one context.
#[derive(Clone, Debug)]
pub(crate) struct Instance {
    pub kind: Kind,
    /// The seed of its tables: the graph's, the node's and the context's k summed.
    pub seed: u64,
    pub interp: Interp,
    pub lattice: LatticeKind,
    pub fields: KindFields,
    pub params: KindParams,
    /// Its map from a root point to its lattice (frequency times the transforms above it).
    pub points: PointMap,
    /// Index into the plan's tables.
    pub tables: usize,
    /// Lattice displacement per unit of the context's displacement: frequency times the skew.
    pub delta_map: Mat,
    /// The node's frequency: unskewed lattice cells per unit of displacement (gradients).
    pub frequency: f64,
    /// Lattice axis a moves along image axis a alone (no `rotate` above, no skew): the GPU
    /// takes one wide product per axis (graph.wgsl `graph_point_axes`), the same integers.
    pub axis_aligned: bool,
}

/// A coordinate node in one context: its map (no skew) and frequency.
#[derive(Clone, Debug)]
pub(crate) struct Coordinate {
    pub points: PointMap,
    pub frequency: f64,
}

/// The expanded graph: the same for every image of its world (frames come with a placement).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// Axes of the point.
    pub dims: usize,
    pub steps: Vec<Step>,
    pub instances: Vec<Instance>,
    pub coordinates: Vec<Coordinate>,
    pub tables: Vec<OctaveTables>,
    /// The seed of each table slot.
    pub table_seeds: Vec<u64>,
    /// The node each step belongs to (for messages).
    pub step_nodes: Vec<usize>,
    pub output: usize,
}

struct Expander<'a> {
    graph: &'a Graph,
    plan: Plan,
    memo: HashMap<Vec<u64>, usize>,
    table_slots: HashMap<u64, usize>,
    /// The nodes being expanded, outermost first.
    path: Vec<usize>,
}

/// Expands `graph` into straight-line steps (CONVENTIONS §13).
pub(crate) fn expand(graph: &Graph) -> Result<Plan> {
    let mut x = Expander {
        graph,
        plan: Plan {
            dims: graph.dims as usize,
            steps: Vec::new(),
            instances: Vec::new(),
            coordinates: Vec::new(),
            tables: Vec::new(),
            table_seeds: Vec::new(),
            step_nodes: Vec::new(),
            output: 0,
        },
        memo: HashMap::new(),
        table_slots: HashMap::new(),
        path: Vec::new(),
    };
    let root = Context {
        m: IDENTITY,
        c: [Fixed::ZERO; 4],
        seed: graph.seed,
        delta: None,
        turned: false,
    };
    x.plan.output = x.node(graph.output, &root)?;
    Ok(x.plan)
}

impl Expander<'_> {
    fn dims(&self) -> usize {
        self.graph.dims as usize
    }

    fn push(&mut self, step: Step) -> Result<usize> {
        if self.plan.steps.len() >= MAX_STEPS {
            return Err(graph_error(
                "",
                "nodes",
                format!(
                    "expands to more than {MAX_STEPS} evaluations (each octave and warp iteration \
                     evaluates its subgraph again); use fewer octaves or iterations"
                ),
            ));
        }
        self.plan.steps.push(step);
        self.plan
            .step_nodes
            .push(self.path.last().copied().unwrap_or(0));
        Ok(self.plan.steps.len() - 1)
    }

    fn memo_key(node: usize, ctx: &Context) -> Vec<u64> {
        let mut key = vec![
            node as u64,
            ctx.seed,
            ctx.delta.map_or(u64::MAX, |d| d as u64),
            u64::from(ctx.turned),
        ];
        key.extend(ctx.m.iter().flatten().map(|v| v.to_bits()));
        for c in ctx.c {
            key.extend([c.0 as u64, (c.0 >> 64) as u64]);
        }
        key
    }

    fn node(&mut self, i: usize, ctx: &Context) -> Result<usize> {
        let key = Self::memo_key(i, ctx);
        if let Some(&r) = self.memo.get(&key) {
            return Ok(r);
        }
        self.path.push(i);
        let r = self.node_uncached(i, ctx);
        self.path.pop();
        let r = r?;
        self.memo.insert(key, r);
        Ok(r)
    }

    fn node_uncached(&mut self, i: usize, ctx: &Context) -> Result<usize> {
        let graph = self.graph;
        let name = &graph.nodes[i].name;
        match &graph.nodes[i].op {
            Op::Source(source) => self.noise(name, source, ctx),
            Op::Constant(v) => self.push(Step::Constant(*v)),
            Op::Coordinate { axis, frequency } => self.coordinate(name, *axis, *frequency, ctx),
            op @ (Op::Fractal { .. } | Op::RidgedMulti { .. }) => self.fractal(name, op, ctx),
            op @ (Op::Translate { .. } | Op::Scale { .. } | Op::Rotate { .. }) => {
                self.domain(name, op, ctx)
            }
            Op::Warp(w) => self.warp(name, w, ctx),
            op => self.combination(op, ctx),
        }
    }

    /// A fractal node: its source at each octave, combined.
    fn fractal(&mut self, name: &str, op: &Op, ctx: &Context) -> Result<usize> {
        match op {
            Op::Fractal {
                source,
                fractal,
                octaves,
                lacunarity,
                persistence,
            } => {
                let values = self.octaves(name, *source, *octaves, *lacunarity, ctx)?;
                let weights = octave_weights(*persistence, *octaves);
                let terms = values.into_iter().zip(weights).collect();
                self.push(Step::Fractal {
                    fractal: *fractal,
                    terms,
                })
            }
            Op::RidgedMulti {
                source,
                octaves,
                lacunarity,
                h,
                offset,
                gain,
            } => {
                let values = self.octaves(name, *source, *octaves, *lacunarity, ctx)?;
                let scales = octave_scales(*lacunarity, *octaves);
                self.push(Step::RidgedMulti {
                    values,
                    weights: scales.iter().map(|s| s.powf(-h)).collect(),
                    offset: *offset,
                    gain: *gain,
                })
            }
            _ => unreachable!("only fractal nodes come here"),
        }
    }

    /// An affine domain node: its source in the moved context.
    fn domain(&mut self, name: &str, op: &Op, ctx: &Context) -> Result<usize> {
        let (source, moved) = match op {
            Op::Translate { source, by } => (source, self.translated(name, ctx, by)?),
            Op::Scale { source, by } => {
                let mut m = [[0.0; 4]; 4];
                for a in 0..4 {
                    m[a][a] = if a < self.dims() { by[a] } else { 1.0 };
                }
                (source, self.transformed(name, ctx, &m)?)
            }
            Op::Rotate {
                source,
                degrees,
                axis,
            } => {
                let turn = rotation(self.dims(), *degrees, *axis);
                let mut turned = self.transformed(name, ctx, &turn)?;
                turned.turned = true;
                (source, turned)
            }
            _ => unreachable!("only affine domain nodes come here"),
        };
        self.node(*source, &moved)
    }

    /// A modifier or combiner: its inputs in the same context, then its step.
    fn combination(&mut self, op: &Op, ctx: &Context) -> Result<usize> {
        let step = match op {
            Op::Modify { source, modifier } => Step::Modify {
                input: self.node(*source, ctx)?,
                modifier: modifier.clone(),
            },
            Op::Combine { combiner, inputs } => Step::Combine {
                combiner: *combiner,
                inputs: inputs
                    .iter()
                    .map(|&n| self.node(n, ctx))
                    .collect::<Result<Vec<_>>>()?,
            },
            Op::Blend { a, b, control } => {
                let (a, b, control) = self.three(*a, *b, *control, ctx)?;
                Step::Blend { a, b, control }
            }
            Op::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => {
                let (a, b, control) = self.three(*a, *b, *control, ctx)?;
                Step::Select {
                    a,
                    b,
                    control,
                    threshold: *threshold,
                    falloff: *falloff,
                }
            }
            _ => unreachable!("sources, fractals and domains are handled above"),
        };
        self.push(step)
    }

    fn three(
        &mut self,
        a: usize,
        b: usize,
        c: usize,
        ctx: &Context,
    ) -> Result<(usize, usize, usize)> {
        Ok((self.node(a, ctx)?, self.node(b, ctx)?, self.node(c, ctx)?))
    }

    /// `source` at octave k = 0..octaves: the point times `lacunarity^k`, seeds + k.
    fn octaves(
        &mut self,
        name: &str,
        source: usize,
        octaves: u32,
        lacunarity: f64,
        ctx: &Context,
    ) -> Result<Vec<usize>> {
        let mut values = Vec::with_capacity(octaves as usize);
        for (k, scale) in octave_scales(lacunarity, octaves).into_iter().enumerate() {
            let mut octave = self.transformed(name, ctx, &uniform_scale(scale))?;
            octave.seed = ctx.seed.wrapping_add(k as u64);
            values.push(self.node(source, &octave)?);
        }
        Ok(values)
    }

    fn warp(&mut self, name: &str, w: &Warp, ctx: &Context) -> Result<usize> {
        let mut moved = ctx.delta;
        let mut amplitude = w.amplitude;
        let scales = octave_scales(w.lacunarity, w.iterations);
        for (i, scale) in scales.into_iter().enumerate() {
            let mut read_at = ctx.clone();
            if w.progressive {
                read_at.delta = moved;
            }
            let mut by_ctx = self.transformed(name, &read_at, &uniform_scale(scale))?;
            by_ctx.seed = ctx.seed.wrapping_add(i as u64);
            let by =
                w.by.iter()
                    .map(|&n| self.node(n, &by_ctx))
                    .collect::<Result<Vec<_>>>()?;
            moved = Some(self.push(Step::Displace {
                base: moved,
                by,
                amplitude,
            })?);
            amplitude *= w.gain;
        }
        let mut at = ctx.clone();
        at.delta = moved;
        self.node(w.source, &at)
    }

    fn translated(&self, name: &str, ctx: &Context, by: &[f64; 4]) -> Result<Context> {
        let mut out = ctx.clone();
        for a in 0..self.dims() {
            out.c[a] = Fixed::from_f64(by[a])
                .and_then(|d| out.c[a].checked_add(d))
                .ok_or_else(|| reach_error(name, "by"))?;
        }
        Ok(out)
    }

    /// The context seen through `t`: `m' = t m`, `c' = t c`, displacement `t delta`.
    fn transformed(&mut self, name: &str, ctx: &Context, t: &Mat) -> Result<Context> {
        let dims = self.dims();
        let mut out = ctx.clone();
        for a in 0..dims {
            let mut c = Fixed::ZERO;
            for b in 0..dims {
                out.m[a][b] = (0..dims).map(|k| t[a][k] * ctx.m[k][b]).sum();
                if t[a][b] != 0.0 {
                    c = ctx.c[b]
                        .mul_f64(t[a][b])
                        .and_then(|p| c.checked_add(p))
                        .ok_or_else(|| reach_error(name, "by"))?;
                }
            }
            out.c[a] = c;
        }
        if let Some(d) = ctx.delta {
            out.delta = Some(self.push(Step::Linear { input: d, m: *t })?);
        }
        Ok(out)
    }

    fn noise(&mut self, name: &str, source: &Source, ctx: &Context) -> Result<usize> {
        let dims = self.dims();
        let seed = source.seed.wrapping_add(ctx.seed);
        let skew = source.kind.skew(dims as u32);
        let points = PointMap::new(&ctx.m, &ctx.c, source.frequency, skew, dims)
            .ok_or_else(|| reach_error(name, "frequency"))?;
        let slot = match self.table_slots.get(&seed) {
            Some(&s) => s,
            None => {
                (self.plan.tables).push(OctaveTables::new(seed, dims as u32));
                self.plan.table_seeds.push(seed);
                self.table_slots.insert(seed, self.plan.tables.len() - 1);
                self.plan.tables.len() - 1
            }
        };
        let k = skew_matrix(skew, dims);
        let mut delta_map = [[0.0; 4]; 4];
        for a in 0..4 {
            for b in 0..4 {
                delta_map[a][b] = source.frequency * k[a][b];
            }
        }
        self.plan.instances.push(Instance {
            kind: source.kind,
            seed,
            interp: source.interp,
            lattice: self.graph.lattice,
            fields: source.fields,
            params: KindParams::new(source.kind, dims as u32, &source.fields),
            points,
            tables: slot,
            delta_map,
            frequency: source.frequency,
            axis_aligned: !ctx.turned && skew.is_none(),
        });
        let instance = self.plan.instances.len() - 1;
        self.push(Step::Noise {
            instance,
            delta: ctx.delta,
        })
    }

    fn coordinate(
        &mut self,
        name: &str,
        axis: usize,
        frequency: f64,
        ctx: &Context,
    ) -> Result<usize> {
        let points = PointMap::new(&ctx.m, &ctx.c, frequency, None, self.dims())
            .ok_or_else(|| reach_error(name, "frequency"))?;
        self.plan.coordinates.push(Coordinate { points, frequency });
        let instance = self.plan.coordinates.len() - 1;
        self.push(Step::Coordinate {
            instance,
            axis,
            delta: ctx.delta,
        })
    }
}

fn reach_error(name: &str, field: &str) -> Error {
    graph_error(
        name,
        field,
        "takes points past 2^62 lattice cells at this offset and size (CONVENTIONS §1); use a \
         smaller frequency, scale or offset",
    )
}

/// `lacunarity^k` for k = 0..n by repeated multiplication (as the flat spec's octaves).
fn octave_scales(lacunarity: f64, n: u32) -> Vec<f64> {
    let mut scale = 1.0;
    (0..n)
        .map(|_| {
            let s = scale;
            scale *= lacunarity;
            s
        })
        .collect()
}
