// A graph in a caller's shader (PreparedGraph::wgsl_module): the state sits beside the noise
// library's tables at @group(NOISE_GROUP), binding 4 (gpu_noise::gpu::graph::GraphBindings).

@group(NOISE_GROUP) @binding(4) var<storage, read> graph_state: GraphState;
