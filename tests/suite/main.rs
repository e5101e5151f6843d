//! The whole test suite in one binary (wgpu links once).
//!
//! GPU tests need an adapter and fail, never skip, without one. The only opt-out is an
//! explicit `GPU_NOISE_SKIP_GPU_TESTS=1`, which CI never sets.

// 3.14 is Ken Perlin's published sample coordinate, not an approximation of pi.
#![allow(clippy::approx_constant)]

mod cli;
mod determinism;
mod golden;
mod gpu_vs_cpu;
mod layout;
mod realtime;
mod support;
mod targets;
mod tiling;
