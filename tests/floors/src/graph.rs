//! Which file of a crate uses which, and the circles among them.
//!
//! A path is resolved from the module it is written in: `crate::`, `self::`,
//! `super::`, a child module's name or a name a `use` binds to a module
//! start it; it then goes down through modules to the first name that is
//! not a module. That name's file is the target: the file defining it, found
//! by following the `use`s (re-exports, private ones too, globs) of the
//! module it is reached through. A path naming a module targets that module's
//! file. Paths into other crates lead nowhere. A re-export (`pub use`) the
//! module does not use itself makes no edge: its users are linked to the
//! defining file instead.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::tree::Tree;

/// Edges between the files of a crate: (from, to) to the names making it.
pub type Edges = BTreeMap<(usize, usize), BTreeSet<String>>;

/// How deep re-exports are followed (a `use` loop ends here).
const DEPTH: usize = 24;

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// A module of the crate.
    Module(usize),
    /// An item of the crate, defined in this file.
    Item(usize, String),
    /// Something outside the crate, or a local name.
    Outside,
}

/// Every edge between two different files of the tree.
pub fn edges(tree: &Tree) -> Edges {
    let mut edges = Edges::new();
    for reference in &tree.references {
        let module = &tree.modules[reference.module];
        if reference.reexport.as_ref().is_some_and(|name| !module.used.contains(name)) {
            continue;
        }
        let from = module.file;
        let (to, name) = match resolve(tree, reference.module, &reference.path, 0) {
            Target::Module(m) => (tree.modules[m].file, module_name(&reference.path)),
            Target::Item(file, name) => (file, name),
            Target::Outside => continue,
        };
        if to != from {
            edges.entry((from, to)).or_default().insert(name);
        }
    }
    edges
}

/// How a path naming a module is shown: its last name, `m::*` for a glob.
fn module_name(path: &[String]) -> String {
    match path {
        [.., m, glob] if glob == "*" => format!("{m}::*"),
        [.., last] => last.clone(),
        [] => String::new(),
    }
}

/// What `path`, written in module `module`, names.
fn resolve(tree: &Tree, module: usize, path: &[String], depth: usize) -> Target {
    let Some((first, rest)) = path.split_first() else { return Target::Outside };
    if depth > DEPTH {
        return Target::Outside;
    }
    let start = match first.as_str() {
        "crate" => Some(0),
        "self" => Some(module),
        "super" => tree.modules[module].parent,
        name => match tree.modules[module].children.get(name) {
            Some(&child) => Some(child),
            None => match bound(tree, module, name, depth) {
                Some(Target::Module(m)) => Some(m),
                _ => None,
            },
        },
    };
    let Some(mut at) = start else { return Target::Outside };
    for segment in rest {
        match segment.as_str() {
            "super" => match tree.modules[at].parent {
                Some(parent) => at = parent,
                None => return Target::Outside,
            },
            "*" | "self" => return Target::Module(at),
            name => match step(tree, at, name, depth) {
                Target::Module(next) => at = next,
                other => return other,
            },
        }
    }
    Target::Module(at)
}

/// What `name` is in module `at`: a child module, an item defined or
/// imported there, or else an item of `at` this reading does not know (an
/// associated item's type, a macro-made name).
fn step(tree: &Tree, at: usize, name: &str, depth: usize) -> Target {
    if let Some(&child) = tree.modules[at].children.get(name) {
        return Target::Module(child);
    }
    definer(tree, at, name, depth, &mut BTreeSet::new())
        .unwrap_or_else(|| Target::Item(tree.modules[at].file, name.to_owned()))
}

/// Where `name`, reached in module `at`, is defined: in `at`, or where a
/// `use` of `at` binding it leads, or in a module a glob of `at` brings in.
fn definer(tree: &Tree, at: usize, name: &str, depth: usize, seen: &mut BTreeSet<usize>) -> Option<Target> {
    if !seen.insert(at) {
        return None;
    }
    let module = &tree.modules[at];
    if let Some(&file) = module.items.get(name) {
        return Some(Target::Item(file, name.to_owned()));
    }
    if let Some(target) = bound(tree, at, name, depth) {
        return Some(target);
    }
    for (_, path) in module.uses.iter().filter(|(bound, _)| bound.is_none()) {
        if path.last().is_some_and(|l| l == "*")
            && let Target::Module(glob) = resolve(tree, at, path, depth + 1)
            && let Some(found) = definer(tree, glob, name, depth + 1, seen)
        {
            return Some(found);
        }
    }
    None
}

