//! The CPU reference against independent values: Ken Perlin's published result, SplitMix64's
//! published outputs, and properties that hold by construction of the math (CONVENTIONS §2-§4).

use gpu_noise::cpu::{fractal_noise, texel_point};
use gpu_noise::low_level::tables::{
    KEN_PERLIN_PERMUTATION, SplitMix64, gradients, permutation, values,
};
use gpu_noise::{Fractal, Kind, NoiseSpec, spec::Interp};

use crate::support::on_the_table;

fn eval(spec: &NoiseSpec, p: [f64; 4]) -> f64 {
    fractal_noise(&spec.validate().expect("valid spec"), p)
}

#[test]
fn ken_perlin_reference_value() {
    // From Ken Perlin's ImprovedNoise reference (CONVENTIONS §3), in f64, exactly.
    let v = eval(&on_the_table(Kind::Perlin, 3), [3.14, 42.0, 7.0, 0.0]);
    assert_eq!(v, 0.136_919_958_784_000_12);
}

#[test]
fn splitmix64_matches_published_outputs() {
    // First outputs of Vigna's splitmix64.c from state 0.
    let mut g = SplitMix64::new(0);
    assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
}

#[test]
fn permutations_are_permutations_and_seed_0_is_ken_perlins() {
    for seed in [0u64, 1, 42, u64::MAX] {
        let p = permutation(seed);
        let mut seen = [false; 256];
        for &v in &p[..256] {
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "seed {seed}: not a permutation");
        assert_eq!(p[..256], p[256..], "seed {seed}: not doubled");
    }
    let p0 = permutation(0);
    assert!(
        p0[..256]
            .iter()
            .zip(KEN_PERLIN_PERMUTATION)
            .all(|(&a, b)| a == u32::from(b))
    );
    assert_ne!(permutation(1), permutation(2));
}

#[test]
fn gradient_tables_are_unit_vectors_and_values_in_range() {
    for seed in [0, 9] {
        for dims in 2..=3 {
            for g in gradients(seed, dims) {
                let n: f64 = g
                    .iter()
                    .map(|&c| f64::from(c) * f64::from(c))
                    .sum::<f64>()
                    .sqrt();
                assert!((n - 1.0).abs() < 1e-6, "dims {dims}: |g| = {n}");
            }
        }
        assert!(
            gradients(seed, 1)
                .iter()
                .all(|g| (-1.0..1.0).contains(&g[0]))
        );
        assert!(values(seed).iter().all(|v| (-1.0..1.0).contains(v)));
    }
}

#[test]
fn gradient_kinds_are_zero_at_every_lattice_point() {
    for (kind, max_dims) in [(Kind::Perlin, 4), (Kind::Gradient, 3)] {
        for dims in 1..=max_dims {
            for seed in [0, 7] {
                let mut spec = NoiseSpec::new(kind, dims);
                spec.seed = seed;
                for n in 0..200i64 {
                    let c = [
                        (n * 37 % 301 - 150) as f64,
                        (n * 11 % 97) as f64,
                        -(n % 13) as f64,
                        (n % 5) as f64,
                    ];
                    let v = eval(&spec, c);
                    assert_eq!(v, 0.0, "{kind:?} {dims}D seed {seed} at {c:?}");
                }
            }
        }
    }
}

#[test]
fn value_noise_equals_the_table_at_lattice_points() {
    for seed in [0u64, 3] {
        let p = permutation(seed);
        let v = values(seed);
        // CONVENTIONS §2, written out literally.
        let hash = |c: [i64; 4], dims: usize| {
            let ix = |a: usize| (c[a] & 255) as usize;
            let pp = |i: usize| p[i] as usize;
            match dims {
                1 => pp(pp(pp(ix(0)))),
                2 => pp(pp(pp(ix(0)) + ix(1))),
                3 => pp(pp(pp(ix(0)) + ix(1)) + ix(2)),
                _ => pp(pp(pp(pp(ix(0)) + ix(1)) + ix(2)) + ix(3)),
            }
        };
        for dims in 1..=4usize {
            for interp in [
                Interp::Nearest,
                Interp::Linear,
                Interp::Cubic,
                Interp::Quintic,
                Interp::CatmullRom,
            ] {
                let mut spec = on_the_table(Kind::Value, dims as u32);
                spec.seed = seed;
                spec.interp = interp;
                for n in 0..50i64 {
                    let c = [n * 7 - 100, n * 3, 300 - n, n % 4];
                    let mut pt = [0.0; 4];
                    for a in 0..dims {
                        pt[a] = c[a] as f64;
                    }
                    let expected = v[hash(c, dims)];
                    let got = eval(&spec, pt);
                    assert!(
                        (got - expected).abs() < 1e-15,
                        "{dims}D {interp:?} at {c:?}: {got} vs {expected}"
                    );
                }
            }
        }
    }
}

#[test]
fn interpolations_behave_as_defined_between_two_lattice_values() {
    // 1D value noise between cells 5 and 6: the weight is the defining polynomial of t.
    let base = NoiseSpec::new(Kind::Value, 1);
    let at = |interp: Interp, x: f64| {
        let mut s = base.clone();
        s.interp = interp;
        eval(&s, [x, 0.0, 0.0, 0.0])
    };
    let (a, b) = (at(Interp::Linear, 5.0), at(Interp::Linear, 6.0));
    for t in [0.1, 0.25, 0.4, 0.6, 0.9] {
        let x = 5.0 + t;
        let w = |weight: f64| a + weight * (b - a);
        assert!((at(Interp::Linear, x) - w(t)).abs() < 1e-12);
        assert!((at(Interp::Cubic, x) - w(3.0 * t * t - 2.0 * t * t * t)).abs() < 1e-12);
        let quintic = 6.0 * t.powi(5) - 15.0 * t.powi(4) + 10.0 * t.powi(3);
        assert!((at(Interp::Quintic, x) - w(quintic)).abs() < 1e-12);
        let cosine = (1.0 - (std::f64::consts::PI * t).cos()) / 2.0;
        assert!((at(Interp::Cosine, x) - w(cosine)).abs() < 1e-12);
        assert_eq!(at(Interp::Nearest, x), if t < 0.5 { a } else { b });
    }
}

