// Analytic derivatives (CONVENTIONS §12): each octave's value with its gradient along the
// lattice axes, for perlin, gradient, value (every interpolation but nearest) and simplex,
// chained through the fractal sums into partial derivatives per texel; mirrored by
// src/cpu/derivative.rs. fractal_noise_texel_d(t) is the entry: (value, d/dx, d/dy, d/dz).

// A value and its gradient.
struct Dual {
    value: f32,
    grad: vec4<f32>,
}

fn interp_weight_derivative(t: f32, interp: u32) -> f32 {
    switch interp {
        case INTERP_NEAREST: { return 0.0; }
        case INTERP_LINEAR: { return 1.0; }
        // sin(pi t) = cos(2 pi (t/2 - 1/4)); both steps exact for t in [0, 1].
        case INTERP_COSINE: { return 0.5 * NOISE_PI * cos_2pi(0.5 * t - 0.25); }
        case INTERP_CUBIC: { return 6.0 * t * (1.0 - t); }
        default: { return 30.0 * t * t * (t - 1.0) * (t - 1.0); }
    }
}

// interp_corners with gradients: each lerp along axis a (the frame's weight) also lerps the
// corner gradients and adds w'_a (upper - lower) to component a.
fn interp_corners_d(v: ptr<function, array<f32, 16>>, g: ptr<function, array<vec4<f32>, 16>>,
    frame: CellFrame, dims: u32) -> Dual {
    var n = 1u << dims;
    for (var a = 0u; a < dims; a++) {
        let w = frame.weight[a];
        let dw = interp_weight_derivative(frame.frac[a], NOISE_INTERP);
        n /= 2u;
        for (var m = 0u; m < n; m++) {
            let lo = (*v)[2u * m];
            let hi = (*v)[2u * m + 1u];
            let glo = (*g)[2u * m];
            let ghi = (*g)[2u * m + 1u];
            (*v)[m] = lo + w * (hi - lo);
            var gm = glo + w * (ghi - glo);
            gm[a] += dw * (hi - lo);
            (*g)[m] = gm;
        }
    }
    return Dual((*v)[0], (*g)[0]);
}

// Perlin's gradient vector for a corner hash (what grad1..grad4 dot).
fn perlin_gradient_vector(hash: u32, dims: u32) -> vec4<f32> {
    switch dims {
        case 1u: { return vec4<f32>(grad1(hash, 1.0), 0.0, 0.0, 0.0); }
        case 2u: {
            return vec4<f32>(grad2(hash, 1.0, 0.0), grad2(hash, 0.0, 1.0), 0.0, 0.0);
        }
        case 3u: {
            return vec4<f32>(grad3(hash, 1.0, 0.0, 0.0), grad3(hash, 0.0, 1.0, 0.0),
                grad3(hash, 0.0, 0.0, 1.0), 0.0);
        }
        default: {
            return vec4<f32>(grad4(hash, vec4<f32>(1.0, 0.0, 0.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 1.0, 0.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 0.0, 1.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 0.0, 0.0, 1.0)));
        }
    }
}

// Perlin (perlin = true) or classic gradient noise with its gradient: corners g . (f - b).
fn gradient_kinds_d(lat: Lattice, pt: LatticePoint, dims: u32, perlin: bool) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    var g: array<vec4<f32>, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        let h = lattice_hash(lat, corner_cells(frame, n), dims);
        var grad = lattice_gradient(lat, h);
        if perlin {
            grad = perlin_gradient_vector(h, dims);
        }
        var dot = 0.0;
        for (var a = 0u; a < dims; a++) {
            dot += grad[a] * (frame.frac[a] - f32((n >> a) & 1u));
        }
        v[n] = dot;
        g[n] = grad;
    }
    let d = interp_corners_d(&v, &g, frame, dims);
    var scale = 1.0;
    if perlin && dims == 1u {
        scale = PERLIN1_SCALE;
    } else if perlin && dims == 2u {
        scale = PERLIN2_SCALE;
    }
    return Dual(scale * d.value, scale * d.grad);
}

fn value_d(lat: Lattice, pt: LatticePoint, dims: u32) -> Dual {
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    var g: array<vec4<f32>, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        v[n] = lattice_value(lat, lattice_hash(lat, corner_cells(frame, n), dims));
    }
    return interp_corners_d(&v, &g, frame, dims);
}

fn catmull_rom_derivative(t: f32, vm1: f32, v0: f32, v1: f32, v2: f32) -> f32 {
    return 0.5 * ((-3.0 * t * t + 4.0 * t - 1.0) * vm1
        + (9.0 * t * t - 10.0 * t) * v0
        + (-9.0 * t * t + 8.0 * t + 1.0) * v1
        + (3.0 * t * t - 2.0 * t) * v2);
}

