// Shared declarations and lattice helpers; mirrored by src/cpu/common.rs.
// The host composes common + perlin + gradient + value + fractal into one module
// (src/gpu/shader.rs), so every file may use what an earlier one declares.

const WORKGROUP_SIZE: u32 = 64u;
const MAX_OCTAVES: u32 = 16u;
const PERM_LEN: u32 = 512u;
const TABLE_SIZE: u32 = 256u;
const PI: f32 = 3.14159265358979323846;

// Codes of spec::Kind, spec::Interp and spec::Fractal (checked by tests/layout.rs).
const KIND_PERLIN: u32 = 0u;
const KIND_GRADIENT: u32 = 1u;
const KIND_VALUE: u32 = 2u;
const INTERP_NEAREST: u32 = 0u;
const INTERP_LINEAR: u32 = 1u;
const INTERP_COSINE: u32 = 2u;
const INTERP_CUBIC: u32 = 3u;
const INTERP_QUINTIC: u32 = 4u;
const INTERP_CATMULL_ROM: u32 = 5u;
const FRACTAL_NONE: u32 = 0u;
const FRACTAL_FBM: u32 = 1u;
const FRACTAL_TURBULENCE: u32 = 2u;
const FRACTAL_RIDGED: u32 = 3u;
const FRACTAL_BILLOW: u32 = 4u;

// Specialization constants (src/gpu/pipelines.rs): each pipeline is compiled for one kind,
// dims, interpolation and fractal, so the driver drops every branch the spec does not take.
override KIND: u32;
override DIMS: u32;
override INTERP: u32;
override FRACTAL: u32;

// Mirrors src/params.rs `Params` (layout checked by a test through naga's layouter).
struct Params {
    offset: vec4<f32>,
    frequency: f32,
    lacunarity: f32,
    persistence: f32,
    octaves: u32,
    width: u32,
    height: u32,
    texel_base: u32,
    texel_count: u32,
    row_pitch: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    // Tiling period in cells per octave and axis; 0 = the axis does not wrap.
    periods: array<vec4<i32>, MAX_OCTAVES>,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per-octave tables, octave o at o * PERM_LEN (perm) and o * TABLE_SIZE (gradients, values).
@group(0) @binding(1) var<storage, read> perm: array<u32>;
@group(0) @binding(2) var<storage, read> gradients: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> values: array<f32>;
// Points for `sample_points` (unused by `render_texels`).
@group(0) @binding(4) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> output: array<f32>;

// Interpolation weight for a fraction t in [0, 1) (REFERENCE §3).
fn interp_weight(t: f32, interp: u32) -> f32 {
    switch interp {
        case INTERP_NEAREST: { return select(0.0, 1.0, t >= 0.5); }
        case INTERP_LINEAR: { return t; }
        case INTERP_COSINE: { return (1.0 - cos(PI * t)) * 0.5; }
        case INTERP_CUBIC: { return t * t * (3.0 - 2.0 * t); }
        default: { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
    }
}

fn lerp(t: f32, a: f32, b: f32) -> f32 {
    return a + t * (b - a);
}

// Wraps a cell by the tiling period (Euclidean), then takes it & 255.
fn lattice_cell(cell: i32, period: i32) -> u32 {
    var c = cell;
    if period > 0 {
        c = ((cell % period) + period) % period;
    }
    return u32(c & 255);
}

fn perm_at(o: u32, i: u32) -> u32 {
    return perm[o * PERM_LEN + i];
}

fn lattice_hash1(o: u32, x: u32) -> u32 {
    return perm_at(o, perm_at(o, perm_at(o, x)));
}

fn lattice_hash2(o: u32, x: u32, y: u32) -> u32 {
    return perm_at(o, perm_at(o, perm_at(o, x) + y));
}

fn lattice_hash3(o: u32, x: u32, y: u32, z: u32) -> u32 {
    return perm_at(o, perm_at(o, perm_at(o, x) + y) + z);
}

fn lattice_hash4(o: u32, x: u32, y: u32, z: u32, w: u32) -> u32 {
    return perm_at(o, perm_at(o, perm_at(o, perm_at(o, x) + y) + z) + w);
}

fn lattice_hash(o: u32, cells: vec4<u32>, dims: u32) -> u32 {
    switch dims {
        case 1u: { return lattice_hash1(o, cells.x); }
        case 2u: { return lattice_hash2(o, cells.x, cells.y); }
        case 3u: { return lattice_hash3(o, cells.x, cells.y, cells.z); }
        default: { return lattice_hash4(o, cells.x, cells.y, cells.z, cells.w); }
    }
}

// One axis of a point's lattice cell: corner cells (wrapped, & 255), fraction, weight.
struct AxisFrame {
    c0: u32,
    c1: u32,
    f: f32,
    w: f32,
}

fn axis_frame(o: u32, x: f32, a: u32) -> AxisFrame {
    let fl = floor(x);
    let c = i32(fl);
    let period = params.periods[o][a];
    let f = x - fl;
    return AxisFrame(lattice_cell(c, period), lattice_cell(c + 1, period), f, interp_weight(f, INTERP));
}

// A point's lattice cell: lower and upper corner cells, fractions and weights per axis.
struct CellFrame {
    lo: vec4<u32>,
    hi: vec4<u32>,
    frac: vec4<f32>,
    weight: vec4<f32>,
}

fn cell_frame(o: u32, p: vec4<f32>, dims: u32) -> CellFrame {
    var frame: CellFrame;
    for (var a = 0u; a < dims; a++) {
        let ax = axis_frame(o, p[a], a);
        frame.lo[a] = ax.c0;
        frame.hi[a] = ax.c1;
        frame.frac[a] = ax.f;
        frame.weight[a] = ax.w;
    }
    return frame;
}

// The cell of corner n: bit a of n picks the upper corner along axis a.
fn corner_cells(frame: CellFrame, n: u32) -> vec4<u32> {
    return select(frame.lo, frame.hi, (vec4<u32>(n) >> vec4<u32>(0u, 1u, 2u, 3u) & vec4<u32>(1u)) == vec4<u32>(1u));
}

// Reduces 2^dims corner values by separable interpolation, axis x first.
fn interp_corners(v: ptr<function, array<f32, 16>>, weight: vec4<f32>, dims: u32) -> f32 {
    var n = 1u << dims;
    for (var a = 0u; a < dims; a++) {
        n /= 2u;
        for (var m = 0u; m < n; m++) {
            (*v)[m] = lerp(weight[a], (*v)[2u * m], (*v)[2u * m + 1u]);
        }
    }
    return (*v)[0];
}
