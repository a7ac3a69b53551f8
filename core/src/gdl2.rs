//! What GDL-II (Thielscher 2010) adds to the language, and how files written for the reference
//! tools (the Dresden GameController and its players) are read: the relation `sees` (what each
//! role perceives when a joint move is played in a state) and the role `random` (nature, which
//! picks uniformly among its legal moves).
//!
//! The validator asks here which rules are GDL-II's and reports their mistakes; the normaliser
//! (`crate::program::flatten`) asks the same questions, so that what is accepted with a warning
//! is read the same way by every engine:
//! - a `sees` head whose role is a variable no condition binds is read "for every role";
//! - a `base` or `input` declaration that cannot be one (a fact with variables, a wrong number of
//!   arguments) is ignored: declarations only inform the players, the grounder computes its own;
//! - inside a percept, keywords are plain function names (`(sees r (does r ?m))`);
//! - `next` may be a condition of a `sees` rule (what the role sees of the state to come);
//! - a variable that occurs only in one `(not atom)` reads "for no value" (Prolog's reading).
//!
//! In a GDL-II game (`is_gdl2`: it defines `sees` or has the role `random`) four more readings
//! of the Prolog-based reference tools, which strict GDL refuses:
//! - a `legal` or `goal` head whose role variable no condition binds is read "for every role";
//! - a variable found only in `(not atom)` conditions reads "for no value" in each of them;
//! - a relation or function used with several numbers of arguments is one per number
//!   (`add/3` and `add/4` are two relations, as Prolog's predicates are);
//! - a head variable of a relation that no condition binds takes the values the rules that
//!   use the relation ask it with (`crate::program::asked`).
//!
//! Invariant: nothing here changes how a game without `sees` and `random` is read, save the
//! ignored declarations and the single `not` (which strict GDL refuses).

use crate::ast::{Literal, Rule, Term};
use crate::diagnostic::{Diagnostic, Span};
use rustc_hash::FxHashSet;

/// The relation that says what a role perceives: `(sees role percept)`.
pub const SEES: &str = "sees";
/// The role that plays nature's moves: each of its legal moves is drawn with equal chance.
pub const RANDOM: &str = "random";

/// Whether role `name` is nature (`random`): no player sits there, it draws each move
/// uniformly among its legal moves (`crate::players::arena::nature`).
pub fn is_nature(name: &str) -> bool {
    name == RANDOM
}

/// Whether a rule defines a percept, `(sees role percept)`.
pub fn is_sees(rule: &Rule) -> bool {
    rule.head.name() == Some(SEES) && rule.head.args().len() == 2
}

/// Why a `base` or `input` declaration cannot be read as one (it is then ignored), if so.
pub fn ignored_declaration(rule: &Rule) -> Option<&'static str> {
    let arity = match rule.head.name() {
        Some("base") => 1,
        Some("input") => 2,
        _ => return None,
    };
    if rule.head.args().len() != arity {
        Some("it has the wrong number of arguments")
    } else if rule.body.is_empty() && !rule.head.is_ground() {
        Some("it is a fact with variables, which says nothing about their values")
    } else {
        None
    }
}

/// Whether a game is GDL-II's: a rule defines `sees`, or a role is `random`.
pub fn is_gdl2<'a>(rules: impl IntoIterator<Item = &'a Rule>) -> bool {
    rules.into_iter().any(|r| {
        is_sees(r) || (r.head.name() == Some("role") && r.head.args().first().and_then(Term::name) == Some(RANDOM))
    })
}

/// Whether the reference tools ask relation `name` role by role, the role given (`legal`,
/// `goal`, `sees`).
pub fn asked_by_role(name: &str) -> bool {
    matches!(name, "legal" | "goal" | SEES)
}

