// The graph kernels' accessors (see shaders/noise/access.wgsl): every noise node carries its own
// lattice mode, interpolation (literals in the generated code, so they fold) and kind state.

fn lattice_hashed(lat: Lattice) -> bool {
    return lat.mode != LATTICE_TABLE;
}

fn lattice_prime(lat: Lattice) -> bool {
    return lat.mode == LATTICE_PRIME;
}

fn lattice_interp(lat: Lattice) -> u32 {
    return lat.interp;
}

fn kind_state(lat: Lattice) -> KindState {
    return graph_state.kinds[lat.kind];
}

// Cellular's jitter, read alone: it is needed per feature point, and a copy of the whole state
// there can cost more than the point.
fn kind_jitter(lat: Lattice) -> f32 {
    return graph_state.kinds[lat.kind].jitter;
}

fn kind_poisson(lat: Lattice, k: u32) -> u32 {
    return graph_state.kinds[lat.kind].poisson[k / 4u][k % 4u];
}
