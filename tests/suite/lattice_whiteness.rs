//! Are the hash lattices white noise over cells (CONVENTIONS §2)? xxHash32's cell values
//! (what value noise reads, h's high bits) and its low bits (perlin's gradient choice) show no
//! correlation between cells up to 8 apart and a flat power spectrum; so do the prime
//! lattice's cell values (the default's), but not its low bits, which repeat every 2^19 cells
//! (CONVENTIONS §2; README "Lattices" says why that is no visible pattern). The same checks find the table lattice's 256-cell period and a
//! prime hash without its final multiply and fold, so they can fail.

use gpu_noise::low_level::hash::{cell_hash, prime_hash};
use gpu_noise::low_level::tables::LATTICE_PRIMES;
use gpu_noise::{Kind, NoiseSpec, Size, cpu, spec::Interp, spec::LatticeKind};

use crate::support::power_spectrum;

/// Cells per side of every block checked.
const SIDE: usize = 512;

/// Where blocks start, in cells: the origin and far out (past 2^32 on both axes, negative on one).
const ORIGINS: [[f64; 2]; 2] = [[0.0, 0.0], [1e12, -7.5e11]];

/// How a block of cells departs from white noise; each figure is 1 at its limit.
#[derive(Debug)]
struct Departure {
    /// The largest |autocorrelation| at a lag, over 5 standard errors of white noise there.
    correlation: f64,
    /// That lag, in cells.
    lag: (usize, isize),
    /// The largest |mean power - 1| of a 64 x 64 band of frequencies, over 0.15 (7 standard
    /// errors of white noise's band mean).
    band: f64,
    /// The largest single power (periodogram of unit-variance values: exponential, mean 1),
    /// over 25 (white noise's 2^17 independent powers pass it with probability 1 - 2e-6).
    peak: f64,
}

impl Departure {
    fn white(&self) -> bool {
        self.correlation < 1.0 && self.band < 1.0 && self.peak < 1.0
    }
}

/// The lags checked: every (dx, dy) within 8 cells (one of each pair of opposites), and the
/// table's period along each axis and the diagonal.
fn lags() -> Vec<(usize, isize)> {
    let near = (0..=8usize).flat_map(|dx| (-8..=8isize).map(move |dy| (dx, dy)));
    near.filter(|&(dx, dy)| dx > 0 || dy > 0)
        .chain([(256, 0), (0, 256), (256, 256)])
        .collect()
}

fn standardized(values: &[f64]) -> Vec<f64> {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    values
        .iter()
        .map(|v| (v - mean) / variance.sqrt())
        .collect()
}

/// The autocorrelation of unit-variance values at a lag, over the block's overlap with itself
/// moved by the lag, and that overlap's size.
fn autocorrelation(v: &[f64], (dx, dy): (usize, isize)) -> (f64, usize) {
    let (y0, y1) = if dy >= 0 {
        (0, SIDE - dy as usize)
    } else {
        (dy.unsigned_abs(), SIDE)
    };
    let mut sum = 0.0;
    for y in y0..y1 {
        let row = &v[y * SIDE..][..SIDE];
        let other = &v[(y as isize + dy) as usize * SIDE..][..SIDE];
        sum += row[..SIDE - dx]
            .iter()
            .zip(&other[dx..])
            .map(|(a, b)| a * b)
            .sum::<f64>();
    }
    let overlap = (y1 - y0) * (SIDE - dx);
    (sum / overlap as f64, overlap)
}

fn departure(values: &[f64]) -> Departure {
    let v = standardized(values);
    let (mut correlation, mut lag) = (0.0, (0, 0));
    for l in lags() {
        let (r, overlap) = autocorrelation(&v, l);
        let scaled = r.abs() / (5.0 / (overlap as f64).sqrt());
        if scaled > correlation {
            (correlation, lag) = (scaled, l);
        }
    }
    let power: Vec<f64> = power_spectrum(&[v], SIDE)
        .iter()
        .map(|p| p / (SIDE * SIDE) as f64)
        .collect();
    let peak = power.iter().skip(1).fold(0.0f64, |m, &p| m.max(p)) / 25.0;
    let band_side = 64;
    let mut band = 0.0f64;
    for by in 0..SIDE / band_side {
        for bx in 0..SIDE / band_side {
            let (mut sum, mut count) = (0.0, 0.0);
            for ky in by * band_side..(by + 1) * band_side {
                for kx in bx * band_side..(bx + 1) * band_side {
                    if (kx, ky) != (0, 0) {
                        sum += power[ky * SIDE + kx];
                        count += 1.0;
                    }
                }
            }
            band = band.max((sum / count - 1.0).abs() / 0.15);
        }
    }
    Departure {
        correlation,
        lag,
        band,
        peak,
    }
}

