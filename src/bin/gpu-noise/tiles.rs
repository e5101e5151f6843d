//! `render --tiles N -o DIR/`: a world too big for one run, as square tiles `DIR/{x}_{y}.png`
//! (or `--tile-format`) and `DIR/index.json` (the grid, the spec, the tiles' names).
//! `--tile-range X0..X1,Y0..Y1` renders a subset, so a batch scheduler can spread one world over
//! many machines. A tile is a window of the world: rendered alone it is byte-identical to the
//! same tile of a full run and equals the same window of one big image.
//!
//! The index is written once, when a run claims the folder (atomically: of two runs into one
//! empty folder, one claims it and a different world is refused); it lists no tiles. A tile is
//! complete when its file exists and is whole (files appear only whole, renamed into place; a
//! run checks each existing tile in its range, keeps the whole ones and renders the rest), so
//! time and memory grow with the tiles in range, not with the world (CONVENTIONS §6).

use std::ops::Range;
use std::path::Path;
use std::process::ExitCode;

use gpu_noise::export::{Format, create_writer};
use gpu_noise::low_level::export::OutputFile;
use gpu_noise::{Error, Result, Size, Window};
use serde::{Deserialize, Serialize};

use crate::args::RenderArgs;
use crate::backend::Engine;
use crate::world::World;
use gpu_noise::low_level::spec_file::SpecFile;

/// The index's name in the tile folder.
pub const INDEX: &str = "index.json";
const INDEX_FORMAT: &str = "gpu-noise tile set 2";
/// The first format listed every tile of the grid; its folders are taken over (same world)
/// and their index rewritten in the current format.
const OLD_INDEX_FORMAT: &str = "gpu-noise tile set 1";
/// Most tiles in a set, each a file: 2^24 (a 1048576^2 world in 256-texel tiles).
const MAX_TILES: u64 = 1 << 24;
/// What the index says about completeness, for readers of the folder.
const COMPLETE_RULE: &str = "a tile is complete when its file exists: files appear only whole \
    (written under a temporary name, then renamed); a later run re-renders any that is not whole";

/// The tile grid over the world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    /// Tile side in texels (the last column and row may be narrower).
    pub tile: u32,
    pub columns: u32,
    pub rows: u32,
    /// The world in texels.
    pub width: u32,
    pub height: u32,
}

/// `DIR/index.json`: which world, which grid, how tiles are named. It lists no tiles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    pub format: String,
    pub spec: SpecFile,
    pub grid: Grid,
    /// The tiles' names, `{x}_{y}.EXT` (absent in the first format, where every name was
    /// listed).
    #[serde(default)]
    pub files: Option<String>,
    /// When a tile is complete.
    #[serde(default)]
    pub complete: Option<String>,
}

impl Grid {
    pub fn new(tile: u32, world: Size) -> Self {
        Self {
            tile,
            columns: world.width.div_ceil(tile),
            rows: world.height.div_ceil(tile),
            width: world.width,
            height: world.height,
        }
    }

    pub fn window(&self, x: u32, y: u32) -> Window {
        let (x0, y0) = (x * self.tile, y * self.tile);
        let w = self.tile.min(self.width - x0);
        let h = self.tile.min(self.height - y0);
        Window::new([x0, y0, 0], Size::new(w, h, 1))
    }
}

fn tile_file(x: u32, y: u32, format: Format) -> String {
    format!("{x}_{y}.{}", format.extension())
}

fn file_pattern(format: Format) -> String {
    format!("{{x}}_{{y}}.{}", format.extension())
}

/// The spec file a tile set's index records: what decides the pixels (no backend, no folder;
/// the grid and the tiles' names are recorded apart).
pub fn identity(world: &World) -> SpecFile {
    let mut effective = world.effective.clone();
    effective.output = None;
    effective.backend = None;
    effective.tiles = None;
    effective.tile_range = None;
    effective.tile_format = None;
    effective
}

pub fn run(
    args: &RenderArgs,
    layer: &SpecFile,
    world: &World,
    tile: u32,
    folder: &Path,
) -> Result<ExitCode> {
    let spec = &world.spec;
    if spec.size.depth > 1 || spec.dims == 1 {
        return Err(Error::InvalidOutput {
            field: "tiles",
            reason: "tile sets are 2D images (2 to 4 dims, depth 1)".into(),
        });
    }
    let format = tile_format(args)?;
    let grid = Grid::new(tile, spec.size);
    check_tile_count(&grid, tile)?;
    let [xs, ys] = check_range(args.tile_range.clone(), &grid)?;
    prepare_folder(folder)?;
    let index = Index {
        format: INDEX_FORMAT.into(),
        spec: identity(world),
        grid: grid.clone(),
        files: Some(file_pattern(format)),
        complete: Some(COMPLETE_RULE.into()),
    };
    claim_folder(folder, &index)?;
    let options = crate::stream::export_options(layer, spec, format)?;
    let in_range = ys.clone().flat_map(|y| xs.clone().map(move |x| (x, y)));
    let (kept, todo): (Vec<_>, Vec<_>) = in_range.partition(|&(x, y)| {
        let path = folder.join(tile_file(x, y, format));
        gpu_noise::low_level::export::is_whole(&path, grid.window(x, y).size, format)
    });
    let texels: u64 = todo.iter().map(|&(x, y)| grid.window(x, y).texels()).sum();
    let (mut engine, built) = engine_for(&todo, layer, world)?;
    let start = std::time::Instant::now();
    let samples = texels * world.samples_per_texel();
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "tiles");
    for &(x, y) in &todo {
        let window = grid.window(x, y);
        let path = folder.join(tile_file(x, y, format));
        let writer = create_writer(&path, window.size, &options)?;
        crate::stream::stream(&mut engine, &world.job, window, writer, &bar)?;
    }
    bar.finish_and_clear();
    status!(
        "gpu-noise: wrote {} tiles and kept {} already complete, of {} ({}x{} texels each, {}) \
         in {} in {} on {}{}",
        todo.len(),
        kept.len(),
        u64::from(grid.columns) * u64::from(grid.rows),
        tile,
        tile,
        format.extension(),
        folder.display(),
        crate::seconds(start.elapsed()),
        engine.name(),
        crate::stream::built_first(built)
    );
    Ok(ExitCode::SUCCESS)
}

