package org.mflb.core.modelfile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.modelfile.Node.Const;
import org.mflb.core.modelfile.Node.Coordinate;
import org.mflb.core.modelfile.Node.Op;
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
 * Expands the statements of a model file, in file order, into coordinates, an initial state and
 * transitions (integer jump vectors with expanded rate expressions). Every name must be declared
 * before it is used; loops, conditions, indexed families, sums and {@code let}s are resolved here,
 * once, so that only constants, coordinates and arithmetic remain.
 */
final class Loader {

    /** Upper bound on the number of coordinates or transitions a file may expand to. */
    static final int MAX_SIZE = 1_000_000;

    /**
     * Deepest expansion of an expression: its own nesting (at most {@link Parser#MAX_NESTING}) plus that
     * of the lets it uses, and of theirs. Chains {@code a + b + ...} do not count (they are expanded by
     * a loop).
     */
    static final int MAX_EXPANSION_DEPTH = 1_000;

    private enum Kind { PARAMETER, VARIABLE, CONSTANT, LET }

    /** An indexed family {@code name[low..high]} of coordinates starting at {@code offset}, or a scalar. */
    private record Family(boolean scalar, int low, int high, int offset) {
        boolean contains(int i) {
            return i >= low && i <= high;
        }
    }

    private record LetDefinition(Let statement, int low, int high) { }

    /** One expanded transition. */
    record Expanded(int[] coordinates, int[] changes, Node rate, SourcePosition position, String label) { }

    private final String file;
    private final Map<String, Double> overrides;
    private final Map<String, Kind> kinds = new HashMap<>();
    private final Map<String, SourcePosition> declaredAt = new HashMap<>();
    final Map<String, Double> parameters = new LinkedHashMap<>();
    private final Map<String, Family> families = new HashMap<>();
    final List<String> coordinateNames = new ArrayList<>();
    private final Map<String, Double> scalarConstants = new HashMap<>();
    private final Map<String, Map<Integer, Double>> constantEntries = new HashMap<>();
    private final Map<String, LetDefinition> lets = new HashMap<>();
    private final Map<String, Node> letCache = new HashMap<>();
    /** Names whose definition is being evaluated: a reference to one of them is a circular definition. */
    private final java.util.LinkedHashSet<String> defining = new java.util.LinkedHashSet<>();
    /** Current depth of {@link #expand} calls (syntax nesting plus the lets it goes through). */
    private int expandDepth;
    private final Map<Integer, Double> initial = new TreeMap<>();
    final List<Expanded> transitions = new ArrayList<>();
    String modelName;
    private boolean sawModel;

    Loader(String file, Map<String, Double> overrides) {
        this.file = file;
        this.overrides = new LinkedHashMap<>(overrides);
    }

    void load(String source) {
        for (List<Lexer.Token> tokens : Lexer.statements(file, source)) {
            Statement s = Parser.statement(tokens);
            if (s instanceof ModelName m) {
                if (sawModel) {
                    throw m.position().error("a second model statement", "at most one model \"NAME\"");
                }
                sawModel = true;
                modelName = m.name();
            } else if (s instanceof Params p) {
                params(p);
            } else if (s instanceof Vars v) {
                vars(v);
            } else if (s instanceof Consts c) {
                consts(c);
            } else if (s instanceof Let l) {
                let(l);
            } else if (s instanceof Init i) {
                init(i);
            } else if (s instanceof TransitionRule t) {
                transition(t);
            }
        }
        if (!overrides.isEmpty()) {
            String unknown = overrides.keySet().iterator().next();
            throw new MflbException(ErrorKind.INVALID_PARAMETER, "param", file + ": param " + unknown + "="
                    + fmt(overrides.get(unknown)) + ": unknown parameter '" + unknown + "' (expected "
                    + (parameters.isEmpty() ? "no param: the file declares no parameters"
                            : "one of " + String.join(", ", parameters.keySet())) + ")");
        }
        if (coordinateNames.isEmpty()) {
            throw new SourcePosition(file, 1, 1).error("the model declares no variables", "a var statement");
        }
        if (transitions.isEmpty()) {
            throw new SourcePosition(file, 1, 1).error("the model has no transition with a non-zero jump",
                    "at least one transition LEFT -> RIGHT ; RATE");
        }
    }

