//! The module tree of one crate, read from its root file along the `mod x;`
//! declarations, with every path in it that may name something of the crate.
//!
//! Modules written in `#[cfg(test)]` (inline or in a file of their own) are
//! left out, and so is every other item under `#[cfg(test)]`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, Meta, TraitItem, UseTree};

/// Reads a file by its path; `None` when there is no such file.
pub type Read<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// One module: a file, or an inline `mod x { ... }` written in one.
#[derive(Debug, Default)]
pub struct Module {
    /// The file (an index into [`Tree::files`]) the module is written in.
    pub file: usize,
    /// The module it is declared in; `None` for the crate root.
    pub parent: Option<usize>,
    /// Its child modules by name.
    pub children: BTreeMap<String, usize>,
    /// The items defined in it by name, with the file defining each (a
    /// `#[macro_export]` macro belongs to the crate root wherever it is
    /// written).
    pub items: BTreeMap<String, usize>,
    /// Its module-level `use` declarations: the name each binds (`None` for
    /// a glob or `as _`) and the path (a glob's ends in `*`).
    pub uses: Vec<(Option<String>, Vec<String>)>,
    /// The names its own code starts a path with, and every name in its
    /// macro invocations: what tells a re-export the module uses itself
    /// from one only there for others.
    pub used: BTreeSet<String>,
}

/// A path written in a module that may name something of the crate.
#[derive(Debug)]
pub struct Reference {
    /// The module (an index into [`Tree::modules`]) it is written in.
    pub module: usize,
    /// Its segments, as written (`crate`, `super`, `self` included).
    pub path: Vec<String>,
    /// For a `pub` (or `pub(crate)`, ...) `use` of a module, the name it
    /// binds: such a re-export makes no edge unless the module uses the name
    /// itself ([`Module::used`]); paths through it lead to the defining file.
    pub reexport: Option<String>,
}

/// A crate's modules and the paths written in them. Module 0 is the root.
#[derive(Debug, Default)]
pub struct Tree {
    /// The files of the crate, the root first.
    pub files: Vec<PathBuf>,
    /// Its modules, file modules and inline ones.
    pub modules: Vec<Module>,
    /// Every path with at least two segments, from `use` declarations, types,
    /// expressions, patterns and the tokens of macro invocations.
    pub references: Vec<Reference>,
}

/// Where the items of a module being read are: its module, its file and the
/// directories its `mod x;` declarations are looked up in.
struct Place {
    module: usize,
    file: usize,
    /// Where `mod x;` finds `x.rs` and `x/mod.rs`.
    dir: PathBuf,
    /// The directory of the file, for `#[path]` outside inline modules.
    file_dir: PathBuf,
    /// Whether the items are in an inline module.
    inline: bool,
}

impl Tree {
    /// Reads the crate whose root file is `root`, following `mod x;` to
    /// `x.rs` or `x/mod.rs` (or the file `#[path]` names).
    pub fn load(root: &Path, read: Read) -> Result<Tree, String> {
        let mut tree = Tree::default();
        tree.load_file(&normalize(root), None, true, read)?;
        Ok(tree)
    }

    /// Reads one file as a module declared in `parent` under its name; a
    /// mod-rs file (a crate root, `mod.rs`, a `#[path]` file) keeps its
    /// children next to it, any other `x.rs` in `x/`.
    fn load_file(
        &mut self,
        path: &Path,
        parent: Option<(usize, &str)>,
        mod_rs: bool,
        read: Read,
    ) -> Result<usize, String> {
        let text = read(path).ok_or_else(|| format!("{}: no such file", path.display()))?;
        let parsed =
            syn::parse_file(&text).map_err(|e| format!("{}:{}: {e}", path.display(), e.span().start().line))?;
        let file = self.files.len();
        self.files.push(path.to_owned());
        let module = self.add_module(file, parent);
        let file_dir = path.parent().map(Path::to_owned).unwrap_or_default();
        let dir = if mod_rs { file_dir.clone() } else { path.with_extension("") };
        let place = Place { module, file, dir, file_dir, inline: false };
        self.read_items(&parsed.items, &place, read)?;
        Ok(module)
    }

