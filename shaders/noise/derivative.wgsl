// Analytic derivatives (CONVENTIONS §12), the shared part: a value with its gradient along the
// lattice axes, the interpolation weights' derivatives, the corner kinds' reduction carried with
// gradients (mirrored by src/kinds/lattice/dual.rs), and the fractal sums chained into partial
// derivatives per texel (mirrored by src/cpu/fractal.rs). Each kind's file has its own
// derivative; noise_octave_d, generated from the kinds' table, picks it.
// fractal_noise_texel_d(t) is the entry: (value, d/dx, d/dy, d/dz).

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
// `interp` is the lattice's (lattice_interp: a graph's noise nodes each have their own).
fn interp_corners_d(v: ptr<function, array<f32, 16>>, g: ptr<function, array<vec4<f32>, 16>>,
    frame: CellFrame, dims: u32, interp: u32) -> Dual {
    var n = 1u << dims;
    for (var a = 0u; a < dims; a++) {
        let w = frame.weight[a];
        let dw = interp_weight_derivative(frame.frac[a], interp);
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
    let d = interp_corners_d(&v, &g, frame, dims, lattice_interp(lat));
    var scale = 1.0;
    if perlin && dims == 1u {
        scale = PERLIN1_SCALE;
    } else if perlin && dims == 2u {
        scale = PERLIN2_SCALE;
    }
    return Dual(scale * d.value, scale * d.grad);
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
// cpu::fractal::noise_gradient_at_texel). Only the kind's NOISE_DIMS axes count: a 2D kind's
// corner gradients may have a third component, which moves nothing.
fn fractal_noise_texel_d(t: vec3<u32>) -> vec4<f32> {
    var sum = 0.0;
    var grad = vec3<f32>(0.0);
    let used = vec3<u32>(0u, 1u, 2u) < vec3<u32>(NOISE_DIMS);
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        let octave = noise_state.octave[o];
        let d = fractal_term_d(noise_octave_d(octave_lattice(o), texel_lattice_point(o, t)));
        sum += octave.weight * d.value;
        grad += octave.weight * octave.texel_frequency * select(vec3<f32>(0.0), d.grad.xyz, used);
    }
    if NOISE_FRACTAL == FRACTAL_RIDGED {
        return vec4<f32>(2.0 * sum - 1.0, 2.0 * grad);
    }
    return vec4<f32>(sum, grad);
}
