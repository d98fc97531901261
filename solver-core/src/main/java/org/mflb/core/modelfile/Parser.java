package org.mflb.core.modelfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.mflb.core.modelfile.Lexer.Kind;
import org.mflb.core.modelfile.Lexer.Token;
import org.mflb.core.modelfile.Syntax.Binary;
import org.mflb.core.modelfile.Syntax.Call;
import org.mflb.core.modelfile.Syntax.Compare;
import org.mflb.core.modelfile.Syntax.Consts;
import org.mflb.core.modelfile.Syntax.Expr;
import org.mflb.core.modelfile.Syntax.ForItem;
import org.mflb.core.modelfile.Syntax.Init;
import org.mflb.core.modelfile.Syntax.Let;
import org.mflb.core.modelfile.Syntax.Logic;
import org.mflb.core.modelfile.Syntax.ModelName;
import org.mflb.core.modelfile.Syntax.Neg;
import org.mflb.core.modelfile.Syntax.Not;
import org.mflb.core.modelfile.Syntax.Num;
import org.mflb.core.modelfile.Syntax.Params;
import org.mflb.core.modelfile.Syntax.Ref;
import org.mflb.core.modelfile.Syntax.Statement;
import org.mflb.core.modelfile.Syntax.Sum;
import org.mflb.core.modelfile.Syntax.Target;
import org.mflb.core.modelfile.Syntax.Term;
import org.mflb.core.modelfile.Syntax.TransitionRule;
import org.mflb.core.modelfile.Syntax.Vars;

/**
 * Recursive-descent parser of one statement of a model file into {@link Syntax}. Precedence, from
 * loosest: {@code or}, {@code and}, {@code not}, comparisons (conditions only); {@code + -};
 * {@code * /}; unary minus; {@code ^} (right-associative, so {@code -x^2} is {@code −(x²)} and
 * {@code a^b^c} is {@code a^(b^c)}).
 *
 * <p>Chains of the same precedence ({@code a + b − c + ...}, {@code a and b and ...}) are read by
 * loops, so their length is limited only by memory; nesting (parentheses, function calls, indices,
 * sums, unary signs, the right operands of {@code ^}, {@code not}) recurses and is limited to
 * {@link #MAX_NESTING} levels, beyond which the error names the place, instead of the reader running
 * out of stack.
 */
final class Parser {

    /** Functions of expressions and their arities ({@code -1}: two or more). */
    static final Set<String> FUNCTIONS = Set.of("exp", "log", "sqrt", "abs", "min", "max", "pow");

    private static final Set<String> COMPARISONS = Set.of("==", "!=", "<", "<=", ">", ">=");

    /** Deepest nesting of an expression or condition (parentheses, calls, indices, signs, powers, not). */
    static final int MAX_NESTING = 256;

    private final List<Token> tokens;
    private int at;
    private int nesting;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** @return the statement the tokens (one line, ending with END) spell */
    static Statement statement(List<Token> tokens) {
        Parser p = new Parser(tokens);
        Statement s = p.statement();
        p.expectEnd();
        return s;
    }

    private Token peek() {
        return tokens.get(at);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(at);
        if (t.kind() != Kind.END) {
            at++;
        }
        return t;
    }

    private boolean accept(String symbol) {
        if (peek().is(symbol)) {
            at++;
            return true;
        }
        return false;
    }

    private Token expect(String symbol, String expected) {
        Token t = peek();
        if (!t.is(symbol)) {
            throw t.position().error("unexpected " + t.describe(), expected);
        }
        return next();
    }

    private Token expectName(String expected) {
        Token t = peek();
        if (t.kind() != Kind.NAME) {
            throw t.position().error("unexpected " + t.describe(), expected);
        }
        return next();
    }

    private void expectEnd() {
        Token t = peek();
        if (t.kind() != Kind.END) {
            throw t.position().error("unexpected " + t.describe(), "end of the statement");
        }
    }

    /**
     * Parses one more level of nesting, refusing past {@link #MAX_NESTING} at {@code where}.
     */
    private <T> T nested(Token where, java.util.function.Supplier<T> inner) {
        if (nesting >= MAX_NESTING) {
            throw where.position().error("expression nested deeper than " + MAX_NESTING + " levels",
                    "at most " + MAX_NESTING + " nested parentheses, function calls, indices, signs and powers");
        }
        nesting++;
        try {
            return inner.get();
        } finally {
            nesting--;
        }
    }

