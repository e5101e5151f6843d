// Noise values to output levels (CONVENTIONS §6); mirrored by src/cpu/levels.rs.

// clamp((v - lo) / (hi - lo), 0, 1) on halves, so hi - lo cannot overflow; 0.5 when the range
// is empty (an auto range of a constant image).
fn unit_level(v: f32, lo: f32, hi: f32) -> f32 {
    if !(hi > lo) {
        return 0.5;
    }
    let t = (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5);
    return clamp(t, 0.0, 1.0);
}

// floor(t * max + 0.5): round half up, as on the CPU (WGSL's round() rounds half to even).
fn quantize(t: f32, max_level: u32) -> u32 {
    return u32(floor(t * f32(max_level) + 0.5));
}
