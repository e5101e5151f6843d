// Simplex noise (Gustavson 2005, "Simplex noise demystified"), 2D-4D, with the seed's
// permutation; mirrored by src/cpu/simplex.rs. The point arrives skewed and split (cells and
// skewed fractions u, v, ...); x0 = u - G (u + v + ...), and x0 > y0 is u > v, compared on
// the f32 fractions (24 bits, as the CPU compares its keys). The gradients are computed from bits (the tables SIMPLEX_GRAD3 and
// SIMPLEX_GRAD4 in src/tables.rs are what the tests check them against).

const SIMPLEX_F2: f32 = 0.3660254037844386;
const SIMPLEX_G2: f32 = 0.21132486540518713;
const SIMPLEX_F4: f32 = 0.30901699437494745;
const SIMPLEX_G4: f32 = 0.1381966011250105;

// One corner's contribution: t^4 (g . d) with t = r2 - |d|^2, zero when t < 0.
fn simplex_corner(r2: f32, d: vec4<f32>, g: vec4<f32>) -> f32 {
    var t = r2 - d.x * d.x - d.y * d.y - d.z * d.z - d.w * d.w;
    if t < 0.0 {
        return 0.0;
    }
    t *= t;
    return t * t * (g.x * d.x + g.y * d.y + g.z * d.z + g.w * d.w);
}

// SIMPLEX_GRAD3[h % 12]: signs from bits 0 and 1, the zero component from g / 4.
fn simplex_grad3(h: u32) -> vec4<f32> {
    let g = h % 12u;
    let a = select(-1.0, 1.0, (g & 1u) == 0u);
    let b = select(-1.0, 1.0, (g & 2u) == 0u);
    switch g >> 2u {
        case 0u: { return vec4<f32>(a, b, 0.0, 0.0); }
        case 1u: { return vec4<f32>(a, 0.0, b, 0.0); }
        default: { return vec4<f32>(0.0, a, b, 0.0); }
    }
}

// SIMPLEX_GRAD4[h % 32]: the zero at index g / 8, the others -1 where bits 2, 1, 0 are set.
fn simplex_grad4(h: u32) -> vec4<f32> {
    let g = h % 32u;
    let s2 = select(-1.0, 1.0, ((g >> 2u) & 1u) == 0u);
    let s1 = select(-1.0, 1.0, ((g >> 1u) & 1u) == 0u);
    let s0 = select(-1.0, 1.0, (g & 1u) == 0u);
    switch g >> 3u {
        case 0u: { return vec4<f32>(0.0, s2, s1, s0); }
        case 1u: { return vec4<f32>(s2, 0.0, s1, s0); }
        case 2u: { return vec4<f32>(s2, s1, 0.0, s0); }
        default: { return vec4<f32>(s2, s1, s0, 0.0); }
    }
}

// The hash of simplex corner cells + step (CONVENTIONS §8): its own permutation chain, the
// last coordinate innermost, on the table lattice; the cell hash on the hash lattice.
fn simplex_hash(lat: Lattice, cells: vec4<u32>, step: vec4<u32>, dims: u32) -> u32 {
    if lattice_hashed(lat) {
        return hashed_cell(lattice_prime(lat), lat.hash_seed, cells + step, dims);
    }
    // Unrolled (the dims test is an override, so it folds): dynamically indexed vectors cost
    // several times more on some drivers.
    let c = (cells & vec4<u32>(255u)) + step;
    var h = 0u;
    if dims > 3u {
        h = perm_at(lat, c.w);
    }
    if dims > 2u {
        h = perm_at(lat, c.z + h);
    }
    h = perm_at(lat, c.y + h);
    return perm_at(lat, c.x + h);
}

