// How the kinds read what varies between their users (mirrors the fields of cpu::common::Lattice):
// the single-kind kernels compile the lattice mode and the interpolation in as overrides and
// read the kind parameters from `noise_state`. Graph kernels include shaders/graph/access.wgsl
// instead, which reads them per noise node.

fn lattice_hashed(lat: Lattice) -> bool {
    return NOISE_LATTICE != LATTICE_TABLE;
}

fn lattice_prime(lat: Lattice) -> bool {
    return NOISE_LATTICE == LATTICE_PRIME;
}

fn lattice_interp(lat: Lattice) -> u32 {
    return NOISE_INTERP;
}

fn kind_state(lat: Lattice) -> KindState {
    return noise_state.kind;
}

// Cellular's jitter, read alone: it is needed per feature point, and a copy of the whole state
// there can cost more than the point.
fn kind_jitter(lat: Lattice) -> f32 {
    return noise_state.kind.jitter;
}

// Poisson threshold k of the impulse kinds (one entry, not the whole table).
fn kind_poisson(lat: Lattice, k: u32) -> u32 {
    return noise_state.kind.poisson[k / 4u][k % 4u];
}
