//! The authority table ([`doko_bot::authority::AUTHORITY`]) run through the
//! service, cell by cell, in English and in German: every command kind sent
//! by every kind of person (a stranger in the channel, a seated player, the
//! player to act, an admin who is not seated, a player writing from a
//! direct message) at a table where the command makes sense. An allowed
//! cell must go through (or meet only the table's state, named here); a
//! refused one must be answered with exactly the refusal in the channel's
//! language and change nothing. Computers never give commands: their column
//! allows exactly the game moves, which they make on their turns.

use doko_bot::authority::{self, Access, ActorKind, CommandKind, Refusal};
use doko_bot::command::{CardStyle, Command, Period, PovertyStep, RulesCmd, ServerCmd, TimeoutPolicy};
use doko_bot::{
    Actor, Audience, ChannelId, CommandError, Kind, Lang, MemoryStore, Message, Platform, Service, UserId, render, tr,
};
use doko_engine::{Action, Bid, Call, Card, Phase};
use doko_players::BotLevel;

/// Where a command is tried.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scene {
    /// Anna, Ben and Cleo and a computer seated; no session.
    Lobby,
    /// The same, a deal dealt, a person to bid.
    Bidding,
    /// The same, the reservations over, a person to play.
    Playing,
    /// A deal aborted (record 1), the next one dealt, a person to bid.
    Recorded,
}

/// A table set up for one cell.
struct Setup {
    svc: Service<MemoryStore>,
    ch: ChannelId,
    lang: Lang,
    seated: Vec<Actor>,
    admin: Actor,
    stranger: Actor,
}

/// A person in the channel of a Discord server, whose admins (the
/// channel's) are the server's.
fn person(id: &str, name: &str, admin: bool) -> Actor {
    Actor::new(UserId::new(Platform::DISCORD, id), name, admin)
        .in_server(doko_bot::ServerId::new(Platform::DISCORD, "guild"), admin)
}

fn errors(m: &[Message]) -> Vec<&Message> {
    m.iter().filter(|m| m.kind == Kind::Error).collect()
}

impl Setup {
    async fn say(&self, who: &Actor, cmd: Command) -> Vec<Message> {
        self.svc.execute(&self.ch, who, cmd).await.unwrap().messages()
    }

    async fn ok(&self, who: &Actor, cmd: Command) -> bool {
        errors(&self.say(who, cmd).await).is_empty()
    }

    async fn table(&self) -> doko_bot::Table {
        self.svc.table(&self.ch).await.unwrap().0
    }

    /// The seated person to act, if a person is to act.
    async fn to_act(&self) -> Option<Actor> {
        let (user, _) = self.table().await.person_to_act()?;
        self.seated.iter().find(|a| a.user == user).cloned()
    }

    /// A seated person who is not to act.
    async fn not_to_act(&self) -> Actor {
        let to_act = self.to_act().await.map(|a| a.user);
        self.seated.iter().find(|a| Some(&a.user) != to_act.as_ref()).cloned().unwrap()
    }

    async fn new(scene: Scene, lang: Lang) -> Setup {
        for seed in 1.. {
            let s = Setup {
                svc: Service::new(MemoryStore::default(), seed),
                ch: ChannelId::new(Platform::DISCORD, "authority"),
                lang,
                seated: vec![person("a", "Anna", false), person("b", "Ben", false), person("c", "Cleo", false)],
                admin: person("m", "Mod", true),
                stranger: person("z", "Zed", false),
            };
            if let Some(s) = s.build(scene).await {
                return s;
            }
        }
        unreachable!()
    }

