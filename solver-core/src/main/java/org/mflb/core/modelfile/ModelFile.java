package org.mflb.core.modelfile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.model.Transition;

/**
 * A population model read from a model file (format 1, {@code docs/model-files.md}): coordinate
 * names in {@code var} order, the effective parameter values, the initial state, and the
 * transitions, each an integer jump vector {@code ℓ} with a rate {@code β_ℓ(x)} compiled to a
 * {@link RateProgram}. Loops, conditions, indexed families, sums and {@code let}s have been
 * expanded once, at load time.
 *
 * <p>{@link #model()} is the same process as a {@link FileModel} ({@code PopulationModel}), so that
 * every solver of mflb applies to it. Instances are immutable.
 */
public final class ModelFile {

    /**
     * A rate in {@code [−1e-12, 0)} is rounding of an exact zero (e.g. {@code s − Σ j·x_j} when every
     * bike is docked) and counts as 0; a rate below it is an error.
     */
    public static final double ROUNDING_TOLERANCE = 1e-12;

    private final String file;
    private final String name;
    private final List<String> names;
    private final Map<String, Double> parameters;
    private final double[] initialState;
    private final int[][] jumpCoordinates;
    private final int[][] jumpChanges;
    private final List<Transition> transitions;
    private final String[] labels;
    private final SourcePosition[] positions;
    private final List<Node> expressions;
    private final RateProgram rates;
    private volatile FileModel model;

