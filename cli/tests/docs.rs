//! The pages (`README.md`, `BENCHMARKS.md` and `docs/*.md`) checked
//! against the repository and the binary:
//!
//! - every shell snippet marked `<!-- check: run -->` (the line before its
//!   ```` ```sh ```` fence) runs with the built `doko` from the repository's
//!   root, on an empty store, and succeeds;
//! - every `doko` command a page names (in a snippet or in backticks) is a
//!   subcommand of the binary, and every `--option` it names is in that
//!   command's `--help`;
//! - every repository path a page names in backticks exists, and every
//!   link between pages resolves, with its `#anchor` a heading there;
//! - the configuration reference in `docs/hosting.md` is generated from
//!   the settings the binary reads (`DOKO_UPDATE_DOCS=1` writes it);
//! - the README and BENCHMARKS.md stay short (300 lines at most);
//! - CI runs the README's test command.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// The settings the binary reads (`SETTINGS`), compiled here as in the
/// binary.
#[allow(dead_code)]
#[path = "../src/config.rs"]
mod config;

/// The marker on the line before a snippet that the test runs.
const RUN: &str = "<!-- check: run -->";

/// The repository's top-level directories a path in backticks starts with
/// (any other first name, like `target/` or `~/.config/`, is not the
/// repository's).
const TOP_DIRS: &[&str] =
    &[".ci", "adapters", "bot", "cli", "config", "deploy", "docs", "engine", "fuzz", "players", "scripts", "tests"];

/// The repository's top-level files a page may name.
const TOP_FILES: &[&str] = &["README.md", "CHANGELOG.md", "BENCHMARKS.md", "Cargo.toml", "Cargo.lock"];

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The pages: the README, the benchmarks and every page of `docs/`, by
/// their path from the root.
fn pages() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string(), "BENCHMARKS.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names.into_iter().map(|n| (n.clone(), std::fs::read_to_string(root().join(&n)).unwrap())).collect()
}

/// A fenced block of a page.
struct Fence {
    /// Its info string (`sh`, `text`, ...).
    info: String,
    /// Its lines.
    body: String,
    /// Its first line in the page (from 1).
    line: usize,
    /// Marked to run.
    run: bool,
}

/// A page's fenced blocks, and its text outside them (fenced lines left
/// empty, so that spans do not run across a block).
fn split(page: &str) -> (Vec<Fence>, String) {
    let mut fences = Vec::new();
    let mut prose = String::new();
    let mut open: Option<Fence> = None;
    let mut previous = "";
    for (i, line) in page.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                let info = line.trim_start().trim_start_matches('`').trim().to_string();
                open = Some(Fence { info, body: String::new(), line: i + 1, run: previous.trim() == RUN });
            }
            (Some(_), true) => fences.extend(open.take()),
            (Some(f), false) => {
                f.body.push_str(line);
                f.body.push('\n');
            }
            (None, false) => prose.push_str(line),
        }
        prose.push('\n');
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    (fences, prose)
}

/// The inline code spans of a page's text outside its fenced blocks (a
/// span may go over a line break, never over a blank line).
fn spans(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    for para in prose.split("\n\n") {
        let mut parts = para.split('`');
        parts.next();
        while let (Some(code), Some(_)) = (parts.next(), parts.next()) {
            out.push(code.replace('\n', " "));
        }
    }
    out
}

