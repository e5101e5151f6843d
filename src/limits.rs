//! Every limit the library enforces, in one place (each is also stated where it is checked,
//! and in docs/CONVENTIONS.md).

pub use crate::colormap::MAX_STOPS;
pub use crate::fixed::MAX_CELL;
pub use crate::graph::bound::MAX_DISPLACEMENT_CELLS;
pub use crate::graph::read::MAX_NAME;
pub use crate::graph::{MAX_DEPTH, MAX_GRAPH_BYTES, MAX_NODES, MAX_STEPS};
pub use crate::job::MAX_LOD;
pub use crate::kinds::impulse::{
    MAX_DENSITY, MAX_GABOR_BANDWIDTH, MAX_GABOR_FREQUENCY, MIN_GABOR_BANDWIDTH,
};
pub use crate::kinds::param::{MAX_FREQUENCY, MAX_OCTAVE_SCALE};
pub use crate::kinds::{MAX_IMPULSES, MAX_OCTAVES};
pub use crate::spec::sizes::{MAX_COORD, MAX_SIDE, MAX_TEXELS, MAX_WORLD_TEXELS};
pub use crate::spec::validate::{MAX_OFFSET, MIN_OCTAVE_FREQUENCY};