/// The role variable of a `sees` head (in a GDL-II game also of a `legal` or `goal` head) that
/// no positive condition of `bound` binds: such a rule holds for every role (the reference
/// tools ask these relations with the role given).
pub fn every_role_variable<'a>(head: &'a Term, bound: &dyn Fn(&str) -> bool, gdl2: bool) -> Option<&'a str> {
    let keyword = head.name().is_some_and(|n| asked_by_role(n) && (n == SEES || gdl2));
    match head.args() {
        [Term::Var(v, _), _] if keyword && !bound(v) => Some(v),
        _ => None,
    }
}

/// The function terms inside percepts (second arguments of `sees` atoms), by address: there,
/// keywords are plain names.
pub fn percept_terms(rules: &[&Rule]) -> FxHashSet<*const Term> {
    let mut inside = FxHashSet::default();
    fn add(t: &Term, inside: &mut FxHashSet<*const Term>) {
        inside.insert(t as *const Term);
        t.args().iter().for_each(|a| add(a, inside));
    }
    for rule in rules {
        let mut atoms = vec![&rule.head];
        rule.body.iter().for_each(|l| l.for_each_atom(false, &mut |t, _| atoms.push(t)));
        for atom in atoms.into_iter().filter(|a| a.name() == Some(SEES) && a.args().len() == 2) {
            add(&atom.args()[1], &mut inside);
        }
    }
    inside
}

/// The variables found only in `(not atom)` conditions of the body — in a single one, or in a
/// GDL-II game (`gdl2`) in any number —, never in the head, with the span of their first
/// occurrence and whether they are in several: each such `not` is read as "there is no such
/// atom" (`crate::program::flatten`).
pub fn existential_variables(rule: &Rule, gdl2: bool) -> Vec<(&str, Span, bool)> {
    // Per variable: in the head or another kind of literal (disqualified), else how many nots.
    let mut nots: rustc_hash::FxHashMap<&str, Option<usize>> = Default::default();
    rule.head.for_each_var(&mut |v, _| {
        nots.insert(v, None);
    });
    for lit in &rule.body {
        let plain_not = matches!(lit, Literal::Not(inner, _) if matches!(inner.as_ref(), Literal::Atom(_)));
        let mut here: FxHashSet<&str> = FxHashSet::default();
        lit.for_each_var(&mut |v, _| {
            here.insert(v);
        });
        for v in here {
            let count = nots.entry(v).or_insert(Some(0));
            *count = if plain_not { count.map(|n| n + 1) } else { None };
        }
    }
    let mut out: Vec<(&str, Span, bool)> = Vec::new();
    for lit in &rule.body {
        if let Literal::Not(inner, _) = lit {
            if let Literal::Atom(atom) = inner.as_ref() {
                atom.for_each_var(&mut |v, span| {
                    let count = nots.get(v).copied().flatten().unwrap_or(0);
                    if (count == 1 || (gdl2 && count > 1)) && !out.iter().any(|(x, ..)| *x == v) {
                        out.push((v, span, count > 1));
                    }
                });
            }
        }
    }
    out
}

