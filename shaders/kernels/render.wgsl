// The crate's own compute kernels: a window of texels into a buffer, an r32float texture
// (2D, 2D array, 3D), an rgba8unorm texture through a colormap, 16-bit heightmap words, values
// with gradients, normal maps, or caller-given points. They include the noise library
// (shaders/noise/) with NOISE_GROUP = 1 and take their own parameters at group 0 and their
// target at group 2. What a texel's value is comes from the program file before them:
// noise_at_texel(t), noise_at_texels(t) and noise_at_texel_d(t) of a flat spec
// (kernels/flat.wgsl) or of a graph's generated code (kernels/graph.wgsl), so every target
// serves every job.

// Texel kernels run 8 x 8 x 1 workgroups over the window's x, y and z (the value kernels
// PROGRAM_ROWS rows an invocation), so no invocation divides to find its texel; the point,
// word and reduction kernels run 64 in a row.
// WORKGROUP_SIZE, TILE_SIZE, COLORMAP_LEN, REDUCE_GROUPS and F32_MAX are generated from Rust
// (src/wgsl/constants.rs) and put before the kernel files, PROGRAM_ROWS before the program
// (src/wgsl/sources.rs).

// Mirrors src/gpu/params.rs `RenderParams` (layout checked by a test through naga's layouter).
struct RenderParams {
    // The window: image texel of its first texel, and its extent (x, y, z; w unused). Where a
    // texel lands on each octave's lattice is the noise library's (noise_state.frame).
    origin: vec4<u32>,
    extent: vec4<u32>,
    // This dispatch's first texel within the window (a window wider, taller or deeper than one
    // dispatch reaches is rendered by several); w unused.
    base: vec4<u32>,
    // Fixed output range (lo, hi) for colormapped and 16-bit targets; z, w unused.
    range: vec4<f32>,
    // Invocations that do work: texels, words or points of this dispatch.
    item_count: u32,
    // Invocations per dispatch row (groups in x times the workgroup size).
    row_pitch: u32,
    // Elements (f32 or u32 words) per output row: rows padded for a texture copy, or the
    // window's width for tightly packed rows.
    words_per_row: u32,
    // 1: take the range from `range_found` (Range::Auto) instead of `range`.
    auto_range: u32,
    // Normal maps: heights are the noise value times this many texels.
    normal_strength: f32,
    // Always 0 (texel_values).
    zero_bits: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: RenderParams;

@group(2) @binding(0) var<storage, read_write> out_values: array<f32>;
@group(2) @binding(1) var out_r32_2d: texture_storage_2d<r32float, write>;
@group(2) @binding(2) var out_r32_2d_array: texture_storage_2d_array<r32float, write>;
@group(2) @binding(3) var out_r32_3d: texture_storage_3d<r32float, write>;
@group(2) @binding(4) var out_rgba8: texture_storage_2d<rgba8unorm, write>;
// Colormap entries packed r | g << 8 | b << 16 | a << 24 (gpu_noise::Colormap::packed_table).
@group(2) @binding(5) var<storage, read> colormap: array<u32, COLORMAP_LEN>;
// (lo, hi) found by the reduction in reduce.wgsl.
@group(2) @binding(6) var<storage, read> range_found: array<f32, 2>;
@group(2) @binding(7) var<storage, read_write> out_words: array<u32>;
// Caller-given points split on the host: for point n and octave o, entry 2 (n octaves + o) is
// the lattice cell and the next one the fraction's top 32 bits (cpu::common::LatticePoint).
@group(2) @binding(8) var<storage, read> points: array<vec4<u32>>;

// The invocation's item; a 2D dispatch covers more groups than one dimension allows.
fn invocation_index(gid: vec3<u32>) -> u32 {
    return gid.x + gid.y * params.row_pitch;
}

// A texel kernel's place in the window (x, y, z) and whether it lies inside.
fn window_local(gid: vec3<u32>) -> vec3<u32> {
    return params.base.xyz + gid;
}

fn in_window(local: vec3<u32>) -> bool {
    return all(local < params.extent.xyz);
}

// The element of texel `local` in a buffer of rows of words_per_row elements.
fn row_element(local: vec3<u32>) -> u32 {
    return (local.z * params.extent.y + local.y) * params.words_per_row + local.x;
}

fn output_range() -> vec2<f32> {
    if params.auto_range == 1u {
        return vec2<f32>(range_found[0], range_found[1]);
    }
    return params.range.xy;
}

// The value kernels below compute PROGRAM_ROWS texels an invocation, rows y and y + 1 where it
// is 2 (a flat spec: noise_at_texels shares one set of the exact frame's products between them,
// and lavapipe pays its cost per invocation once for both). The host dispatches them over
// tiles of TILE_SIZE x PROGRAM_ROWS TILE_SIZE texels (gpu::Entry::tile).
fn rows_local(gid: vec3<u32>) -> vec3<u32> {
    return params.base.xyz + vec3<u32>(gid.x, PROGRAM_ROWS * gid.y, gid.z);
}

const NEXT_ROW: vec3<u32> = vec3<u32>(0u, 1u, 0u);

// The value kernels compute their texels before they test the window, and only the stores are
// guarded: an invocation past the window's edge computes a texel nobody stores. llvmpipe (Mesa
// 22.3) loads a uniform buffer with one scalar load only outside conditional code; inside an
// `if`, which an early return makes of the rest of a kernel, every uniform load (the octave's
// frame and lattice, a graph's state) is a gather, one lane at a time. On lavapipe, 2048^2,
// one octave on the table lattice: simplex 3D 153 -> 204 Msamples/s; the terrain graph 16.5 ->
// 24 Mtexels/s. The derivative kernels keep their early return: a graph's gradient ran 12%
// slower without it there (the terrain's normal map at 4096^2, 3.6 -> 4.0 s), and a flat
// spec's the same.

// noise_at_texels(t) as the value kernels store it: its bits or'ed with params.zero_bits, which
// is always 0, so the values are the same. llvmpipe stores to a buffer or texture one lane at a
// time, and LLVM moves arithmetic whose one use is such a store into that per-lane loop: a
// graph's tail (a fractal sum of ten octaves) ran there as scalars, each of its vectors spilled
// once per lane. An operand the compiler cannot know ends the value's arithmetic before the
// loop (a graph's prime fBm: 193 -> 241 Msamples/s on lavapipe).
fn texel_values(t: vec3<u32>) -> vec2<f32> {
    return bitcast<vec2<f32>>(bitcast<vec2<u32>>(noise_at_texels(t)) | vec2<u32>(params.zero_bits));
}

// noise_at_texel_d(t), guarded as texel_values.
fn texel_gradient(t: vec3<u32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(bitcast<vec4<u32>>(noise_at_texel_d(t)) | vec4<u32>(params.zero_bits));
}

// Whether the invocation at `local` writes the next row's texel too.
fn next_row_in_window(local: vec3<u32>) -> bool {
    return PROGRAM_ROWS == 2u && in_window(local + NEXT_ROW);
}

@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_buffer(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = rows_local(gid);
    let v = texel_values(params.origin.xyz + local);
    if in_window(local) {
        out_values[row_element(local)] = v.x;
    }
    if next_row_in_window(local) {
        out_values[row_element(local + NEXT_ROW)] = v.y;
    }
}

@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_r32_2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = rows_local(gid);
    let t = params.origin.xyz + local;
    let v = texel_values(t);
    if in_window(local) {
        textureStore(out_r32_2d, t.xy, vec4<f32>(v.x, 0.0, 0.0, 1.0));
    }
    if next_row_in_window(local) {
        textureStore(out_r32_2d, t.xy + NEXT_ROW.xy, vec4<f32>(v.y, 0.0, 0.0, 1.0));
    }
}

