// Range::Auto: the min and max of a window's noise, found on the GPU in two passes, so a
// normalized texture never leaves the GPU. range_partial evaluates the noise itself (nothing
// is stored) with REDUCE_GROUPS workgroups striding over the window; range_final reduces their
// REDUCE_GROUPS partial results to one (lo, hi).

@group(2) @binding(9) var<storage, read_write> partial_ranges: array<vec2<f32>, REDUCE_GROUPS>;
@group(2) @binding(10) var<storage, read_write> range_out: array<f32, 2>;

// Texel n of the window, memory order x fastest, as image texel coordinates (the reduction
// strides over texels in one dimension; it runs once per auto-ranged image, not per texel
// kernel, so its divisions are cheap beside the noise).
fn window_texel(n: u32) -> vec3<u32> {
    let w = params.extent.x;
    let h = params.extent.y;
    return params.origin.xyz + vec3<u32>(n % w, (n / w) % h, n / (w * h));
}

var<workgroup> lows: array<f32, WORKGROUP_SIZE>;
var<workgroup> highs: array<f32, WORKGROUP_SIZE>;

// The (min, max) over the workgroup of each invocation's (lo, hi); valid in invocation 0.
fn reduce_workgroup(li: u32, lo: f32, hi: f32) -> vec2<f32> {
    lows[li] = lo;
    highs[li] = hi;
    workgroupBarrier();
    for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
        if li < stride {
            lows[li] = min(lows[li], lows[li + stride]);
            highs[li] = max(highs[li], highs[li + stride]);
        }
        workgroupBarrier();
    }
    return vec2<f32>(lows[0], highs[0]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn range_partial(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    var lo = F32_MAX;
    var hi = -F32_MAX;
    for (var n = wg.x * WORKGROUP_SIZE + li; n < params.item_count; n += REDUCE_GROUPS * WORKGROUP_SIZE) {
        let v = noise_at_texel(window_texel(n));
        lo = min(lo, v);
        hi = max(hi, v);
    }
    let r = reduce_workgroup(li, lo, hi);
    if li == 0u {
        partial_ranges[wg.x] = r;
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn range_final(@builtin(local_invocation_index) li: u32) {
    var lo = F32_MAX;
    var hi = -F32_MAX;
    for (var n = li; n < REDUCE_GROUPS; n += WORKGROUP_SIZE) {
        lo = min(lo, partial_ranges[n].x);
        hi = max(hi, partial_ranges[n].y);
    }
    let r = reduce_workgroup(li, lo, hi);
    if li == 0u {
        range_out[0] = r.x;
        range_out[1] = r.y;
    }
}
