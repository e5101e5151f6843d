//! `render --tiles N -o DIR/`: a world too big for one run, as square tiles `DIR/{x}_{y}.png`
//! (or `--tile-format`) and `DIR/index.json` (the grid, the spec, which tiles are complete).
//! `--tile-range X0..X1,Y0..Y1` renders a subset, so a batch scheduler can spread one world over
//! many machines. A tile is a window of the world: rendered alone it is byte-identical to the
//! same tile of a full run and equals the same window of one big image.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gpu_noise::export::{Format, OutputFile, create_writer};
use gpu_noise::{Error, NoiseSpec, Prepared, PreparedGraph, Result, Size, Window};
use serde::{Deserialize, Serialize};

use crate::args::RenderArgs;
use crate::backend::Engine;
use crate::spec_file::SpecFile;

/// The index's name in the tile folder.
pub const INDEX: &str = "index.json";
const INDEX_FORMAT: &str = "gpu-noise tile set 1";

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

/// One tile as the index lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileEntry {
    pub x: u32,
    pub y: u32,
    /// The world texels it covers: [x0, y0, width, height].
    pub window: [u32; 4],
    pub file: String,
    pub complete: bool,
}

/// `DIR/index.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Index {
    pub format: String,
    pub spec: SpecFile,
    pub grid: Grid,
    pub tiles: Vec<TileEntry>,
}

impl Grid {
    fn new(tile: u32, world: Size) -> Self {
        Self {
            tile,
            columns: world.width.div_ceil(tile),
            rows: world.height.div_ceil(tile),
            width: world.width,
            height: world.height,
        }
    }

    fn window(&self, x: u32, y: u32) -> Window {
        let (x0, y0) = (x * self.tile, y * self.tile);
        let w = self.tile.min(self.width - x0);
        let h = self.tile.min(self.height - y0);
        Window::new([x0, y0, 0], Size::new(w, h, 1))
    }
}

fn tile_file(x: u32, y: u32, format: Format) -> String {
    format!("{x}_{y}.{}", format.extension())
}

/// What a tile set renders: one kind's spec, or a graph (with the image's spec and the spec
/// file that identifies it).
pub enum World<'a> {
    Flat(&'a Prepared),
    Graph {
        prepared: &'a PreparedGraph,
        spec: &'a NoiseSpec,
        effective: Box<SpecFile>,
    },
}

impl World<'_> {
    /// The image spec: size, dims, and the levels' defaults.
    fn spec(&self) -> &NoiseSpec {
        match self {
            World::Flat(p) => p.spec(),
            World::Graph { spec, .. } => spec,
        }
    }

    /// The spec file the index records: what decides the pixels (no backend, no folder).
    fn identity(&self, layer: &SpecFile) -> SpecFile {
        let mut effective = match self {
            World::Flat(p) => layer.effective(p.spec()),
            World::Graph { effective, .. } => (**effective).clone(),
        };
        effective.output = None;
        effective.backend = None;
        effective
    }

    /// Samples per texel, for the progress bar's rate.
    fn samples_per_texel(&self) -> u64 {
        match self {
            World::Flat(p) => u64::from(p.spec().octaves),
            World::Graph { prepared, .. } => prepared.noise_evaluations() as u64,
        }
    }

    fn open_engine(&self, choice: crate::backend::BackendChoice) -> Result<Engine> {
        let (engine, notice) = match self {
            World::Flat(p) => Engine::open(choice, p.spec())?,
            World::Graph { .. } => crate::graph::open_engine(choice)?,
        };
        if let Some(notice) = notice {
            eprintln!("gpu-noise: {notice}");
        }
        Ok(engine)
    }

    fn stream(
        &self,
        engine: &mut Engine,
        window: Window,
        writer: Box<dyn gpu_noise::export::ImageWriter>,
        bar: &indicatif::ProgressBar,
    ) -> Result<()> {
        match self {
            World::Flat(p) => crate::render::stream(engine, p, window, writer, bar),
            World::Graph { prepared, .. } => {
                crate::graph::stream(engine, prepared, window, writer, bar)
            }
        }
    }
}

