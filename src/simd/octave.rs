//! One octave over one row: the kernel picked once per spec (kind, dims, lattice, and
//! Catmull-Rom) and instruction set, its lane loops vectorized by the compiler.

use super::InstructionSet;
use super::cellular::cellular;
use super::corners::corner_block;
use super::gradient::Gradient;
use super::hash::LaneLattice as Lattice;
use super::impulse::{gabor, sparse_convolution};
use super::lanes::{LANES, Points, RowFrame, block_points};
use super::perlin::{Perlin1 as P1, Perlin2 as P2, Perlin3 as P3, perlin4};
use super::simplex::{simplex2, simplex3, simplex4};
use super::value::{Value, value_catmull_rom, value4};
use crate::gpu::state::KindState;
use crate::spec::{Fractal, Interp, Kind, LatticeKind};

/// What one octave's kernel reads besides the points.
pub struct OctaveInputs<'a> {
    /// This octave's lattice (tables, periods, seeds).
    pub lat: Lattice<'a>,
    /// The kind's parameters as the GPU receives them (f32).
    pub kind: &'a KindState,
    /// The octave's weight, as the GPU receives it.
    pub weight: f32,
    /// The spec's fractal sum and interpolation.
    pub fractal: Fractal,
    /// The spec's interpolation.
    pub interp: Interp,
}

/// A kind in `DIMS` dimensions on one lattice, evaluated for a block of lanes.
pub trait Kernel {
    /// Lattice axes the kind reads.
    const DIMS: usize;
    /// The hash lattice (or the permutation table).
    const HASHED: bool;
    /// The noise of every lane of a block.
    fn block(lat: &Lattice, kind: &KindState, p: &Points, out: &mut [f32; LANES]);
}

/// Declares a kernel type per kind and dims, generic over the lattice.
macro_rules! kernels {
    ($($name:ident, $dims:expr, |$lat:ident, $kind:ident, $p:ident, $out:ident| $body:expr;)*) => {$(
        #[doc = concat!("`", stringify!($name), "` over a block of lanes.")]
        pub struct $name<const H: bool>;
        impl<const H: bool> Kernel for $name<H> {
            const DIMS: usize = $dims;
            const HASHED: bool = H;
            #[inline(always)]
            fn block($lat: &Lattice, $kind: &KindState, $p: &Points, $out: &mut [f32; LANES]) {
                $body
            }
        }
    )*};
}

kernels! {
    Perlin1, 1, |lat, _k, p, out| corner_block::<P1, 1>(lat, p, out);
    Perlin2, 2, |lat, _k, p, out| corner_block::<P2, 2>(lat, p, out);
    Perlin3, 3, |lat, _k, p, out| corner_block::<P3, 3>(lat, p, out);
    Perlin4, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = perlin4(lat, p, l); };
    Gradient1, 1, |lat, _k, p, out| corner_block::<Gradient, 1>(lat, p, out);
    Gradient2, 2, |lat, _k, p, out| corner_block::<Gradient, 2>(lat, p, out);
    Gradient3, 3, |lat, _k, p, out| corner_block::<Gradient, 3>(lat, p, out);
    Value1, 1, |lat, _k, p, out| corner_block::<Value, 1>(lat, p, out);
    Value2, 2, |lat, _k, p, out| corner_block::<Value, 2>(lat, p, out);
    Value3, 3, |lat, _k, p, out| corner_block::<Value, 3>(lat, p, out);
    Value4, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = value4(lat, p, l); };
    CatmullRom1, 1, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<1>(lat, p, l); };
    CatmullRom2, 2, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<2>(lat, p, l); };
    CatmullRom3, 3, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<3>(lat, p, l); };
    CatmullRom4, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = value_catmull_rom::<4>(lat, p, l); };
    Simplex2, 2, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex2(lat, p, l); };
    Simplex3, 3, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex3(lat, p, l); };
    Simplex4, 4, |lat, _k, p, out| for l in 0..LANES { out[l] = simplex4(lat, p, l); };
    Cellular2, 2, |lat, k, p, out| cellular::<2>(lat, k, p, out);
    Cellular3, 3, |lat, k, p, out| cellular::<3>(lat, k, p, out);
    Sparse2, 2, |lat, k, p, out| sparse_convolution::<2>(lat, k, p, out);
    Sparse3, 3, |lat, k, p, out| sparse_convolution::<3>(lat, k, p, out);
    Gabor2, 2, |lat, k, p, out| gabor(lat, k, p, out);
}

/// Adds one octave's noise over a row to `out`: `weight * fractal_term(n)` per texel.
pub type OctaveRow = fn(&OctaveInputs, &RowFrame, &mut [f32]);

/// The row loop, inlined into one function per instruction set below.
#[inline(always)]
fn octave_row<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // The lattice's mode becomes a constant, so each kernel keeps one lattice's code.
    let lat = Lattice {
        hashed: K::HASHED,
        ..inputs.lat
    };
    let mut p = Points::default();
    let mut n = [0.0f32; LANES];
    for (b, texels) in out.chunks_mut(LANES).enumerate() {
        block_points(row, inputs.interp, &lat.period, K::DIMS, b * LANES, &mut p);
        K::block(&lat, inputs.kind, &p, &mut n);
        add_terms(inputs.fractal, inputs.weight, &n, texels);
    }
}

