package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.simulation.Estimate;
import org.mflb.validation.plot.Figure;

/**
 * [GABL], Theorem 3 (docs/models.md §4) as a catalogue entry: for λ ∉ ℕ the stationary variance of
 * {@code √n(q_{n,⌈λ⌉} − (λ − ⌊λ⌋))} tends to λ under the threshold policy with ℓ = ⌊λ⌋ and under
 * JSQ (an Ornstein–Uhlenbeck limit {@code dZ = −Z dt + √(2λ) dW}), but not under power-of-2.
 */
public final class ThresholdDiffusionScenario implements ValidationScenario {

    private final double lambda;

    /** @param lambda a non-integer load per pool */
    public ThresholdDiffusionScenario(double lambda) {
        this.lambda = lambda;
    }

    @Override
    public String id() {
        return "threshold-diffusion";
    }

    @Override
    public String title() {
        return "Threshold policy and JSQ: diffusion limit ([GABL], Thm 3), lambda = " + lambda;
    }

    @Override
    public ScenarioOutcome run(ValidationContext context) {
        long start = System.nanoTime();
        ThresholdDiffusion.Settings settings = context.full() ? ThresholdDiffusion.Settings.full(lambda)
                : ThresholdDiffusion.Settings.quick(lambda);
        settings = settings.withThreads(context.threads());
        ThresholdDiffusion.Table table = ThresholdDiffusion.run(settings);
        List<Check> checks = new ArrayList<>();
        int[] sizes = settings.sizes();
        double[] ns = new double[sizes.length];
        double[] limit = new double[sizes.length];
        Figure figure = Figure.of(title(), "n (pools)", "n Var(q_ceil(lambda))");
        int group = 0;
        for (ThresholdDiffusion.Compared policy : ThresholdDiffusion.Compared.values()) {
            double[] v = new double[sizes.length];
            double[] h = new double[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                int n = sizes[k];
                ns[k] = n;
                limit[k] = lambda;
                Estimate var = table.row(policy, n).variance();
                v[k] = var.mean();
                h[k] = var.halfWidth();
                if (policy.optimal()) {
                    checks.add(Check.of(policy.label() + ": n Var, n = " + n, lambda, var.mean(), var.ci95Low(),
                            var.ci95High(), 3 * var.halfWidth(), lambda / Math.sqrt(n)));
                }
            }
            figure.points(policy.label() + " (95% CI)", group++, ns, v, h);
        }
        figure.line("limit: lambda", 3, ns, limit);
        figure.chart().getStyler().setXAxisLogarithmic(true);
        figure.save(context.figure(id()));
        String description = String.format(Locale.ROOT,
                "Stationary n Var(q_%d) of the simulated pools (started at the balanced state q*, %d replications of "
                        + "%.0f time units each) for the threshold policy with l = floor(lambda), JSQ and SQ(2). "
                        + "Theorem 3 predicts the limit lambda = %s for the first two (Ornstein-Uhlenbeck process "
                        + "dZ = -Z dt + sqrt(2 lambda) dW); SQ(2) stays far below it (not checked, shown in the "
                        + "figure). Tolerance: 3 CI half-widths + lambda/sqrt(n) (the pre-limit correction).%n%n```%n%s```",
                (int) Math.ceil(lambda), settings.replications(), settings.runLength(), lambda, table.format());
        return new ScenarioOutcome(id(), title(), description, checks, Optional.of(context.figure(id())),
                (System.nanoTime() - start) * 1e-9);
    }
}
