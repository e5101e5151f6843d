// A flat spec's program: the noise library's fractal sum of the NOISE_* overrides' kind, over
// the octaves of noise_state (bound at group 1 with the tables).

fn noise_at_texel(t: vec3<u32>) -> f32 {
    return fractal_noise_texel(t);
}

fn noise_at_texel_d(t: vec3<u32>) -> vec4<f32> {
    return fractal_noise_texel_d(t);
}

// Texels t and t + (0, 1, 0) (PROGRAM_ROWS = 2, src/wgsl/sources.rs FLAT_PROGRAM_ROWS).
fn noise_at_texels(t: vec3<u32>) -> vec2<f32> {
    return fractal_noise_texel_pair(t);
}
