package org.mflb.simulation;

/** Scratch: runs the benchmark. */
public class BenchMain {
    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        if (args.length > 1 && args[1].equals("exp")) {
            SimulationBenchmark.run(null, reps, System.out);
        } else {
            SimulationBenchmark.run(reps, System.out);
        }
    }
}
