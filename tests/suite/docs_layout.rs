//! The book's architecture page names what is there: each entry of its Layout has a path that
//! exists, and each file name its description gives (`record.rs`) is a file under that entry's
//! folder, so the map cannot drift from the tree unnoticed. And every chapter holding Rust
//! examples is compiled as doctests.

use std::path::{Path, PathBuf};

/// The Layout block: its `text` fence after `## Layout`.
fn layout_block(readme: &str) -> &str {
    let start = readme
        .find("## Layout")
        .expect("docs/architecture.md has a Layout section");
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
fn the_architecture_pages_layout_names_what_is_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("docs/architecture.md")).expect("the page");
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

/// Every Markdown file of the README and the book that holds a Rust block is included by
/// `src/lib.rs` as doctests (`#[doc = include_str!(...)]`), so a chapter's examples compile.
#[test]
fn every_page_with_rust_examples_is_compiled_as_doctests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
    {
        if entry.path().extension() == Some("md".as_ref()) {
            pages.push(entry.path());
        }
    }
    let mut with_rust = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        if text.lines().any(|line| line.starts_with("```rust")) {
            with_rust.push(page.strip_prefix(root).expect("under the root").to_owned());
        }
    }
    assert!(
        with_rust.len() >= 4,
        "{with_rust:?}: the README and three chapters at least"
    );
    let missing: Vec<_> = with_rust
        .iter()
        .filter(|page| !lib.contains(&format!("include_str!(\"../{}\")", page.display())))
        .collect();
    assert!(
        missing.is_empty(),
        "Rust examples not compiled: {missing:?}"
    );
}

/// The README's relative links and pictures (`docs/cli.md`, `docs/gallery/perlin-2d.png`) name
/// files that exist: the book's links are LinkChecker's (`.ci/book`), the front page's are
/// checked here.
#[test]
fn the_readmes_links_name_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let targets: Vec<&str> = readme
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|target| !target.starts_with("http") && !target.starts_with('#'))
        .map(|target| target.split('#').next().unwrap_or(target))
        .collect();
    assert!(targets.len() > 30, "{} links read", targets.len());
    let missing: Vec<&&str> = targets
        .iter()
        .filter(|target| !root.join(target).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "the README links to nothing: {missing:?}"
    );
}