// The hashes of the 2D simplex's corners cells + (0, 0), s1, (1, 1): the chains of
// cpu::simplex::simplex_hashes2 in 3 table loads. A window word at i holds P[i] and P[i + 1],
// so the word for x + P[y] serves (0, 0) and (1, 0), the word for x + P[y + 1] serves (0, 1)
// and (1, 1), and s1 is one of (1, 0) and (0, 1) (an emulated gather each on llvmpipe).
fn simplex_hashes2(lat: Lattice, cells: vec4<u32>, s1: vec2<u32>) -> vec3<u32> {
    if lattice_hashed(lat) {
        return vec3<u32>(simplex_hash(lat, cells, vec4<u32>(0u), 2u),
            simplex_hash(lat, cells, vec4<u32>(s1, 0u, 0u), 2u),
            simplex_hash(lat, cells, vec4<u32>(1u, 1u, 0u, 0u), 2u));
    }
    let c = cells.xy & vec2<u32>(255u);
    let hy = perm_pair(lat, c.y);
    let low = perm_pair(lat, c.x + hy.x);
    let high = perm_pair(lat, c.x + hy.y);
    return vec3<u32>(low.x, select(high.x, low.y, s1.x == 1u), high.y);
}

// The hashes of the 3D simplex's corners cells + (0, 0, 0), s1, s2, (1, 1, 1): the chains of
// cpu::simplex::simplex_hashes3 in 6 table loads, not 9 (an emulated gather each on
// llvmpipe). Window words hold P[i] and P[i + 1]: one at z gives both z links; one at
// y + P[z + b] gives the y links of (a, b) for a = 0 and 1; and one at x + (the y link of
// the corner's (y, z)) gives x = 0 and 1. The simplex's four corners project onto three
// (y, z): (0, 0), (1, 1) and m, the one of s1 and s2 that has one of y and z (s2 when s1
// is x), so three x words serve them.
fn simplex_hashes3(lat: Lattice, cells: vec4<u32>, s1: vec3<u32>, s2: vec3<u32>) -> vec4<u32> {
    if lattice_hashed(lat) {
        return vec4<u32>(simplex_hash(lat, cells, vec4<u32>(0u), 3u),
            simplex_hash(lat, cells, vec4<u32>(s1, 0u), 3u),
            simplex_hash(lat, cells, vec4<u32>(s2, 0u), 3u),
            simplex_hash(lat, cells, vec4<u32>(1u, 1u, 1u, 0u), 3u));
    }
    let c = cells.xyz & vec3<u32>(255u);
    let hz = perm_pair(lat, c.z);
    let z0 = perm_pair(lat, c.y + hz.x);
    let z1 = perm_pair(lat, c.y + hz.y);
    let m_has_y = select(s1.y, s2.y, s1.x == 1u) == 1u;
    let origin = perm_pair(lat, c.x + z0.x);
    let middle = perm_pair(lat, c.x + select(z1.x, z0.y, m_has_y));
    let far = perm_pair(lat, c.x + z1.y);
    return vec4<u32>(origin.x, select(middle.x, origin.y, s1.x == 1u),
        select(far.x, middle.y, s2.x == 1u), far.y);
}

// The corners of the simplex holding a point (mirrors cpu::simplex::SimplexCorners): offset d
// from each corner (unskewed), its gradient g, the kernel's r2 and the final scale.
struct SimplexCorners {
    count: u32,
    d: array<vec4<f32>, 5>,
    g: array<vec4<f32>, 5>,
    r2: f32,
    scale: f32,
}

// The noise: scale times the corners' contributions summed in order. Every index is a
// constant: naga copies an array read at a run-time index into function memory, which
// NVIDIA's compiler leaves in local memory (3D simplex ran at 0.15x webgl-noise's on an H100
// with this sum and the corners as loops). `count` folds once inlined.
fn simplex_sum(c: SimplexCorners) -> f32 {
    var sum = simplex_corner(c.r2, c.d[0], c.g[0]);
    sum += simplex_corner(c.r2, c.d[1], c.g[1]);
    sum += simplex_corner(c.r2, c.d[2], c.g[2]);
    if c.count > 3u {
        sum += simplex_corner(c.r2, c.d[3], c.g[3]);
    }
    if c.count > 4u {
        sum += simplex_corner(c.r2, c.d[4], c.g[4]);
    }
    return c.scale * sum;
}