/// The words of a command line as a shell splits them (quotes kept
/// together, a `#` word starting a comment).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, '#') if word.is_empty() && !started => break,
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The command lines of a shell snippet (a line ending in `\` goes on in
/// the next).
fn command_lines(body: &str) -> Vec<String> {
    body.replace("\\\n", " ").lines().map(str::to_string).filter(|l| !l.trim().is_empty()).collect()
}

/// A `doko` command a line gives (after variables set for it): its
/// subcommands and the options it names; `None` when the line gives
/// another program.
fn doko_command(line: &str) -> Option<(Vec<String>, Vec<String>)> {
    let w = words(line);
    let at = w.iter().position(|x| !(x.contains('=') && x.starts_with(|c: char| c.is_ascii_uppercase())))?;
    if w[at] != "doko" {
        return None;
    }
    let rest = &w[at + 1..];
    let subcommands = rest
        .iter()
        .take_while(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !x.starts_with('-'))
        .cloned()
        .collect();
    let options =
        rest.iter().filter(|x| x.starts_with("--")).map(|x| x.split('=').next().unwrap().to_string()).collect();
    Some((subcommands, options))
}

/// The binary, run as a page's snippet runs it: from the repository's
/// root, with no `DOKO_` variable and no configuration file of the
/// caller's, on an empty store of its own.
fn sandboxed(cmd: &mut Command, name: &str) {
    let home = std::env::temp_dir().join(format!("doko-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    for (k, _) in std::env::vars() {
        if k.starts_with("DOKO_") {
            cmd.env_remove(k);
        }
    }
    cmd.current_dir(root()).env("HOME", &home).env_remove("XDG_CONFIG_HOME").env("DOKO_DATA", home.join("data"));
}

#[test]
fn the_marked_snippets_run() {
    let bin = Path::new(env!("CARGO_BIN_EXE_doko")).parent().unwrap().to_path_buf();
    let path =
        std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())))
            .unwrap();
    let mut ran = 0;
    for (page, text) in pages() {
        for f in split(&text).0.into_iter().filter(|f| f.run) {
            assert_eq!(f.info, "sh", "{page}:{}: a snippet marked to run is a ```sh block", f.line);
            let mut sh = Command::new("sh");
            sandboxed(&mut sh, &format!("run-{ran}"));
            let out = sh.arg("-e").arg("-c").arg(&f.body).env("PATH", &path).output().unwrap();
            assert!(
                out.status.success(),
                "{page}:{}: the snippet failed ({}):\n{}\nstdout:\n{}\nstderr:\n{}",
                f.line,
                out.status,
                f.body,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 4, "only {ran} snippets are marked to run");
}

#[test]
fn every_doko_command_a_page_names_exists() {
    let mut commands: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
    for (_, text) in pages() {
        let (fences, prose) = split(&text);
        let snippets = fences.iter().filter(|f| f.info == "sh").flat_map(|f| command_lines(&f.body));
        for line in snippets.chain(spans(&prose)) {
            if let Some((sub, options)) = doko_command(&line) {
                commands.extend(options.into_iter().map(|o| (sub.clone(), o)));
                commands.insert((sub, String::new()));
            }
        }
    }
    let mut helps = std::collections::BTreeMap::new();
    for (sub, option) in &commands {
        let help = helps.entry(sub.clone()).or_insert_with(|| {
            let mut c = common::doko();
            sandboxed(&mut c, "help");
            let out = c.args(sub).arg("--help").output().unwrap();
            assert!(out.status.success(), "`doko {} --help` fails: there is no such command", sub.join(" "));
            String::from_utf8_lossy(&out.stdout).into_owned()
        });
        if !option.is_empty() {
            assert!(help.contains(option.as_str()), "`doko {}` has no option {option}:\n{help}", sub.join(" "));
        }
    }
    assert!(commands.len() >= 10, "{commands:?}");
}

/// Whether a word names a file of the repository (from its root).
fn repository_path(word: &str) -> Option<&str> {
    let w = word.trim_matches(|c| matches!(c, '"' | '\'' | ',' | ';' | ':' | '(' | ')'));
    let first = w.split('/').next()?;
    let named = (w.contains('/') && TOP_DIRS.contains(&first)) || TOP_FILES.contains(&w);
    named.then_some(w)
}

/// Whether `path` (from the root; `*` in its last name matches any text)
/// exists.
fn exists(path: &str) -> bool {
    let full = root().join(path);
    let name = full.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some((before, after)) = name.split_once('*') else { return full.exists() };
    let Ok(entries) = std::fs::read_dir(full.parent().unwrap()) else { return false };
    entries.flatten().any(|e| {
        let n = e.file_name().to_string_lossy().into_owned();
        n.len() >= before.len() + after.len() && n.starts_with(before) && n.ends_with(after)
    })
}

