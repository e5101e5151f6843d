//! The whole test suite in one binary (wgpu links once).
//!
//! GPU tests need an adapter and fail, never skip, without one. The only opt-out is building
//! with `GPU_NOISE_SKIP_GPU_TESTS=1`, which marks them `#[ignore]` (build.rs), so they show as
//! ignored, never as passed. CI never sets it.

// 3.14 is Ken Perlin's published sample coordinate, not an approximation of pi.
#![allow(clippy::approx_constant)]

mod api;
mod chunks;
mod cli;
mod derivatives;
mod determinism;
mod docs_layout;
mod engines;
mod export;
mod family;
mod flags;
mod fuzz;
mod golden;
mod gpu_vs_cpu;
mod graph;
mod graph_cli;
mod graph_derivatives;
mod graph_gpu;
mod graph_limits;
mod graph_props;
mod hostile;
mod kind_fields;
mod lattice;
mod lattice_whiteness;
mod layout;
mod messages;
mod modules;
mod namespace;
mod one_world;
mod outputs;
mod precision;
mod realtime;
mod round_trips;
mod sequences;
mod shader_export;
mod streams;
mod support;
mod targets;
mod tightness;
mod tile_sets;
mod tiling;
mod wide_kernels;
mod worlds;