fn simplex2_corners(lat: Lattice, pt: LatticePoint) -> SimplexCorners {
    let u = pt.frac.x;
    let v = pt.frac.y;
    let t = (u + v) * SIMPLEX_G2;
    let x0 = u - t;
    let y0 = v - t;
    var i1 = 0u;
    var j1 = 1u;
    if u > v {
        i1 = 1u;
        j1 = 0u;
    }
    var c: SimplexCorners;
    c.count = 3u;
    c.r2 = 0.5;
    c.scale = 70.0;
    c.d[0] = vec4<f32>(x0, y0, 0.0, 0.0);
    c.d[1] = vec4<f32>(x0 - f32(i1) + SIMPLEX_G2, y0 - f32(j1) + SIMPLEX_G2, 0.0, 0.0);
    c.d[2] = vec4<f32>(x0 - 1.0 + 2.0 * SIMPLEX_G2, y0 - 1.0 + 2.0 * SIMPLEX_G2, 0.0, 0.0);
    let h = simplex_hashes2(lat, pt.cell, vec2<u32>(i1, j1));
    c.g[0] = simplex_grad3(h.x);
    c.g[1] = simplex_grad3(h.y);
    c.g[2] = simplex_grad3(h.z);
    return c;
}

fn simplex2(lat: Lattice, pt: LatticePoint) -> f32 {
    return simplex_sum(simplex2_corners(lat, pt));
}

// The second and third corners of the 3D simplex holding the point.
struct SimplexOrder {
    c1: vec3<u32>,
    c2: vec3<u32>,
}

fn simplex3_order(xy: bool, yz: bool, xz: bool) -> SimplexOrder {
    // The branches of cpu::simplex::simplex3_order as boolean algebra: c1 marks the largest
    // coordinate, c2 the two largest (branches diverged per texel and cost ~8% on lavapipe).
    let c1 = vec3<bool>(xy && (yz || xz), !xy && yz, (xy && !yz && !xz) || (!xy && !yz));
    let c2 = vec3<bool>(xy || (yz && xz), (xy && yz) || !xy, (xy && !yz) || (!xy && (!yz || !xz)));
    return SimplexOrder(select(vec3<u32>(0u), vec3<u32>(1u), c1), select(vec3<u32>(0u), vec3<u32>(1u), c2));
}

// Corner m of the 3D simplex: d0 less its step plus m G3, with its gradient.
fn simplex3_corner(d0: vec3<f32>, step: vec3<u32>, m: f32) -> vec4<f32> {
    return vec4<f32>(d0 - vec3<f32>(step) + vec3<f32>(m * (1.0 / 6.0)), 0.0);
}

fn simplex3_corners(lat: Lattice, pt: LatticePoint) -> SimplexCorners {
    let f = pt.frac;
    let t = (f.x + f.y + f.z) / 6.0;
    let d0 = vec3<f32>(f.x - t, f.y - t, f.z - t);
    let order = simplex3_order(f.x >= f.y, f.y >= f.z, f.x >= f.z);
    let h = simplex_hashes3(lat, pt.cell, order.c1, order.c2);
    var c: SimplexCorners;
    c.count = 4u;
    c.r2 = 0.6;
    c.scale = 32.0;
    // Written out corner by corner: constant indices (see simplex_sum).
    c.d[0] = vec4<f32>(d0, 0.0);
    c.d[1] = simplex3_corner(d0, order.c1, 1.0);
    c.d[2] = simplex3_corner(d0, order.c2, 2.0);
    c.d[3] = simplex3_corner(d0, vec3<u32>(1u), 3.0);
    c.g[0] = simplex_grad3(h.x);
    c.g[1] = simplex_grad3(h.y);
    c.g[2] = simplex_grad3(h.z);
    c.g[3] = simplex_grad3(h.w);
    return c;
}

fn simplex3(lat: Lattice, pt: LatticePoint) -> f32 {
    return simplex_sum(simplex3_corners(lat, pt));
}

// Each coordinate's rank (0 smallest, 3 largest) from the comparisons of the pairs (x,y),
// (x,z), (y,z), (x,w), (y,w), (z,w); greater[n] says the first of pair n is larger.
fn simplex4_ranks(g0: bool, g1: bool, g2: bool, g3: bool, g4: bool, g5: bool) -> vec4<u32> {
    var rank = vec4<u32>(0u);
    if g0 { rank.x += 1u; } else { rank.y += 1u; }
    if g1 { rank.x += 1u; } else { rank.z += 1u; }
    if g2 { rank.y += 1u; } else { rank.z += 1u; }
    if g3 { rank.x += 1u; } else { rank.w += 1u; }
    if g4 { rank.y += 1u; } else { rank.w += 1u; }
    if g5 { rank.z += 1u; } else { rank.w += 1u; }
    return rank;
}

