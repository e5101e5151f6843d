// The noise library: shared declarations and lattice helpers; mirrored by src/cpu/common.rs.
//
// shaders/noise/*.wgsl form one module that a caller's own shader can include
// (gpu_noise::wgsl::noise_module): it declares its bindings at @group(NOISE_GROUP), a constant
// the includer defines, and reads the octaves from the `noise_state` uniform, which
// gpu_noise::NoiseBindings fills. Its names: the constants below, NOISE_* overrides, the
// structs OctaveState, OctaveFrame, NoiseState, LatticePoint, Lattice, AxisFrame, CellFrame,
// the noise_* bindings, and the functions of these files. Conventions: docs/CONVENTIONS.md.
//
// Points reach the kinds split into a lattice cell (u32 words: the cell modulo 2^32) and an f32
// fraction, so that precision does not depend on the distance from the origin (§1): each
// octave's frame gives the exact fixed-point coordinate of texel (0, 0, 0) and the steps per
// texel, and texel_lattice_point adds them in 32-bit integer words.

// The limits (MAX_OCTAVES, MAX_IMPULSES), table sizes (PERM_LEN, TABLE_SIZE), NOISE_PI and the
// codes of spec::Kind, Interp, Fractal, Distance, CellReturn and LatticeKind (KIND_*, INTERP_*,
// FRACTAL_*, DISTANCE_*, RETURN_*, LATTICE_*) are generated from Rust and put before this file
// (src/wgsl/constants.rs).

// Specialization constants (Job::pipeline_constants): each pipeline is compiled for one
// kind, dims, interpolation, fractal, lattice and octave count, so the driver drops every
// branch the spec does not take and unrolls the octaves. NOISE_TILED is 1 where some axis
// wraps, NOISE_VOLUME 1 where texel z varies (an image of more than one slice): without them
// no cell is wrapped and texel z is taken as 0. NOISE_SHORT_TEXELS is 1 where every texel
// index is below 2^16 (images up to 65536 a side): texel products then take two partial
// products instead of four (at 0, the default, any index is exact).
override NOISE_KIND: u32 = 0u;
override NOISE_DIMS: u32 = 2u;
override NOISE_INTERP: u32 = 4u;
override NOISE_FRACTAL: u32 = 0u;
override NOISE_LATTICE: u32 = 0u;
override NOISE_OCTAVES: u32 = 1u;
override NOISE_TILED: u32 = 0u;
override NOISE_VOLUME: u32 = 0u;
override NOISE_SHORT_TEXELS: u32 = 0u;

// One octave: it samples p * scale, adds weight * term, and reads the tables in `slot` (or
// hashes cells with `hash_seed`).
struct OctaveState {
    scale: f32,
    weight: f32,
    slot: u32,
    salt: u32,
    hash_seed: u32,
    // Lattice cells per texel, frequency * scale (for derivatives per texel).
    texel_frequency: f32,
    _pad0: u32,
    _pad1: u32,
}

// Where an octave puts the image's texels (mirrors src/wgsl/host.rs `FrameState`, from
// spec::frames::OctaveFrame): texel (0, 0, 0) at cell `cell` + fraction
// `word / 2^32 + low / 2^64` per axis. Two steps, each as (cells, top and low fraction words):
// e = (step.x, step.y, step_low.x) and o = (step.z, step.w, step_low.y); texel t lands at
// origin + t[a] e + (t.x + t.y + t.z) o on lattice axis a, since every diagonal step is e + o
// and every off-diagonal one o (0 but for simplex's skew).
struct OctaveFrame {
    cell: vec4<u32>,
    word: vec4<u32>,
    low: vec4<u32>,
    step: vec4<u32>,
    step_low: vec4<u32>,
}

// Mirrors src/wgsl/host.rs `NoiseState` (layout checked by a test through naga's layouter).
struct NoiseState {
    octaves: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    octave: array<OctaveState, MAX_OCTAVES>,
    frame: array<OctaveFrame, MAX_OCTAVES>,
    // Tiling period in cells per octave and axis; 0 = the axis does not wrap.
    period: array<vec4<i32>, MAX_OCTAVES>,
    kind: KindState,
}

