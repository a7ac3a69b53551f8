//! Rule decomposition: a part of a dynamic rule's body that shares only some variables with
//! the rest becomes a relation of its own, so that the ground program holds the *sum* of the
//! parts' instances instead of their *product*.
//!
//! The rule `h(K) :- rest, C` where the literals `C` hold variables that occur nowhere else
//! (not in the head, not in `rest`) is equivalent to `h(K) :- rest, part(I)` with
//! `part(I) :- C` and `I` the variables `C` shares with the head and `rest`. The chess-like
//! frame rule `next(cell x y p) :- true(cell x y p), does(r, move a b c d), elsewhere(x, y, a,
//! b, c, d)` grounds to cells × pieces × moves rules; decomposed, to cells × moves + cells ×
//! pieces.
//!
//! Variables are eliminated one at a time (bucket elimination, as in join-tree
//! decompositions): `C` is every literal of one variable, and the part takes its place in the
//! rule, so the next variable's literals may include earlier parts. A move's coordinates that
//! nothing else reads are projected away first (`does(r, play a b c d e f)` becomes a part
//! over `a b`), a score joined to two bids through `min` and `minus` becomes a chain of
//! parts over one bid each instead of one rule per score and pair of bids.
//!
//! A part is split off only when it holds a dynamic literal and something else in the rule
//! is dynamic too (otherwise splitting adds rules and saves none), and only when the part's
//! rule is safe on its own. Parts that turn out not to pay are substituted back after
//! grounding (`Rules::unfold_parts`). Part relations are named `head~partN`, like the
//! normaliser's auxiliary relations, so they cannot clash with the description's names.

use crate::ast::Term;
use crate::program::{NLit, NRule};
use rustc_hash::{FxHashMap, FxHashSet};

type Dynamic = FxHashSet<(String, usize)>;

/// A score (projections first, then fewest interface variables, then fewest literals), a
/// bucket, an interface.
type Candidate = ((bool, usize, usize), Vec<usize>, Vec<String>);

/// The `dom` relations made so far, by the text of their binder and variables (the same
/// projection is made once, whichever parts read it).
type Doms = FxHashMap<String, Term>;

