//! The floors the code is kept in, read from the workspace's sources as
//! text: no circle between the modules of a crate, no source file over
//! [`MAX_FILE_LINES`] lines, no function over [`MAX_FUNCTION_LINES`] lines.
//!
//! Every member of the root `Cargo.toml`'s `[workspace] members` is read:
//! its lib and its bins as separate crates, each a tree of modules from its
//! root file (see [`tree`]), whose files use each other (see [`graph`]);
//! and every `*.rs` file under its directory (`target/` and directories of
//! other packages left out) for the lengths (see [`sizes`]).
//!
//! The test (`tests/floors.rs`) holds what is still allowed and fails on
//! anything new and on anything listed that is gone ([`ratchet`]).

#![warn(missing_docs)]

pub mod graph;
pub mod sizes;
pub mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

pub use sizes::Function;

/// The most lines a source file may have.
pub const MAX_FILE_LINES: usize = 800;

/// The most lines a function may have, signature to closing brace.
pub const MAX_FUNCTION_LINES: usize = 100;

/// A workspace member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// Its name (`[package] name`).
    pub name: String,
    /// Its directory, relative to the workspace root.
    pub dir: PathBuf,
    /// Its crates: the lib's root file and each bin's, relative to the
    /// workspace root, each with how it is named in messages.
    pub crates: Vec<(String, PathBuf)>,
}

/// The directory of `start` or the nearest one above it whose `Cargo.toml`
/// has a `[workspace]`.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        let text = fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        let manifest: toml::Table = text.parse().ok()?;
        // the workspace that lists members (this crate is a workspace of
        // its own, so that its parser's features do not change the build)
        manifest.get("workspace").and_then(|w| w.get("members")).map(|_| dir.to_owned())
    })
}

/// The workspace's members, in the order `members` lists them. A lib's root
/// is `[lib] path` or `src/lib.rs`; the bins are `[[bin]]` (their `path`, or
/// `src/bin/<name>.rs`) and `src/main.rs`. A lib is named like the package,
/// a bin too when the package has no lib, else `package (bin name)`.
pub fn packages(root: &Path) -> Result<Vec<Package>, String> {
    let manifest = read_toml(&root.join("Cargo.toml"))?;
    let members = manifest
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(toml::Value::as_array)
        .ok_or("Cargo.toml: no [workspace] members")?;
    let mut packages = Vec::new();
    for member in members.iter().filter_map(toml::Value::as_str) {
        let dir = PathBuf::from(member);
        let manifest = read_toml(&root.join(&dir).join("Cargo.toml"))?;
        let name = manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            .ok_or_else(|| format!("{member}/Cargo.toml: no package name"))?
            .to_owned();
        let path_of = |t: &toml::Value| t.get("path").and_then(toml::Value::as_str).map(|p| dir.join(p));
        let exists = |p: &PathBuf| root.join(p).is_file();
        let lib = manifest.get("lib").and_then(path_of).or_else(|| Some(dir.join("src/lib.rs")).filter(exists));
        let mut bins: Vec<(String, PathBuf)> = Vec::new();
        for bin in manifest.get("bin").and_then(toml::Value::as_array).into_iter().flatten() {
            let bin_name = bin.get("name").and_then(toml::Value::as_str).unwrap_or(&name).to_owned();
            let path = path_of(bin).unwrap_or_else(|| dir.join(format!("src/bin/{bin_name}.rs")));
            bins.push((bin_name, path));
        }
        let main = dir.join("src/main.rs");
        if exists(&main) && !bins.iter().any(|(_, p)| *p == main) {
            bins.push((name.clone(), main));
        }
        let mut crates: Vec<(String, PathBuf)> = lib.iter().map(|l| (name.clone(), l.clone())).collect();
        for (bin_name, path) in bins {
            let label = if lib.is_some() { format!("{name} (bin {bin_name})") } else { name.clone() };
            crates.push((label, path));
        }
        packages.push(Package { name, dir, crates });
    }
    Ok(packages)
}

fn read_toml(path: &Path) -> Result<toml::Table, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.parse().map_err(|e| format!("{}: {e}", path.display()))
}