    fn add_module(&mut self, file: usize, parent: Option<(usize, &str)>) -> usize {
        let id = self.modules.len();
        self.modules.push(Module { file, parent: parent.map(|(p, _)| p), ..Module::default() });
        if let Some((p, name)) = parent {
            self.modules[p].children.insert(name.to_owned(), id);
        }
        id
    }

    /// Reads the items of one module: child modules, names, `use`s, paths.
    fn read_items(&mut self, items: &[Item], place: &Place, read: Read) -> Result<(), String> {
        for item in items {
            if test_only(item_attrs(item)) {
                continue;
            }
            match item {
                Item::Mod(m) => self.read_mod(m, place, read)?,
                Item::Use(u) => {
                    let public = !matches!(u.vis, syn::Visibility::Inherited);
                    for (name, path) in flatten_use(&u.tree) {
                        if path.len() >= 2 {
                            let reexport = name.clone().filter(|_| public);
                            self.references.push(Reference { module: place.module, path: path.clone(), reexport });
                        }
                        self.modules[place.module].uses.push((name, path));
                    }
                    continue;
                }
                Item::Macro(m) if m.ident.is_some() && m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                    let name = m.ident.as_ref().map(ToString::to_string).unwrap_or_default();
                    self.modules[0].items.insert(name, place.file);
                }
                _ => {
                    if let Some(name) = item_name(item) {
                        self.modules[place.module].items.insert(name, place.file);
                    }
                }
            }
            if !matches!(item, Item::Mod(_)) {
                let mut collector =
                    Collector { module: place.module, out: &mut self.references, used: BTreeSet::new() };
                collector.visit_item(item);
                let used = collector.used;
                self.modules[place.module].used.extend(used);
            }
        }
        Ok(())
    }

    /// A `mod x;` (its file read) or `mod x { ... }` (its items read).
    fn read_mod(&mut self, m: &syn::ItemMod, place: &Place, read: Read) -> Result<(), String> {
        let name = m.ident.to_string();
        let path_attr = m.attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
        if let Some((_, items)) = &m.content {
            let module = self.add_module(place.file, Some((place.module, &name)));
            let dir = place.dir.join(&name);
            let inner = Place { module, file: place.file, dir, file_dir: place.file_dir.clone(), inline: true };
            return self.read_items(items, &inner, read);
        }
        let (path, mod_rs) = match path_attr {
            Some(p) if place.inline => (place.dir.join(p), true),
            Some(p) => (place.file_dir.join(p), true),
            None => {
                let flat = normalize(&place.dir.join(format!("{name}.rs")));
                if read(&flat).is_some() { (flat, false) } else { (place.dir.join(&name).join("mod.rs"), true) }
            }
        };
        self.load_file(&normalize(&path), Some((place.module, &name)), mod_rs, read).map(|_| ())
    }
}

/// Collects the paths written in one item (and all it holds but modules)
/// and the names its paths start with.
struct Collector<'a> {
    module: usize,
    out: &'a mut Vec<Reference>,
    used: BTreeSet<String>,
}

