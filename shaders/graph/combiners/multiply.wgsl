// The multiply node with its gradient (graph/combiners/multiply.rs): the product rule; its
// value is `*`.

fn multiply_d(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.x * b.x, a.yzw * b.x + a.x * b.yzw);
}
