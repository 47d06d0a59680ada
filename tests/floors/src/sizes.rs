//! How long files and functions are.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// A function with a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name, after the inline modules, the type or trait of its `impl`
    /// and the functions it is written in: `tests::deal`, `Table::apply`.
    pub name: String,
    /// The line its signature starts on (attributes and doc comments before
    /// it left out), from 1.
    pub line: usize,
    /// Its lines, from that line to the closing brace of its body.
    pub lines: usize,
}

/// The lines of a text as `wc -l` counts them: its newlines.
pub fn line_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

/// Every function with a body in a source file: free, in an `impl`, a
/// trait's provided ones, nested ones, and those written inside macro
/// invocations (`proptest! { fn ... }`, found in the tokens).
pub fn functions(text: &str) -> syn::Result<Vec<Function>> {
    let file = syn::parse_file(text)?;
    let mut finder = Finder::default();
    finder.visit_file(&file);
    Ok(finder.found)
}

#[derive(Default)]
struct Finder {
    scope: Vec<String>,
    found: Vec<Function>,
}

impl Finder {
    fn push(&mut self, name: &str, first: usize, close: proc_macro2::Span) {
        let mut full = self.scope.join("::");
        if !full.is_empty() {
            full.push_str("::");
        }
        full.push_str(name);
        let last = close.end().line;
        self.found.push(Function { name: full, line: first, lines: last + 1 - first.min(last) });
    }

    fn within(&mut self, name: String, go: impl FnOnce(&mut Self)) {
        self.scope.push(name);
        go(self);
        self.scope.pop();
    }
}

/// The first line of a signature, its visibility first when it has one.
fn first_line(vis: &syn::Visibility, sig: &syn::Signature) -> usize {
    match vis {
        syn::Visibility::Inherited => sig.span().start().line,
        vis => vis.span().start().line,
    }
}

/// The name of an `impl`'s type: `Table` for `impl<T> Trait for Table<T>`.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
        syn::Type::Reference(r) => type_name(&r.elem),
        // `[T]`, `(A, B)`: named by where they are
        other => format!("<type at line {}>", other.span().start().line),
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.within(item.ident.to_string(), |f| visit::visit_item_mod(f, item));
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        self.within(type_name(&item.self_ty), |f| visit::visit_item_impl(f, item));
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.within(item.ident.to_string(), |f| visit::visit_item_trait(f, item));
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        let name = item.sig.ident.to_string();
        self.push(&name, first_line(&item.vis, &item.sig), item.block.brace_token.span.close());
        self.within(name, |f| visit::visit_item_fn(f, item));
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        let name = item.sig.ident.to_string();
        let first = match item.defaultness {
            Some(d) if matches!(item.vis, syn::Visibility::Inherited) => d.span.start().line,
            _ => first_line(&item.vis, &item.sig),
        };
        self.push(&name, first, item.block.brace_token.span.close());
        self.within(name, |f| visit::visit_impl_item_fn(f, item));
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        let name = item.sig.ident.to_string();
        if let Some(body) = &item.default {
            self.push(&name, item.sig.span().start().line, body.brace_token.span.close());
        }
        self.within(name, |f| visit::visit_trait_item_fn(f, item));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.scan(mac.tokens.clone());
    }
}

impl Finder {
    /// The functions in macro tokens: `fn name ... { body }`, the
    /// qualifiers and visibility before `fn` counted in.
    fn scan(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, token) in tokens.iter().enumerate() {
            if let TokenTree::Group(group) = token {
                self.scan(group.stream());
                continue;
            }
            let (TokenTree::Ident(keyword), Some(TokenTree::Ident(name))) = (token, tokens.get(i + 1)) else {
                continue;
            };
            if keyword != "fn" {
                continue;
            }
            let body = tokens[i + 2..].iter().find_map(|t| match t {
                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Some(Some(g.span_close())),
                TokenTree::Punct(p) if p.as_char() == ';' => Some(None),
                _ => None,
            });
            if let Some(Some(close)) = body {
                let first = tokens[..i]
                    .iter()
                    .rev()
                    .take_while(|t| match t {
                        TokenTree::Ident(q) => {
                            ["pub", "async", "const", "unsafe", "extern", "default"].iter().any(|k| q == k)
                        }
                        TokenTree::Group(g) => g.delimiter() == Delimiter::Parenthesis,
                        TokenTree::Literal(_) => true,
                        TokenTree::Punct(_) => false,
                    })
                    .map(|t| t.span().start().line)
                    .chain([keyword.span().start().line])
                    .min()
                    .unwrap_or(1);
                self.push(&name.to_string(), first, close);
            }
        }
    }
}