/// A block of cell values as the library reads them: value noise with nearest interpolation,
/// one texel a cell, so each texel is its cell's lattice value.
fn cell_values(lattice: LatticeKind, seed: u64, origin: [f64; 2]) -> Vec<f64> {
    let mut s = NoiseSpec::new(Kind::Value, 2);
    s.interp = Interp::Nearest;
    s.frequency = 1.0;
    s.size = Size::new(SIDE as u32, SIDE as u32, 1);
    s.offset = [origin[0], origin[1], 0.0, 0.0];
    s.lattice = lattice;
    s.seed = seed;
    cpu::render_f64(&s.validate().expect("valid spec")).expect("renders")
}

/// A block of a hash's low four bits (perlin's gradient choice), cells from `origin`.
fn low_bits(hash: fn(u32, [u32; 4], usize) -> u32, seed: u32, origin: [i64; 2]) -> Vec<f64> {
    (0..SIDE * SIDE)
        .map(|n| {
            let x = (origin[0] + (n % SIDE) as i64) as u32;
            let y = (origin[1] + (n / SIDE) as i64) as u32;
            f64::from(hash(seed, [x, y, 0, 0], 2) & 15)
        })
        .collect()
}

/// Cell values of the prime and xxHash32 lattices, two seeds, near and far: white. Each
/// block's figures are printed (`--nocapture`), the table's beside them.
#[test]
fn prime_and_xxhash32_cell_values_are_white() {
    for lattice in [LatticeKind::Prime, LatticeKind::Hash, LatticeKind::Table] {
        for seed in [0, 12345] {
            for origin in ORIGINS {
                let d = departure(&cell_values(lattice, seed, origin));
                eprintln!("{lattice} seed {seed} at {origin:?}: {d:?}");
                if lattice != LatticeKind::Table {
                    assert!(d.white(), "{lattice} seed {seed} at {origin:?}: {d:?}");
                }
            }
        }
    }
}

#[test]
fn xxhash32_low_bits_are_white() {
    for (seed, origin) in [(0x9E37_79B9, [0, 0]), (7, [-(1 << 40), 3_000_000_000])] {
        let d = departure(&low_bits(cell_hash, seed, origin));
        eprintln!("hash low bits, seed {seed:#x} at {origin:?}: {d:?}");
        assert!(d.white(), "hash low bits, seed {seed:#x}: {d:?}");
    }
}

/// The prime lattice's low four bits (perlin's gradient choice) depend only on the cells' low
/// 19 bits, as CONVENTIONS §2 says: blocks 2^19 cells apart on either axis are equal, and the
/// checks above see the structure (correlation past its bound at some lag).
#[test]
fn the_prime_lattices_low_bits_repeat_every_2_19_cells() {
    let near = low_bits(prime_hash, 0x9E37_79B9, [5, -3]);
    assert_eq!(near, low_bits(prime_hash, 0x9E37_79B9, [5 + (1 << 19), -3]));
    assert_eq!(near, low_bits(prime_hash, 0x9E37_79B9, [5, -3 + (1 << 19)]));
    assert_ne!(near, low_bits(prime_hash, 0x9E37_79B9, [5 + (1 << 18), -3]));
    let d = departure(&low_bits(prime_hash, 0x9E37_79B9, [0, 0]));
    eprintln!("prime low bits: {d:?}");
    assert!(d.correlation > 1.0, "{d:?}");
}

/// The table lattice repeats every 256 cells: a 512-cell block is four copies of one, which
/// the lag at the period and the spectrum's peak (power only on even frequencies) both see.
#[test]
fn the_checks_find_the_tables_period() {
    let d = departure(&cell_values(LatticeKind::Table, 0, [0.0, 0.0]));
    assert!(
        d.correlation > 10.0 && d.lag.0.is_multiple_of(256) && d.lag.1 % 256 == 0,
        "{d:?}"
    );
    assert!(d.peak > 1.0, "{d:?}");
}

/// The prime hash without its final multiply and fold, `seed ^ X*Px ^ Y*Py`: along x its high
/// bits step by a constant fraction of 2^32, so neighbours correlate and the spectrum peaks.
#[test]
fn the_checks_find_an_unmixed_prime_hash() {
    let values: Vec<f64> = (0..SIDE * SIDE)
        .map(|n| {
            let (x, y) = ((n % SIDE) as u32, (n / SIDE) as u32);
            let h = 99 ^ x.wrapping_mul(LATTICE_PRIMES[0]) ^ y.wrapping_mul(LATTICE_PRIMES[1]);
            f64::from(h >> 8)
        })
        .collect();
    let d = departure(&values);
    assert!(d.correlation > 1.0 && d.peak > 1.0, "{d:?}");
}
