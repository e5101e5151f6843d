// One octave by kind, the fractal sums (REFERENCE §4), the texel-to-point map (REFERENCE §1)
// and the entry points; mirrored by src/cpu/fractal.rs.

fn noise_octave(o: u32, p: vec4<f32>) -> f32 {
    let dims = DIMS;
    switch KIND {
        case KIND_PERLIN: {
            switch dims {
                case 1u: { return perlin1(o, p); }
                case 2u: { return perlin2(o, p); }
                case 3u: { return perlin3(o, p); }
                default: { return perlin4(o, p); }
            }
        }
        case KIND_GRADIENT: { return gradient(o, p, dims); }
        default: {
            if INTERP == INTERP_CATMULL_ROM {
                return value_catmull_rom(o, p, dims);
            }
            return value(o, p, dims);
        }
    }
}

fn fractal_term(n: f32) -> f32 {
    switch FRACTAL {
        case FRACTAL_TURBULENCE: { return abs(n); }
        case FRACTAL_RIDGED: { return (1.0 - abs(n)) * (1.0 - abs(n)); }
        case FRACTAL_BILLOW: { return 2.0 * abs(n) - 1.0; }
        default: { return n; }
    }
}

fn fractal_finish(sum: f32, norm: f32) -> f32 {
    let mean = sum / norm;
    if FRACTAL == FRACTAL_RIDGED {
        return 2.0 * mean - 1.0;
    }
    return mean;
}

fn fractal_noise(p: vec4<f32>) -> f32 {
    var scale = 1.0;
    var amplitude = 1.0;
    var sum = 0.0;
    var norm = 0.0;
    for (var o = 0u; o < params.octaves; o++) {
        sum += amplitude * fractal_term(noise_octave(o, p * scale));
        norm += amplitude;
        scale *= params.lacunarity;
        amplitude *= params.persistence;
    }
    return fractal_finish(sum, norm);
}

fn texel_point(i: u32, j: u32, k: u32) -> vec4<f32> {
    return params.frequency * (params.offset + vec4<f32>(f32(i), f32(j), f32(k), 0.0));
}

fn noise_at_texel(i: u32, j: u32, k: u32) -> f32 {
    return fractal_noise(texel_point(i, j, k));
}

// One texel per invocation; a 2D dispatch (row_pitch invocations per row) covers chunks larger
// than one dispatch dimension allows.
@compute @workgroup_size(WORKGROUP_SIZE)
fn render_texels(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = gid.x + gid.y * params.row_pitch;
    if local >= params.texel_count {
        return;
    }
    let n = params.texel_base + local;
    let i = n % params.width;
    let j = (n / params.width) % params.height;
    let k = n / (params.width * params.height);
    output[local] = noise_at_texel(i, j, k);
}

// Noise at caller-given points already in noise space (the `sample` command).
@compute @workgroup_size(WORKGROUP_SIZE)
fn sample_points(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = gid.x + gid.y * params.row_pitch;
    if local >= params.texel_count {
        return;
    }
    output[local] = fractal_noise(points[local]);
}
