// Noise graphs (CONVENTIONS §13): what every graph's code calls; mirrored by src/cpu/plan.rs
// and src/graph/ops.rs (the modifier and combiner nodes' functions are theirs:
// shaders/graph/modifiers/ and combiners/, one file per node beside src/graph/modifiers/ and
// combiners/). The generated part (src/wgsl/codegen.rs) declares `struct GraphState`
// with arrays sized for its graph and `fn graph_value(t)`, straight-line code over the graph's
// expanded steps (t an image texel; z is 0 but in volumes) but for batches of one kind, which
// loop (`graph_count`, src/wgsl/batches.rs); every number it uses is read from
// `graph_state`, so a new frequency, threshold or seed rewrites the state, not the pipeline.
// `graph_state` is declared after GraphState, at group NOISE_GROUP, binding 4: uniform where the
// state fits any device's uniform binding, else read-only storage (src/wgsl/codegen.rs StateSpace).

// One noise or coordinate evaluation (mirrors src/wgsl/host.rs `GraphInstance`): texel t lands
// at origin + sum_b t[b] step[b] on each lattice axis, each in three words (common.wgsl's
// Coordinate).
struct GraphInstance {
    cell: vec4<u32>,
    word: vec4<u32>,
    low: vec4<u32>,
    step_cell: array<vec4<u32>, 3>,
    step_word: array<vec4<u32>, 3>,
    step_low: array<vec4<u32>, 3>,
    // Lattice cells per unit of displacement (frequency times simplex's skew).
    delta_map: mat4x4<f32>,
    // Table slot, impulse salt, hash seed, kind-state index.
    lattice: vec4<u32>,
    // Tiling period in cells per axis; 0 = the axis does not wrap.
    period: vec4<i32>,
    // Texel (0, 0, 0)'s whole cell per axis as f32 (its 64 bits rounded): a coordinate adds
    // the texel's cells relative to it (graph_coordinate).
    origin_cell: vec4<f32>,
}

// Instance i's exact lattice point of texel t (cpu: texel_lattice_point on its frame); texel z
// counts only in volumes (NOISE_VOLUME).
fn graph_point(i: u32, t: vec3<u32>) -> LatticePoint {
    let g = graph_state.instances[i];
    var q = Coordinate(g.cell, g.word, g.low);
    add_steps(&q, vec4<u32>(t.x), g.step_cell[0], g.step_word[0], g.step_low[0]);
    add_steps(&q, vec4<u32>(t.y), g.step_cell[1], g.step_word[1], g.step_low[1]);
    if NOISE_VOLUME == 1u {
        add_steps(&q, vec4<u32>(t.z), g.step_cell[2], g.step_word[2], g.step_low[2]);
    }
    return LatticePoint(q.cell, point_frac(q.word));
}

// graph_point for an instance whose map keeps to the axes (no rotate above it, no skew:
// src/graph/plan.rs `axis_aligned`): texel axis b moves lattice axis b alone, so step b's other
// components are 0 and one wide product per axis gives the same integers, as a flat frame's.
fn graph_point_axes(i: u32, t: vec3<u32>) -> LatticePoint {
    let g = graph_state.instances[i];
    var q = Coordinate(g.cell, g.word, g.low);
    let n = vec4<u32>(t.xy, select(0u, t.z, NOISE_VOLUME == 1u), 0u);
    add_steps(&q, n, step_diagonal(g.step_cell), step_diagonal(g.step_word),
        step_diagonal(g.step_low));
    return LatticePoint(q.cell, point_frac(q.word));
}

// Component b of step b, per texel axis b (w: 0, no texel axis moves it).
fn step_diagonal(step: array<vec4<u32>, 3>) -> vec4<u32> {
    return vec4<u32>(step[0].x, step[1].y, step[2].z, 0u);
}

// n, in a form no compiler can prove constant (t.x never reaches 2^32 - 1 texels): the bound of
// a batched loop of noise evaluations, so that a driver keeps one copy of its body instead of
// unrolling it (see src/wgsl/batches.rs).
fn graph_count(n: u32, t: vec3<u32>) -> u32 {
    return select(n, 0u, t.x == 0xFFFFFFFFu);
}

// A lattice point moved by d cells: the fraction plus d, split again (cpu: displaced).
fn graph_displaced(pt: LatticePoint, d: vec4<f32>) -> LatticePoint {
    let f = pt.frac + d;
    let whole = floor(f);
    return LatticePoint(pt.cell + bitcast<vec4<u32>>(vec4<i32>(whole)),
        min(f - whole, vec4<f32>(0.99999994)));
}

// Instance i's point pt, displaced by its delta map times d.
fn graph_point_moved(i: u32, pt: LatticePoint, d: vec4<f32>) -> LatticePoint {
    return graph_displaced(pt, graph_state.instances[i].delta_map * d);
}

// Instance i's lattice; mode and interpolation are literals at the call.
fn graph_lattice(i: u32, mode: u32, interp: u32) -> Lattice {
    let l = graph_state.instances[i].lattice;
    return Lattice(l.x, graph_state.instances[i].period, l.y, l.z, mode, interp, l.w);
}

// Coordinate instance i's axis a at point pt as f32: texel (0, 0, 0)'s cell (f32) plus pt's
// cells relative to it (a signed 32-bit difference: validation keeps an image within 2^31
// cells of its first texel) plus the fraction, so coordinates far out round as f32 rather
// than wrap at 2^31 (mirrors the SIMD lanes' coordinate_row).
fn graph_coordinate(i: u32, pt: LatticePoint, a: u32) -> f32 {
    let g = graph_state.instances[i];
    let cells = bitcast<i32>(pt.cell[a] - g.cell[a]);
    return g.origin_cell[a] + (f32(cells) + pt.frac[a]);
}

fn blend(a: f32, b: f32, control: f32) -> f32 {
    return lerp((control + 1.0) * 0.5, a, b);
}

fn select_between(a: f32, b: f32, control: f32, threshold: f32, falloff: f32) -> f32 {
    if falloff > 0.0 {
        let lo = threshold - falloff;
        if control < lo {
            return a;
        }
        if control < threshold + falloff {
            let u = (control - lo) / (2.0 * falloff);
            return lerp(u * u * (3.0 - 2.0 * u), a, b);
        }
        return b;
    }
    return select(b, a, control < threshold);
}

// One octave of the ridged multifractal: state = (sum of w s, sum of w, g).
fn ridged_multi_octave(state: vec3<f32>, n: f32, w: f32, offset: f32, gain: f32) -> vec3<f32> {
    let ridge = offset - abs(n);
    let s = ridge * ridge * state.z;
    return vec3<f32>(state.x + w * s, state.y + w, clamp(s * gain, 0.0, 1.0));
}

fn ridged_multi_finish(state: vec3<f32>) -> f32 {
    return 2.0 * state.x / state.y - 1.0;
}