// Corner m of the 4D simplex steps along the axes whose rank is >= 4 - m (corner 0 along
// none, corner 4 along all).
fn simplex4_step(rank: vec4<u32>, m: u32) -> vec4<u32> {
    return select(vec4<u32>(0u), vec4<u32>(1u), rank + vec4<u32>(m) >= vec4<u32>(4u));
}

fn simplex4_corners(lat: Lattice, pt: LatticePoint) -> SimplexCorners {
    let f = pt.frac;
    let t = (f.x + f.y + f.z + f.w) * SIMPLEX_G4;
    let d0 = f - vec4<f32>(t);
    let rank = simplex4_ranks(f.x > f.y, f.x > f.z, f.y > f.z, f.x > f.w, f.y > f.w, f.z > f.w);
    let s1 = simplex4_step(rank, 1u);
    let s2 = simplex4_step(rank, 2u);
    let s3 = simplex4_step(rank, 3u);
    var c: SimplexCorners;
    c.count = 5u;
    c.r2 = 0.6;
    c.scale = 27.0;
    // Written out corner by corner: constant indices (see simplex_sum).
    c.d[0] = d0;
    c.d[1] = d0 - vec4<f32>(s1) + vec4<f32>(SIMPLEX_G4);
    c.d[2] = d0 - vec4<f32>(s2) + vec4<f32>(2.0 * SIMPLEX_G4);
    c.d[3] = d0 - vec4<f32>(s3) + vec4<f32>(3.0 * SIMPLEX_G4);
    c.d[4] = d0 - vec4<f32>(1.0) + vec4<f32>(4.0 * SIMPLEX_G4);
    c.g[0] = simplex_grad4(simplex_hash(lat, pt.cell, vec4<u32>(0u), 4u));
    c.g[1] = simplex_grad4(simplex_hash(lat, pt.cell, s1, 4u));
    c.g[2] = simplex_grad4(simplex_hash(lat, pt.cell, s2, 4u));
    c.g[3] = simplex_grad4(simplex_hash(lat, pt.cell, s3, 4u));
    c.g[4] = simplex_grad4(simplex_hash(lat, pt.cell, vec4<u32>(1u), 4u));
    return c;
}

fn simplex4(lat: Lattice, pt: LatticePoint) -> f32 {
    return simplex_sum(simplex4_corners(lat, pt));
}

// One corner's value and gradient: t^4 (g . d) and t^4 g - 8 t^3 (g . d) d, t = r2 - |d|^2
// (zero where t < 0).
fn simplex_corner_d(r2: f32, d: vec4<f32>, g: vec4<f32>) -> Dual {
    let t = r2 - dot(d, d);
    if t < 0.0 {
        return Dual(0.0, vec4<f32>(0.0));
    }
    let gd = dot(g, d);
    let t2 = t * t;
    return Dual(t2 * t2 * gd, t2 * t2 * g - 8.0 * t2 * t * gd * d);
}

// The corners' values and gradients summed in order, with constant indices (see simplex_sum).
fn simplex_d(c: SimplexCorners) -> Dual {
    var sum = simplex_corner_d(c.r2, c.d[0], c.g[0]);
    var next = simplex_corner_d(c.r2, c.d[1], c.g[1]);
    sum = Dual(sum.value + next.value, sum.grad + next.grad);
    next = simplex_corner_d(c.r2, c.d[2], c.g[2]);
    sum = Dual(sum.value + next.value, sum.grad + next.grad);
    if c.count > 3u {
        next = simplex_corner_d(c.r2, c.d[3], c.g[3]);
        sum = Dual(sum.value + next.value, sum.grad + next.grad);
    }
    if c.count > 4u {
        next = simplex_corner_d(c.r2, c.d[4], c.g[4]);
        sum = Dual(sum.value + next.value, sum.grad + next.grad);
    }
    return Dual(c.scale * sum.value, c.scale * sum.grad);
}