fn octave_row_baseline<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
fn octave_row_avx2_impl<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,bmi1,bmi2,lzcnt,popcnt")]
fn octave_row_avx512_impl<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    octave_row::<K>(inputs, row, out);
}

#[cfg(target_arch = "x86_64")]
fn octave_row_avx2<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // SAFETY: picked only where InstructionSet::Avx2 is available (see `pick`).
    unsafe { octave_row_avx2_impl::<K>(inputs, row, out) }
}

#[cfg(target_arch = "x86_64")]
fn octave_row_avx512<K: Kernel>(inputs: &OctaveInputs, row: &RowFrame, out: &mut [f32]) {
    // SAFETY: picked only where InstructionSet::Avx512 is available (see `pick`).
    unsafe { octave_row_avx512_impl::<K>(inputs, row, out) }
}

/// The row function of `K` compiled for `isa` (which the caller checked is available).
fn for_isa<K: Kernel>(isa: InstructionSet) -> OctaveRow {
    match isa {
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx512 => octave_row_avx512::<K>,
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx2 => octave_row_avx2::<K>,
        _ => octave_row_baseline::<K>,
    }
}

/// `sum += weight * fractal_term(n)` for the texels of a block (fractal_term in fractal.wgsl).
#[inline(always)]
fn add_terms(fractal: Fractal, weight: f32, n: &[f32; LANES], sum: &mut [f32]) {
    let mut add = |term: fn(f32) -> f32| {
        for (s, &v) in sum.iter_mut().zip(n) {
            *s += weight * term(v);
        }
    };
    match fractal {
        Fractal::None | Fractal::Fbm => add(|n| n),
        Fractal::Turbulence => add(|n| n.abs()),
        Fractal::Ridged => add(|n| (1.0 - n.abs()) * (1.0 - n.abs())),
        Fractal::Billow => add(|n| 2.0 * n.abs() - 1.0),
    }
}

/// The row function of a kind in `dims` dimensions on a lattice, with Catmull-Rom value noise
/// apart (`noise_octave` in fractal.wgsl), for an available instruction set. Validation keeps
/// (kind, dims) to the listed pairs.
pub fn pick(
    (kind, dims): (Kind, u32),
    interp: Interp,
    lattice: LatticeKind,
    isa: InstructionSet,
) -> OctaveRow {
    assert!(isa.available(), "{isa:?} is not available on this CPU");
    if lattice == LatticeKind::Hash {
        pick_on::<true>(kind, dims, interp, isa)
    } else {
        pick_on::<false>(kind, dims, interp, isa)
    }
}

fn pick_on<const H: bool>(kind: Kind, dims: u32, interp: Interp, isa: InstructionSet) -> OctaveRow {
    let catmull_rom = interp == Interp::CatmullRom;
    match (kind, dims) {
        (Kind::Perlin, 1) => for_isa::<Perlin1<H>>(isa),
        (Kind::Perlin, 2) => for_isa::<Perlin2<H>>(isa),
        (Kind::Perlin, 3) => for_isa::<Perlin3<H>>(isa),
        (Kind::Perlin, _) => for_isa::<Perlin4<H>>(isa),
        (Kind::Gradient, 1) => for_isa::<Gradient1<H>>(isa),
        (Kind::Gradient, 2) => for_isa::<Gradient2<H>>(isa),
        (Kind::Gradient, _) => for_isa::<Gradient3<H>>(isa),
        (Kind::Value, 1) if catmull_rom => for_isa::<CatmullRom1<H>>(isa),
        (Kind::Value, 2) if catmull_rom => for_isa::<CatmullRom2<H>>(isa),
        (Kind::Value, 3) if catmull_rom => for_isa::<CatmullRom3<H>>(isa),
        (Kind::Value, _) if catmull_rom => for_isa::<CatmullRom4<H>>(isa),
        (Kind::Value, 1) => for_isa::<Value1<H>>(isa),
        (Kind::Value, 2) => for_isa::<Value2<H>>(isa),
        (Kind::Value, 3) => for_isa::<Value3<H>>(isa),
        (Kind::Value, _) => for_isa::<Value4<H>>(isa),
        (Kind::Simplex, 2) => for_isa::<Simplex2<H>>(isa),
        (Kind::Simplex, 3) => for_isa::<Simplex3<H>>(isa),
        (Kind::Simplex, _) => for_isa::<Simplex4<H>>(isa),
        (Kind::Cellular, 2) => for_isa::<Cellular2<H>>(isa),
        (Kind::Cellular, _) => for_isa::<Cellular3<H>>(isa),
        (Kind::SparseConvolution, 2) => for_isa::<Sparse2<H>>(isa),
        (Kind::SparseConvolution, _) => for_isa::<Sparse3<H>>(isa),
        (Kind::Gabor, _) => for_isa::<Gabor2<H>>(isa),
    }
}
