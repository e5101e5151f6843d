#[compute]
#version 450
// A Godot 4 compute shader (RenderingDevice) around gpu-noise's GLSL module. Export the module
// beside this file first:
//   gpu-noise shader --lang glsl --graph terrain.json --size 512 -o gpu_noise.glsl
// (it writes gpu_noise.glsl.tables too, where the noise reads a table lattice's tables).
// tests/suite/engines.rs compiles this file with glslang around a fresh export.

#include "gpu_noise.glsl"

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

// The heights, one float a texel, row after row (binding 2 holds the module's tables).
layout(set = 0, binding = 0, std430) restrict writeonly buffer Heights {
    float heights[];
};

layout(push_constant, std430) uniform Window {
    uvec2 origin;  // the image texel of the first height
    uvec2 size;    // heights per row, rows
} window;

void main() {
    uvec2 local = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(local, window.size))) {
        return;
    }
    uvec3 texel = uvec3(window.origin + local, 0u);
    heights[local.y * window.size.x + local.x] = gn_graph_value(texel);
}
