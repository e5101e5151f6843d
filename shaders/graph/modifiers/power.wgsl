// The power node (graph/modifiers/power.rs): its value and its gradient.

fn power(v: f32, exponent: f32) -> f32 {
    if v == 0.0 {
        return 0.0;
    }
    return sign(v) * pow_of_positive(abs(v), exponent);
}

fn power_d(v: vec4<f32>, exponent: f32) -> vec4<f32> {
    var slope = select(0.0, 1.0, exponent == 1.0);
    if v.x != 0.0 {
        slope = exponent * pow_of_positive(abs(v.x), exponent - 1.0);
    }
    return chain(v, power(v.x, exponent), slope);
}
