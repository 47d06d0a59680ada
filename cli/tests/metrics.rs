//! The metrics and health listener as an admin's Prometheus sees it: the
//! real binary with `[metrics] listen` in its configuration file, a deal
//! played to its end in the terminal, then `/metrics` scraped and its
//! counters checked against what was played; `/healthz` and `/readyz`
//! report the store.

use std::io::{Read, Write};
use std::net::TcpStream;

mod common;
use common::{Doko, choose};

/// `GET path` over HTTP/1.0: the status code and the body.
fn get(port: u16, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// The value of one series (`name{labels}`) in a Prometheus text page.
fn value(page: &str, series: &str) -> f64 {
    page.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {series} in:\n{page}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn a_scripted_deal_shows_in_the_counters() {
    let d = std::env::temp_dir().join(format!("doko-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let cfg = d.join("doko.toml");
    std::fs::write(
        &cfg,
        format!("[store]\ndata = \"{}\"\n\n[metrics]\nlisten = \"127.0.0.1:{port}\"\n", d.join("data").display()),
    )
    .unwrap();
    let mut doko = Doko::start(&["--config".as_ref(), cfg.as_os_str()]);
    let mut screen = doko.next();

    // before anything is played: healthy and ready, the series there
    let (status, body) = get(port, "/healthz");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""store":"up""#), "{body}");
    let (status, body) = get(port, "/readyz");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""status":"ready""#), "{body}");
    assert_eq!(get(port, "/nothing").0, 404);

    // one deal to its end: the person's bid and twelve cards; one refusal
    let mut all = screen.clone();
    let (mut plays, mut bids) = (0, 0);
    while !all.contains("Result of deal 1") {
        let line = choose(&screen).unwrap_or_else(|| "hand".into());
        plays += usize::from(line.starts_with("play"));
        bids += usize::from(line == "healthy");
        screen = doko.send(&line);
        all.push_str(&screen);
        assert!(plays + bids < 100, "the deal does not end:\n{all}");
    }
    let s = doko.send("leave");
    assert!(!s.contains("leaves"), "leaving during a session is refused: {s}");

    let (status, page) = get(port, "/metrics");
    assert_eq!(status, 200);
    assert_eq!(plays, 12);
    assert_eq!(value(&page, r#"doko_commands_total{kind="play",outcome="done"}"#), plays as f64, "{page}");
    assert_eq!(value(&page, r#"doko_commands_total{kind="bid",outcome="done"}"#), bids as f64);
    assert_eq!(value(&page, r#"doko_commands_total{kind="leave",outcome="refused"}"#), 1.0);
    assert_eq!(value(&page, r#"doko_deals_total{outcome="scored"}"#), 1.0);
    assert_eq!(value(&page, r#"doko_command_seconds_count{kind="play"}"#), plays as f64);
    // (a move is one commit on the table this process holds: no load;
    // its delivery costs none, see Service::defer_marks)
    assert!(value(&page, "doko_store_seconds_count") >= (plays + bids) as f64, "a commit per move");
    assert_eq!(value(&page, "doko_tables_active"), 1.0);
    assert_eq!(value(&page, "doko_store_up"), 1.0);
    assert!(page.contains("# TYPE doko_command_seconds histogram"), "{page}");
    assert!(!page.contains("doko_errors_total"), "no failure: {page}");
    // nothing of a hand in the page
    for suit in ['♣', '♠', '♥', '♦'] {
        assert!(!page.contains(suit), "{page}");
    }

    doko.stdin.write_all(b"quit\n").unwrap();
    assert!(doko.child.wait().unwrap().success());
    let _ = std::fs::remove_dir_all(&d);
}
