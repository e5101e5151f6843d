//! The noise family against independent values: Gustavson's published simplex code, Ken
//! Perlin's published 3D noise, the conventions' 1D/2D gradients written out again, the
//! expected F1 of one uniformly placed point per cell (simulated independently), Campbell's
//! theorem for the impulse kinds' variance, and the Gabor spectrum's peak (an FFT).

use gpu_noise::cpu::fractal_noise;
use gpu_noise::low_level::spec::poisson_thresholds;
use gpu_noise::low_level::tables::{KEN_PERLIN_PERMUTATION, SIMPLEX_GRAD4, SplitMix64};
use gpu_noise::{Kind, NoiseSpec, Size, cpu, spec::CellReturn};

use crate::support::{on_the_table, power_spectrum};

fn eval(spec: &NoiseSpec, p: [f64; 4]) -> f64 {
    fractal_noise(&spec.validate().expect("valid spec"), p)
}

/// Seed 0 of simplex against Stefan Gustavson's SimplexNoise.java (2005, the code published with
/// "Simplex noise demystified"), run in double precision (OpenJDK 17): each value below is that
/// program's output at the point. The points avoid his `fastfloor`, which differs from floor at
/// non-positive integers.
const GUSTAVSON: [(&[f64], f64); 18] = [
    (&[0.37, 1.91], 0.3947512823943843),
    (&[12.345, -7.89], 0.10419361578421582),
    (&[-3.3, 44.1], -0.16209637263133903),
    (&[101.5, 77.25], 0.004951314803729369),
    (&[-0.7, -0.2], 0.16874900063351259),
    (&[5.55, 6.66], 0.04925535697387585),
    (&[0.37, 1.91, 2.53], 0.46077205688110595),
    (&[12.345, -7.89, 4.4], -0.5070510079724257),
    (&[-3.3, 44.1, -9.7], 0.19103787562139896),
    (&[101.5, 77.25, 0.125], -0.6058288028716999),
    (&[3.14, 42.0, 7.0], 0.0021676720133461877),
    (&[-0.7, -0.2, -0.9], -0.05423093333333311),
    (&[0.37, 1.91, 2.53, 0.61], -0.4583855055341328),
    (&[12.345, -7.89, 4.4, -2.2], 0.015878863375768316),
    (&[-3.3, 44.1, -9.7, 13.13], 0.31627108588363495),
    (&[101.5, 77.25, 0.125, 9.9], 0.0026498498448534816),
    (&[3.14, 42.0, 7.0, 1.5], 0.3616530429791314),
    (&[-0.7, -0.2, -0.9, -0.4], -0.012593560105731637),
];

#[test]
fn simplex_seed_0_equals_gustavsons_published_code() {
    for (point, expected) in GUSTAVSON {
        let dims = point.len() as u32;
        let mut p = [0.0; 4];
        p[..point.len()].copy_from_slice(point);
        let got = eval(&on_the_table(Kind::Simplex, dims), p);
        assert!(
            (got - expected).abs() < 1e-12,
            "{point:?}: {got} vs {expected}"
        );
    }
}

#[test]
fn simplex_4d_gradients_are_gustavsons_table() {
    // grad4 as printed in "Simplex noise demystified" (2005).
    let paper: [[i8; 4]; 32] = [
        [0, 1, 1, 1],
        [0, 1, 1, -1],
        [0, 1, -1, 1],
        [0, 1, -1, -1],
        [0, -1, 1, 1],
        [0, -1, 1, -1],
        [0, -1, -1, 1],
        [0, -1, -1, -1],
        [1, 0, 1, 1],
        [1, 0, 1, -1],
        [1, 0, -1, 1],
        [1, 0, -1, -1],
        [-1, 0, 1, 1],
        [-1, 0, 1, -1],
        [-1, 0, -1, 1],
        [-1, 0, -1, -1],
        [1, 1, 0, 1],
        [1, 1, 0, -1],
        [1, -1, 0, 1],
        [1, -1, 0, -1],
        [-1, 1, 0, 1],
        [-1, 1, 0, -1],
        [-1, -1, 0, 1],
        [-1, -1, 0, -1],
        [1, 1, 1, 0],
        [1, 1, -1, 0],
        [1, -1, 1, 0],
        [1, -1, -1, 0],
        [-1, 1, 1, 0],
        [-1, 1, -1, 0],
        [-1, -1, 1, 0],
        [-1, -1, -1, 0],
    ];
    for (ours, theirs) in SIMPLEX_GRAD4.iter().zip(paper) {
        assert_eq!(*ours, theirs.map(f64::from));
    }
    // The 2D Perlin gradient table is the conventions' formula (the WGSL computes the same
    // vectors from bits; the GPU-vs-CPU tests, which hit every gradient, compare the two).
    for (h, g2) in gpu_noise::low_level::tables::PERLIN2_GRADIENTS
        .iter()
        .enumerate()
    {
        let a = std::f64::consts::TAU * (h as f64 + 0.5) / 16.0;
        assert!(
            (g2[0] - a.cos()).abs() < 1e-15 && (g2[1] - a.sin()).abs() < 1e-15,
            "{h}"
        );
    }
}

