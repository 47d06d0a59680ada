//! One action at a bench table: the deal as its players follow it, the
//! next action as the basic computer decides it, and the command that
//! sends it to the service.

use std::time::{Duration, Instant};

/// One table of the benchmark: its channel and its four people.
pub type BenchTable = (doko_bot::ChannelId, Vec<doko_bot::Actor>);

/// A table's deal as the driver follows it: the game and, for each game
/// seat, which of the table's people plays it.
pub type Followed = Option<(doko_engine::Game, [Option<usize>; 4])>;

/// A table's next action as its player decided it, before it is due: who
/// plays which seat, what they do, and what they do instead when the
/// service refuses it (the first legal action: a forced solo's choice).
pub struct Decided {
    /// Which of the table's people acts.
    pub actor: usize,
    /// The game seat they act for.
    pub seat: doko_engine::Seat,
    /// What they do.
    pub action: doko_engine::Action,
    /// What they do when the service refuses it.
    pub fallback: doko_engine::Action,
}

/// A deal as the bench's players follow it, from the table read through
/// the driver's own service: the game and, for each game seat, which of
/// the table's people plays it. None when no deal runs.
pub async fn follow(
    reader: &doko_bot::Service<doko_bot::RedisStore>,
    ch: &doko_bot::ChannelId,
    people: &[doko_bot::Actor],
) -> anyhow::Result<Followed> {
    let (t, _) = doko_bot::Service::table(reader, ch).await?;
    let Some(g) = t.game()? else { return Ok(None) };
    let seated = doko_engine::Seat::ALL.map(|s| {
        let ts = t.table_seat(s)?;
        people.iter().position(|a| t.seat_of(&a.user) == Some(ts))
    });
    Ok(Some((g, seated)))
}

/// Whether a followed deal has nobody to act (it ended, or none runs):
/// it is read again.
pub fn over(deal: &Followed) -> bool {
    deal.as_ref().is_none_or(|(g, _)| g.mandatory_announcement().or(g.to_act()).is_none())
}

/// The next action at a followed deal, as the basic computer plays it;
/// None when nobody the driver seated is to act.
pub fn decide(deal: &Followed) -> Option<Decided> {
    use doko_players::player::{BasicPlayer, Player};
    let (g, seated) = deal.as_ref()?;
    let seat = g.mandatory_announcement().or(g.to_act())?;
    let actor = seated[seat.index()]?;
    let v = g.view(seat);
    let action = BasicPlayer.decide(&v);
    Some(Decided { actor, seat, action, fallback: *v.legal.first()? })
}

/// One action at a table: the next person to act plays as the basic
/// computer would ([`decide`]). Returns how long the service took to
/// answer it (a refused choice's fallback not counted), or `None` when
/// the table has nothing to do.
pub async fn act<S: doko_bot::Store>(
    svc: &doko_bot::Service<S>,
    reader: &doko_bot::Service<doko_bot::RedisStore>,
    ch: &doko_bot::ChannelId,
    people: &[doko_bot::Actor],
    deal: &mut Followed,
    durable: bool,
) -> anyhow::Result<Option<Duration>> {
    use doko_bot::Kind;

    // the deal as the players follow it: read from the store when a deal
    // starts (and after a refusal), then played along here, as people at a
    // table follow it from what they are shown, so that the driver's reads
    // neither share Redis with the service nor cost a parse and replay per
    // action
    if over(deal) {
        *deal = follow(reader, ch, people).await?;
    }
    let Some(d) = decide(deal) else { return Ok(None) };
    let actor = &people[d.actor];
    let sent = Instant::now();
    let msgs = command(svc, ch, actor, d.action, durable).await?;
    let answered = sent.elapsed();
    if msgs.private.iter().any(|m| m.kind == Kind::Error) {
        // a refused choice (a forced solo): take the first legal action,
        // and read the table again next time
        command(svc, ch, actor, d.fallback, durable).await?;
        *deal = None;
    } else if deal.as_mut().is_some_and(|(g, _)| g.act(d.seat, d.action).is_err()) {
        *deal = None;
    }
    Ok(Some(answered))
}

/// The actions sent so far (each action's delivery id is made from it).
static CLICKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// One action as a command to the service, delivered with an id of its
/// own as a platform delivers a click (a Discord interaction id: a
/// snowflake of 19 digits), so the table remembers it as it does in play;
/// with the durable outbox, what it owes is then marked delivered (as
/// `deliver` does, with nothing sent).
pub async fn command<S: doko_bot::Store>(
    svc: &doko_bot::Service<S>,
    ch: &doko_bot::ChannelId,
    actor: &doko_bot::Actor,
    action: doko_engine::Action,
    durable: bool,
) -> anyhow::Result<doko_bot::Outbox> {
    let click = CLICKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let id = (1_190_000_000_000_000_000u64 + click * 4_194_304).to_string();
    let cmd = doko_bot::command::Command::from_action(action);
    let msgs = svc.execute_delivery(ch, actor, cmd, Some(&id)).await?;
    if durable && !msgs.owed.is_empty() {
        doko_bot::PostOffice::delivered(svc, ch, msgs.owed_salt, &msgs.owed).await;
    }
    Ok(msgs)
}
