//! The page's 3D view: the current image as a heightmap surface, every `stride`-th texel of
//! it (at most `max_side` vertices a side), with the CPU twin's value and analytic partial
//! derivatives there (CONVENTIONS §12, §13), so the page lights the mesh by the library's own
//! normals, not finite differences.

use gpu_noise::low_level::spec_file::SpecFile;
use gpu_noise::{Error, cpu};
use wasm_bindgen::prelude::*;

use crate::js_error;

/// A grid of vertices over the image: `columns x rows`, vertex (i, j) at image texel
/// (i stride, j stride); per vertex `[value, d/dx, d/dy]` along the image's texel axes.
#[wasm_bindgen]
pub struct Surface {
    columns: u32,
    rows: u32,
    stride: u32,
    samples: Vec<f32>,
}

impl Surface {
    pub(crate) fn new(columns: u32, rows: u32, stride: u32, samples: Vec<f32>) -> Self {
        Self {
            columns,
            rows,
            stride,
            samples,
        }
    }
}

#[wasm_bindgen]
impl Surface {
    #[wasm_bindgen(getter)]
    pub fn columns(&self) -> u32 {
        self.columns
    }

    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Image texels between neighbouring vertices.
    #[wasm_bindgen(getter)]
    pub fn stride(&self) -> u32 {
        self.stride
    }

    /// `[value, d/dx, d/dy]` a vertex, row by row (a copy for JavaScript).
    pub fn samples(&self) -> Vec<f32> {
        self.samples.clone()
    }
}

/// The surface of a spec (a spec file's JSON; its channels setting does not matter): a 2D
/// image, or a slice of a 3D one, of a spec whose kinds and nodes have derivatives.
#[wasm_bindgen]
pub fn surface(spec_json: String, max_side: u32) -> Result<Surface, JsError> {
    let mut file = SpecFile::from_json(&spec_json).map_err(js_error)?;
    file.channels = None;
    let (job, image) = match file.graph().map_err(js_error)? {
        Some(graph) => file.place_graph(graph).map_err(js_error)?,
        None => {
            let image = file.noise_spec().map_err(js_error)?;
            (image.validate().map_err(js_error)?, image)
        }
    };
    let size = image.size;
    if image.dims < 2 || size.height < 2 {
        return Err(js_error(Error::InvalidSpec {
            field: "size",
            reason: "the 3D view shows 2D images (a 1D profile has no surface)".into(),
        }));
    }
    let job = job.with_gradient().map_err(js_error)?;
    let stride = size.width.max(size.height).div_ceil(max_side.max(2)).max(1);
    let (columns, rows) = (size.width.div_ceil(stride), size.height.div_ceil(stride));
    let offset = image.offset;
    let points: Vec<[f64; 4]> = (0..rows)
        .flat_map(|j| (0..columns).map(move |i| (i, j)))
        .map(|(i, j)| {
            let mut p = offset;
            p[0] += f64::from(i * stride);
            p[1] += f64::from(j * stride);
            p
        })
        .collect();
    let duals = cpu::sample_texels_gradient(&job, &points).map_err(js_error)?;
    let samples = duals
        .iter()
        .flat_map(|d| [d[0] as f32, d[1] as f32, d[2] as f32])
        .collect();
    Ok(Surface {
        columns,
        rows,
        stride,
        samples,
    })
}
