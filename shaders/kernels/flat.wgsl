// A flat spec's program: the noise library's fractal sum of the NOISE_* overrides' kind, over
// the octaves of noise_state (bound at group 1 with the tables).

fn noise_at_texel(t: vec3<u32>) -> f32 {
    return fractal_noise_texel(t);
}

fn noise_at_texel_d(t: vec3<u32>) -> vec4<f32> {
    return fractal_noise_texel_d(t);
}
