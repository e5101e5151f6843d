//! Far from the origin and at extreme octave settings (found by hostile input, each failing
//! before its fix): the GPU renders real noise within a bound that stays small, the reach guard
//! checks the largest octave, and overflowing amplitudes give an error, never a NaN image.

use gpu_noise::low_level::tolerance::check_gpu_precision;
use gpu_noise::{Error, Fractal, Kind, NoiseSpec, Size};

use crate::cli::{assert_bad_input, f32_file, out, run, text, tmp};

/// Found by hostile input: Far from the origin the bound outgrew the noise's own range, so an
/// all-zero GPU image passed `verify` and `render --backend gpu` wrote it. Points now reach the GPU
/// split exactly into cells and fractions (CONVENTIONS §1): the bound stays 2e-5-sized, `verify`
/// passes on its merits, and the GPU writes real noise equal to the CPU's.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn far_from_the_origin_the_gpu_renders_real_noise_within_a_bound_that_stays_small() {
    let o = run(&["verify", "--size", "64x64", "--offset", "1e9,1e9"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("PASS"));
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.size = Size::new(64, 64, 1);
    spec.offset = [1e9, 1e9, 0.0, 0.0];
    assert!(check_gpu_precision(&spec).is_ok());
    let d = tmp();
    let mut images = Vec::new();
    for backend in ["gpu", "cpu"] {
        let (path, s) = out(d.path(), &format!("far-{backend}.f32"));
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--size",
            "64x64",
            "--offset",
            "1e9,1e9",
            "-o",
            &s,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        images.push(f32_file(&path));
    }
    assert!(
        images[0].iter().any(|v| v.abs() > 0.1),
        "the GPU image is real noise"
    );
    let worst = images[0]
        .iter()
        .zip(&images[1])
        .map(|(g, c)| (g - c).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 2e-5, "GPU and CPU differ by {worst}");
}

/// Found by hostile input: The reach guard scaled by lacunarity^(octaves-1), which shrinks for
/// lacunarity < 1: octave 0 then sampled at 3e10 and `verify` passed an error of 0.41. The guard is
/// now the 62-bit cell limit, and still checks the largest octave.
#[test]
fn the_reach_guard_checks_the_largest_octave_whichever_way_lacunarity_goes() {
    let o = run(&[
        "verify",
        "--fractal",
        "fbm",
        "--octaves",
        "16",
        "--lacunarity",
        "0.5",
        "--offset",
        "2e20,0",
        "--size",
        "64x64",
    ]);
    assert_bad_input(&o, &["--offset", "2^62"]);
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.fractal = Fractal::Fbm;
    spec.octaves = 16;
    spec.lacunarity = 0.5;
    spec.offset = [1.6e20, 0.0, 0.0, 0.0]; // octave 0 at 5e18 cells, the last at 1.5e14
    assert!(matches!(
        spec.validate(),
        Err(Error::InvalidSpec {
            field: "offset",
            ..
        })
    ));
    spec.offset = [1.4e20, 0.0, 0.0, 0.0]; // octave 0 at 4.4e18 < 2^62: inside
    assert!(spec.validate().is_ok());
}

/// Found by hostile input: NaN images: amplitudes overflowed (persistence 1e300 on the CPU, 1e20 in
/// the GPU's f32), and the last octave's scale overflowed f32 (lacunarity 1e20).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn extreme_persistence_and_lacunarity_give_finite_images_or_an_error() {
    let d = tmp();
    for (backend, persistence) in [("cpu", "1e300"), ("gpu", "1e20"), ("gpu", "1e300")] {
        let (path, s) = out(d.path(), &format!("{backend}-{persistence}.f32"));
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--fractal",
            "fbm",
            "--octaves",
            "3",
            "--persistence",
            persistence,
            "--size",
            "48x32",
            "-o",
            &s,
        ]);
        assert!(
            o.status.success(),
            "{backend} {persistence}: {}",
            text(&o.stderr)
        );
        let values = f32_file(&path);
        assert!(
            values.iter().all(|v| v.is_finite()),
            "{backend} {persistence}: non-finite"
        );
        assert!(
            values.iter().any(|v| v.abs() > 0.05),
            "{backend} {persistence}: flat"
        );
    }
    for backend in ["cpu", "gpu"] {
        let (path, s) = out(d.path(), "lacunarity.f32");
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--lacunarity",
            "1e20",
            "--octaves",
            "3",
            "--fractal",
            "fbm",
            "--size",
            "1x1",
            "-o",
            &s,
        ]);
        assert_bad_input(&o, &["--lacunarity"]);
        assert!(!path.exists());
    }
}