impl Collector<'_> {
    fn push(&mut self, path: Vec<String>) {
        if path.len() >= 2 {
            self.out.push(Reference { module: self.module, path, reexport: None });
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        // modules inside function bodies are not followed
        if !test_only(item_attrs(item)) && !matches!(item, Item::Mod(_)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        let attrs: &[Attribute] = match item {
            ImplItem::Const(i) => &i.attrs,
            ImplItem::Fn(i) => &i.attrs,
            ImplItem::Type(i) => &i.attrs,
            ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        let attrs: &[Attribute] = match item {
            TraitItem::Const(i) => &i.attrs,
            TraitItem::Fn(i) => &i.attrs,
            TraitItem::Type(i) => &i.attrs,
            TraitItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        for (_, path) in flatten_use(&item.tree) {
            self.push(path);
        }
    }

    // `#[serde(with = "super::codec", skip_serializing_if = "crate::x::is_zero")]`
    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if attr.path().is_ident("serde")
            && let Meta::List(list) = &attr.meta
        {
            let mut paths = Vec::new();
            string_paths(list.tokens.clone(), &mut paths);
            for path in paths {
                self.used.extend(path.first().cloned());
                self.push(path);
            }
        }
    }

    // `pub(super)`, `pub(in crate::x)` say who may see an item, not what it uses
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            self.used.extend(path.segments.first().map(|s| s.ident.to_string()));
            self.push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        let mut paths = Vec::new();
        token_paths(mac.tokens.clone(), &mut paths);
        token_names(mac.tokens.clone(), &mut self.used);
        for path in paths {
            self.push(path);
        }
    }
}

/// The paths `a::b::c` in the tokens of a macro invocation (syn does not
/// parse them), at any depth; `$crate::...` and `::a::...` are left out.
pub fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let colon = |i: usize| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':');
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(first) => {
                let dollar = i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                if !(dollar || i > 0 && colon(i - 1)) {
                    let mut path = vec![first.to_string()];
                    let mut j = i + 1;
                    while colon(j) && colon(j + 1) {
                        match tokens.get(j + 2) {
                            Some(TokenTree::Ident(next)) => path.push(next.to_string()),
                            _ => break,
                        }
                        j += 3;
                    }
                    if path.len() >= 2 {
                        out.push(path);
                        i = j;
                        continue;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The string literals in attribute tokens that read as paths.
fn string_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    for token in tokens {
        match token {
            TokenTree::Group(g) => string_paths(g.stream(), out),
            TokenTree::Literal(literal) => {
                let path = syn::parse_str::<syn::LitStr>(&literal.to_string()).and_then(|s| s.parse::<syn::Path>());
                if let Ok(path) = path {
                    out.push(path.segments.iter().map(|s| s.ident.to_string()).collect());
                }
            }
            _ => {}
        }
    }
}

/// Every name in the tokens of a macro invocation, at any depth.
fn token_names(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Group(g) => token_names(g.stream(), out),
            TokenTree::Ident(name) => {
                out.insert(name.to_string());
            }
            _ => {}
        }
    }
}

/// Every path a `use` tree names, with the name each binds: `use a::{b, c::D
/// as E, f::*, self}` gives `a::b` (b), `a::c::D` (E), `a::f::*` and `a`
/// (a).
pub fn flatten_use(tree: &UseTree) -> Vec<(Option<String>, Vec<String>)> {
    let mut out = Vec::new();
    flatten_into(tree, &mut Vec::new(), &mut out);
    out
}

fn flatten_into(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Option<String>, Vec<String>)>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_into(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) if n.ident == "self" => out.push((prefix.last().cloned(), prefix.clone())),
        UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((Some(n.ident.to_string()), path));
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            let name = Some(r.rename.to_string()).filter(|n| n != "_");
            out.push((name, path));
        }
        UseTree::Glob(_) => {
            let mut path = prefix.clone();
            path.push("*".to_owned());
            out.push((None, path));
        }
        UseTree::Group(g) => {
            for t in &g.items {
                flatten_into(t, prefix, out);
            }
        }
    }
}

/// Whether the attributes hold `#[cfg(test)]` (or `#[cfg(all(test, ...))]`).
pub fn test_only(attrs: &[Attribute]) -> bool {
    fn test_meta(meta: &Meta) -> bool {
        match meta {
            Meta::Path(p) => p.is_ident("test"),
            Meta::List(l) if l.path.is_ident("all") => l
                .parse_args_with(Punctuated::<Meta, syn::Token![,]>::parse_terminated)
                .is_ok_and(|all| all.iter().any(test_meta)),
            _ => false,
        }
    }
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.parse_args::<Meta>().is_ok_and(|m| test_meta(&m)))
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The name an item defines in its module, if it defines one.
fn item_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |(_, r)| r),
        Item::Fn(i) => &i.sig.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `a/./b/../c` as `a/c`, without asking the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
