// The remap node (graph/modifiers/remap.rs): its value and its gradient.

fn remap(v: f32, span_in: vec2<f32>, span_out: vec2<f32>) -> f32 {
    return span_out.x + (v - span_in.x) * (span_out.y - span_out.x) / (span_in.y - span_in.x);
}

fn remap_d(v: vec4<f32>, span_in: vec2<f32>, span_out: vec2<f32>) -> vec4<f32> {
    return chain(v, remap(v.x, span_in, span_out), (span_out.y - span_out.x) / (span_in.y - span_in.x));
}