@group(NOISE_GROUP) @binding(0) var<uniform> noise_state: NoiseState;
// Table slots: slot s holds a permutation at s * PERM_LEN, gradients and values at s * TABLE_SIZE,
// bound at 1-3 and read through perm_word, table_gradient and table_value, which are generated
// with the bindings (src/wgsl/tables.rs: storage, or uniform where a renderer's adapter is a CPU).

// One octave's view of the lattice: its table slot, tiling period, impulse salt and hash seed;
// its lattice mode (LATTICE_*), interpolation (INTERP_*) and kind-state index, which the
// accessors of access.wgsl read (the single-kind kernels take overrides instead).
struct Lattice {
    slot: u32,
    period: vec4<i32>,
    salt: u32,
    hash_seed: u32,
    mode: u32,
    interp: u32,
    kind: u32,
}

fn octave_lattice(o: u32) -> Lattice {
    let octave = noise_state.octave[o];
    return Lattice(octave.slot, noise_state.period[o], octave.salt, octave.hash_seed, NOISE_LATTICE,
        NOISE_INTERP, 0u);
}

// cos(2 pi t) as plain f32 arithmetic (mirrors src/simd/math.rs): WGSL lets the built-in cos be
// 2^-11 off (SwiftShader is, by 1e-4 in the impulse kinds), beyond the stated bound. t is
// reduced exactly to u = |t - round(t)| in [0, 1/2], and cos(2 pi u) = -sin(pi/2 y) with
// y = 4u - 1: sin's Taylor series through y^13 (truncation below 1e-9; CONVENTIONS §7).
fn cos_2pi(t: f32) -> f32 {
    let u = abs(t - round(t));
    let z = (0.5 * NOISE_PI) * (4.0 * u - 1.0);
    let z2 = z * z;
    var s = 1.0 - z2 / (12.0 * 13.0);
    s = 1.0 - z2 / (10.0 * 11.0) * s;
    s = 1.0 - z2 / (8.0 * 9.0) * s;
    s = 1.0 - z2 / (6.0 * 7.0) * s;
    s = 1.0 - z2 / (4.0 * 5.0) * s;
    s = 1.0 - z2 / (2.0 * 3.0) * s;
    return -(z * s);
}

// exp(x) for x <= 0 (0 below -87) as plain f32 arithmetic (mirrors src/simd/math.rs): 2^k exp(r)
// with k the nearest integer to x / ln 2, r = x - k ln 2 (ln 2 split in two, Cody and Waite),
// exp(r) by its Taylor series through r^7.
fn exp_nonpositive(x_in: f32) -> f32 {
    let x = max(x_in, -87.0);
    let k = round(x * LOG2_E);
    let r = (x - k * LN_2_HI) - k * LN_2_LO;
    var e = 1.0 + r / 7.0;
    e = 1.0 + r / 6.0 * e;
    e = 1.0 + r / 5.0 * e;
    e = 1.0 + r / 4.0 * e;
    e = 1.0 + r / 3.0 * e;
    e = 1.0 + r / 2.0 * e;
    e = 1.0 + r * e;
    let v = e * bitcast<f32>(u32(i32(k) + 127) << 23u);
    return select(v, 0.0, x_in < -87.0);
}

// ln(a) for a > 0 as plain f32 arithmetic (mirrors src/kinds/lattice/math.rs): a = m 2^k with m in
// [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m - 1) / (m + 1), by its series through s^9, plus
// k ln 2 (ln 2 split in two).
fn ln_positive(a_in: f32) -> f32 {
    // frexp by the bits (subnormals scaled first), as the Rust mirror does.
    var a = a_in;
    var k = -126.0;
    if a < 1.17549435e-38 {
        a = a * 16777216.0;
        k = k - 24.0;
    }
    let bits = bitcast<u32>(a);
    k = k + f32((bits >> 23u) & 0xffu);
    var m = bitcast<f32>((bits & 0x807fffffu) | (126u << 23u));
    if m < 0.70710677 {
        m = 2.0 * m;
        k = k - 1.0;
    }
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    var t = 1.0 / 9.0;
    t = 1.0 / 7.0 + z * t;
    t = 1.0 / 5.0 + z * t;
    t = 1.0 / 3.0 + z * t;
    t = 1.0 + z * t;
    return k * LN_2_HI + (k * LN_2_LO + 2.0 * s * t);
}

