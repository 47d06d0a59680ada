//! The tables' web pages as a person sees them: the real binary at its
//! terminal table with `[web] url` set plays a list of three deals; a real
//! headless Chromium (Debian's, driven through chromedriver) opens the
//! list's page and a deal's page, steps through the deal with the next
//! button to its last card, and what it shows is checked against the
//! bot's own `score` and `record`. Screenshots are kept under
//! `target/web-pages/`. Before a deal ends none of its pages exists, at
//! any address a client tries; a renewed token kills the old links; an
//! unknown token gets the same 404 as everything else.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

mod common;
use common::{Doko, choose};

/// A request over HTTP/1.0: the status, the headers and the body.
fn request(port: u16, method: &str, path: &str) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "{method} {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").expect("a header");
    let head = String::from_utf8_lossy(&all[..split]).to_string();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head, all[split + 4..].to_vec())
}

fn get(port: u16, path: &str) -> (u16, String) {
    let (status, _, body) = request(port, "GET", path);
    (status, String::from_utf8_lossy(&body).to_string())
}

/// Plays at the terminal until `until` shows (the person's bids and
/// cards; `hand` when it is not their turn).
fn play_until(doko: &mut Doko, screen: &mut String, until: &str) -> String {
    let mut all = screen.clone();
    let mut moves = 0;
    while !all.contains(until) {
        let can = screen.lines().rev().find(|l| l.contains("You can:")).unwrap_or("");
        let line = match choose(screen) {
            Some(line) => line,
            // a poverty offered: declined
            None if can.contains("decline") => "decline".into(),
            None => "hand".into(),
        };
        *screen = doko.send(&line);
        all.push_str(screen);
        moves += 1;
        assert!(moves < 300, "{until:?} never came:\n{all}");
    }
    all
}

/// The address after `label` in the terminal's output.
fn url_after(text: &str, label: &str) -> String {
    let at = text.rfind(label).unwrap_or_else(|| panic!("no {label:?} in:\n{text}")) + label.len();
    text[at..].split_whitespace().next().unwrap().to_string()
}

/// Each player's total in `score`'s last row.
fn score_totals(score: &str) -> Vec<i64> {
    let row = score.lines().rfind(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit()));
    let row = row.unwrap_or_else(|| panic!("no deal in:\n{score}"));
    row.split_whitespace().filter_map(|w| w.parse::<i64>().ok()).skip(1).take(4).collect()
}

/// Chromedriver on a free loopback port.
struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn chromedriver() -> Driver {
    let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let port = free_port();
    let child = Command::new(&bin)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{bin}: {e} (scripts/test installs Debian's chromium-driver)"));
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver(child, port)
}

async fn browser(port: u16) -> Client {
    let mut caps = serde_json::Map::new();
    let chrome = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chrome,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"]
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

/// Where the test keeps its screenshots.
fn artifacts() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-pages");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in c.find_all(Locator::Css(css)).await.unwrap() {
        out.push(e.text().await.unwrap());
    }
    out
}

/// The binary at its terminal table, its listener on `port` serving the
/// pages, lists of three deals.
fn start(d: &std::path::Path, port: u16) -> Doko {
    let cfg = d.join("doko.toml");
    std::fs::write(
        &cfg,
        format!(
            "[store]\ndata = \"{}\"\n\n[tables]\nrules = \"games_per_session=3,compulsory_solos=0\"\n\n\
             [terminal]\nname = \"Anna\"\n\n[metrics]\nlisten = \"127.0.0.1:{port}\"\n\n\
             [web]\nurl = \"http://127.0.0.1:{port}\"\n",
            d.join("data").display()
        ),
    )
    .unwrap();
    Doko::start(&["--config".as_ref(), cfg.as_os_str()])
}

/// While deal 1 runs: no page of it at any address a client tries (the
/// same 404 as an unknown token, also for HEAD and POST), and the list's
/// page shows no card.
fn nothing_of_the_running_deal(port: u16, base: &str, miss: &str) {
    let tries = [
        "/deal/1",
        "/deal/01",
        "/deal/1/",
        "/deal/0",
        "/deal/2",
        "/deal/-1",
        "/deal/4294967296",
        "/deal/1?hand=1",
        "/list/1/deal/1",
        "/record/1",
        "/hand",
        "/../deal/1",
    ];
    for t in tries {
        let u = format!("{base}{t}");
        assert_eq!(get(port, &u), (404, miss.to_string()), "{u}");
        assert_eq!(request(port, "HEAD", &u).0, 404, "{u}");
    }
    let upper = base.to_uppercase().replace("/T/", "/t/");
    assert_eq!(get(port, &format!("{upper}/deal/1")), (404, miss.to_string()));
    assert_eq!(request(port, "POST", base).0, 404);
    assert_eq!(request(port, "POST", base).2, miss.as_bytes());
    let (status, page) = get(port, base);
    assert_eq!(status, 200, "{page}");
    assert!(!page.contains("/cards/") && !page.contains("data-card"), "no card on a list's page:\n{page}");
}

/// The cards played in record `n`, as `record N` hands it out.
fn recorded_plays(doko: &mut Doko, n: u32) -> Vec<String> {
    let record = doko.send(&format!("record {n}"));
    // (the terminal writes what is for the person alone as "  | " lines)
    let lines: Vec<&str> = record.lines().map(|l| l.strip_prefix("  | ").unwrap_or(l)).collect();
    let text = lines.join("\n");
    let json = &text[text.find('{').unwrap()..=text.rfind('}').unwrap()];
    let rec: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {record}"));
    let plays: Vec<String> = rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.get("play").and_then(|p| p.as_str()).map(str::to_string))
        .collect();
    assert!(plays.len() == 48 || plays.len() == 40, "{record}");
    plays
}

