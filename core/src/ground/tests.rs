//! Tests of the grounder: ground programs (the tic-tac-toe snapshot), limits and demand, and traces equal to the reasoner's.

use super::*;
use crate::machine::StateMachine;
use crate::parse::{parse, Syntax};
use crate::rng::Rng;
use crate::trace::record_playout;

fn games_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games")
}

fn ground_text(text: &str, options: Options) -> Ground {
    let p = parse(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    ground(&p.description, options, &|| 0.0, &mut |_| {}).unwrap()
}

/// Playouts of the original and of the ground program must be identical.
fn same_playouts(text: &str, count: usize) {
    same_playouts_grounded(text, count, Options::default());
}

/// `same_playouts`, grounded with `options`.
fn same_playouts_grounded(text: &str, count: usize, options: Options) {
    let g = ground_text(text, options);
    let mut original = Reasoner::new(&parse(text).description, Limits::default()).unwrap();
    let mut grounded = g.reasoner(Limits::default()).unwrap();
    let (mut r1, mut r2) = (Rng::new(3), Rng::new(3));
    for _ in 0..count {
        let a = record_playout(&mut original, &mut r1, 200).unwrap();
        let b = record_playout(&mut grounded, &mut r2, 200).unwrap();
        assert_eq!(a.roles, b.roles);
        if let Some(i) = (0..a.steps.len().max(b.steps.len())).find(|&i| a.steps.get(i) != b.steps.get(i)) {
            panic!("step {i} differs:\n{:?}\n{:?}", a.steps.get(i), b.steps.get(i));
        }
    }
    assert!(!original.roles().is_empty());
}

#[test]
fn tictactoe_ground_program() {
    let text = std::fs::read_to_string(games_dir().join("tictactoe.kif")).unwrap();
    let g = ground_text(&text, Options::default());
    assert!(g.stats.declared_base && g.stats.declared_input);
    let printed = g.print(Syntax::Prefix);
    assert_eq!(printed, crate::print::print_lines(&g.description(), Syntax::Prefix));
    let infix = g.print(Syntax::Infix);
    assert_eq!(infix, crate::print::print_lines(&g.description(), Syntax::Infix));
    assert!(!printed.contains('?'), "no variables");
    expect_test::expect_file!["../../../tests/ground/tictactoe.ground.kif"].assert_eq(&printed);
    same_playouts(&text, 20);
}

#[test]
fn computed_domains_match_declared_ones_on_tictactoe() {
    let text = std::fs::read_to_string(games_dir().join("tictactoe.kif")).unwrap();
    let declared = ground_text(&text, Options::default()).stats;
    let computed = ground_text(&text, Options { recompute_domains: true, ..Options::default() }).stats;
    assert!(!computed.declared_base);
    assert_eq!((declared.base, declared.input), (computed.base, computed.input));
}

#[test]
fn example_games_play_identically_when_ground() {
    for game in ["connectfour", "breakthrough", "nim", "eightpuzzle", "rps"] {
        let text = std::fs::read_to_string(games_dir().join(format!("{game}.kif"))).unwrap();
        same_playouts(&text, 3);
    }
}

#[test]
fn static_literals_vanish_and_distinct_is_decided() {
    let g = ground_text(
        "(role a) (init (at 1)) (succ 1 2) (succ 2 3)\n\
         (<= (legal a (go ?y)) (true (at ?x)) (succ ?x ?y) (distinct ?y 3))\n\
         (<= (next (at ?y)) (does a (go ?y)))\n\
         (<= terminal (true (at 2)))\n(goal a 100)",
        Options::default(),
    );
    let printed = crate::print::print(&g.description(), Syntax::Prefix);
    expect_test::expect![[r#"
        (role a)
        (init (at 1))
        (base (at 1))
        (base (at 2))
        (input a (go 2))

        (<= (legal a (go 2))
            (true (at 1)))

        (<= (next (at 2))
            (does a (go 2)))

        (<= terminal
            (true (at 2)))

        (goal a 100)
    "#]]
    .assert_eq(&printed);
}

#[test]
fn growing_domains_stop_with_the_relation_named() {
    let p = parse(
        "(role a) (init (n z)) (<= (legal a go) (true (n ?x)))\n\
         (<= (next (n (s ?x))) (true (n ?x)))",
    );
    let options = Options { limits: Limits { max_term_depth: 20, ..Limits::default() }, ..Options::default() };
    let err = ground(&p.description, options, &|| 0.0, &mut |_| {}).unwrap_err();
    assert!(err.message.contains("deeper than 20") && err.message.contains("next/1"), "{}", err.message);
}

#[test]
fn too_many_rules_is_an_error() {
    let text = std::fs::read_to_string(games_dir().join("breakthrough.kif")).unwrap();
    let p = parse(&text);
    let with = |max_rules| ground(&p.description, Options { max_rules, ..Options::default() }, &|| 0.0, &mut |_| {});
    let err = with(500).unwrap_err();
    assert_eq!(err.code, "too-many-ground-rules");
    // The limit is on the final program: exactly as many rules pass, one more fails.
    let n = with(1_000_000).unwrap().stats.rules;
    assert_eq!(with(n).unwrap().stats.rules, n);
    // One fewer fails: most rules are for `touched`, which the moves need (not only terminal and
    // goal), so the game is not ground again without terminal and goal.
    let err = with(n - 1).unwrap_err();
    assert!(err.message.contains(&format!("more than {} rules", n - 1)), "{}", err.message);
    assert!(err.message.contains("of them for touched"), "{}", err.message);
}

#[test]
fn declared_domains_that_miss_a_fluent_are_replaced() {
    let text = "(role a) (init (at 1)) (base (at 2)) (input a go)\n\
                (<= (legal a go) (true (at ?x)))\n\
                (<= (next (at 2)) (does a go) (true (at 1)))\n\
                (<= terminal (true (at 2))) (goal a 100)";
    let g = ground_text(text, Options::default());
    assert!(!g.stats.declared_base);
    assert!(g.stats.warnings[0].contains("(at 1)"), "{:?}", g.stats.warnings);
    same_playouts(text, 2);
}

/// A board game whose frame rule joins every cell with every move: grounding it whole gives
/// cells × pieces × moves rules, split into a part cells × moves + cells × pieces.
const SLIDES: &str = "(role white) (role black) (init (control white))
(init (at 1 1 p)) (init (at 2 2 q)) (init (at 3 3 p))
(col 1) (col 2) (col 3) (col 4) (piece p) (piece q) (piece r)
(<= (legal ?r (slide ?x ?y ?z)) (true (control ?r)) (true (at ?x ?y ?p)) (col ?z) (distinct ?y ?z))
(<= (legal white noop) (true (control black)))
(<= (legal black noop) (true (control white)))
(<= (next (at ?x ?z ?p)) (does ?r (slide ?x ?y ?z)) (true (at ?x ?y ?p)))
(<= (next (at ?u ?v ?p)) (true (at ?u ?v ?p)) (does ?r (slide ?x ?y ?z)) (piece ?p) (distinct ?u ?x))
(<= (next (at ?u ?v ?p)) (true (at ?u ?v ?p)) (does ?r noop) (does ?s noop))
(<= (next (control black)) (true (control white)))
(<= (next (control white)) (true (control black)))
(<= (next (step 1)) (true (control white)))
(<= terminal (true (step 1)) (true (control white)))
(<= (goal ?r 50) (role ?r))";

#[test]
fn parts_that_pay_are_kept_and_the_rest_unfolded() {
    let g = ground_text(SLIDES, Options::default());
    let parts: usize = g.stats.rules_per_relation.iter().filter(|(k, _)| k.contains("_part")).map(|(_, n)| n).sum();
    assert!(parts > 0, "the frame rule's move part pays: {:?}", g.stats.rules_per_relation);
    // Unsplit, the frame rule alone has one instance per `at` fluent (12: 3 rows × 4
    // columns) and slide in another row (2 roles × 2 rows × 12 slides).
    assert!(g.stats.rules < 12 * 48, "{} rules: {:?}", g.stats.rules, g.stats.rules_per_relation);
    same_playouts(SLIDES, 10);
    // Tic-tac-toe has nothing worth splitting: its snapshot shows no part relation.
    let text = std::fs::read_to_string(games_dir().join("tictactoe.kif")).unwrap();
    assert!(!ground_text(&text, Options::default()).print(Syntax::Prefix).contains("_part"));
    // The grounder's own relations print with names the parser reads back.
    let printed = g.print(Syntax::Prefix);
    assert!(printed.contains("next_part") && !printed.contains('~'));
    assert!(parse(&printed).diagnostics.is_empty());
    assert!(parse(&g.print(Syntax::Infix)).diagnostics.is_empty());
}

#[test]
fn a_rule_with_too_many_instances_is_named_by_its_line() {
    let text = "(role r)\n(n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8)\n(<= (init (c ?x)) (n ?x))\n\
                (<= (legal r (m ?a ?b ?c)) (n ?a) (n ?b) (n ?c))\n\
                (<= (next (c ?x)) (true (c ?x)) (does r (m ?a ?b ?c)) (n ?x) (distinct ?x ?a) (distinct ?x ?b) (distinct ?x ?c))\n\
                (<= terminal (true (c 2)))\n(<= (goal r 100) (true (c 1)))";
    let limits = Limits { max_facts: 1000, ..Limits::default() };
    let p = parse(text);
    let Err(e) =
        ground(&p.description, Options { limits, max_rules: 1000, ..Options::default() }, &|| 0.0, &mut |_| {})
    else {
        panic!("a part joining 8 cells with 512 moves should pass the limit of 1000 instances")
    };
    assert_eq!(crate::diagnostic::LineIndex::new(text).line_col(e.span.start).0, 5, "{e:?}");
    assert!(e.message.starts_with("grounding this rule for next"), "{}", e.message);
}

/// An auction whose scores fall by the smaller bid: grounding the score rule whole joins
/// every score with every pair of bids; eliminating the bids one at a time (parts
/// `(y, m)`, then `m`) keeps every part small.
fn auction(top: usize) -> String {
    let mut text = format!(
        "(role a) (role b) (init (score a {top})) (init (score b {top}))\n\
         (<= (legal ?r (bid ?x)) (role ?r) (true (score ?r ?s)) (lesseq ?x ?s))\n\
         (<= (next (score ?r ?n)) (true (score ?r ?s)) (does a (bid ?x)) (does b (bid ?y)) \
         (min ?x ?y ?m) (minus ?s ?m ?n))\n\
         (<= terminal (true (score ?r 0)))\n(<= (goal ?r 50) (role ?r))\n",
    );
    for x in 0..=top {
        for y in 0..=top {
            text.push_str(&format!("(min {x} {y} {})", x.min(y)));
            if x <= y {
                text.push_str(&format!("(lesseq {x} {y}) (minus {y} {x} {})", y - x));
            }
        }
        text.push('\n');
    }
    text
}

#[test]
fn variables_joined_by_static_relations_are_eliminated_one_at_a_time() {
    let text = auction(30);
    // Whole, the score rule has 2 roles × 31 scores × 31 × 31 bids (59582) instances.
    let limits = Limits { max_facts: 5000, ..Limits::default() };
    let g = ground_text(&text, Options { limits, max_rules: 5000, ..Options::default() });
    let parts = g.stats.rules_per_relation.keys().filter(|k| k.starts_with("next_part")).count();
    assert!(parts >= 1, "{:?}", g.stats.rules_per_relation);
    assert!(g.stats.rules < 5000, "{} rules", g.stats.rules);
    same_playouts(&text, 5);
}

#[test]
fn nested_parts_unfold_all_the_way_down() {
    // `p1` (made first) has one definition; `p2` two, each using `p1`; the goal uses `p2`.
    // Both pay less than they cost: the goal ends up with `p2`'s bodies, `p1` substituted.
    let mut store = TermStore::default();
    let atom = |store: &mut TermStore, name: &str| {
        let sym = store.symbol(name);
        store.intern_atom(sym, &[])
    };
    let [p1, p2, does, t1, t2, u, goal] = ["p1", "p2", "does", "t1", "t2", "u", "goal"].map(|n| atom(&mut store, n));
    let mut rules = Rules::default();
    rules.push(p1, [(false, does)]);
    rules.push(p2, [(false, p1), (false, t1)]);
    rules.push(p2, [(false, p1), (false, t2)]);
    rules.push(goal, [(false, p2), (true, u)]);
    let parts: FxHashMap<SymId, usize> = [(store.sym(p1), 0), (store.sym(p2), 1)].into_iter().collect();
    let out = rules.unfold_parts(&store, &parts);
    let shown: Vec<(TermId, Vec<(bool, TermId)>)> =
        (0..out.len()).map(|r| (out.head(r), out.body(r).collect())).collect();
    assert_eq!(
        shown,
        vec![(goal, vec![(false, does), (false, t1), (true, u)]), (goal, vec![(false, does), (false, t2), (true, u)])]
    );
}

#[test]
fn too_many_instances_stop_grounding_and_name_the_relation_with_most_counting_its_parts() {
    // `legal` has 992 instances, the score rule's parts (they count for `next`) 2945: the
    // relaxed fixpoint stops once 2000 (twice the rules allowed) are passed, before all of
    // next's parts are computed.
    let p = parse(&auction(30));
    let err =
        ground(&p.description, Options { max_rules: 1000, ..Options::default() }, &|| 0.0, &mut |_| {}).unwrap_err();
    assert_eq!(err.code, "too-many-ground-rules");
    let (_, after) = err.message.split_once("more than 2000 rule instances (").expect("the limit");
    let (n, rest) = after.split_once(' ').unwrap();
    let n: usize = n.parse().unwrap();
    assert!(rest.starts_with("of them for next)") && n > 992 && n < 2945, "{}", err.message);
}

#[test]
fn on_the_last_attempt_the_facts_of_dynamic_relations_stop_grounding_before_their_rules_captures() {
    // `pair` holds 100 × 100 facts, each the head of an instance: past 2000 the program is
    // sure to be too big, so `triple` (a million facts, and as many instances) is never
    // computed, and the error names `pair`. Counting captures alone would name `triple`.
    let mut text = String::from(
        "(role p) (init (on 1))\n\
         (<= (next (on ?x)) (true (on ?x)))\n\
         (<= (next (on ?y)) (true (on ?x)) (succ ?x ?y))\n\
         (<= (pair ?x ?y) (true (on ?x)) (true (on ?y)))\n\
         (<= (triple ?x ?y ?z) (pair ?x ?y) (true (on ?z)))\n\
         (<= (legal p (go ?x ?y ?z)) (triple ?x ?y ?z))\n\
         (<= terminal (true (on 100)))\n\
         (goal p 100)\n",
    );
    for i in 1..100 {
        text.push_str(&format!("(succ {i} {})\n", i + 1));
    }
    let p = parse(&text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let options = Options { max_rules: 1000, demand_attempts: 0, ..Options::default() };
    let err = ground(&p.description, options, &|| 0.0, &mut |_| {}).unwrap_err();
    assert_eq!(err.code, "too-many-ground-rules");
    assert!(err.message.contains("more than 2000 rule instances (10000 of them for pair)"), "{}", err.message);
}

/// A walk along a line of 40 squares: a jump reads `line`, static and 64000 facts in full,
/// and a step is allowed unless `threat`, whose rule has 3200 instances in full, holds;
/// the rules ask about 38 and 39 atoms of them (`threat` only under `not`). A hop reads
/// `line` through `near`, which calls it before the conditions that bind its arguments.
fn walk() -> String {
    let mut text = String::from(
        "(role p) (init (at 1))\n\
         (<= (legal p (go ?y)) (true (at ?x)) (succ ?x ?y) (not (threat ?x ?y ?y)))\n\
         (<= (legal p (jump ?z)) (true (at ?x)) (succ ?x ?y) (succ ?y ?z) (line ?x ?y ?z))\n\
         (<= (legal p stay) (true (at ?x)))\n\
         (<= (next (at ?y)) (does p (go ?y)))\n(<= (next (at ?z)) (does p (jump ?z)))\n\
         (<= (next (at ?x)) (does p stay) (true (at ?x)))\n\
         (<= (legal p (hop ?z)) (true (at ?x)) (near ?x ?z))\n(<= (next (at ?z)) (does p (hop ?z)))\n\
         (<= (near ?x ?z) (line ?x ?y ?z) (succ ?x ?y) (succ ?y ?z))\n\
         (<= (threat ?a ?b ?c) (true (at ?a)) (num ?b) (num ?c) (trap ?c))\n\
         (<= (line ?a ?b ?c) (num ?a) (num ?b) (num ?c) (distinct ?a ?c))\n\
         (trap 7) (trap 20)\n(<= terminal (true (at 40)))\n(<= (goal p 100) (true (at 40)))\n\
         (<= (goal p 0) (not (true (at 40))))\n",
    );
    for x in 1..=40 {
        text.push_str(&format!("(num {x}) "));
        if x < 40 {
            text.push_str(&format!("(succ {x} {}) ", x + 1));
        }
    }
    text
}

#[test]
fn relations_too_big_in_full_are_computed_on_demand() {
    let text = walk();
    let limits = Limits { max_facts: 2000, ..Limits::default() };
    let options = Options { limits, max_rules: 1000, ..Options::default() };
    let g = ground_text(&text, options);
    // The ground program is the one grounded in full.
    let full = ground_text(&text, Options::default());
    assert_eq!(g.print(Syntax::Prefix), full.print(Syntax::Prefix));
    assert!(g.print(Syntax::Prefix).contains("(not (threat 6 7 7))"));
    same_playouts_grounded(&text, 5, options);
    // Without attempts on demand (`auto`: each costs as much as the first) it fails.
    let p = parse(&text);
    let once = Options { demand_attempts: 0, ..options };
    let err = ground(&p.description, once, &|| 0.0, &mut |_| {}).unwrap_err();
    assert!(err.message.contains("grew past 2000 facts"), "{}", err.message);
    // An attempt on demand that reaches its share of the join steps says whose limit it is.
    let limits = Limits { max_join_steps: 3000, ..limits };
    let err = ground(&p.description, Options { limits, ..options }, &|| 0.0, &mut |_| {}).unwrap_err();
    assert!(err.message.contains("600 join steps (a fifth of max_join_steps"), "{}", err.message);
}

/// `prereq1` .. `prereq{n}` as in ggp-base's ruleDepthQuadratic: `(prereq_k b...)` holds for
/// all 2^k bit strings at step k, and before it when both continuations with a last bit of
/// 1 (or the one with 0, for a last bit of 0) hold. `legal` asks `(prereq1 0)` only: a line
/// of 12 relations, each one's bindings coming from the one before.
fn prereq_chain(n: usize) -> String {
    let mut text = String::from(
        "(role r) (init (step 1)) (bit 0) (bit 1)\n\
         (<= (legal r stop)) (<= (legal r go) (prereq1 0))\n\
         (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m)) (<= (next over) (does r stop))\n\
         (<= terminal (true over)) (<= terminal (true (step 12)))\n\
         (<= (goal r ?n) (true (step ?n))) (<= (goal r 0) (true over))\n",
    );
    let bits = |k: usize| (0..k).rev().map(|i| format!("?b{i}")).collect::<Vec<_>>().join(" ");
    for k in 1..=n {
        text.push_str(&format!("(succ {k} {})\n", k + 1));
        let all_bits: String = (0..k).map(|i| format!("(bit ?b{i})")).collect();
        text.push_str(&format!("(<= (prereq{k} {}) {all_bits} (true (step {k})))\n", bits(k)));
        if k < n {
            let (b, next) = (bits(k), k + 1);
            text.push_str(&format!(
                "(<= (prereq{k} {b}) (not (true (step {k}))) (not (distinct ?b0 0)) (prereq{next} {b} 0))\n\
                 (<= (prereq{k} {b}) (not (true (step {k}))) (not (distinct ?b0 1)) (prereq{next} {b} 0) (prereq{next} {b} 1))\n"
            ));
        }
    }
    text
}

#[test]
fn demand_reaches_a_whole_line_of_calls_and_equalities_filter_it() {
    let text = prereq_chain(12);
    let limits = Limits { max_facts: 1000, ..Limits::default() };
    let options = Options { limits, max_rules: 400, ..Options::default() };
    let g = ground_text(&text, options);
    // The instances the rules can ask about: a few per relation, not 2^k.
    assert!(g.stats.rules < 150, "{} rules", g.stats.rules);
    same_playouts_grounded(&text, 5, options);
}

#[test]
fn a_relation_sure_to_overflow_is_on_demand_from_the_start() {
    let text = prereq_chain(12);
    let limits = Limits { max_facts: 1000, ..Limits::default() };
    // No attempt after the first (`auto`): the first is already on demand.
    let options = Options { limits, max_rules: 400, demand_attempts: 0, ..Options::default() };
    let g = ground_text(&text, options);
    assert!(g.stats.rules < 150, "{} rules", g.stats.rules);
    same_playouts_grounded(&text, 5, options);
    // Which relation: the one whose bits' product is past the limit; none under a higher one.
    let mut silent = |_: &str| {};
    let mut timeline = stages::Timeline::new(&|| 0.0, &mut silent);
    let program = stages::prepare(&parse(&text).description, false, &mut timeline).unwrap().program;
    assert_eq!(relax::overflowing(&program, 800), Some(("prereq12".to_string(), 12)));
    assert_eq!(relax::overflowing(&program, 5000), None);
}

/// A maze whose walls are fluents that only a frame rule keeps: the board's edges are walls,
/// and `succ` runs far past them.
fn walled_line(far: usize) -> String {
    let mut text = String::from(
        "(role p) (init (at 2)) (init (wall 0)) (init (wall 6)) (init (wall 4))\n\
         (<= (next (wall ?x)) (true (wall ?x)))\n\
         (<= (legal p (go ?y)) (true (at ?x)) (succ ?x ?y) (not (true (wall ?y))))\n\
         (<= (legal p (go ?y)) (true (at ?x)) (succ ?y ?x) (not (true (wall ?y))))\n\
         (<= (legal p stay) (true (at ?x)))\n\
         (<= (next (at ?y)) (does p (go ?y)))\n(<= (next (at ?x)) (does p stay) (true (at ?x)))\n\
         (<= (next (count ?m)) (true (count ?n)) (tick ?n ?m)) (init (count 0))\n\
         (<= (far ?x ?z) (true (at ?x)) (succ ?x ?y) (succ ?y ?z) (not (true (wall ?y))) (not (true (wall ?z))))\n\
         (<= (legal p (leap ?z)) (far ?x ?z)) (<= (next (at ?z)) (does p (leap ?z)))\n\
         (<= terminal (true (count 9))) (<= (goal p 100) (true (at 5))) (<= (goal p 0) (not (true (at 5))))\n",
    );
    for x in 0..far {
        text.push_str(&format!("(succ {x} {}) ", x + 1));
        if x < 9 {
            text.push_str(&format!("(tick {x} {}) ", x + 1));
        }
    }
    text
}

#[test]
fn one_clock_times_the_stages_and_progress_is_told_each_as_it_starts() {
    // A clock that advances one millisecond a reading: every stage takes time.
    let ticks = std::cell::Cell::new(0.0);
    let now = || {
        ticks.set(ticks.get() + 1.0);
        ticks.get()
    };
    let mut told = Vec::new();
    let g = ground(&parse(SLIDES).description, Options::default(), &now, &mut |s| told.push(s.to_string())).unwrap();
    let names: Vec<&str> = stages::STAGES.iter().map(|s| s.0).collect();
    assert_eq!(told, names);
    let recorded: Vec<&str> = g.stages.iter().map(|s| s.name).collect();
    assert_eq!(recorded, names);
    assert!(g.stages.iter().all(|s| s.ms > 0.0), "{:?}", g.stages);
    let timed: Vec<(&str, f64)> = g.stages.iter().map(|s| (s.name, s.ms)).collect();
    assert_eq!(g.stats.stage_ms, timed, "the statistics show the stages' own times");
}

#[test]
fn fluents_only_a_frame_rule_keeps_are_read_from_init() {
    let text = walled_line(300);
    let limits = Limits { max_facts: 2000, ..Limits::default() };
    let options = Options { limits, max_rules: 200, ..Options::default() };
    let g = ground_text(&text, Options { record_rules: true, ..options });
    // Between the walls: squares 1 to 5 only (and the count's 10 values); without the
    // fold, every square up to 300.
    assert!(g.stats.base < 30, "{} fluents", g.stats.base);
    same_playouts_grounded(&text, 5, options);
    let Stage { name, rules: Some(rules), .. } = &g.stages[1] else { panic!("the rules are recorded") };
    assert_eq!(*name, "fixed");
    assert!(rules.iter().any(|r| r.contains("(not (init (wall ?y)))")), "{rules:#?}");
    assert!(rules.iter().any(|r| r.starts_with("(next (wall ?x)) :- (true (wall ?x))")), "the frame rule stays");
    assert!(rules.iter().any(|r| r.contains("(true (at ?x))")), "a fluent a move changes stays");
}

#[test]
fn fluents_a_move_can_change_are_read_from_the_state() {
    // A wall that a move breaks: the frame rule has a condition.
    let text = walled_line(12).replace(
        "(<= (next (wall ?x)) (true (wall ?x)))",
        "(<= (next (wall ?x)) (true (wall ?x)) (not (does p (break ?x))))\n(<= (legal p (break 4)) (true (wall 4)))\n\
         (<= (next (at ?x)) (does p (break 4)) (true (at ?x)))",
    );
    // A wall that a move builds, beside a frame rule that keeps every wall.
    let built = walled_line(12).replace(
        "(<= (legal p stay) (true (at ?x)))",
        "(<= (legal p stay) (true (at ?x)))\n(<= (legal p build) (true (at 2)))\n(<= (next (wall 3)) (does p build))\n(<= (next (at 2)) (does p build))",
    );
    for text in [text, built] {
        let recorded = ground_text(&text, Options { record_rules: true, ..Options::default() }).stages;
        let fixed = recorded[1].rules.as_ref().expect("the rules are recorded");
        let reads_init = |r: &String| r.split_once(":-").is_some_and(|(_, body)| body.contains("(init (wall"));
        assert!(!fixed.iter().any(reads_init), "{fixed:#?}");
        same_playouts(&text, 10);
    }
}

/// A board whose pieces stand on the dark squares only, and a frame rule that names every
/// square (`square`) besides the cell it keeps (`true (cell ...)`), in `order`.
fn dark_squares(square_first: bool) -> String {
    let mut text = String::from("(role r) (init (control r))\n");
    for x in 1..=8 {
        text += &format!("(coord {x}) ");
        for y in 1..=8 {
            text += &format!("(square {x} {y}) ");
            if (x + y) % 2 == 0 {
                text += &format!("(init (cell {x} {y} b)) ");
            }
        }
    }
    let (square, cell) = ("(square ?x ?y)", "(true (cell ?x ?y ?p))");
    let (first, second) = if square_first { (square, cell) } else { (cell, square) };
    text += &format!(
        "\n(<= (legal r (jump ?a ?b ?c ?d)) (true (cell ?a ?b b)) (true (cell ?c ?d b)) (distinct ?a ?c))\n\
         (<= (hit ?a ?b ?x ?y) (true (cell ?a ?b b)) (true (cell ?x ?y b)) (distinct ?a ?x) (distinct ?b ?y))\n\
         (<= (next (cell ?x ?y ?p)) (does ?r (jump ?a ?b ?c ?d)) {first} {second} \
             (not (hit ?a ?b ?x ?y)) (not (hit ?c ?d ?x ?y)))\n\
         (<= (next (cell ?x ?y w)) (does ?r (jump ?a ?b ?x ?y)))\n\
         (<= (next (control r)) (true (control r)))\n\
         (<= terminal (true (cell 1 1 w))) (goal r 100)"
    );
    text
}

#[test]
fn a_part_is_bound_by_every_condition_of_the_rest_whatever_their_order() {
    // The part that eliminates a move's first square needs the kept cell's squares from the
    // rest of the rule: read from `square` alone, it would hold every square (64), from
    // `true (cell ...)` alone the dark ones (32); from both, the dark ones in either order.
    let g = |square_first| ground_text(&dark_squares(square_first), Options::default());
    let (square_first, cell_first) = (g(true), g(false));
    assert_eq!(square_first.stats.instances, cell_first.stats.instances);
    assert_eq!(square_first.stats.rules, cell_first.stats.rules);
    same_playouts(&dark_squares(true), 3);
}

/// Eight pits painted white or black one at a time, counted as merrills counts its stones:
/// a loop over the pits that carries the totals to its last step, with the recursive call
/// written first or last (`recursive_first`). The goals ask for totals a static relation
/// enumerates (`smaller`).
fn painted_pits(recursive_first: bool) -> String {
    let step = "(count_one ?x ?w1 ?b1 ?w2 ?b2) (next_pit ?x ?y)";
    let recursion = "(count_loop ?y ?w2 ?b2 ?w ?b)";
    let body = if recursive_first { format!("{recursion} {step}") } else { format!("{step} {recursion}") };
    let mut text = format!(
        "(role r)\n\
         (<= (legal r (paint ?x ?c)) (true (pit ?x empty)) (colour ?c))\n\
         (<= (next (pit ?x ?c)) (does r (paint ?x ?c)))\n\
         (<= (next (pit ?x ?c)) (true (pit ?x ?c)) (does r (paint ?y ?d)) (distinct ?x ?y))\n\
         (<= terminal (not (true (pit ?x empty))) (pit_name ?x))\n\
         (<= (goal r 100) (smaller ?b ?w) (count ?w ?b))\n\
         (<= (goal r 0) (not (goal r 100)))\n\
         (<= (count ?w ?b) (count_loop p1 0 0 ?w ?b))\n\
         (<= (count_loop p8 ?w1 ?b1 ?w ?b) (count_one p8 ?w1 ?b1 ?w ?b))\n\
         (<= (count_loop ?x ?w1 ?b1 ?w ?b) {body})\n\
         (<= (count_one ?x ?w1 ?b ?w ?b) (true (pit ?x white)) (succ ?w1 ?w) (number ?b))\n\
         (<= (count_one ?x ?w ?b1 ?w ?b) (true (pit ?x black)) (succ ?b1 ?b) (number ?w))\n\
         (<= (count_one ?x ?w ?b ?w ?b) (true (pit ?x empty)) (number ?b) (number ?w))\n\
         (colour white) (colour black)\n"
    );
    for i in 1..=8 {
        text.push_str(&format!("(init (pit p{i} empty)) (pit_name p{i}) "));
        if i < 8 {
            text.push_str(&format!("(next_pit p{i} p{}) ", i + 1));
        }
    }
    for n in 0..=8 {
        text.push_str(&format!("(number {n}) "));
        if n < 8 {
            text.push_str(&format!("(succ {n} {}) ", n + 1));
        }
        for m in n + 1..=8 {
            text.push_str(&format!("(smaller {n} {m}) "));
        }
    }
    text
}

#[test]
fn a_count_that_carries_its_totals_grounds_on_demand_whatever_the_order_written() {
    // In full, `count_loop` has too many facts for the limit; on demand with its totals
    // bound by `smaller` too (the loop asked again for each pair of totals), which the goal
    // as written does first.
    let limits = Limits { max_facts: 3000, ..Limits::default() };
    let options = Options { limits, max_rules: 3000, ..Options::default() };
    let full = ground_text(&painted_pits(false), Options::default()).print(Syntax::Prefix);
    let p = parse(&painted_pits(false));
    let g = ground(&p.description, Options { demand_attempts: 0, ..options }, &|| 0.0, &mut |_| {}).unwrap();
    // Alone (no attempt on demand follows) it stops once the dynamic relations' facts,
    // each the head of an instance, pass the 6000 instances allowed, `count_loop`'s most;
    // only the goal reads it, which is then left to the reasoner.
    let why = &g.stats.warnings[0];
    assert!(why.contains("more than 6000 rule instances (4290 of them for count_loop)"), "{why}");
    assert!(g.outputs.is_some());
    for recursive_first in [false, true] {
        let text = painted_pits(recursive_first);
        let g = ground_text(&text, options).print(Syntax::Prefix);
        // The same rules, their bodies in the order written.
        assert_eq!(g.lines().count(), full.lines().count(), "recursive call first: {recursive_first}");
        same_playouts_grounded(&text, 5, options);
    }
}
