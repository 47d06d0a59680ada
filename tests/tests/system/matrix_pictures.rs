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
    let syn = Synapse::start_with_users("bot alice eve");
    let data = syn.dir.join("bot");
    std::fs::create_dir_all(&data).unwrap();
    let bot = Bot::start(&syn.url, &data);
    stage(t0, "bot serving");

    let mut table = Pictures::in_an_encrypted_room(t0, &syn).await;
    table.pictures_on_alice_and_computers_eve_watching().await;
    say(&table.room, "!doko start").await;
    let mut seen = Seeing::default();
    table.play_the_deal(&mut seen).await;
    // eve's client has the deal's picture too (it may come after alice's)
    let rid = table.rid.clone();
    table
        .watch
        .since(0, "the deal's picture, as eve saw it", |s| s.player == EVE && s.room == rid && s.image.is_some())
        .await;
    stage(t0, "deal finished");
    assert_eq!(seen.plays, 12, "alice played her twelve cards");
    assert!(seen.granted_seen, "eve never got alice's hand");
    let grant = "alice lets eve see their hand (Kiebitz).";
    let rid = &table.rid;
    assert!(table.watch.log.iter().any(|s| from_bot(s) && &s.room == rid && s.body.contains(grant)), "the grant shown");
    check_what_each_saw(seen, &table.watch.log, rid);
    drop(bot);

    // no cards or pictures in the bot's log: the picture lines name the
    // file, its size and the room only
    let log = std::fs::read_to_string(data.join("bot.log")).unwrap();
    assert!(log.contains("sent a card picture"), "the pictures are logged (debug)");
    for line in log.lines().filter(|l| l.contains("card picture")) {
        assert!(!line.contains('♣') && !line.contains("doko-cards"), "cards in the log: {line}");
    }
    stage(t0, "done");
}

/// How long the test has run, printed with what it has reached.
fn stage(t0: std::time::Instant, what: &str) {
    eprintln!("[matrix pictures] {what}: {} ms", t0.elapsed().as_millis());
}

/// Alice's encrypted room with the bot and eve, and everything they see.
struct Pictures {
    t0: std::time::Instant,
    watch: Watch,
    /// Keeps the players' events coming.
    _tx: mpsc::UnboundedSender<Seen>,
    alice: Client,
    eve: Client,
    /// The table room as alice has it, and as eve has it.
    room: matrix_sdk::Room,
    eve_room: matrix_sdk::Room,
    rid: OwnedRoomId,
}

/// What alice and eve were shown of the deal, and what alice did.
#[derive(Default)]
struct Seeing {
    /// Their direct rooms.
    dms: [Option<OwnedRoomId>; 2],
    /// A hand text whose picture is still to come, per person.
    pending: [Option<Vec<Card>>; 2],
    alice_hands: Vec<Vec<Card>>,
    eve_pictures: Vec<Vec<Card>>,
    alice_pictures: usize,
    /// Alice's hand and the card she will play when she let eve look.
    granted: Option<(Vec<Card>, String)>,
    granted_seen: bool,
    acted_on: Option<String>,
    result: Option<String>,
    deal_picture: Option<Vec<Vec<Card>>>,
    plays: usize,
}

