//! The one source of the seeded lattice tables (CONVENTIONS §2): permutation, gradients, values.
//!
//! The CPU twin reads these directly; the GPU receives the same numbers flattened into storage
//! buffers (`perm` as u32, `gradients` as `vec4<f32>`, `values` as f32). Octave k of a fractal
//! uses the tables of seed `s + k` (wrapping), so a spec carries one [`OctaveTables`] per octave.

/// Entries in each lattice table; cell coordinates are taken `& (TABLE_SIZE - 1)`.
pub const TABLE_SIZE: usize = 256;
/// The permutation is stored doubled so `P[P[X] + Y]` never wraps.
pub const PERM_LEN: usize = 2 * TABLE_SIZE;

/// Ken Perlin's permutation from his 2002 reference `ImprovedNoise`; it is seed 0's table.
pub const KEN_PERLIN_PERMUTATION: [u8; TABLE_SIZE] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// XORed into the seed to start the gradient stream, independent of the permutation stream.
pub const GRADIENT_STREAM: u64 = 0xD1B5_4A32_D192_ED03;
/// XORed into the seed to start the value stream.
pub const VALUE_STREAM: u64 = 0x8CB9_2BA7_2F3D_8DD7;
/// XORed into the seed to draw the impulse kinds' per-seed salt.
pub const IMPULSE_STREAM: u64 = 0x9E6C_63D0_676A_9A99;
/// XORed into the seed to draw the hash lattice's seed.
pub const HASH_STREAM: u64 = 0xC6A4_A793_5BD1_E995;

/// The hash lattice's seed (CONVENTIONS §2): the high 32 bits of the first output of a
/// generator whose state starts at `seed ^ HASH_STREAM`.
pub fn hash_seed(seed: u64) -> u32 {
    (SplitMix64::new(seed ^ HASH_STREAM).next_u64() >> 32) as u32
}

/// The salt XORed into every cell's impulse generator (CONVENTIONS §10): the high 32 bits of
/// the first output of a generator whose state starts at `seed ^ IMPULSE_STREAM`, so that each
/// seed has its own impulse configurations.
pub fn impulse_salt(seed: u64) -> u32 {
    (SplitMix64::new(seed ^ IMPULSE_STREAM).next_u64() >> 32) as u32
}

/// SplitMix64 (Steele, Lea, Flood 2014), exactly as CONVENTIONS §2 spells it.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state starts at `state`.
    pub fn new(state: u64) -> Self {
        Self { state }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float uniform in [0, 1) with 53 random bits.
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The permutation for `seed`, doubled to [`PERM_LEN`] entries.
pub fn permutation(seed: u64) -> [u32; PERM_LEN] {
    let mut p = [0u32; TABLE_SIZE];
    if seed == 0 {
        for (dst, &src) in p.iter_mut().zip(KEN_PERLIN_PERMUTATION.iter()) {
            *dst = u32::from(src);
        }
    } else {
        for (i, v) in p.iter_mut().enumerate() {
            *v = i as u32;
        }
        let mut rng = SplitMix64::new(seed);
        for i in (1..TABLE_SIZE).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            p.swap(i, j);
        }
    }
    let mut doubled = [0u32; PERM_LEN];
    doubled[..TABLE_SIZE].copy_from_slice(&p);
    doubled[TABLE_SIZE..].copy_from_slice(&p);
    doubled
}

/// Unit gradients for classic gradient noise of `dims` (1..=3), rounded to f32 because the GPU
/// receives f32 and the CPU reference must use the very same vectors. Unused lanes are 0.
pub fn gradients(seed: u64, dims: u32) -> [[f32; 4]; TABLE_SIZE] {
    let mut rng = SplitMix64::new(seed ^ GRADIENT_STREAM);
    let mut table = [[0.0f32; 4]; TABLE_SIZE];
    for g in table.iter_mut() {
        let u = rng.next_unit();
        let v = rng.next_unit();
        *g = match dims {
            1 => [(2.0 * u - 1.0) as f32, 0.0, 0.0, 0.0],
            2 => {
                let a = std::f64::consts::TAU * u;
                [a.cos() as f32, a.sin() as f32, 0.0, 0.0]
            }
            _ => {
                let z = 1.0 - 2.0 * u;
                let r = (1.0 - z * z).max(0.0).sqrt();
                let phi = std::f64::consts::TAU * v;
                [
                    (r * phi.cos()) as f32,
                    (r * phi.sin()) as f32,
                    z as f32,
                    0.0,
                ]
            }
        };
    }
    table
}

/// Lattice values in [-1, 1) for value noise.
pub fn values(seed: u64) -> [f64; TABLE_SIZE] {
    let mut rng = SplitMix64::new(seed ^ VALUE_STREAM);
    let mut table = [0.0f64; TABLE_SIZE];
    for v in table.iter_mut() {
        *v = 2.0 * rng.next_unit() - 1.0;
    }
    table
}

