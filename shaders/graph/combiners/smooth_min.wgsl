// The smooth-min node (graph/combiners/smooth_min.rs): its value and its gradient; smooth-max
// is -smooth_min(-a, -b).

fn smooth_min(a: f32, b: f32, k: f32) -> f32 {
    let h = max(k - abs(a - b), 0.0) / k;
    return min(a, b) - h * h * k * 0.25;
}

fn smooth_min_d(a: vec4<f32>, b: vec4<f32>, k: f32) -> vec4<f32> {
    let h = max(k - abs(a.x - b.x), 0.0) / k;
    let lesser = select(b, a, a.x <= b.x);
    let side = select(1.0, -1.0, a.x <= b.x);
    return vec4<f32>(smooth_min(a.x, b.x, k), lesser.yzw + 0.5 * h * side * (a.yzw - b.yzw));
}