pub fn run(
    args: &RenderArgs,
    layer: &SpecFile,
    world: &World,
    tile: u32,
    folder: &Path,
) -> Result<ExitCode> {
    let spec = world.spec();
    if spec.size.depth > 1 || spec.dims == 1 {
        return Err(Error::InvalidSpec {
            field: "tiles",
            reason: "tile sets are 2D images (2 to 4 dims, depth 1)".into(),
        });
    }
    let format = tile_format(args)?;
    let grid = Grid::new(tile, spec.size);
    let [xs, ys] = check_range(args.tile_range.clone(), &grid)?;
    prepare_folder(folder)?;
    let effective = world.identity(layer);
    check_existing_index(folder, &effective, &grid)?;
    let options = crate::render::export_options(layer, spec, format)?;
    let todo: Vec<(u32, u32)> = ys
        .clone()
        .flat_map(|y| xs.clone().map(move |x| (x, y)))
        .collect();
    let texels: u64 = todo.iter().map(|&(x, y)| grid.window(x, y).texels()).sum();
    let mut engine = if todo.is_empty() {
        Engine::Cpu
    } else {
        world.open_engine(layer.backend.unwrap_or_default())?
    };
    let samples = texels * world.samples_per_texel();
    let bar = crate::progress::texel_bar(texels, samples, args.quiet, "tiles");
    for &(x, y) in &todo {
        let window = grid.window(x, y);
        let path = folder.join(tile_file(x, y, format));
        let writer = create_writer(&path, window.size, &options)?;
        world.stream(&mut engine, window, writer, &bar)?;
        write_index(folder, &effective, &grid, format)?;
    }
    write_index(folder, &effective, &grid, format)?;
    bar.finish_and_clear();
    eprintln!(
        "gpu-noise: wrote {} of {} tiles ({}x{} texels each, {}) to {} on {}",
        todo.len(),
        grid.columns * grid.rows,
        tile,
        tile,
        format.extension(),
        folder.display(),
        engine.name()
    );
    Ok(ExitCode::SUCCESS)
}

fn tile_format(args: &RenderArgs) -> Result<Format> {
    let ext = args.tile_format.as_deref().unwrap_or("png");
    let format =
        Format::from_path(Path::new(&format!("tile.{ext}"))).map_err(|_| Error::InvalidSpec {
            field: "tile_format",
            reason: format!("{ext:?} is not one of png, exr, tif, f32, npy"),
        })?;
    if format == Format::Csv {
        return Err(Error::InvalidSpec {
            field: "tile_format",
            reason: "csv is for 1D profiles; tiles are png, exr, tif, f32 or npy".into(),
        });
    }
    Ok(format)
}

/// The tiles to render: the range given (inside the grid), or every tile.
fn check_range(range: Option<[Range<u32>; 2]>, grid: &Grid) -> Result<[Range<u32>; 2]> {
    let Some([xs, ys]) = range else {
        return Ok([0..grid.columns, 0..grid.rows]);
    };
    if xs.end > grid.columns || ys.end > grid.rows {
        return Err(Error::InvalidSpec {
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

/// A folder already holding a tile set must hold this one: same spec, same grid.
fn check_existing_index(folder: &Path, spec: &SpecFile, grid: &Grid) -> Result<()> {
    match read_index(folder)? {
        Some(index) if index.spec != *spec || index.grid != *grid => Err(Error::InvalidSpec {
            field: "output",
            reason: format!(
                "{} holds another tile set (a different spec or grid); use another folder",
                folder.display()
            ),
        }),
        _ => Ok(()),
    }
}

/// Writes `index.json` atomically; a tile is complete when its file exists (tile files appear
/// only whole, renamed into place), whichever run or machine wrote it.
fn write_index(folder: &Path, spec: &SpecFile, grid: &Grid, format: Format) -> Result<()> {
    let mut tiles = Vec::new();
    for y in 0..grid.rows {
        for x in 0..grid.columns {
            let w = grid.window(x, y);
            let file = tile_file(x, y, format);
            tiles.push(TileEntry {
                x,
                y,
                window: [w.origin[0], w.origin[1], w.size.width, w.size.height],
                complete: folder.join(&file).is_file(),
                file,
            });
        }
    }
    let index = Index {
        format: INDEX_FORMAT.into(),
        spec: spec.clone(),
        grid: grid.clone(),
        tiles,
    };
    let text = serde_json::to_string_pretty(&index).unwrap_or_default();
    let path: PathBuf = folder.join(INDEX);
    let file = OutputFile::create(&path)?;
    let mut sink = file.sink()?;
    std::io::Write::write_all(&mut sink, text.as_bytes()).map_err(|e| Error::io(&path, e))?;
    drop(sink);
    file.commit()
}