/// Every `*.rs` file under `dir` (relative to `root`), sorted, relative to
/// `root`; `target/`, hidden directories and directories with a
/// `Cargo.toml` of their own (other packages) are left out.
pub fn rust_files(root: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(at) = todo.pop() {
        let Ok(entries) = fs::read_dir(root.join(&at)) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = at.join(&name);
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                let nested = root.join(&path).join("Cargo.toml").is_file();
                if name != "target" && !name.starts_with('.') && !nested {
                    todo.push(path);
                }
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A circle between the files of a crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle {
    /// The crate, as [`Package::crates`] names it.
    pub krate: String,
    /// Its files, relative to the workspace root, sorted.
    pub files: Vec<String>,
    /// A closed walk through all of them, each arrow with the names making
    /// it ([`graph::walk`]).
    pub walk: String,
    /// Every edge between two of its files: `a.rs -> b.rs (X, y)`.
    pub edges: Vec<String>,
}

impl Circle {
    /// How it is listed: its files, sorted, joined by spaces.
    pub fn key(&self) -> String {
        self.files.join(" ")
    }

    /// What a developer reads: the crate, the walk, every edge.
    pub fn message(&self) -> String {
        let mut text = format!("crate {}: circle of {} files: {}", self.krate, self.files.len(), self.walk);
        for edge in &self.edges {
            let _ = write!(text, "\n      {edge}");
        }
        text
    }
}

/// The circles of one crate (a lib or a bin) whose root file is `root`.
pub fn crate_circles(krate: &str, root: &Path, read: tree::Read) -> Result<(Vec<Circle>, Vec<PathBuf>), String> {
    let tree = tree::Tree::load(root, read)?;
    let edges = graph::edges(&tree);
    let name = |f: usize| tree.files[f].display().to_string();
    let circles = graph::circles(tree.files.len(), &edges)
        .into_iter()
        .map(|component| {
            let inside: BTreeSet<usize> = component.iter().copied().collect();
            let edges_inside = edges
                .iter()
                .filter(|((from, to), _)| inside.contains(from) && inside.contains(to))
                .map(|((from, to), names)| {
                    format!(
                        "{} -> {} ({})",
                        name(*from),
                        name(*to),
                        names.iter().cloned().collect::<Vec<_>>().join(", ")
                    )
                })
                .collect();
            let mut files: Vec<String> = component.iter().map(|&f| name(f)).collect();
            files.sort();
            Circle { krate: krate.to_owned(), files, walk: graph::walk(&component, &edges, &name), edges: edges_inside }
        })
        .collect();
    Ok((circles, tree.files))
}

/// What one package is like.
#[derive(Debug, Clone)]
pub struct PackageSurvey {
    /// Its name.
    pub name: String,
    /// The lines of the files of its crates' module trees.
    pub source_lines: usize,
    /// The lines of all its `*.rs` files (tests, benches, examples too).
    pub all_lines: usize,
    /// The circles in its crates.
    pub circles: Vec<Circle>,
}

/// The whole workspace, measured.
#[derive(Debug, Clone)]
pub struct Survey {
    /// Each member, in the order of `members`.
    pub packages: Vec<PackageSurvey>,
    /// Every `*.rs` file of every member with its lines.
    pub files: Vec<(String, usize)>,
    /// Every function in those files, with its file.
    pub functions: Vec<(String, Function)>,
}

/// Reads and measures the workspace at `root`.
pub fn survey(root: &Path) -> Result<Survey, String> {
    let read = |p: &Path| fs::read_to_string(root.join(p)).ok();
    let mut survey = Survey { packages: Vec::new(), files: Vec::new(), functions: Vec::new() };
    let mut lines_of: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for package in packages(root)? {
        let mut all_lines = 0;
        for file in rust_files(root, &package.dir) {
            let text = read(&file).ok_or_else(|| format!("{}: unreadable", file.display()))?;
            let path = file.display().to_string();
            let functions = sizes::functions(&text).map_err(|e| format!("{path}:{}: {e}", e.span().start().line))?;
            survey.functions.extend(functions.into_iter().map(|f| (path.clone(), f)));
            let lines = sizes::line_count(&text);
            all_lines += lines;
            lines_of.insert(file, lines);
            survey.files.push((path, lines));
        }
        let mut circles = Vec::new();
        let mut source: BTreeSet<PathBuf> = BTreeSet::new();
        for (krate, root_file) in &package.crates {
            let (found, files) = crate_circles(krate, root_file, &read)?;
            circles.extend(found);
            source.extend(files);
        }
        let source_lines = source.iter().map(|f| lines_of.get(f).copied().unwrap_or_else(|| count(&read, f))).sum();
        survey.packages.push(PackageSurvey { name: package.name, source_lines, all_lines, circles });
    }
    Ok(survey)
}

fn count(read: tree::Read, file: &Path) -> usize {
    read(file).map_or(0, |t| sizes::line_count(&t))
}

impl Survey {
    /// Every circle: its [`Circle::key`] and [`Circle::message`].
    pub fn circles(&self) -> Vec<(String, String)> {
        self.packages.iter().flat_map(|p| &p.circles).map(|c| (c.key(), c.message())).collect()
    }

    /// The files over [`MAX_FILE_LINES`]: the path, and `path: N lines`.
    pub fn long_files(&self) -> Vec<(String, String)> {
        let long = self.files.iter().filter(|(_, lines)| *lines > MAX_FILE_LINES);
        long.map(|(path, lines)| (path.clone(), format!("{path}: {lines} lines"))).collect()
    }

    /// The functions over [`MAX_FUNCTION_LINES`]: `path fn name`, and
    /// `path:line fn name: N lines`.
    pub fn long_functions(&self) -> Vec<(String, String)> {
        let long = self.functions.iter().filter(|(_, f)| f.lines > MAX_FUNCTION_LINES);
        long.map(|(path, f)| {
            (format!("{path} fn {}", f.name), format!("{path}:{} fn {}: {} lines", f.line, f.name, f.lines))
        })
        .collect()
    }
}

/// Compares what is found with what a list still allows, each found thing
/// as (key, message): a thing not listed fails with its message, a listed
/// key no longer found fails as fixed, to be removed, so lists only shrink.
/// A key listed twice allows two things.
pub fn ratchet(list: &str, allowed: &[&str], found: &[(String, String)]) -> Vec<String> {
    let mut left: BTreeMap<&str, usize> = BTreeMap::new();
    for key in allowed {
        *left.entry(key).or_default() += 1;
    }
    let mut failures = Vec::new();
    for (key, message) in found {
        match left.get_mut(key.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => failures.push(format!("new: {message}\n    (not in {list}, which only shrinks: {key:?})")),
        }
    }
    for (key, n) in left {
        for _ in 0..n {
            failures.push(format!("fixed: remove it from {list}: {key:?}"));
        }
    }
    failures
}

/// [`ratchet`] for circles ([`Circle::key`]s): a circle not listed whose
/// files are a part of a listed one that is gone is what is left of that
/// one, and fails as such, with the entry to put in its place.
pub fn circle_ratchet(list: &str, allowed: &[&str], found: &[(String, String)]) -> Vec<String> {
    let files = |key: &str| key.split(' ').map(str::to_owned).collect::<BTreeSet<String>>();
    let gone: Vec<&str> = allowed.iter().copied().filter(|a| !found.iter().any(|(k, _)| k == a)).collect();
    let mut failures = Vec::new();
    let mut rest = Vec::new();
    for (key, message) in found {
        let listed = allowed.contains(&key.as_str());
        match gone.iter().find(|g| !listed && files(key).is_subset(&files(g))) {
            Some(whole) => failures.push(format!(
                "smaller: {message}\n    (what is left of a listed circle: replace {whole:?} in {list} with {key:?})"
            )),
            None => rest.push((key.clone(), message.clone())),
        }
    }
    failures.extend(ratchet(list, allowed, &rest));
    failures
}

/// The one-screen summary: per package its lines and circles, the five
/// largest files and the five longest functions of the workspace.
pub fn summary(survey: &Survey) -> String {
    let mut text = String::from("floors: no circles between modules, files <= 800 lines, functions <= 100 lines\n");
    let _ = writeln!(text, "  {:<20} {:>12} {:>10} {:>8}", "crate", "source lines", "all lines", "circles");
    for p in &survey.packages {
        let _ = writeln!(text, "  {:<20} {:>12} {:>10} {:>8}", p.name, p.source_lines, p.all_lines, p.circles.len());
    }
    let circles: usize = survey.packages.iter().map(|p| p.circles.len()).sum();
    let total: usize = survey.files.iter().map(|(_, l)| l).sum();
    let _ = writeln!(
        text,
        "  {} files, {} lines; {} circles, {} files over {MAX_FILE_LINES}, {} functions over {MAX_FUNCTION_LINES}",
        survey.files.len(),
        total,
        circles,
        survey.long_files().len(),
        survey.long_functions().len()
    );
    let mut files: Vec<&(String, usize)> = survey.files.iter().collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    text.push_str("largest files:\n");
    for (path, lines) in files.iter().take(5) {
        let _ = writeln!(text, "  {lines:>5}  {path}");
    }
    let mut functions: Vec<&(String, Function)> = survey.functions.iter().collect();
    functions.sort_by(|a, b| b.1.lines.cmp(&a.1.lines).then_with(|| (&a.0, a.1.line).cmp(&(&b.0, b.1.line))));
    text.push_str("longest functions:\n");
    for (path, f) in functions.iter().take(5) {
        let _ = writeln!(text, "  {:>5}  {path}:{} fn {}", f.lines, f.line, f.name);
    }
    text
}

#[cfg(test)]
mod tests;
