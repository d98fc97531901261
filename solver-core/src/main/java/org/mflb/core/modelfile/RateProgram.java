package org.mflb.core.modelfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import org.hipparchus.CalculusFieldElement;
import org.hipparchus.analysis.differentiation.Derivative;
import org.mflb.core.modelfile.Node.Const;
import org.mflb.core.modelfile.Node.Coordinate;
import org.mflb.core.modelfile.Node.Operation;

/**
 * The rates of a model file compiled to a flat stack program: one instruction array for all
 * transitions, {@code [start(l), start(l+1))} being rate {@code l}. Evaluation is a loop over
 * primitive arrays (no maps, no tree walking, no allocation on the plain-double path), on doubles
 * for the solvers and the simulator, and on any Hipparchus {@link CalculusFieldElement} for exact
 * derivatives. Each coordinate operand also records its slot in its rate's support, so a rate can
 * be differentiated in the few variables it depends on.
 *
 * <p>Instances are immutable and may be shared between threads (callers pass the stack).
 */
public final class RateProgram {

    private static final int CONST = 0;
    private static final int VAR = 1;
    private static final int ADD = 2;
    private static final int SUB = 3;
    private static final int MUL = 4;
    private static final int DIV = 5;
    private static final int NEG = 6;
    private static final int POW = 7;
    private static final int POWI = 8;
    private static final int POWC = 9;
    private static final int EXP = 10;
    private static final int LOG = 11;
    private static final int SQRT = 12;
    private static final int ABS = 13;
    private static final int MIN = 14;
    private static final int MAX = 15;

    private final int[] code;
    /** Operand: constant index, coordinate, or integer exponent. */
    private final int[] operand;
    /** For VAR: slot of the coordinate in the rate's support; for ABS/MIN/MAX: index into {@link #positions}. */
    private final int[] extra;
    private final double[] constants;
    private final int[] start;
    private final int[][] supports;
    private final SourcePosition[] positions;
    private final int stackDepth;

    private RateProgram(int[] code, int[] operand, int[] extra, double[] constants, int[] start, int[][] supports,
            SourcePosition[] positions, int stackDepth) {
        this.code = code;
        this.operand = operand;
        this.extra = extra;
        this.constants = constants;
        this.start = start;
        this.supports = supports;
        this.positions = positions;
        this.stackDepth = stackDepth;
    }

    /** Compiles expanded rate expressions, one per transition. */
    static RateProgram compile(List<Node> rates) {
        Builder b = new Builder();
        int[] start = new int[rates.size() + 1];
        int[][] supports = new int[rates.size()][];
        int depth = 1;
        for (int l = 0; l < rates.size(); l++) {
            TreeSet<Integer> support = new TreeSet<>();
            collect(rates.get(l), support);
            supports[l] = support.stream().mapToInt(Integer::intValue).toArray();
            start[l] = b.size;
            depth = Math.max(depth, b.emit(rates.get(l), supports[l]));
        }
        start[rates.size()] = b.size;
        return new RateProgram(Arrays.copyOf(b.code, b.size), Arrays.copyOf(b.operand, b.size),
                Arrays.copyOf(b.extra, b.size), b.constants.stream().mapToDouble(Double::doubleValue).toArray(),
                start, supports, b.positions.toArray(new SourcePosition[0]), depth);
    }

    private static void collect(Node node, TreeSet<Integer> support) {
        Node.postorder(node, o -> o.arguments().length, n -> {
            if (n instanceof Coordinate c) {
                support.add(c.index());
            }
        });
    }

    /** @return number of rates */
    public int size() {
        return supports.length;
    }

    /** @return the coordinates rate {@code l} reads, strictly increasing (internal array: not modified) */
    int[] support(int l) {
        return supports[l];
    }

    /** @return the stack length {@link #evaluate} needs */
    public int stackDepth() {
        return stackDepth;
    }

    /** @return number of instructions of rate {@code l} */
    public int length(int l) {
        return start[l + 1] - start[l];
    }

