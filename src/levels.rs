//! Noise values to output levels (CONVENTIONS §6): the mapping of a range to [0, 1] and its
//! quantization, shared by the image writers and mirrored by `shaders/kernels/levels.wgsl`
//! (colormapped and 16-bit GPU targets).

/// `clamp((v - lo) / (hi - lo), 0, 1)`, computed on halves so that `hi - lo` cannot overflow
/// (a range of -1e308..1e308 still maps 0 to 0.5).
#[inline]
pub fn unit_level(v: f64, lo: f64, hi: f64) -> f64 {
    let t = (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5);
    t.clamp(0.0, 1.0)
}

/// `floor(t * max + 0.5)` for t in [0, 1]: round half up, the same rule on the GPU (WGSL's
/// `round` rounds half to even, so neither side uses a `round`).
#[inline]
pub fn quantize(t: f64, max: u32) -> u32 {
    (t * f64::from(max) + 0.5).floor() as u32
}

/// The 8-bit level of `v` under the range `(lo, hi)`, also the colormap index.
#[inline]
pub fn level8(v: f64, range: (f64, f64)) -> u8 {
    quantize(unit_level(v, range.0, range.1), 255) as u8
}

/// The 16-bit level of `v` under the range `(lo, hi)`.
#[inline]
pub fn level16(v: f64, range: (f64, f64)) -> u16 {
    quantize(unit_level(v, range.0, range.1), 65535) as u16
}

/// The tangent-space normal of a texel's `[value, d/dx, d/dy, d/dz]` for heights of the value
/// times `strength` texels: `normalize(-s d/dx, s d/dy, 1)` (CONVENTIONS §12; the GPU's
/// `render_normal`).
///
/// The vector is divided by its largest component (when above 1) before it is normalized, and
/// its slopes held within f32's range, so that a steep slope or a strong height never
/// overflows into a flat (128, 128, 128) normal; where every component is at most 1 the
/// division is by 1 and changes nothing.
pub fn tangent_normal(d: [f32; 4], strength: f32) -> [f32; 3] {
    let slope = |v: f32| (strength * v).clamp(-f32::MAX, f32::MAX);
    let n = [-slope(d[1]), slope(d[2]), 1.0];
    let largest = n[0].abs().max(n[1].abs()).max(1.0);
    let n = n.map(|c| c / largest);
    let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    n.map(|c| c / length)
}

/// The 8-bit level of a normal component in [-1, 1]: `round((c + 1) / 2 * 255)`.
pub fn normal_level(c: f32) -> u8 {
    ((c.clamp(-1.0, 1.0) * 0.5 + 0.5) * 255.0 + 0.5).floor() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_the_range_ends_and_middle() {
        assert_eq!(level8(-1.0, (-1.0, 1.0)), 0);
        assert_eq!(level8(1.0, (-1.0, 1.0)), 255);
        assert_eq!(level8(5.0, (-1.0, 1.0)), 255);
        assert_eq!(level16(0.0, (-1.0, 1.0)), 32768); // 32767.5 rounds half up
        assert_eq!(level8(0.0, (-1e308, 1e308)), 128); // no overflow to a black image
        assert_eq!(level8(f64::MAX, (-f64::MAX, f64::MAX)), 255);
    }
}
