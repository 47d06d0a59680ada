//! Computer players failing part of the way through a command (on damaged
//! data; here the `computer-step` failpoint): nothing of the command is
//! kept, neither in the store nor in the process's copy of the table, and
//! the delivery is not remembered, so the same delivery made again is
//! applied. (The only test of its file: the failpoint is set in this
//! process's environment.)
#![cfg(feature = "failpoints")]

use doko_bot::{Actor, ChannelId, Command, Kind, MemoryStore, Platform, Service, UserId};

#[tokio::test]
async fn computers_failing_part_way_leave_the_table_and_the_delivery_as_they_were() {
    let store = MemoryStore::default();
    let svc = Service::new(store.clone(), 5);
    // another process on the same store reads what is stored
    let other = Service::new(store.clone(), 6);
    let ch = ChannelId::new(Platform::MATRIX, "!computers:example.org");
    let anna = Actor::new(UserId::new(Platform::MATRIX, "@anna:example.org"), "Anna", false);
    for text in ["join", "addbot", "addbot", "addbot", "start"] {
        svc.handle(&ch, &anna, text).await.unwrap();
    }
    // SAFETY: set before any other thread of this test reads the
    // environment (the runtime's workers only run this test's futures)
    unsafe { std::env::set_var("DOKO_FAILPOINT", "computer-step:1") };
    let mut failed = false;
    for i in 0..200 {
        let (t, _) = other.table(&ch).await.unwrap();
        let Some(v) = t.view_for(&anna.user).filter(|_| t.person_to_act().is_some()) else {
            panic!("Anna is not to act after {i} moves")
        };
        let cmd = Command::from_action(v.legal[0]);
        let id = format!("delivery-{i}");
        let out = svc.execute_delivery(&ch, &anna, cmd.clone(), Some(&id)).await.unwrap();
        let errors: Vec<_> = out.private.iter().filter(|p| p.kind == Kind::Error).collect();
        if errors.is_empty() {
            // no computer acted after Anna's move (she leads again)
            continue;
        }
        failed = true;
        assert_eq!(errors.len(), 1, "{out:?}");
        assert!(!out.duplicate);
        // the store holds the table from before Anna's move
        let (after, _) = other.table(&ch).await.unwrap();
        assert_eq!(after, t, "the failed command changed the stored table");
        // and so does this process: the same delivery again is applied
        // (not taken for a duplicate), and the computers play on
        let again = svc.execute_delivery(&ch, &anna, cmd, Some(&id)).await.unwrap();
        assert!(!again.duplicate, "the failed delivery was remembered: {again:?}");
        assert!(again.private.iter().all(|p| p.kind != Kind::Error), "{again:?}");
        let (stored, _) = other.table(&ch).await.unwrap();
        assert!(stored.moves() > t.moves() + 1, "Anna's move and a computer's are stored");
        let (held, _) = svc.table(&ch).await.unwrap();
        assert_eq!(held, stored, "the process's copy is the stored table");
        // the delivery is remembered now: a third time is a duplicate
        let third = svc.execute_delivery(&ch, &anna, Command::Table, Some(&id)).await.unwrap();
        assert!(third.duplicate);
        break;
    }
    assert!(failed, "no computer step came after a move of Anna's");
}