    double[] initialState() {
        double[] x0 = new double[coordinateNames.size()];
        initial.forEach((k, v) -> x0[k] = v);
        return x0;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** Evaluates part of the definition of {@code name}, during which a reference to it is circular. */
    private <T> T defining(String name, java.util.function.Supplier<T> definition) {
        defining.add(name);
        try {
            return definition.get();
        } finally {
            defining.remove(name);
        }
    }

    private MflbException circular(Ref r, String name) {
        List<String> chain = new ArrayList<>(defining);
        int from = chain.indexOf(name);
        String through = from >= 0 && from < chain.size() - 1
                ? " (through " + String.join(", ", chain.subList(from + 1, chain.size())) + ")" : "";
        return r.position().error("'" + name + "' is defined in terms of itself" + through,
                "a definition that uses only names defined before it");
    }

    // ---------------------------------------------------------------- declarations

    private void declare(String name, Kind kind, SourcePosition at) {
        if (kinds.containsKey(name)) {
            throw at.error("duplicate name '" + name + "' (already declared at " + declaredAt.get(name) + ")",
                    "a new name");
        }
        if (Parser.FUNCTIONS.contains(name) || name.equals("sum") || name.equals("in") && kind != Kind.VARIABLE) {
            throw at.error("'" + name + "' is the name of a function or keyword", "another name");
        }
        kinds.put(name, kind);
        declaredAt.put(name, at);
    }

    private void params(Params p) {
        for (int k = 0; k < p.names().size(); k++) {
            Target t = p.names().get(k);
            declare(t.name(), Kind.PARAMETER, t.position());
            double value;
            if (overrides.containsKey(t.name())) {
                value = overrides.remove(t.name());
                if (!Double.isFinite(value)) {
                    throw new MflbException(ErrorKind.INVALID_PARAMETER, t.name(), file + ": param " + t.name()
                            + "=" + value + " is invalid: must be a finite number");
                }
            } else {
                Expr e = p.values().get(k);
                value = defining(t.name(), () -> constant(e, Map.of(), "the value of parameter " + t.name()));
            }
            parameters.put(t.name(), value);
        }
    }

    private void vars(Vars v) {
        for (Target t : v.names()) {
            declare(t.name(), Kind.VARIABLE, t.position());
            if (!t.indexed()) {
                families.put(t.name(), new Family(true, 0, 0, coordinateNames.size()));
                coordinateNames.add(t.name());
                continue;
            }
            if (t.low() == t.high()) {
                throw t.position().error("family " + t.name() + " needs a range", "var " + t.name() + "[a..b]");
            }
            int low = defining(t.name(), () -> integer(t.low(), Map.of(), "lower bound of " + t.name()));
            int high = defining(t.name(), () -> integer(t.high(), Map.of(), "upper bound of " + t.name()));
            families.put(t.name(), new Family(false, low, high, coordinateNames.size()));
            for (int i = low; i <= high; i++) {
                coordinateNames.add(t.name() + "[" + i + "]");
                if (coordinateNames.size() > MAX_SIZE) {
                    throw t.position().error("more than " + MAX_SIZE + " coordinates", "a smaller range");
                }
            }
        }
    }

    private void consts(Consts c) {
        for (int k = 0; k < c.names().size(); k++) {
            Target t = c.names().get(k);
            double value = constant(c.values().get(k), Map.of(), "the value of constant " + t.name());
            Kind existing = kinds.get(t.name());
            if (!t.indexed()) {
                declare(t.name(), Kind.CONSTANT, t.position());
                scalarConstants.put(t.name(), value);
                continue;
            }
            if (existing == null) {
                declare(t.name(), Kind.CONSTANT, t.position());
            } else if (!(existing == Kind.CONSTANT && constantEntries.containsKey(t.name())
                    || existing == Kind.VARIABLE && !families.get(t.name()).scalar())) {
                throw t.position().error("duplicate name '" + t.name() + "' (already declared at "
                        + declaredAt.get(t.name()) + ")", "a new name, or entries of a variable family outside its range");
            }
            int low = integer(t.low(), Map.of(), "index of " + t.name());
            int high = integer(t.high(), Map.of(), "index of " + t.name());
            Map<Integer, Double> entries = constantEntries.computeIfAbsent(t.name(), n -> new HashMap<>());
            Family family = families.get(t.name());
            for (int i = low; i <= high; i++) {
                if (family != null && family.contains(i)) {
                    throw t.position().error("duplicate name " + t.name() + "[" + i + "]: it is a variable",
                            "an index outside " + t.name() + "[" + family.low() + ".." + family.high() + "]");
                }
                if (entries.put(i, value) != null) {
                    throw t.position().error("duplicate constant " + t.name() + "[" + i + "]", "a new index");
                }
            }
        }
    }

    private void let(Let l) {
        Target t = l.name();
        declare(t.name(), Kind.LET, t.position());
        Syntax.forEachRef(l.body(), r -> {
            if (r.name().equals(t.name())) {
                throw circular(r, t.name());
            }
        });
        if (l.index() == null) {
            lets.put(t.name(), new LetDefinition(l, 0, 0));
            try {
                // Expanded now, so that lets built on lets are each expanded once, without recursion
                // through the chain; a body that uses a name declared later waits for its first use.
                letCache.put(t.name(), defining(t.name(), () -> expand(l.body(), Map.of())));
            } catch (MflbException later) {
                // expanded (and its error, if any, reported) where it is used
            }
            return;
        }
        if (kinds.containsKey(l.index())) {
            throw t.position().error("index '" + l.index() + "' hides the " + kinds.get(l.index()).toString()
                    .toLowerCase() + " declared at " + declaredAt.get(l.index()), "a new index name");
        }
        int low = defining(t.name(), () -> integer(t.low(), Map.of(), "lower bound of " + t.name()));
        int high = defining(t.name(), () -> integer(t.high(), Map.of(), "upper bound of " + t.name()));
        lets.put(t.name(), new LetDefinition(l, low, high));
    }

    private void init(Init s) {
        for (int k = 0; k < s.names().size(); k++) {
            Target t = s.names().get(k);
            double value = constant(s.values().get(k), Map.of(), "the initial value of " + t.name());
            Family family = families.get(t.name());
            if (family == null) {
                throw t.position().error(kinds.containsKey(t.name())
                        ? "'" + t.name() + "' is a " + kinds.get(t.name()).toString().toLowerCase() + ", not a variable"
                        : "undeclared variable '" + t.name() + "'", "a variable declared by var");
            }
            int low = 0;
            int high = 0;
            if (family.scalar()) {
                if (t.indexed()) {
                    throw t.position().error("variable " + t.name() + " is not a family", t.name() + " without an index");
                }
            } else {
                if (!t.indexed()) {
                    throw t.position().error("family " + t.name() + " needs an index or a range",
                            t.name() + "[i] or " + t.name() + "[a..b]");
                }
                low = integer(t.low(), Map.of(), "index of " + t.name());
                high = integer(t.high(), Map.of(), "index of " + t.name());
            }
            for (int i = low; i <= high; i++) {
                if (!family.scalar() && !family.contains(i)) {
                    throw t.position().error("index " + i + " is outside the family " + t.name() + "[" + family.low()
                            + ".." + family.high() + "]", "an index in " + family.low() + ".." + family.high());
                }
                int coordinate = family.offset() + (family.scalar() ? 0 : i - family.low());
                if (initial.put(coordinate, value) != null) {
                    throw t.position().error("duplicate initial value for " + coordinateNames.get(coordinate),
                            "each coordinate set once");
                }
            }
        }
    }

    // ---------------------------------------------------------------- transitions

    private void transition(TransitionRule rule) {
        loops(rule, 0, new LinkedHashMap<>());
    }

    private void loops(TransitionRule rule, int item, Map<String, Integer> indices) {
        if (item == rule.header().size()) {
            emit(rule, indices);
            return;
        }
        ForItem f = rule.header().get(item);
        if (f.index() == null) {
            if (condition(f.condition(), indices)) {
                loops(rule, item + 1, indices);
            }
            return;
        }
        if (kinds.containsKey(f.index()) || indices.containsKey(f.index())) {
            throw f.position().error("loop index '" + f.index() + "' is already declared"
                    + (declaredAt.containsKey(f.index()) ? " at " + declaredAt.get(f.index()) : " by this loop"),
                    "a new index name");
        }
        int low = integer(f.low(), indices, "lower bound of loop " + f.index());
        int high = integer(f.high(), indices, "upper bound of loop " + f.index());
        for (int i = low; i <= high; i++) {
            indices.put(f.index(), i);
            loops(rule, item + 1, indices);
        }
        indices.remove(f.index());
    }

    private void emit(TransitionRule rule, Map<String, Integer> indices) {
        TreeMap<Integer, Integer> jump = new TreeMap<>();
        StringBuilder label = new StringBuilder();
        side(rule.left(), indices, jump, -1, label);
        label.append(label.length() == 0 ? "-> " : " -> ");
        int mark = label.length();
        side(rule.right(), indices, jump, +1, label);
        if (label.length() == mark) {
            label.setLength(mark - 1);
        }
        jump.values().removeIf(v -> v == 0);
        Node rate = expand(rule.rate(), indices);
        if (jump.isEmpty()) {
            return; // a transition that changes nothing is dropped
        }
        if (transitions.size() >= MAX_SIZE) {
            throw rule.position().error("more than " + MAX_SIZE + " transitions", "smaller loops");
        }
        int[] coordinates = jump.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[] changes = jump.values().stream().mapToInt(Integer::intValue).toArray();
        transitions.add(new Expanded(coordinates, changes, rate, rule.position(), label.toString()));
    }

    private void side(List<Term> terms, Map<String, Integer> indices, Map<Integer, Integer> jump, int sign,
            StringBuilder label) {
        for (Term term : terms) {
            if (label.length() > 0 && label.charAt(label.length() - 1) != ' ') {
                label.append(" + ");
            }
            if (term.multiplicity() != 1) {
                label.append(term.multiplicity()).append(' ');
            }
            String name = term.name();
            Kind kind = kinds.get(name);
            Integer index = null;
            if (term.index() != null) {
                index = integer(term.index(), indices, "index of " + name);
            }
            label.append(name).append(index == null ? "" : "[" + index + "]");
            if (kind == Kind.VARIABLE) {
                Family family = families.get(name);
                if (family.scalar()) {
                    if (index != null) {
                        throw term.position().error("variable " + name + " is not a family", name + " without an index");
                    }
                    jump.merge(family.offset(), sign * term.multiplicity(), Integer::sum);
                    continue;
                }
                if (index == null) {
                    throw term.position().error("family " + name + " needs an index", name + "[i]");
                }
                if (family.contains(index)) {
                    jump.merge(family.offset() + index - family.low(), sign * term.multiplicity(), Integer::sum);
                    continue;
                }
                if (constantEntries.containsKey(name) && constantEntries.get(name).containsKey(index)) {
                    continue; // a constant contributes nothing to the jump
                }
                throw outside(term.position(), name, index, family);
            }
            if (kind == Kind.CONSTANT) {
                if (index == null ? scalarConstants.containsKey(name)
                        : constantEntries.containsKey(name) && constantEntries.get(name).containsKey(index)) {
                    continue;
                }
                throw term.position().error("constant " + name + (index == null ? " needs an index" : "[" + index
                        + "] is not defined"), "a defined constant or a variable");
            }
            throw term.position().error(kind == null ? "undeclared name '" + name + "'"
                    : "'" + name + "' is a " + kind.toString().toLowerCase(), "a variable or a constant");
        }
    }

    private MflbException outside(SourcePosition at, String name, int index, Family family) {
        return at.error("index " + index + " is outside the family " + name + "[" + family.low() + ".."
                + family.high() + "]", "an index in " + family.low() + ".." + family.high()
                        + (constantEntries.containsKey(name) ? " or a constant " + name + "[...]" : ""));
    }

    // ---------------------------------------------------------------- expressions

    private double constant(Expr e, Map<String, Integer> indices, String what) {
        Node n = expand(e, indices);
        if (!(n instanceof Const c)) {
            throw e.position().error(what + " depends on the state", "an expression of parameters and constants");
        }
        if (!Double.isFinite(c.value())) {
            throw e.position().error(what + " is " + c.value(), "a finite number");
        }
        return c.value();
    }

    private int integer(Expr e, Map<String, Integer> indices, String what) {
        double v = constant(e, indices, what);
        if (v != Math.rint(v)) {
            throw e.position().error(what + " is " + v + ", not an integer", "an integer expression of parameters");
        }
        if (Math.abs(v) > MAX_SIZE) {
            throw e.position().error(what + " is " + fmt(v), "an integer of magnitude at most " + MAX_SIZE);
        }
        return (int) v;
    }

    private boolean condition(Expr e, Map<String, Integer> indices) {
        if (e instanceof Compare c) {
            double a = constant(c.left(), indices, "a side of the comparison");
            double b = constant(c.right(), indices, "a side of the comparison");
            return switch (c.op()) {
                case "==" -> a == b;
                case "!=" -> a != b;
                case "<" -> a < b;
                case "<=" -> a <= b;
                case ">" -> a > b;
                default -> a >= b;
            };
        }
        if (e instanceof Logic l) {
            // ((a and b) and c) ...: walk the left spine by a loop, then evaluate left to right
            java.util.ArrayDeque<Logic> spine = new java.util.ArrayDeque<>();
            Expr first = l;
            while (first instanceof Logic inner) {
                spine.push(inner);
                first = inner.left();
            }
            boolean value = condition(first, indices);
            while (!spine.isEmpty()) {
                Logic op = spine.pop();
                value = op.and() ? value && condition(op.right(), indices) : value || condition(op.right(), indices);
            }
            return value;
        }
        if (e instanceof Not n) {
            return !condition(n.operand(), indices);
        }
        throw e.position().error("not a condition", "a comparison (== != < <= > >=) combined with and, or, not");
    }

    private Node expand(Expr e, Map<String, Integer> indices) {
        if (expandDepth >= MAX_EXPANSION_DEPTH) {
            throw e.position().error("expression nested deeper than " + MAX_EXPANSION_DEPTH
                    + " levels, counting the lets it uses", "shallower expressions or fewer lets built on lets");
        }
        expandDepth++;
        try {
            if (e instanceof Num n) {
                return new Const(n.value());
            }
            if (e instanceof Ref r) {
                return resolve(r, indices);
            }
            if (e instanceof Neg n) {
                return Node.of(Op.NEG, n.position(), expand(n.operand(), indices));
            }
            if (e instanceof Binary b) {
                if (b.op() != '^') {
                    return expandChain(b, indices);
                }
                return Node.of(Op.POW, b.position(), expand(b.left(), indices), expand(b.right(), indices));
            }
            if (e instanceof Call c) {
                List<Expr> args = c.arguments();
                switch (c.function()) {
                    case "min", "max" -> {
                        Node acc = expand(args.get(0), indices);
                        for (int k = 1; k < args.size(); k++) {
                            acc = Node.of(c.function().equals("min") ? Op.MIN : Op.MAX, c.position(), acc,
                                    expand(args.get(k), indices));
                        }
                        return acc;
                    }
                    case "pow" -> {
                        return Node.of(Op.POW, c.position(), expand(args.get(0), indices), expand(args.get(1), indices));
                    }
                    default -> {
                        Op op = switch (c.function()) {
                            case "exp" -> Op.EXP;
                            case "log" -> Op.LOG;
                            case "sqrt" -> Op.SQRT;
                            default -> Op.ABS;
                        };
                        return Node.of(op, c.position(), expand(args.get(0), indices));
                    }
                }
            }
            if (e instanceof Sum s) {
                if (kinds.containsKey(s.index()) || indices.containsKey(s.index())) {
                    throw s.position().error("sum index '" + s.index() + "' is already declared", "a new index name");
                }
                int low = integer(s.low(), indices, "lower bound of the sum");
                int high = integer(s.high(), indices, "upper bound of the sum");
                Map<String, Integer> inner = new HashMap<>(indices);
                Node acc = new Const(0.0);
                for (int i = low; i <= high; i++) {
                    inner.put(s.index(), i);
                    acc = Node.of(Op.ADD, s.position(), acc, expand(s.body(), inner));
                }
                return acc;
            }
            throw e.position().error("a condition where a number is needed", "an arithmetic expression");
        } finally {
            expandDepth--;
        }
    }

    /** A chain {@code ((a ∘ b) ∘ c) ∘ ...} of {@code + − * /}, expanded by a loop in the same order. */
    private Node expandChain(Binary chain, Map<String, Integer> indices) {
        java.util.ArrayDeque<Binary> spine = new java.util.ArrayDeque<>();
        Expr e = chain;
        while (e instanceof Binary b && b.op() != '^') {
            spine.push(b);
            e = b.left();
        }
        Node acc = expand(e, indices);
        while (!spine.isEmpty()) {
            Binary b = spine.pop();
            acc = Node.of(operation(b.op()), b.position(), acc, expand(b.right(), indices));
        }
        return acc;
    }

    private static Op operation(char op) {
        return switch (op) {
            case '+' -> Op.ADD;
            case '-' -> Op.SUB;
            case '*' -> Op.MUL;
            case '/' -> Op.DIV;
            default -> Op.POW;
        };
    }

    private Node resolve(Ref r, Map<String, Integer> indices) {
        String name = r.name();
        if (indices.containsKey(name)) {
            if (r.index() != null) {
                throw r.position().error("index '" + name + "' is not a family", name + " without an index");
            }
            return new Const(indices.get(name));
        }
        Kind kind = kinds.get(name);
        if (defining.contains(name)) {
            throw circular(r, name);
        }
        if (kind == null) {
            throw r.position().error("undeclared name '" + name + "'",
                    "a parameter, variable, constant, let or loop index declared before this line");
        }
        Integer index = r.index() == null ? null : integer(r.index(), indices, "index of " + name);
        switch (kind) {
            case PARAMETER -> {
                if (index != null) {
                    throw r.position().error("parameter " + name + " is not a family", name + " without an index");
                }
                return new Const(parameters.get(name));
            }
            case VARIABLE -> {
                Family family = families.get(name);
                if (family.scalar()) {
                    if (index != null) {
                        throw r.position().error("variable " + name + " is not a family", name + " without an index");
                    }
                    return new Coordinate(family.offset());
                }
                if (index == null) {
                    throw r.position().error("family " + name + " needs an index", name + "[i]");
                }
                if (family.contains(index)) {
                    return new Coordinate(family.offset() + index - family.low());
                }
                Map<Integer, Double> entries = constantEntries.get(name);
                if (entries != null && entries.containsKey(index)) {
                    return new Const(entries.get(index));
                }
                throw outside(r.position(), name, index, family);
            }
            case CONSTANT -> {
                if (index == null) {
                    if (scalarConstants.containsKey(name)) {
                        return new Const(scalarConstants.get(name));
                    }
                    throw r.position().error("constant family " + name + " needs an index", name + "[i]");
                }
                Map<Integer, Double> entries = constantEntries.get(name);
                if (entries == null || !entries.containsKey(index)) {
                    throw r.position().error("constant " + name + "[" + index + "] is not defined",
                            entries == null ? name + " without an index" : "one of the indices " + new java.util.TreeSet<>(entries.keySet()));
                }
                return new Const(entries.get(index));
            }
            default -> {
                LetDefinition let = lets.get(name);
                if (let.statement().index() == null) {
                    if (index != null) {
                        throw r.position().error("let " + name + " is not a family", name + " without an index");
                    }
                    Node cached = letCache.get(name);
                    if (cached == null) {
                        defining.add(name);
                        try {
                            cached = expand(let.statement().body(), Map.of());
                        } finally {
                            defining.remove(name);
                        }
                        letCache.put(name, cached);
                    }
                    return cached;
                }
                if (index == null) {
                    throw r.position().error("let family " + name + " needs an index", name + "[i]");
                }
                if (index < let.low() || index > let.high()) {
                    throw r.position().error("index " + index + " is outside the family " + name + "[" + let.low()
                            + ".." + let.high() + "]", "an index in " + let.low() + ".." + let.high());
                }
                String key = name + "[" + index + "]";
                Node cached = letCache.get(key);
                if (cached == null) {
                    defining.add(name);
                    try {
                        cached = expand(let.statement().body(), Map.of(let.statement().index(), index));
                    } finally {
                        defining.remove(name);
                    }
                    letCache.put(key, cached);
                }
                return cached;
            }
        }
    }
}
