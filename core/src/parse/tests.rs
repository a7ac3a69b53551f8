//! Tests of both parsers: diagnostics at the right place, recovery, and parse → print → parse on every corpus game.

use super::*;
use crate::ast::{Literal, Term};
use crate::diagnostic::LineIndex;
use crate::print::print;
use expect_test::{expect, Expect};

fn check_diags(text: &str, expect: Expect) {
    let parsed = parse(text);
    let idx = LineIndex::new(text);
    let out: Vec<String> = parsed.diagnostics.iter().map(|d| idx.render("game.kif", d)).collect();
    expect.assert_eq(&out.join("\n"));
}

fn roundtrip(text: &str) {
    let first = parse(text);
    assert!(first.diagnostics.is_empty(), "{:?}", first.diagnostics);
    for syntax in [Syntax::Prefix, Syntax::Infix] {
        let printed = print(&first.description, syntax);
        let again = parse(&printed);
        assert!(again.diagnostics.is_empty(), "{syntax:?}: {:?}\n{printed}", again.diagnostics);
        assert_eq!(again.syntax, syntax, "{printed}");
        assert!(again.description == first.description, "{syntax:?} round trip changed the tree:\n{printed}");
        let reprinted = print(&again.description, syntax);
        assert_eq!(printed, reprinted);
    }
}

const TTT: &str = "; tic tac toe (part)\r\n(role xplayer)\t(role oplayer)\n(init (cell 1 1 b))\n\
(<= (legal ?W (mark ?X ?Y)) (TRUE (cell ?x ?y b)) (true (control ?w)))\n\
(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (not (true (cell ?m ?n o))) (distinct ?m 3))\n\
(<= terminal (or (line x) (and (not open) (f (g (h ?z))))))\n";

