//! Random playouts with the propositional network on our tic-tac-toe, connect four and
//! breakthrough (`cargo bench -p gdl-core --bench propnet`), with and without the two seed
//! optimisations, one at a time and 64 at once (lanes), and the time to build the network
//! from the ground program.

use gdl_core::ground::{ground, Ground, Options as GroundOptions};
use gdl_core::machine::StateMachine;
use gdl_core::propnet::{Opt, Options, Propnet, Strategy};
use gdl_core::rng::Rng;

fn main() {
    divan::main();
}

const GAMES: [&str; 3] = ["tictactoe", "connectfour", "breakthrough"];

fn grounded(game: &str) -> Ground {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../games/{game}.kif"));
    let text = std::fs::read_to_string(path).expect("game file");
    let loaded = gdl_core::validated(&text).expect("valid game");
    ground(&loaded.description, GroundOptions::default(), &|| 0.0, &mut |_| {}).expect("grounds")
}

fn opt(name: &str) -> Opt {
    Opt { frame: name.contains("frame"), persist: name.contains("persist") }
}

#[divan::bench(args = GAMES, consts = [0, 1, 2, 3])]
fn playout<const OPT: usize>(bencher: divan::Bencher, game: &str) {
    let names = ["none", "frame", "persist", "frame,persist"];
    let g = grounded(game);
    let options = Options { opt: opt(names[OPT]), strategy: Some(Strategy::Propagate) };
    let mut p = Propnet::new(&g, options, &|| 0.0).expect("network");
    let mut rng = Rng::new(1);
    bencher.bench_local(|| p.playout(&mut rng, 1000).expect("playout"));
}

/// One batch of 64 playouts (one per lane).
#[divan::bench(args = GAMES, consts = [0, 1, 2, 3])]
fn lanes64<const OPT: usize>(bencher: divan::Bencher, game: &str) {
    let names = ["none", "frame", "persist", "frame,persist"];
    let g = grounded(game);
    let options = Options { opt: opt(names[OPT]), strategy: Some(Strategy::Sweep) };
    let mut p = Propnet::new(&g, options, &|| 0.0).expect("network");
    let mut rng = Rng::new(1);
    bencher
        .bench_local(|| p.playouts(&mut rng, 64, 1000, &mut |_, o| _ = divan::black_box(o.length)).expect("playouts"));
}

#[divan::bench(args = GAMES)]
fn build(bencher: divan::Bencher, game: &str) {
    let g = grounded(game);
    let options = Options { strategy: Some(Strategy::Propagate), ..Options::default() };
    bencher.bench_local(|| Propnet::new(&g, options, &|| 0.0).expect("network"));
}
