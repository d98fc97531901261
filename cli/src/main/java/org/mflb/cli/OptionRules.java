package org.mflb.cli;

import java.util.HashSet;
import java.util.Set;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
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

    /**
     * Rejects a repeated key of a {@code KEY=VALUE} option such as {@code --param}: picocli keeps the
     * last value of a map key, so {@code --param a=1 --param a=2} would silently drop {@code a=1}.
     *
     * @param parsed the command's parse result
     * @param option the option's long name
     * @throws ParameterException naming the key given twice (a usage error)
     */
    static void requireDistinctKeys(ParseResult parsed, String option) {
        OptionSpec o = parsed.matchedOption(option);
        if (o == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (String v : o.originalStringValues()) {
            String key = v.contains("=") ? v.substring(0, v.indexOf('=')).strip() : v.strip();
            if (!seen.add(key)) {
                throw new ParameterException(parsed.commandSpec().commandLine(), option + " " + key
                        + " is given twice: give each NAME=VALUE once");
            }
        }
    }
}