@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_r32_2d_array(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = rows_local(gid);
    let t = params.origin.xyz + local;
    let v = texel_values(t);
    if in_window(local) {
        textureStore(out_r32_2d_array, t.xy, t.z, vec4<f32>(v.x, 0.0, 0.0, 1.0));
    }
    if next_row_in_window(local) {
        textureStore(out_r32_2d_array, t.xy + NEXT_ROW.xy, t.z, vec4<f32>(v.y, 0.0, 0.0, 1.0));
    }
}

@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_r32_3d(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = rows_local(gid);
    let t = params.origin.xyz + local;
    let v = texel_values(t);
    if in_window(local) {
        textureStore(out_r32_3d, t, vec4<f32>(v.x, 0.0, 0.0, 1.0));
    }
    if next_row_in_window(local) {
        textureStore(out_r32_3d, t + NEXT_ROW, vec4<f32>(v.y, 0.0, 0.0, 1.0));
    }
}

@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_rgba8(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = rows_local(gid);
    let t = params.origin.xyz + local;
    let v = texel_values(t);
    if in_window(local) {
        textureStore(out_rgba8, t.xy, rgba8_color(v.x));
    }
    if next_row_in_window(local) {
        textureStore(out_rgba8, t.xy + NEXT_ROW.xy, rgba8_color(v.y));
    }
}

