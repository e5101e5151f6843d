// The fractal sums over octaves (CONVENTIONS §4); mirrored by src/cpu/fractal.rs. One octave
// by kind is noise_octave, generated from the kinds' table (src/wgsl/dispatch.rs). The
// library's entries, with the octaves of `noise_state` and the kind, dims, interpolation and
// fractal of the NOISE_* overrides:
// - fractal_noise_texel(t): image texel t of the prepared spec, exact at any offset;
// - fractal_noise_texel_pair(t): texels t and t + (0, 1, 0), the same values for less work;
// - fractal_noise(p): an f32 point p in lattice units (octave 0), precise near the origin.

fn fractal_term(fractal: u32, n: f32) -> f32 {
    switch fractal {
        case FRACTAL_TURBULENCE: { return abs(n); }
        case FRACTAL_RIDGED: { return (1.0 - abs(n)) * (1.0 - abs(n)); }
        case FRACTAL_BILLOW: { return 2.0 * abs(n) - 1.0; }
        default: { return n; }
    }
}

// The weighted sum (weights sum to 1), remapped to [-1, 1] for ridged.
fn fractal_finish(fractal: u32, sum: f32) -> f32 {
    if fractal == FRACTAL_RIDGED {
        return 2.0 * sum - 1.0;
    }
    return sum;
}

// Octave o's weighted term at a point on its lattice.
fn octave_term(o: u32, pt: LatticePoint) -> f32 {
    return noise_state.octave[o].weight * fractal_term(NOISE_FRACTAL, noise_octave(octave_lattice(o), pt));
}

// The noise of image texel t (x, y, z) of the prepared spec: each octave at its frame's exact
// lattice point (mirrors cpu::fractal::noise_at_texel).
fn fractal_noise_texel(t: vec3<u32>) -> f32 {
    var sum = 0.0;
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        sum += octave_term(o, texel_lattice_point(o, t));
    }
    return fractal_finish(NOISE_FRACTAL, sum);
}

// fractal_noise_texel at texels t and t + (0, 1, 0), the second from the first's exact
// coordinate plus one row step (row_step): the same values to the bit, for one set of products.
// The texel loop stays a loop: written out twice, the larger kernels spilled on lavapipe.
fn fractal_noise_texel_pair(t: vec3<u32>) -> vec2<f32> {
    var sum = vec2<f32>(0.0);
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        var q = texel_coordinate(o, t);
        let step = row_step(o);
        for (var k = 0u; k < 2u; k++) {
            sum[k] += octave_term(o, coordinate_point(q));
            add_coordinate(&q, step);
        }
    }
    return vec2<f32>(fractal_finish(NOISE_FRACTAL, sum.x), fractal_finish(NOISE_FRACTAL, sum.y));
}

// The kind's skew of an f32 point, q + F (q.x + ... ) on the first NOISE_DIMS axes (kind_skewed
// and kind_skew are generated from the kinds' rows: simplex's F).
fn lattice_skew(q: vec4<f32>) -> vec4<f32> {
    if !kind_skewed() {
        return q;
    }
    let f = kind_skew();
    let used = vec4<f32>(vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(NOISE_DIMS));
    let q_used = q * used;
    return q + used * f * (q_used.x + q_used.y + q_used.z + q_used.w);
}

// The noise at an f32 point p (lattice units at octave 0): octave k samples p * scale_k, split
// by floor in f32, so precise only near the origin; use fractal_noise_texel far out.
fn fractal_noise(p: vec4<f32>) -> f32 {
    var sum = 0.0;
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        let q = lattice_skew(p * noise_state.octave[o].scale);
        sum += octave_term(o, lattice_point_of(q));
    }
    return fractal_finish(NOISE_FRACTAL, sum);
}
