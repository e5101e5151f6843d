//! A volume as a sequence of PNG slices: `-o DIR/slice_{k}.png` writes one file per z, each
//! atomic. Slices already written when something fails stay (each is complete); the slice in
//! progress leaves nothing.

use std::path::{Path, PathBuf};

use super::atomic::OutputFile;
use super::png::PngWriter;
use super::{ExportOptions, ImageWriter};
use crate::error::{Error, Result};
use crate::spec::Size;

/// The placeholder a slice path holds: `{k}`, or `{k:0N}` for N zero-padded digits.
pub fn is_slice_pattern(path: &Path) -> bool {
    path.to_str()
        .is_some_and(|p| p.contains("{k}") || p.contains("{k:0"))
}

/// The path of slice `k` under `pattern`.
pub fn slice_path(pattern: &Path, k: u32) -> Result<PathBuf> {
    let text = pattern.to_str().unwrap_or_default();
    if let Some(at) = text.find("{k:0") {
        let rest = &text[at + 4..];
        let close = rest.find('}').ok_or_else(|| bad_pattern(pattern))?;
        let width: usize = rest[..close].parse().map_err(|_| bad_pattern(pattern))?;
        return Ok(PathBuf::from(format!(
            "{}{k:0width$}{}",
            &text[..at],
            &rest[close + 1..]
        )));
    }
    Ok(PathBuf::from(text.replacen("{k}", &k.to_string(), 1)))
}

fn bad_pattern(pattern: &Path) -> Error {
    Error::invalid(
        "output",
        format!(
            "{}: write the slice number as {{k}} or {{k:04}}",
            pattern.display()
        ),
    )
}

pub(super) struct SliceWriter {
    pattern: PathBuf,
    slice: Size,
    options: ExportOptions,
    current: Option<(u32, Box<dyn ImageWriter>)>,
    first: Option<OutputFile>,
    texels_in_slice: u64,
    /// Slices written so far (the next slice's number).
    done: u32,
}

impl SliceWriter {
    /// Checks the pattern and creates the first slice's file now (so a missing folder fails
    /// before any work).
    pub fn new(pattern: &Path, size: Size, options: &ExportOptions) -> Result<Self> {
        let first = OutputFile::create(&slice_path(pattern, 0)?)?;
        Ok(Self {
            pattern: pattern.to_path_buf(),
            slice: Size::new(size.width, size.height, 1),
            options: options.clone(),
            current: None,
            first: Some(first),
            texels_in_slice: 0,
            done: 0,
        })
    }

    fn open(&mut self, k: u32) -> Result<Box<dyn ImageWriter>> {
        let file = match self.first.take() {
            Some(file) if k == 0 => file,
            _ => OutputFile::create(&slice_path(&self.pattern, k)?)?,
        };
        Ok(Box::new(PngWriter::new(file, self.slice, &self.options)?))
    }
}

impl ImageWriter for SliceWriter {
    fn write_rows(&mut self, mut values: &[f32]) -> Result<()> {
        let per_slice = self.slice.texels();
        while !values.is_empty() {
            if self.current.is_none() {
                let k = self.done;
                self.current = Some((k, self.open(k)?));
            }
            let take = ((per_slice - self.texels_in_slice) as usize).min(values.len());
            if let Some((_, writer)) = self.current.as_mut() {
                writer.write_rows(&values[..take])?;
            }
            values = &values[take..];
            self.texels_in_slice += take as u64;
            if self.texels_in_slice == per_slice {
                if let Some((k, writer)) = self.current.take() {
                    writer.finish()?;
                    self.done = k + 1;
                }
                self.texels_in_slice = 0;
            }
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        if self.current.is_some() {
            return Err(Error::Encode {
                format: "PNG slices",
                reason: "the volume ended inside a slice".into(),
            });
        }
        Ok(())
    }
}