/// The engine for the tiles (or Zarr chunks) still `todo`, its pipelines built first (and how
/// long that took): none is opened, and no adapter named, when every one is complete.
pub fn engine_for(
    todo: &[(u32, u32)],
    layer: &SpecFile,
    world: &World,
) -> Result<(Engine, Option<std::time::Duration>)> {
    let mut engine = if todo.is_empty() {
        Engine::Cpu
    } else {
        Engine::open(layer.backend.unwrap_or_default(), &world.job)?
    };
    let built = engine.prepare(&world.job)?;
    Ok((engine, built))
}

/// Each tile is a file: past [`MAX_TILES`] the set is refused, naming the tile side that
/// would fit.
fn check_tile_count(grid: &Grid, tile: u32) -> Result<()> {
    let count = u64::from(grid.columns) * u64::from(grid.rows);
    if count <= MAX_TILES {
        return Ok(());
    }
    let area = u64::from(grid.width) * u64::from(grid.height);
    let side = ((area as f64 / MAX_TILES as f64).sqrt().ceil() as u64).next_power_of_two();
    Err(Error::InvalidOutput {
        field: "tiles",
        reason: format!(
            "{tile}-texel tiles make {} x {} = {count} files, more than the limit of {MAX_TILES} \
             (2^24); use tiles of {side} texels or more",
            grid.columns, grid.rows
        ),
    })
}

fn tile_format(args: &RenderArgs) -> Result<Format> {
    let ext = args.tile_format.as_deref().unwrap_or("png");
    let format =
        Format::from_path(Path::new(&format!("tile.{ext}"))).map_err(|_| Error::InvalidOutput {
            field: "tile_format",
            reason: format!("{ext:?} is not one of png, exr, tif, f32, npy"),
        })?;
    if format == Format::Csv {
        return Err(Error::InvalidOutput {
            field: "tile_format",
            reason: "csv is for 1D profiles; tiles are png, exr, tif, f32 or npy".into(),
        });
    }
    Ok(format)
}

/// The tiles (or Zarr chunks) to render: the range given (inside the grid), or every tile.
pub fn check_range(range: Option<[Range<u32>; 2]>, grid: &Grid) -> Result<[Range<u32>; 2]> {
    let Some([xs, ys]) = range else {
        return Ok([0..grid.columns, 0..grid.rows]);
    };
    if xs.end > grid.columns || ys.end > grid.rows {
        return Err(Error::InvalidOutput {
            field: "tile_range",
            reason: format!(
                "{}..{},{}..{} reaches outside the grid of {} x {} tiles (columns 0..{}, rows \
                 0..{})",
                xs.start,
                xs.end,
                ys.start,
                ys.end,
                grid.columns,
                grid.rows,
                grid.columns,
                grid.rows
            ),
        });
    }
    Ok([xs, ys])
}

/// The folder exists (it is created if missing) and is a folder.
fn prepare_folder(folder: &Path) -> Result<()> {
    if gpu_noise::low_level::export::is_slice_pattern(folder) {
        return Err(Error::InvalidSpec {
            field: "output",
            reason: format!(
                "{}: {{k}} numbers the slices of a volume; a tile set goes into a folder (-o DIR/)",
                folder.display()
            ),
        });
    }
    if folder.exists() && !folder.is_dir() {
        return Err(Error::InvalidSpec {
            field: "output",
            reason: format!(
                "{} is a file; tile sets go into a folder (-o DIR/)",
                folder.display()
            ),
        });
    }
    std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))
}

fn read_index(folder: &Path) -> Result<Option<Index>> {
    let path = folder.join(INDEX);
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| Error::InvalidSpec {
                field: "output",
                reason: format!("{} is not a tile index: {e}", path.display()),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Claims the folder for this world: writes the index if there is none (exclusively, so two
/// runs into one empty folder cannot both write theirs); if there is one, it must describe the
/// same world, grid and tile names. An index of the first format is rewritten in this one.
fn claim_folder(folder: &Path, index: &Index) -> Result<()> {
    let path = folder.join(INDEX);
    if write_index(&path, index, true)? {
        return Ok(());
    }
    let Some(existing) = read_index(folder)? else {
        // Removed between the two steps: claim it again.
        return claim_folder(folder, index);
    };
    let same_names = existing.files.is_none() || existing.files == index.files;
    if existing.spec != index.spec || existing.grid != index.grid || !same_names {
        return Err(Error::InvalidSpec {
            field: "output",
            reason: format!(
                "{} holds another tile set (a different spec, grid or tile format); use another \
                 folder",
                folder.display()
            ),
        });
    }
    if existing.format == OLD_INDEX_FORMAT {
        write_index(&path, index, false)?;
    }
    Ok(())
}

/// Writes the index atomically: only if absent (`exclusive`; returns whether it did), or in
/// place of the old one.
fn write_index(path: &Path, index: &Index, exclusive: bool) -> Result<bool> {
    let text = serde_json::to_string_pretty(index).unwrap_or_default();
    let file = OutputFile::create(path)?;
    let mut sink = file.sink()?;
    std::io::Write::write_all(&mut sink, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    drop(sink);
    if exclusive {
        file.commit_if_absent()
    } else {
        file.commit().map(|()| true)
    }
}
