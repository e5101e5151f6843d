// Value noise: interpolated lattice values, 1D-4D; mirrored by src/cpu/value.rs.

// 2D and 3D unrolled with the shared corner hash chains (as Perlin); 1D and 4D generic.
fn value(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    if dims == 2u {
        return value2(lat, pt);
    }
    if dims == 3u {
        return value3(lat, pt);
    }
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        v[n] = lattice_value(lat, lattice_hash(lat, corner_cells(frame, n), dims));
    }
    return interp_corners(&v, frame.weight, dims);
}

fn value2(lat: Lattice, pt: LatticePoint) -> f32 {
    let ax = axis_frame(lat, pt, 0u);
    let ay = axis_frame(lat, pt, 1u);
    let h = corner_hashes2(lat, vec2<u32>(ax.c0, ay.c0), vec2<u32>(ax.c1, ay.c1));
    return lerp(ay.w,
        lerp(ax.w, lattice_value(lat, h.x), lattice_value(lat, h.y)),
        lerp(ax.w, lattice_value(lat, h.z), lattice_value(lat, h.w)));
}

fn value3(lat: Lattice, pt: LatticePoint) -> f32 {
    let ax = axis_frame(lat, pt, 0u);
    let ay = axis_frame(lat, pt, 1u);
    let az = axis_frame(lat, pt, 2u);
    let h = corner_hashes3(lat, vec3<u32>(ax.c0, ay.c0, az.c0), vec3<u32>(ax.c1, ay.c1, az.c1));
    return lerp(az.w,
        lerp(ay.w,
            lerp(ax.w, lattice_value(lat, h.z0.x), lattice_value(lat, h.z0.y)),
            lerp(ax.w, lattice_value(lat, h.z0.z), lattice_value(lat, h.z0.w))),
        lerp(ay.w,
            lerp(ax.w, lattice_value(lat, h.z1.x), lattice_value(lat, h.z1.y)),
            lerp(ax.w, lattice_value(lat, h.z1.z), lattice_value(lat, h.z1.w))));
}

fn catmull_rom(t: f32, vm1: f32, v0: f32, v1: f32, v2: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    return 0.5 * ((-t3 + 2.0 * t2 - t) * vm1
        + (3.0 * t3 - 5.0 * t2 + 2.0) * v0
        + (-3.0 * t3 + 4.0 * t2 + t) * v1
        + (t3 - t2) * v2);
}

// 4 lattice values per axis (4^dims in all), reduced axis x first.
fn value_catmull_rom(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    let base = pt.cell;
    let frac = pt.frac;
    let period = lat.period;
    var v: array<f32, 256>;
    for (var n = 0u; n < (1u << (2u * dims)); n++) {
        var cells = vec4<u32>(0u);
        for (var a = 0u; a < dims; a++) {
            let step = i32((n >> (2u * a)) & 3u) - 1;
            cells[a] = lattice_cell(cell_offset(base[a], step), period[a]);
        }
        v[n] = lattice_value(lat, lattice_hash(lat, cells, dims));
    }
    var count = 1u << (2u * dims);
    for (var a = 0u; a < dims; a++) {
        count /= 4u;
        for (var m = 0u; m < count; m++) {
            v[m] = catmull_rom(frac[a], v[4u * m], v[4u * m + 1u], v[4u * m + 2u], v[4u * m + 3u]);
        }
    }
    return v[0];
}

