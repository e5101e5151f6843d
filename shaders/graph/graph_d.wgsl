// Graph nodes with their gradients (CONVENTIONS §13, "Derivatives"), forward mode; mirrors
// src/graph/ops_d.rs function by function (the modifiers' and combiners' are in their own files,
// shaders/graph/modifiers/ and combiners/). A value travels as vec4 (value, d/dx, d/dy, d/dz)
// along the world's texel axes; a displacement as vec4 with its Jacobian, a mat4x4 whose column
// b is d(displacement)/dx_b. The value is the value function's own result (graph.wgsl); the
// gradient is the chain rule through it, one-sided where a node is not differentiable.

// f(v) given its value and its slope f'(v).
fn chain(v: vec4<f32>, value: f32, slope: f32) -> vec4<f32> {
    return vec4<f32>(value, slope * v.yzw);
}

// sign(v) with sign(0) = +1.
fn sign_d(v: f32) -> f32 {
    return select(1.0, -1.0, v < 0.0);
}

// A gradient as a column: (d/dx, d/dy, d/dz, 0).
fn gradient_of(v: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(v.yzw, 0.0);
}

// What a kind without derivatives gives in graph_value_d: NaN, as the twin gives (jobs refuse
// such graphs' gradients first). Made from a variable: a constant expression that evaluates to
// NaN is a shader-creation error in WGSL, which Chrome's Tint enforces (naga does not), and the
// whole graph module, values included, then failed to build there.
fn no_dual() -> Dual {
    var bits = 0x7fc00000u;
    let nan = bitcast<f32>(bits);
    return Dual(nan, vec4<f32>(nan));
}

// A noise's lattice dual chained through `m` (lattice cells per world texel, column b for
// texel axis b): d n / dx_b = dot(grad, m[b]).
fn noise_texel_d(n: Dual, m: mat4x4<f32>) -> vec4<f32> {
    return vec4<f32>(n.value, (n.grad * m).xyz);
}

fn blend_d(a: vec4<f32>, b: vec4<f32>, control: vec4<f32>) -> vec4<f32> {
    let t = (control.x + 1.0) * 0.5;
    let g = a.yzw + t * (b.yzw - a.yzw) + 0.5 * (b.x - a.x) * control.yzw;
    return vec4<f32>(blend(a.x, b.x, control.x), g);
}

fn select_between_d(a: vec4<f32>, b: vec4<f32>, control: vec4<f32>, threshold: f32, falloff: f32) -> vec4<f32> {
    let c = control.x;
    var g = select(b.yzw, a.yzw, c < threshold);
    if falloff > 0.0 && c >= threshold - falloff && c < threshold + falloff {
        let u = (c - (threshold - falloff)) / (2.0 * falloff);
        let s = u * u * (3.0 - 2.0 * u);
        let ds = 6.0 * u * (1.0 - u) / (2.0 * falloff);
        g = a.yzw + s * (b.yzw - a.yzw) + (b.x - a.x) * ds * control.yzw;
    }
    return vec4<f32>(select_between(a.x, b.x, c, threshold, falloff), g);
}

fn fractal_term_dual(fractal: u32, n: vec4<f32>) -> vec4<f32> {
    let s = sign_d(n.x);
    var slope = 1.0;
    switch fractal {
        case FRACTAL_TURBULENCE: { slope = s; }
        case FRACTAL_RIDGED: { slope = -2.0 * (1.0 - abs(n.x)) * s; }
        case FRACTAL_BILLOW: { slope = 2.0 * s; }
        default: {}
    }
    return chain(n, fractal_term(fractal, n.x), slope);
}

fn fractal_finish_dual(fractal: u32, sum: vec4<f32>) -> vec4<f32> {
    return chain(sum, fractal_finish(fractal, sum.x), select(1.0, 2.0, fractal == FRACTAL_RIDGED));
}

// The ridged multifractal's state with gradients: sum of w s, sum of w, and the feedback g.
struct RidgedDual {
    sum: vec4<f32>,
    weight: f32,
    g: vec4<f32>,
}

fn ridged_multi_octave_d(state: RidgedDual, n: vec4<f32>, w: f32, offset: f32, gain: f32) -> RidgedDual {
    let next = ridged_multi_octave(vec3<f32>(state.sum.x, state.weight, state.g.x), n.x, w, offset, gain);
    let ridge = offset - abs(n.x);
    let s = ridge * ridge * state.g.x;
    let ds = 2.0 * ridge * -sign_d(n.x) * n.yzw * state.g.x + ridge * ridge * state.g.yzw;
    let feedback = select(0.0, gain, s * gain > 0.0 && s * gain < 1.0);
    return RidgedDual(vec4<f32>(next.x, state.sum.yzw + w * ds), next.y, vec4<f32>(next.z, feedback * ds));
}

fn ridged_multi_finish_d(state: RidgedDual) -> vec4<f32> {
    let value = ridged_multi_finish(vec3<f32>(state.sum.x, state.weight, state.g.x));
    return chain(state.sum, value, 2.0 / state.weight);
}
