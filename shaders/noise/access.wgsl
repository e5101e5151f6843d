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

// The families' accessors of single fields of their state (kind_jitter, kind_poisson) are
// generated after this file from their params.rs (WGSL_ACCESSORS), reading the same state.
