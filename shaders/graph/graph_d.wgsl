// Graph nodes with their gradients (CONVENTIONS §13, "Derivatives"), forward mode; mirrors
// src/graph/ops_d.rs function by function. A value travels as vec4 (value, d/dx, d/dy, d/dz)
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

fn abs_d(v: vec4<f32>) -> vec4<f32> {
    return chain(v, abs(v.x), sign_d(v.x));
}

fn clamp_d(v: vec4<f32>, lo: f32, hi: f32) -> vec4<f32> {
    return chain(v, clamp(v.x, lo, hi), select(0.0, 1.0, v.x > lo && v.x < hi));
}

fn remap_d(v: vec4<f32>, span_in: vec2<f32>, span_out: vec2<f32>) -> vec4<f32> {
    return chain(v, remap(v.x, span_in, span_out), (span_out.y - span_out.x) / (span_in.y - span_in.x));
}

fn curve_d(v: vec4<f32>, first: u32, n: u32, cubic: bool) -> vec4<f32> {
    let value = curve(v.x, first, n, cubic);
    let lo = graph_state.params[first].xy;
    let hi = graph_state.params[first + n - 1u].xy;
    if v.x <= lo.x || v.x >= hi.x {
        return chain(v, value, 0.0);
    }
    var i = 0u;
    for (var k = 1u; k < n - 1u; k++) {
        if graph_state.params[first + k].x <= v.x {
            i = k;
        }
    }
    let p0 = graph_state.params[first + i].xy;
    let p1 = graph_state.params[first + i + 1u].xy;
    let width = p1.x - p0.x;
    if !cubic {
        return chain(v, value, (p1.y - p0.y) / width);
    }
    let t = (v.x - p0.x) / width;
    let before = graph_state.params[first + max(i, 1u) - 1u].y;
    let after = graph_state.params[first + min(i + 2u, n - 1u)].y;
    return chain(v, value, catmull_rom_derivative(t, before, p0.y, p1.y, after) / width);
}

fn terrace_d(v: vec4<f32>, first: u32, n: u32, invert: bool) -> vec4<f32> {
    let value = terrace(v.x, first, n, invert);
    var above = n;
    for (var k = n; k > 0u; k--) {
        if v.x < graph_state.params[first + k - 1u].x {
            above = k - 1u;
        }
    }
    let i0 = max(above, 1u) - 1u;
    let i1 = min(above, n - 1u);
    if i0 == i1 {
        return chain(v, value, 0.0);
    }
    let lo = graph_state.params[first + i0].x;
    let hi = graph_state.params[first + i1].x;
    let alpha = (v.x - lo) / (hi - lo);
    return chain(v, value, 2.0 * select(alpha, 1.0 - alpha, invert));
}

fn power_d(v: vec4<f32>, exponent: f32) -> vec4<f32> {
    var slope = select(0.0, 1.0, exponent == 1.0);
    if v.x != 0.0 {
        slope = exponent * pow_of_positive(abs(v.x), exponent - 1.0);
    }
    return chain(v, power(v.x, exponent), slope);
}

fn smoothstep_d(edge0: f32, edge1: f32, v: vec4<f32>) -> vec4<f32> {
    let t = (v.x - edge0) / (edge1 - edge0);
    let slope = select(0.0, 6.0 * t * (1.0 - t) / (edge1 - edge0), t > 0.0 && t < 1.0);
    return chain(v, smoothstep(edge0, edge1, v.x), slope);
}

fn multiply_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.x * b.x, a.yzw * b.x + a.x * b.yzw);
}

fn min_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(b, a, a.x <= b.x);
}

fn max_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(b, a, a.x >= b.x);
}

fn smooth_min_d(a: vec4<f32>, b: vec4<f32>, k: f32) -> vec4<f32> {
    let h = max(k - abs(a.x - b.x), 0.0) / k;
    let lesser = select(b, a, a.x <= b.x);
    let side = select(1.0, -1.0, a.x <= b.x);
    return vec4<f32>(smooth_min(a.x, b.x, k), lesser.yzw + 0.5 * h * side * (a.yzw - b.yzw));
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