    /// Sets the scene up; `None` when this seed's deal does not give it.
    async fn build(self, scene: Scene) -> Option<Setup> {
        if self.lang != Lang::En {
            assert!(self.ok(&self.admin, Command::Lang(self.lang)).await);
        }
        for p in &self.seated {
            assert!(self.ok(p, Command::Join).await);
        }
        assert!(self.ok(&self.admin, Command::AddBot(BotLevel::Basic)).await);
        if scene == Scene::Lobby {
            return Some(self);
        }
        assert!(self.ok(&self.seated[0], Command::Start).await);
        if scene == Scene::Recorded {
            assert!(self.ok(&self.admin, Command::Abort).await);
            assert!(self.ok(&self.seated[0], Command::Start).await);
            assert_eq!(self.table().await.records(), 1);
        }
        let phase = |t: &doko_bot::Table| t.game().unwrap().map(|g| g.phase());
        if scene == Scene::Playing {
            while phase(&self.table().await) == Some(Phase::Bidding) {
                let who = self.to_act().await?;
                if !self.ok(&who, Command::Bid(Bid::Healthy)).await {
                    return None; // a forced solo: another seed
                }
            }
        }
        let want = if scene == Scene::Playing { Phase::Playing } else { Phase::Bidding };
        let t = self.table().await;
        (phase(&t) == Some(want) && t.person_to_act().is_some()).then_some(self)
    }
}

/// Where each command kind is tried, and the table's own answer to the
/// player to act where it is not the command's place (a deal runs).
fn case(kind: CommandKind) -> (Scene, Option<CommandError>) {
    use CommandKind as K;
    match kind {
        K::Join | K::Away | K::Dm | K::Table | K::Score | K::Stats | K::RulesShow | K::Help => (Scene::Lobby, None),
        K::LastTrick | K::Watch | K::Unwatch | K::Kiebitz | K::Cards => (Scene::Lobby, None),
        K::Leaderboard | K::Me | K::Server | K::Link | K::Web | K::WebRenew => (Scene::Lobby, None),
        K::List => (Scene::Bidding, None),
        K::RulesChange | K::Lang | K::Policy | K::Kick | K::Pause | K::Resume | K::RemoveBot => (Scene::Lobby, None),
        K::Leave | K::Start => (Scene::Lobby, Some(CommandError::DealRunning)),
        K::AddBot => (Scene::Lobby, Some(CommandError::SessionOpen)),
        K::Back => (Scene::Lobby, Some(CommandError::NotAway)),
        // (the default rules have no coach)
        K::Hint => (Scene::Bidding, Some(CommandError::NoCoach)),
        K::Hand | K::Bid | K::Poverty | K::Abort | K::Reset => (Scene::Bidding, None),
        K::Play | K::Announce => (Scene::Playing, None),
        K::Record | K::Analysis => (Scene::Recorded, None),
    }
}

/// The command of a kind as this person would give it.
async fn command(s: &Setup, kind: CommandKind, who: &Actor) -> Command {
    use CommandKind as K;
    let view = s.table().await.view_for(&who.user);
    match kind {
        K::Join => Command::Join,
        K::Leave => Command::Leave,
        K::Start => Command::Start,
        K::AddBot => Command::AddBot(BotLevel::Basic),
        K::RemoveBot => Command::RemoveBot(None),
        K::Away => Command::Away,
        K::Back => Command::Back,
        K::Hand => Command::Hand,
        K::Hint => Command::Hint,
        K::Dm => Command::Dm(true),
        K::Bid => Command::Bid(Bid::Healthy),
        K::Play => {
            Command::Play(view.map_or(Card::CQ, |v| {
                v.legal_cards().iter().next().unwrap_or_else(|| *v.sorted_hand().first().unwrap())
            }))
        }
        K::Announce => Command::Announce(
            view.and_then(|v| {
                v.legal.iter().find_map(|a| match a {
                    Action::Announce(c) => Some(*c),
                    _ => None,
                })
            })
            .unwrap_or(Call::Re),
        ),
        K::Poverty => Command::Poverty(PovertyStep::Accept),
        K::Table => Command::Table,
        K::Score => Command::Score,
        K::Record => Command::Record(None),
        K::Analysis => Command::Analysis(None),
        K::Stats => Command::Stats,
        K::List => Command::List(None),
        K::Leaderboard => Command::Leaderboard(Period::Month),
        K::Me => Command::Me,
        K::Server => Command::Server(ServerCmd::Set { key: "dulle".into(), value: "second-wins".into() }),
        K::RulesShow => Command::Rules(RulesCmd::Show),
        K::RulesChange => Command::Rules(RulesCmd::Set { key: "dulle".into(), value: "second-wins".into() }),
        K::Lang => Command::Lang(s.lang),
        K::Policy => Command::Policy(TimeoutPolicy::Abort),
        K::Cards => Command::Cards(CardStyle::Images),
        K::Link => Command::Link(None),
        K::Web => Command::Web { renew: false },
        K::WebRenew => Command::Web { renew: true },
        K::LastTrick => Command::LastTrick,
        K::Watch => Command::Watch,
        K::Unwatch => {
            // (watching first, where they may)
            s.say(who, Command::Watch).await;
            Command::Unwatch
        }
        K::Kiebitz => {
            s.say(&s.stranger, Command::Watch).await;
            Command::Kiebitz(Some(s.stranger.name.clone()))
        }
        K::Help => Command::Help(None),
        K::Kick => Command::Kick("cleo".into()),
        K::Abort => Command::Abort,
        K::Reset => Command::Reset,
        K::Pause => Command::Pause,
        K::Resume => Command::Resume,
    }
}

