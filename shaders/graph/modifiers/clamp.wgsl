// The clamp node with its gradient (graph/modifiers/clamp.rs); its value is WGSL's clamp.

fn clamp_d(v: vec4<f32>, lo: f32, hi: f32) -> vec4<f32> {
    return chain(v, clamp(v.x, lo, hi), select(0.0, 1.0, v.x > lo && v.x < hi));
}