// A value's color: through the colormap's stops where range.z is set, else its level of the
// colormap table over the output range.
fn rgba8_color(value: f32) -> vec4<f32> {
    if params.range.z > 0.5 {
        return colormap_stops(value);
    }
    let range = output_range();
    let level = quantize(unit_level(value, range.x, range.y), COLORMAP_LEN - 1u);
    return unpack4x8unorm(colormap[level]);
}

// Colormap stops (src/colormap.rs `Colormap::rgb`): word 0 the count n, words 1..=n the values
// (f32 bits, increasing), words n+1..=2n the colors; linear between stops, flat beyond the
// ends.
fn colormap_stops(value: f32) -> vec4<f32> {
    let n = min(colormap[0], (COLORMAP_LEN - 1u) / 2u);
    if !(value > bitcast<f32>(colormap[1])) {
        return unpack4x8unorm(colormap[1u + n]);
    }
    for (var i = 1u; i < n; i++) {
        let x1 = bitcast<f32>(colormap[1u + i]);
        if value <= x1 {
            let x0 = bitcast<f32>(colormap[i]);
            let c0 = unpack4x8unorm(colormap[n + i]);
            let c1 = unpack4x8unorm(colormap[1u + n + i]);
            return mix(c0, c1, (value - x0) / (x1 - x0));
        }
    }
    return unpack4x8unorm(colormap[2u * n]);
}

// One u32 word of a 16-bit heightmap: texels 2m and 2m + 1 of a row, low half first (the
// little-endian layout copy_buffer_to_texture reads); rows padded to words_per_row.
@compute @workgroup_size(WORKGROUP_SIZE)
fn pack_r16(@builtin(global_invocation_id) gid: vec3<u32>) {
    let n = invocation_index(gid);
    let row = n / params.words_per_row;
    let i = 2u * (n % params.words_per_row);
    let h = params.extent.y;
    let j = params.origin.y + row % h;
    let k = params.origin.z + row / h;
    let range = output_range();
    var word = 0u;
    for (var half = 0u; half < 2u; half++) {
        let v = noise_at_texel(vec3<u32>(params.origin.x + i + half, j, k));
        if i + half < params.extent.x {
            word |= quantize(unit_level(v, range.x, range.y), 65535u) << (16u * half);
        }
    }
    if n < params.item_count {
        out_words[n] = word;
    }
}

// Noise at caller-given points, split per octave on the host (the `sample` command).
@compute @workgroup_size(WORKGROUP_SIZE)
fn sample_points(@builtin(global_invocation_id) gid: vec3<u32>) {
    let n = invocation_index(gid);
    var sum = 0.0;
    for (var o = 0u; o < NOISE_OCTAVES; o++) {
        let at = 2u * (n * NOISE_OCTAVES + o);
        sum += octave_term(o, LatticePoint(points[at], point_frac(points[at + 1u])));
    }
    if n < params.item_count {
        out_values[n] = fractal_finish(NOISE_FRACTAL, sum);
    }
}

// Value and partial derivatives along the texel axes, 4 f32 per texel (value, d/dx, d/dy,
// d/dz), rows of words_per_row texels (CONVENTIONS §12).
@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_gradient(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = window_local(gid);
    if !in_window(local) {
        return;
    }
    let d = texel_gradient(params.origin.xyz + local);
    let at = 4u * row_element(local);
    out_values[at] = d.x;
    out_values[at + 1u] = d.y;
    out_values[at + 2u] = d.z;
    out_values[at + 3u] = d.w;
}

// A tangent-space normal map (OpenGL convention, +Y up: rows grow downwards, so the green axis
// is -d/dy): n = normalize(-s d/dx, s d/dy, 1) stored as n / 2 + 1/2.
@compute @workgroup_size(TILE_SIZE, TILE_SIZE, 1)
fn render_normal(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local = window_local(gid);
    if !in_window(local) {
        return;
    }
    let t = params.origin.xyz + local;
    let d = texel_gradient(t);
    let s = params.normal_strength;
    // As levels::tangent_normal: slopes held within f32's range, the vector divided by its
    // largest component above 1 before normalize, so strong heights never overflow.
    let f32_max = vec2<f32>(0x1.fffffep+127f);
    let slope = clamp(vec2<f32>(-(s * d.y), s * d.z), -f32_max, f32_max);
    let v = vec3<f32>(slope, 1.0);
    let normal = normalize(v / max(max(abs(v.x), abs(v.y)), 1.0));
    textureStore(out_rgba8, t.xy, vec4<f32>(normal * 0.5 + vec3<f32>(0.5), 1.0));
}
