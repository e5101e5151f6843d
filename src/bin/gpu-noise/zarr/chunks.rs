//! The store's chunk grid: squares of `--tiles N` texels over an image, cubes over a volume,
//! each no larger than the image along any axis (a chunk is a piece of the image, as a tile
//! is: `--tiles 100000` on a 64x64 image is one 64x64 chunk, where a padded square asked
//! 40 GB), at most [`MAX_CHUNK_VALUES`] values, and walked lazily: a planet's 2^32 chunks
//! are never listed.

use std::ops::Range;
use std::path::{Path, PathBuf};

use gpu_noise::{Error, Result, Size, Window};

use crate::tiles::Grid;

/// Most values in one chunk (256 MiB of float32): each is encoded whole in memory. An image's
/// chunks go up to 8192 texels a side, a volume's cubes up to 406.
pub const MAX_CHUNK_VALUES: u64 = 1 << 26;

pub struct Chunks {
    pub grid: Grid,
    pub side: u32,
    depth: u32,
    /// Chunks along z: 1 for an image.
    layers: u32,
}

impl Chunks {
    /// The grid of `side`-texel chunks over an image of `size`, refused naming `--tiles` when
    /// one chunk would hold more than [`MAX_CHUNK_VALUES`].
    pub fn new(side: u32, size: Size) -> Result<Self> {
        let chunks = Self {
            grid: Grid::new(side, size),
            side,
            depth: size.depth,
            layers: size.depth.div_ceil(side).max(1),
        };
        let values: u64 = chunks.chunk_shape().iter().product();
        if values > MAX_CHUNK_VALUES {
            let most = if chunks.volume() { 406 } else { 8192 };
            return Err(Error::InvalidOutput {
                field: "tiles",
                reason: format!(
                    "a {side}-texel chunk of this {} holds {values} values, more than the {} \
                     (256 MiB of float32) one chunk may; use --tiles {most} or less",
                    if chunks.volume() { "volume" } else { "image" },
                    MAX_CHUNK_VALUES
                ),
            });
        }
        Ok(chunks)
    }

    pub fn volume(&self) -> bool {
        self.depth > 1
    }

    pub fn count(&self) -> u64 {
        u64::from(self.grid.columns) * u64::from(self.grid.rows) * u64::from(self.layers)
    }

    /// A chunk's extent in the array's axis order: the side, or the image's extent where that
    /// is smaller.
    fn chunk_shape(&self) -> Vec<u64> {
        let side = u64::from(self.side);
        let (w, h) = (u64::from(self.grid.width), u64::from(self.grid.height));
        let mut shape = vec![side.min(h), side.min(w)];
        if self.volume() {
            shape.insert(0, side.min(u64::from(self.depth)));
        }
        shape
    }

    /// The array's shape and chunk shape, slowest axis first.
    pub fn shapes(&self) -> (Vec<u64>, Vec<u64>) {
        let (w, h) = (u64::from(self.grid.width), u64::from(self.grid.height));
        let shape = if self.volume() {
            vec![u64::from(self.depth), h, w]
        } else {
            vec![h, w]
        };
        (shape, self.chunk_shape())
    }

    /// The chunks of columns `xs` and rows `ys`, every layer of each, in store order, one at a
    /// time.
    pub fn in_range(
        &self,
        xs: Range<u32>,
        ys: Range<u32>,
    ) -> impl Iterator<Item = [u32; 3]> + use<> {
        (0..self.layers).flat_map(move |z| {
            let xs = xs.clone();
            (ys.clone()).flat_map(move |y| xs.clone().map(move |x| [x, y, z]))
        })
    }

    /// The texels of columns `xs` and rows `ys` (every layer), without walking them.
    pub fn texels_in_range(&self, xs: &Range<u32>, ys: &Range<u32>) -> u64 {
        let span = |r: &Range<u32>, extent: u32| {
            let end = (u64::from(r.end) * u64::from(self.side)).min(u64::from(extent));
            end.saturating_sub(u64::from(r.start) * u64::from(self.side))
        };
        span(xs, self.grid.width) * span(ys, self.grid.height) * u64::from(self.depth)
    }

    /// Chunk `[x, y, z]`'s indices in the array's axis order.
    pub fn key(&self, [x, y, z]: [u32; 3]) -> Vec<u64> {
        let (x, y, z) = (u64::from(x), u64::from(y), u64::from(z));
        if self.volume() {
            vec![z, y, x]
        } else {
            vec![y, x]
        }
    }

    /// The folder of a row of chunks under the array's folder (the default key encoding,
    /// separator `/`).
    pub fn row_folder(&self, y: u32, z: u32) -> PathBuf {
        let row = Path::new("c");
        if self.volume() {
            row.join(z.to_string()).join(y.to_string())
        } else {
            row.join(y.to_string())
        }
    }

    /// The window of the world chunk `[x, y, z]` holds (smaller at the far edges).
    pub fn window(&self, [x, y, z]: [u32; 3]) -> Window {
        let plane = self.grid.window(x, y);
        let z0 = z * self.side;
        let depth = self.side.min(self.depth - z0);
        Window::new(
            [plane.origin[0], plane.origin[1], z0],
            Size::new(plane.size.width, plane.size.height, depth),
        )
    }

    /// A chunk's values: the window's rows, then NaN (the fill value) past the world's edge,
    /// as Zarr stores every chunk whole.
    pub fn padded(&self, values: &[f32], window: Window) -> Vec<f32> {
        let shape = self.chunk_shape();
        let (width, height) = (
            shape[shape.len() - 1] as usize,
            shape[shape.len() - 2] as usize,
        );
        let mut whole = vec![f32::NAN; shape.iter().product::<u64>() as usize];
        let (w, h) = (window.size.width as usize, window.size.height as usize);
        for (row, texels) in values.chunks_exact(w).enumerate() {
            let (k, j) = (row / h, row % h);
            let at = (k * height + j) * width;
            whole[at..at + w].copy_from_slice(texels);
        }
        whole
    }
}
