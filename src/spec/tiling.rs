//! Tiling periods (CONVENTIONS §5): with `tile`, axis a repeats every `frequency * span_a *
//! lacunarity^k` cells at octave k, which must be whole at every octave.

use super::NoiseSpec;
use crate::error::{Error, Result};

/// Candidates the fix-it search tries around the requested cell count.
const SUGGESTION_SEARCH: u32 = 1 << 14;

impl NoiseSpec {
    /// The axes an image repeats along with `tile`: x, y, and z only for volumes (a 2D slice of
    /// 3D noise does not wrap in z; w never wraps).
    pub fn tiled_axes(&self) -> usize {
        match self.dims {
            1 => 1,
            2 => 2,
            _ if self.size.depth > 1 => 3,
            _ => 2,
        }
    }

    fn spans(&self) -> [u32; 3] {
        [self.size.width, self.size.height, self.size.depth]
    }

    /// Per-octave period in lattice cells for each axis, 0 where the axis does not wrap.
    pub(crate) fn tiling_periods(&self) -> Result<Vec<[i64; 4]>> {
        let mut periods = vec![[0i64; 4]; self.octaves as usize];
        if !self.tile {
            return Ok(periods);
        }
        let spans = self.spans();
        for axis in 0..self.tiled_axes() {
            let cells0 = self.frequency * f64::from(spans[axis]);
            for (k, octave) in periods.iter_mut().enumerate() {
                let cells = cells0 * self.lacunarity.powi(k as i32);
                match whole_cells(cells) {
                    Some(whole) => octave[axis] = whole,
                    None => {
                        return Err(Error::invalid(
                            "tile",
                            format!(
                                "the period along {} is frequency x {} x lacunarity^{k} = {cells} \
                                 cells at octave {k}; it must be a whole number >= 1 at every \
                                 octave ({})",
                                ["x", "y", "z"][axis],
                                spans[axis],
                                self.tiling_fix_it()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(periods)
    }

    /// A frequency near the requested one that tiles on every tiled axis at every octave, or
    /// advice when none is close (a lacunarity like 2.1 needs 10^(octaves-1) cells).
    fn tiling_fix_it(&self) -> String {
        let spans = self.spans();
        let axes = self.tiled_axes();
        let tiles = |frequency: f64| {
            (0..axes).all(|a| {
                (0..self.octaves).all(|k| {
                    let cells = frequency * f64::from(spans[a]) * self.lacunarity.powi(k as i32);
                    whole_cells(cells).is_some()
                })
            })
        };
        let wanted = (self.frequency * f64::from(spans[0])).round().max(1.0) as i64;
        for step in 0..SUGGESTION_SEARCH as i64 {
            for cells in [wanted + step, wanted - step] {
                let frequency = cells as f64 / f64::from(spans[0]);
                if cells >= 1 && tiles(frequency) {
                    return format!("e.g. frequency {frequency}");
                }
            }
        }
        format!(
            "no frequency near {} tiles with lacunarity {} over {} octaves; use a whole-number \
             lacunarity such as 2",
            self.frequency, self.lacunarity, self.octaves
        )
    }
}

/// `cells` as a whole number >= 1 when it is one (to 1e-9 relative), else `None`.
pub(crate) fn whole_cells(cells: f64) -> Option<i64> {
    let whole = cells.round();
    let close = (cells - whole).abs() <= 1e-9 * whole;
    ((1.0..1e15).contains(&whole) && close).then_some(whole as i64)
}
