//! Card pictures over Matrix, against a real homeserver (Synapse on
//! loopback, the real `doko` binary, matrix-sdk clients; the harness is
//! `common/synapse.rs`): alice creates an encrypted room with the bot and
//! eve, switches the table to pictures (`!doko cards images`), sits down
//! with three computer players and plays a whole deal from her direct room;
//! eve watches and alice lets her see her hand (Kiebitz).
//!
//! What a person sees: every hand text in alice's direct room is followed
//! by an `m.image` whose cards (the PNG's `doko-cards` chunk, read from the
//! downloaded, decrypted file) are exactly the hand's; eve gets alice's
//! hand, text and picture, and no other; the table's room never gets a
//! hand picture: its only picture is the deal's, every hand as dealt (as
//! the result's "deal revealed" lines say), after the result's text; the
//! direct rooms are encrypted and so are the pictures in them (`file`, not
//! `url`).

use crate::synapse;

use doko_bot::picture::cards_of;
use doko_engine::Card;
use matrix_sdk::Client;
use matrix_sdk::media::{MediaFormat, MediaRequestParameters};
use matrix_sdk::ruma::api::client::room::create_room::v3::Request as CreateRoom;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::MediaSource;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::room::message::ImageMessageEventContent;
use matrix_sdk::ruma::{OwnedRoomId, OwnedUserId};
use synapse::{Bot, Seen, Synapse, Watch, first_playable, from_bot, player, say};
use tokio::sync::mpsc;

const ALICE: usize = 0;
const EVE: usize = 1;

