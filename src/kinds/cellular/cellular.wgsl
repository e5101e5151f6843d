// Cellular noise (Worley 1996), 2D and 3D; mirrored by src/cpu/cellular.rs. One feature point
// per cell, jittered from the seed's tables; the search covers every cell that can hold F1 or
// F2 for any jitter (CONVENTIONS §9).

// What cellular noise derives from its fields (mirrors CellularState in params.rs, computed on
// the host in f64 and rounded; KindState's member `cellular`).
struct CellularState {
    jitter: f32,
    distance_scale: f32,
    return_scale: f32,
    cell_bound: f32,
    distance: u32,
    cell_return: u32,
    cell_search: i32,
    _pad: u32,
}

// The metric's internal value of an offset (squared for the Euclidean metrics).
fn cell_metric(d: vec3<f32>, distance: u32) -> f32 {
    switch distance {
        case DISTANCE_MANHATTAN: { return abs(d.x) + abs(d.y) + abs(d.z); }
        case DISTANCE_CHEBYSHEV: { return max(max(abs(d.x), abs(d.y)), abs(d.z)); }
        default: { return d.x * d.x + d.y * d.y + d.z * d.z; }
    }
}

fn cell_distance(m: f32, distance: u32) -> f32 {
    if distance == DISTANCE_EUCLIDEAN {
        return sqrt(m);
    }
    return m;
}

// How far the fraction f is from cell offset o's nearest side (0 inside it).
fn cell_gap(f: f32, o: i32) -> f32 {
    if o > 0 {
        return f32(o) - f;
    } else if o < 0 {
        return f - f32(o + 1);
    }
    return 0.0;
}

// The feature point relative to its cell's corner: 0.5 + jitter (u - 0.5), u = (V[P[h + a]] + 1) / 2
// (table) or the unit float of hash_bits(h, a) (hash; prime_bits on the prime lattice).
fn feature_point(lat: Lattice, h: u32, a: u32) -> f32 {
    var u: f32;
    if lattice_prime(lat) {
        u = hash_unit(prime_bits(h, a));
    } else if lattice_hashed(lat) {
        u = hash_unit(hash_bits(h, a));
    } else {
        u = (table_value(lat, perm_at(lat, h + a)) + 1.0) * 0.5;
    }
    return 0.5 + kind_jitter(lat) * (u - 0.5);
}

// The two smallest internal distances and the nearest cell's hash.
struct Nearest {
    m: vec2<f32>,
    hash: u32,
}

// The search's k-th offsets, centre outwards: 0, -1, 1, -2, 2, ...
fn search_offset(k: vec3<i32>) -> vec3<i32> {
    return select(k / 2, -(k + 1) / 2, (k % 2) == vec3<i32>(1));
}

// Whether the return reads F2 (else the search only has to find F1 and its cell).
fn needs_f2(cell_return: u32) -> bool {
    return cell_return != RETURN_F1 && cell_return != RETURN_CELL_VALUE;
}

// Visits the cells centre outwards and skips those that cannot beat F2, or F1 where the return
// needs only F1 (mirrors the twin's cellular_search).
fn cellular_search(lat: Lattice, pt: LatticePoint, dims: u32) -> Nearest {
    let kind = kind_state(lat).cellular;
    let c = cell_point(pt, dims);
    let r = kind.cell_search;
    let rz = select(0, r, dims == 3u);
    var best = Nearest(vec2<f32>(0x1.fffffep+127f), 0u); // f32::MAX, exact (Tint refuses a rounded decimal)
    for (var kz = 0; kz <= 2 * rz; kz++) {
        for (var ky = 0; ky <= 2 * r; ky++) {
            for (var kx = 0; kx <= 2 * r; kx++) {
                let o = search_offset(vec3<i32>(kx, ky, kz));
                var gap = vec3<f32>(0.0);
                for (var a = 0u; a < dims; a++) {
                    gap[a] = cell_gap(c.frac[a], o[a]);
                }
                let needed = select(best.m.x, best.m.y, needs_f2(kind.cell_return));
                if cell_metric(gap, kind.distance) >= min(kind.cell_bound, needed) {
                    continue;
                }
                var cells = vec4<u32>(0u);
                for (var a = 0u; a < dims; a++) {
                    cells[a] = lattice_cell(cell_offset(c.base[a], o[a]), lat.period[a]);
                }
                let h = lattice_hash(lat, cells, dims);
                var d = vec3<f32>(0.0);
                for (var a = 0u; a < dims; a++) {
                    d[a] = f32(o[a]) + feature_point(lat, h, a) - c.frac[a];
                }
                let m = cell_metric(d, kind.distance);
                if m < best.m.x {
                    best = Nearest(vec2<f32>(m, best.m.x), h);
                } else if m < best.m.y {
                    best.m.y = m;
                }
            }
        }
    }
    return best;
}

fn cellular(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    let kind = kind_state(lat).cellular;
    let near = cellular_search(lat, pt, dims);
    let d1 = cell_distance(near.m.x, kind.distance) * kind.distance_scale;
    let d2 = cell_distance(near.m.y, kind.distance) * kind.distance_scale;
    var q = d1;
    switch kind.cell_return {
        case RETURN_F2: { q = d2; }
        case RETURN_F2_MINUS_F1: { q = d2 - d1; }
        case RETURN_F1_TIMES_F2: { q = d1 * d2; }
        case RETURN_CELL_VALUE: { return lattice_value(lat, near.hash); }
        default: {}
    }
    return q * kind.return_scale - 1.0;
}
