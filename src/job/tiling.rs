//! Graph-level tiling (CONVENTIONS §5, §13): an image of a graph repeats with its size when
//! every noise in it tiles with that period, each on its own lattice. Each noise instance's
//! map must be axis-aligned on the tiled axes (translations and scales, no rotation) and give
//! a whole number of cells over the image's span on each; its kind must tile. A warp keeps the
//! period when its displacements tile too (they are noise instances, checked alike). A
//! coordinate never repeats. Any other graph is refused naming the node.

use crate::error::Result;
use crate::graph::plan::{Plan, Step};
use crate::graph::read::graph_error;
use crate::spec::Size;
use crate::spec::tiling::whole_cells;

/// The axes an image of `dims`-dimensional noise repeats along: x, y, and z for volumes (as a
/// flat spec's `tiled_axes`).
fn tiled_axes(dims: usize, size: Size) -> usize {
    match dims {
        1 => 1,
        2 => 2,
        _ if size.depth > 1 => 3,
        _ => 2,
    }
}

/// Each noise instance's period in cells per axis (0 where the axis does not wrap) for an
/// image of `size`, or an error naming the node that does not tile; `name(step)` is the node
/// a step belongs to.
pub(super) fn graph_periods(
    plan: &Plan,
    size: Size,
    name: &dyn Fn(usize) -> String,
) -> Result<Vec<[i64; 4]>> {
    let dims = plan.dims;
    let spans = [size.width, size.height, size.depth];
    let mut periods = vec![[0i64; 4]; plan.instances.len()];
    for (step, s) in plan.steps.iter().enumerate() {
        let refuse = |reason: String| Err(graph_error(&name(step), "tile", reason));
        let instance = match s {
            Step::Noise { instance, .. } => *instance,
            Step::Coordinate { .. } => {
                return refuse("a coordinate never repeats, so the graph does not tile".into());
            }
            _ => continue,
        };
        let inst = &plan.instances[instance];
        if !inst.kind.tiles() {
            return refuse(format!(
                "{} noise does not tile (CONVENTIONS §5), so the graph does not tile",
                inst.kind
            ));
        }
        let map = &inst.points.map;
        let rotated = (0..dims).any(|a| (0..dims).any(|b| a != b && map[a][b] != 0.0));
        if rotated {
            return refuse(
                "is rotated (or sheared) here; only translations and axis-aligned scales keep a \
                 tiling period"
                    .into(),
            );
        }
        for a in 0..tiled_axes(dims, size) {
            let cells = map[a][a].abs() * f64::from(spans[a]);
            match whole_cells(cells) {
                Some(whole) => periods[instance][a] = whole,
                None => {
                    return refuse(format!(
                        "spans {cells} lattice cells along {} of the {}-texel image (frequency \
                         times the scales and lacunarity above it); tiling needs a whole number \
                         >= 1",
                        ["x", "y", "z"][a],
                        spans[a]
                    ));
                }
            }
        }
    }
    Ok(periods)
}