// a^p for a > 0 (mirrors src/kinds/lattice/math.rs): exp(p ln a), relative error within
// 6e-7 + 2e-7 |p ln a| (CONVENTIONS §13); WGSL's pow inherits exp2(p log2 a)'s looser one.
fn pow_of_positive(a: f32, p: f32) -> f32 {
    let x = p * ln_positive(a);
    if x <= 0.0 {
        return exp_nonpositive(x);
    }
    return 1.0 / exp_nonpositive(-x);
}

// Interpolation weight for a fraction t in [0, 1) (CONVENTIONS §3).
fn interp_weight(t: f32, interp: u32) -> f32 {
    switch interp {
        case INTERP_NEAREST: { return select(0.0, 1.0, t >= 0.5); }
        case INTERP_LINEAR: { return t; }
        case INTERP_COSINE: { return (1.0 - cos_2pi(0.5 * t)) * 0.5; }
        case INTERP_CUBIC: { return t * t * (3.0 - 2.0 * t); }
        default: { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
    }
}

fn lerp(t: f32, a: f32, b: f32) -> f32 {
    return a + t * (b - a);
}

// Wraps a cell by the tiling period (Euclidean); the table lattice reads its low 8 bits, the
// hash lattice all 32. Tiled cells stay within a few periods of [0, period) (the host wraps
// each frame's origin), so they read as i32.
fn lattice_cell(cell: u32, period: i32) -> u32 {
    if NOISE_TILED == 1u && period > 0 {
        // No % of a negative number: GLSL leaves its result undefined (llvmpipe's GL gave
        // garbage for cellular's neighbour -1). -(c + 1) >= 0 for every i32.
        let c = bitcast<i32>(cell);
        let p = u32(period);
        if c >= 0 {
            return u32(c) % p;
        }
        return p - 1u - u32(-(c + 1)) % p;
    }
    return cell;
}

// A point on an octave's lattice (CONVENTIONS §1): its cell modulo 2^32 and its fraction in
// [0, 1) (mirrors cpu::common::LatticePoint). For simplex, the skewed axes.
struct LatticePoint {
    cell: vec4<u32>,
    frac: vec4<f32>,
}

// A fraction's top 32 bits as f32: its top 24 bits times 2^-24 (exact, below 1).
fn point_frac(word: vec4<u32>) -> vec4<f32> {
    return vec4<f32>(word >> vec4<u32>(8u)) * (1.0 / 16777216.0);
}

// The 64-bit products a * b per component, as low and high words.
struct Wide {
    lo: vec4<u32>,
    hi: vec4<u32>,
}

fn mul_wide(a: vec4<u32>, b: vec4<u32>) -> Wide {
    // Texel indices below 2^16 need two partial products, not four (a constant per pipeline:
    // a branch on the index here halved the speed of graph kernels on lavapipe).
    if NOISE_SHORT_TEXELS == 1u {
        return mul_wide_short(a, b);
    }
    let m = vec4<u32>(0xffffu);
    let s = vec4<u32>(16u);
    let a0 = a & m;
    let a1 = a >> s;
    let b0 = b & m;
    let b1 = b >> s;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let mid = (p00 >> s) + (p01 & m) + (p10 & m);
    return Wide((mid << s) | (p00 & m), a1 * b1 + (p01 >> s) + (p10 >> s) + (mid >> s));
}

// mul_wide for a < 2^16: a times b's low and high halves are exact in 32 bits.
fn mul_wide_short(a: vec4<u32>, b: vec4<u32>) -> Wide {
    let p0 = a * (b & vec4<u32>(0xffffu));
    let p1 = a * (b >> vec4<u32>(16u));
    let lo = p0 + (p1 << vec4<u32>(16u));
    return Wide(lo, (p1 >> vec4<u32>(16u)) + carry_of(lo, p0));
}

// A lattice coordinate per axis in three words: the cell modulo 2^32, then the fraction's top
// and low 32 bits (Q64.64 truncated to 2^-64, exact for every frame's numbers).
struct Coordinate {
    cell: vec4<u32>,
    word: vec4<u32>,
    low: vec4<u32>,
}

fn carry_of(sum: vec4<u32>, addend: vec4<u32>) -> vec4<u32> {
    return select(vec4<u32>(0u), vec4<u32>(1u), sum < addend);
}

// Adds n steps (whole cells, top and low fraction words) to a coordinate, carrying exactly:
// two 64-bit products per axis (CONVENTIONS §1).
fn add_steps(q: ptr<function, Coordinate>, n: vec4<u32>, step_cell: vec4<u32>,
    step_word: vec4<u32>, step_low: vec4<u32>) {
    let lo = mul_wide(n, step_low);
    let hi = mul_wide(n, step_word);
    let low = (*q).low + lo.lo;
    let c0 = carry_of(low, lo.lo);
    let w0 = (*q).word + lo.hi;
    let c1 = carry_of(w0, lo.hi);
    let w1 = w0 + c0;
    let c2 = carry_of(w1, c0);
    let word = w1 + hi.lo;
    let c3 = carry_of(word, hi.lo);
    (*q).low = low;
    (*q).word = word;
    (*q).cell = (*q).cell + n * step_cell + hi.hi + c1 + c2 + c3;
}

// Image texel t on octave o's lattice, exact (mirrors cpu::points::texel_lattice_point): the
// diagonal step's product per lattice axis, and for simplex the skew's step times t.x + t.y +
// t.z, the same for every axis, computed once. Texel z counts only in volumes (NOISE_VOLUME): a
// constant 0 lets the compiler drop its products.
fn texel_coordinate(o: u32, texel: vec3<u32>) -> Coordinate {
    let t = vec3<u32>(texel.xy, select(0u, texel.z, NOISE_VOLUME == 1u));
    let f = noise_state.frame[o];
    var q = Coordinate(f.cell, f.word, f.low);
    add_steps(&q, vec4<u32>(t, 0u), vec4<u32>(f.step.x), vec4<u32>(f.step.y),
        vec4<u32>(f.step_low.x));
    if kind_skewed() {
        let s = skew_steps(t.x + t.y + t.z, vec3<u32>(f.step.z, f.step.w, f.step_low.y));
        add_coordinate(&q, Coordinate(vec4<u32>(s.x), vec4<u32>(s.y), vec4<u32>(s.z)));
    }
    return q;
}

fn texel_lattice_point(o: u32, texel: vec3<u32>) -> LatticePoint {
    return coordinate_point(texel_coordinate(o, texel));
}

// A coordinate's cell and fraction (its top 32 bits, as f32).
fn coordinate_point(q: Coordinate) -> LatticePoint {
    return LatticePoint(q.cell, point_frac(q.word));
}

// texel_coordinate(o, t + (0, 1, 0)) minus texel_coordinate(o, t), the same for every t: the
// diagonal step on axis y, plus for simplex the skew's step on every axis. Coordinates add
// modulo 2^96, so the coordinate of t plus this is the next row's to the bit (CONVENTIONS §1),
// and a pair of rows shares one set of products.
fn row_step(o: u32) -> Coordinate {
    let f = noise_state.frame[o];
    var d = Coordinate(vec4<u32>(0u, f.step.x, 0u, 0u), vec4<u32>(0u, f.step.y, 0u, 0u),
        vec4<u32>(0u, f.step_low.x, 0u, 0u));
    if kind_skewed() {
        add_coordinate(&d, Coordinate(vec4<u32>(f.step.z), vec4<u32>(f.step.w),
            vec4<u32>(f.step_low.y)));
    }
    return d;
}

// n times one step (cells, top and low fraction words), exact modulo 2^32 cells: the same
// arithmetic as add_steps on one component, from zero.
fn skew_steps(n: u32, step: vec3<u32>) -> vec3<u32> {
    var q = Coordinate(vec4<u32>(0u), vec4<u32>(0u), vec4<u32>(0u));
    add_steps(&q, vec4<u32>(n, 0u, 0u, 0u), vec4<u32>(step.x, 0u, 0u, 0u),
        vec4<u32>(step.y, 0u, 0u, 0u), vec4<u32>(step.z, 0u, 0u, 0u));
    return vec3<u32>(q.cell.x, q.word.x, q.low.x);
}

// q += d per component, carrying exactly.
fn add_coordinate(q: ptr<function, Coordinate>, d: Coordinate) {
    let low = (*q).low + d.low;
    let c0 = carry_of(low, d.low);
    let w0 = (*q).word + d.word;
    let c1 = carry_of(w0, d.word);
    let word = w0 + c0;
    let c2 = carry_of(word, c0);
    (*q).low = low;
    (*q).word = word;
    (*q).cell = (*q).cell + d.cell + c1 + c2;
}

// An f32 point already on the lattice, split by floor: precise near the origin only (for
// callers' own points; texels go through texel_lattice_point).
fn lattice_point_of(q: vec4<f32>) -> LatticePoint {
    let fl = floor(q);
    let frac = min(q - fl, vec4<f32>(0.99999994));
    return LatticePoint(bitcast<vec4<u32>>(vec4<i32>(fl)), frac);
}

// P[i], for i < PERM_LEN. The table is stored as windows (tables::perm_windows): word i holds
// P[i], P[i + 1], P[i + 2], P[i + 3] in its bytes, low byte first, so one load can fetch
// neighbours.
fn perm_at(lat: Lattice, i: u32) -> u32 {
    return perm_word(lat, i) & 255u;
}

// (P[i], P[i + 1]) in one load.
fn perm_pair(lat: Lattice, i: u32) -> vec2<u32> {
    let w = perm_word(lat, i);
    return vec2<u32>(w & 255u, (w >> 8u) & 255u);
}

// The table lattice's hash P[P[P[P[X] + Y] + Z] + W] on the cells' low 8 bits (unused axes
// 0, so 1D and 2D are the 3D hash with zero coordinates, as Ken's reference).
fn table_hash(lat: Lattice, cells: vec4<u32>, dims: u32) -> u32 {
    let c = cells & vec4<u32>(255u);
    var h = perm_at(lat, perm_at(lat, c.x) + select(0u, c.y, dims > 1u));
    h = perm_at(lat, h + select(0u, c.z, dims > 2u));
    if dims > 3u {
        h = perm_at(lat, h + c.w);
    }
    return h;
}

// The hash of corner `cells`: the permutation table's (0..256) or the hash lattice's.
fn lattice_hash(lat: Lattice, cells: vec4<u32>, dims: u32) -> u32 {
    if lattice_hashed(lat) {
        return hashed_cell(lattice_prime(lat), lat.hash_seed, cells, dims);
    }
    return table_hash(lat, cells, dims);
}

fn lattice_hash1(lat: Lattice, x: u32) -> u32 {
    return lattice_hash(lat, vec4<u32>(x, 0u, 0u, 0u), 1u);
}

fn lattice_hash2(lat: Lattice, x: u32, y: u32) -> u32 {
    return lattice_hash(lat, vec4<u32>(x, y, 0u, 0u), 2u);
}

fn lattice_hash3(lat: Lattice, x: u32, y: u32, z: u32) -> u32 {
    return lattice_hash(lat, vec4<u32>(x, y, z, 0u), 3u);
}

// The hashes of a 2D cell's corners (lower cells lo, upper hi) in corner order, x fastest,
// each chain's shared prefix computed once (mirrors cpu::common::corner_hashes2). Where no axis
// wraps, hi = lo + 1 and a window word serves both rows of a pair.
fn corner_hashes2(lat: Lattice, lo: vec2<u32>, hi: vec2<u32>) -> vec4<u32> {
    if lattice_prime(lat) {
        let x = vec2<u32>(lat.hash_seed) ^ (vec2<u32>(lo.x, hi.x) * LATTICE_PRIMES.x);
        let y = vec2<u32>(lo.y, hi.y) * LATTICE_PRIMES.y;
        return prime_finish4(vec4<u32>(x.x ^ y.x, x.y ^ y.x, x.x ^ y.y, x.y ^ y.y));
    }
    if lattice_hashed(lat) {
        let a = hash_start(lat.hash_seed, 2u);
        let ax = vec2<u32>(hash_eat(a, lo.x), hash_eat(a, hi.x));
        return hash_finish4(vec4<u32>(hash_eat(ax.x, lo.y), hash_eat(ax.y, lo.y),
            hash_eat(ax.x, hi.y), hash_eat(ax.y, hi.y)));
    }
    let l = lo & vec2<u32>(255u);
    let h = hi & vec2<u32>(255u);
    var pxy: vec4<u32>;
    if NOISE_TILED == 0u {
        let px = perm_pair(lat, l.x);
        let y0 = perm_pair(lat, px.x + l.y);
        let y1 = perm_pair(lat, px.y + l.y);
        pxy = vec4<u32>(y0.x, y1.x, y0.y, y1.y);
    } else {
        let px = vec2<u32>(perm_at(lat, l.x), perm_at(lat, h.x));
        pxy = vec4<u32>(perm_at(lat, px.x + l.y), perm_at(lat, px.y + l.y),
            perm_at(lat, px.x + h.y), perm_at(lat, px.y + h.y));
    }
    return vec4<u32>(perm_at(lat, pxy.x), perm_at(lat, pxy.y), perm_at(lat, pxy.z), perm_at(lat, pxy.w));
}

// The hashes of a 3D cell's 8 corners in corner order, x fastest: z0 holds corners 0-3 (at the
// lower z), z1 corners 4-7 (mirrors cpu::common::corner_hashes3). Untiled, 7 window loads
// where one load per corner chain link took 24.
struct CornerHashes3 {
    z0: vec4<u32>,
    z1: vec4<u32>,
}

fn corner_hashes3(lat: Lattice, lo: vec3<u32>, hi: vec3<u32>) -> CornerHashes3 {
    if lattice_prime(lat) {
        let x = vec2<u32>(lat.hash_seed) ^ (vec2<u32>(lo.x, hi.x) * LATTICE_PRIMES.x);
        let y = vec2<u32>(lo.y, hi.y) * LATTICE_PRIMES.y;
        let z = vec2<u32>(lo.z, hi.z) * LATTICE_PRIMES.z;
        let xy = vec4<u32>(x.x ^ y.x, x.y ^ y.x, x.x ^ y.y, x.y ^ y.y);
        return CornerHashes3(prime_finish4(xy ^ vec4<u32>(z.x)), prime_finish4(xy ^ vec4<u32>(z.y)));
    }
    if lattice_hashed(lat) {
        let a = hash_start(lat.hash_seed, 3u);
        let ax = vec2<u32>(hash_eat(a, lo.x), hash_eat(a, hi.x));
        let axy = vec4<u32>(hash_eat(ax.x, lo.y), hash_eat(ax.y, lo.y), hash_eat(ax.x, hi.y),
            hash_eat(ax.y, hi.y));
        return CornerHashes3(
            hash_finish4(vec4<u32>(hash_eat(axy.x, lo.z), hash_eat(axy.y, lo.z),
                hash_eat(axy.z, lo.z), hash_eat(axy.w, lo.z))),
            hash_finish4(vec4<u32>(hash_eat(axy.x, hi.z), hash_eat(axy.y, hi.z),
                hash_eat(axy.z, hi.z), hash_eat(axy.w, hi.z))));
    }
    let l = lo & vec3<u32>(255u);
    let h = hi & vec3<u32>(255u);
    if NOISE_TILED == 0u {
        let px = perm_pair(lat, l.x);
        let y0 = perm_pair(lat, px.x + l.y);
        let y1 = perm_pair(lat, px.y + l.y);
        let c0 = perm_pair(lat, y0.x + l.z);
        let c1 = perm_pair(lat, y1.x + l.z);
        let c2 = perm_pair(lat, y0.y + l.z);
        let c3 = perm_pair(lat, y1.y + l.z);
        return CornerHashes3(vec4<u32>(c0.x, c1.x, c2.x, c3.x), vec4<u32>(c0.y, c1.y, c2.y, c3.y));
    }
    let px = vec2<u32>(perm_at(lat, l.x), perm_at(lat, h.x));
    let pxy = vec4<u32>(perm_at(lat, px.x + l.y), perm_at(lat, px.y + l.y),
        perm_at(lat, px.x + h.y), perm_at(lat, px.y + h.y));
    return CornerHashes3(
        vec4<u32>(perm_at(lat, pxy.x + l.z), perm_at(lat, pxy.y + l.z), perm_at(lat, pxy.z + l.z),
            perm_at(lat, pxy.w + l.z)),
        vec4<u32>(perm_at(lat, pxy.x + h.z), perm_at(lat, pxy.y + h.z), perm_at(lat, pxy.z + h.z),
            perm_at(lat, pxy.w + h.z)));
}

// The classic gradient of a hash: G[h & 255] (both lattices).
fn lattice_gradient(lat: Lattice, h: u32) -> vec4<f32> {
    return table_gradient(lat, h & 255u);
}

// The value noise value of a hash: V[h], or from the hash's bits.
fn lattice_value(lat: Lattice, h: u32) -> f32 {
    if lattice_hashed(lat) {
        return hash_value(h);
    }
    return table_value(lat, h & 255u);
}

// One axis of a point's lattice cell: corner cells (wrapped, & 255), fraction, weight.
struct AxisFrame {
    c0: u32,
    c1: u32,
    f: f32,
    w: f32,
}

fn axis_frame(lat: Lattice, pt: LatticePoint, a: u32) -> AxisFrame {
    let c = pt.cell[a];
    let period = lat.period[a];
    let f = pt.frac[a];
    return AxisFrame(lattice_cell(c, period), lattice_cell(c + 1u, period), f, interp_weight(f, lattice_interp(lat)));
}

// A point's lattice cell: lower and upper corner cells, fractions and weights per axis.
struct CellFrame {
    lo: vec4<u32>,
    hi: vec4<u32>,
    frac: vec4<f32>,
    weight: vec4<f32>,
}

fn cell_frame(lat: Lattice, pt: LatticePoint, dims: u32) -> CellFrame {
    var frame: CellFrame;
    for (var a = 0u; a < dims; a++) {
        let ax = axis_frame(lat, pt, a);
        frame.lo[a] = ax.c0;
        frame.hi[a] = ax.c1;
        frame.frac[a] = ax.f;
        frame.weight[a] = ax.w;
    }
    return frame;
}

// The cell of corner n: bit a of n picks the upper corner along axis a.
fn corner_cells(frame: CellFrame, n: u32) -> vec4<u32> {
    return select(frame.lo, frame.hi, ((vec4<u32>(n) >> vec4<u32>(0u, 1u, 2u, 3u)) & vec4<u32>(1u)) == vec4<u32>(1u));
}

// Reduces 2^dims corner values by separable interpolation, axis x first.
fn interp_corners(v: ptr<function, array<f32, 16>>, weight: vec4<f32>, dims: u32) -> f32 {
    var n = 1u << dims;
    for (var a = 0u; a < dims; a++) {
        n /= 2u;
        for (var m = 0u; m < n; m++) {
            (*v)[m] = lerp(weight[a], (*v)[2u * m], (*v)[2u * m + 1u]);
        }
    }
    return (*v)[0];
}

// A point's unwrapped lattice cell and its fraction per axis (cellular and impulse kinds, whose
// searches visit neighbour cells by offset from `base`, in wrapping u32 arithmetic).
struct CellPoint {
    base: vec3<u32>,
    frac: vec3<f32>,
}

fn cell_point(pt: LatticePoint, dims: u32) -> CellPoint {
    var c: CellPoint;
    for (var a = 0u; a < dims; a++) {
        c.base[a] = pt.cell[a];
        c.frac[a] = pt.frac[a];
    }
    return c;
}

// Cell `base + o` of one axis, o a small signed offset.
fn cell_offset(base: u32, o: i32) -> u32 {
    return base + bitcast<u32>(o);
}
