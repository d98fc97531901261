package org.mflb.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.mflb.sweep.CommandRunner;

/** The {@code mflb} command line as the sweeps see it ({@link CommandRunner}, a service). */
public final class MflbCommandLine implements CommandRunner {

    /** The commands that report progress of their own (the sweep reports the points'). */
    private static final Set<String> WITH_PROGRESS = new picocli.CommandLine(new Mflb()).getSubcommands().entrySet()
            .stream().filter(c -> c.getValue().getCommandSpec().findOption("--quiet") != null)
            .map(Map.Entry::getKey).collect(Collectors.toUnmodifiableSet());

    @Override
    public int execute(String[] args, PrintWriter out, PrintWriter err) {
        return Mflb.execute(args, out, err);
    }

    @Override
    public Set<String> commandsWithProgress() {
        return WITH_PROGRESS;
    }
}
