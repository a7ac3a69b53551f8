//! Rule decomposition: a part of a dynamic rule's body that shares only some variables with
//! the rest becomes a relation of its own, so that the ground program holds the *sum* of the
//! parts' instances instead of their *product*.
//!
//! The rule `h(K) :- rest, C` where the literals `C` are connected by variables that occur
//! nowhere else (not in the head, not in `rest`) is equivalent to `h(K) :- rest, part(I)` with
//! `part(I) :- C` and `I` the variables `C` shares with the head. The chess-like frame rule
//! `next(cell x y p) :- true(cell x y p), does(r, move a b c d), elsewhere(x, y, a, b, c, d)`
//! grounds to cells × pieces × moves rules; decomposed, to cells × moves + cells × pieces.
//!
//! A part is split off only when it holds a dynamic literal and something else in the rule
//! is dynamic too (otherwise splitting adds rules and saves none), and only when the part's
//! rule is safe on its own. Part relations are named `head~partN`, like the normaliser's
//! auxiliary relations, so they cannot clash with the description's names.

use crate::ast::Term;
use crate::program::{NLit, NRule};
use rustc_hash::FxHashSet;

type Dynamic = FxHashSet<(String, usize)>;

/// Decomposes every rule whose head is dynamic; also gives the names of the part relations.
pub fn decompose(rules: Vec<NRule>, dynamic: &Dynamic) -> (Vec<NRule>, Vec<String>) {
    let mut out = Vec::with_capacity(rules.len());
    let mut parts = Vec::new();
    for rule in rules {
        if is_dynamic(dynamic, &rule.head) {
            split(rule, dynamic, &mut parts, &mut out);
        } else {
            out.push(rule);
        }
    }
    (out, parts)
}

fn is_dynamic(dynamic: &Dynamic, t: &Term) -> bool {
    dynamic.contains(&(t.name().expect("named").to_string(), t.args().len()))
}

fn lit_is_dynamic(dynamic: &Dynamic, l: &NLit) -> bool {
    matches!(l, NLit::Pos(t) | NLit::Neg(t) if is_dynamic(dynamic, t))
}

fn vars_of(l: &NLit) -> Vec<&str> {
    let mut vs = Vec::new();
    l.for_each_var(&mut |v, _| vs.push(v));
    vs
}

