//! The crate's modules form layers: no module reaches, through `crate::` or `super::` paths in
//! its code, a module that reaches back to it, at any depth (top-level modules and every file
//! below them). Comments (doc links included) and `#[cfg(test)]` modules do not count: they
//! compile no dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every library module of `src/` (not the binaries): its path (`gpu::record`) and file.
fn modules() -> BTreeMap<String, PathBuf> {
    modules_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every module of the tool (`src/bin/gpu-noise`, whose `main.rs` is its crate root).
fn tool_modules() -> BTreeMap<String, PathBuf> {
    modules_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/gpu-noise"))
}

/// The modules of the crate rooted at `root` (a `lib.rs` or `main.rs` there): each one's path
/// and file, skipping the binaries' folder `bin`.
fn modules_under(root: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                if path.file_name() != Some("bin".as_ref()) {
                    stack.push(path);
                }
                continue;
            }
            if path.extension() != Some("rs".as_ref()) {
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .expect("under the crate's root")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert(parts.join("::"), path);
        }
    }
    out
}

/// A file's code: up to its `#[cfg(test)] mod`, without `//` comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a readable source file");
    let text = text.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
    text.lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths in `code` that start at `crate::` or `super::`, as module-path segments seen from
/// module `from` (a file's `super` is its parent module).
fn referenced_paths(code: &str, from: &str) -> Vec<Vec<String>> {
    let own: Vec<&str> = from.split("::").filter(|s| !s.is_empty()).collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut previous = ' ';
    for (start, c) in code.char_indices() {
        // A path's first segment: not inside a word, not after `::` (`super::super::` is one
        // path).
        let first = !(is_ident(previous) || previous == ':');
        previous = c;
        if !first {
            continue;
        }
        // The identifiers joined by `::` from here.
        let mut segments = Vec::new();
        let mut rest = &code[start..];
        loop {
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            segments.push(&rest[..end]);
            match rest[end..].strip_prefix("::") {
                Some(next) => rest = next,
                None => break,
            }
        }
        let mut path: Vec<String> = match segments.first() {
            Some(&"crate") => Vec::new(),
            Some(&"super") => own[..own.len().saturating_sub(1)]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            _ => continue,
        };
        let mut tail = &segments[1..];
        while tail.first() == Some(&"super") {
            path.pop();
            tail = &tail[1..];
        }
        path.extend(tail.iter().map(|s| s.to_string()));
        out.push(path);
    }
    out
}

/// The module that a path names: its longest prefix that is a module.
fn module_of(path: &[String], modules: &BTreeMap<String, PathBuf>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains_key(m))
}

