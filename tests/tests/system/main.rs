//! The whole-system tests, one test binary: the workspace's largest
//! dependencies (matrix-sdk, serenity, reqwest) are linked once, not once
//! per subject. Each subject is a module: `cargo test -p doko-system-tests
//! --test system matrix::` runs one.

#![recursion_limit = "256"]

mod common;
#[path = "common/synapse.rs"]
mod synapse;

mod cluster;
mod damaged;
mod discord;
mod discord_http;
mod discord_server;
mod discord_shards;
mod failover;
mod fake_discord;
mod linked;
mod matrix;
mod matrix_outage;
mod matrix_pictures;
mod matrix_server;
mod matrix_timing;
mod outage;
mod seam;
mod seat;
mod sessions;
mod stores;
mod timer;
