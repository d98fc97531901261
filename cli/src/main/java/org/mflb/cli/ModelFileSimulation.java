package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.mflb.core.modelfile.ModelFile;
import org.mflb.simulation.Estimate;
import org.mflb.simulation.VectorEstimate;
import org.mflb.simulation.engine.ReplicationStreams;
import org.mflb.simulation.population.PopulationSimulation;

/**
 * {@code simulate --model FILE}: the N-object chain of a model file ({@link PopulationSimulation}).
 * JSON keys (a contract): {@code state} {{@code mean}, {@code ci95Low}, {@code ci95High}} (the time
 * average over {@code [warmup, t-end]}), {@code events}, {@code eventsPerSecond}; with --dt,
 * {@code t} and {@code stateTrajectory} {{@code mean}, {@code ci95Low}, {@code ci95High}}.
 */
final class ModelFileSimulation {

    private ModelFileSimulation() {
    }

    static ObjectNode vector(VectorEstimate v) {
        ObjectNode node = Printer.object();
        node.set("mean", Printer.array(v.mean()));
        node.set("ci95Low", Printer.array(v.ci95Low()));
        node.set("ci95High", Printer.array(v.ci95High()));
        return node;
    }

    static int simulate(ModelFile file, PopulationSimulation.Settings settings, OutputFormat format, PrintWriter out) {
        PopulationSimulation.Result r = PopulationSimulation.run(file, settings);
        boolean grid = r.times().length > 0;
        String method = settings.replications() > 1 ? "replications" : "batch-means";
        switch (format) {
            case json -> {
                ObjectNode json = Printer.object();
                ModelFileAnalysis.header(json, file);
                json.put("n", settings.objects());
                json.put("tEnd", settings.tEnd());
                json.put("warmup", settings.warmup());
                json.put("replications", settings.replications());
                json.put("seed", settings.seed());
                json.put("generator", ReplicationStreams.GENERATOR);
                json.put("confidenceMethod", method);
                json.set("state", vector(r.timeAverage()));
                if (grid) {
                    json.set("t", Printer.array(r.times()));
                    int g = r.times().length;
                    double[][] mean = new double[g][];
                    double[][] lo = new double[g][];
                    double[][] hi = new double[g][];
                    for (int k = 0; k < g; k++) {
                        mean[k] = r.trajectory()[k].mean();
                        lo[k] = r.trajectory()[k].ci95Low();
                        hi[k] = r.trajectory()[k].ci95High();
                    }
                    ObjectNode t = Printer.object();
                    t.set("mean", Printer.matrix(mean));
                    t.set("ci95Low", Printer.matrix(lo));
                    t.set("ci95High", Printer.matrix(hi));
                    json.set("stateTrajectory", t);
                }
                json.put("events", r.events());
                Printer.put(json, "eventsPerSecond", r.eventsPerSecond());
                Printer.printJson(out, json);
            }
            case csv -> {
                if (grid) {
                    out.println("t,name,mean,ci95Low,ci95High");
                    for (int k = 0; k < r.times().length; k++) {
                        for (int i = 0; i < file.dimension(); i++) {
                            Estimate e = r.trajectory()[k].get(i);
                            out.println(Printer.csv(r.times()[k]) + "," + file.names().get(i) + "," + Printer.csv(e.mean())
                                    + "," + Printer.csv(e.ci95Low()) + "," + Printer.csv(e.ci95High()));
                        }
                    }
                } else {
                    out.println("name,mean,ci95Low,ci95High");
                    for (int i = 0; i < file.dimension(); i++) {
                        Estimate e = r.timeAverage().get(i);
                        out.println(file.names().get(i) + "," + Printer.csv(e.mean()) + "," + Printer.csv(e.ci95Low())
                                + "," + Printer.csv(e.ci95High()));
                    }
                }
            }
            default -> {
                out.println("Model " + file.name() + " (" + file.file() + "), N = " + settings.objects() + " objects: "
                        + r.events() + " events in " + Printer.number(r.wallSeconds()) + " s ("
                        + Printer.number(r.eventsPerSecond()) + " events/s)");
                out.println("Time average over [" + Printer.number(settings.warmup()) + ", "
                        + Printer.number(settings.tEnd()) + "], 95% intervals from " + (settings.replications() > 1
                                ? settings.replications() + " replications" : settings.batches() + " batch means"));
                Printer.Table table = new Printer.Table("name", "mean", "ci95Low", "ci95High");
                for (int i = 0; i < file.dimension(); i++) {
                    Estimate e = r.timeAverage().get(i);
                    table.row(file.names().get(i), Printer.number(e.mean()), Printer.number(e.ci95Low()),
                            Printer.number(e.ci95High()));
                }
                table.print(out);
                if (grid) {
                    out.println();
                    List<String> head = new ArrayList<>(List.of("t"));
                    head.addAll(file.names());
                    Printer.Table traj = new Printer.Table(head.toArray(new String[0]));
                    for (int k = 0; k < r.times().length; k++) {
                        List<String> row = new ArrayList<>(List.of(Printer.number(r.times()[k])));
                        for (double v : r.trajectory()[k].mean()) {
                            row.add(Printer.number(v));
                        }
                        traj.row(row.toArray(new String[0]));
                    }
                    out.println("Mean trajectory (intervals in --format json or csv):");
                    traj.print(out);
                }
            }
        }
        return 0;
    }
}
