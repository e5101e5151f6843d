// Sparse convolution (Lewis 1989) and Gabor noise (Lagae et al. 2009): random impulses per
// lattice cell under a kernel; mirrored by src/cpu/impulse.rs. The per-cell generator and the
// integer Poisson table place exactly the CPU's impulses (CONVENTIONS §10-§11).

// What the impulse kinds derive from their fields (mirrors ImpulseState in params.rs, computed
// on the host in f64 and rounded; KindState's member `impulse`).
struct ImpulseState {
    impulse_scale: f32,
    gabor_frequency: f32,
    gabor_bandwidth: f32,
    gabor_radius: f32,
    gabor_direction: vec2<f32>,
    gabor_reach: i32,
    gabor_isotropic: u32,
    // Poisson thresholds: a cell holds the first k with u < poisson[k] impulses.
    poisson: array<vec4<u32>, 16>,
}

// PCG-RXS-M-XS 32: advances the state, returns 32 random bits.
fn pcg_next(state: ptr<function, u32>) -> u32 {
    *state = *state * 747796405u + 2891336453u;
    let s = *state;
    let word = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
    return (word >> 22u) ^ word;
}

// The top 24 bits times 2^-24 (exact in f32).
fn unit_from_bits(bits: u32) -> f32 {
    return f32(bits >> 8u) * (1.0 / 16777216.0);
}

fn impulse_count(lat: Lattice, state: ptr<function, u32>) -> u32 {
    let u = pcg_next(state);
    for (var k = 0u; k < MAX_IMPULSES; k++) {
        if u < kind_poisson(lat, k) {
            return k;
        }
    }
    return MAX_IMPULSES;
}

fn sparse_kernel(r2: f32) -> f32 {
    if r2 < 1.0 {
        return 0.5 + 0.5 * cos_2pi(0.5 * sqrt(r2));
    }
    return 0.0;
}

// The generator state of cell base + o: with the table, the hashes of the cell and of its
// diagonal neighbour, h1 | h2 << 8; with the hash lattice, the cell's 32-bit hash; XOR the
// seed's salt (cells wrapped when tiling).
fn impulse_cell_state(lat: Lattice, c: CellPoint, o: vec3<i32>, dims: u32) -> u32 {
    var cells = vec4<u32>(0u);
    var next = vec4<u32>(0u);
    for (var a = 0u; a < dims; a++) {
        cells[a] = lattice_cell(cell_offset(c.base[a], o[a]), lat.period[a]);
        next[a] = lattice_cell(cell_offset(c.base[a], o[a] + 1), lat.period[a]);
    }
    let h1 = lattice_hash(lat, cells, dims);
    if lattice_hashed(lat) {
        return h1 ^ lat.salt;
    }
    let h2 = lattice_hash(lat, next, dims);
    return (h1 | (h2 << 8u)) ^ lat.salt;
}

// The squared distance from the point to the nearest side of cell offset o.
fn cell_gap2(c: CellPoint, o: vec3<i32>, dims: u32) -> f32 {
    var gap2 = 0.0;
    for (var a = 0u; a < dims; a++) {
        let g = cell_gap(c.frac[a], o[a]);
        gap2 += g * g;
    }
    return gap2;
}

fn sparse_convolution(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    let c = cell_point(pt, dims);
    let rz = select(0, 1, dims == 3u);
    var sum = 0.0;
    for (var oz = -rz; oz <= rz; oz++) {
        for (var oy = -1; oy <= 1; oy++) {
            for (var ox = -1; ox <= 1; ox++) {
                let o = vec3<i32>(ox, oy, oz);
                if cell_gap2(c, o, dims) >= 1.0 {
                    continue;
                }
                var state = impulse_cell_state(lat, c, o, dims);
                let count = impulse_count(lat, &state);
                let rel = c.frac - vec3<f32>(o);
                for (var n = 0u; n < count; n++) {
                    var r2 = 0.0;
                    for (var a = 0u; a < dims; a++) {
                        let d = rel[a] - unit_from_bits(pcg_next(&state));
                        r2 += d * d;
                    }
                    let weight = 2.0 * unit_from_bits(pcg_next(&state)) - 1.0;
                    sum += weight * sparse_kernel(r2);
                }
            }
        }
    }
    return sum * kind_state(lat).impulse.impulse_scale;
}

fn gabor_kernel(d: vec2<f32>, w: vec2<f32>, frequency: f32, bandwidth: f32, radius: f32) -> f32 {
    let r2 = d.x * d.x + d.y * d.y;
    if r2 >= radius * radius {
        return 0.0;
    }
    let envelope = exp_nonpositive(-NOISE_PI * bandwidth * bandwidth * r2);
    return envelope * cos_2pi(frequency * (w.x * d.x + w.y * d.y));
}

fn gabor(lat: Lattice, pt: LatticePoint) -> f32 {
    let kind = kind_state(lat).impulse;
    let c = cell_point(pt, 2u);
    let reach = kind.gabor_reach;
    var sum = 0.0;
    for (var oy = -reach; oy <= reach; oy++) {
        for (var ox = -reach; ox <= reach; ox++) {
            let o = vec3<i32>(ox, oy, 0);
            if cell_gap2(c, o, 2u) >= kind.gabor_radius * kind.gabor_radius {
                continue;
            }
            var state = impulse_cell_state(lat, c, o, 2u);
            let count = impulse_count(lat, &state);
            let rel = c.frac - vec3<f32>(o);
            for (var n = 0u; n < count; n++) {
                let dx = rel.x - unit_from_bits(pcg_next(&state));
                let dy = rel.y - unit_from_bits(pcg_next(&state));
                let weight = 2.0 * unit_from_bits(pcg_next(&state)) - 1.0;
                var w = kind.gabor_direction;
                if kind.gabor_isotropic == 1u {
                    // The angle in turns; sin(2 pi u) = cos(2 pi (u - 1/4)), exact in f32.
                    let turns = unit_from_bits(pcg_next(&state));
                    w = vec2<f32>(cos_2pi(turns), cos_2pi(turns - 0.25));
                }
                sum += weight * gabor_kernel(vec2<f32>(dx, dy), w, kind.gabor_frequency,
                    kind.gabor_bandwidth, kind.gabor_radius);
            }
        }
    }
    return sum * kind.impulse_scale;
}