/// In Chromium: list 1's totals are `totals` and its chart has a line per
/// player; its first deal, stepped through with the next button to the
/// end, shows the cards `plays`; the leaderboard names Anna.
async fn in_the_browser(list_url: &str, totals: &[i64], plays: &[String]) {
    let driver = chromedriver();
    let c = browser(driver.1).await;
    let out = artifacts();
    c.goto(list_url).await.unwrap();
    let shown: Vec<i64> = texts(&c, "#totals td.total").await.iter().map(|t| t.trim().parse().unwrap()).collect();
    assert_eq!(shown, totals, "the page's totals against `score`");
    // (the axes are black lines; each player's is in their colour)
    let lines = c.find_all(Locator::Css("#chart svg polyline:not([stroke='#000000'])")).await.unwrap();
    assert_eq!(lines.len(), 4, "one line per player");
    assert_eq!(c.find_all(Locator::Css("#sheet tbody tr")).await.unwrap().len(), 3);
    std::fs::write(out.join("list.png"), c.screenshot().await.unwrap()).unwrap();

    // the first deal from its row: no card played shows before stepping
    c.find(Locator::Css("#sheet tbody tr a")).await.unwrap().click().await.unwrap();
    assert!(c.current_url().await.unwrap().as_str().ends_with("/deal/1"));
    assert_eq!(c.find_all(Locator::Css(".hand img")).await.unwrap().len(), plays.len(), "the hands as dealt");
    assert!(texts(&c, "#tricks .step").await.iter().all(String::is_empty), "nothing played before stepping");
    let next = c.find(Locator::Css("#next")).await.unwrap();
    let mut presses = 0;
    while next.prop("disabled").await.unwrap().as_deref() != Some("true") {
        next.click().await.unwrap();
        presses += 1;
        assert!(presses < 100, "the next button never ends");
        if presses == 5 {
            std::fs::write(out.join("deal-step-5.png"), c.screenshot().await.unwrap()).unwrap();
        }
    }
    let mut seen = Vec::new();
    for e in c.find_all(Locator::Css("#tricks .step")).await.unwrap() {
        let card = e.attr("data-card").await.unwrap().unwrap_or_default();
        assert!(!e.text().await.unwrap().is_empty(), "every step shown at the end");
        if !card.is_empty() {
            seen.push(card);
        }
    }
    assert_eq!(seen, plays, "the page's cards against `record 1`");
    std::fs::write(out.join("deal-end.png"), c.screenshot().await.unwrap()).unwrap();

    let board = list_url.replace("/list/1", "/leaderboard");
    c.goto(&board).await.unwrap();
    assert!(texts(&c, "#all-time tbody td").await.iter().any(|t| t == "Anna"));
    c.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_and_its_deals_on_the_web() {
    let d = std::env::temp_dir().join(format!("doko-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let port = free_port();
    let mut doko = start(&d, port);
    let mut screen = doko.next();

    // the table's address; an unknown token's 404
    let s = doko.send("web");
    let table_url = url_after(&s, "This table on the web: ");
    let token = table_url.rsplit('/').next().unwrap().to_string();
    assert_eq!(token.len(), 32, "{s}");
    let base = format!("/t/{token}");
    let (status, miss) = get(port, &format!("/t/{}", "0".repeat(32)));
    assert_eq!(status, 404);
    nothing_of_the_running_deal(port, &base, &miss);

    // three deals: the list is over; each result links to its deal
    let all = play_until(&mut doko, &mut screen, "Result of deal 3");
    let deal_url = url_after(&all, "This deal on the web: ");
    assert!(deal_url.starts_with(&format!("http://127.0.0.1:{port}/t/{token}/deal/")), "{deal_url}");
    let score = doko.send("score");
    let list = doko.send("list 1");
    let list_url = url_after(&list, "On the web: ");
    assert_eq!(list_url, format!("http://127.0.0.1:{port}/t/{token}/list/1"));
    let plays = recorded_plays(&mut doko, 1);
    in_the_browser(&list_url, &score_totals(&score), &plays).await;

    // a new token: the old links are dead, the same 404 as a wrong token
    let s = doko.send("web renew");
    let renewed = url_after(&s, "have a new address: ");
    assert_ne!(renewed, table_url);
    assert_eq!(get(port, &base), (404, miss.clone()));
    assert_eq!(get(port, &format!("{base}/deal/1")), (404, miss.clone()));
    let new_base = renewed.trim_start_matches(&format!("http://127.0.0.1:{port}")).to_string();
    let (status, head, _) = request(port, "GET", &format!("{new_base}/deal/1"));
    assert_eq!(status, 200);
    let head = head.to_lowercase();
    assert!(head.contains("cache-control: private, max-age=86400"), "{head}");
    assert!(head.contains("referrer-policy: no-referrer"), "{head}");
    assert!(head.contains("content-security-policy: default-src 'none'"), "{head}");
    // a client that asks too fast is told so (60 at once, one a second)
    let statuses: Vec<u16> = (0..80).map(|_| request(port, "GET", "/static/doko.css").0).collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(statuses.iter().all(|s| *s == 200 || *s == 429), "{statuses:?}");
    assert_eq!(request(port, "GET", "/healthz").0, 200, "the health checks are not bounded");
    doko.stdin.write_all(b"quit\n").unwrap();
    let _ = doko.child.wait();
    let _ = std::fs::remove_dir_all(&d);
}
