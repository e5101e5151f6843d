// The max node with its gradient (graph/combiners/max.rs): the greater input's, the first on a
// tie; its value is WGSL's max.

fn max_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return select(b, a, a.x >= b.x);
}
