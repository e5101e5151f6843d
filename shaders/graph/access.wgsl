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

// The families' accessors of single fields of their state (kind_jitter, kind_poisson) are
// generated after this file from their params.rs (WGSL_ACCESSORS), reading the same state.
