//! Each command's `--help` lists the options that command uses, and no
//! other command's (the terminal table's name, the store, ...).

use std::process::Command;

/// `doko ARGS --help`, its text.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_doko")).args(args).arg("--help").output().expect("doko starts");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The long options a help text lists (`--name`, ...), without `--help`
/// and `--version`.
fn options(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            // (`-h, --help`: the long form)
            let l = match l.as_bytes() {
                [b'-', short, b',', b' ', ..] if *short != b'-' => &l[4..],
                _ => l,
            };
            l.strip_prefix("--").map(|r| format!("--{}", r.split([' ', '<', '=']).next().unwrap_or("")))
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect();
    out.sort();
    out
}

#[test]
fn each_command_lists_its_own_options_only() {
    let store = ["--config", "--data", "--redis"];
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["--bot-budget-ms", "--config", "--data", "--log-json", "--name", "--redis"]),
        (&["play"], &["--bot-budget-ms", "--config", "--data", "--log-json", "--name", "--redis"]),
        (&["replay"], &["--json"]),
        (&["bench"], &["--games", "--no-nines", "--runs", "--seed"]),
        (&["bench-tables"], &["--actions", "--no-durable", "--rate", "--redis", "--runs", "--tables"]),
        (&["bench-pictures"], &["--runs"]),
        (
            &["arena"],
            &[
                "--a",
                "--a-budget-ms",
                "--b",
                "--budget-ms",
                "--deals",
                "--rules",
                "--seat-timeout-ms",
                "--seed",
                "--threads",
                "--worlds",
            ],
        ),
        (&["seat"], &["--budget-ms", "--kind", "--strict", "--worlds"]),
        (&["export"], &store),
        (&["import"], &store),
        (&["store", "inspect"], &["--config", "--data", "--redis", "--state"]),
        (&["config", "check"], &[]),
    ];
    for (args, want) in cases {
        let got = options(&help(args));
        assert_eq!(got, want.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "doko {} --help", args.join(" "));
    }
}

/// An option written before the command's name still counts for the
/// command (`doko --data DIR export FILE`), as written after it.
#[test]
fn a_store_option_before_the_command_counts() {
    let dir = std::env::temp_dir().join(format!("doko-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, args) in [["--data", "D", "export", "F"], ["export", "F", "--data", "D"]].iter().enumerate() {
        let data = dir.join(format!("data{i}"));
        let file = dir.join(format!("out{i}.json"));
        let args: Vec<std::ffi::OsString> = args
            .iter()
            .map(|a| match *a {
                "D" => data.clone().into_os_string(),
                "F" => file.clone().into_os_string(),
                a => a.into(),
            })
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_doko"))
            .args(&args)
            .env_remove("DOKO_DATA")
            .env_remove("DOKO_REDIS_URL")
            .env_remove("DOKO_CONFIG")
            .output()
            .expect("doko starts");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(data.join("doko.redb").exists(), "{args:?}: the store in the directory given");
        assert!(file.exists(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
