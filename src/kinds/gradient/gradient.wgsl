// Classic gradient noise (1985 style) with seed-drawn unit gradients, 1D-3D;
// mirrored by src/cpu/gradient.rs.

fn gradient(lat: Lattice, pt: LatticePoint, dims: u32) -> f32 {
    let frame = cell_frame(lat, pt, dims);
    var v: array<f32, 16>;
    for (var n = 0u; n < (1u << dims); n++) {
        let h = lattice_hash(lat, corner_cells(frame, n), dims);
        let g = lattice_gradient(lat, h);
        var dot = 0.0;
        for (var a = 0u; a < dims; a++) {
            dot += g[a] * (frame.frac[a] - f32((n >> a) & 1u));
        }
        v[n] = dot;
    }
    return interp_corners(&v, frame.weight, dims);
}
