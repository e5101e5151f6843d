//! Tiling (REFERENCE §5): with `tile`, every octave repeats with the image's size.

use gpu_noise::cpu::fractal_noise;
use gpu_noise::{Error, Fractal, Interp, Kind, NoiseSpec, Size};

#[test]
fn tiled_noise_repeats_with_the_image_size_for_every_kind() {
    let cases = [
        (Kind::Perlin, 1, Interp::Quintic),
        (Kind::Perlin, 2, Interp::Quintic),
        (Kind::Perlin, 3, Interp::Quintic),
        (Kind::Gradient, 2, Interp::Cubic),
        (Kind::Gradient, 3, Interp::Linear),
        (Kind::Value, 2, Interp::CatmullRom),
        (Kind::Value, 3, Interp::Cosine),
        (Kind::Cellular, 2, Interp::Quintic),
        (Kind::Cellular, 3, Interp::Quintic),
        (Kind::SparseConvolution, 2, Interp::Quintic),
        (Kind::SparseConvolution, 3, Interp::Quintic),
    ];
    for (kind, dims, interp) in cases {
        let mut s = NoiseSpec::new(kind, dims);
        s.size = Size::new(48, 80, if dims == 3 { 16 } else { 1 });
        s.frequency = 0.125; // 6 x 10 (x 2) cells
        s.interp = interp;
        s.tile = true;
        s.fractal = Fractal::Fbm;
        s.octaves = 3;
        s.seed = 11;
        let prep = s.validate().expect("whole periods");
        let period = [48.0 * 0.125, 80.0 * 0.125, 16.0 * 0.125];
        // Shifting p by a period changes how the fraction rounds (p + c - floor(p + c)), so the
        // values agree to f64 rounding, not bit for bit.
        let same = |a: f64, b: f64| (a - b).abs() < 1e-12;
        for n in 0..300 {
            let p = [n as f64 * 0.0377, n as f64 * 0.0519, n as f64 * 0.0213, 0.0];
            let v = fractal_noise(&prep, p);
            for axis in 0..dims as usize {
                let mut q = p;
                q[axis] += period[axis];
                assert!(
                    same(fractal_noise(&prep, q), v),
                    "{kind:?} {dims}D axis {axis}"
                );
                q[axis] -= 3.0 * period[axis];
                assert!(
                    same(fractal_noise(&prep, q), v),
                    "{kind:?} {dims}D axis {axis}, negative side"
                );
            }
        }
        // Without tiling the same shift gives another value somewhere.
        let mut untiled = prep.spec().unwrap().clone();
        untiled.tile = false;
        let u = untiled.validate().unwrap();
        let differs = (0..50).any(|n| {
            let p = [n as f64 * 0.31, n as f64 * 0.17, 0.3, 0.0];
            !same(
                fractal_noise(&u, p),
                fractal_noise(&u, [p[0] + period[0], p[1], p[2], 0.0]),
            )
        });
        assert!(differs, "{kind:?} {dims}D repeats even without tiling");
    }
}

#[test]
fn fractional_periods_are_rejected_with_a_clear_error() {
    let mut s = NoiseSpec::new(Kind::Perlin, 2);
    s.size = Size::new(100, 64, 1);
    s.frequency = 0.05; // 5 cells across x: fine at octave 0
    s.tile = true;
    s.fractal = Fractal::Fbm;
    s.octaves = 2;
    s.lacunarity = 2.1; // 10.5 cells at octave 1: not whole
    match s.validate() {
        Err(Error::InvalidSpec { field, reason }) => {
            assert_eq!(field, "tile");
            assert!(reason.contains("octave 1"), "{reason}");
        }
        other => panic!("expected --tile error, got {other:?}"),
    }
}
