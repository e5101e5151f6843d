// The curve node (graph/modifiers/curve.rs): its value and its gradient.

// params[first + k].xy is control point k, for k < n; x increases.
fn curve(v: f32, first: u32, n: u32, cubic: bool) -> f32 {
    let lo = graph_state.params[first].xy;
    let hi = graph_state.params[first + n - 1u].xy;
    if v <= lo.x {
        return lo.y;
    }
    if v >= hi.x {
        return hi.y;
    }
    var i = 0u;
    for (var k = 1u; k < n - 1u; k++) {
        if graph_state.params[first + k].x <= v {
            i = k;
        }
    }
    let p0 = graph_state.params[first + i].xy;
    let p1 = graph_state.params[first + i + 1u].xy;
    let t = (v - p0.x) / (p1.x - p0.x);
    if !cubic {
        return lerp(t, p0.y, p1.y);
    }
    let before = graph_state.params[first + max(i, 1u) - 1u].y;
    let after = graph_state.params[first + min(i + 2u, n - 1u)].y;
    return catmull_rom(t, before, p0.y, p1.y, after);
}

fn curve_d(v: vec4<f32>, first: u32, n: u32, cubic: bool) -> vec4<f32> {
    let value = curve(v.x, first, n, cubic);
    let lo = graph_state.params[first].xy;
    let hi = graph_state.params[first + n - 1u].xy;
    if v.x <= lo.x || v.x >= hi.x {
        return chain(v, value, 0.0);
    }
    var i = 0u;
    for (var k = 1u; k < n - 1u; k++) {
        if graph_state.params[first + k].x <= v.x {
            i = k;
        }
    }
    let p0 = graph_state.params[first + i].xy;
    let p1 = graph_state.params[first + i + 1u].xy;
    let width = p1.x - p0.x;
    if !cubic {
        return chain(v, value, (p1.y - p0.y) / width);
    }
    let t = (v.x - p0.x) / width;
    let before = graph_state.params[first + max(i, 1u) - 1u].y;
    let after = graph_state.params[first + min(i + 2u, n - 1u)].y;
    return chain(v, value, catmull_rom_derivative(t, before, p0.y, p1.y, after) / width);
}
