// The crate's graph kernel (CONVENTIONS §13): the graph's value at every texel of a window into
// a buffer of f32, x fastest. Its bindings are at group 0; the noise library's tables at group 1.

// Mirrors src/gpu/graph.rs `GraphWindow`.
struct GraphWindow {
    // Image texel of the window's first texel, and its extent (x, y, z; w: f32 words per output
    // row, the width or more for rows padded to a texture copy's 256 bytes).
    origin: vec4<u32>,
    extent: vec4<u32>,
    // This dispatch's first texel within the window; w unused.
    base: vec4<u32>,
}

@group(0) @binding(0) var<uniform> graph_window: GraphWindow;
@group(0) @binding(1) var<storage, read> graph_state: GraphState;
@group(0) @binding(2) var<storage, read_write> graph_out: array<f32>;

@compute @workgroup_size(8, 8, 1)
fn graph_render_buffer(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = graph_window.base.xyz + gid;
    if any(local >= graph_window.extent.xyz) {
        return;
    }
    let e = graph_window.extent;
    graph_out[(local.z * e.y + local.y) * e.w + local.x] = graph_value(graph_window.origin.xyz + local);
}
