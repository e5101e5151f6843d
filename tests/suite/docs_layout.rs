//! The README's Layout names what is there: each entry's path exists, and each file name its
//! description gives (`record.rs`) is a file under that entry's folder, so the map cannot
//! drift from the tree unnoticed.

use std::path::{Path, PathBuf};

/// The Layout block: its `text` fence after `## Layout`.
fn layout_block(readme: &str) -> &str {
    let start = readme
        .find("## Layout")
        .expect("README has a Layout section");
    let fence = readme[start..].find("```text\n").expect("a text block") + start + 8;
    let end = readme[fence..].find("```").expect("the block ends") + fence;
    &readme[fence..end]
}

/// Entries: the paths at the start of a line (`src/lib.rs, limits.rs, low_level.rs` is three)
/// and the description that follows, continuation lines included.
fn entries(block: &str) -> Vec<(Vec<String>, String)> {
    let mut out: Vec<(Vec<String>, String)> = Vec::new();
    for line in block.lines() {
        if line.starts_with(' ') {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
            continue;
        }
        let (head, description) = line.split_once("  ").unwrap_or((line, ""));
        let mut paths: Vec<String> = Vec::new();
        for part in head.split(", ") {
            let part = part.trim();
            // `limits.rs` after `src/lib.rs` sits beside it.
            let path = match (paths.first(), part.contains('/')) {
                (Some(first), false) => Path::new(first)
                    .parent()
                    .map_or(part.to_string(), |dir| dir.join(part).display().to_string()),
                _ => part.to_string(),
            };
            paths.push(path);
        }
        out.push((paths, description.trim().to_string()));
    }
    out
}

/// Whether a file called `name` is anywhere under `dir`.
fn has_file(dir: &Path, name: &str) -> bool {
    let Ok(read) = std::fs::read_dir(dir) else {
        return false;
    };
    read.flatten().any(|entry| {
        let path: PathBuf = entry.path();
        path.file_name() == Some(name.as_ref()) || (path.is_dir() && has_file(&path, name))
    })
}

/// The `name.rs` words of a description (`host.rs:` or `(record.rs` included).
fn file_names(description: &str) -> Vec<String> {
    description
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '/'))
        .filter(|word| {
            word.len() > 3 && word.ends_with(".rs") && !word.starts_with('.') && !word.contains('/')
        })
        .map(String::from)
        .collect()
}

#[test]
fn the_readmes_layout_names_what_is_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let entries = entries(layout_block(&readme));
    assert!(entries.len() > 20, "{} entries read", entries.len());
    let mut missing = Vec::new();
    for (paths, description) in &entries {
        for path in paths {
            if !root.join(path).exists() {
                missing.push(format!("{path} (an entry)"));
            }
        }
        let folder = paths.iter().find(|p| p.ends_with('/'));
        for name in file_names(description) {
            if let Some(folder) = folder.filter(|f| !has_file(&root.join(f), &name)) {
                missing.push(format!("{name} (named under {folder})"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the Layout names what is not there: {missing:?}"
    );
}

#[test]
fn the_layout_reader_sees_a_missing_file() {
    let block = "src/gpu/                 Renderer (host.rs: readback)\nsrc/lib.rs, limits.rs    the front\n";
    let read = entries(block);
    assert_eq!(read[1].0, ["src/lib.rs", "src/limits.rs"]);
    assert_eq!(file_names(&read[0].1), ["host.rs"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(!has_file(&root.join("src/gpu"), "host.rs"));
    assert!(has_file(&root.join("src/gpu"), "readback.rs"));
}
