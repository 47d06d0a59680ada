//! Inbound seam: real interaction payloads (JSON as Discord documents
//! them, including fields serenity 0.12 requires) decoded by serenity's own
//! types and translated into bot commands.

use doko_bot::command::{Command, RulesCmd};
use doko_bot::{Lang, Platform};
use doko_discord::{Inbound, decode, play_choices, translate};
use doko_engine::{Bid, Card, Reservation, SoloKind};

fn payload(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/payloads/{name}.json", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn inbound(name: &str) -> Inbound {
    let i = decode(&payload(name)).unwrap_or_else(|| panic!("{name} decodes"));
    translate(&i)
}

#[test]
fn a_slash_command_in_a_guild_becomes_a_command() {
    let Inbound::Command { channel, actor, command, delivery, from_button, .. } = inbound("slash-play") else {
        panic!("a command")
    };
    assert_eq!(command, Command::Play(Card::CQ), "kreuz dame is the queen of clubs");
    assert_eq!(channel.platform, Platform::DISCORD);
    assert_eq!(channel.id, "910000000000000000");
    assert_eq!(actor.user.id, "800000000000000001");
    assert_eq!(actor.name, "Anna K.", "the member's nickname");
    assert!(actor.admin, "Administrator permission");
    assert_eq!(delivery, "1200000000000000001");
    assert!(!from_button);
}

#[test]
fn bids_records_and_admin_rules() {
    let Inbound::Command { command, .. } = inbound("slash-bid-solo") else { panic!() };
    assert_eq!(command, Command::Bid(Bid::Reserve(Reservation::Solo { kind: SoloKind::Queens, duty: false })));
    let Inbound::Command { command, .. } = inbound("slash-record") else { panic!() };
    assert_eq!(command, Command::Record(Some(3)));
    let Inbound::Command { command, actor, .. } = inbound("slash-rules-admin") else { panic!() };
    assert!(actor.admin);
    assert_eq!(command, Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }));
    // a member without Manage Server is refused by the bot itself
    let Inbound::Refused { reason } = inbound("slash-rules-not-admin") else { panic!("refused") };
    assert!(reason.contains("Manage Server"), "{reason}");
}

#[test]
fn a_button_click_and_a_direct_message() {
    let Inbound::Command { command, actor, from_button, delivery, .. } = inbound("button-play") else { panic!() };
    assert_eq!(command, Command::Play("H10".parse().unwrap()));
    assert!(from_button);
    assert!(!actor.admin, "Ben has no Manage Server");
    assert_eq!(actor.name, "Ben");
    assert_eq!(delivery, "1200000000000000007");
    let Inbound::Command { command, actor, channel, .. } = inbound("dm-join") else { panic!() };
    assert_eq!(command, Command::Join);
    assert_eq!(channel.id, "920000000000000000");
    assert_eq!(actor.user.id, "800000000000000003");
    assert!(actor.admin, "a direct message is the user's own table");
}

#[test]
fn a_click_in_a_direct_message_acts_at_the_table_it_names() {
    let mut p: serde_json::Value = serde_json::from_str(&payload("button-play")).unwrap();
    p.as_object_mut().unwrap().remove("guild_id");
    p.as_object_mut().unwrap().remove("member");
    p["user"] =
        serde_json::json!({"id": "800000000000000002", "username": "ben", "discriminator": "0", "avatar": null});
    p["channel_id"] = serde_json::json!("930000000000000000");
    p["channel"] = serde_json::json!({"id": "930000000000000000", "type": 1});
    p["context"] = serde_json::json!(1);
    p["data"]["custom_id"] = serde_json::json!("doko:play:H10@910000000000000000");
    let Inbound::Command { channel, actor, command, .. } = translate(&decode(&p.to_string()).unwrap()) else {
        panic!("a command")
    };
    assert_eq!(channel.id, "910000000000000000");
    assert_eq!(command, Command::Play("H10".parse().unwrap()));
    assert!(!actor.admin, "a DM click is never an admin action at the table");
}

#[test]
fn autocomplete_offers_only_playable_cards() {
    let Inbound::Autocomplete { prefix, user, .. } = inbound("autocomplete-play") else { panic!("autocomplete") };
    assert_eq!(prefix, "h");
    assert_eq!(user.id, "800000000000000001");
    // choices come from the user's own view: only playable cards
    let mut g = doko_engine::Game::deal(doko_engine::Rules::default(), doko_engine::Seat::new(3), 4);
    for s in g.forehand().clockwise() {
        g.act(s, doko_engine::Action::Bid(Bid::Healthy)).unwrap();
    }
    let seat = g.to_act().unwrap();
    let view = g.view(seat);
    let ch = doko_bot::ChannelId::new(Platform::DISCORD, "910000000000000000");
    let hand = doko_bot::render::hand_model(Lang::En, &ch, &view.hand_view(), String::new());
    let all = play_choices(Some(&hand), "");
    assert_eq!(all.len(), view.legal_cards().distinct().len());
    let hearts = play_choices(Some(&hand), &prefix);
    assert!(hearts.iter().all(|(_, code)| code.starts_with('H')), "{hearts:?}");
    let other = g.current_trick().leader.next();
    let other_hand = doko_bot::render::hand_model(Lang::En, &ch, &g.hand_view(other), String::new());
    assert!(play_choices(Some(&other_hand), "").is_empty(), "not on turn: nothing playable");
    assert!(play_choices(None, "").is_empty());
}

#[test]
fn an_undecodable_payload_is_reported_not_dropped() {
    assert!(decode(&payload("broken")).is_none());
    assert!(decode("not json").is_none());
}

#[test]
fn the_commands_to_register() {
    let cmds = doko_discord::commands();
    let json: Vec<serde_json::Value> = cmds.iter().map(|c| serde_json::to_value(c).unwrap()).collect();
    let public = json.iter().find(|c| c["name"] == "doko").unwrap();
    assert!(public.get("default_member_permissions").is_none_or(|v| v.is_null()), "public commands are for everyone");
    let admin = json.iter().find(|c| c["name"] == "doko-rules").unwrap();
    assert_eq!(admin["default_member_permissions"], "32", "Manage Server");
    let subs: Vec<&str> = public["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    for s in ["join", "leave", "start", "addbot", "hand", "bid", "play", "announce", "table", "score", "record", "help"]
    {
        assert!(subs.contains(&s), "/doko {s}");
    }
    let lists = json.iter().find(|c| c["name"] == "doko-lists").unwrap();
    assert!(lists.get("default_member_permissions").is_none_or(|v| v.is_null()), "lists are for everyone");
    let subs: Vec<&str> = lists["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(subs, ["stats", "list", "leaderboard", "me", "analysis", "web"]);
    let subs: Vec<&str> = admin["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    for s in ["server-set", "server-preset", "server-lang", "server-policy", "server-reset", "server-show"] {
        assert!(subs.contains(&s), "/doko-rules {s}");
    }
    let play = public["options"].as_array().unwrap().iter().find(|o| o["name"] == "play").unwrap();
    assert_eq!(play["options"][0]["autocomplete"], true);
}

#[test]
fn a_person_mentioned_in_an_option_is_given_as_their_id() {
    // the bot knows no mention syntax: the adapter gives the id it names
    let Inbound::Command { command, .. } = inbound("slash-kick-mention") else { panic!("a command") };
    assert_eq!(command, Command::Kick("800000000000000002".into()));
}