/// The refusal a person reads for a refusal of the authority table.
fn refusal_text(lang: Lang, r: Refusal) -> String {
    let e = match r {
        Refusal::NotSeated => CommandError::NotSeated,
        Refusal::AlreadySeated => CommandError::AlreadySeated,
        Refusal::SeatedOrAdmin => CommandError::NotAtTable,
        Refusal::AdminOnly => CommandError::NotAdmin,
        Refusal::InChannel => CommandError::InChannel,
        Refusal::NotYourTurn | Refusal::ComputersOnlyPlay => unreachable!("not a refusal people read here"),
    };
    render::error(lang, &e)
}

/// Runs one cell; returns a description of what went wrong, if anything.
async fn cell(lang: Lang, kind: CommandKind, actor: ActorKind) -> Option<String> {
    let (mut scene, to_act_state) = case(kind);
    if actor == ActorKind::ToAct && scene == Scene::Lobby {
        scene = Scene::Bidding; // the player to act needs a deal
    }
    let s = Setup::new(scene, lang).await;
    let dealt = scene != Scene::Lobby;
    let who = match actor {
        ActorKind::Stranger => s.stranger.clone(),
        ActorKind::Admin => s.admin.clone(),
        ActorKind::Seated if dealt => s.not_to_act().await,
        ActorKind::Seated => s.seated[1].clone(),
        ActorKind::ToAct => s.to_act().await.unwrap(),
        ActorKind::Direct if dealt => s.to_act().await.unwrap().from_direct(),
        ActorKind::Direct => s.seated[1].clone().from_direct(),
        ActorKind::Computer => unreachable!(),
    };
    assert_eq!(
        s.table().await.actor_kind(&who.user),
        match actor {
            ActorKind::Stranger | ActorKind::Admin => ActorKind::Stranger,
            ActorKind::Direct if dealt => ActorKind::ToAct,
            ActorKind::Direct => ActorKind::Seated,
            k => k,
        }
    );
    if kind == CommandKind::Back && actor != ActorKind::ToAct {
        s.say(&who, Command::Away).await;
    }
    let to_act_name = s.to_act().await.map(|a| a.name);
    let cmd = command(&s, kind, &who).await;
    let (_, before) = s.svc.table(&s.ch).await.unwrap();
    let m = s.say(&who, cmd.clone()).await;
    let (_, after) = s.svc.table(&s.ch).await.unwrap();
    let errs = errors(&m);
    let wrong_phase = tr!(lang, "rule-wrong-phase", phase = "bidding");
    // what the answer must be: None = it goes through
    let expected: Option<String> = match authority::access(kind, actor) {
        Access::Refused(Refusal::NotYourTurn) if kind == CommandKind::Poverty => Some(wrong_phase),
        Access::Refused(Refusal::NotYourTurn) => {
            Some(tr!(lang, "rule-not-your-turn", name = to_act_name.clone().unwrap()))
        }
        Access::Refused(r) => Some(refusal_text(lang, r)),
        Access::Allowed if kind == CommandKind::Poverty => Some(wrong_phase),
        // the table's state: the default rules have no coach
        Access::Allowed if kind == CommandKind::Hint => Some(render::error(lang, &CommandError::NoCoach)),
        Access::Allowed if actor == ActorKind::ToAct => to_act_state.map(|e| render::error(lang, &e)),
        // the table's state: people who did not play the deal have none to analyse
        Access::Allowed if kind == CommandKind::Analysis && matches!(actor, ActorKind::Stranger | ActorKind::Admin) => {
            Some(render::error(lang, &CommandError::NoAnalysis(0)))
        }
        Access::Allowed => None,
    };
    let what = format!("{lang:?} `{cmd}` by {} ({actor:?})", who.name);
    match expected {
        None if errs.is_empty() => None,
        None => Some(format!("{what}: refused: {:?}", errs.iter().map(|m| &m.text).collect::<Vec<_>>())),
        Some(text) => {
            if errs.len() != 1 || m.len() != 1 || errs[0].text != text {
                return Some(format!("{what}: want only {text:?}, got {m:?}"));
            }
            if errs[0].to != Audience::Private(who.user.clone()) {
                return Some(format!("{what}: the refusal is not private"));
            }
            (before != after).then(|| format!("{what}: a refused command changed the table"))
        }
    }
}

