package org.mflb.core.modelfile;

import java.util.List;

/**
 * The syntax tree of a model file, as written (before loops, families and {@code let}s are
 * expanded): expressions and the statements of the format.
 */
final class Syntax {

    private Syntax() {
    }

    /**
     * Calls {@code action} on every name an expression refers to (indices of indexed names and the
     * bounds and body of sums included), by an explicit stack: chains of any length are walked
     * without recursion.
     */
    static void forEachRef(Expr root, java.util.function.Consumer<Ref> action) {
        java.util.ArrayDeque<Expr> pending = new java.util.ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Expr e = pending.pop();
            if (e instanceof Ref r) {
                action.accept(r);
                if (r.index() != null) {
                    pending.push(r.index());
                }
            } else if (e instanceof Neg n) {
                pending.push(n.operand());
            } else if (e instanceof Binary b) {
                pending.push(b.right());
                pending.push(b.left());
            } else if (e instanceof Call c) {
                c.arguments().forEach(pending::push);
            } else if (e instanceof Sum s) {
                pending.push(s.body());
                pending.push(s.high());
                pending.push(s.low());
            } else if (e instanceof Compare c) {
                pending.push(c.right());
                pending.push(c.left());
            } else if (e instanceof Logic l) {
                pending.push(l.right());
                pending.push(l.left());
            } else if (e instanceof Not n) {
                pending.push(n.operand());
            }
        }
    }

    /** An expression or a condition. */
    sealed interface Expr permits Num, Ref, Neg, Binary, Call, Sum, Compare, Logic, Not {
        SourcePosition position();
    }

    /** A number literal. */
    record Num(SourcePosition position, double value) implements Expr { }

    /** A name, or an indexed name {@code x[i-1]} ({@code index} null for a plain name). */
    record Ref(SourcePosition position, String name, Expr index) implements Expr { }

    /** Unary minus. */
    record Neg(SourcePosition position, Expr operand) implements Expr { }

    /** {@code + - * / ^}. */
    record Binary(SourcePosition position, char op, Expr left, Expr right) implements Expr { }

    /** A function call ({@code exp log sqrt abs min max pow}). */
    record Call(SourcePosition position, String function, List<Expr> arguments) implements Expr { }

    /** {@code sum(k in lo..hi, body)}. */
    record Sum(SourcePosition position, String index, Expr low, Expr high, Expr body) implements Expr { }

    /** A comparison {@code == != < <= > >=}. */
    record Compare(SourcePosition position, String op, Expr left, Expr right) implements Expr { }

    /** {@code and}, {@code or}. */
    record Logic(SourcePosition position, boolean and, Expr left, Expr right) implements Expr { }

    /** {@code not}. */
    record Not(SourcePosition position, Expr operand) implements Expr { }

    /** A declared name with an optional range or index: {@code V}, {@code W[a..b]}, {@code W[i]}. */
    record Target(SourcePosition position, String name, Expr low, Expr high) {
        boolean indexed() {
            return low != null;
        }
    }

    /** One statement. */
    sealed interface Statement permits ModelName, Params, Vars, Consts, Let, Init, TransitionRule {
        SourcePosition position();
    }

    /** {@code model "NAME"}. */
    record ModelName(SourcePosition position, String name) implements Statement { }

    /** {@code param NAME = EXPR, ...}. */
    record Params(SourcePosition position, List<Target> names, List<Expr> values) implements Statement { }

    /** {@code var V, W[a..b], ...}. */
    record Vars(SourcePosition position, List<Target> names) implements Statement { }

    /** {@code const V = EXPR, W[i] = EXPR, ...}. */
    record Consts(SourcePosition position, List<Target> names, List<Expr> values) implements Statement { }

    /** {@code let NAME = EXPR} or {@code let NAME[i in a..b] = EXPR} ({@code index} null when scalar). */
    record Let(SourcePosition position, Target name, String index, Expr body) implements Statement { }

    /** {@code init V = EXPR, W[a..b] = EXPR, ...}. */
    record Init(SourcePosition position, List<Target> names, List<Expr> values) implements Statement { }

    /** One item of a {@code for} header: a loop {@code i in a..b} or a condition (then {@code index} is null). */
    record ForItem(SourcePosition position, String index, Expr low, Expr high, Expr condition) { }

    /** A term {@code [k] NAME} of a transition's side. */
    record Term(SourcePosition position, int multiplicity, String name, Expr index) { }

    /** {@code [for ...:] LEFT -> RIGHT ; RATE}. */
    record TransitionRule(SourcePosition position, List<ForItem> header, List<Term> left, List<Term> right,
            Expr rate) implements Statement { }
}
