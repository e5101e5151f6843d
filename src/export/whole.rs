//! Is a file on disk a whole image of a given size? Files this crate writes appear only whole
//! (renamed into place when complete), but anything can truncate or empty them afterwards; a
//! tile set that resumes keeps a tile only when this says yes (CONVENTIONS §6). Raw formats are
//! checked by their exact length (and `.npy` header); PNG, OpenEXR and TIFF are decoded in full,
//! since a cut compressed stream can keep an intact header.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::Format;
use super::raw::npy_header;
use crate::spec::Size;

/// Whether `path` holds a whole 2D image of `size` in `format`.
pub fn is_whole(path: &Path, size: Size, format: Format) -> bool {
    let (w, h) = (size.width as usize, size.height as usize);
    let data = (w * h * 4) as u64;
    match format {
        Format::F32 => file_len(path) == Some(data),
        Format::Npy => {
            let header = npy_header(&[h, w]);
            file_len(path) == Some(header.len() as u64 + data) && starts_with(path, &header)
        }
        Format::Png => png_is_whole(path, size),
        Format::Exr => exr_is_whole(path, size),
        Format::Tiff => tiff_is_whole(path, size),
        Format::Csv => false,
    }
}

fn file_len(path: &Path) -> Option<u64> {
    std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

fn starts_with(path: &Path, expected: &[u8]) -> bool {
    let mut head = vec![0; expected.len()];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == expected
}

fn png_is_whole(path: &Path, size: Size) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let Ok(mut reader) = png::Decoder::new(BufReader::new(file)).read_info() else {
        return false;
    };
    let Some(bytes) = reader.output_buffer_size() else {
        return false;
    };
    let mut buffer = vec![0; bytes];
    match reader.next_frame(&mut buffer) {
        Ok(info) => (info.width, info.height) == (size.width, size.height),
        Err(_) => false,
    }
}

fn exr_is_whole(path: &Path, size: Size) -> bool {
    use exr::prelude::*;
    let image = read()
        .no_deep_data()
        .largest_resolution_level()
        .all_channels()
        .first_valid_layer()
        .all_attributes()
        .pedantic()
        .from_file(path);
    matches!(image, Ok(image)
        if image.layer_data.size == Vec2(size.width as usize, size.height as usize))
}

fn tiff_is_whole(path: &Path, size: Size) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let Ok(mut decoder) = tiff::decoder::Decoder::new(BufReader::new(file)) else {
        return false;
    };
    decoder.dimensions().ok() == Some((size.width, size.height)) && decoder.read_image().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{ExportOptions, write_image};
    use crate::spec::{Kind, NoiseSpec};

    /// Every format: a fresh file is whole; the same file cut short, emptied, or checked
    /// against another size is not.
    #[test]
    fn whole_files_pass_and_cut_or_resized_ones_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let size = Size::new(40, 24, 1);
        let mut spec = NoiseSpec::new(Kind::Perlin, 2);
        spec.size = size;
        let prepared = spec.validate().unwrap();
        let image = crate::cpu::render_f32(&prepared).unwrap();
        let options = ExportOptions::for_spec(&spec);
        for (name, format) in [
            ("a.png", Format::Png),
            ("a.exr", Format::Exr),
            ("a.tif", Format::Tiff),
            ("a.f32", Format::F32),
            ("a.npy", Format::Npy),
        ] {
            let path = dir.path().join(name);
            write_image(&path, &image, size, format, &options).unwrap();
            assert!(is_whole(&path, size, format), "{name}");
            assert!(
                !is_whole(&path, Size::new(40, 23, 1), format),
                "{name} resized"
            );
            let len = std::fs::metadata(&path).unwrap().len();
            let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.set_len(len - 7).unwrap();
            assert!(!is_whole(&path, size, format), "{name} cut by 7 bytes");
            file.set_len(0).unwrap();
            assert!(!is_whole(&path, size, format), "{name} emptied");
        }
        assert!(!is_whole(&dir.path().join("none.png"), size, Format::Png));
    }
}
