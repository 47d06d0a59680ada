//! The tables' web pages from the service's side (docs/web.md): the
//! address `web` gives, no page of a deal before it is on the sheet, the
//! deal's page after it, the result linking to it, a renewed token killing
//! the old links with the same 404 as an unknown one, and no pages (nor
//! links) where the host serves none. The browser's view is
//! `cli/tests/web.rs`.

use doko_bot::web::{NOT_FOUND, Page};
use doko_bot::{Actor, ChannelId, Kind, MemoryStore, Message, Platform, Service, UserId};

fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::MATRIX, format!("@{id}:example.org")), name, admin)
}

async fn say(svc: &Service<MemoryStore>, ch: &ChannelId, who: &Actor, text: &str) -> Vec<Message> {
    svc.handle(ch, who, text).await.unwrap().messages()
}

fn all_text(msgs: &[Message]) -> String {
    msgs.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// The address after `label`.
fn url_after(text: &str, label: &str) -> String {
    let at = text.find(label).unwrap_or_else(|| panic!("no {label:?} in:\n{text}")) + label.len();
    text[at..].split_whitespace().next().unwrap().to_string()
}

fn body(p: &Page) -> String {
    String::from_utf8_lossy(&p.body).to_string()
}

const BASE: &str = "https://doko.example.org";

/// Anna (an admin) and Ben with two computers, the deal started.
async fn table(svc: &Service<MemoryStore>) -> (ChannelId, Actor, Actor) {
    let ch = ChannelId::new(Platform::MATRIX, "!web:example.org");
    let (anna, ben) = (person("anna", "Anna", true), person("ben", "Ben", false));
    for (who, cmd) in [(&anna, "join"), (&ben, "join"), (&anna, "addbot"), (&anna, "addbot"), (&anna, "start")] {
        say(svc, &ch, who, cmd).await;
    }
    (ch, anna, ben)
}

#[tokio::test]
async fn a_deal_has_a_page_only_once_it_is_on_the_sheet() {
    let svc = Service::new(MemoryStore::default(), 11).with_web(&format!("{BASE}/"));
    let (ch, anna, ben) = table(&svc).await;
    let out = all_text(&say(&svc, &ch, &ben, "web").await);
    let url = url_after(&out, "This table on the web: ");
    let token = url.strip_prefix(&format!("{BASE}/t/")).expect("the host's address, no double slash").to_string();
    assert_eq!(token.len(), 32);
    let miss = svc.web_page(&format!("/t/{}", "f".repeat(32))).await;
    assert_eq!((miss.status, body(&miss)), (404, NOT_FOUND.to_string()));

    // the deal being played: no page of it at any address, and the list's
    // page shows no card
    for path in ["deal/1", "deal/0", "deal/01", "deal/2", "deal/1/", "list/1/deal/1", "hand", "list/x"] {
        let p = svc.web_page(&format!("/t/{token}/{path}")).await;
        assert_eq!(p, miss, "{path}");
    }
    let list = svc.web_page(&format!("/t/{token}")).await;
    assert_eq!(list.status, 200);
    assert!(!body(&list).contains("data-card") && !body(&list).contains("/cards/"), "{}", body(&list));

    // the deal played out (both people away: the computers play), the
    // result links to its page
    say(&svc, &ch, &ben, "away").await;
    let out = all_text(&say(&svc, &ch, &anna, "away").await);
    let deal_url = url_after(&out, "This deal on the web: ");
    assert_eq!(deal_url, format!("{BASE}/t/{token}/deal/1"));
    let deal = svc.web_page(&format!("/t/{token}/deal/1")).await;
    assert_eq!(deal.status, 200, "{}", body(&deal));
    let html = body(&deal);
    assert_eq!(html.matches("class=\"step\"").count() - html.matches("data-card=\"\"").count(), 48, "{html}");
    assert!(html.contains("Anna") && html.contains("Ben"), "{html}");
    assert_eq!(deal.cache, doko_bot::web::Cache::Private);
    // list 1 shows the deal, its totals and the chart
    let list = body(&svc.web_page(&format!("/t/{token}/list/1")).await);
    // (the pages link to each other by the address's path)
    assert!(list.contains(&format!("href=\"/t/{token}/deal/1\"")), "{list}");
    // (one line a player in their colour; the axes are black)
    let lines = list.split("<polyline").skip(1).filter(|l| !l[..l.find('>').unwrap()].contains("#000000")).count();
    assert_eq!(lines, 4, "{list}");
    assert!(list.contains("After deal 1: Anna "), "the chart's numbers as text: {list}");
    let text = all_text(&say(&svc, &ch, &anna, "list").await);
    assert!(text.contains(&format!("On the web: {BASE}/t/{token}/list/1")), "{text}");

    // only an admin renews; then the old links are dead
    let out = say(&svc, &ch, &ben, "web renew").await;
    assert!(out.iter().any(|m| m.kind == Kind::Error), "{out:?}");
    assert_eq!(svc.web_page(&format!("/t/{token}/deal/1")).await.status, 200);
    let out = all_text(&say(&svc, &ch, &anna, "seite erneuern").await);
    let renewed = url_after(&out, "have a new address: ");
    assert_ne!(renewed, url);
    assert_eq!(svc.web_page(&format!("/t/{token}/deal/1")).await, miss);
    assert_eq!(svc.web_page(&format!("/t/{token}")).await, miss);
    let fresh = renewed.trim_start_matches(BASE);
    assert_eq!(svc.web_page(&format!("{fresh}/deal/1")).await.status, 200);
    assert_eq!(svc.web_page(&format!("{fresh}/leaderboard")).await.status, 200);
}

#[tokio::test]
async fn a_host_without_pages_gives_no_links() {
    let svc = Service::new(MemoryStore::default(), 12);
    let (ch, anna, ben) = table(&svc).await;
    let out = all_text(&say(&svc, &ch, &anna, "web").await);
    assert!(out.contains("serves no web pages"), "{out}");
    say(&svc, &ch, &ben, "away").await;
    let out = all_text(&say(&svc, &ch, &anna, "away").await);
    assert!(out.contains("Result of deal 1") && !out.contains("on the web"), "{out}");
    assert!(svc.table(&ch).await.unwrap().0.page().is_none());
    assert_eq!(svc.web_page("/static/deal.js").await.status, 200);
}
