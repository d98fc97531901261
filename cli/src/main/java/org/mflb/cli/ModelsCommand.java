package org.mflb.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.MflbException;
import org.mflb.core.modelfile.ModelFile;
import org.mflb.core.modelfile.ShippedModels;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mflb models}: the example model files shipped with mflb, which {@code --model NAME} finds. */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = "Lists the population model files shipped with mflb (use them as --model NAME);"
                + " with a NAME, prints that model's file (a starting point for your own).")
public final class ModelsCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "Print this shipped model's file.")
    String name;

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "table",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (name != null) {
            ShippedModels.Entry entry = ShippedModels.list().stream().filter(e -> e.name().equals(name)).findFirst()
                    .orElseThrow(() -> MflbException.invalid("NAME", name, "one of "
                            + String.join(", ", ShippedModels.list().stream().map(ShippedModels.Entry::name).toList())));
            out.print(entry.source());
            return 0;
        }
        if (format == OutputFormat.csv) {
            throw MflbException.invalid("format", "csv", "json or table for models");
        }
        if (format == OutputFormat.json) {
            ObjectNode json = Printer.object();
            ArrayNode models = json.putArray("models");
            for (ShippedModels.Entry e : ShippedModels.list()) {
                ModelFile m = ModelFile.parse(e.name() + ".model", e.source(), java.util.Map.of());
                ObjectNode o = models.addObject();
                o.put("name", e.name());
                o.put("title", m.name());
                o.put("description", e.description());
                o.put("variables", m.dimension());
                o.put("transitions", m.transitionCount());
                ObjectNode params = o.putObject("parameters");
                m.parameters().forEach(params::put);
            }
            Printer.printJson(out, json);
            return 0;
        }
        Printer.Table table = new Printer.Table("name", "variables", "transitions", "parameters", "description");
        for (ShippedModels.Entry e : ShippedModels.list()) {
            ModelFile m = ModelFile.parse(e.name() + ".model", e.source(), java.util.Map.of());
            StringBuilder params = new StringBuilder();
            m.parameters().forEach((k, v) -> params.append(params.length() == 0 ? "" : " ").append(k).append('=')
                    .append(Printer.number(v)));
            table.row(e.name(), Integer.toString(m.dimension()), Integer.toString(m.transitionCount()),
                    params.toString(), e.description());
        }
        table.print(out);
        out.println();
        out.println("Use one as --model NAME (e.g. mflb fixed-point --model sir --refined 10,100);"
                + " 'mflb models NAME' prints its file.");
        return 0;
    }
}
