//! Noise batches of the fused graph kernels. Drivers inline every call, so a graph's code grows
//! with its noise evaluations, not its nodes: 64 summed Perlin nodes were 64 copies of Perlin's
//! code (37 s and 0.8 GB to build on lavapipe), and eight nested 2-octave fBm nodes, 256
//! evaluations interleaved with their sums, still built after 300 s. An undisplaced noise step
//! depends on the texel and its instance alone, so the evaluations of one kind over
//! consecutive instances, wherever they stand among the steps, are computed in one loop, one
//! copy of the body, and each step reads its element. What stays inline (displaced noise:
//! warps) is counted and limited ([`MAX_INLINE_NOISES`]).

use std::fmt::Write;

use crate::graph::plan::{Plan, Step};

/// Batches of at least this many evaluations become a loop (fewer inline faster than a loop).
const BATCH_MIN: usize = 16;
/// Most evaluations in one loop's array.
const BATCH_MAX: usize = 64;

/// Most noise evaluations a fused kernel inlines (those outside every batch): each is a copy of
/// a kind's code, and the driver's compile time grows faster than their number (lavapipe took
/// 37 s for 64 Perlin copies). Past it the GPU refuses the graph naming the node; the SIMD
/// backend and the twin render it.
pub const MAX_INLINE_NOISES: usize = 32;
/// Most noise evaluations a texel in a fused kernel, batched or not: lavapipe compiles 256 in
/// about 7 s cold (eight nested 2-octave fBm), 1024 in 45 s.
pub const MAX_GPU_NOISES: usize = 256;

/// The undisplaced noise steps of one kind, interpolation, lattice and axis path over
/// consecutive instances: `steps[m]` evaluates instance `first + m`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Batch {
    pub steps: Vec<usize>,
    pub first: usize,
}

/// The plan's batches of [`BATCH_MIN`] or more steps, each named by its first step.
pub(crate) fn noise_batches(plan: &Plan) -> Vec<Batch> {
    let same = |a: usize, b: usize| {
        let (x, y) = (&plan.instances[a], &plan.instances[b]);
        x.kind == y.kind
            && x.interp == y.interp
            && x.lattice == y.lattice
            && x.axis_aligned == y.axis_aligned
    };
    let mut batches: Vec<Batch> = Vec::new();
    // The batch each class of instance continues, by index into `batches`.
    let mut open: Vec<usize> = Vec::new();
    for (i, step) in plan.steps.iter().enumerate() {
        let Step::Noise {
            instance,
            delta: None,
        } = *step
        else {
            continue;
        };
        let class = open.iter().position(|&b| same(batches[b].first, instance));
        match class {
            Some(c) if batches[open[c]].first + batches[open[c]].steps.len() == instance => {
                batches[open[c]].steps.push(i);
            }
            _ => {
                let b = batches.len();
                batches.push(Batch {
                    steps: vec![i],
                    first: instance,
                });
                match class {
                    Some(c) => open[c] = b,
                    None => open.push(b),
                }
            }
        }
    }
    // Pieces of at most BATCH_MAX: a driver's compile time grows with the square of a
    // private array's length (lavapipe: 10 s for 256 elements, 40 s for 512, 168 s for 1024),
    // and linearly with the pieces.
    let pieces = batches.into_iter().flat_map(|b| {
        let parts: Vec<Batch> = (b.steps.chunks(BATCH_MAX).enumerate())
            .map(|(i, part)| Batch {
                steps: part.to_vec(),
                first: b.first + i * BATCH_MAX,
            })
            .collect();
        parts
    });
    pieces.filter(|b| b.steps.len() >= BATCH_MIN).collect()
}

/// Whether a plan's fused kernel is past what a driver compiles in seconds: more than
/// [`MAX_GPU_NOISES`] noise evaluations, or more than [`MAX_INLINE_NOISES`] of them outside the
/// batches' loops. The reason, with the node (by index) of the first evaluation past the limit.
pub(crate) fn past_gpu_limits(plan: &Plan, batches: &[Batch]) -> Option<(usize, String)> {
    let mut batched = vec![false; plan.steps.len()];
    for &step in batches.iter().flat_map(|b| &b.steps) {
        batched[step] = true;
    }
    let noises: Vec<usize> = (plan.steps.iter().enumerate())
        .filter(|(_, s)| matches!(s, Step::Noise { .. }))
        .map(|(i, _)| i)
        .collect();
    let inline: Vec<usize> = noises.iter().copied().filter(|&i| !batched[i]).collect();
    let way_out = "render it with --backend simd or cpu (the SIMD lanes and the twin take every \
                   graph), or use fewer octaves";
    if let Some(&past) = noises.get(MAX_GPU_NOISES) {
        let reason = format!(
            "the GPU kernel would evaluate {} noises a texel, more than the {MAX_GPU_NOISES} a \
             driver compiles in seconds; {way_out}",
            noises.len()
        );
        return Some((plan.step_nodes[past], reason));
    }
    let past = *inline.get(MAX_INLINE_NOISES)?;
    let reason = format!(
        "the GPU kernel would inline {} noise evaluations, more than the {MAX_INLINE_NOISES} a \
         driver compiles in seconds (displaced, warped noise is inlined once an evaluation; \
         the others run in loops); {way_out}",
        inline.len()
    );
    Some((plan.step_nodes[past], reason))
}

/// A kernel body from each step's code, with every batch's steps reading one loop's elements:
/// the loop stands where the batch's first step stood, its element `element(batch, first
/// instance)` an expression of the loop index `k`, into `array<ty, n>`. The loop's bound is
/// opaque to the compiler (`graph_count`), so it is not unrolled back.
pub(crate) fn with_batches(
    step_code: &[String],
    batches: &[Batch],
    ty: &str,
    mut element: impl FnMut(usize, usize) -> String,
) -> String {
    let mut member = vec![None; step_code.len()];
    for (b, batch) in batches.iter().enumerate() {
        for (m, &step) in batch.steps.iter().enumerate() {
            member[step] = Some((b, m));
        }
    }
    let mut code = String::new();
    for (i, step) in step_code.iter().enumerate() {
        let Some((b, m)) = member[i] else {
            code.push_str(step);
            continue;
        };
        let batch = &batches[b];
        let name = batch.steps[0];
        if m == 0 {
            let n = batch.steps.len();
            let value = element(b, batch.first);
            let _ = writeln!(code, "    var batch{name}: array<{ty}, {n}>;");
            let _ = writeln!(
                code,
                "    for (var k = 0u; k < graph_count({n}u, t); k++) {{"
            );
            let _ = writeln!(code, "        batch{name}[k] = {value};");
            let _ = writeln!(code, "    }}");
        }
        let _ = writeln!(code, "    let r{i} = batch{name}[{m}];");
    }
    code
}
