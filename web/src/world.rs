//! The page's endless 3D world: chunks of a spec's world (`Job::chunk`: chunk (cx, cy) of
//! `size` at level `lod` holds `size + 1` texels a side, `2^lod` world texels apart, neighbours
//! sharing their borders bit for bit), each with its values and analytic slopes for a mesh
//! around a fly camera. Rendered on the SIMD lanes, so a chunk's values are the tool's
//! `--backend simd` texels.

use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Chunk, Error, Job, Window, cpu};
use wasm_bindgen::prelude::*;

use crate::engine::lanes_window;
use crate::iso::surface_nets;
use crate::js_error;
use crate::surface::Surface;

/// Chunk coordinates the page may ask for: whole numbers a JavaScript number holds exactly.
const MAX_COORD: f64 = 9_007_199_254_740_991.0;

/// Chunk `(cx, cy)` of `size` at level `lod` of the world of a spec (a spec file's JSON, as
/// [`crate::surface`] takes it; for 3D noise, the slice at the spec's own z): a surface of
/// `size + 1` vertices a side, `2^lod` texels apart, each `[value, d/dx, d/dy]` with the
/// slopes per chunk texel (divide by `2^lod` for world texels).
#[wasm_bindgen]
pub fn world_chunk(
    spec_json: String,
    cx: f64,
    cy: f64,
    size: u32,
    lod: u32,
) -> Result<Surface, JsError> {
    let [cx, cy] = [whole("cx", cx)?, whole("cy", cy)?];
    let job = world_of(&spec_json)?
        .chunk(&Chunk::new([cx, cy, 0], size, lod))
        .and_then(|job| job.with_gradient())
        .map_err(js_error)?;
    let texels = lanes_window(&job, Window::full(job.size())).map_err(js_error)?;
    let channels = cpu::channels(&job);
    let samples = texels
        .chunks_exact(channels)
        .flat_map(|t| [t[0], t[1], t[2]])
        .collect();
    Ok(Surface::new(size + 1, size + 1, 1 << lod.min(31), samples))
}

/// A chunk coordinate from JavaScript: a whole number within +-2^53.
fn whole(name: &str, c: f64) -> Result<i64, JsError> {
    if c.fract() != 0.0 || c.abs() > MAX_COORD {
        return Err(js_error(Error::InvalidChunk {
            field: "coords",
            reason: format!("{name} {c} is not a whole number within +-2^53"),
        }));
    }
    Ok(c as i64)
}

/// The iso-surface of one block of a 3D spec's world, where its values cross `level`: surface
/// nets over the spec's image (a spec file's JSON whose `size` is `(S + 2)^3` texels: the
/// block's `S^3` cells and one more layer on each far side, so that neighbouring blocks,
/// `S` texels apart, mesh every edge between them once and meet exactly).
#[wasm_bindgen]
pub struct IsoMesh {
    positions: Vec<f32>,
    indices: Vec<u32>,
    quads: u32,
}

impl IsoMesh {
    pub(crate) fn new(positions: Vec<f32>, indices: Vec<u32>, quads: u32) -> Self {
        Self {
            positions,
            indices,
            quads,
        }
    }
}

#[wasm_bindgen]
impl IsoMesh {
    /// Vertex positions `[x, y, z]` in the block's texels (image axes x, y, z).
    pub fn positions(&self) -> Vec<f32> {
        self.positions.clone()
    }

    /// Triangles, two a quad, wound so that the values above `level` lie behind them.
    pub fn indices(&self) -> Vec<u32> {
        self.indices.clone()
    }

    /// Quads: the block's grid edges whose ends lie on both sides of the level.
    #[wasm_bindgen(getter)]
    pub fn quads(&self) -> u32 {
        self.quads
    }
}

/// The iso-surface of the spec's volume image at `level` (see [`IsoMesh`]), its values on the
/// SIMD lanes (the tool's `--backend simd` texels).
#[wasm_bindgen]
pub fn iso_mesh(spec_json: String, level: f64) -> Result<IsoMesh, JsError> {
    let job = world_of(&spec_json)?;
    let size = job.size();
    let n = size.width as usize;
    if size.height as usize != n || size.depth as usize != n || !(3..=130).contains(&n) {
        return Err(js_error(Error::InvalidSpec {
            field: "size",
            reason: format!(
                "an iso-surface block is a cube of 3 to 130 texels a side, got {}x{}x{}",
                size.width, size.height, size.depth
            ),
        }));
    }
    let values = lanes_window(&job, Window::full(size)).map_err(js_error)?;
    Ok(surface_nets(&values, n, level as f32))
}

/// The job of a spec file's JSON (a graph placed in its image, as `gpu-noise render --spec`
/// does), its channels setting left out: the values are what the 3D world shows.
fn world_of(spec_json: &str) -> Result<Job, JsError> {
    let mut file = SpecFile::from_json(spec_json).map_err(js_error)?;
    file.channels = None;
    match file.graph().map_err(js_error)? {
        Some(graph) => Ok(file.place_graph(graph).map_err(js_error)?.0),
        None => file
            .noise_spec()
            .and_then(|image| image.validate())
            .map_err(js_error),
    }
}
