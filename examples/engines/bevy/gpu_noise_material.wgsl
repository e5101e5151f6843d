// A Bevy material's fragment shader that imports gpu-noise's WGSL module through naga_oil.
// Export it into the app's assets, with an import path:
//   gpu-noise shader --lang wgsl --lattice prime --size 1024 --import-path gpu_noise \
//       -o assets/shaders/gpu_noise.wgsl
// and load it once (`load_internal_asset!` or keep its Handle<Shader> alive) so the import
// resolves. Perlin on a prime lattice reads no tables, so nothing more is bound. Not run here:
// see docs/ENGINES.md for which Bevy builds with this toolchain. tests/suite/engines.rs
// validates this file with naga around a fresh export.
#import bevy_pbr::forward_io::VertexOutput
#import gpu_noise::gn_graph_value

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    // The mesh's UV over the exported image's 1024 x 1024 texels.
    let texel = vec3<u32>(vec2<u32>(clamp(mesh.uv, vec2(0.0), vec2(1.0)) * 1023.0), 0u);
    let height = gn_graph_value(texel) * 0.5 + 0.5;
    return vec4<f32>(vec3<f32>(height), 1.0);
}
