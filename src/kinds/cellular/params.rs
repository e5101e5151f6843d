//! Cellular noise's own parameters, in the three forms every backend reads: as given
//! ([`CellularFields`]: jitter, metric, return; their rows in [`FIELDS`]), what they derive in
//! f64 for the twin ([`CellularParams`]: the search and the scales, CONVENTIONS §9), and that
//! rounded to f32 for the GPU and the SIMD lanes ([`CellularState`], `struct CellularState` in
//! cellular.wgsl). The kinds' composites (`KindFields`, `KindParams`, `KindState`) hold one of
//! each under the name `cellular` (`own_params!` in `kinds/own.rs`).

use bytemuck::{Pod, Zeroable};

use crate::kinds::fields::{KindField, kind_field};
use crate::kinds::own::WgslAccessor;
use crate::kinds::{CellReturn, Distance, Kind};
use crate::layout::host_struct;

/// Cellular noise's own parameters, as given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellularFields {
    /// How far feature points stray from their cell's center, 0..=1.
    pub jitter: f64,
    /// The distance metric.
    pub distance: Distance,
    /// What the noise returns.
    pub cell_return: CellReturn,
}

impl CellularFields {
    /// The defaults (the same for every kind).
    pub fn defaults(_: Kind) -> Self {
        Self {
            jitter: 1.0,
            distance: Distance::Euclidean,
            cell_return: CellReturn::F1,
        }
    }
}

/// The rows of cellular's own parameters: name (the kind row's `Param`), the spec field an
/// error names, and how each is read and written in a kind's fields.
pub(crate) static FIELDS: &[KindField] = &[
    kind_field!("jitter", cellular.jitter, number),
    kind_field!("distance", cellular.distance, name),
    kind_field!("return", cellular.cell_return, name),
];

/// What cellular noise derives from its fields, in f64 (CONVENTIONS §9).
#[derive(Clone, Debug, PartialEq)]
pub struct CellularParams {
    /// Feature-point jitter, 0..=1.
    pub jitter: f64,
    /// The metric.
    pub distance: Distance,
    /// What is returned.
    pub cell_return: CellReturn,
    /// Cells searched on each side of the point's cell (2, or 3 for 3D Manhattan).
    pub cell_search: i64,
    /// Cells whose nearest corner is at least this far (in the metric's internal units:
    /// squared for the Euclidean metrics) cannot hold F1 or F2 and are skipped.
    pub cell_bound: f64,
    /// Distances are divided by this metric's typical reach before scaling.
    pub distance_scale: f64,
    /// `2 / s` for the returned quantity (output = q * return_scale - 1).
    pub return_scale: f64,
}

/// Cellular distances are divided by this before scaling: about the 99.9th percentile of F1
/// for one uniformly jittered point per cell (docs/CONVENTIONS.md §9 gives the measurement).
fn cellular_distance_norm(distance: Distance, dims: u32) -> f64 {
    match (distance, dims) {
        (Distance::Euclidean | Distance::EuclideanSquared, _) => 1.0,
        (Distance::Manhattan, 2) => 1.25,
        (Distance::Manhattan, _) => 1.5,
        (Distance::Chebyshev, 2) => 0.875,
        (Distance::Chebyshev, _) => 0.8,
    }
}

/// `s` of `2 q / s - 1` for each returned quantity of normalized distances: about its 99.9th
/// percentile for one uniformly jittered point per cell (squared distances spread wider).
fn cellular_return_span(cell_return: CellReturn, distance: Distance) -> f64 {
    let squared = distance == Distance::EuclideanSquared;
    match (cell_return, squared) {
        (CellReturn::F2, false) => 1.2,
        (CellReturn::F2, true) => 1.4,
        (CellReturn::F2MinusF1, true) => 1.2,
        _ => 1.0,
    }
}

/// The sup over points of the second-nearest feature point's largest possible distance, with
/// one point anywhere in each cell: a cell whose nearest corner is farther cannot matter.
fn cellular_bound(distance: Distance, dims: u32) -> (i64, f64) {
    match (distance, dims) {
        (Distance::Euclidean | Distance::EuclideanSquared, 2) => (2, 1.59 * 1.59),
        (Distance::Euclidean | Distance::EuclideanSquared, _) => (2, 1.74 * 1.74),
        (Distance::Manhattan, 2) => (2, 2.0),
        (Distance::Manhattan, _) => (3, 3.0),
        (Distance::Chebyshev, _) => (2, 1.5),
    }
}

impl CellularParams {
    /// What cellular noise in `dims` dimensions derives from its (valid) fields.
    pub fn new(_: Kind, dims: u32, fields: &CellularFields) -> Self {
        let (cell_search, cell_bound) = cellular_bound(fields.distance, dims);
        let norm = cellular_distance_norm(fields.distance, dims);
        let distance_scale = match fields.distance {
            Distance::EuclideanSquared => 1.0 / (norm * norm),
            _ => 1.0 / norm,
        };
        Self {
            jitter: fields.jitter,
            distance: fields.distance,
            cell_return: fields.cell_return,
            cell_search,
            cell_bound,
            distance_scale,
            return_scale: 2.0 / cellular_return_span(fields.cell_return, fields.distance),
        }
    }
}

host_struct! {
    /// Cellular's parameters as the GPU and the SIMD lanes read them (`struct CellularState`
    /// in cellular.wgsl): [`CellularParams`] rounded to f32, codes as u32.
    #[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
    pub struct CellularState as "CellularState" {
        /// Jitter.
        pub jitter: f32,
        /// Distance scale.
        pub distance_scale: f32,
        /// Return scale.
        pub return_scale: f32,
        /// Search bound (internal metric units).
        pub cell_bound: f32,
        /// `Distance` code.
        pub distance: u32,
        /// `CellReturn` code.
        pub cell_return: u32,
        /// Cells searched on each side.
        pub cell_search: i32,
        /// Padding to 16 bytes (a uniform's struct member starts on 16).
        pub _pad: u32,
    }
}

impl CellularState {
    /// The GPU's view of `params`.
    pub fn new(params: &CellularParams) -> Self {
        Self {
            jitter: params.jitter as f32,
            distance_scale: params.distance_scale as f32,
            return_scale: params.return_scale as f32,
            cell_bound: params.cell_bound as f32,
            distance: params.distance as u32,
            cell_return: params.cell_return as u32,
            cell_search: params.cell_search as i32,
            _pad: 0,
        }
    }
}

/// Cellular's jitter, read alone in WGSL (`kind_jitter`): it is needed per feature point, and
/// a copy of the whole state there can cost more than the point.
pub(crate) static WGSL_ACCESSORS: &[WgslAccessor] = &[WgslAccessor {
    signature: "kind_jitter(lat: Lattice)",
    returns: "f32",
    member: "cellular.jitter",
}];