    private Statement statement() {
        Token first = peek();
        if (first.kind() == Kind.NAME && !peek(1).is("->") && !peek(1).is("+") && !peek(1).is("[")) {
            switch (first.text()) {
                case "model" -> {
                    next();
                    Token name = peek();
                    if (name.kind() != Kind.STRING) {
                        throw name.position().error("unexpected " + name.describe(), "a quoted model name");
                    }
                    next();
                    return new ModelName(first.position(), name.text());
                }
                case "param" -> {
                    next();
                    List<Target> names = new ArrayList<>();
                    List<Expr> values = new ArrayList<>();
                    do {
                        Token name = expectName("a parameter name");
                        names.add(new Target(name.position(), name.text(), null, null));
                        expect("=", "'=' and the parameter's value");
                        values.add(expression());
                    } while (accept(","));
                    return new Params(first.position(), names, values);
                }
                case "var" -> {
                    next();
                    List<Target> names = new ArrayList<>();
                    do {
                        names.add(target("a variable name", true));
                    } while (accept(","));
                    return new Vars(first.position(), names);
                }
                case "const" -> {
                    next();
                    List<Target> names = new ArrayList<>();
                    List<Expr> values = new ArrayList<>();
                    do {
                        names.add(target("a constant name", true));
                        expect("=", "'=' and the constant's value");
                        values.add(expression());
                    } while (accept(","));
                    return new Consts(first.position(), names, values);
                }
                case "init" -> {
                    next();
                    List<Target> names = new ArrayList<>();
                    List<Expr> values = new ArrayList<>();
                    do {
                        names.add(target("a variable name", true));
                        expect("=", "'=' and the initial value");
                        values.add(expression());
                    } while (accept(","));
                    return new Init(first.position(), names, values);
                }
                case "let" -> {
                    next();
                    Token name = expectName("a name for the let");
                    String index = null;
                    Target target;
                    if (accept("[")) {
                        Token i = expectName("an index name, as in let p[i in 1..n] = ...");
                        if (!peek().isName("in")) {
                            throw peek().position().error("unexpected " + peek().describe(), "'in' and a range a..b");
                        }
                        next();
                        Expr low = expression();
                        expect("..", "'..' and the upper bound");
                        Expr high = expression();
                        expect("]", "']'");
                        index = i.text();
                        target = new Target(name.position(), name.text(), low, high);
                    } else {
                        target = new Target(name.position(), name.text(), null, null);
                    }
                    expect("=", "'=' and the let's expression");
                    return new Let(first.position(), target, index, expression());
                }
                case "for" -> {
                    next();
                    return transition(first.position(), header());
                }
                default -> {
                    // a transition starting with a name
                }
            }
        }
        return transition(first.position(), List.of());
    }

    /** {@code NAME}, {@code NAME[e]} or (when {@code ranges}) {@code NAME[a..b]}. */
    private Target target(String expected, boolean ranges) {
        Token name = expectName(expected);
        if (!accept("[")) {
            return new Target(name.position(), name.text(), null, null);
        }
        Expr low = expression();
        Expr high = low;
        if (ranges && accept("..")) {
            high = expression();
        }
        expect("]", ranges ? "']' or '..'" : "']'");
        return new Target(name.position(), name.text(), low, high);
    }

    private List<ForItem> header() {
        List<ForItem> items = new ArrayList<>();
        do {
            Token t = peek();
            if (t.kind() == Kind.NAME && peek(1).isName("in")) {
                next();
                next();
                Expr low = expression();
                expect("..", "'..' and the upper bound of the loop");
                Expr high = expression();
                items.add(new ForItem(t.position(), t.text(), low, high, null));
            } else {
                items.add(new ForItem(t.position(), null, null, null, condition()));
            }
        } while (accept(","));
        expect(":", "':' after the loop header (or ',' and another loop or condition)");
        return items;
    }

    private TransitionRule transition(SourcePosition position, List<ForItem> header) {
        List<Term> left = side();
        if (header.isEmpty() && at == 1 && tokens.get(0).kind() == Kind.NAME && peek().kind() == Kind.NAME) {
            // "parm a = 1": most likely a misspelt statement, not a transition
            expect("->", "a statement (model, param, var, const, let, init, for) or a transition LEFT -> RIGHT ; RATE");
        }
        expect("->", "'->' between the left and right sides of a transition");
        List<Term> right = side();
        expect(";", "';' and the transition's rate");
        return new TransitionRule(position, header, left, right, expression());
    }

    private List<Term> side() {
        List<Term> terms = new ArrayList<>();
        if (peek().is("->") || peek().is(";")) {
            return terms;
        }
        do {
            Token t = peek();
            int multiplicity = 1;
            if (t.kind() == Kind.NUMBER) {
                if (t.number() != Math.rint(t.number()) || t.number() < 1 || t.text().contains(".")
                        || t.text().contains("e") || t.text().contains("E")) {
                    throw t.position().error("multiplicity " + t.text() + " is not a positive integer",
                            "a positive integer such as 2 in '2 X'");
                }
                multiplicity = (int) t.number();
                next();
            }
            Token name = expectName("a variable or constant name in a transition's side");
            Expr index = null;
            if (accept("[")) {
                index = expression();
                expect("]", "']'");
            }
            terms.add(new Term(t.position(), multiplicity, name.text(), index));
        } while (accept("+"));
        return terms;
    }