impl Pictures {
    /// Alice's encrypted room with the bot and eve, everyone joined.
    async fn in_an_encrypted_room(t0: std::time::Instant, syn: &Synapse) -> Pictures {
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
            InitialStateEvent::with_empty_state_key(RoomEncryptionEventContent::with_recommended_defaults())
                .to_raw_any(),
        ];
        let room = alice.create_room(req).await.unwrap();
        let rid: OwnedRoomId = room.room_id().to_owned();
        let eve_room = eve.join_room_by_id(&rid).await.unwrap();
        // the joins arrive in any order: each is looked for in all that came
        let from = watch.log.len();
        for who in ["@bot:localhost", "@eve:localhost"] {
            let want = format!("member {who} join");
            watch.since(from, "everyone joined", |s| s.player == ALICE && s.room == rid && s.body == want).await;
        }
        Pictures { t0, watch, _tx: tx, alice, eve, room, eve_room, rid }
    }

    /// Pictures on; alice sits down with three computers; eve watches (the
    /// bot shows her as "eve").
    async fn pictures_on_alice_and_computers_eve_watching(&mut self) {
        let Pictures { watch, room, eve_room, rid, .. } = self;
        let said = |text: &'static str| {
            let rid = rid.clone();
            move |s: &Seen| from_bot(s) && s.player == ALICE && s.room == rid && s.body.contains(text)
        };
        say(room, "!doko cards images").await;
        watch.until("pictures on", said("Cards are shown as pictures from now on")).await;
        say(room, "!doko join").await;
        watch.until("alice seated", said("alice joins the table.")).await;
        for _ in 0..3 {
            say(room, "!doko addbot").await;
            watch.until("a computer seated", said("(computer) joins the table.")).await;
        }
        // eve watches; the bot shows her as "eve"
        say(eve_room, "!doko watch").await;
        watch.until("eve watching", said("eve watches the table.")).await;
        stage(self.t0, "table set up");
    }

    /// The deal, played from alice's direct room; at her first turn she
    /// lets eve see her hand, and plays once eve has it. Until the deal's
    /// picture came and every hand text had its picture.
    async fn play_the_deal(&mut self, seen: &mut Seeing) {
        loop {
            if seen.deal_picture.is_some()
                && seen.pending.iter().all(Option::is_none)
                && seen.eve_pictures.iter().all(|p| seen.alice_hands.contains(p))
            {
                break;
            }
            let s = self.watch.next().await;
            if !from_bot(&s) {
                continue;
            }
            if s.room == self.rid {
                self.in_the_table_room(seen, &s).await;
                continue;
            }
            if s.image.is_none() && !s.notice && s.body.starts_with("member ") {
                continue; // the bot joining the direct room
            }
            let p = s.player;
            let client = if p == ALICE { &self.alice } else { &self.eve };
            match &seen.dms[p] {
                Some(d) => {
                    assert_eq!(&s.room, d, "a message from the bot outside the table and the direct room: {s:?}")
                }
                None => {
                    let r = client.get_room(&s.room).unwrap();
                    assert!(r.latest_encryption_state().await.unwrap().is_encrypted(), "direct rooms are encrypted");
                    seen.dms[p] = Some(s.room.clone());
                }
            }
            if let Some(image) = &s.image {
                self.a_hand_picture(seen, &s, image).await;
                continue;
            }
            assert!(s.body.starts_with("Bilderabend\n"), "a direct message names its table: {s:?}");
            if p == EVE {
                assert!(own_hand(&s.body).is_none(), "eve holds no cards: {s:?}");
                if let Some((whose, hand)) = kiebitz_hand(&s.body) {
                    assert_eq!(whose, "alice", "eve sees alice's hand only");
                    assert!(seen.pending[EVE].is_none(), "a hand text without its picture");
                    seen.pending[EVE] = Some(hand);
                }
                continue;
            }
            self.alice_s_hand_text(seen, &s).await;
        }
    }

    /// In the table room: never a hand; the only picture the deal's, after
    /// its result.
    async fn in_the_table_room(&self, seen: &mut Seeing, s: &Seen) {
        assert!(
            !s.body.contains("Your hand") && !s.body.contains("Kiebitz: do not tell"),
            "a hand in the public room: {s:?}"
        );
        if let Some(image) = &s.image {
            // the only picture in the room: the deal's, after its result
            let name = image.filename.as_deref().unwrap_or(&image.body);
            assert_eq!(name, "deal.png", "a picture other than the deal's in the room: {image:?}");
            if s.player == ALICE {
                assert!(seen.result.is_some(), "the deal's picture came before the result's text");
                assert!(seen.deal_picture.is_none(), "the deal's picture was sent twice");
                assert_eq!(image.body, "Picture of the deal: every hand as dealt", "its alt text");
                seen.deal_picture = Some(picture_cards(&self.alice, image).await);
                stage(self.t0, "the deal's picture");
            }
        } else if s.player == ALICE && seen.result.is_none() && s.body.contains("Result of deal") {
            seen.result = Some(s.body.clone());
            stage(self.t0, "the deal's result");
        }
    }

    /// A picture in a direct room: encrypted, of the hand of the text
    /// before it; eve's first after the grant is alice's hand, and alice
    /// plays then.
    async fn a_hand_picture(&self, seen: &mut Seeing, s: &Seen, image: &ImageMessageEventContent) {
        let p = s.player;
        let client = if p == ALICE { &self.alice } else { &self.eve };
        assert_encrypted(s, image);
        assert_eq!(image.filename.as_deref(), Some("hand.png"), "{image:?}");
        let want = seen.pending[p].take().unwrap_or_else(|| panic!("a picture without its hand text: {s:?}"));
        let got = picture_cards(client, image).await;
        assert_eq!(got.concat(), want, "the picture shows the hand of the text before it");
        if p == ALICE {
            assert!(image.body.starts_with("Picture of your hand"), "its alt text: {}", image.body);
            seen.alice_pictures += 1;
            return;
        }
        seen.eve_pictures.push(want.clone());
        if let Some((hand, card)) = seen.granted.as_ref().filter(|_| !seen.granted_seen) {
            // the picture eve got when alice let her look: alice's hand now
            assert_eq!(&want, hand, "eve sees alice's hand as it is");
            seen.granted_seen = true;
            stage(self.t0, "eve has alice's hand");
            say(&self.alice.get_room(seen.dms[ALICE].as_ref().unwrap()).unwrap(), &format!("play {card}")).await;
            seen.plays += 1;
        }
    }

    /// A hand text in alice's direct room: its picture to come; on her
    /// first turn she lets eve look, else she plays or answers.
    async fn alice_s_hand_text(&self, seen: &mut Seeing, s: &Seen) {
        let Some(hand) = own_hand(&s.body) else { return };
        assert!(seen.pending[ALICE].is_none(), "a hand text without its picture");
        seen.pending[ALICE] = Some(hand.clone());
        seen.alice_hands.push(hand.clone());
        if seen.result.is_some() || seen.acted_on.as_deref() == Some(s.body.as_str()) {
            return; // the next deal, or a hand shown again
        }
        seen.acted_on = Some(s.body.clone());
        let dm = self.alice.get_room(&s.room).unwrap();
        if s.body.contains("Your turn") {
            let card = first_playable(&s.body).expect("a playable card");
            if seen.granted.is_none() {
                say(&self.room, "!doko kiebitz eve").await;
                seen.granted = Some((hand, card));
                return;
            }
            say(&dm, &format!("play {card}")).await;
            seen.plays += 1;
        } else if let Some(can) = s.body.lines().find_map(|l| l.strip_prefix("You can: ")) {
            let choices: Vec<&str> = can.split(", ").collect();
            let pick = ["healthy", "decline"].into_iter().find(|c| choices.contains(c));
            let pick = pick.or_else(|| choices.iter().copied().find(|c| !c.contains(' ')));
            say(&dm, pick.unwrap_or_else(|| panic!("what to answer: {can}"))).await;
        }
    }
}

/// Every hand alice got came with its picture; eve saw alice's hand only;
/// the deal's picture shows every hand as dealt, as the result says, and
/// is the room's only picture; the pictures in the direct rooms are
/// encrypted.
fn check_what_each_saw(seen: Seeing, log: &[Seen], rid: &OwnedRoomId) {
    let Seeing { alice_pictures, alice_hands, eve_pictures, deal_picture, result, .. } = seen;
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
    let in_room: Vec<&Seen> = log.iter().filter(|s| &s.room == rid && s.image.is_some()).collect();
    assert_eq!(in_room.len(), 2, "the deal's picture, seen by alice and eve: {in_room:#?}");
    // 4. the pictures in the direct rooms are encrypted (checked as they came)
    assert!(log.iter().filter(|s| s.image.is_some() && &s.room != rid).all(|s| s.encrypted));
}
