// The min node with its gradient (graph/combiners/min.rs): the lesser input's, the first on a
// tie; its value is WGSL's min.

fn min_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(b, a, a.x <= b.x);
}
