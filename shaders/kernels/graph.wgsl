// A graph's program (CONVENTIONS §13): its generated graph_value(t) and graph_value_d(t), whose
// state sits beside the tables at group 1, binding 4 (src/wgsl/codegen.rs StateSpace).

fn noise_at_texel(t: vec3<u32>) -> f32 {
    return graph_value(t);
}

fn noise_at_texel_d(t: vec3<u32>) -> vec4<f32> {
    return graph_value_d(t);
}

// Texels t and t + (0, 1, 0) (PROGRAM_ROWS = 2, src/wgsl/sources.rs GRAPH_PROGRAM_ROWS): the
// graph's straight-line code twice, each texel on its own (a warp moves each texel's points),
// written out rather than looped, since lavapipe keeps a loop's values in memory.
fn noise_at_texels(t: vec3<u32>) -> vec2<f32> {
    return vec2<f32>(graph_value(t), graph_value(t + vec3<u32>(0u, 1u, 0u)));
}
