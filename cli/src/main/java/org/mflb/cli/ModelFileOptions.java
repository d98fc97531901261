package org.mflb.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.mflb.core.MflbException;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.modelfile.ShippedModels;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --model FILE|NAME [--param NAME=VALUE ...]}: a population model file (docs/model-files.md)
 * instead of {@code --system/--policy}, shared by {@code fixed-point}, {@code transient},
 * {@code simulate}, {@code compare} and {@code diffusion}. {@code NAME} is one of the models
 * {@code mflb models} lists.
 */
public final class ModelFileOptions {

    @Option(names = "--model", paramLabel = "FILE|NAME",
            description = "A population model file (see docs/model-files.md) or the name of a shipped model"
                    + " (mflb models); replaces --system and --policy.")
    String model;

    @Option(names = "--param", paramLabel = "NAME=VALUE",
            description = "Overrides parameter NAME of the --model file (repeatable).")
    Map<String, String> params;

    /** @return whether {@code --model} was given (a {@code --param} without it is a usage error) */
    boolean given(CommandSpec spec) {
        if (model == null && params != null) {
            throw new ParameterException(spec.commandLine(), "--param needs --model FILE|NAME");
        }
        OptionRules.requireDistinctKeys(spec.commandLine().getParseResult(), "--param");
        return model != null;
    }

    /** @return the model file with the {@code --param} overrides applied */
    ModelFile load() {
        Map<String, Double> overrides = new LinkedHashMap<>();
        if (params != null) {
            for (Map.Entry<String, String> e : params.entrySet()) {
                double value;
                try {
                    value = Double.parseDouble(e.getValue().trim());
                } catch (NumberFormatException ex) {
                    throw MflbException.invalid("param " + e.getKey(), e.getValue(), "a number");
                }
                overrides.put(e.getKey(), value);
            }
        }
        return ShippedModels.load(model, overrides);
    }

    /**
     * Rejects every option given on the command line that a model-file run does not use.
     *
     * @param spec the command
     * @param allowed the long names it does use besides --model and --param
     */
    static void allowOnly(CommandSpec spec, String... allowed) {
        Set<String> ok = new TreeSet<>(Set.of(allowed));
        ok.add("--model");
        ok.add("--param");
        ok.add("--debug");
        ok.add("--force"); // WorkLimits: every command's size check
        OptionRules.allowOnly(spec, "--model", ok);
    }

    /**
     * Without {@code --model} the built-in model's options are required.
     *
     * @param spec the command
     * @param system the value of --system
     * @param policy the value of --policy
     */
    static void requireBuiltIn(CommandSpec spec, Object system, Object policy) {
        if (system == null || policy == null) {
            String missing = (system == null ? "'--system'" : "") + (system == null && policy == null ? ", " : "")
                    + (policy == null ? "'--policy'" : "");
            throw new ParameterException(spec.commandLine(), "Missing required option" + (system == null
                    && policy == null ? "s: " : ": ") + missing + " (or --model FILE|NAME)");
        }
    }
}