/// The permutation as the GPU stores it: word i holds `P[i]`, `P[i + 1]`, `P[i + 2]` and
/// `P[i + 3]` (indices modulo [`PERM_LEN`]) in its bytes, low byte first, so one load fetches
/// a run of neighbours (`perm_at` and `perm_pair` in common.wgsl; CONVENTIONS §2).
pub fn perm_windows(perm: &[u32; PERM_LEN]) -> [u32; PERM_LEN] {
    std::array::from_fn(|i| {
        (0..4).fold(0, |word, k| {
            word | (perm[(i + k) % PERM_LEN] & 255) << (8 * k)
        })
    })
}

/// The three tables of one octave.
#[derive(Clone, Debug)]
pub struct OctaveTables {
    /// The permutation, doubled.
    pub perm: [u32; PERM_LEN],
    /// Unit gradients for the seed's dims, rounded to f32.
    pub gradients: [[f32; 4]; TABLE_SIZE],
    /// Values in [-1, 1).
    pub values: [f64; TABLE_SIZE],
    /// The impulse kinds' per-seed salt.
    pub impulse_salt: u32,
    /// The hash lattice's seed.
    pub hash_seed: u32,
}

impl OctaveTables {
    /// The tables of `seed`, gradients for `dims`.
    pub fn new(seed: u64, dims: u32) -> Self {
        Self {
            perm: permutation(seed),
            gradients: gradients(seed, dims),
            values: values(seed),
            impulse_salt: impulse_salt(seed),
            hash_seed: hash_seed(seed),
        }
    }
}

/// The tables of every octave of a spec: octave k is built from seed `seed + k` (wrapping).
pub fn octave_tables(seed: u64, dims: u32, octaves: u32) -> Vec<OctaveTables> {
    (0..octaves)
        .map(|k| OctaveTables::new(seed.wrapping_add(u64::from(k)), dims))
        .collect()
}

/// `cos(pi / 16)`: with S1, C3, S3, every 2D Perlin gradient component, signed.
pub const C1: f64 = 0.980_785_280_403_230_4;
/// `sin(pi / 16)`.
pub const S1: f64 = 0.195_090_322_016_128_25;
/// `cos(3 pi / 16)`.
pub const C3: f64 = 0.831_469_612_302_545_2;
/// `sin(3 pi / 16)`.
pub const S3: f64 = 0.555_570_233_019_602_2;

/// 2D Perlin gradients (CONVENTIONS §3): entry k is the unit vector at angle
/// `2 pi (k + 0.5) / 16`, none of them on an axis.
pub const PERLIN2_GRADIENTS: [[f64; 2]; 16] = [
    [C1, S1],
    [C3, S3],
    [S3, C3],
    [S1, C1],
    [-S1, C1],
    [-S3, C3],
    [-C3, S3],
    [-C1, S1],
    [-C1, -S1],
    [-C3, -S3],
    [-S3, -C3],
    [-S1, -C1],
    [S1, -C1],
    [S3, -C3],
    [C3, -S3],
    [C1, -S1],
];

/// Ken Perlin's 3D gradients (his `grad`, CONVENTIONS §3) as vectors, entry `h & 15`: the 12
/// cube edges and 4 repeats. The CPU dots a table row (branch-free: when every texel lands in
/// a new cell, as in fine octaves, `grad`'s branches mispredict); the WGSL keeps Ken's bit
/// tests. Built from his rule, so the rule is written once here.
pub const PERLIN3_GRADIENTS: [[f64; 3]; 16] = perlin3_gradients();

const fn perlin3_gradients() -> [[f64; 3]; 16] {
    let mut table = [[0.0; 3]; 16];
    let mut h = 0;
    while h < 16 {
        // u is x for h < 8, else y; v is y for h < 4, x for 12 and 14, else z.
        let u = if h < 8 { 0 } else { 1 };
        let v = if h < 4 {
            1
        } else if h == 12 || h == 14 {
            0
        } else {
            2
        };
        table[h][u] = if h & 1 == 0 { 1.0 } else { -1.0 };
        table[h][v] = if h & 2 == 0 { 1.0 } else { -1.0 };
        h += 1;
    }
    table
}

/// 4D Perlin gradients (CONVENTIONS §3), entry `h & 31`: component `(h >> 3) & 3` is zero; the
/// other three, in order, are -1 where bits 0, 1, 2 of h are set and +1 otherwise. A table for
/// the CPU for the same reason as [`PERLIN3_GRADIENTS`].
pub const PERLIN4_GRADIENTS: [[f64; 4]; 32] = perlin4_gradients();

const fn perlin4_gradients() -> [[f64; 4]; 32] {
    let mut table = [[0.0; 4]; 32];
    let mut h = 0;
    while h < 32 {
        let zero = (h >> 3) & 3;
        let (mut axis, mut bit) = (0, 0);
        while axis < 4 {
            if axis != zero {
                table[h][axis] = if (h >> bit) & 1 == 1 { -1.0 } else { 1.0 };
                bit += 1;
            }
            axis += 1;
        }
        h += 1;
    }
    table
}