    /**
     * @param l rate index
     * @param x state
     * @param stack work array of length at least {@link #stackDepth()} (modified)
     * @return rate {@code l} at {@code x}
     */
    public double evaluate(int l, double[] x, double[] stack) {
        int top = -1;
        for (int pc = start[l], end = start[l + 1]; pc < end; pc++) {
            switch (code[pc]) {
                case CONST -> stack[++top] = constants[operand[pc]];
                case VAR -> stack[++top] = x[operand[pc]];
                case ADD -> { top--; stack[top] += stack[top + 1]; }
                case SUB -> { top--; stack[top] -= stack[top + 1]; }
                case MUL -> { top--; stack[top] *= stack[top + 1]; }
                case DIV -> { top--; stack[top] /= stack[top + 1]; }
                case NEG -> stack[top] = -stack[top];
                case POW -> { top--; stack[top] = Math.pow(stack[top], stack[top + 1]); }
                case POWI -> stack[top] = integerPower(stack[top], operand[pc]);
                case POWC -> stack[top] = Math.pow(stack[top], constants[operand[pc]]);
                case EXP -> stack[top] = Math.exp(stack[top]);
                case LOG -> stack[top] = Math.log(stack[top]);
                case SQRT -> stack[top] = Math.sqrt(stack[top]);
                case ABS -> stack[top] = Math.abs(stack[top]);
                case MIN -> { top--; stack[top] = Math.min(stack[top], stack[top + 1]); }
                case MAX -> { top--; stack[top] = Math.max(stack[top], stack[top + 1]); }
                default -> throw new IllegalStateException("opcode " + code[pc]);
            }
        }
        return stack[0];
    }

    private static double integerPower(double x, int n) {
        if (n < 0) {
            return 1.0 / integerPower(x, -n);
        }
        double result = 1.0;
        double base = x;
        while (n > 0) {
            if ((n & 1) != 0) {
                result *= base;
            }
            n >>= 1;
            if (n > 0) {
                base *= base;
            }
        }
        return result;
    }

    /**
     * Evaluates rate {@code l} on a field. With {@code local}, {@code values[a]} holds coordinate
     * {@code support(l)[a]}; otherwise {@code values} is the whole state. On a derivative type
     * ({@link Derivative}) {@code abs}, {@code min} and {@code max} at a kink are errors.
     *
     * @param <T> field element type
     * @param l rate index
     * @param values coordinates (the support's or the state's)
     * @param local whether {@code values} is indexed by support slot
     * @param stack work array of length at least {@link #stackDepth()} (modified)
     * @return the rate
     */
    public <T extends CalculusFieldElement<T>> T evaluate(int l, T[] values, boolean local, T[] stack) {
        T zero = values.length > 0 ? values[0].getField().getZero() : null;
        boolean derivative = values.length > 0 && values[0] instanceof Derivative<?>;
        int top = -1;
        for (int pc = start[l], end = start[l + 1]; pc < end; pc++) {
            switch (code[pc]) {
                case CONST -> stack[++top] = zero == null ? null : zero.newInstance(constants[operand[pc]]);
                case VAR -> stack[++top] = values[local ? extra[pc] : operand[pc]];
                case ADD -> { top--; stack[top] = stack[top].add(stack[top + 1]); }
                case SUB -> { top--; stack[top] = stack[top].subtract(stack[top + 1]); }
                case MUL -> { top--; stack[top] = stack[top].multiply(stack[top + 1]); }
                case DIV -> { top--; stack[top] = stack[top].divide(stack[top + 1]); }
                case NEG -> stack[top] = stack[top].negate();
                case POW -> { top--; stack[top] = stack[top].pow(stack[top + 1]); }
                case POWI -> stack[top] = stack[top].pow(operand[pc]);
                case POWC -> stack[top] = stack[top].pow(constants[operand[pc]]);
                case EXP -> stack[top] = stack[top].exp();
                case LOG -> stack[top] = stack[top].log();
                case SQRT -> stack[top] = stack[top].sqrt();
                case ABS -> {
                    if (derivative && stack[top].getReal() == 0.0) {
                        throw kink(pc, "abs", "its argument is 0");
                    }
                    stack[top] = stack[top].abs();
                }
                case MIN, MAX -> {
                    top--;
                    T a = stack[top];
                    T b = stack[top + 1];
                    if (derivative && a.getReal() == b.getReal()) {
                        throw kink(pc, code[pc] == MIN ? "min" : "max", "its arguments are equal (" + a.getReal() + ")");
                    }
                    boolean first = code[pc] == MIN ? a.getReal() < b.getReal() : a.getReal() > b.getReal();
                    stack[top] = first ? a : b;
                }
                default -> throw new IllegalStateException("opcode " + code[pc]);
            }
        }
        if (zero == null) {
            throw new IllegalStateException("a rate on an empty field state");
        }
        return stack[0];
    }

