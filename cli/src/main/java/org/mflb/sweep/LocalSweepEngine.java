package org.mflb.sweep;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/** The default engine: a pool of {@code --threads} threads in this process, one point per task. */
public final class LocalSweepEngine implements SweepEngine {

    /** The engine's name, {@code local}. */
    public static final String NAME = "local";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<PointResult> run(List<SweepPoint> points, Settings settings, Consumer<String> progress) {
        int threads = Math.max(1, Math.min(settings.threads(), points.size()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "mflb-sweep");
            t.setDaemon(true);
            return t;
        });
        try {
            ExecutorCompletionService<Integer> done = new ExecutorCompletionService<>(pool);
            PointResult[] results = new PointResult[points.size()];
            for (int i = 0; i < points.size(); i++) {
                int position = i;
                done.submit(() -> {
                    results[position] = PointRunner.run(points.get(position));
                    return position;
                });
            }
            for (int k = 1; k <= points.size(); k++) {
                int i = done.take().get(); // get() orders the task's write of results[i] before the read
                progress.accept(SweepEngine.progressLine(k, points.size(), points.get(i), results[i]));
            }
            return List.of(results);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("sweep interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // PointRunner.run never throws
        } finally {
            pool.shutdownNow();
        }
    }
}