#[test]
fn catmull_rom_passes_through_lattice_values_and_is_not_linear() {
    let mut s = NoiseSpec::new(Kind::Value, 1);
    s.interp = Interp::CatmullRom;
    let v: Vec<f64> = (0..4)
        .map(|i| eval(&s, [f64::from(i), 0.0, 0.0, 0.0]))
        .collect();
    // At t = 0.5 the spline is (-v_-1 + 9 v_0 + 9 v_1 - v_2) / 16.
    let mid = eval(&s, [1.5, 0.0, 0.0, 0.0]);
    assert!((mid - (-v[0] + 9.0 * v[1] + 9.0 * v[2] - v[3]) / 16.0).abs() < 1e-12);
}

#[test]
fn fractal_sums_follow_their_definitions() {
    // Octave k = one-octave noise with seed s + k at p * 2^k (CONVENTIONS §4), recomputed here.
    let p = [1.37, -2.71, 0.5, 0.0];
    let single = |seed: u64, scale: f64| {
        let mut s = NoiseSpec::new(Kind::Perlin, 3);
        s.seed = seed;
        eval(&s, p.map(|c| c * scale))
    };
    let n: Vec<f64> = (0..4).map(|k| single(5 + k, 2f64.powi(k as i32))).collect();
    let a = [1.0, 0.5, 0.25, 0.125];
    let norm: f64 = a.iter().sum();
    let expect =
        |f: &dyn Fn(f64) -> f64| n.iter().zip(a).map(|(v, w)| w * f(*v)).sum::<f64>() / norm;
    for (fractal, want) in [
        (Fractal::Fbm, expect(&|v| v)),
        (Fractal::Turbulence, expect(&|v: f64| v.abs())),
        (
            Fractal::Ridged,
            2.0 * expect(&|v: f64| (1.0 - v.abs()).powi(2)) - 1.0,
        ),
        (Fractal::Billow, expect(&|v: f64| 2.0 * v.abs() - 1.0)),
    ] {
        let mut s = NoiseSpec::new(Kind::Perlin, 3);
        s.seed = 5;
        s.fractal = fractal;
        s.octaves = 4;
        assert!((eval(&s, p) - want).abs() < 1e-12, "{fractal:?}");
    }
}

#[test]
fn texels_map_to_frequency_times_offset_plus_index() {
    let mut s = NoiseSpec::new(Kind::Perlin, 4);
    s.frequency = 0.25;
    s.offset = [8.0, -4.0, 2.0, 1.0];
    assert_eq!(texel_point(&s, 3, 5, 7), [2.75, 0.25, 2.25, 0.25]);
}

#[test]
fn one_octave_stays_in_nominal_range() {
    for kind in [Kind::Perlin, Kind::Gradient, Kind::Value] {
        let s = NoiseSpec::new(kind, 3);
        let prep = s.validate().unwrap();
        let mut max: f64 = 0.0;
        for n in 0..20000 {
            let p = [
                n as f64 * 0.0131,
                n as f64 * 0.0173 % 50.0,
                n as f64 * 0.0071 % 20.0,
                0.0,
            ];
            max = max.max(fractal_noise(&prep, p).abs());
        }
        assert!(max <= 1.0 && max > 0.3, "{kind:?}: max |n| = {max}");
    }
}

#[test]
fn row_renderer_is_bit_identical_to_the_per_texel_reference() {
    use gpu_noise::Size;
    use gpu_noise::cpu::{noise_at_texel, render_f64};
    let mut checked = 0;
    for dims in 1..=3 {
        for fractal in [
            Fractal::None,
            Fractal::Fbm,
            Fractal::Ridged,
            Fractal::Billow,
            Fractal::Turbulence,
        ] {
            for (interp, tile, frequency, offset) in [
                (Interp::Quintic, false, 0.031_25, [0.0, 0.0, 0.0, 0.0]),
                (Interp::Cubic, false, 0.0137, [-1000.25, 33.3, -7.9, 0.0]),
                (Interp::Nearest, true, 0.125, [-77.0, 5.0, 0.0, 0.0]),
                (Interp::Cosine, true, 0.25, [3.0, -9.0, 2.0, 0.0]),
            ] {
                let mut s = NoiseSpec::new(Kind::Perlin, dims);
                s.size = Size::new(64, 8, if dims == 3 { 8 } else { 1 });
                s.fractal = fractal;
                s.octaves = if fractal == Fractal::None { 1 } else { 4 };
                s.interp = interp;
                s.tile = tile;
                s.frequency = frequency;
                s.offset = offset;
                s.seed = checked;
                let prep = s.validate().expect("valid");
                let rows = render_f64(&prep).unwrap();
                let mut n = 0;
                for k in 0..s.size.depth {
                    for j in 0..s.size.height {
                        for i in 0..s.size.width {
                            let texel = noise_at_texel(&prep, [i, j, k]);
                            assert_eq!(
                                rows[n].to_bits(),
                                texel.to_bits(),
                                "{s:?} at ({i}, {j}, {k})"
                            );
                            n += 1;
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60);
}