    private ModelFile(String file, Loader loader) {
        this.file = file;
        this.name = loader.modelName != null ? loader.modelName : defaultName(file);
        this.names = Collections.unmodifiableList(new ArrayList<>(loader.coordinateNames));
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(loader.parameters));
        this.initialState = loader.initialState();
        int count = loader.transitions.size();
        jumpCoordinates = new int[count][];
        jumpChanges = new int[count][];
        labels = new String[count];
        positions = new SourcePosition[count];
        List<Transition> jumps = new ArrayList<>(count);
        List<Node> nodes = new ArrayList<>(count);
        for (int l = 0; l < count; l++) {
            Loader.Expanded t = loader.transitions.get(l);
            jumpCoordinates[l] = t.coordinates();
            jumpChanges[l] = t.changes();
            double[] values = new double[t.changes().length];
            for (int k = 0; k < values.length; k++) {
                values[k] = t.changes()[k];
            }
            jumps.add(new Transition(t.coordinates(), values));
            labels[l] = t.label();
            positions[l] = t.position();
            nodes.add(t.rate());
        }
        this.transitions = Collections.unmodifiableList(jumps);
        this.expressions = nodes;
        this.rates = RateProgram.compile(nodes);
        checkRates(initialState, "the initial state");
    }

    private static String defaultName(String file) {
        String base = Path.of(file).getFileName().toString();
        int dot = base.lastIndexOf('.');
        return dot > 0 ? base.substring(0, dot) : base;
    }

    /**
     * Reads a model file.
     *
     * @param path the file
     * @param overrides parameter values that replace the file's ({@code --param NAME=VALUE})
     * @return the model
     * @throws MflbException {@link ErrorKind#INPUT} for a file that cannot be read or is malformed
     *         (the message names file, line and column), {@link ErrorKind#INVALID_PARAMETER} for an
     *         override of an unknown parameter
     */
    public static ModelFile read(Path path, Map<String, Double> overrides) {
        return parse(path.toString(), text(path), overrides);
    }

    /** Largest model file read, in bytes (a 200 000-term rate is about 1.4 MB). */
    public static final long MAX_FILE_BYTES = 64L << 20;

    /**
     * @return the contents of a model file as text
     * @throws MflbException {@link ErrorKind#INPUT}, one line, for a directory, a missing or unreadable
     *         file, one larger than {@link #MAX_FILE_BYTES}, or one that is not UTF-8 text (invalid
     *         UTF-8, or NUL characters as in binary files)
     */
    static String text(Path path) {
        String cannot = "cannot read model file " + path + ": ";
        if (Files.isDirectory(path)) {
            throw new MflbException(ErrorKind.INPUT, "model", cannot + "it is a directory (expected a model file)");
        }
        byte[] bytes;
        try {
            long size = Files.size(path);
            if (size > MAX_FILE_BYTES) {
                throw new MflbException(ErrorKind.INPUT, "model", cannot + "it has " + size + " bytes (expected a"
                        + " model file of at most " + MAX_FILE_BYTES + " bytes)");
            }
            bytes = Files.readAllBytes(path);
        } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
            throw new MflbException(ErrorKind.INPUT, "model", cannot
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file"
                            : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage()));
        }
        String notText = cannot + "it is not a UTF-8 text model file (";
        String source;
        try {
            source = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new MflbException(ErrorKind.INPUT, "model", notText + "it has bytes that are not UTF-8, as binary"
                    + " files do)");
        }
        int nul = source.indexOf('\0');
        if (nul >= 0) {
            throw new MflbException(ErrorKind.INPUT, "model", notText + "it contains NUL characters, as binary files do)");
        }
        return source.startsWith("\uFEFF") ? source.substring(1) : source; // a byte-order mark is not a statement
    }

    /**
     * Parses model-file text.
     *
     * @param file the name used in error messages
     * @param source the file's contents
     * @param overrides parameter values that replace the file's
     * @return the model
     */
    public static ModelFile parse(String file, String source, Map<String, Double> overrides) {
        Loader loader = new Loader(file, overrides);
        loader.load(source);
        return new ModelFile(file, loader);
    }

    /** @return the file's name as given */
    public String file() {
        return file;
    }

    /** @return the model's name ({@code model "NAME"}, else the file's base name) */
    public String name() {
        return name;
    }

    /** @return the coordinate names in {@code var} order, families expanded ({@code x[3]}) */
    public List<String> names() {
        return names;
    }

    /** @return the dimension {@code K} of the state */
    public int dimension() {
        return names.size();
    }

    /** @return the parameters with their effective values (overrides applied), in file order */
    public Map<String, Double> parameters() {
        return parameters;
    }

    /** @return the initial state ({@code init}; unlisted coordinates 0), a copy */
    public double[] initialState() {
        return initialState.clone();
    }

    /** @return the transitions' jump vectors, in file (expansion) order */
    public List<Transition> transitions() {
        return transitions;
    }

    /** @return number of transitions */
    public int transitionCount() {
        return labels.length;
    }

    /** @return the coordinates transition {@code l} changes, increasing (a copy) */
    public int[] jumpCoordinates(int l) {
        return jumpCoordinates[l].clone();
    }

    /** @return the integer changes of those coordinates (a copy) */
    public int[] jumpChanges(int l) {
        return jumpChanges[l].clone();
    }

    /** @return the coordinates rate {@code l} depends on, increasing (a copy) */
    public int[] rateSupport(int l) {
        return rates.support(l).clone();
    }

    /** @return transition {@code l} as written with its indices substituted, e.g. {@code out[1] + in[2] -> in[1] + out[2]} */
    public String label(int l) {
        return labels[l];
    }

    /** @return where transition {@code l} is written */
    public SourcePosition position(int l) {
        return positions[l];
    }

    /** @return the compiled rates */
    public RateProgram rates() {
        return rates;
    }

    /** @return the expanded expression of rate {@code l} (the tree the program was compiled from) */
    Node expression(int l) {
        return expressions.get(l);
    }

    /** @return the model as a population model for the solvers (one shared instance) */
    public FileModel model() {
        FileModel m = model;
        if (m == null) {
            m = new FileModel(this);
            model = m;
        }
        return m;
    }

    /**
     * The fixed point reached from the init state ({@link FixedPointSolver#solveConserving}), verified
     * before it is returned: its coordinates are finite and non-negative (they are fractions, or
     * densities, of the N objects: counts N·x never fall below 0), to rounding ({@code −1e-9·max(1, ‖x‖∞)});
     * the iteration did not run away ({@code ‖x‖∞ ≤ 1e9·max(1, ‖x(0)‖∞, S(0))}, {@code S} the largest
     * gross flow {@code Σ_ℓ |ℓ_i| β_ℓ} of a coordinate); its residual {@code ‖f(x)‖∞}, recomputed in
     * 40-digit arithmetic so that large opposite flows do not cancel to a false 0, is at most
     * {@code 1e-9 + 1e3·ε·S(x)} (ε the double precision); and every rate is valid there
     * ({@link #checkRates}).
     *
     * @return the fixed point, with {@link FixedPoint#residual()} the recomputed residual
     * @throws MflbException one line saying that no fixed point was reached from the init state, and why
     */
    public FixedPoint fixedPoint() {
        FixedPoint fp;
        try {
            fp = new FixedPointSolver().solveConserving(model(), initialState);
        } catch (MflbException e) {
            if (e.kind() != ErrorKind.NO_CONVERGENCE && e.kind() != ErrorKind.UNSTABLE) {
                throw e;
            }
            throw new MflbException(e.kind(), null, file + ": no fixed point reached from the init state: "
                    + e.getMessage());
        }
        double[] x = fp.state();
        double size = 0;
        boolean finite = true;
        int lowest = 0;
        for (int i = 0; i < x.length; i++) {
            finite &= Double.isFinite(x[i]);
            size = Math.max(size, Math.abs(x[i]));
            lowest = x[i] < x[lowest] ? i : lowest;
        }
        double residual = finite ? exactResidual(x) : Double.NaN;
        double startFlow = grossFlow(initialState);
        double start = Math.max(1.0, startFlow);
        for (double v : initialState) {
            start = Math.max(start, Math.abs(v));
        }
        String why = null;
        if (!finite) {
            why = "the iteration left the finite numbers";
        } else if (x[lowest] < -1e-9 * Math.max(1, size)) {
            why = "the iteration ended at " + names.get(lowest) + " = " + fmt(x[lowest])
                    + ", below 0 (coordinates are fractions of the N objects)";
        } else if (size > 1e9 * start) {
            why = "the iteration ran away to |x| = " + fmt(size) + ", from a start of scale " + fmt(start);
        } else {
            checkRates(x, "the fixed point");
            if (!(residual <= 1e-9 + 1e3 * Math.ulp(1.0) * grossFlow(x))) {
                why = "the drift is " + fmt(residual) + ", not 0, where the iteration ended";
            }
        }
        if (why != null) {
            throw new MflbException(ErrorKind.UNSTABLE, null, file + ": no fixed point reached from the init state: "
                    + why + " (the model may have no equilibrium: check the rates and the init state)");
        }
        return fp.withResidual(Math.max(residual, fp.residual()));
    }

    private static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%.6g", v);
    }

    /** @return {@code max_i Σ_ℓ |ℓ_i| |β_ℓ(x)|}, the largest gross flow through a coordinate */
    private double grossFlow(double[] x) {
        double[] stack = new double[rates.stackDepth()];
        double[] flow = new double[x.length];
        for (int l = 0; l < labels.length; l++) {
            double beta = Math.abs(rates.evaluate(l, x, stack));
            for (int k = 0; k < jumpCoordinates[l].length; k++) {
                flow[jumpCoordinates[l][k]] += Math.abs(jumpChanges[l][k]) * beta;
            }
        }
        double max = 0;
        for (double v : flow) {
            max = Math.max(max, v);
        }
        return max;
    }

    /**
     * @param x a state
     * @return {@code ‖f(x)‖∞} with the rates and the sum {@code Σ_ℓ ℓ β_ℓ(x)} computed in 40-digit
     *         decimal arithmetic (Hipparchus {@link org.hipparchus.dfp.Dfp}) from the exact values of
     *         {@code x}: the residual of the point itself, free of the cancellation of large flows
     */
    public double exactResidual(double[] x) {
        org.hipparchus.dfp.DfpField field = new org.hipparchus.dfp.DfpField(40);
        org.hipparchus.dfp.Dfp[] values = new org.hipparchus.dfp.Dfp[x.length];
        for (int i = 0; i < x.length; i++) {
            values[i] = field.newDfp(x[i]);
        }
        org.hipparchus.dfp.Dfp[] stack = new org.hipparchus.dfp.Dfp[rates.stackDepth()];
        org.hipparchus.dfp.Dfp[] f = new org.hipparchus.dfp.Dfp[x.length];
        java.util.Arrays.fill(f, field.getZero());
        for (int l = 0; l < labels.length; l++) {
            org.hipparchus.dfp.Dfp beta = rates.evaluate(l, values, false, stack);
            for (int k = 0; k < jumpCoordinates[l].length; k++) {
                int i = jumpCoordinates[l][k];
                f[i] = f[i].add(beta.multiply(jumpChanges[l][k]));
            }
        }
        double max = 0;
        for (org.hipparchus.dfp.Dfp v : f) {
            max = Math.max(max, Math.abs(v.toDouble()));
        }
        return max;
    }

    /**
     * Checks a state the analysis reached: its coordinates are non-negative to rounding (they are
     * fractions of the N objects; a coordinate below 0 means a rate that does not vanish when its
     * left side is empty), and its rates are valid ({@link #checkRates}).
     *
     * @param x a state of the model
     * @param where what the state is, for the message (e.g. "t = 3 of the trajectory")
     * @throws MflbException {@link ErrorKind#INPUT}, one line, otherwise
     */
    public void checkState(double[] x, String where) {
        double size = 1;
        for (double v : x) {
            size = Math.max(size, Math.abs(v));
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i] < -1e-9 * size) {
                throw new MflbException(ErrorKind.INPUT, "model", file + ": " + names.get(i) + " = " + fmt(x[i])
                        + " at " + where + ", below 0 (coordinates are fractions of the N objects: a transition"
                        + " that lowers " + names.get(i) + " must have a rate that is 0 when " + names.get(i) + " is 0)");
            }
        }
        checkRates(x, where);
    }

    /**
     * Checks that every rate is finite and non-negative (to {@link #ROUNDING_TOLERANCE}) at {@code x}.
     *
     * @param x a state of the model
     * @param where what the state is, for the message (e.g. "the fixed point")
     * @throws MflbException {@link ErrorKind#INPUT} naming the transition's line and column otherwise
     */
    public void checkRates(double[] x, String where) {
        double[] stack = new double[rates.stackDepth()];
        for (int l = 0; l < labels.length; l++) {
            double beta = rates.evaluate(l, x, stack);
            if (!(beta >= -ROUNDING_TOLERANCE) || Double.isInfinite(beta)) {
                throw rateError(l, beta, x, where);
            }
        }
    }

    /** @return the error for rate {@code l} having the invalid value {@code beta} at {@code x} */
    public MflbException rateError(int l, double beta, double[] x, String where) {
        StringBuilder state = new StringBuilder();
        int[] support = rates.support(l);
        for (int a = 0; a < support.length && a < 6; a++) {
            state.append(a == 0 ? "" : ", ").append(names.get(support[a])).append(" = ").append(x[support[a]]);
        }
        if (support.length > 6) {
            state.append(", ...");
        }
        return positions[l].error("the rate of " + labels[l] + " is " + (Double.isNaN(beta) ? "not a number"
                : Double.isInfinite(beta) ? "infinite" : "negative (" + beta + ")") + " at " + where
                + (support.length > 0 ? " (" + state + ")" : ""), "a finite, non-negative rate");
    }
}
