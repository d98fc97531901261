package org.mflb.cli;

import java.util.Set;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** Rules on which options a command line may combine, checked after parsing (usage errors, exit 2). */
final class OptionRules {

    private OptionRules() {
    }

    /**
     * Rejects every option given on the command line that a mode of the command does not use.
     *
     * @param spec the command
     * @param mode the option that chose the mode, e.g. {@code --model}
     * @param allowed the long names of the options the mode uses, {@code mode} among them
     */
    static void allowOnly(CommandSpec spec, String mode, Set<String> allowed) {
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            if (!allowed.contains(o.longestName())) {
                throw new ParameterException(spec.commandLine(), o.longestName() + " cannot be used with " + mode
                        + " (options with " + mode + ": " + String.join(", ", allowed) + ")");
            }
        }
    }
}
