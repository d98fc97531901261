package org.mflb.core.modelfile;

/**
 * An expanded expression: what a rate (or a {@code let} that uses the state) becomes once loops,
 * indices, families, parameters and {@code let}s have been resolved. Only constants, coordinates
 * of the state and operations remain; operations on constants are folded when built.
 */
sealed interface Node permits Node.Const, Node.Coordinate, Node.Operation {

    /** A number. */
    record Const(double value) implements Node { }

    /** Coordinate {@code k} of the state. */
    record Coordinate(int index) implements Node { }

    /**
     * An operation; {@code position} is where it is written (named by the errors of functions that
     * are not differentiable at a kink), {@code integer} the exponent of {@link Op#POWI}.
     */
    record Operation(Op op, Node[] arguments, int integer, SourcePosition position) implements Node { }

    /** Operations of expanded expressions. */
    enum Op { ADD, SUB, MUL, DIV, NEG, POW, POWI, EXP, LOG, SQRT, ABS, MIN, MAX }

    /** @return {@code op(arguments)}, folded to a constant when every argument is one */
    static Node of(Op op, SourcePosition position, Node... arguments) {
        boolean constant = true;
        for (Node a : arguments) {
            constant &= a instanceof Const;
        }
        if (op == Op.POW && arguments[1] instanceof Const c && !(arguments[0] instanceof Const)) {
            double e = c.value();
            if (e == Math.rint(e) && Math.abs(e) <= 64) {
                return e == 1 ? arguments[0] : new Operation(Op.POWI, new Node[] {arguments[0]}, (int) e, position);
            }
        }
        Operation operation = new Operation(op, arguments, 0, position);
        if (constant) {
            double[] values = new double[arguments.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = ((Const) arguments[i]).value();
            }
            return new Const(apply(op, 0, values));
        }
        // Neutral elements keep expanded sums and products of families short.
        if (op == Op.ADD && arguments[0] instanceof Const c && c.value() == 0) {
            return arguments[1];
        }
        if ((op == Op.ADD || op == Op.SUB) && arguments[1] instanceof Const c && c.value() == 0) {
            return arguments[0];
        }
        if (op == Op.MUL && arguments[0] instanceof Const c && c.value() == 1) {
            return arguments[1];
        }
        if ((op == Op.MUL || op == Op.DIV) && arguments[1] instanceof Const c && c.value() == 1) {
            return arguments[0];
        }
        return operation;
    }

    /** Plain-double semantics of every operation (the one definition the evaluators agree with). */
    static double apply(Op op, int integer, double[] a) {
        return switch (op) {
            case ADD -> a[0] + a[1];
            case SUB -> a[0] - a[1];
            case MUL -> a[0] * a[1];
            case DIV -> a[0] / a[1];
            case NEG -> -a[0];
            case POW -> Math.pow(a[0], a[1]);
            case POWI -> Math.pow(a[0], integer);
            case EXP -> Math.exp(a[0]);
            case LOG -> Math.log(a[0]);
            case SQRT -> Math.sqrt(a[0]);
            case ABS -> Math.abs(a[0]);
            case MIN -> Math.min(a[0], a[1]);
            case MAX -> Math.max(a[0], a[1]);
        };
    }

    /**
     * Visits the nodes of {@code root} in postorder (the arguments of an operation before it, left to
     * right), by an explicit stack: expanded sums of a million terms are left-deep trees as deep.
     *
     * @param root the tree
     * @param arguments how many of an operation's arguments to visit (the first ones)
     * @param visit called on every visited node
     */
    static void postorder(Node root, java.util.function.ToIntFunction<Operation> arguments,
            java.util.function.Consumer<Node> visit) {
        java.util.ArrayDeque<Node> nodes = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<int[]> next = new java.util.ArrayDeque<>();
        nodes.push(root);
        next.push(new int[1]);
        while (!nodes.isEmpty()) {
            Node node = nodes.peek();
            int[] child = next.peek();
            if (node instanceof Operation o && child[0] < arguments.applyAsInt(o)) {
                nodes.push(o.arguments()[child[0]++]);
                next.push(new int[1]);
            } else {
                nodes.pop();
                next.pop();
                visit.accept(node);
            }
        }
    }

    /** @return the value at state {@code x}, by walking the tree (the reference the compiled form is tested against) */
    default double evaluate(double[] x) {
        java.util.ArrayDeque<Double> values = new java.util.ArrayDeque<>();
        postorder(this, o -> o.arguments().length, node -> {
            if (node instanceof Const c) {
                values.push(c.value());
            } else if (node instanceof Coordinate v) {
                values.push(x[v.index()]);
            } else {
                Operation o = (Operation) node;
                double[] a = new double[o.arguments().length];
                for (int i = a.length - 1; i >= 0; i--) {
                    a[i] = values.pop();
                }
                values.push(apply(o.op(), o.integer(), a));
            }
        });
        return values.pop();
    }
}
