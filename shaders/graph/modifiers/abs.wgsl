// The abs node with its gradient (graph/modifiers/abs.rs); its value is WGSL's abs.

fn abs_d(v: vec4<f32>) -> vec4<f32> {
    return chain(v, abs(v.x), sign_d(v.x));
}