// catmull_rom on vectors (the corner gradients).
fn catmull_rom4(t: f32, vm1: vec4<f32>, v0: vec4<f32>, v1: vec4<f32>, v2: vec4<f32>) -> vec4<f32> {
    let t2 = t * t;
    let t3 = t2 * t;
    return 0.5 * ((-t3 + 2.0 * t2 - t) * vm1
        + (3.0 * t3 - 5.0 * t2 + 2.0) * v0
        + (-3.0 * t3 + 4.0 * t2 + t) * v1
        + (t3 - t2) * v2);
}

fn value_catmull_rom_d(lat: Lattice, pt: LatticePoint, dims: u32) -> Dual {
    var v: array<f32, 256>;
    var g: array<vec4<f32>, 256>;
    for (var n = 0u; n < (1u << (2u * dims)); n++) {
        var cells = vec4<u32>(0u);
        for (var a = 0u; a < dims; a++) {
            let step = i32((n >> (2u * a)) & 3u) - 1;
            cells[a] = lattice_cell(cell_offset(pt.cell[a], step), lat.period[a]);
        }
        v[n] = lattice_value(lat, lattice_hash(lat, cells, dims));
    }
    var count = 1u << (2u * dims);
    for (var a = 0u; a < dims; a++) {
        let t = pt.frac[a];
        count /= 4u;
        for (var m = 0u; m < count; m++) {
            let q = vec4<f32>(v[4u * m], v[4u * m + 1u], v[4u * m + 2u], v[4u * m + 3u]);
            var gm = catmull_rom4(t, g[4u * m], g[4u * m + 1u], g[4u * m + 2u], g[4u * m + 3u]);
            gm[a] += catmull_rom_derivative(t, q.x, q.y, q.z, q.w);
            v[m] = catmull_rom(t, q.x, q.y, q.z, q.w);
            g[m] = gm;
        }
    }
    return Dual(v[0], g[0]);
}

// Each corner adds t^4 g - 8 t^3 (g . d) d, t = r2 - |d|^2 (zero where t < 0).
fn simplex_d(c: SimplexCorners) -> Dual {
    var value = 0.0;
    var grad = vec4<f32>(0.0);
    for (var m = 0u; m < c.count; m++) {
        let d = c.d[m];
        let g = c.g[m];
        let t = c.r2 - dot(d, d);
        if t < 0.0 {
            continue;
        }
        let gd = dot(g, d);
        let t2 = t * t;
        value += t2 * t2 * gd;
        grad += t2 * t2 * g - 8.0 * t2 * t * gd * d;
    }
    return Dual(c.scale * value, c.scale * grad);
}

fn noise_octave_d(lat: Lattice, pt: LatticePoint) -> Dual {
    let dims = NOISE_DIMS;
    switch NOISE_KIND {
        case KIND_PERLIN: { return gradient_kinds_d(lat, pt, dims, true); }
        case KIND_GRADIENT: { return gradient_kinds_d(lat, pt, dims, false); }
        case KIND_SIMPLEX: {
            switch dims {
                case 2u: { return simplex_d(simplex2_corners(lat, pt)); }
                case 3u: { return simplex_d(simplex3_corners(lat, pt)); }
                default: { return simplex_d(simplex4_corners(lat, pt)); }
            }
        }
        default: {
            if NOISE_INTERP == INTERP_CATMULL_ROM {
                return value_catmull_rom_d(lat, pt, dims);
            }
            return value_d(lat, pt, dims);
        }
    }
}

// fractal_term with its gradient: |N|' = sign(N) N' (sign(0) = +1).
fn fractal_term_d(d: Dual) -> Dual {
    let s = select(1.0, -1.0, d.value < 0.0);
    switch NOISE_FRACTAL {
        case FRACTAL_TURBULENCE: { return Dual(abs(d.value), s * d.grad); }
        case FRACTAL_RIDGED: {
            let r = 1.0 - abs(d.value);
            return Dual(r * r, -2.0 * r * s * d.grad);
        }
        case FRACTAL_BILLOW: { return Dual(2.0 * abs(d.value) - 1.0, 2.0 * s * d.grad); }
        default: { return d; }
    }
}

// Image texel t's value and partial derivatives along the texel axes, (value, d/dx, d/dy,
// d/dz): octave k's lattice gradient times its lattice cells per texel (mirrors
// cpu::fractal::noise_gradient_at_texel).
fn fractal_noise_texel_d(t: vec3<u32>) -> vec4<f32> {
    var sum = 0.0;
    var grad = vec3<f32>(0.0);
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        let octave = noise_state.octave[o];
        let d = fractal_term_d(noise_octave_d(octave_lattice(o), texel_lattice_point(o, t)));
        sum += octave.weight * d.value;
        grad += octave.weight * octave.texel_frequency * d.grad.xyz;
    }
    if NOISE_FRACTAL == FRACTAL_RIDGED {
        return vec4<f32>(2.0 * sum - 1.0, 2.0 * grad);
    }
    return vec4<f32>(sum, grad);
}
