// One octave by kind and the fractal sums over octaves (CONVENTIONS §4); mirrored by
// src/cpu/fractal.rs. `fractal_noise(p)` is the library's entry: noise at p (lattice units)
// with the octaves of `noise_state` and the kind, dims, interpolation and fractal of the
// NOISE_* overrides.

fn noise_octave(lat: Lattice, p: vec4<f32>) -> f32 {
    let dims = NOISE_DIMS;
    switch NOISE_KIND {
        case KIND_PERLIN: {
            switch dims {
                case 1u: { return perlin1(lat, p); }
                case 2u: { return perlin2(lat, p); }
                case 3u: { return perlin3(lat, p); }
                default: { return perlin4(lat, p); }
            }
        }
        case KIND_GRADIENT: { return gradient(lat, p, dims); }
        case KIND_SIMPLEX: {
            switch dims {
                case 2u: { return simplex2(lat, p); }
                case 3u: { return simplex3(lat, p); }
                default: { return simplex4(lat, p); }
            }
        }
        case KIND_CELLULAR: { return cellular(lat, p, dims); }
        case KIND_SPARSE_CONVOLUTION: { return sparse_convolution(lat, p, dims); }
        case KIND_GABOR: { return gabor(lat, p); }
        default: {
            if NOISE_INTERP == INTERP_CATMULL_ROM {
                return value_catmull_rom(lat, p, dims);
            }
            return value(lat, p, dims);
        }
    }
}

fn fractal_term(n: f32) -> f32 {
    switch NOISE_FRACTAL {
        case FRACTAL_TURBULENCE: { return abs(n); }
        case FRACTAL_RIDGED: { return (1.0 - abs(n)) * (1.0 - abs(n)); }
        case FRACTAL_BILLOW: { return 2.0 * abs(n) - 1.0; }
        default: { return n; }
    }
}

// The weighted sum (weights sum to 1), remapped to [-1, 1] for ridged.
fn fractal_finish(sum: f32) -> f32 {
    if NOISE_FRACTAL == FRACTAL_RIDGED {
        return 2.0 * sum - 1.0;
    }
    return sum;
}

fn fractal_noise(p: vec4<f32>) -> f32 {
    var sum = 0.0;
    for (var o = 0u; o < noise_state.octaves; o++) {
        let octave = noise_state.octave[o];
        sum += octave.weight * fractal_term(noise_octave(octave_lattice(o), p * octave.scale));
    }
    return fractal_finish(sum);
}
