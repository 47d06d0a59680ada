//! The pages of `docs/` that are made from the bot's code, kept equal to
//! it: the command reference and the authority table of
//! `docs/commands.md`, and the picture of a deal the README shows
//! (`docs/deal.png`, drawn by `doko_bot::picture`). With
//! `DOKO_UPDATE_DOCS=1` each test writes its part instead of comparing.

use std::path::{Path, PathBuf};

use doko_bot::picture::{self, Faces};
use doko_engine::{Card, Game, Rules, Seat};

/// A file of the repository.
fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Whether the tests write the generated parts instead of comparing them.
fn updating() -> bool {
    std::env::var_os("DOKO_UPDATE_DOCS").is_some()
}

/// Keeps the part of `page` between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` equal to `generated` (or writes it there).
fn generated_part(page: &str, name: &str, generated: &str) {
    // (two parts of one page are written one after the other)
    static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let path = repo(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
    let (begin, end) = (format!("<!-- {name}:begin -->\n"), format!("<!-- {name}:end -->"));
    let start = text.find(&begin).unwrap_or_else(|| panic!("{page} marks its {name} part")) + begin.len();
    let stop = text[start..].find(&end).unwrap_or_else(|| panic!("{page}: the end of its {name} part")) + start;
    if updating() {
        std::fs::write(&path, format!("{}{generated}{}", &text[..start], &text[stop..])).unwrap();
        return;
    }
    assert_eq!(&text[start..stop], generated, "{page}'s {name} part (DOKO_UPDATE_DOCS=1 writes it)");
}

/// The command reference is the one generated from the command
/// definitions (`doko_bot::command::reference_markdown`), every command in
/// it with its English and German words.
#[test]
fn the_command_reference_is_generated_from_the_commands() {
    let table = doko_bot::command::reference_markdown();
    for c in doko_bot::command::COMMANDS {
        assert!(table.contains(&format!("`{}", c.usage().replace('|', "\\|"))), "{}", c.name);
        for w in c.words {
            assert!(table.contains(w), "{w}");
        }
    }
    generated_part("docs/commands.md", "commands", &table);
}

/// The authority table is the code's (`doko_bot::authority::markdown`).
#[test]
fn the_authority_table_is_the_codes() {
    generated_part("docs/commands.md", "authority", &doko_bot::authority::markdown());
}

/// The deal the README shows: dealt from a fixed seed, each hand sorted as
/// a normal game orders it.
fn shown_deal() -> [Vec<Card>; 4] {
    let g = Game::deal(Rules::default(), Seat::new(0), 2024);
    std::array::from_fn(|s| g.order().sorted(g.dealt()[s]))
}

/// `docs/deal.png` is the bot's picture of that deal: the cards it
/// carries (its `doko-cards` chunk) are the deal's, row by row. (The
/// pixels are not compared: drawing may differ in the last bit between
/// machines.)
#[test]
fn the_readmes_picture_is_the_bots_picture_of_a_deal() {
    let hands = shown_deal();
    let path = repo("docs/deal.png");
    if updating() {
        std::fs::write(&path, picture::deal(&hands, Faces::English).unwrap()).unwrap();
        return;
    }
    let png = std::fs::read(&path).expect("docs/deal.png (DOKO_UPDATE_DOCS=1 draws it)");
    assert_eq!(picture::cards_of(&png).expect("a picture doko drew"), hands.to_vec(), "docs/deal.png's cards");
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    assert!(readme.contains("](docs/deal.png)"), "the README shows docs/deal.png");
}