#[test]
fn every_file_a_page_names_exists() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for (page, text) in pages() {
        let (fences, prose) = split(&text);
        let snippets = fences.iter().filter(|f| f.info == "sh").flat_map(|f| command_lines(&f.body));
        for code in spans(&prose).into_iter().chain(snippets) {
            for w in words(&code) {
                if let Some(path) = repository_path(&w) {
                    checked += 1;
                    if !exists(path) {
                        missing.push(format!("{page}: `{path}`"));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "the pages name files that do not exist:\n{}", missing.join("\n"));
    assert!(checked >= 30, "only {checked} paths checked");
}

/// GitHub's anchor of a heading: lower case, the words joined by `-`,
/// what is neither a letter, a digit, `-` nor `_` left out.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings.
fn anchors(page: &str) -> Vec<String> {
    let prose = split(page).1;
    prose.lines().filter(|l| l.starts_with('#')).map(|l| anchor(l.trim_start_matches('#'))).collect()
}

/// The targets of a page's links and images (`](target)`).
fn links(prose: &str) -> Vec<String> {
    prose.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(t, _)| t.to_string())).collect()
}

#[test]
fn every_link_between_pages_resolves() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for (page, text) in pages() {
        let dir = Path::new(&page).parent().unwrap().to_path_buf();
        for target in links(&split(&text).1) {
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() { root().join(&page) } else { root().join(&dir).join(file) };
            if !linked.exists() {
                broken.push(format!("{page}: ({target}): no such file"));
                continue;
            }
            if !fragment.is_empty() {
                let there = std::fs::read_to_string(&linked).unwrap_or_default();
                if !anchors(&there).iter().any(|a| a == fragment) {
                    broken.push(format!("{page}: ({target}): no heading #{fragment} there"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 20, "only {checked} links checked");
}

/// The configuration reference: every setting's key, variable and what it
/// takes, in the order of `config/doko.example.toml`.
fn settings_reference() -> String {
    let mut out = String::from("| key | variable | takes |\n|---|---|---|\n");
    for s in config::SETTINGS {
        let secret = if s.secret { " (a secret: never printed)" } else { "" };
        out.push_str(&format!("| `{}` | `{}` | {}{secret} |\n", s.key, s.env, s.allowed.replace('|', "\\|")));
    }
    out
}

#[test]
fn the_configuration_reference_is_the_binarys() {
    let path = root().join("docs/hosting.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- settings:begin -->\n", "<!-- settings:end -->");
    let start = page.find(begin).expect("docs/hosting.md marks its configuration reference") + begin.len();
    let stop = page[start..].find(end).expect("the end marker") + start;
    let table = settings_reference();
    if std::env::var_os("DOKO_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &page[..start], &page[stop..])).unwrap();
        return;
    }
    assert_eq!(&page[start..stop], table, "docs/hosting.md's configuration reference (DOKO_UPDATE_DOCS=1 writes it)");
}

/// The README and BENCHMARKS.md are read in minutes: at most this many
/// lines each (the manual is `docs/`, how a figure was reached is in the
/// commit messages).
const SHORT_PAGE_LINES: usize = 300;

#[test]
fn the_readme_and_the_benchmarks_stay_short() {
    for page in ["README.md", "BENCHMARKS.md"] {
        let lines = std::fs::read_to_string(root().join(page)).unwrap().lines().count();
        assert!(lines <= SHORT_PAGE_LINES, "{page} has {lines} lines, more than {SHORT_PAGE_LINES}");
    }
}

#[test]
fn ci_runs_the_readmes_test_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let quick = &readme[readme.find("## Quick start").expect("the README's quick start")..];
    let quick = &quick[..quick[3..].find("\n## ").map_or(quick.len(), |i| i + 3)];
    let commands: Vec<String> =
        split(quick).0.into_iter().filter(|f| f.info == "sh").flat_map(|f| command_lines(&f.body)).collect();
    assert_eq!(commands.len(), 2, "the quick start gives two commands: {commands:?}");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == format!("exec {}", commands[1])), ".ci/run runs `{}`:\n{ci}", commands[1]);
    let script = std::fs::read_to_string(root().join(&commands[1])).unwrap();
    assert!(script.contains("cargo test --workspace"), "{} runs this test (cargo test --workspace)", commands[1]);
}
