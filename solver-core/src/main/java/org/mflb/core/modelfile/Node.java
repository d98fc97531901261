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

    /** @return the value at state {@code x}, by walking the tree (the reference the compiled form is tested against) */
    default double evaluate(double[] x) {
        if (this instanceof Const c) {
            return c.value();
        }
        if (this instanceof Coordinate v) {
            return x[v.index()];
        }
        Operation o = (Operation) this;
        double[] values = new double[o.arguments().length];
        for (int i = 0; i < values.length; i++) {
            values[i] = o.arguments()[i].evaluate(x);
        }
        return apply(o.op(), o.integer(), values);
    }
}