/// A card as the English text shows it (`♣Q`, `[♥10]`).
fn card(label: &str) -> Card {
    let label = label.trim_matches(|c| c == '[' || c == ']');
    let mut chars = label.chars();
    let suit = match chars.next() {
        Some('♣') => 'C',
        Some('♠') => 'S',
        Some('♥') => 'H',
        Some('♦') => 'D',
        _ => panic!("not a card: {label}"),
    };
    format!("{suit}{}", chars.as_str()).parse().unwrap_or_else(|_| panic!("not a card: {label}"))
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

/// The cards of a person's hand text (`Your hand: ♣Q [♠A] ...`).
fn own_hand(body: &str) -> Option<Vec<Card>> {
    body.lines().find_map(|l| l.strip_prefix("Your hand: ")).map(cards)
}

/// The cards of a Kiebitz's hand text (`alice's hand (you are their
/// Kiebitz: do not tell): ♣Q ...`), with whose hand it is.
fn kiebitz_hand(body: &str) -> Option<(String, Vec<Card>)> {
    body.lines().find_map(|l| {
        let (head, list) = l.split_once(" (you are their Kiebitz: do not tell): ")?;
        Some((head.strip_suffix("'s hand")?.to_string(), cards(list)))
    })
}

/// The hands as dealt, from a result's text: name and cards, in order.
fn revealed(body: &str) -> Vec<(String, Vec<Card>)> {
    let mut lines = body.lines().skip_while(|l| !l.starts_with("The deal revealed"));
    assert!(lines.next().is_some(), "the result reveals the deal: {body}");
    lines
        .take(4)
        .map(|l| {
            let (name, list) = l.trim().split_once(": ").unwrap_or_else(|| panic!("a hand as dealt: {l}"));
            (name.to_string(), cards(list))
        })
        .collect()
}

/// Downloads a picture (decrypting it when it came encrypted) and reads its
/// cards.
async fn picture_cards(client: &Client, image: &ImageMessageEventContent) -> Vec<Vec<Card>> {
    let req = MediaRequestParameters { source: image.source.clone(), format: MediaFormat::File };
    let png = client.media().get_media_content(&req, false).await.expect("downloading the picture");
    assert!(png.starts_with(b"\x89PNG"), "a PNG ({} bytes)", png.len());
    cards_of(&png).expect("the picture lists its cards")
}

/// The picture came encrypted: the event (`m.room.encrypted` on the wire)
/// and the file (`file` with its key, not a plain `url`).
fn assert_encrypted(s: &Seen, image: &ImageMessageEventContent) {
    assert!(s.encrypted, "the picture's event was not encrypted: {s:?}");
    assert!(matches!(image.source, MediaSource::Encrypted(_)), "the picture's file is not encrypted: {image:?}");
}

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_pictures_over_matrix() {
    let t0 = std::time::Instant::now();
    let mark = |what: &str| eprintln!("[matrix pictures] {what}: {} ms", t0.elapsed().as_millis());
    let syn = Synapse::start_with_users("bot alice eve");
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&syn.url, &data);
    mark("bot serving");

    let (tx, rx) = mpsc::unbounded_channel();
    let mut watch = Watch::new(rx);
    let alice = player(&syn.url, "alice", ALICE, tx.clone()).await;
    let eve = player(&syn.url, "eve", EVE, tx.clone()).await;
    let eve_id: OwnedUserId = eve.user_id().unwrap().to_owned();

    // alice's encrypted room with the bot and eve
    let mut req = CreateRoom::new();
    req.name = Some("Bilderabend".into());
    req.invite = vec!["@bot:localhost".try_into().unwrap(), eve_id.clone()];
    req.initial_state = vec![
        InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults()).to_raw_any(),
    ];
    let room = alice.create_room(req).await.unwrap();
    let rid: OwnedRoomId = room.room_id().to_owned();
    let eve_room = eve.join_room_by_id(&rid).await.unwrap();
    for who in ["@bot:localhost", "@eve:localhost"] {
        let want = format!("member {who} join");
        watch.until("everyone joined", |s| s.player == ALICE && s.room == rid && s.body == want).await;
    }
    let said = |text: &'static str| {
        let rid = rid.clone();
        move |s: &Seen| from_bot(s) && s.player == ALICE && s.room == rid && s.body.contains(text)
    };
    say(&room, "!doko cards images").await;
    watch.until("pictures on", said("Cards are shown as pictures from now on")).await;
    say(&room, "!doko join").await;
    watch.until("alice seated", said("alice joins the table.")).await;
    for _ in 0..3 {
        say(&room, "!doko addbot").await;
        watch.until("a computer seated", said("(computer) joins the table.")).await;
    }
    // eve watches; the bot shows her as "eve"
    say(&eve_room, "!doko watch").await;
    watch.until("eve watching", said("eve watches the table.")).await;
    mark("table set up");
    say(&room, "!doko start").await;

    // the deal, played from alice's direct room; at her first turn she
    // lets eve see her hand, and plays once eve has it
    let mut dms: [Option<OwnedRoomId>; 2] = [None, None];
    // a hand text whose picture is still to come, per person
    let mut pending: [Option<Vec<Card>>; 2] = [None, None];
    let mut alice_hands: Vec<Vec<Card>> = Vec::new();
    let mut eve_pictures: Vec<Vec<Card>> = Vec::new();
    let mut alice_pictures = 0;
    let mut granted: Option<(Vec<Card>, String)> = None;
    let mut granted_seen = false;
    let mut acted_on: Option<String> = None;
    let mut result: Option<String> = None;
    let mut deal_picture: Option<Vec<Vec<Card>>> = None;
    let mut plays = 0;
    loop {
        if deal_picture.is_some()
            && pending.iter().all(Option::is_none)
            && eve_pictures.iter().all(|p| alice_hands.contains(p))
        {
            break;
        }
        let s = watch.next().await;
        if !from_bot(&s) {
            continue;
        }
        if s.room == rid {
            assert!(
                !s.body.contains("Your hand") && !s.body.contains("Kiebitz: do not tell"),
                "a hand in the public room: {s:?}"
            );
            if let Some(image) = &s.image {
                // the only picture in the room: the deal's, after its result
                let name = image.filename.as_deref().unwrap_or(&image.body);
                assert_eq!(name, "deal.png", "a picture other than the deal's in the room: {image:?}");
                if s.player == ALICE {
                    assert!(result.is_some(), "the deal's picture came before the result's text");
                    assert!(deal_picture.is_none(), "the deal's picture was sent twice");
                    assert_eq!(image.body, "Picture of the deal: every hand as dealt", "its alt text");
                    deal_picture = Some(picture_cards(&alice, image).await);
                    mark("the deal's picture");
                }
            } else if s.player == ALICE && result.is_none() && s.body.contains("Result of deal") {
                result = Some(s.body.clone());
                mark("the deal's result");
            }
            continue;
        }
        if s.image.is_none() && !s.notice && s.body.starts_with("member ") {
            continue; // the bot joining the direct room
        }
        let p = s.player;
        let client = if p == ALICE { &alice } else { &eve };
        match &dms[p] {
            Some(d) => assert_eq!(&s.room, d, "a message from the bot outside the table and the direct room: {s:?}"),
            None => {
                let r = client.get_room(&s.room).unwrap();
                assert!(r.latest_encryption_state().await.unwrap().is_encrypted(), "direct rooms are encrypted");
                dms[p] = Some(s.room.clone());
            }
        }
        if let Some(image) = &s.image {
            assert_encrypted(&s, image);
            assert_eq!(image.filename.as_deref(), Some("hand.png"), "{image:?}");
            let want = pending[p].take().unwrap_or_else(|| panic!("a picture without its hand text: {s:?}"));
            let got = picture_cards(client, image).await;
            assert_eq!(got.concat(), want, "the picture shows the hand of the text before it");
            if p == ALICE {
                assert!(image.body.starts_with("Picture of your hand"), "its alt text: {}", image.body);
                alice_pictures += 1;
                continue;
            }
            eve_pictures.push(want.clone());
            if let Some((hand, card)) = granted.as_ref().filter(|_| !granted_seen) {
                // the picture eve got when alice let her look: alice's hand now
                assert_eq!(&want, hand, "eve sees alice's hand as it is");
                granted_seen = true;
                mark("eve has alice's hand");
                say(&alice.get_room(dms[ALICE].as_ref().unwrap()).unwrap(), &format!("play {card}")).await;
                plays += 1;
            }
            continue;
        }
        assert!(s.body.starts_with("Bilderabend\n"), "a direct message names its table: {s:?}");
        if p == EVE {
            assert!(own_hand(&s.body).is_none(), "eve holds no cards: {s:?}");
            if let Some((whose, hand)) = kiebitz_hand(&s.body) {
                assert_eq!(whose, "alice", "eve sees alice's hand only");
                assert!(pending[EVE].is_none(), "a hand text without its picture");
                pending[EVE] = Some(hand);
            }
            continue;
        }
        let Some(hand) = own_hand(&s.body) else { continue };
        assert!(pending[ALICE].is_none(), "a hand text without its picture");
        pending[ALICE] = Some(hand.clone());
        alice_hands.push(hand.clone());
        if result.is_some() || acted_on.as_deref() == Some(s.body.as_str()) {
            continue; // the next deal, or a hand shown again
        }
        acted_on = Some(s.body.clone());
        let dm = alice.get_room(&s.room).unwrap();
        if s.body.contains("Your turn") {
            let card = first_playable(&s.body).expect("a playable card");
            if granted.is_none() {
                say(&room, "!doko kiebitz eve").await;
                granted = Some((hand, card));
                continue;
            }
            say(&dm, &format!("play {card}")).await;
            plays += 1;
        } else if let Some(can) = s.body.lines().find_map(|l| l.strip_prefix("You can: ")) {
            let choices: Vec<&str> = can.split(", ").collect();
            let pick = ["healthy", "decline"].into_iter().find(|c| choices.contains(c));
            let pick = pick.or_else(|| choices.iter().copied().find(|c| !c.contains(' ')));
            say(&dm, pick.unwrap_or_else(|| panic!("what to answer: {can}"))).await;
        }
    }
    mark("deal finished");
    assert_eq!(plays, 12, "alice played her twelve cards");
    assert!(granted_seen, "eve never got alice's hand");
    let grant = "alice lets eve see their hand (Kiebitz).";
    assert!(watch.log.iter().any(|s| from_bot(s) && s.room == rid && s.body.contains(grant)), "the grant shown");

    // 1. every hand alice got came with its picture
    assert!(alice_pictures >= 13, "a picture with each hand: {alice_pictures}");
    assert_eq!(alice_pictures, alice_hands.len(), "a picture with each hand");
    // 2. eve saw alice's hand only (each picture equal to one of alice's
    // hands, the first to alice's hand at the grant)
    assert!(!eve_pictures.is_empty());
    for p in &eve_pictures {
        assert!(alice_hands.contains(p), "eve saw a hand that is not alice's: {p:?}");
    }
    // 3. the deal's picture: every hand as dealt, as the result says
    let rows = deal_picture.unwrap();
    let result = result.unwrap();
    let hands = revealed(&result);
    assert_eq!(hands.len(), 4, "{result}");
    assert_eq!(rows, hands.iter().map(|(_, c)| c.clone()).collect::<Vec<_>>(), "the deal's picture: {result}");
    let dealt = &hands.iter().find(|(n, _)| n == "alice").expect("alice's hand as dealt").1;
    // (alice's first hand of the deal; a deal dealt anew is another)
    assert!(alice_hands.iter().any(|h| sorted(h.clone()) == sorted(dealt.clone())), "alice's hand as dealt");
    // no other picture in the room (as alice and as eve saw it)
    let in_room: Vec<&Seen> = watch.log.iter().filter(|s| s.room == rid && s.image.is_some()).collect();
    assert_eq!(in_room.len(), 2, "the deal's picture, seen by alice and eve: {in_room:#?}");
    // 4. the pictures in the direct rooms are encrypted (checked as they came)
    assert!(watch.log.iter().filter(|s| s.image.is_some() && s.room != rid).all(|s| s.encrypted));
    drop(bot);

    // no cards or pictures in the bot's log: the picture lines name the
    // file, its size and the room only
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    assert!(log.contains("sent a card picture"), "the pictures are logged (debug)");
    for line in log.lines().filter(|l| l.contains("card picture")) {
        assert!(!line.contains('♣') && !line.contains("doko-cards"), "cards in the log: {line}");
    }
    mark("done");
}