async fn whole_table(lang: Lang) {
    let mut failures = Vec::new();
    let mut cells = 0;
    for kind in CommandKind::all() {
        for actor in ActorKind::ALL {
            if actor == ActorKind::Computer {
                continue;
            }
            cells += 1;
            if let Some(f) = cell(lang, kind, actor).await {
                failures.push(f);
            }
        }
    }
    assert_eq!(cells, 41 * 5);
    assert!(failures.is_empty(), "{} of {cells} cells:\n{}", failures.len(), failures.join("\n"));
}

#[tokio::test]
async fn every_command_against_every_actor_in_english() {
    whole_table(Lang::En).await;
}

#[tokio::test]
async fn every_command_against_every_actor_in_german() {
    whole_table(Lang::De).await;
}

#[tokio::test]
async fn computers_only_make_their_own_moves() {
    // the table: computers may make moves and nothing else
    for kind in CommandKind::all() {
        let allowed = authority::access(kind, ActorKind::Computer) == Access::Allowed;
        assert_eq!(allowed, kind.is_move(), "{kind:?}");
    }
    // and they do, on their turns: a person with three computers bids,
    // the computers answer
    let s = Setup::new(Scene::Lobby, Lang::En).await;
    assert!(s.ok(&s.seated[0], Command::Leave).await);
    assert!(s.ok(&s.seated[1], Command::Leave).await);
    for _ in 0..2 {
        assert!(s.ok(&s.admin, Command::AddBot(BotLevel::Basic)).await);
    }
    assert!(s.ok(&s.seated[2], Command::Start).await);
    let t = s.table().await;
    let g = t.game().unwrap().unwrap();
    let computer_moves = g.bids().iter().flatten().count();
    assert!(computer_moves >= 1 || t.person_to_act().is_some(), "computers bid on their turns");
    // nobody can speak for a computer: an id that looks like one is a stranger
    let fake = Actor::new(UserId::new(Platform::DISCORD, "bot:1"), "Bot 1", false);
    assert_eq!(t.actor_kind(&fake.user), ActorKind::Stranger);
    let m = s.say(&fake, Command::Bid(Bid::Healthy)).await;
    assert_eq!(errors(&m)[0].text, render::error(Lang::En, &CommandError::NotSeated));
}
