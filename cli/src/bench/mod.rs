//! The benchmarks: `doko bench` (random complete games per second on one
//! core), `doko bench-tables` (many tables at once on Redis, closed and
//! open loop, against Redis alone), `doko bench-pictures` (the card
//! pictures' time and size) and `doko bench-pages` (the web pages).

mod counting;
mod drive;
mod games;
mod late;
mod latency;
mod machine;
mod paced;
mod pages;
mod pictures;
mod play;
mod redis_alone;
mod redis_info;
mod summary;
mod tables;

pub use games::run;
pub use pages::pages;
pub use pictures::pictures;
pub use summary::tables_summary;
pub use tables::{TablesOpts, tables};
