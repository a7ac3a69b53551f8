//! Test access to the material shared beside the repository (`../shared`: the corpus of real
//! games, GDL and GDL-II). A test that needs it fails with a message naming the path when it is missing, so a
//! machine without the corpus never passes such a test without running it.

use std::path::PathBuf;

/// Every `.kif` game of `../shared/corpus/*/`, sorted; panics when the corpus is missing.
pub fn corpus_games() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus"));
    let sources = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "this test reads the corpus of real games at {}: {e}; put ../shared beside the repository",
            dir.display()
        )
    });
    let mut games: Vec<PathBuf> = sources
        .flatten()
        .filter_map(|source| std::fs::read_dir(source.path()).ok())
        .flat_map(|files| files.flatten().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "kif"))
        .collect();
    games.sort();
    games
}

/// Every `.kif` game of `../shared/corpus-gdl2/` (GDL-II), sorted; panics when it is missing.
pub fn corpus_gdl2_games() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus-gdl2"));
    let files = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!("this test reads the GDL-II games at {}: {e}; put ../shared beside the repository", dir.display())
    });
    let mut games: Vec<PathBuf> =
        files.flatten().map(|f| f.path()).filter(|p| p.extension().is_some_and(|e| e == "kif")).collect();
    games.sort();
    assert!(games.len() > 20, "only {} GDL-II games in {}", games.len(), dir.display());
    games
}

/// The text of GDL-II game `name` (without `.kif`) of `../shared/corpus-gdl2/`.
pub fn gdl2_game(name: &str) -> String {
    let path = corpus_gdl2_games().into_iter().find(|p| p.file_stem().is_some_and(|s| s == name));
    std::fs::read_to_string(path.unwrap_or_else(|| panic!("no GDL-II game {name} in ../shared/corpus-gdl2"))).unwrap()
}

/// GDL-II game `name` of `../shared/corpus-gdl2/` loaded in the reasoner.
pub fn gdl2_reasoner(name: &str) -> crate::reasoner::Reasoner {
    crate::load(&gdl2_game(name), Default::default()).unwrap_or_else(|d| panic!("{name}: {d:?}")).reasoner
}