/// Pushes the rule, split into parts where that pays, onto `out`.
fn split(rule: NRule, dynamic: &Dynamic, parts: &mut Vec<String>, out: &mut Vec<NRule>) {
    let mut head_vars: Vec<&str> = Vec::new();
    rule.head.for_each_var(&mut |v, _| head_vars.push(v));
    let lit_vars: Vec<Vec<&str>> = rule.body.iter().map(vars_of).collect();
    let inner = |v: &str| !head_vars.contains(&v);

    // Union-find over literals: two literals meet when they share a variable the head lacks.
    let n = rule.body.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if lit_vars[i].iter().any(|v| inner(v) && lit_vars[j].contains(v)) {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let group: Vec<usize> = (0..n).map(|i| find(&mut parent, i)).collect();
    // A group with an inner variable and a dynamic literal is a candidate part.
    let candidates: Vec<usize> = (0..n)
        .filter(|&g| group[g] == g)
        .filter(|&g| {
            let members = (0..n).filter(|&i| group[i] == g);
            let mut any_inner = false;
            let mut any_dynamic = false;
            for i in members {
                any_inner |= lit_vars[i].iter().any(|v| inner(v));
                any_dynamic |= lit_is_dynamic(dynamic, &rule.body[i]);
            }
            any_inner && any_dynamic
        })
        .collect();
    let dynamic_elsewhere = (0..n).any(|i| !candidates.contains(&group[i]) && lit_is_dynamic(dynamic, &rule.body[i]));
    if candidates.len() + usize::from(dynamic_elsewhere) < 2 {
        out.push(rule);
        return;
    }

    let head_name = rule.head.name().expect("named").to_string();
    let mut body: Vec<NLit> = Vec::new();
    let mut taken = vec![false; n];
    for &g in &candidates {
        let members: Vec<usize> = (0..n).filter(|&i| group[i] == g).collect();
        let mut lits: Vec<NLit> = members.iter().map(|&i| rule.body[i].clone()).collect();
        let mut interface: Vec<&str> = Vec::new();
        for &i in &members {
            for v in &lit_vars[i] {
                if !inner(v) && !interface.contains(v) {
                    interface.push(v);
                }
            }
        }
        let number = parts.len() + 1;
        let dom = format!("{head_name}~dom{number}");
        let doms = bind_interface(&mut lits, &interface, &rule.body, &taken, dynamic, &dom);
        if !safe(&lits, &interface) {
            continue;
        }
        let name = format!("{head_name}~part{number}");
        parts.push(name.clone());
        out.extend(doms);
        let args: Vec<Term> = interface.iter().map(|v| Term::Var(v.to_string(), rule.span)).collect();
        let head = if args.is_empty() { Term::Const(name, rule.span) } else { Term::Func(name, args, rule.span) };
        out.push(NRule { head: head.clone(), body: lits, span: rule.span });
        body.push(NLit::Pos(head));
        members.iter().for_each(|&i| taken[i] = true);
    }
    body.extend(rule.body.iter().zip(&taken).filter(|(_, t)| !**t).map(|(l, _)| l.clone()));
    out.push(NRule { head: rule.head, body, span: rule.span });
}

/// Binds the interface variables the part's own positive literals leave free with a literal
/// of the rest of the rule that binds them, read over the domains (`true` becomes `base`,
/// `does` becomes `input`, static literals stay) and projected onto those variables by a
/// relation of its own, `dom(vars) :- binder`, named `name_k`. Where the rule holds, the binder
/// holds too, so the part means the same; its instances stay few because `dom` is static
/// and vanishes from the ground program. Returns the `dom` rules.
fn bind_interface(
    lits: &mut Vec<NLit>,
    interface: &[&str],
    body: &[NLit],
    taken: &[bool],
    dynamic: &Dynamic,
    name: &str,
) -> Vec<NRule> {
    let mut bound = positive_vars(lits);
    let mut doms = Vec::new();
    for v in interface {
        if bound.contains(*v) {
            continue;
        }
        let binder = body.iter().zip(taken).find_map(|(l, &t)| match l {
            NLit::Pos(a) if !t && vars_of(l).contains(v) => match a.name() {
                Some("true") => Some(Term::Func("base".into(), a.args().to_vec(), a.span())),
                Some("does") => Some(Term::Func("input".into(), a.args().to_vec(), a.span())),
                _ if !is_dynamic(dynamic, a) => Some(a.clone()),
                _ => None,
            },
            _ => None,
        });
        if let Some(binder) = binder {
            let mut vars: Vec<&str> = Vec::new();
            binder.for_each_var(&mut |x, _| {
                if interface.contains(&x) && !vars.contains(&x) {
                    vars.push(x)
                }
            });
            let span = binder.span();
            let head = Term::Func(
                format!("{name}_{}", doms.len() + 1),
                vars.iter().map(|x| Term::Var(x.to_string(), span)).collect(),
                span,
            );
            bound.extend(vars.iter().map(|x| x.to_string()));
            lits.push(NLit::Pos(head.clone()));
            doms.push(NRule { head, body: vec![NLit::Pos(binder)], span });
        }
    }
    doms
}

fn positive_vars(lits: &[NLit]) -> FxHashSet<String> {
    lits.iter().filter(|l| matches!(l, NLit::Pos(_))).flat_map(vars_of).map(str::to_string).collect()
}

/// Whether `head(interface) :- lits` is safe: every variable of the head, of a negated
/// literal and of a (non-)equality occurs in a positive literal.
fn safe(lits: &[NLit], interface: &[&str]) -> bool {
    let bound = positive_vars(lits);
    interface.iter().all(|v| bound.contains(*v)) && lits.iter().flat_map(vars_of).all(|v| bound.contains(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::program::normalise;

    fn show(text: &str, dynamic: &[(&str, usize)]) -> String {
        let rules = normalise(&parse(text).description).unwrap();
        let dynamic: Dynamic = dynamic.iter().map(|&(n, a)| (n.to_string(), a)).collect();
        decompose(rules, &dynamic).0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    const DYNAMIC: [(&str, usize); 4] = [("true", 1), ("does", 2), ("next", 1), ("goal", 2)];

    #[test]
    fn frame_rule_splits_off_the_move() {
        let out = show(
            "(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (does ?r (move ?a ?b)) (role ?r) \
             (distinct ?x ?a) (other ?y ?b))",
            &DYNAMIC,
        );
        expect_test::expect![[r#"
            (next~dom1_1 ?x ?y) :- (base (cell ?x ?y ?p))
            (next~part1 ?x ?y) :- (does ?r (move ?a ?b)) (role ?r) (distinct ?x ?a) (other ?y ?b) (next~dom1_1 ?x ?y)
            (next (cell ?x ?y ?p)) :- (next~part1 ?x ?y) (true (cell ?x ?y ?p))"#]]
        .assert_eq(&out);
    }

    #[test]
    fn unrelated_conditions_become_separate_parts() {
        let out = show("(<= (goal ?r 100) (role ?r) (true (a ?u)) (true (b ?v)))", &DYNAMIC);
        expect_test::expect![[r#"
            goal~part1 :- (true (a ?u))
            goal~part2 :- (true (b ?v))
            (goal ?r 100) :- goal~part1 goal~part2 (role ?r)"#]]
        .assert_eq(&out);
    }

    #[test]
    fn rules_that_would_not_shrink_stay() {
        let text = "(<= (next (f ?x)) (does ?r (m ?x ?y)))\n\
                    (<= (next (g ?x)) (true (g ?x)) (does ?r (m ?x ?x)))\n\
                    (<= (next (h ?x)) (true (h ?x)) (does ?r (m ?y)) (distinct ?x ?y))";
        expect_test::expect![[r#"
            (next (f ?x)) :- (does ?r (m ?x ?y))
            (next~part1 ?x) :- (does ?r (m ?x ?x))
            (next (g ?x)) :- (next~part1 ?x) (true (g ?x))
            (next~dom2_1 ?x) :- (base (h ?x))
            (next~part2 ?x) :- (does ?r (m ?y)) (distinct ?x ?y) (next~dom2_1 ?x)
            (next (h ?x)) :- (next~part2 ?x) (true (h ?x))"#]]
        .assert_eq(&show(text, &DYNAMIC));
    }
}
