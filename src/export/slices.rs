//! A volume as a sequence of PNG slices: `-o DIR/slice_{k}.png` writes one file per z. The
//! sequence is all or nothing: finished slices wait under temporary names and are renamed
//! together once the last is finished ([`CommitGroup`]); a failure or a signal before that
//! leaves no slice.

use std::path::{Path, PathBuf};

use super::atomic::{CommitGroup, OutputFile};
use super::png::PngWriter;
use super::{ExportOptions, ImageWriter};
use crate::error::{Error, Result};
use crate::spec::Size;

/// Whether a path is a slice pattern: it holds `{k` (`{k}`, `{k:0N}`; any other form is
/// refused by [`slice_path`] with the forms allowed).
pub fn is_slice_pattern(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.contains("{k"))
}

/// The path of slice `k` under `pattern`: every `{k}` is k, every `{k:0N}` k in N digits.
pub fn slice_path(pattern: &Path, k: u32) -> Result<PathBuf> {
    let mut rest = pattern.to_str().ok_or_else(|| bad_pattern(pattern))?;
    let mut out = String::new();
    while let Some(at) = rest.find("{k") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let close = after.find('}').ok_or_else(|| bad_pattern(pattern))?;
        let format = &after[..close];
        match format.strip_prefix(":0") {
            None if format.is_empty() => out.push_str(&k.to_string()),
            Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                let width: usize = digits.parse().map_err(|_| bad_pattern(pattern))?;
                out.push_str(&format!("{k:0width$}"));
            }
            _ => return Err(bad_pattern(pattern)),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(PathBuf::from(out))
}

fn bad_pattern(pattern: &Path) -> Error {
    Error::output(
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
    /// The finished slices, renamed together at the end.
    group: CommitGroup,
    texels_in_slice: u64,
    /// Slices written so far (the next slice's number).
    done: u32,
}

impl SliceWriter {
    /// Checks the pattern and creates the first slice's file now (so a missing folder fails
    /// before any work).
    pub fn new(pattern: &Path, size: Size, options: &ExportOptions) -> Result<Self> {
        let group = CommitGroup::new();
        let first = OutputFile::create_in(&slice_path(pattern, 0)?, &group)?;
        Ok(Self {
            group,
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
            _ => OutputFile::create_in(&slice_path(&self.pattern, k)?, &self.group)?,
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
        self.group.clone().commit_all()
    }
}
