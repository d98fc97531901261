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
