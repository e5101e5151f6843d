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

// interp_corners_d's step along axis a, for constant a: two corners lerped by the weight w,
// their gradients too, and component a gains w' (hi - lo).
fn lerp_d(lo: Dual, hi: Dual, w: f32, dw: f32, a: u32) -> Dual {
    var g = lo.grad + w * (hi.grad - lo.grad);
    g[a] += dw * (hi.value - lo.value);
    return Dual(lo.value + w * (hi.value - lo.value), g);
}

// interp_corners_d over a 2D cell's corners (corner order, x fastest) with constant indices
// only: the loops' run-time indices kept the corners in memory, which made Perlin fBm's
// gradient 22x slower than its value on lavapipe (and is local memory on NVIDIA GPUs).
fn interp_square_d(c: array<Dual, 4>, x: AxisFrame, y: AxisFrame, interp: u32) -> Dual {
    let dx = interp_weight_derivative(x.f, interp);
    let lower = lerp_d(c[0], c[1], x.w, dx, 0u);
    let upper = lerp_d(c[2], c[3], x.w, dx, 0u);
    return lerp_d(lower, upper, y.w, interp_weight_derivative(y.f, interp), 1u);
}

// The same over a 3D cell's eight corners: along x, then y, then z.
fn interp_cube_d(c: array<Dual, 8>, x: AxisFrame, y: AxisFrame, z: AxisFrame, interp: u32) -> Dual {
    let dx = interp_weight_derivative(x.f, interp);
    let dy = interp_weight_derivative(y.f, interp);
    let z0 = lerp_d(lerp_d(c[0], c[1], x.w, dx, 0u), lerp_d(c[2], c[3], x.w, dx, 0u), y.w, dy, 1u);
    let z1 = lerp_d(lerp_d(c[4], c[5], x.w, dx, 0u), lerp_d(c[6], c[7], x.w, dx, 0u), y.w, dy, 1u);
    return lerp_d(z0, z1, z.w, interp_weight_derivative(z.f, interp), 2u);
}

// The gradient of corner hash h: Perlin's from the hash's bits, the classic kind's from the
// table.
fn corner_gradient(lat: Lattice, h: u32, dims: u32, perlin: bool) -> vec4<f32> {
    if perlin {
        return perlin_gradient_vector(h, dims);
    }
    return lattice_gradient(lat, h);
}

// A gradient kind's corner of hash h at offset f - b from it: g . (f - b) over the first dims
// (2 or 3) axes in axis order, and g.
fn gradient_corner_d(lat: Lattice, h: u32, offset: vec4<f32>, dims: u32, perlin: bool) -> Dual {
    let grad = corner_gradient(lat, h, dims, perlin);
    var dot = grad.x * offset.x + grad.y * offset.y;
    if dims > 2u {
        dot += grad.z * offset.z;
    }
    return Dual(dot, grad);
}

// gradient_kinds_d in 2D: the corner hashes' shared chains (corner_hashes2) and constant
// indices.
fn gradient_kinds_d2(lat: Lattice, pt: LatticePoint, perlin: bool) -> Dual {
    let x = axis_frame(lat, pt, 0u);
    let y = axis_frame(lat, pt, 1u);
    let h = corner_hashes2(lat, vec2<u32>(x.c0, y.c0), vec2<u32>(x.c1, y.c1));
    let x0 = x.f;
    let x1 = x.f - 1.0;
    let y0 = y.f;
    let y1 = y.f - 1.0;
    let corners = array<Dual, 4>(
        gradient_corner_d(lat, h.x, vec4<f32>(x0, y0, 0.0, 0.0), 2u, perlin),
        gradient_corner_d(lat, h.y, vec4<f32>(x1, y0, 0.0, 0.0), 2u, perlin),
        gradient_corner_d(lat, h.z, vec4<f32>(x0, y1, 0.0, 0.0), 2u, perlin),
        gradient_corner_d(lat, h.w, vec4<f32>(x1, y1, 0.0, 0.0), 2u, perlin));
    let d = interp_square_d(corners, x, y, lattice_interp(lat));
    let scale = select(1.0, PERLIN2_SCALE, perlin);
    return Dual(scale * d.value, scale * d.grad);
}

// gradient_kinds_d in 3D, as gradient_kinds_d2 (corner_hashes3's z0 holds corners 0-3).
fn gradient_kinds_d3(lat: Lattice, pt: LatticePoint, perlin: bool) -> Dual {
    let x = axis_frame(lat, pt, 0u);
    let y = axis_frame(lat, pt, 1u);
    let z = axis_frame(lat, pt, 2u);
    let h = corner_hashes3(lat, vec3<u32>(x.c0, y.c0, z.c0), vec3<u32>(x.c1, y.c1, z.c1));
    let x0 = x.f;
    let x1 = x.f - 1.0;
    let y0 = y.f;
    let y1 = y.f - 1.0;
    let z0 = z.f;
    let z1 = z.f - 1.0;
    let corners = array<Dual, 8>(
        gradient_corner_d(lat, h.z0.x, vec4<f32>(x0, y0, z0, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z0.y, vec4<f32>(x1, y0, z0, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z0.z, vec4<f32>(x0, y1, z0, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z0.w, vec4<f32>(x1, y1, z0, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z1.x, vec4<f32>(x0, y0, z1, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z1.y, vec4<f32>(x1, y0, z1, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z1.z, vec4<f32>(x0, y1, z1, 0.0), 3u, perlin),
        gradient_corner_d(lat, h.z1.w, vec4<f32>(x1, y1, z1, 0.0), 3u, perlin));
    return interp_cube_d(corners, x, y, z, lattice_interp(lat));
}

// Perlin (perlin = true) or classic gradient noise with its gradient: corners g . (f - b).
// 2D and 3D take the constant-index forms above; 1D and 4D this loop over the corners.
fn gradient_kinds_d(lat: Lattice, pt: LatticePoint, dims: u32, perlin: bool) -> Dual {
    if dims == 2u {
        return gradient_kinds_d2(lat, pt, perlin);
    }
    if dims == 3u {
        return gradient_kinds_d3(lat, pt, perlin);
    }
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    var g: array<vec4<f32>, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        let h = lattice_hash(lat, corner_cells(frame, n), dims);
        let grad = corner_gradient(lat, h, dims, perlin);
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
