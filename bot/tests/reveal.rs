//! The deal revealed (issue 18, item 2): once a deal is over the table
//! shows every hand as dealt and every trick in order, in the result
//! message; before that, no public message shows a hand.

use doko_bot::{Actor, Audience, ChannelId, Kind, Lang, MemoryStore, Platform, Service, Store, UserId};
use doko_engine::Record;

#[tokio::test]
async fn every_hand_and_trick_is_shown_once_the_deal_is_over_and_never_before() {
    let svc = Service::new(MemoryStore::default(), 21);
    let ch = ChannelId::new(Platform::MATRIX, "!reveal:example.org");
    let anna = Actor::new(UserId::new(Platform::MATRIX, "@anna:example.org"), "Anna", true);
    let mut before: Vec<String> = Vec::new();
    let mut after: Vec<String> = Vec::new();
    for text in ["join", "addbot", "addbot", "addbot", "start"] {
        let out = svc.handle(&ch, &anna, text).await.unwrap().messages();
        before.extend(out.into_iter().filter(|m| m.to == Audience::Public).map(|m| m.text));
    }
    for _ in 0..200 {
        let t = svc.table(&ch).await.unwrap().0;
        if t.records() == 1 {
            break;
        }
        let view = t.view_for(&anna.user).expect("Anna sits");
        let text = doko_bot::Command::from_action(view.legal[0]).to_string();
        let out = svc.handle(&ch, &anna, &text).await.unwrap().messages();
        assert!(!out.iter().any(|m| m.kind == Kind::Error), "{text}: {out:?}");
        let done = svc.table(&ch).await.unwrap().0.records() == 1;
        let public = out.into_iter().filter(|m| m.to == Audience::Public).map(|m| m.text);
        if done { after.extend(public) } else { before.extend(public) }
    }
    let rec = Record::from_stored(&svc.store().record(&ch, 1).await.unwrap().expect("record 1")).unwrap();
    let g = rec.replay().unwrap();
    let l = Lang::En;
    let shown: Vec<String> = g.dealt().iter().map(|h| l.cards(g.order().sorted(*h).into_iter())).collect();
    // before the end: no hand, no reveal
    for text in &before {
        assert!(!text.contains("The deal revealed"), "{text}");
        for h in &shown {
            assert!(!text.contains(h.as_str()), "a hand shown before the end: {text}");
        }
    }
    // after: every hand as dealt, then every trick in order
    let summary = after.iter().find(|t| t.contains("The deal revealed")).unwrap_or_else(|| panic!("{after:?}"));
    for h in &shown {
        assert!(summary.contains(&format!(": {h}")), "{h} in {summary}");
    }
    let mut at = summary.find("The deal revealed").unwrap();
    for (i, t) in g.tricks().iter().enumerate() {
        let line = format!("{}. ", i + 1);
        let cards = l.cards(t.cards.iter().copied());
        let pos = summary[at..].find(line.as_str()).map(|p| p + at).unwrap_or_else(|| panic!("trick {i}: {summary}"));
        let end = summary[pos..].find('\n').map_or(summary.len(), |e| e + pos);
        assert!(summary[pos..end].contains(&cards), "trick {}: {}", i + 1, &summary[pos..end]);
        assert!(summary[pos..end].ends_with(&format!("({})", t.points())), "{}", &summary[pos..end]);
        at = end;
    }
}
