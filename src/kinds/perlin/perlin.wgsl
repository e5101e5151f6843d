// Ken Perlin's improved noise (2002); mirrored by src/cpu/perlin.rs. 3D is his reference; 1D
// and 2D keep its hash, fade and corners with gradients of their own (CONVENTIONS §3).

const PERLIN1_SCALE: f32 = 2.0;
const PERLIN2_SCALE: f32 = 1.41421356237309504880;

// (1 + (h & 7)) / 8, negated where h & 8 is set.
fn grad1(hash: u32, x: f32) -> f32 {
    let h = hash & 15u;
    let g = f32(1u + (h & 7u)) * 0.125;
    return select(-g * x, g * x, (h & 8u) == 0u);
}

// The unit vector at angle 2 pi ((h & 15) + 0.5) / 16: entry h & 3 of the first quadrant
// turned (h >> 2) & 3 quarter turns (PERLIN2_C1 etc. are generated from src/tables.rs).
fn grad2(hash: u32, x: f32, y: f32) -> f32 {
    let j = hash & 3u;
    let u = select(select(PERLIN2_S1, PERLIN2_S3, j == 2u), select(PERLIN2_C3, PERLIN2_C1, j == 0u), j < 2u);
    let v = select(select(PERLIN2_C1, PERLIN2_C3, j == 2u), select(PERLIN2_S3, PERLIN2_S1, j == 0u), j < 2u);
    // Quarter turns q = (h >> 2) & 3: (u, v), (-v, u), (-u, -v), (v, -u); selects, not a
    // switch, since the hash differs per texel (a divergent switch cost Perlin 2D half its rate).
    let q = (hash >> 2u) & 3u;
    var g = select(vec2<f32>(u, v), vec2<f32>(-v, u), (q & 1u) == 1u);
    g = select(g, -g, q >= 2u);
    return g.x * x + g.y * y;
}

fn grad3(hash: u32, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15u;
    let u = select(y, x, h < 8u);
    var v = z;
    if h < 4u {
        v = y;
    } else if h == 12u || h == 14u {
        v = x;
    }
    return select(-u, u, (h & 1u) == 0u) + select(-v, v, (h & 2u) == 0u);
}

// Component (h >> 3) & 3 is zero; the other three, in order, are -1 where bits 0, 1, 2 of h
// are set and +1 otherwise.
fn grad4(hash: u32, d: vec4<f32>) -> f32 {
    let h = hash & 31u;
    let zero = (h >> 3u) & 3u;
    var sum = 0.0;
    var bit = 0u;
    for (var a = 0u; a < 4u; a++) {
        if a != zero {
            sum += select(d[a], -d[a], ((h >> bit) & 1u) == 1u);
            bit += 1u;
        }
    }
    return sum;
}

fn perlin1(lat: Lattice, pt: LatticePoint) -> f32 {
    let ax = axis_frame(lat, pt, 0u);
    let x = ax.f;
    return PERLIN1_SCALE * lerp(ax.w,
        grad1(lattice_hash1(lat, ax.c0), x),
        grad1(lattice_hash1(lat, ax.c1), x - 1.0));
}

fn perlin2(lat: Lattice, pt: LatticePoint) -> f32 {
    let ax = axis_frame(lat, pt, 0u);
    let ay = axis_frame(lat, pt, 1u);
    let x = ax.f;
    let y = ay.f;
    let h = corner_hashes2(lat, vec2<u32>(ax.c0, ay.c0), vec2<u32>(ax.c1, ay.c1));
    return PERLIN2_SCALE * lerp(ay.w,
        lerp(ax.w, grad2(h.x, x, y), grad2(h.y, x - 1.0, y)),
        lerp(ax.w, grad2(h.z, x, y - 1.0), grad2(h.w, x - 1.0, y - 1.0)));
}

fn perlin3(lat: Lattice, pt: LatticePoint) -> f32 {
    let ax = axis_frame(lat, pt, 0u);
    let ay = axis_frame(lat, pt, 1u);
    let az = axis_frame(lat, pt, 2u);
    let x = ax.f;
    let y = ay.f;
    let z = az.f;
    let h = corner_hashes3(lat, vec3<u32>(ax.c0, ay.c0, az.c0), vec3<u32>(ax.c1, ay.c1, az.c1));
    return lerp(az.w,
        lerp(ay.w,
            lerp(ax.w, grad3(h.z0.x, x, y, z), grad3(h.z0.y, x - 1.0, y, z)),
            lerp(ax.w, grad3(h.z0.z, x, y - 1.0, z), grad3(h.z0.w, x - 1.0, y - 1.0, z))),
        lerp(ay.w,
            lerp(ax.w, grad3(h.z1.x, x, y, z - 1.0), grad3(h.z1.y, x - 1.0, y, z - 1.0)),
            lerp(ax.w, grad3(h.z1.z, x, y - 1.0, z - 1.0), grad3(h.z1.w, x - 1.0, y - 1.0, z - 1.0))));
}

fn perlin4(lat: Lattice, pt: LatticePoint) -> f32 {
    let frame = cell_frame(lat, pt, 4u);
    var v: array<f32, 16>;
    for (var n = 0u; n < 16u; n++) {
        let b = vec4<f32>((vec4<u32>(n) >> vec4<u32>(0u, 1u, 2u, 3u)) & vec4<u32>(1u));
        let h = lattice_hash(lat, corner_cells(frame, n), 4u);
        v[n] = grad4(h, frame.frac - b);
    }
    return interp_corners(&v, frame.weight, 4u);
}

// Perlin's gradient vector for a corner hash (what grad1..grad4 dot).
fn perlin_gradient_vector(hash: u32, dims: u32) -> vec4<f32> {
    switch dims {
        case 1u: { return vec4<f32>(grad1(hash, 1.0), 0.0, 0.0, 0.0); }
        case 2u: {
            return vec4<f32>(grad2(hash, 1.0, 0.0), grad2(hash, 0.0, 1.0), 0.0, 0.0);
        }
        case 3u: {
            return vec4<f32>(grad3(hash, 1.0, 0.0, 0.0), grad3(hash, 0.0, 1.0, 0.0),
                grad3(hash, 0.0, 0.0, 1.0), 0.0);
        }
        default: {
            return vec4<f32>(grad4(hash, vec4<f32>(1.0, 0.0, 0.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 1.0, 0.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 0.0, 1.0, 0.0)),
                grad4(hash, vec4<f32>(0.0, 0.0, 0.0, 1.0)));
        }
    }
}