/// GDL-II's own findings: a `sees` without its two arguments (in a GDL-II game), a `sees`
/// about something that is not a role, `sees` used as a condition (accepted), `next` in a
/// `sees` rule (accepted), keywords inside percepts (accepted), percepts that can never hold,
/// ignored declarations.
pub fn check(rules: &[&Rule], roles: &FxHashSet<&str>, out: &mut Vec<Diagnostic>) {
    let mut keyword_in_percept: Vec<&Term> = Vec::new();
    let percepts = percept_terms(rules);
    let gdl2 = is_gdl2(rules.iter().copied());
    for rule in rules {
        if let Some(why) = ignored_declaration(rule) {
            let name = rule.head.name().unwrap_or_default();
            out.push(Diagnostic::warning(
                "declaration-ignored",
                rule.span,
                format!(
                    "this '{name}' declaration is ignored: {why}. '{name}' only tells players what is \
                     possible, so the game is played without it (strict GDL refuses it)"
                ),
            ));
        }
        let mut atoms = vec![&rule.head];
        rule.body.iter().for_each(|l| l.for_each_atom(false, &mut |t, _| atoms.push(t)));
        // In a GDL game `sees` is a relation like any other (games/negation.kif has one).
        for t in atoms.into_iter().filter(|t| gdl2 && t.name() == Some(SEES) && t.args().len() != 2) {
            out.push(Diagnostic::error(
                "sees-arity",
                t.span(),
                format!(
                    "'sees' takes 2 arguments, a role and what it perceives, but here it has {}: write \
                     (sees ROLE PERCEPT), and make a percept of several parts one term, such as (saw ?n ?m)",
                    t.args().len()
                ),
            ));
        }
        for lit in &rule.body {
            lit.for_each_atom(false, &mut |t, _| {
                if t.name() == Some(SEES) && t.args().len() == 2 {
                    out.push(Diagnostic::warning(
                        "sees-as-condition",
                        t.span(),
                        "'sees' used as a condition: it holds when the role would perceive this (the \
                         reference tools accept it). Strict GDL-II keeps 'sees' for percepts only; a relation \
                         of your own, used both here and in the 'sees' rule, says the same plainly",
                    ));
                } else if t.name() == Some("next") && is_sees(rule) {
                    out.push(Diagnostic::warning(
                        "next-in-percept",
                        t.span(),
                        "(next ...) in a 'sees' rule: the role perceives something about the state the move \
                         leads to. Strict GDL-II allows only true, does and static relations here; the \
                         reference tools accept it, and so does this one",
                    ));
                }
            });
        }
        if is_sees(rule) {
            check_sees_role(&rule.head.args()[0], roles, out);
            check_percept_can_hold(rule, rules, out);
        }
        let mut functions = Vec::new();
        collect_functions(&rule.head, &mut functions);
        rule.body.iter().for_each(|l| l.for_each_atom(false, &mut |t, _| collect_functions(t, &mut functions)));
        keyword_in_percept.extend(
            functions
                .into_iter()
                .filter(|f| percepts.contains(&(*f as *const Term)))
                .filter(|f| f.name().is_some_and(|n| crate::ast::RESERVED.contains(&n) || n == SEES)),
        );
    }
    if let Some(first) = keyword_in_percept.first() {
        let name = first.name().unwrap_or_default();
        out.push(Diagnostic::warning(
            "keyword-in-percept",
            first.span(),
            format!(
                "{first} is inside a percept, so '{name}' is read as a plain function name: the role \
                 perceives the term {first}{}. Strict GDL forbids keywords as function names; the GDL-II \
                 reference tools accept them inside percepts, and so does this one",
                match keyword_in_percept.len() - 1 {
                    0 => String::new(),
                    1 => " (here and in 1 other percept)".to_string(),
                    n => format!(" (here and in {n} other percepts)"),
                }
            ),
        ));
    }
}

/// Every function term strictly inside `t`.
fn collect_functions<'a>(t: &'a Term, out: &mut Vec<&'a Term>) {
    for a in t.args() {
        if let Term::Func(..) = a {
            out.push(a);
        }
        collect_functions(a, out);
    }
}

fn check_sees_role(role: &Term, roles: &FxHashSet<&str>, out: &mut Vec<Diagnostic>) {
    let mut names: Vec<&str> = roles.iter().copied().collect();
    crate::order::sort(&mut names);
    let message = match role {
        Term::Var(..) => return,
        Term::Const(name, _) if roles.contains(name.as_str()) || roles.is_empty() => return,
        Term::Const(name, _) => format!(
            "(sees {name} ...) says what role {name} perceives, but {name} is not a role of this game \
             (the roles are {}); the first argument of 'sees' must be a role or a variable",
            names.join(", ")
        ),
        Term::Func(..) => format!(
            "the first argument of 'sees' must be a role (the roles are {}) or a variable, not the compound \
             term {role}",
            names.join(", ")
        ),
    };
    out.push(Diagnostic::error("sees-role", role.span(), message));
}

