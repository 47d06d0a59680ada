//! The seam between the bot and the platforms, checked: no adapter can
//! reach a table. Adapters get the bot as `dyn App` (which hands out no
//! table, game or seat view) and send through their `Transport`; this test
//! reads every adapter's sources and manifest and fails when one names the
//! table, the game, a seat's view or the service, or depends on the store.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Whole identifiers only (`Table` is forbidden, `TableMessage` is not).
fn names(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !ident(before) && !ident(after)
    })
}

#[test]
fn no_adapter_reaches_a_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let adapters = ["terminal", "discord", "matrix"];
    let forbidden = [
        "Table",
        "Game",
        "SeatView",
        "PublicView",
        "Service",
        "Store",
        "view_for",
        "table",
        "store",
        "render::table",
        "doko_bot::table",
    ];
    let mut checked = 0;
    for a in adapters {
        let dir = root.join("adapters").join(a);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        for dep in ["redb", "redis"] {
            assert!(!manifest.lines().any(|l| l.starts_with(dep)), "adapters/{a} depends on {dep}");
        }
        let mut files = Vec::new();
        sources(&dir.join("src"), &mut files);
        for f in files {
            let code = std::fs::read_to_string(&f).unwrap();
            // an adapter's own unit tests may build a service to drive it;
            // what the adapter ships stops at its test module
            for (n, line) in code.lines().enumerate().take_while(|(_, l)| l.trim() != "#[cfg(test)]") {
                let line = line.split("//").next().unwrap_or("");
                for w in forbidden {
                    // `table` as a word is the module; as a field or local
                    // name of a channel it is fine only when not a call
                    let hit = match w {
                        "table" => line.contains("::table") || line.contains(".table("),
                        "store" => line.contains("doko_bot::store") || line.contains(".store("),
                        // the command may be called Table
                        "Table" => names(&line.replace("Command::Table", ""), w),
                        w => names(line, w),
                    };
                    assert!(!hit, "{}:{}: an adapter names `{w}`: {line}", f.display(), n + 1);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked} adapter files checked");
}