/// Module -> the modules it reaches (not itself, not its own ancestors: `super::x` inside a
/// module names its parent's items).
fn edges(modules: &BTreeMap<String, PathBuf>, depth: usize) -> BTreeMap<String, BTreeSet<String>> {
    let cut = |m: &str| m.split("::").take(depth).collect::<Vec<_>>().join("::");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, path) in modules {
        if name.is_empty() {
            continue;
        }
        let from = cut(name);
        for p in referenced_paths(&code(path), name) {
            let Some(to) = module_of(&p, modules).filter(|t| !t.is_empty()) else {
                continue;
            };
            let to = cut(&to);
            let ancestor = from == to || from.starts_with(&format!("{to}::"));
            if !ancestor {
                out.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    out
}

/// A cycle through the edges, if there is one (depth-first search).
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|start| visit(start, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_top_level_modules_form_layers() {
    let modules = modules();
    let top = edges(&modules, 1);
    // The reader sees real edges: the backends sit on the job, the job on the graph.
    assert!(
        top["gpu"].contains("job") && top["job"].contains("graph"),
        "{top:?}"
    );
    if let Some(cycle) = find_cycle(&top) {
        panic!(
            "import cycle between top-level modules: {}",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn no_module_at_any_depth_reaches_back_to_itself() {
    let modules = modules();
    let all = edges(&modules, usize::MAX);
    assert!(
        all["gpu::record"].contains("gpu::program"),
        "{:?}",
        all["gpu::record"]
    );
    if let Some(cycle) = find_cycle(&all) {
        panic!("import cycle: {}", cycle.join(" -> "));
    }
}

/// The tool's modules form layers too: a command's module reaches the shared ones (`args`,
/// `backend`, `world`, `progress`), never another command's nor back up.
#[test]
fn the_tools_modules_form_layers() {
    let modules = tool_modules();
    let all = edges(&modules, usize::MAX);
    assert!(all["render"].contains("backend"), "{:?}", all.get("render"));
    for depth in [1, usize::MAX] {
        if let Some(cycle) = find_cycle(&edges(&modules, depth)) {
            panic!("import cycle in the tool: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_reader_finds_a_cycle_where_there_is_one() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(
        find_cycle(&edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let paths = referenced_paths("use super::super::x::Y; crate::kinds::Kind", "a::b::c");
    assert_eq!(paths[0], ["a", "x", "Y"]);
    assert_eq!(paths[1], ["kinds", "Kind"]);
}

/// The names `src/lib.rs` makes public at the crate root: its `pub mod`s and what its `pub use`s
/// bring in (`pub use a::{B, C}` is two names).
fn root_items() -> Vec<String> {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let text = code(&lib);
    let mut names = Vec::new();
    for statement in text.split(';') {
        let statement = statement.trim();
        let Some(rest) = statement
            .rfind("pub ")
            .map(|at| &statement[at + 4..])
            .filter(|rest| rest.starts_with("mod ") || rest.starts_with("use "))
        else {
            continue;
        };
        let body = &rest[4..];
        let listed = match (body.find('{'), body.rfind('}')) {
            (Some(open), Some(close)) => &body[open + 1..close],
            _ => body.rsplit("::").next().unwrap_or(body),
        };
        names.extend(
            listed
                .split(',')
                .map(|name| name.trim().to_string())
                .filter(|name| !name.is_empty()),
        );
    }
    names
}

/// The front fits on one screen (as vello's root, 17 items): about 20 names at the root, the
/// rest under `gpu`, `spec`, `graph` and `low_level`. A new root item is a decision, not drift.
#[test]
fn the_crate_root_stays_small() {
    let names = root_items();
    for expected in [
        "Renderer",
        "Job",
        "NoiseSpec",
        "low_level",
        "gpu",
        "spec",
        "wgpu",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    for moved in [
        "limits",
        "tolerance",
        "spec_file",
        "Target",
        "RendererOptions",
        "Interp",
    ] {
        assert!(
            !names.iter().any(|n| n == moved),
            "{moved} is back at the root: {names:?}"
        );
    }
    assert!(names.len() <= 21, "{} root items: {names:?}", names.len());
}

/// The public methods of `type_name`'s inherent impls anywhere in `src/` (`pub fn` and `pub
/// async fn` one level inside an `impl Type {` block), by name.
fn inherent_public_methods(type_name: &str) -> Vec<String> {
    let opening = format!("impl {type_name} {{");
    let mut names = Vec::new();
    for path in modules().values() {
        let text = code(path);
        for block in text.split(&opening).skip(1) {
            let body = block.split("\n}").next().unwrap_or_default();
            for line in body.lines() {
                let signature = line
                    .strip_prefix("    pub fn ")
                    .or_else(|| line.strip_prefix("    pub async fn "));
                if let Some(rest) = signature {
                    let name = rest.split(['(', '<']).next().unwrap_or(rest);
                    names.push(name.to_string());
                }
            }
        }
    }
    names.sort();
    names
}

/// `Renderer`'s own methods are the ones a game or plugin calls (vello's renderer has 8); what
/// the tool, the benchmarks and the tests need is `low_level::gpu::LowLevelRenderer`'s.
#[test]
fn the_renderer_shows_at_most_ten_methods() {
    let names = inherent_public_methods("Renderer");
    for expected in ["new", "open", "record", "read", "read_async"] {
        assert!(
            names.iter().any(|n| n == expected),
            "Renderer::{expected} missing from {names:?}"
        );
    }
    assert!(names.len() <= 10, "{} methods: {names:?}", names.len());
}

/// The words of `code` (identifiers).
fn words(code: &str) -> BTreeSet<&str> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// `CamelCase` of a file stem (`smooth_min` -> `SmoothMin`).
fn camel(stem: &str) -> String {
    stem.split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

/// A modifier or combiner node type is one row (issue "the house, round 3"): its Rust type is
/// named in no library file but its own and its family's list (`graph/modifiers/mod.rs`,
/// `graph/combiners/mod.rs`), and the WGSL functions its snippet declares are called from no
/// other shader file: adding one touches its file, its WGSL and one line of the list.
#[test]
fn a_modifier_or_combiner_lives_in_its_own_files() {
    for family in ["modifiers", "combiners"] {
        let strays = strays_of(family);
        assert!(
            strays.is_empty(),
            "named outside their own files: {strays:?}"
        );
    }
}

/// Whether `code` names the node type `type_name` of `family`: as the family enum's variant
/// (`Modifier::Terrace`), or in a statement that reaches into the family's module
/// (`use crate::graph::modifiers::Terrace`), where a bare word like `Add` is the std trait.
fn names_member(code: &str, family: &str, type_name: &str) -> bool {
    let variant = format!("{}::{type_name}", camel(family.trim_end_matches('s')));
    let reaches = |statement: &&str| statement.contains(&format!("{family}::"));
    code.contains(&variant)
        || (code.split(';'))
            .filter(reaches)
            .any(|statement| words(statement).contains(type_name))
}

/// The names of `family`'s node types found outside their own files.
fn strays_of(family: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let modules = modules();
    let folder = root.join(format!("src/graph/{family}"));
    let list = folder.join("mod.rs");
    let mut stems: Vec<String> = std::fs::read_dir(&folder)
        .expect("the family's folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != &list)
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    stems.sort();
    assert!(stems.len() >= 7, "{stems:?}");
    let folders = [
        "shaders/graph",
        "shaders/graph/modifiers",
        "shaders/graph/combiners",
        "shaders/kernels",
        "shaders/noise",
    ];
    let shaders: Vec<PathBuf> = folders
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root.join(d))
                .expect("a shader folder")
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension() == Some("wgsl".as_ref()))
        .collect();
    let mut strays = Vec::new();
    for stem in &stems {
        let own = folder.join(format!("{stem}.rs"));
        let type_name = camel(stem);
        for path in modules.values().filter(|p| **p != own && **p != list) {
            if names_member(&code(path), family, &type_name) {
                strays.push(format!("{type_name} in {}", path.display()));
            }
        }
        let snippet = root.join(format!("shaders/graph/{family}/{stem}.wgsl"));
        let Ok(text) = std::fs::read_to_string(&snippet) else {
            continue;
        };
        let declared: Vec<&str> = (text.lines())
            .filter_map(|l| l.strip_prefix("fn "))
            .filter_map(|l| l.split('(').next())
            .collect();
        for path in shaders.iter().filter(|p| **p != snippet) {
            let other = code(path);
            for name in declared.iter().filter(|n| words(&other).contains(*n)) {
                strays.push(format!("{name} in {}", path.display()));
            }
        }
    }
    strays
}

/// Small files that each own one idea: no source file of the library or the tool passes 500
/// lines (the ones past 400 hold one idea each: the CLI's grammar, a graph's expansion, the
/// lanes' points, the programs, the SIMD plan).
#[test]
fn no_source_file_passes_500_lines() {
    let mut long: Vec<String> = modules()
        .values()
        .chain(tool_modules().values())
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path).ok()?.lines().count();
            (lines > 500).then(|| format!("{} ({lines})", path.display()))
        })
        .collect();
    long.sort();
    assert!(long.is_empty(), "split these: {long:?}");
}

/// A kind's own parameters live in its folder (issue "the house, round 3"): each family of
/// `own_params!` (`src/kinds/mod.rs`) keeps its three types (as given, derived, GPU state), their
/// fields and their names in `src/kinds/<family>/`; no other library, tool or shader file names
/// the types, reaches into the composites' member (`.cellular.`), or spells a parameter's name
/// (`"jitter"`). Adding a family with parameters touches its folder and one line of the list.
#[test]
fn a_kinds_own_parameters_live_in_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = root.join("src/kinds/mod.rs");
    let families = own_params_families(&code(&list));
    assert!(families.len() >= 2, "{families:?}");
    let mut files: Vec<PathBuf> = modules().into_values().collect();
    files.extend(tool_modules().into_values());
    files.extend(files_with_extension(&root.join("shaders"), "wgsl"));
    files.extend(files_with_extension(&root.join("src/kinds"), "wgsl"));
    let mut strays = Vec::new();
    for (family, types) in &families {
        let folder = root.join("src/kinds").join(family);
        let names = param_names(&std::fs::read_to_string(folder.join("params.rs")).unwrap());
        assert!(!names.is_empty(), "{family}: FIELDS names no parameter");
        for path in files.iter().filter(|p| !p.starts_with(&folder)) {
            let text = code(path);
            // The list names the types and re-exports from the family's module; nothing else.
            let listed = (types.iter().cloned()).chain([format!("{family}::params")]);
            let reached = [format!(".{family}.")].into_iter();
            let spelled = names.iter().map(|n| format!("\"{n}\""));
            let needles: Vec<String> = if **path == list {
                reached.chain(spelled).collect()
            } else {
                listed.chain(reached).chain(spelled).collect()
            };
            let found = needles.into_iter().filter(|n| {
                let word = n.chars().all(|c| c.is_alphanumeric() || c == '_');
                if word {
                    words(&text).contains(n.as_str())
                } else {
                    text.contains(n.as_str())
                }
            });
            strays.extend(found.map(|n| format!("{n} in {}", path.display())));
        }
    }
    assert!(
        strays.is_empty(),
        "outside their family's folder: {strays:?}"
    );
}

/// The lines of `own_params!` in `kinds/mod.rs`: `family: Fields, Params, State;`.
fn own_params_families(list: &str) -> Vec<(String, Vec<String>)> {
    let body = list
        .split("own_params! {")
        .nth(1)
        .expect("the own_params! list");
    let body = body.split('}').next().unwrap_or_default();
    (body.split(';'))
        .filter_map(|line| line.split_once(':'))
        .map(|(family, types)| {
            let types = types.split(',').map(|t| t.trim().to_string()).collect();
            (family.trim().to_string(), types)
        })
        .collect()
}

/// The parameter names a family's `params.rs` gives its rows (`kind_field!("jitter", ..)` or
/// `name: "gabor_orientation"`).
fn param_names(params: &str) -> Vec<String> {
    ["kind_field!(\"", "name: \""]
        .iter()
        .flat_map(|opening| params.split(opening).skip(1))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

/// Every file under `dir` (at any depth) with extension `ext`.
fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for path in std::fs::read_dir(&dir)
            .expect("readable")
            .flatten()
            .map(|e| e.path())
        {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension() == Some(ext.as_ref()) {
                out.push(path);
            }
        }
    }
    out
}
