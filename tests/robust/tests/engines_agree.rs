//! Property: on random small valid games, the first-order reasoner, the ground engine and
//! the propositional network (both strategies) play identically (same states, legal
//! moves, terminal flags and goals along random playouts). Games are built from "genes"
//! (small integers) that always make a valid, stratified, safe description, so proptest
//! shrinks a failure to a few rules.

use gdl_robust::{exercise, Budget, Outcome};
use proptest::prelude::*;

/// One body literal: what kind, which relation, its two argument codes.
type LitGene = (u8, u8, u8, u8);
/// One rule: what its head is, its head arguments, its body.
type RuleGene = (u8, u8, u8, u8, Vec<LitGene>);

const DERIVED: u8 = 3;

/// Argument code → a variable (`?x0`..`?x3`) or a constant (`1`..`3`).
fn arg(code: u8) -> String {
    if code < 4 {
        format!("?x{code}")
    } else {
        format!("{}", code - 3)
    }
}

/// The argument, or the constant 1 when it is a variable that no positive literal binds.
fn bound_arg(code: u8, bound: &[String]) -> String {
    let a = arg(code);
    if a.starts_with('?') && !bound.contains(&a) {
        "1".into()
    } else {
        a
    }
}

/// A condition that needs its variables bound by the positive literals.
enum Cond {
    NotTrue,
    NotStatic,
    NotDerived(u8),
    Distinct,
}

/// The text of a game: roles, facts, a `noop` move always legal, then one rule per gene.
fn game(roles: usize, statics: &[(u8, u8)], init: &[(u8, u8)], rules: &[RuleGene]) -> String {
    let mut g = String::new();
    for r in 0..roles {
        g.push_str(&format!("(role r{r})\n(<= (legal r{r} noop) (role r{r}))\n"));
    }
    for &(a, b) in statics {
        g.push_str(&format!("(s {} {})\n", a % 3 + 1, b % 3 + 1));
    }
    for &(a, b) in init {
        g.push_str(&format!("(init (f {} {}))\n", a % 3 + 1, b % 3 + 1));
    }
    // The state persists while r0 plays noop, so that moves make a difference.
    g.push_str("(<= terminal (true (f 3 3)))\n(goal r0 0)\n(<= (next (f ?a ?b)) (true (f ?a ?b)) (does r0 noop))\n");
    for (head, h1, h2, role, body) in rules {
        // Heads: d0..d2, next, legal, goal, terminal.
        let kind = head % 7;
        // A derived relation's rules use those defined before it, and itself positively.
        let derived = |j: u8, negated: bool| -> Option<u8> {
            let j = j % DERIVED;
            (kind >= DERIVED || j < kind || (j == kind && !negated)).then_some(j)
        };
        let mut pos = Vec::new();
        let mut conds = Vec::new();
        for &(k, rel, a, b) in body {
            let (a, b) = (a % 7, b % 7);
            match k % 6 {
                0 => pos.push(format!("(true (f {} {}))", arg(a), arg(b))),
                1 => pos.push(format!("(s {} {})", arg(a), arg(b))),
                2 => {
                    if let Some(j) = derived(rel, false) {
                        pos.push(format!("(d{j} {} {})", arg(a), arg(b)));
                        if j == kind {
                            // GDL's recursion restriction: a non-recursive condition binds them too.
                            pos.push(format!("(s {} {})", arg(a), arg(b)));
                        }
                    }
                }
                3 if kind == 3 => pos.push(format!("(does r{} (m {}))", usize::from(rel) % roles, arg(a))),
                4 => match rel % 3 {
                    0 => conds.push((Cond::NotTrue, a, b)),
                    1 => conds.push((Cond::NotStatic, a, b)),
                    _ => conds.extend(derived(rel / 3, true).map(|j| (Cond::NotDerived(j), a, b))),
                },
                5 => conds.push((Cond::Distinct, a, b)),
                _ => {}
            }
        }
        let bound: Vec<String> = (0..4u8).map(arg).filter(|v| pos.iter().any(|l| l.contains(v.as_str()))).collect();
        let mut lits = pos;
        for (cond, a, b) in conds {
            let (a, b) = (bound_arg(a, &bound), bound_arg(b, &bound));
            lits.push(match cond {
                Cond::NotTrue => format!("(not (true (f {a} {b})))"),
                Cond::NotStatic => format!("(not (s {a} {b}))"),
                Cond::NotDerived(j) => format!("(not (d{j} {a} {b}))"),
                Cond::Distinct => format!("(distinct {a} {b})"),
            });
        }
        let (h1, h2) = (bound_arg(h1 % 7, &bound), bound_arg(h2 % 7, &bound));
        let r = usize::from(*role) % roles;
        let head = match kind {
            0..=2 => format!("(d{kind} {h1} {h2})"),
            3 => format!("(next (f {h1} {h2}))"),
            4 => format!("(legal r{r} (m {h1}))"),
            5 => format!("(goal r{r} {})", [0, 50, 100][usize::from(*role / 2) % 3]),
            _ => "terminal".to_string(),
        };
        if lits.is_empty() {
            g.push_str(&format!("{head}\n"));
        } else {
            g.push_str(&format!("(<= {head} {})\n", lits.join(" ")));
        }
    }
    g
}

/// A game: number of roles, static facts, initial facts, rules.
type Genes = (usize, Vec<(u8, u8)>, Vec<(u8, u8)>, Vec<RuleGene>);

fn genes() -> impl Strategy<Value = Genes> {
    let lit = (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>());
    let rule = (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>(), prop::collection::vec(lit, 0..5));
    (
        1usize..=2,
        prop::collection::vec((any::<u8>(), any::<u8>()), 0..5),
        prop::collection::vec((any::<u8>(), any::<u8>()), 1..4),
        prop::collection::vec(rule, 1..14),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn reasoner_ground_engine_and_propnet_agree((roles, statics, init, rules) in genes(), seed in 0u64..4) {
        let text = game(roles, &statics, &init, &rules);
        let outcome = exercise(&text, seed, &Budget::fuzz());
        prop_assert_eq!(&outcome, &Outcome::Played { ground_error: None }, "game:\n{}", text);
    }
}