// Value noise with its gradient: the corners' values (gradient 0) interpolated as
// interp_corners_d, with constant indices in 2D and 3D (interp_square_d says why).
fn value_d(lat: Lattice, pt: LatticePoint, dims: u32) -> Dual {
    if dims == 2u {
        let x = axis_frame(lat, pt, 0u);
        let y = axis_frame(lat, pt, 1u);
        let h = corner_hashes2(lat, vec2<u32>(x.c0, y.c0), vec2<u32>(x.c1, y.c1));
        let corners = array<Dual, 4>(value_corner_d(lat, h.x), value_corner_d(lat, h.y),
            value_corner_d(lat, h.z), value_corner_d(lat, h.w));
        return interp_square_d(corners, x, y, lattice_interp(lat));
    }
    if dims == 3u {
        let x = axis_frame(lat, pt, 0u);
        let y = axis_frame(lat, pt, 1u);
        let z = axis_frame(lat, pt, 2u);
        let h = corner_hashes3(lat, vec3<u32>(x.c0, y.c0, z.c0), vec3<u32>(x.c1, y.c1, z.c1));
        let corners = array<Dual, 8>(value_corner_d(lat, h.z0.x), value_corner_d(lat, h.z0.y),
            value_corner_d(lat, h.z0.z), value_corner_d(lat, h.z0.w), value_corner_d(lat, h.z1.x),
            value_corner_d(lat, h.z1.y), value_corner_d(lat, h.z1.z), value_corner_d(lat, h.z1.w));
        return interp_cube_d(corners, x, y, z, lattice_interp(lat));
    }
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    var g: array<vec4<f32>, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        v[n] = lattice_value(lat, lattice_hash(lat, corner_cells(frame, n), dims));
    }
    return interp_corners_d(&v, &g, frame, dims, lattice_interp(lat));
}

// A value-noise corner of hash h: its value, gradient 0.
fn value_corner_d(lat: Lattice, h: u32) -> Dual {
    return Dual(lattice_value(lat, h), vec4<f32>(0.0));
}

fn catmull_rom_derivative(t: f32, vm1: f32, v0: f32, v1: f32, v2: f32) -> f32 {
    return 0.5 * ((-3.0 * t * t + 4.0 * t - 1.0) * vm1
        + (9.0 * t * t - 10.0 * t) * v0
        + (-9.0 * t * t + 8.0 * t + 1.0) * v1
        + (3.0 * t * t - 2.0 * t) * v2);
}

// catmull_rom on vectors (the corner gradients).
fn catmull_rom4(t: f32, vm1: vec4<f32>, v0: vec4<f32>, v1: vec4<f32>, v2: vec4<f32>) -> vec4<f32> {
    let t2 = t * t;
    let t3 = t2 * t;
    return 0.5 * ((-t3 + 2.0 * t2 - t) * vm1
        + (3.0 * t3 - 5.0 * t2 + 2.0) * v0
        + (-3.0 * t3 + 4.0 * t2 + t) * v1
        + (t3 - t2) * v2);
}

fn value_catmull_rom_d(lat: Lattice, pt: LatticePoint, dims: u32) -> Dual {
    var v: array<f32, 256>;
    var g: array<vec4<f32>, 256>;
    for (var n = 0u; n < (1u << (2u * dims)); n++) {
        var cells = vec4<u32>(0u);
        for (var a = 0u; a < dims; a++) {
            let step = i32((n >> (2u * a)) & 3u) - 1;
            cells[a] = lattice_cell(cell_offset(pt.cell[a], step), lat.period[a]);
        }
        v[n] = lattice_value(lat, lattice_hash(lat, cells, dims));
    }
    var count = 1u << (2u * dims);
    for (var a = 0u; a < dims; a++) {
        let t = pt.frac[a];
        count /= 4u;
        for (var m = 0u; m < count; m++) {
            let q = vec4<f32>(v[4u * m], v[4u * m + 1u], v[4u * m + 2u], v[4u * m + 3u]);
            var gm = catmull_rom4(t, g[4u * m], g[4u * m + 1u], g[4u * m + 2u], g[4u * m + 3u]);
            gm[a] += catmull_rom_derivative(t, q.x, q.y, q.z, q.w);
            v[m] = catmull_rom(t, q.x, q.y, q.z, q.w);
            g[m] = gm;
        }
    }
    return Dual(v[0], g[0]);
}
