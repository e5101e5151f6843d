//! Chunks of a streamed world (CONVENTIONS §1): a terrain engine's tiles at any chunk
//! coordinate and level of detail. A chunk is a [`Job`] placed at its first texel with texels
//! `2^lod` apart, so every backend and target renders it unchanged, and every chunk's texels
//! are exactly the world's texels.

use super::Job;
use crate::error::{Error, Result};
use crate::spec::{MAX_SIDE, Size};

/// Most levels of detail: texels at most 2^32 world texels apart.
pub const MAX_LOD: u32 = 32;

/// One chunk of the world of a prepared spec. Chunk `(cx, cy, cz)` of `size` at level `lod`
/// holds `size + 1` texels per axis; its texel `(i, j, k)` is the world's texel
/// `((cx size + i) 2^lod, (cy size + j) 2^lod, (cz size + k) 2^lod)` (the world's offset and
/// frequency apply as to any image). So neighbours at the same level share their border texels
/// bit for bit, and a chunk at level L holds every 2^L-th texel of level 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// Chunk coordinates (x, y, z); for a 2D chunk of 3D or 4D noise, z picks the slice
    /// `cz size 2^lod`.
    pub coords: [i64; 3],
    /// Texel steps between the chunk's borders (a mesh's quads per side): it holds `size + 1`
    /// texels per axis.
    pub size: u32,
    /// Level of detail: texels `2^lod` world texels apart.
    pub lod: u32,
    /// A volume of `size + 1` slices (3D and 4D noise) instead of one slice.
    pub volume: bool,
}

impl Chunk {
    /// A 2D chunk (a row of `size + 1` texels for 1D noise).
    pub fn new(coords: [i64; 3], size: u32, lod: u32) -> Self {
        Self {
            coords,
            size,
            lod,
            volume: false,
        }
    }

    /// A 3D chunk of a 3D or 4D noise.
    pub fn volume(coords: [i64; 3], size: u32, lod: u32) -> Self {
        Self {
            volume: true,
            ..Self::new(coords, size, lod)
        }
    }

    /// The world texel of the chunk's texel (0, 0, 0), or `None` past i64.
    pub fn first_texel(&self) -> Option<[i64; 3]> {
        let span = i64::from(self.size).checked_mul(1i64.checked_shl(self.lod)?)?;
        let mut t = [0i64; 3];
        for (v, c) in t.iter_mut().zip(self.coords) {
            *v = c.checked_mul(span)?;
        }
        Some(t)
    }

    /// The chunk's texels for noise of `dims`: `size + 1` along each axis it spans.
    pub fn extent(&self, dims: u32) -> Size {
        let n = self.size + 1;
        Size::new(
            n,
            if dims >= 2 { n } else { 1 },
            if self.volume { n } else { 1 },
        )
    }

    fn check(&self, dims: u32) -> Result<()> {
        let bad = |field, reason: String| Err(chunk_error(field, reason));
        if self.size == 0 || self.size >= MAX_SIDE {
            return bad(
                "size",
                format!("must be in 1..{MAX_SIDE} texels, got {}", self.size),
            );
        }
        if self.lod > MAX_LOD {
            return bad("lod", format!("must be in 0..={MAX_LOD}, got {}", self.lod));
        }
        if self.volume && dims < 3 {
            return bad(
                "volume",
                format!("a volume chunk needs 3 or 4 dims, got {dims}"),
            );
        }
        Ok(())
    }
}

impl Job {
    /// The job of one chunk of this job's world: the same noise, its image the chunk's
    /// texels, counted from this job's texel (0, 0, 0) in this job's texels. Render it with any
    /// backend and target. An error names `chunk` when the chunk is malformed or its lattice
    /// coordinates pass 2^62 cells.
    pub fn chunk(&self, chunk: &Chunk) -> Result<Job> {
        chunk.check(self.dims())?;
        let far = |what: &str| {
            chunk_error(
                "coords",
                format!(
                    "chunk {:?} at lod {}: its {what} passes 2^62 lattice cells",
                    chunk.coords, chunk.lod
                ),
            )
        };
        let t0 = chunk.first_texel().ok_or_else(|| far("first texel"))?;
        let place = self
            .placement()
            .moved(t0.map(i128::from), chunk.lod)
            .ok_or_else(|| far("first texel"))?;
        let size = chunk.extent(self.dims());
        let mut job = Job::placed(
            std::sync::Arc::clone(&self.world),
            size,
            place,
            std::sync::Arc::clone(&self.periods),
        )
        .map_err(|_| far("last texel"))?;
        job.gradient = self.gradient;
        job.chunk = true;
        if let Some(spec) = self.spec() {
            let mut spec = spec.clone();
            spec.size = size;
            job = job.with_spec(spec);
        }
        Ok(job)
    }
}

pub(super) fn chunk_error(field: &'static str, reason: String) -> Error {
    Error::InvalidChunk { field, reason }
}
