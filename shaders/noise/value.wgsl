// Value noise: interpolated lattice values, 1D-4D; mirrored by src/cpu/value.rs.

fn value(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        v[n] = lattice_value(lat, lattice_hash(lat, corner_cells(frame, n), dims));
    }
    return interp_corners(&v, frame.weight, dims);
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