#[test]
fn prefix_is_case_insensitive_and_keeps_comments() {
    let p = parse(TTT);
    assert_eq!(p.syntax, Syntax::Prefix);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    expect![[r#"
        ; tic tac toe (part)
        (role xplayer)
        (role oplayer)
        (init (cell 1 1 b))

        (<= (legal ?w (mark ?x ?y))
            (true (cell ?x ?y b))
            (true (control ?w)))

        (<= (next (cell ?m ?n x))
            (does xplayer (mark ?m ?n))
            (not (true (cell ?m ?n o)))
            (distinct ?m 3))

        (<= terminal
            (or (line x) (and (not open) (f (g (h ?z))))))
    "#]]
    .assert_eq(&print(&p.description, Syntax::Prefix));
}

#[test]
fn infix_prints_and_parses() {
    let p = parse(TTT);
    expect![[r#"
        ; tic tac toe (part)
        role(xplayer)
        role(oplayer)
        init(cell(1, 1, b))

        legal(W, mark(X, Y)) :-
            true(cell(X, Y, b)) &
            true(control(W))

        next(cell(M, N, x)) :-
            does(xplayer, mark(M, N)) &
            ~true(cell(M, N, o)) &
            distinct(M, 3)

        terminal :-
            or(line(x), and(~open, f(g(h(Z)))))
    "#]]
    .assert_eq(&print(&p.description, Syntax::Infix));
}

#[test]
fn round_trips_both_syntaxes() {
    roundtrip(TTT);
    roundtrip("p(a, Y) :- q(Y) & ~r(Y)\nq(b).\nr(c)\n% comment\ns :- not(p(a,b)), distinct(X, Y), t(X), t(Y)\n");
}

#[test]
fn infix_stanford_form() {
    let p = parse("legal(R,mark(X,Y)) :- true(cell(X,Y,b)) & true(control(R))\nrole(x)");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.syntax, Syntax::Infix);
    expect![[r#"
        (<= (legal ?r (mark ?x ?y))
            (true (cell ?x ?y b))
            (true (control ?r)))

        (role x)
    "#]]
    .assert_eq(&print(&p.description, Syntax::Prefix));
}

#[test]
fn corpus_files_parse_and_round_trip() {
    let mut n = 0;
    for path in crate::shared::corpus_games() {
        let text = std::fs::read_to_string(&path).unwrap();
        let p = parse(&text);
        assert!(p.diagnostics.is_empty(), "{}: {:?}", path.display(), p.diagnostics);
        roundtrip(&text);
        n += 1;
    }
    assert!(n > 500, "only {n} corpus files");
}

#[test]
fn unbalanced_parentheses_are_reported_where_they_start() {
    check_diags(
        "(role x)\n(<= (legal x a)\n    (true (p a))\n(<= terminal (true done))\n(init done))\n",
        expect![[r#"
            game.kif:2:1: error[unbalanced]: this '(' is not closed before the next rule begins: 1 ')' missing
            game.kif:5:12: error[unbalanced]: this ')' has no matching '(' before it"#]],
    );
    check_diags(
        "(role x)\n(init (cell 1 1 b)\n",
        expect!["game.kif:2:1: error[unbalanced]: this '(' is never closed: 1 ')' missing at the end of the text"],
    );
}

#[test]
fn keyword_shapes_and_bad_heads() {
    check_diags(
        "(<= (p ?x) (not (q ?x) (r ?x)))\n(<= (p ?x) (distinct ?x))\n(?x a)\n(<= ?x (q a))\n()\n(<= (p (?f a)) (q a))\n(p ? )",
        expect![[r#"
            game.kif:1:12: error[syntax]: 'not' takes exactly one literal, here it has 2
            game.kif:2:12: error[syntax]: 'distinct' takes exactly two terms, here it has 1
            game.kif:3:2: error[syntax]: a relation name cannot be a variable
            game.kif:4:5: error[syntax]: a variable cannot stand alone as a sentence; write a relation like (p ?x)
            game.kif:5:1: error[syntax]: empty parentheses '()' are not a rule or a fact
            game.kif:6:9: error[syntax]: a function name cannot be a variable
            game.kif:7:4: error[syntax]: a variable needs a name after '?', like ?x"#]],
    );
}

#[test]
fn infix_errors_recover_at_next_line() {
    check_diags(
        "p(X) :- q(X) &\nr(a,) \nok(b)\ns(X :- t(X)\n",
        expect![[r#"
            game.kif:2:5: error[syntax]: expected a term, found ')'
            game.kif:4:5: error[syntax]: expected ',' or ')', found ':-'"#]],
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("(p {}{})", "(f ".repeat(5000), ")".repeat(5000));
    let p = parse(&deep);
    assert!(p.diagnostics.iter().any(|d| d.code == "too-deep"));
    let deep_infix = format!("p({}a{})", "f(".repeat(5000), ")".repeat(5001));
    let p = parse(&deep_infix);
    assert!(!p.diagnostics.is_empty());
}

/// Found by fuzzing: names infix cannot write plainly (`rol.e`, `_x`, `?1`) printed to
/// infix did not parse back. They are now written `'rol.e'` and `?1`.
#[test]
fn every_prefix_name_survives_infix() {
    roundtrip("(role rol.e) (p _x a:b |c! it's 'q) (<= (r ?1 ?a.b ?_) (p ?1 ?a.b ?_))\n");
    roundtrip("p('rol.e', ?x) :- q('it''s', ?x) & r(X)\n");
    // A bare constant fact prints as `(:)`: printed as `:` the text would be read as infix.
    roundtrip("':'\np(a)\n");
    // Nor in prefix: a bare '<=' outside a rule.
    check_diags("(role x) <= terminal\n", expect!["game.kif:1:10: error[syntax]: '<=' starts a rule and must follow an opening parenthesis: (<= head body...)"]);
    // Names the prefix syntax reads as its keywords cannot name a relation in infix.
    check_diags(
        "<=\np :- '<='\n",
        expect![[r#"
            game.kif:1:1: error[syntax]: '<=' is a keyword of GDL's rule language and cannot name a relation here
            game.kif:2:6: error[syntax]: '<=' is a keyword of GDL's rule language and cannot name a relation here"#]],
    );
    check_diags(
        "p('a b') :- q('')\nr('open\n",
        expect![[r#"
            game.kif:1:3: error[syntax]: a quoted name needs its closing ' before any space or bracket
            game.kif:1:15: error[syntax]: a quoted name cannot be empty
            game.kif:1:17: error[syntax]: expected a term, found ')'
            game.kif:2:3: error[syntax]: a quoted name needs its closing ' before any space or bracket
            game.kif:3:1: error[syntax]: expected a term, found the end of the text"#]],
    );
}

/// `(not x)` inside a term is a function term (Dresden games write clauses so); as a body
/// literal it stays a negation, in both syntaxes and after printing.
#[test]
fn not_inside_a_term_is_data() {
    let prefix = "(init (clause (not x1) x2))\n(<= (sat ?c) (true (clause ?c (not ?x))) (not (true (value ?x yes))))\n";
    let infix = "init(clause(not(x1), x2))\nsat(C) :- true(clause(C, not(X))) & ~true(value(X, yes))\n";
    for text in [prefix, infix] {
        roundtrip(text);
        let d = parse(text).description;
        let rules: Vec<_> = d.rules().collect();
        assert!(matches!(&rules[0].head.args()[0].args()[0], Term::Func(f, args, _) if f == "not" && args.len() == 1));
        let Literal::Atom(t) = &rules[1].body[0] else { panic!("{:?}", rules[1].body[0]) };
        assert!(matches!(&t.args()[0].args()[1], Term::Func(f, _, _) if f == "not"));
        assert!(matches!(&rules[1].body[1], Literal::Not(..)));
    }
    assert!(parse(prefix).description == parse(infix).description);
}

/// Found by fuzzing: the infix comment `%;` holds `;`, printed as `;;`, which read back as
/// an empty comment (every leading `;` was dropped). A comment now loses only the one
/// character that starts it, so the formatter gives every comment back as written.
#[test]
fn comments_keep_their_text() {
    roundtrip("o%;\n");
    roundtrip("p\n%;; b\n%%c\n;;d\n;%e\n");
    roundtrip(";;; header\n;\n(p)\n");
    let p = parse(";;; header\n(p) ; note\n");
    expect![[r#"
        ;;; header
        (p)
        ; note
    "#]]
    .assert_eq(&print(&p.description, Syntax::Prefix));
    expect![[r#"
        ;;; header
        p
        ;;x
        ;%y
    "#]]
    .assert_eq(&print(&parse(";;; header\np\n%;x\n%%y\n").description, Syntax::Infix));
}