/// Decomposes every rule whose head is dynamic; also gives the names of the part relations.
pub fn decompose(rules: Vec<NRule>, dynamic: &Dynamic) -> (Vec<NRule>, Vec<String>) {
    let mut dynamic = dynamic.clone();
    let mut out = Vec::with_capacity(rules.len());
    let mut parts = Vec::new();
    let mut doms = Doms::default();
    for rule in rules {
        if is_dynamic(&dynamic, &rule.head) {
            split(rule, &mut dynamic, &mut parts, &mut doms, &mut out);
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
///
/// Variables the head lacks are eliminated one at a time (bucket elimination): the
/// literals mentioning the variable become a part whose arguments are the variables those
/// literals share with the head and the rest of the rule; the part replaces them. Each step
/// takes a variable whose part only projects one literal if there is one (a move's piece and
/// player, dropped before its squares meet the cells of the frame rule: moves + cells × moves'
/// squares instead of cells × moves), else the variable whose part has the fewest arguments
/// (then the fewest literals), only among variables some dynamic literal mentions and only
/// while something dynamic remains beside the part (otherwise the part would be the whole
/// rule again). Parts made from parts nest; `Rules::unfold_parts` substitutes back those that
/// do not pay.
fn split(rule: NRule, dynamic: &mut Dynamic, parts: &mut Vec<String>, doms: &mut Doms, out: &mut Vec<NRule>) {
    let mut head_vars: Vec<String> = Vec::new();
    rule.head.for_each_var(&mut |v, _| head_vars.push(v.to_string()));
    let head_name = rule.head.name().expect("named").to_string();
    let mut body = rule.body.clone();
    let mut tried: FxHashSet<String> = FxHashSet::default();
    while let Some((bucket, interface)) = next_bucket(&body, &head_vars, &tried, dynamic) {
        let number = parts.len() + 1;
        let mut lits: Vec<NLit> = bucket.iter().map(|&i| body[i].clone()).collect();
        let taken: Vec<bool> = (0..body.len()).map(|i| bucket.contains(&i)).collect();
        let interface_refs: Vec<&str> = interface.iter().map(String::as_str).collect();
        let dom_name = format!("{head_name}~dom{number}");
        let new_doms = bind_interface(&mut lits, &interface_refs, &body, &taken, dynamic, doms, &dom_name);
        if !safe(&lits, &interface_refs) {
            // These variables stay; others may still go.
            for &i in &bucket {
                tried.extend(vars_of(&body[i]).into_iter().filter(|v| !interface_refs.contains(v)).map(str::to_string));
            }
            continue;
        }
        let name = format!("{head_name}~part{number}");
        parts.push(name.clone());
        // A part holds a dynamic literal: it is dynamic.
        dynamic.insert((name.clone(), interface.len()));
        for (key, dom) in new_doms {
            doms.insert(key, dom.head.clone());
            out.push(dom);
        }
        let args: Vec<Term> = interface.iter().map(|v| Term::Var(v.clone(), rule.span)).collect();
        let head = if args.is_empty() { Term::Const(name, rule.span) } else { Term::Func(name, args, rule.span) };
        out.push(NRule { head: head.clone(), body: lits, span: rule.span });
        // The part takes the place of its first literal: the body keeps the order it is
        // written in, which is the order demand flows in (`crate::program::magic`).
        let mut rest: Vec<NLit> = Vec::with_capacity(body.len());
        for (i, (l, t)) in body.into_iter().zip(taken).enumerate() {
            if i == bucket[0] {
                rest.push(NLit::Pos(head.clone()));
            }
            if !t {
                rest.push(l);
            }
        }
        body = rest;
    }
    out.push(NRule { head: rule.head, body, span: rule.span });
}

/// The literals of the variable to eliminate next (see `split`) and the variables they
/// share with the head and the other literals, if any variable is worth eliminating.
fn next_bucket(
    body: &[NLit],
    head_vars: &[String],
    tried: &FxHashSet<String>,
    dynamic: &Dynamic,
) -> Option<(Vec<usize>, Vec<String>)> {
    let lit_vars: Vec<Vec<&str>> = body.iter().map(vars_of).collect();
    let in_head = |x: &str| head_vars.iter().any(|h| h == x);
    let mut best: Option<Candidate> = None;
    let mut seen: Vec<&str> = Vec::new();
    for i in (0..body.len()).filter(|&i| lit_is_dynamic(dynamic, &body[i])) {
        for &v in &lit_vars[i] {
            if seen.contains(&v) || in_head(v) || tried.contains(v) {
                continue;
            }
            seen.push(v);
            let bucket: Vec<usize> = (0..body.len()).filter(|&j| lit_vars[j].contains(&v)).collect();
            let others = || (0..body.len()).filter(|j| !bucket.contains(j));
            if !others().any(|j| lit_is_dynamic(dynamic, &body[j])) {
                continue;
            }
            let mut interface: Vec<String> = Vec::new();
            for x in bucket.iter().flat_map(|&j| &lit_vars[j]) {
                let outside = in_head(x) || others().any(|j| lit_vars[j].contains(x));
                if outside && !interface.iter().any(|y| y == x) {
                    interface.push(x.to_string());
                }
            }
            let score = (widens(&bucket, body, &lit_vars), interface.len(), bucket.len());
            if best.as_ref().is_none_or(|b| score < b.0) {
                best = Some((score, bucket, interface));
            }
        }
    }
    best.map(|(_, bucket, interface)| (bucket, interface))
}

/// Whether the part's join has variables beyond those of its widest positive literal (each
/// multiplies its instances by a domain: the chess frame rule's move joined to the cell it
/// leaves alone). A part that does not widen only projects and filters one literal: it
/// costs no more instances than that literal, wherever it is taken.
fn widens(bucket: &[usize], body: &[NLit], lit_vars: &[Vec<&str>]) -> bool {
    let distinct = |vs: &mut Vec<&str>| {
        vs.sort_unstable();
        vs.dedup();
        vs.len()
    };
    let all = distinct(&mut bucket.iter().flat_map(|&j| lit_vars[j].iter().copied()).collect());
    let widest = (bucket.iter())
        .filter(|&&j| matches!(body[j], NLit::Pos(_)))
        .map(|&j| distinct(&mut lit_vars[j].clone()))
        .max()
        .unwrap_or(0);
    all > widest
}

/// Binds the interface variables the part's own positive literals leave free with every
/// literal of the rest of the rule that mentions one, read over the domains (`true` becomes
/// `base`, `does` becomes `input`, static literals stay) and projected onto the interface by
/// a relation of its own, `dom(vars) :- binder`, named `name_k`. Where the rule holds, the
/// binders hold too, so the part means the same; its instances are those of the tightest
/// binders together, whatever order they are written in (a checkers frame rule's square is
/// a dark one from `true (cell ...)`, any of 64 from `different_cells`), and they cost no
/// rules: `dom` is static and vanishes from the ground program. A projection made before
/// (`known`) is read again; returns the new `dom` rules with their keys.
fn bind_interface(
    lits: &mut Vec<NLit>,
    interface: &[&str],
    body: &[NLit],
    taken: &[bool],
    dynamic: &Dynamic,
    known: &Doms,
    name: &str,
) -> Vec<(String, NRule)> {
    let bound = positive_vars(lits);
    let free: Vec<&str> = interface.iter().copied().filter(|v| !bound.contains(*v)).collect();
    let mut doms: Vec<(String, NRule)> = Vec::new();
    for (l, &t) in body.iter().zip(taken) {
        let NLit::Pos(a) = l else { continue };
        if t || !vars_of(l).iter().any(|v| free.contains(v)) {
            continue;
        }
        let binder = match a.name() {
            Some("true") => Term::Func("base".into(), a.args().to_vec(), a.span()),
            Some("does") => Term::Func("input".into(), a.args().to_vec(), a.span()),
            _ if !is_dynamic(dynamic, a) => a.clone(),
            _ => continue,
        };
        let mut vars: Vec<&str> = Vec::new();
        binder.for_each_var(&mut |x, _| {
            if interface.contains(&x) && !vars.contains(&x) {
                vars.push(x)
            }
        });
        let mut all = 0;
        binder.for_each_var(&mut |_, _| all += 1);
        if !matches!(a.name(), Some("true" | "does")) && all == vars.len() {
            // A static condition over interface variables only reads as itself.
            lits.push(l.clone());
            continue;
        }
        let key = format!("{binder} {vars:?}");
        if let Some(head) = known.get(&key).or_else(|| doms.iter().find(|(k, _)| *k == key).map(|(_, r)| &r.head)) {
            lits.push(NLit::Pos(head.clone()));
            continue;
        }
        let span = binder.span();
        let head = Term::Func(
            format!("{name}_{}", doms.len() + 1),
            vars.iter().map(|x| Term::Var(x.to_string(), span)).collect(),
            span,
        );
        lits.push(NLit::Pos(head.clone()));
        doms.push((key, NRule { head, body: vec![NLit::Pos(binder)], span }));
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
            (next~part1 ?a ?b) :- (does ?r (move ?a ?b)) (role ?r)
            (next~dom2_1 ?x) :- (base (cell ?x ?y ?p))
            (next~part2 ?b ?x) :- (next~part1 ?a ?b) (distinct ?x ?a) (next~dom2_1 ?x)
            (next~part3 ?x ?y) :- (next~part2 ?b ?x) (other ?y ?b)
            (next (cell ?x ?y ?p)) :- (true (cell ?x ?y ?p)) (next~part3 ?x ?y)"#]]
        .assert_eq(&out);
    }

    #[test]
    fn a_move_is_projected_before_it_meets_the_cells() {
        // Eliminating x1 first (fewest arguments: x2 y2 x y; eliminating q or r leaves 5)
        // would join every move, piece and player included, with every cell; projecting the
        // move onto its squares first joins each pair of squares with the cells instead.
        let out = show(
            "(<= (next (cell ?x ?y ?p)) (does ?r (move ?q ?x1 ?y1 ?x2 ?y2)) \
             (not (castle ?q ?x1 ?y1 ?x2 ?y2)) (not (passant ?r ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p)) \
             (differ ?x ?y ?x1 ?y1) (differ ?x ?y ?x2 ?y2))",
            &DYNAMIC,
        );
        expect_test::expect![[r#"
            (next~part1 ?q ?x1 ?y1 ?x2 ?y2) :- (does ?r (move ?q ?x1 ?y1 ?x2 ?y2)) (not (passant ?r ?x1 ?y1 ?x2 ?y2))
            (next~part2 ?x1 ?y1 ?x2 ?y2) :- (next~part1 ?q ?x1 ?y1 ?x2 ?y2) (not (castle ?q ?x1 ?y1 ?x2 ?y2))
            (next~part3 ?x2 ?y2 ?x ?y) :- (next~part2 ?x1 ?y1 ?x2 ?y2) (differ ?x ?y ?x1 ?y1)
            (next~part4 ?x ?y) :- (next~part3 ?x2 ?y2 ?x ?y) (differ ?x ?y ?x2 ?y2)
            (next (cell ?x ?y ?p)) :- (next~part4 ?x ?y) (true (cell ?x ?y ?p))"#]]
        .assert_eq(&out);
    }

    #[test]
    fn unrelated_conditions_become_separate_parts() {
        let out = show("(<= (goal ?r 100) (role ?r) (true (a ?u)) (true (b ?v)))", &DYNAMIC);
        expect_test::expect![[r#"
            goal~part1 :- (true (a ?u))
            goal~part2 :- (true (b ?v))
            (goal ?r 100) :- (role ?r) goal~part1 goal~part2"#]]
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
            (next (g ?x)) :- (true (g ?x)) (next~part1 ?x)
            (next~part2 ?y) :- (does ?r (m ?y))
            (next~dom3_1 ?x) :- (base (h ?x))
            (next~part3 ?x) :- (next~part2 ?y) (distinct ?x ?y) (next~dom3_1 ?x)
            (next (h ?x)) :- (true (h ?x)) (next~part3 ?x)"#]]
        .assert_eq(&show(text, &DYNAMIC));
    }
}
