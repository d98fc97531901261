package org.mflb.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.simulation.engine.ReplicationStreams;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The grid of a sweep: a command line of one of {@link #COMMANDS} in which any numeric option, and
 * the value of any {@code --param NAME=VALUE}, may be a list {@code a,b,c} or an inclusive range
 * {@code from:to:step}, and any option of names ({@code --policy sqd,jsq}) or of service laws
 * ({@code --service exp,lognormal:scv=4}) a list ({@link SweepValues}). The grid is the Cartesian product of the swept
 * options' values, in command-line order with the first swept option varying slowest (nested
 * loops); point {@code p} is the {@code p}-th of that order, from 0.
 *
 * <p>What an option's values are is read from the command's own picocli model (its type: a number
 * or an enum; or a converter that is {@link Sweepable}), so an option that a command gains is
 * sweepable without a change here. Every point's command line ends with
 * {@code --format json}, {@code --threads 1} (when the command has threads: the sweep runs points in
 * parallel, and no result depends on the thread count) and, when the command has a {@code --seed},
 * {@code --seed ReplicationStreams.pointSeed(S, p)} where {@code S} is the seed given (or the
 * command's default): replication {@code r} of point {@code p} then uses the stream derived from
 * {@code (S, p, r)}.
 */
public final class SweepGrid {

    /** The commands a sweep runs. */
    public static final Set<String> COMMANDS = Set.of("fixed-point", "transient", "simulate", "pde", "compare");

    /** Largest number of points of a grid. */
    public static final int MAX_POINTS = 100_000;

    private static final Set<Class<?>> INTEGERS = Set.of(int.class, Integer.class, long.class, Long.class,
            short.class, Short.class);
    private static final Set<Class<?>> REALS = Set.of(double.class, Double.class, float.class, Float.class);

    /**
     * One swept option: its column name, the index of the token that holds its value, the text
     * before the value in that token ({@code --lambda=} or {@code s=}), and its values.
     */
    private record Axis(String column, int token, String prefix, List<String> values, boolean numbers) {
    }

    private final String command;
    private final List<String> options;
    private final List<Axis> axes;
    private final OptionSpec seedOption;
    private final OptionSpec threadsOption;
    private final OptionSpec formatOption;
    private final int points;

    private SweepGrid(String command, List<String> options, List<Axis> axes, CommandSpec spec) {
        this.command = command;
        this.options = List.copyOf(options);
        this.axes = List.copyOf(axes);
        this.seedOption = spec.findOption("--seed");
        this.threadsOption = spec.findOption("--threads");
        this.formatOption = spec.findOption("--format");
        long count = 1;
        for (Axis a : axes) {
            count *= a.values().size();
            if (count > MAX_POINTS) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, "sweep", "the grid has more than " + MAX_POINTS
                        + " points (" + String.join(" x ", axes.stream().map(x -> x.values().size() + " " + x.column())
                                .toList()) + "): sweep fewer values");
            }
        }
        this.points = (int) count;
    }

    /**
     * @param command the command's name, one of {@link #COMMANDS}
     * @param options the command's options, swept values included
     * @param spec the command's picocli model (option names and types)
     * @return the grid
     * @throws MflbException one line for a bad list or range, or a command that cannot be swept
     */
    public static SweepGrid of(String command, List<String> options, CommandSpec spec) {
        if (!COMMANDS.contains(command)) {
            throw MflbException.invalid("COMMAND", command, "one of " + String.join(", ", COMMANDS.stream().sorted().toList()));
        }
        List<Axis> axes = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            String token = options.get(i);
            if (!token.startsWith("-")) {
                continue;
            }
            int eq = token.indexOf('=');
            boolean inline = token.startsWith("--") && eq > 0;
            String name = inline ? token.substring(0, eq) : token;
            OptionSpec option = spec.findOption(name);
            if (option == null || option.arity().max() == 0) {
                continue; // unknown options are the command's to refuse; flags take no value
            }
            int valueToken = inline ? i : i + 1;
            if (valueToken >= options.size()) {
                break;
            }
            String prefix = inline ? name + "=" : "";
            String value = inline ? token.substring(eq + 1) : options.get(valueToken);
            if (isParameterOption(option)) {
                int k = value.indexOf('=');
                String spec0 = k > 0 ? value.substring(k + 1) : "";
                if (k > 0 && SweepValues.isSweep(spec0)) {
                    String param = value.substring(0, k).strip();
                    axes.add(new Axis(column(axes, param), valueToken, prefix + value.substring(0, k + 1),
                            SweepValues.parse(name + " " + param, spec0, false), true));
                }
            } else {
                SweepValues.Kind kind = kind(option);
                if (kind != null && SweepValues.isSweep(kind, value)) {
                    String column = option.longestName().replaceFirst("^-+", "");
                    axes.add(new Axis(column(axes, column), valueToken, prefix, SweepValues.parse(name, value, kind),
                            kind == SweepValues.Kind.INTEGER || kind == SweepValues.Kind.REAL));
                }
            }
            i = valueToken;
        }
        return new SweepGrid(command, options, axes, spec);
    }

    /**
     * @return what the values of a single-valued option are: its {@link Sweepable} converter's kind,
     *         else numbers or the names of an enum by its type; null when it cannot be swept
     */
    private static SweepValues.Kind kind(OptionSpec option) {
        if (option.isMultiValue()) {
            return null;
        }
        for (ITypeConverter<?> converter : option.converters()) {
            if (converter instanceof Sweepable s) {
                return s.sweepKind();
            }
        }
        if (INTEGERS.contains(option.type())) {
            return SweepValues.Kind.INTEGER;
        }
        if (REALS.contains(option.type())) {
            return SweepValues.Kind.REAL;
        }
        return option.type().isEnum() ? SweepValues.Kind.NAME : null;
    }

    /** {@code --param NAME=VALUE} of model files, or any option of {@code KEY=VALUE} pairs. */
    private static boolean isParameterOption(OptionSpec option) {
        return option.longestName().equals("--param") || Map.class.isAssignableFrom(option.type());
    }

    private static String column(List<Axis> axes, String name) {
        for (Axis a : axes) {
            if (a.column().equals(name)) {
                throw new MflbException(ErrorKind.INVALID_PARAMETER, name, name + " is swept twice: give its values once");
            }
        }
        return name;
    }

    /** @return the command */
    public String command() {
        return command;
    }

    /** @return the swept parameters' column names, in command-line order */
    public List<String> columns() {
        return axes.stream().map(Axis::column).toList();
    }

    /** @return the swept parameters that take numbers */
    public List<String> numberColumns() {
        return axes.stream().filter(Axis::numbers).map(Axis::column).toList();
    }

    /** @return the number of points */
    public int size() {
        return points;
    }

    /** @return point {@code p}: its swept values and its complete command line */
    public SweepPoint point(int p) {
        if (p < 0 || p >= points) {
            throw new IndexOutOfBoundsException("point " + p + " of " + points);
        }
        List<String> args = new ArrayList<>(options);
        Map<String, String> params = new LinkedHashMap<>();
        int rest = p;
        int[] index = new int[axes.size()];
        for (int a = axes.size() - 1; a >= 0; a--) {
            int n = axes.get(a).values().size();
            index[a] = rest % n;
            rest /= n;
        }
        for (int a = 0; a < axes.size(); a++) {
            Axis axis = axes.get(a);
            String v = axis.values().get(index[a]);
            params.put(axis.column(), v);
            args.set(axis.token(), axis.prefix() + v);
        }
        if (seedOption != null) {
            setSeed(args, p);
        }
        if (threadsOption != null) {
            args.add(threadsOption.longestName());
            args.add("1");
        }
        if (formatOption != null) {
            args.add(formatOption.longestName());
            args.add("json");
        }
        args.add(0, command);
        return new SweepPoint(p, params, args);
    }

    /** @return every point, in order */
    public List<SweepPoint> points() {
        List<SweepPoint> all = new ArrayList<>(points);
        for (int p = 0; p < points; p++) {
            all.add(point(p));
        }
        return all;
    }

    /** Replaces the given seed (or the command's default) by the point's seed derived from it. */
    private void setSeed(List<String> args, int p) {
        String name = seedOption.longestName();
        int valueToken = -1;
        String prefix = "";
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i);
            if (seedOption.names().length > 0 && List.of(seedOption.names()).contains(t) && i + 1 < args.size()) {
                valueToken = i + 1;
                prefix = "";
            } else if (t.startsWith(name + "=")) {
                valueToken = i;
                prefix = name + "=";
            }
        }
        String given = valueToken < 0 ? seedOption.defaultValue() : args.get(valueToken).substring(prefix.length());
        long seed;
        try {
            seed = Long.parseLong(given.strip());
        } catch (NumberFormatException | NullPointerException e) {
            throw MflbException.invalid("seed", given, "an integer");
        }
        String derived = Long.toString(ReplicationStreams.pointSeed(seed, p));
        if (valueToken < 0) {
            args.add(name);
            args.add(derived);
        } else {
            args.set(valueToken, prefix + derived);
        }
    }
}
