// A graph's program (CONVENTIONS §13): its generated graph_value(t) and graph_value_d(t), whose
// state sits beside the tables at group 1, binding 4 (graph/module.wgsl).

fn noise_at_texel(t: vec3<u32>) -> f32 {
    return graph_value(t);
}

fn noise_at_texel_d(t: vec3<u32>) -> vec4<f32> {
    return graph_value_d(t);
}