/// Ken Perlin's ImprovedNoise (2002), written out from his published Java for this test.
fn ken_perlin(x: f64, y: f64, z: f64) -> f64 {
    let p = |i: i64| i64::from(KEN_PERLIN_PERMUTATION[(i & 255) as usize]);
    let fade = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let lerp = |t: f64, a: f64, b: f64| a + t * (b - a);
    let grad = |hash: i64, x: f64, y: f64, z: f64| {
        let h = hash & 15;
        let u = if h < 8 { x } else { y };
        let v = if h < 4 {
            y
        } else if h == 12 || h == 14 {
            x
        } else {
            z
        };
        (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
    };
    let (xi, yi, zi) = (x.floor() as i64, y.floor() as i64, z.floor() as i64);
    let (x, y, z) = (x - x.floor(), y - y.floor(), z - z.floor());
    let (u, v, w) = (fade(x), fade(y), fade(z));
    let a = p(xi) + yi;
    let (aa, ab) = (p(a) + zi, p(a + 1) + zi);
    let b = p(xi + 1) + yi;
    let (ba, bb) = (p(b) + zi, p(b + 1) + zi);
    lerp(
        w,
        lerp(
            v,
            lerp(u, grad(p(aa), x, y, z), grad(p(ba), x - 1.0, y, z)),
            lerp(
                u,
                grad(p(ab), x, y - 1.0, z),
                grad(p(bb), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad(p(aa + 1), x, y, z - 1.0),
                grad(p(ba + 1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad(p(ab + 1), x, y - 1.0, z - 1.0),
                grad(p(bb + 1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}

#[test]
fn perlin_3d_is_ken_perlins_noise_and_its_z_0_slice_stays_one_flag_away() {
    let s3 = on_the_table(Kind::Perlin, 3);
    for n in 0..400 {
        let (x, y) = (n as f64 * 0.173 - 40.0, n as f64 * 0.291 + 3.0);
        let z = if n % 2 == 0 {
            0.0
        } else {
            n as f64 * 0.057 - 9.0
        };
        let got = eval(&s3, [x, y, z, 0.0]);
        assert!((got - ken_perlin(x, y, z)).abs() < 1e-14, "({x}, {y}, {z})");
    }
}

#[test]
fn perlin_2d_and_1d_use_their_own_gradients_as_the_conventions_write_them() {
    let p = |i: i64| i64::from(KEN_PERLIN_PERMUTATION[(i & 255) as usize]);
    let fade = |t: f64| t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
    let lerp = |t: f64, a: f64, b: f64| a + t * (b - a);
    // 2D: g = (cos a, sin a), a = 2 pi ((h & 15) + 0.5) / 16; times sqrt 2.
    let g2 = |h: i64, x: f64, y: f64| {
        let a = std::f64::consts::TAU * ((h & 15) as f64 + 0.5) / 16.0;
        a.cos() * x + a.sin() * y
    };
    // 1D: g = (1 + (h & 7)) / 8, negated where h & 8; times 2.
    let g1 = |h: i64, x: f64| {
        let g = (1 + (h & 7)) as f64 / 8.0;
        if h & 8 != 0 { -g * x } else { g * x }
    };
    let (s1, s2) = (on_the_table(Kind::Perlin, 1), on_the_table(Kind::Perlin, 2));
    for n in 0..400 {
        let (x, y) = (n as f64 * 0.173 - 40.0, n as f64 * 0.291 + 3.0);
        let (xi, yi) = (x.floor() as i64, y.floor() as i64);
        let (fx, fy) = (x - x.floor(), y - y.floor());
        let h = |cx: i64, cy: i64| p(p(p(cx) + (cy & 255)));
        let want2 = std::f64::consts::SQRT_2
            * lerp(
                fade(fy),
                lerp(
                    fade(fx),
                    g2(h(xi, yi), fx, fy),
                    g2(h(xi + 1, yi), fx - 1.0, fy),
                ),
                lerp(
                    fade(fx),
                    g2(h(xi, yi + 1), fx, fy - 1.0),
                    g2(h(xi + 1, yi + 1), fx - 1.0, fy - 1.0),
                ),
            );
        assert!(
            (eval(&s2, [x, y, 0.0, 0.0]) - want2).abs() < 1e-12,
            "2D at ({x}, {y})"
        );
        let h1 = |cx: i64| p(p(p(cx)));
        let want1 = 2.0 * lerp(fade(fx), g1(h1(xi), fx), g1(h1(xi + 1), fx - 1.0));
        assert!(
            (eval(&s1, [x, 0.0, 0.0, 0.0]) - want1).abs() < 1e-12,
            "1D at {x}"
        );
    }
    // No gradient lies on an axis (2D), none vanishes (1D): no bars, no flat runs.
    for hash in 0..16 {
        assert!(g2(hash, 1.0, 0.0).abs() > 0.19 && g2(hash, 0.0, 1.0).abs() > 0.19);
        assert!(g1(hash, 1.0).abs() >= 0.125);
    }
}

/// F1 of one point placed uniformly in each unit cell, simulated with a generator unrelated to
/// the crate's tables: `n` samples at uniform points.
fn simulated_f1(dims: usize, n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(0x5EED);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let p: Vec<f64> = (0..dims).map(|_| rng.next_unit()).collect();
        let mut best = f64::INFINITY;
        let r = -2i32..=2;
        let offsets: Vec<Vec<i32>> = if dims == 2 {
            r.clone()
                .flat_map(|a| r.clone().map(move |b| vec![a, b]))
                .collect()
        } else {
            r.clone()
                .flat_map(|a| {
                    r.clone()
                        .flat_map(move |b| (-2..=2).map(move |c| vec![a, b, c]))
                })
                .collect()
        };
        for o in offsets {
            let d2: f64 = (0..dims)
                .map(|a| {
                    let q = f64::from(o[a]) + rng.next_unit();
                    (q - p[a]) * (q - p[a])
                })
                .sum();
            best = best.min(d2.sqrt());
        }
        out.push(best);
    }
    out
}

/// The largest gap between two empirical distribution functions (Kolmogorov-Smirnov).
fn ks_distance(mut a: Vec<f64>, mut b: Vec<f64>) -> f64 {
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut j, mut worst) = (0usize, 0usize, 0.0f64);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            i += 1;
        } else {
            j += 1;
        }
        worst = worst.max((i as f64 / a.len() as f64 - j as f64 / b.len() as f64).abs());
    }
    worst
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn variance(v: &[f64]) -> f64 {
    let m = mean(v);
    v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64
}

/// Points spread over many cells (and seeds), so that samples are nearly independent.
fn spread_points(dims: usize, n: usize, seed: u64) -> Vec<[f64; 4]> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let mut p = [0.0; 4];
            for c in p.iter_mut().take(dims) {
                *c = rng.next_unit() * 4000.0 - 2000.0;
            }
            p
        })
        .collect()
}

#[test]
fn cellular_f1_has_the_distribution_of_one_uniform_point_per_cell() {
    for dims in [2usize, 3] {
        let n = 20_000;
        let mut ours = Vec::with_capacity(n);
        for seed in 0..4u64 {
            let mut spec = NoiseSpec::new(Kind::Cellular, dims as u32);
            spec.seed = seed;
            let prep = spec.validate().unwrap();
            // Output = 2 F1 - 1 for the Euclidean metric (distance scale 1).
            ours.extend(
                cpu::sample(&prep, &spread_points(dims, n / 4, seed + 11))
                    .iter()
                    .map(|v| (v + 1.0) / 2.0),
            );
        }
        let expected = simulated_f1(dims, n);
        let (m_ours, m_sim) = (mean(&ours), mean(&expected));
        let standard_error = (variance(&expected) / n as f64).sqrt();
        assert!(
            (m_ours - m_sim).abs() < 5.0 * standard_error,
            "{dims}D mean F1 {m_ours:.4} vs {m_sim:.4} (se {standard_error:.4})"
        );
        let ks = ks_distance(ours, expected);
        // The 0.1% critical value for two samples of 20000 is 1.95 sqrt(2 / 20000) = 0.0195.
        assert!(ks < 0.0195, "{dims}D: Kolmogorov-Smirnov distance {ks}");
    }
}

#[test]
fn impulse_kinds_have_mean_0_and_the_documented_variance_1_9() {
    let kinds: [(Kind, u32, Option<f64>); 4] = [
        (Kind::SparseConvolution, 2, None),
        (Kind::SparseConvolution, 3, None),
        (Kind::Gabor, 2, Some(30.0)),
        (Kind::Gabor, 2, None),
    ];
    for (kind, dims, orientation) in kinds {
        let mut values = Vec::new();
        for seed in 0..4u64 {
            let mut spec = NoiseSpec::new(kind, dims);
            spec.seed = seed;
            if kind == Kind::Gabor {
                spec.kind_fields.impulse.gabor_orientation = orientation;
            }
            let prep = spec.validate().unwrap();
            values.extend(cpu::sample(
                &prep,
                &spread_points(dims as usize, 10_000, seed + 3),
            ));
        }
        let (m, v) = (mean(&values), variance(&values));
        // Campbell's theorem gives variance 1/9 for the untruncated kernels; Gabor's 5% cut
        // lowers it by under 0.3%. 40000 samples estimate it within a few percent.
        assert!(m.abs() < 0.01, "{kind} {dims}D {orientation:?}: mean {m}");
        assert!(
            (v * 9.0 - 1.0).abs() < 0.08,
            "{kind} {dims}D {orientation:?}: variance {v}"
        );
    }
}

#[test]
fn kernel_energies_and_poisson_tables_match_their_definitions() {
    // Numerical integrals of the kernels squared against the closed forms used to normalize.
    let k = |r: f64| 0.5 + 0.5 * (std::f64::consts::PI * r).cos();
    let steps = 200_000;
    let (mut e2, mut e3) = (0.0, 0.0);
    for s in 0..steps {
        let r = (s as f64 + 0.5) / steps as f64;
        e2 += k(r).powi(2) * std::f64::consts::TAU * r / steps as f64;
        e3 += k(r).powi(2) * 4.0 * std::f64::consts::PI * r * r / steps as f64;
    }
    let params2 = NoiseSpec::new(Kind::SparseConvolution, 2).kind_params();
    let params3 = NoiseSpec::new(Kind::SparseConvolution, 3).kind_params();
    let sigma = |e: f64| (3.0f64 / 3.0 * e).sqrt(); // density 3, E[w^2] = 1/3
    assert!((params2.impulse.impulse_scale - 1.0 / (3.0 * sigma(e2))).abs() < 1e-6);
    assert!((params3.impulse.impulse_scale - 1.0 / (3.0 * sigma(e3))).abs() < 1e-6);
    // The Gabor kernel's energy by a grid sum over the plane.
    let (f0, a) = (1.5, 1.0);
    let (mut eg, h) = (0.0, 0.004);
    for i in -750..750 {
        for j in -750..750 {
            let (x, y) = (i as f64 * h, j as f64 * h);
            let g = (-std::f64::consts::PI * a * a * (x * x + y * y)).exp()
                * (std::f64::consts::TAU * f0 * (x + y) / 2f64.sqrt()).cos();
            eg += g * g * h * h;
        }
    }
    let gabor = NoiseSpec::new(Kind::Gabor, 2).kind_params();
    let gabor_sigma = (8.0 / 3.0 * eg).sqrt();
    assert!((gabor.impulse.impulse_scale * 3.0 * gabor_sigma - 1.0).abs() < 1e-3);
    // Impulse counts from the thresholds have the Poisson mean and variance.
    let thresholds = poisson_thresholds(5.0);
    let mut rng = SplitMix64::new(1);
    let counts: Vec<f64> = (0..200_000)
        .map(|_| {
            let u = (rng.next_u64() >> 32) as u32;
            thresholds.iter().position(|&t| u < t).unwrap_or(64) as f64
        })
        .collect();
    assert!((mean(&counts) - 5.0).abs() < 0.03 && (variance(&counts) - 5.0).abs() < 0.1);
}

#[test]
fn gabor_power_spectrum_peaks_at_f0_along_the_orientation() {
    let side = 256usize;
    let (f0, theta, frequency) = (2.0, 30.0f64, 1.0 / 16.0);
    let images: Vec<Vec<f32>> = (0..4)
        .map(|seed| {
            let mut spec = NoiseSpec::new(Kind::Gabor, 2);
            spec.size = Size::new(side as u32, side as u32, 1);
            spec.frequency = frequency;
            spec.kind_fields.impulse.gabor_frequency = f0;
            spec.kind_fields.impulse.gabor_orientation = Some(theta);
            spec.seed = seed;
            cpu::render_f32(&spec.validate().unwrap()).unwrap()
        })
        .collect();
    let power = power_spectrum(&images, side);
    // Smooth over 5x5 bins and find the peak among frequencies with kx in 1..side/2.
    let at = |kx: i64, ky: i64| {
        power[(ky.rem_euclid(side as i64) as usize) * side + kx.rem_euclid(side as i64) as usize]
    };
    let smooth = |kx: i64, ky: i64| {
        let mut s = 0.0;
        for dy in -2..=2 {
            for dx in -2..=2 {
                s += at(kx + dx, ky + dy);
            }
        }
        s
    };
    let half = side as i64 / 2;
    let (mut best, mut peak) = (f64::MIN, (0, 0));
    for ky in -half..half {
        for kx in 3..half {
            let s = smooth(kx, ky);
            if s > best {
                (best, peak) = (s, (kx, ky));
            }
        }
    }
    // F0 cycles per cell at `frequency` cells per texel: F0 * frequency * side bins from DC.
    let radius = f0 * frequency * side as f64;
    let expected = (
        radius * theta.to_radians().cos(),
        radius * theta.to_radians().sin(),
    );
    assert!(
        (peak.0 as f64 - expected.0).abs() <= 2.0 && (peak.1 as f64 - expected.1).abs() <= 2.0,
        "spectrum peak at {peak:?}, expected near ({:.1}, {:.1})",
        expected.0,
        expected.1
    );
    // Across the orientation (rotated 90 degrees) there is far less power.
    let across = smooth(-expected.1.round() as i64, expected.0.round() as i64);
    assert!(
        across < 0.05 * best,
        "power across the orientation {across:e} vs peak {best:e}"
    );
}

#[test]
fn cellular_returns_are_ordered_and_cell_values_come_from_the_value_table() {
    let points = spread_points(2, 2000, 99);
    let get = |r: CellReturn| {
        let mut s = on_the_table(Kind::Cellular, 2);
        s.kind_fields.cellular.cell_return = r;
        cpu::sample(&s.validate().unwrap(), &points)
    };
    let (f1, f2, diff) = (
        get(CellReturn::F1),
        get(CellReturn::F2),
        get(CellReturn::F2MinusF1),
    );
    for n in 0..points.len() {
        let (d1, d2) = ((f1[n] + 1.0) / 2.0, (f2[n] + 1.0) / 2.0 * 1.2);
        assert!(d1 <= d2 + 1e-12, "F1 {d1} > F2 {d2}");
        assert!(((diff[n] + 1.0) / 2.0 - (d2 - d1)).abs() < 1e-12);
    }
    let values = gpu_noise::low_level::tables::values(0);
    for v in get(CellReturn::CellValue) {
        assert!(values.contains(&v), "{v} is not a value-table entry");
    }
}
