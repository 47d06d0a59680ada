//! The configuration file as an admin meets it: `doko config check` on the
//! shipped example and on files with each kind of mistake (an unknown key
//! or section, a value of the wrong form or type, front-end settings that
//! do not go together, a file that is not TOML), each named with its line
//! and what is allowed and never with a secret; and `doko` run with a file,
//! where the environment wins over the file and a bad file stops it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

fn doko() -> Command {
    let mut c = common::doko();
    c.stdin(Stdio::null());
    c
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("doko-config-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn check(file: &Path) -> (bool, String) {
    let out: Output = doko().args(["config", "check"]).arg(file).output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn check_text(name: &str, text: &str) -> (bool, String, String) {
    let d = dir(name);
    let f = d.join("doko.toml");
    std::fs::write(&f, text).unwrap();
    let (ok, out) = check(&f);
    (ok, out, f.display().to_string())
}

#[test]
fn the_shipped_files_are_good() {
    for file in ["../config/doko.example.toml", "../deploy/container.toml", "../deploy/cluster.toml"] {
        let (ok, out) = check(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file));
        assert!(ok, "{file}: {out}");
        assert!(out.contains("good"), "{file}: {out}");
    }
}

#[test]
fn each_mistake_is_named_with_its_line_and_what_is_allowed() {
    // an unknown key: its line, and the keys of its section
    let (ok, out, f) = check_text("key", "# doko\n[discord]\ntokn = \"x\"\nmention = true\n");
    assert!(!ok);
    assert!(
        out.contains(&format!("{f}:3: unknown key discord.tokn; [discord] takes: token, token_file, guild")),
        "{out}"
    );
    // an unknown section
    let (ok, out, f) = check_text("section", "[store]\ndata = \"/x\"\n\n[dicsord]\ntoken = \"x\"\n");
    assert!(!ok);
    assert!(
        out.contains(&format!("{f}:4: unknown section [dicsord]; sections: [store], [tables], [computers]")),
        "{out}"
    );
    // a value of the wrong form: the key, the line, the allowed form
    let (ok, out, f) = check_text("form", "[discord]\nshards = \"9/8\"\n[computers]\nbudget_ms = 0\n");
    assert!(!ok);
    assert!(
        out.contains(&format!(
            "{f}:2: discord.shards: \"9/8\" is not a shard range; allowed: a shard range such as 0-3/8"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{f}:4: computers.budget_ms: \"0\" is not a whole number from 1 to 10000")), "{out}");
    // a value of the wrong type
    let (ok, out, f) = check_text("type", "[limits]\n\nrate_user = 1.5\n[log]\nformat = \"xml\"\n");
    assert!(!ok);
    assert!(
        out.contains(&format!("{f}:3: limits.rate_user: not a value it takes; allowed: commands per person")),
        "{out}"
    );
    assert!(out.contains(&format!("{f}:5: log.format: \"xml\" is not text or json; allowed: text or json")), "{out}");
    // not TOML at all
    let (ok, out, f) = check_text("syntax", "[store]\ndata = \"/x\"\nrecords_kept = = 3\n");
    assert!(!ok);
    assert!(out.contains(&format!("{f}:3: not TOML")), "{out}");
    // a file that is not there
    let (ok, out) = check(Path::new("/nonexistent/doko.toml"));
    assert!(!ok && out.contains("cannot be read"), "{out}");
}

#[test]
fn front_end_settings_are_checked_together_and_secrets_never_shown() {
    // interactions without a public key; a Matrix account without a user
    let text = "[discord]\ntoken = \"sekrit-4711\"\ninteractions = \"0.0.0.0:8080\"\n\n[matrix]\nhomeserver = \"https://m.example.org\"\npassword = \"pw-sekrit-0815\"\n";
    let (ok, out, f) = check_text("together", text);
    assert!(!ok);
    assert!(
        out.contains(&format!("{f}:3: discord.interactions (DOKO_DISCORD_INTERACTIONS) must be an address")),
        "{out}"
    );
    assert!(out.contains("discord.public_key (DOKO_DISCORD_PUBLIC_KEY) must be set with it"), "{out}");
    assert!(out.contains(&format!("{f}:")) && out.contains("matrix.user (DOKO_MATRIX_USER) is not set"), "{out}");
    assert!(!out.contains("sekrit"), "a secret shown: {out}");
    // an empty secret is a mistake too, named without a value
    let (ok, out, f) = check_text(
        "empty-secret",
        "[matrix]\nhomeserver = \"https://m.example.org\"\nuser = \"doko\"\npassword = \" \"\n",
    );
    assert!(!ok);
    assert!(out.contains(&format!("{f}:4: matrix.password: empty")), "{out}");
}

/// `doko` with a file: the file's store directory and name are used, the
/// environment wins over the file, logs come as JSON lines when the file
/// says so; a bad file stops it before anything is served.
#[test]
fn the_file_configures_the_bot_under_the_environment() {
    let d = dir("run");
    let f = d.join("doko.toml");
    let from_file = d.join("from-file");
    std::fs::write(
        &f,
        format!(
            "[store]\ndata = \"{}\"\n[log]\nlevel = \"info\"\nformat = \"json\"\n[terminal]\nname = \"Zora\"\n",
            from_file.display()
        ),
    )
    .unwrap();
    let out = doko().arg("--config").arg(&f).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(from_file.join("doko.redb").is_file(), "the file's store directory");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Zora"), "the file's name");
    let log = String::from_utf8_lossy(&out.stderr);
    let first = log.lines().next().expect("a log line");
    let v: serde_json::Value = serde_json::from_str(first).unwrap_or_else(|e| panic!("{e}: {first}"));
    assert_eq!(v["level"], "INFO", "{first}");
    // the variable wins over the file
    let from_env = d.join("from-env");
    let out = doko().arg("--config").arg(&f).env("DOKO_DATA", &from_env).env("DOKO_NAME", "Yuki").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(from_env.join("doko.redb").is_file(), "the environment's store directory");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Yuki"));
    // the file found through $DOKO_CONFIG, and a flag over both
    let flag = d.join("from-flag");
    let out = doko().env("DOKO_CONFIG", &f).arg("--data").arg(&flag).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(flag.join("doko.redb").is_file(), "the flag's store directory");
    // new tables start with the host's rules and language
    let tables = d.join("tables");
    let g = d.join("tables.toml");
    std::fs::write(
        &g,
        format!(
            "[store]\ndata = \"{}\"\n[tables]\npreset = \"casual\"\nrules = \"genscher=on, half_chicken=on\"\nlanguage = \"de\"\n",
            tables.display()
        ),
    )
    .unwrap();
    let out = doko().arg("--config").arg(&g).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("Regeln: casual + half_chicken=on, genscher=on"), "{shown}");
    // a wrong rule for new tables names the key and what it takes
    std::fs::write(&g, "[tables]\nrules = \"dulle=sometimes\"\n").unwrap();
    let (ok, out) = check(&g);
    assert!(!ok && out.contains("tables.rules") && out.contains("first-wins, second-wins"), "{out}");
    // a bad file: the problem, exit status 2, nothing served
    std::fs::write(&f, "[store]\nredis = \"http://localhost\"\n").unwrap();
    let out = doko().arg("--config").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:2: store.redis: not a Redis URL", f.display())), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    // a file named but missing
    let out = doko().arg("--config").arg(d.join("missing.toml")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
}