/// A `sees` rule that needs `(does R m)` for a role R that no `legal` rule ever lets play a
/// move of that shape can never hold.
fn check_percept_can_hold(rule: &Rule, rules: &[&Rule], out: &mut Vec<Diagnostic>) {
    let shape = |t: &Term| (t.name().map(str::to_string), t.args().len());
    let mut first_does: Option<&Term> = None;
    for lit in &rule.body {
        if let Literal::Atom(t) = lit {
            if t.name() == Some("does") && t.args().len() == 2 && first_does.is_none() {
                first_does = Some(t);
            }
        }
    }
    let Some(does) = first_does else { return };
    let (Term::Const(role, _), played) = (&does.args()[0], &does.args()[1]) else { return };
    if played.name().is_none() {
        return;
    }
    let possible = rules.iter().filter(|r| r.head.name() == Some("legal") && r.head.args().len() == 2).any(|r| {
        let (who, m) = (&r.head.args()[0], &r.head.args()[1]);
        let role_fits = matches!(who, Term::Var(..)) || who.name() == Some(role.as_str());
        role_fits && (matches!(m, Term::Var(..)) || shape(m) == shape(played))
    });
    if !possible {
        out.push(Diagnostic::warning(
            "percept-never-holds",
            does.span(),
            format!(
                "this percept can never hold: it needs {does}, but no 'legal' rule ever lets {role} play a \
                 move {}/{}",
                played.name().unwrap_or_default(),
                played.args().len()
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::{Diagnostic, LineIndex};
    use crate::parse::parse;
    use expect_test::{expect, Expect};
    use rustc_hash::FxHashSet;

    const GAME: &str = "(role player) (role random) (init (step 1))\n\
        (<= (legal random (hide ?d)) (door ?d)) (legal player noop) (door 1) (door 2)\n\
        (<= (next (car ?d)) (does random (hide ?d))) (<= terminal (true (car ?d)))\n\
        (goal player 0) (goal random 0)\n";

    /// The findings about `GAME` followed by `rules`, rendered.
    fn check(rules: &str, expect: Expect) {
        let text = format!("{GAME}{rules}");
        let parsed = parse(&text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let idx = LineIndex::new(&text);
        let found: Vec<String> =
            crate::validate::validate(&parsed.description).iter().map(|d| idx.render("g.kif", d)).collect();
        expect.assert_eq(&found.join("\n"));
    }

    #[test]
    fn percepts_over_true_does_and_static_relations_are_plain_gdl2() {
        check("(<= (sees player (seen ?d)) (does random (hide ?d)) (door ?d) (true (step 1)))", expect![""]);
    }

    #[test]
    fn keywords_inside_percepts_are_names_with_one_warning() {
        check(
            "(<= (sees player (does random ?m)) (does random ?m))\n(<= (sees random (legal player noop)) (true (step 1)))",
            expect!["g.kif:5:18: warning[keyword-in-percept]: (does random ?m) is inside a percept, so 'does' is read as a plain function name: the role perceives the term (does random ?m) (here and in 1 other percept). Strict GDL forbids keywords as function names; the GDL-II reference tools accept them inside percepts, and so does this one"],
        );
        // Outside a percept they stay errors.
        check(
            "(<= (p (does random ?m)) (does random ?m))",
            expect!["g.kif:5:8: error[keyword-as-function]: 'does' is a GDL keyword and cannot be used as a function inside a term"],
        );
    }

    #[test]
    fn next_in_a_percept_rule_is_accepted_with_a_warning() {
        check(
            "(<= (sees player (car ?d)) (next (car ?d)))",
            expect!["g.kif:5:28: warning[next-in-percept]: (next ...) in a 'sees' rule: the role perceives something about the state the move leads to. Strict GDL-II allows only true, does and static relations here; the reference tools accept it, and so does this one"],
        );
    }

    #[test]
    fn an_unbound_role_variable_means_every_role() {
        check(
            "(<= (sees ?r (hidden ?d)) (does random (hide ?d)))",
            expect![[
                r#"g.kif:5:11: warning[sees-every-role]: no condition gives ?r its values, so this percept is read as seen by every role (as the GDL-II reference tools do); strict GDL refuses it: add (role ?r) to say so"#
            ]],
        );
    }

    /// A malformed percept: `sees` with one or three arguments, as a rule or a condition.
    #[test]
    fn a_sees_without_two_arguments_is_an_error() {
        check(
            "(<= (sees player) (does random (hide ?d)))\n(<= (sees player (car ?d) now) (does random (hide ?d)))",
            expect![[r#"
                g.kif:5:5: error[sees-arity]: 'sees' takes 2 arguments, a role and what it perceives, but here it has 1: write (sees ROLE PERCEPT), and make a percept of several parts one term, such as (saw ?n ?m)
                g.kif:6:5: error[sees-arity]: 'sees' takes 2 arguments, a role and what it perceives, but here it has 3: write (sees ROLE PERCEPT), and make a percept of several parts one term, such as (saw ?n ?m)"#]],
        );
    }

    #[test]
    fn a_sees_about_a_non_role_is_an_error() {
        check(
            "(<= (sees candidate (car ?d)) (does random (hide ?d)))\n(<= (sees (p x) (car ?d)) (does random (hide ?d)))",
            expect![[r#"
                g.kif:5:11: error[sees-role]: (sees candidate ...) says what role candidate perceives, but candidate is not a role of this game (the roles are player, random); the first argument of 'sees' must be a role or a variable
                g.kif:6:11: error[sees-role]: the first argument of 'sees' must be a role (the roles are player, random) or a variable, not the compound term (p x)"#]],
        );
    }

    #[test]
    fn a_percept_on_a_move_nobody_can_play_never_holds() {
        check(
            "(<= (sees player (opened ?d)) (does random (open ?d)))",
            expect!["g.kif:5:31: warning[percept-never-holds]: this percept can never hold: it needs (does random (open ?d)), but no 'legal' rule ever lets random play a move open/1"],
        );
    }

    #[test]
    fn sees_as_a_condition_is_accepted_with_a_warning() {
        check(
            "(<= (sees player found) (true (car 1)))\n(<= (goal player 100) (sees player found))",
            expect!["g.kif:6:23: warning[sees-as-condition]: 'sees' used as a condition: it holds when the role would perceive this (the reference tools accept it). Strict GDL-II keeps 'sees' for percepts only; a relation of your own, used both here and in the 'sees' rule, says the same plainly"],
        );
    }

    #[test]
    fn malformed_declarations_are_ignored_with_a_warning() {
        check(
            "(input random (hide ?d) (door ?d))\n(base (car ?d))",
            expect![[r#"
                g.kif:5:1: warning[declaration-ignored]: this 'input' declaration is ignored: it has the wrong number of arguments. 'input' only tells players what is possible, so the game is played without it (strict GDL refuses it)
                g.kif:6:1: warning[declaration-ignored]: this 'base' declaration is ignored: it is a fact with variables, which says nothing about their values. 'base' only tells players what is possible, so the game is played without it (strict GDL refuses it)"#]],
        );
    }

    #[test]
    fn a_variable_only_in_a_not_reads_for_no_value() {
        check(
            "(<= (sees player nothing) (not (true (car ?d))))",
            expect![[
                r#"g.kif:5:43: warning[not-some-value]: ?d occurs only in this 'not', so it is read as "for no value of ?d": the condition holds when no such fact exists. Strict GDL refuses a variable that no positive condition binds; to check one value, add a condition that gives ?d its values"#
            ]],
        );
        // In two places: in a GDL-II game each `not` reads "for no value"; in a GDL game it is
        // still unbound, an error.
        check(
            "(<= (sees player x) (not (true (car ?d))) (not (door ?d)))",
            expect![[
                r#"g.kif:5:37: warning[not-some-value]: ?d occurs only in 'not' conditions, so it is read as "for no value of ?d": each of them holds when no such fact exists. Strict GDL refuses a variable that no positive condition binds; to check one value, add a condition that gives ?d its values"#
            ]],
        );
        let text = "(role p) (init s) (door 1) (<= (legal p a) (not (true (car ?d))) (not (door ?d)))\n\
                    (<= (next s) (does p a)) (<= terminal (true s)) (goal p 0)";
        let errors: Vec<Diagnostic> =
            crate::validate::validate(&parse(text).description).into_iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].code, "unsafe-variable");
    }

    /// In a GDL-II game, a `legal` or `goal` role variable nothing binds means every role, and a
    /// relation or function used with two numbers of arguments is two of them, each with a
    /// warning (the reference tools read them so); in a GDL game both stay errors.
    #[test]
    fn prolog_readings_of_gdl2_games_are_warnings() {
        check(
            "(<= (legal ?r wait) (not (true (car 1))))\n(<= (goal ?r 50) (not (true (car 1))))\n\
             (<= (sum ?x ?y) (door ?x) (door ?y)) (<= (sum ?x ?y ?z) (sum ?x ?y) (door ?z))\n\
             (<= (sees player (got (pair 1))) (sum 1 1)) (<= (sees player (got (pair 1 2))) (sum 1 2 1))",
            expect![[r#"
                g.kif:5:12: warning[legal-every-role]: no condition gives ?r its values, so this move is read as legal for every role the other conditions allow (as the GDL-II reference tools do); strict GDL refuses it: add (role ?r) to say so
                g.kif:6:11: warning[goal-every-role]: no condition gives ?r its values, so this goal is read for every role the other conditions allow (as the GDL-II reference tools do); strict GDL refuses it: add (role ?r) to say so
                g.kif:7:42: warning[arity-overloaded]: relation sum has 3 arguments here (sum/3) but 2 arguments elsewhere (sum/2): they are read as two different relations, as the GDL-II reference tools (written in Prolog) read them. Strict GDL refuses it: give them different names
                g.kif:8:67: warning[arity-overloaded]: function pair has 2 arguments here (pair/2) but 1 argument elsewhere (pair/1): they are read as two different functions, as the GDL-II reference tools (written in Prolog) read them. Strict GDL refuses it: give them different names"#]],
        );
        // A head variable of another relation that nothing binds takes the values its callers
        // ask with (sushi_go's makiPoints); a caller that asks with it unknown is refused there.
        check(
            "(<= (seen ?r 0) (not (true (car 1)))) (<= (sees player x) (seen player 0))",
            expect!["g.kif:5:11: warning[asked-values]: no condition gives ?r its values, so it takes the values the rules that use this relation ask it with (as the GDL-II reference tools, written in Prolog, do); strict GDL refuses it: add a condition that gives ?r its values"],
        );
        check(
            "(<= (seen ?r 0) (not (true (car 1)))) (<= (sees player x) (seen ?d 0) (true (car ?d)))",
            expect!["g.kif:5:59: error[unsafe-variable]: a rule of seen has a head variable that no positive condition binds, so it takes its values from the rules that ask (as the GDL-II reference tools, written in Prolog, do); but this rule of sees asks seen with ?d still unknown. Add a condition that gives ?d its values before it, or to the rules of seen"],
        );
        let text = "(role p) (init s) (<= (legal ?r a) (not (true t))) (<= (sum ?x) (true ?x)) (<= (sum ?x ?y) (true ?x) (true ?y))\n\
                    (<= (next s) (does p a) (sum s) (sum s s)) (<= terminal (true s)) (goal p 0)";
        let codes: Vec<&str> = crate::validate::validate(&parse(text).description)
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        assert_eq!(codes, ["unsafe-variable", "arity-mismatch"]);
    }

    /// The two readings play as the oracle does: a relation per arity, `legal` for every role.
    #[test]
    fn overloaded_relations_and_every_role_legal_play() {
        use crate::machine::StateMachine;
        let text = format!(
            "{GAME}(<= (legal ?r wait) (not (true (car 1))) (not (true (car 2))))\n\
             (<= (sum ?x ?y) (door ?x) (door ?y)) (<= (sum ?x ?y ?z) (sum ?x ?y) (door ?z) (distinct ?x ?z))\n\
             (<= (sees player (pair ?x ?y ?z)) (does random (hide ?x)) (sum ?x ?y ?z))"
        );
        let mut m = crate::load(&text, Default::default()).unwrap().reasoner;
        let s = m.initial_state();
        let legal: Vec<Vec<String>> =
            (0..2).map(|r| m.legal_moves(&s, r).unwrap().iter().map(|&x| m.move_text(x)).collect()).collect();
        assert_eq!(legal, [vec!["noop", "wait"], vec!["(hide 1)", "(hide 2)", "wait"]]);
        let hide = m.legal_moves(&s, 1).unwrap()[0];
        let noop = m.legal_moves(&s, 0).unwrap()[0];
        let seen = m.percepts(&s, &[noop, hide]).unwrap().unwrap();
        assert_eq!(seen[0], ["(pair 1 1 2)", "(pair 1 2 2)"]);
    }

    /// A head variable that only callers bind plays as the oracle reads it, on every engine:
    /// `points` is asked by `total`, which `sees` asks for every role, so each role gets its
    /// own score.
    #[test]
    fn values_asked_by_callers_play() {
        let text = format!(
            "{GAME}(<= (points ?p 6) (most ?p)) (<= (points ?p 0) (not (most ?p))) (<= (most player) (door 1))\n\
             (<= (total ?p ?n) (points ?p ?n)) (<= (sees ?r (score ?n)) (does random (hide ?d)) (total ?r ?n))"
        );
        assert_eq!(first_percepts(&text), [vec!["(score 6)"], vec!["(score 0)"]]);
    }

    /// What each role sees after the first step of a game built on `GAME` (the door hidden is
    /// 1), the same on every engine.
    fn first_percepts(text: &str) -> Vec<Vec<String>> {
        use crate::engine::{build, Choice};
        use crate::machine::StateMachine;
        let valid = crate::validated(text).unwrap_or_else(|d| panic!("{d:?}"));
        assert_eq!(
            valid.warnings.iter().map(|d| d.code).collect::<FxHashSet<_>>(),
            FxHashSet::from_iter(["asked-values"])
        );
        let seen = [Choice::Reasoner, Choice::Ground, Choice::Propnet].map(|choice| {
            let mut m = build(choice, &valid.description, Default::default(), Default::default(), &|| 0.0)
                .unwrap_or_else(|d| panic!("{choice:?}: {d:?}"))
                .engine;
            let s = m.initial_state();
            let noop = m.legal_moves(&s, 0).unwrap()[0];
            let hide = m.legal_moves(&s, 1).unwrap()[0];
            m.percepts(&s, &[noop, hide]).unwrap().unwrap()
        });
        assert!(seen.iter().all(|s| *s == seen[0]), "{seen:?}");
        seen[0].clone()
    }

    /// Rules ordering a pair: the head's last two arguments repeat its first two, so a caller
    /// that gives either pair gives every value (as in Prolog, where the call unifies with
    /// the head).
    const SORT: &str = "(less 1 2) (<= (sort ?x ?y ?x ?y) (not (less ?x ?y))) (<= (sort ?x ?y ?y ?x) (less ?x ?y))\n";

    /// A head variable bound through another argument that the caller gives is known; a call
    /// that leaves a value of the head unknown is still refused, there.
    #[test]
    fn head_variables_bound_through_another_given_argument() {
        for call in ["(sort ?a ?b ?c ?d)", "(sort ?c ?d ?a ?b)", "(sort ?c ?b ?a ?d)"] {
            check(
                &format!("{SORT}(<= (sees player (sorted ?c ?d)) (does random (hide ?a)) (door ?b) {call})"),
                expect![[r#"
                    g.kif:5:22: warning[asked-values]: no condition gives ?x its values, so it takes the values the rules that use this relation ask it with (as the GDL-II reference tools, written in Prolog, do); strict GDL refuses it: add a condition that gives ?x its values
                    g.kif:5:25: warning[asked-values]: no condition gives ?y its values, so it takes the values the rules that use this relation ask it with (as the GDL-II reference tools, written in Prolog, do); strict GDL refuses it: add a condition that gives ?y its values"#]],
            );
        }
        // Only ?x is given: ?y stays unknown.
        check(
            &format!("{SORT}(<= (sees player (sorted ?c ?d)) (does random (hide ?a)) (sort ?a ?c ?a ?d))"),
            expect!["g.kif:6:58: error[unsafe-variable]: a rule of sort has a head variable that no positive condition binds, so it takes its values from the rules that ask (as the GDL-II reference tools, written in Prolog, do); but this rule of sees asks sort with ?d still unknown. Add a condition that gives ?d its values before it, or to the rules of sort"],
        );
    }

    /// Such a game plays as the oracle reads it, on every engine: the pair given first or
    /// last, each rule of `sort` matched with the call.
    #[test]
    fn head_variables_bound_through_another_given_argument_play() {
        let text = format!(
            "{GAME}{SORT}(<= (sees player (up ?c ?d)) (does random (hide ?a)) (door ?b) (sort ?a ?b ?c ?d))\n\
             (<= (sees player (down ?c ?d)) (does random (hide ?a)) (door ?b) (sort ?c ?d ?a ?b))"
        );
        assert_eq!(first_percepts(&text)[0], ["(down 1 1)", "(up 1 1)", "(up 2 1)"]);
    }

    /// Replay checks percepts: a changed one, a missing `sees` field, are named.
    #[test]
    fn replay_checks_percepts() {
        let mut r = crate::shared::gdl2_reasoner("montyhall");
        let trace = crate::trace::record_playout(&mut r, &mut crate::rng::Rng::new(1), 50).unwrap();
        assert_eq!(crate::trace::replay(&mut r, &trace).unwrap(), Ok(()));
        let mut changed = trace.clone();
        changed.steps[0].sees.as_mut().unwrap()["candidate"] = vec!["(open_door 9)".into()];
        let m = crate::trace::replay(&mut r, &changed).unwrap().unwrap_err();
        assert_eq!((m.step, m.field.as_str()), (0, "sees[candidate]"), "{m}");
        let mut missing = trace;
        missing.steps[1].sees = None;
        let m = crate::trace::replay(&mut r, &missing).unwrap().unwrap_err();
        assert_eq!((m.step, m.field.as_str()), (1, "sees"), "{m}");
    }

    /// The games of `../shared/corpus-gdl2` the oracle cannot play or this tool refuses, with the
    /// error that says why: 7wonders has a variable as a function name (the oracle refuses it
    /// too); oneCardGame lets `random` play a move with a variable no condition binds (the
    /// oracle plays it as the non-ground move `(lead ?_)`, which no GDL player can send; its
    /// next state then holds `(control ?_)`, which matches every role).
    const REFUSED: &[(&str, &str)] = &[("7wonders", "syntax"), ("oneCardGame", "unsafe-variable")];

    /// Every GDL-II game loads (all engines' common first step: parse, validate, load the
    /// reasoner), except those of `REFUSED`, which fail with their error.
    #[test]
    fn corpus_gdl2_games_load() {
        for path in crate::shared::corpus_gdl2_games() {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let result = crate::load(&text, crate::reasoner::Limits::default());
            match REFUSED.iter().find(|(g, _)| *g == stem) {
                Some((_, code)) => {
                    let diags = result.err().unwrap_or_else(|| panic!("{stem} loads but is listed as refused"));
                    assert!(diags.iter().any(|d| d.is_error() && d.code == *code), "{stem}: {diags:?}");
                }
                None => {
                    if let Err(diags) = result {
                        panic!("{stem}: {:?}", diags.iter().filter(|d| d.is_error()).collect::<Vec<_>>());
                    }
                }
            }
        }
    }
}