    private org.mflb.core.MflbException kink(int pc, String function, String why) {
        return positions[extra[pc]].error(function + " is not differentiable here: " + why
                + ", and the analysis needs its derivatives", "a state away from the kink, or a smooth rate");
    }

    /** Emits instructions in postfix order. */
    private static final class Builder {
        int[] code = new int[64];
        int[] operand = new int[64];
        int[] extra = new int[64];
        int size;
        final List<Double> constants = new ArrayList<>();
        final java.util.Map<Double, Integer> constantIndex = new java.util.HashMap<>();
        final List<SourcePosition> positions = new ArrayList<>();

        private void add(int op, int arg, int more) {
            if (size == code.length) {
                code = Arrays.copyOf(code, 2 * size);
                operand = Arrays.copyOf(operand, 2 * size);
                extra = Arrays.copyOf(extra, 2 * size);
            }
            code[size] = op;
            operand[size] = arg;
            extra[size] = more;
            size++;
        }

        private int constant(double value) {
            return constantIndex.computeIfAbsent(value, v -> {
                constants.add(v);
                return constants.size() - 1;
            });
        }

        /**
         * Emits {@code node} in postorder (by {@link Node#postorder}, without recursion).
         *
         * @return the stack depth its evaluation needs: the highest the stack gets
         */
        int emit(Node node, int[] support) {
            int[] height = {0, 0};
            Node.postorder(node, o -> o.op() == Node.Op.POW && o.arguments()[1] instanceof Const ? 1
                    : o.arguments().length, n -> {
                        height[0] += emitOne(n, support);
                        height[1] = Math.max(height[1], height[0]);
                    });
            return height[1];
        }

        /** Emits one node whose arguments are already emitted; @return how it changes the stack's height */
        private int emitOne(Node node, int[] support) {
            if (node instanceof Const c) {
                add(CONST, constant(c.value()), 0);
                return 1;
            }
            if (node instanceof Coordinate v) {
                add(VAR, v.index(), Arrays.binarySearch(support, v.index()));
                return 1;
            }
            Operation o = (Operation) node;
            switch (o.op()) {
                case POWI -> add(POWI, o.integer(), 0);
                case POW -> {
                    if (o.arguments()[1] instanceof Const c) {
                        add(POWC, constant(c.value()), 0);
                        return 0;
                    }
                    add(POW, 0, 0);
                    return -1;
                }
                case NEG -> add(NEG, 0, 0);
                case EXP -> add(EXP, 0, 0);
                case LOG -> add(LOG, 0, 0);
                case SQRT -> add(SQRT, 0, 0);
                case ABS -> add(ABS, 0, position(o.position()));
                case ADD -> add(ADD, 0, 0);
                case SUB -> add(SUB, 0, 0);
                case MUL -> add(MUL, 0, 0);
                case DIV -> add(DIV, 0, 0);
                case MIN -> add(MIN, 0, position(o.position()));
                case MAX -> add(MAX, 0, position(o.position()));
                default -> throw new IllegalStateException(o.op().toString());
            }
            return o.arguments().length == 1 ? 0 : -1;
        }

        private int position(SourcePosition p) {
            positions.add(p);
            return positions.size() - 1;
        }
    }
}