    // ---------------------------------------------------------------- conditions

    private Expr condition() {
        Expr left = conjunction();
        while (peek().isName("or")) {
            SourcePosition p = next().position();
            left = new Logic(p, false, left, conjunction());
        }
        return left;
    }

    private Expr conjunction() {
        Expr left = negation();
        while (peek().isName("and")) {
            SourcePosition p = next().position();
            left = new Logic(p, true, left, negation());
        }
        return left;
    }

    private Expr negation() {
        if (peek().isName("not")) {
            Token not = next();
            return new Not(not.position(), nested(not, this::negation));
        }
        if (peek().is("(")) {
            int mark = at;
            try {
                Token open = next();
                Expr inner = nested(open, this::condition);
                expect(")", "')'");
                if (!COMPARISONS.contains(peek().text()) || peek().kind() != Kind.SYMBOL) {
                    if (inner instanceof Compare || inner instanceof Logic || inner instanceof Not) {
                        return inner;
                    }
                }
            } catch (org.mflb.core.MflbException e) {
                // not a parenthesized condition: a comparison whose left side starts with '('
            }
            at = mark;
        }
        Expr left = expression();
        Token op = peek();
        if (op.kind() != Kind.SYMBOL || !COMPARISONS.contains(op.text())) {
            throw op.position().error("unexpected " + op.describe(), "a comparison (== != < <= > >=)");
        }
        next();
        return new Compare(op.position(), op.text(), left, expression());
    }

    // ---------------------------------------------------------------- expressions

    Expr expression() {
        Expr left = product();
        while (peek().is("+") || peek().is("-")) {
            Token op = next();
            left = new Binary(left.position(), op.text().charAt(0), left, product());
        }
        return left;
    }

    private Expr product() {
        Expr left = unary();
        while (peek().is("*") || peek().is("/")) {
            Token op = next();
            left = new Binary(left.position(), op.text().charAt(0), left, unary());
        }
        return left;
    }

    private Expr unary() {
        if (peek().is("-")) {
            Token minus = next();
            return new Neg(minus.position(), nested(minus, this::unary));
        }
        if (peek().is("+")) {
            return nested(next(), this::unary);
        }
        return power();
    }

    private Expr power() {
        Expr base = primary();
        if (peek().is("^")) {
            Token op = next();
            return new Binary(base.position(), '^', base, nested(op, this::exponent));
        }
        return base;
    }

    private Expr exponent() {
        if (peek().is("-")) {
            Token minus = next();
            return new Neg(minus.position(), nested(minus, this::exponent));
        }
        return power();
    }

    private Expr primary() {
        Token t = peek();
        if (t.kind() == Kind.NUMBER) {
            next();
            return new Num(t.position(), t.number());
        }
        if (t.is("(")) {
            next();
            Expr inner = nested(t, this::expression);
            expect(")", "')'");
            return inner;
        }
        if (t.kind() == Kind.NAME) {
            next();
            if (peek().is("(")) {
                return nested(next(), () -> call(t));
            }
            Expr index = null;
            if (peek().is("[")) {
                index = nested(next(), this::expression);
                expect("]", "']' closing the index");
            }
            return new Ref(t.position(), t.text(), index);
        }
        throw t.position().error("unexpected " + t.describe(), "a number, a name, '(' or a function");
    }

    /** A call {@code t(...)} or {@code sum(k in a..b, body)}, after its opening parenthesis. */
    private Expr call(Token t) {
        if (t.text().equals("sum")) {
            Token index = expectName("an index name, as in sum(k in 1..n, ...)");
            if (!peek().isName("in")) {
                throw peek().position().error("unexpected " + peek().describe(), "'in' and a range a..b");
            }
            next();
            Expr low = expression();
            expect("..", "'..' and the upper bound of the sum");
            Expr high = expression();
            expect(",", "',' and the summand");
            Expr body = expression();
            expect(")", "')' closing the sum");
            return new Sum(t.position(), index.text(), low, high, body);
        }
        if (!FUNCTIONS.contains(t.text())) {
            throw t.position().error("unknown function '" + t.text() + "'",
                    "one of exp, log, sqrt, abs, min, max, pow, sum");
        }
        List<Expr> args = new ArrayList<>();
        if (!peek().is(")")) {
            do {
                args.add(expression());
            } while (accept(","));
        }
        expect(")", "')' or ',' in the arguments of " + t.text());
        int arity = args.size();
        boolean ok = switch (t.text()) {
            case "min", "max" -> arity >= 2;
            case "pow" -> arity == 2;
            default -> arity == 1;
        };
        if (!ok) {
            throw t.position().error(t.text() + " takes " + switch (t.text()) {
                case "min", "max" -> "two or more arguments";
                case "pow" -> "two arguments";
                default -> "one argument";
            } + ", not " + arity, "the function's arguments");
        }
        return new Call(t.position(), t.text(), args);
    }
}
