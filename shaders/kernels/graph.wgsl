// A graph's program (CONVENTIONS §13): its generated graph_value(t) and graph_value_d(t), whose
// state sits beside the tables at group 1, binding 4 (src/wgsl/codegen.rs StateSpace).

fn noise_at_texel(t: vec3<u32>) -> f32 {
    return graph_value(t);
}

fn noise_at_texel_d(t: vec3<u32>) -> vec4<f32> {
    return graph_value_d(t);
}

// Texel t alone (PROGRAM_ROWS = 1, src/wgsl/sources.rs GRAPH_PROGRAM_ROWS: a graph's noises'
// points can be warped, so two rows would share no step); y is never read.
fn noise_at_texels(t: vec3<u32>) -> vec2<f32> {
    return vec2<f32>(graph_value(t), 0.0);
}
