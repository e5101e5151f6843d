// The smoothstep node with its gradient (graph/modifiers/smoothstep.rs); its value is
// WGSL's smoothstep.

fn smoothstep_d(edge0: f32, edge1: f32, v: vec4<f32>) -> vec4<f32> {
    let t = (v.x - edge0) / (edge1 - edge0);
    let slope = select(0.0, 6.0 * t * (1.0 - t) / (edge1 - edge0), t > 0.0 && t < 1.0);
    return chain(v, smoothstep(edge0, edge1, v.x), slope);
}
