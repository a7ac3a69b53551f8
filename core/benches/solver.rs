//! Solver benchmark (not a test): states expanded per second when solving tic-tac-toe and
//! nim from the start, and perft positions per second, per engine; then the factored
//! solve against the whole game's on a one-player game with factors no goal reads.
//! Run: `cargo bench -p gdl-core --bench solver`.

use gdl_core::engine::{build, Choice, Engine};
use gdl_core::machine::StateMachine;
use gdl_core::solve::{perft, solve, solve_whole, Limit};
use std::time::Instant;

fn engines(name: &str) -> Vec<Engine> {
    let text = std::fs::read_to_string(format!("{}/../games/{name}.kif", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let desc = gdl_core::validated(&text).unwrap().description;
    [Choice::Reasoner, Choice::Ground, Choice::Propnet]
        .into_iter()
        .map(|c| build(c, &desc, Default::default(), Default::default(), &|| 0.0).unwrap().engine)
        .collect()
}

fn main() {
    println!("{:<12} {:<9} {:>10} {:>9} {:>12}", "game", "engine", "task", "nodes", "nodes/s");
    for game in ["tictactoe", "nim"] {
        for mut m in engines(game) {
            let s = m.initial_state();
            let start = Instant::now();
            let solution = solve(&mut m, &s, Limit::nodes(u64::MAX)).unwrap();
            let rate = solution.nodes as f64 / start.elapsed().as_secs_f64();
            println!("{game:<12} {:<9} {:>10} {:>9} {rate:>12.0}", m.engine_name(), "solve", solution.nodes);
            let start = Instant::now();
            let p = perft(&mut m, 6).unwrap();
            let n: u64 = p.nodes.iter().sum();
            let rate = n as f64 / start.elapsed().as_secs_f64();
            println!("{game:<12} {:<9} {:>10} {n:>9} {rate:>12.0}", m.engine_name(), "perft 6");
        }
    }
    // The propnet knows the factors: the lamps' moves are left out of `solve`.
    let mut m = engines("lampsudoku").pop().expect("the propnet");
    let s = m.initial_state();
    type Solver =
        fn(&mut Engine, &gdl_core::engine::State, Limit) -> gdl_core::machine::Result<gdl_core::solve::Solution>;
    let timed = |m: &mut Engine, f: Solver| {
        let start = Instant::now();
        let solution = f(m, &s, Limit::nodes(u64::MAX)).unwrap();
        (solution.nodes, start.elapsed().as_secs_f64())
    };
    let whole = timed(&mut m, solve_whole);
    let factored = timed(&mut m, solve);
    println!(
        "lampsudoku   propnet   solve: whole {} states in {:.4} s, factored {} in {:.4} s: {:.1} times fewer states, {:.1} times faster",
        whole.0,
        whole.1,
        factored.0,
        factored.1,
        whole.0 as f64 / factored.0 as f64,
        whole.1 / factored.1
    );
}
