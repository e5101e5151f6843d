// The terrace node (graph/modifiers/terrace.rs): its value and its gradient.

// params[first + k].x is level k, for k < n, increasing.
fn terrace(v: f32, first: u32, n: u32, invert: bool) -> f32 {
    var above = n;
    for (var k = n; k > 0u; k--) {
        if v < graph_state.params[first + k - 1u].x {
            above = k - 1u;
        }
    }
    let i0 = max(above, 1u) - 1u;
    let i1 = min(above, n - 1u);
    if i0 == i1 {
        return graph_state.params[first + i1].x;
    }
    var lo = graph_state.params[first + i0].x;
    var hi = graph_state.params[first + i1].x;
    var alpha = (v - lo) / (hi - lo);
    if invert {
        alpha = 1.0 - alpha;
        let swap = lo;
        lo = hi;
        hi = swap;
    }
    return lerp(alpha * alpha, lo, hi);
}

fn terrace_d(v: vec4<f32>, first: u32, n: u32, invert: bool) -> vec4<f32> {
    let value = terrace(v.x, first, n, invert);
    var above = n;
    for (var k = n; k > 0u; k--) {
        if v.x < graph_state.params[first + k - 1u].x {
            above = k - 1u;
        }
    }
    let i0 = max(above, 1u) - 1u;
    let i1 = min(above, n - 1u);
    if i0 == i1 {
        return chain(v, value, 0.0);
    }
    let lo = graph_state.params[first + i0].x;
    let hi = graph_state.params[first + i1].x;
    let alpha = (v.x - lo) / (hi - lo);
    return chain(v, value, 2.0 * select(alpha, 1.0 - alpha, invert));
}