/// What the `use` of module `at` binding `name` names, if one binds it.
fn bound(tree: &Tree, at: usize, name: &str, depth: usize) -> Option<Target> {
    let (_, path) = tree.modules[at].uses.iter().find(|(bound, _)| bound.as_deref() == Some(name))?;
    Some(resolve(tree, at, path, depth + 1))
}

/// The strongly connected components of more than one file, each sorted,
/// in the order of their first file.
pub fn circles(files: usize, edges: &Edges) -> Vec<Vec<usize>> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); files];
    for &(from, to) in edges.keys() {
        next[from].push(to);
    }
    let mut tarjan = Tarjan { next, index: vec![None; files], low: vec![0; files], ..Tarjan::default() };
    for node in 0..files {
        if tarjan.index[node].is_none() {
            tarjan.visit(node);
        }
    }
    let mut found: Vec<Vec<usize>> = tarjan.components.into_iter().filter(|c| c.len() > 1).collect();
    for component in &mut found {
        component.sort_unstable();
    }
    found.sort();
    found
}

#[derive(Default)]
struct Tarjan {
    next: Vec<Vec<usize>>,
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: BTreeSet<usize>,
    counter: usize,
    components: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, node: usize) {
        self.index[node] = Some(self.counter);
        self.low[node] = self.counter;
        self.counter += 1;
        self.stack.push(node);
        self.on_stack.insert(node);
        for to in self.next[node].clone() {
            match self.index[to] {
                None => {
                    self.visit(to);
                    self.low[node] = self.low[node].min(self.low[to]);
                }
                Some(index) if self.on_stack.contains(&to) => self.low[node] = self.low[node].min(index),
                Some(_) => {}
            }
        }
        if Some(self.low[node]) == self.index[node] {
            let mut component = Vec::new();
            while let Some(top) = self.stack.pop() {
                self.on_stack.remove(&top);
                component.push(top);
                if top == node {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// A closed walk through every file of a circle, from its first file, each
/// step to the nearest file not yet passed: `a -> b (X, y) -> a (Z)`, each
/// arrow with the names making it.
pub fn walk(component: &[usize], edges: &Edges, name: &dyn Fn(usize) -> String) -> String {
    let Some(&start) = component.first() else { return String::new() };
    let mut left: BTreeSet<usize> = component.iter().copied().filter(|&f| f != start).collect();
    let mut route = vec![start];
    let mut at = start;
    while !left.is_empty() || at != start {
        let goal = |f: usize| if left.is_empty() { f == start } else { left.contains(&f) };
        let Some(path) = shortest(component, edges, at, &goal) else { break };
        for &f in &path {
            left.remove(&f);
        }
        at = *path.last().unwrap_or(&at);
        route.extend(path);
    }
    let mut text = name(start);
    for pair in route.windows(2) {
        let names = edges.get(&(pair[0], pair[1])).map(|n| n.iter().cloned().collect::<Vec<_>>().join(", "));
        text.push_str(&format!(" -> {} ({})", name(pair[1]), names.unwrap_or_default()));
    }
    text
}

/// The shortest path inside `component` from `from` to a file `goal` accepts
/// (`from` left out, the goal last), the smallest file first on ties.
fn shortest(component: &[usize], edges: &Edges, from: usize, goal: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
    let inside: BTreeSet<usize> = component.iter().copied().collect();
    let mut came: BTreeMap<usize, usize> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        for (&(_, to), _) in edges.range((at, 0)..=(at, usize::MAX)) {
            if !inside.contains(&to) || came.contains_key(&to) || to == from && !goal(to) {
                continue;
            }
            came.insert(to, at);
            if goal(to) {
                let mut path = vec![to];
                while let Some(&back) = came.get(path.last()?).filter(|&&b| b != from) {
                    path.push(back);
                }
                path.reverse();
                return Some(path);
            }
            queue.push_back(to);
        }
    }
    None
}
