package org.mflb.sweep.spark;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.mflb.sweep.CommandRunner;

/**
 * Main class of the job jar {@code mflb-sweep-spark.jar}: {@code spark-submit --master URL
 * mflb-sweep-spark.jar COMMAND [options]} is {@code mflb sweep --engine spark COMMAND [options]}
 * with the master (and the rest of the Spark configuration) that spark-submit sets.
 */
public final class SparkSweepJob {

    private SparkSweepJob() {
    }

    /** @param args the sweep's arguments, as after {@code mflb sweep} ({@code sweep} itself may lead) */
    public static void main(String[] args) {
        List<String> line = new ArrayList<>(List.of("sweep", "--engine", SparkSweepEngine.NAME));
        List<String> rest = Arrays.asList(args);
        line.addAll(!rest.isEmpty() && rest.get(0).equals("sweep") ? rest.subList(1, rest.size()) : rest);
        System.exit(CommandRunner.load().execute(line.toArray(String[]::new), new PrintWriter(System.out, true),
                new PrintWriter(System.err, true)));
    }
}