/// Simplex gradients in 2D and 3D (CONVENTIONS §8): the 12 cube edges; 2D uses their x, y.
pub const SIMPLEX_GRAD3: [[f64; 3]; 12] = [
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, -1.0, 1.0],
    [0.0, 1.0, -1.0],
    [0.0, -1.0, -1.0],
];

/// Simplex gradients in 4D (CONVENTIONS §8): one zero component (at index 0 for the first 8
/// entries, then 1, 2, 3) and three +-1 counting in binary with + first.
pub const SIMPLEX_GRAD4: [[f64; 4]; 32] = simplex_grad4();

const fn simplex_grad4() -> [[f64; 4]; 32] {
    let mut table = [[0.0; 4]; 32];
    let mut n = 0;
    while n < 32 {
        let zero = n / 8;
        let mut bit = 2i32;
        let mut axis = 0;
        while axis < 4 {
            if axis != zero {
                table[n][axis] = if (n >> bit) & 1 == 1 { -1.0 } else { 1.0 };
                bit -= 1;
            }
            axis += 1;
        }
        n += 1;
    }
    table
}

/// xxHash32's primes.
pub const PRIME_1: u32 = 0x9E37_79B1;
/// See [`PRIME_1`].
pub const PRIME_2: u32 = 0x85EB_CA77;
/// See [`PRIME_1`].
pub const PRIME_3: u32 = 0xC2B2_AE3D;
/// See [`PRIME_1`].
pub const PRIME_4: u32 = 0x27D4_EB2F;
/// See [`PRIME_1`].
pub const PRIME_5: u32 = 0x1656_67B1;

/// The prime lattice's per-axis primes and its multiplier (FastNoise2's `Primes` and
/// `HashMultiplier::A`, in its `Generators/Utils.inl`), CONVENTIONS §2.
/// `HashPrimes` in v1.1.1; all odd, so each product is a bijection of its cell.
pub const LATTICE_PRIMES: [u32; 4] = [0xF797_C5C7, 0x6C06_0C89, 0x465F_D04F, 0xF7A6_2279];
/// See [`LATTICE_PRIMES`].
pub const LATTICE_PRIME_MULTIPLIER: u32 = 0xB7E0_A5F5;

/// Simplex skew and unskew factors (Gustavson 2005, CONVENTIONS §8): `F = (sqrt(n + 1) - 1) / n`
/// and `G = (1 - 1 / sqrt(n + 1)) / n` for n = 2 and 4 (3D uses 1/3 and 1/6).
/// `0.5 (sqrt 3 - 1)`, as Gustavson's code computes it in f64.
pub const F2: f64 = 0.366_025_403_784_438_6;
/// `(3 - sqrt 3) / 6`.
pub const G2: f64 = 0.211_324_865_405_187_13;
/// `(sqrt 5 - 1) / 4`.
pub const F4: f64 = 0.309_016_994_374_947_45;
/// `(5 - sqrt 5) / 20`.
pub const G4: f64 = 0.138_196_601_125_010_5;

/// ln 2 split in two: the high part has trailing zero bits, so k ln 2 subtracts exactly
/// (Cody and Waite); the WGSL port takes both from here.
pub const LN_2_HI: f32 = 0.693_145_75;
/// ln 2 - [`LN_2_HI`].
pub const LN_2_LO: f32 = 1.428_606_8e-6;

/// The 2D Perlin gradient magnitudes as WGSL constants (f32), so the kernels use the same
/// numbers; `wgsl::noise_module` puts them first. The kernels compute every fixed gradient from
/// bits rather than index a table: a dynamically indexed WGSL `const` array is copied per call
/// on some drivers, which made 2D Perlin 3 to 5 times slower on llvmpipe.
pub fn wgsl_constants() -> String {
    let mut out =
        String::from("// Generated from src/tables.rs (the one source of these numbers).\n");
    for (name, v) in [("C1", C1), ("S1", S1), ("C3", C3), ("S3", S3)] {
        out += &format!("const PERLIN2_{name}: f32 = {:?};\n", v as f32);
    }
    for (n, v) in [PRIME_1, PRIME_2, PRIME_3, PRIME_4, PRIME_5]
        .iter()
        .enumerate()
    {
        out += &format!("const HASH_PRIME_{}: u32 = {v}u;\n", n + 1);
    }
    let [x, y, z, w] = LATTICE_PRIMES;
    out += &format!("const LATTICE_PRIMES: vec4<u32> = vec4<u32>({x}u, {y}u, {z}u, {w}u);\n");
    out += &format!("const LATTICE_PRIME_MULTIPLIER: u32 = {LATTICE_PRIME_MULTIPLIER}u;\n");
    out
}
