package org.mflb.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.fluid.diffusion.HalfinWhittJsq;
import org.mflb.fluid.diffusion.HalfinWhittLimit;
import org.mflb.fluid.diffusion.HalfinWhittStatistics;
import org.mflb.simulation.Estimate;

/**
 * JSQ in the Halfin–Whitt regime as a catalogue entry (docs/models.md §9), for one β with N from 100
 * to 25 600: the limit by two independent routes (Kushner lattices extrapolated in h; exact
 * N-server chains at N = 1600 ... 102 400 extrapolated in N^{-1/2}), which must agree to 1e-5; the
 * identities of the basic adjoint relation; an Euler simulation of the reflected diffusion; the
 * simulated N-server system against the exact chain for N ≥ 400 where {@code P(Q₃ > 0) < 1e-6} (not
 * at N = 400 for β = 0.5, where it is 9e-4); and Braverman's rate, the slope of
 * {@code log|E X₂^N − E X₂|} against {@code log N} over N ≥ 1600 in [−0.55, −0.45].
 */
public final class HalfinWhittScenario implements ValidationScenario {

    /** N of the table. */
    static final int[] SERVERS = {100, 400, 1600, 6400, 25600};
    /** N of the second route to the limit. */
    static final int[] EXTRAPOLATED = {1600, 6400, 25600, 102400};

    /** Largest P(Q3 > 0) at which the capacity-2 chain stands for the simulated infinite-buffer system. */
    static final double MAX_P_Q3 = 1e-6;

    private final double beta;

    /** @param beta β */
    public HalfinWhittScenario(double beta) {
        this.beta = beta;
    }

    @Override
    public String id() {
        return "halfin-whitt-jsq-beta-" + String.valueOf(beta).replace('.', '_');
    }

    @Override
    public String title() {
        return "JSQ in the Halfin-Whitt regime, beta = " + beta + ": diffusion limit, exact prelimit, simulation";
    }

    @Override
    public ScenarioOutcome run(ValidationContext context) {
        long start = System.nanoTime();
        double[] points = {0.5, 1, 2, 4, 8};
        HalfinWhittStudy.Settings settings = new HalfinWhittStudy.Settings(beta, SERVERS, context.pick(1e-6, 1e-7), points,
                context.pick(1e7, 2e8), 8, context.seed() + 131 + 104_729L * Math.round(1000 * beta), context.threads(),
                context.pick(1600, 25600));
        HalfinWhittStudy.Result r = HalfinWhittStudy.run(settings, null);
        HalfinWhittJsq model = new HalfinWhittJsq(beta);
        HalfinWhittStatistics limit = r.limit().value();
        HalfinWhittStatistics error = r.limit().error();
        HalfinWhittLimit.Result second = HalfinWhittLimit.fromPrelimit(model, EXTRAPOLATED, limit.tailPoints());
        List<Check> checks = new ArrayList<>();
        agree(checks, "E X2", limit.meanX2(), second.value().meanX2(), second.error().meanX2());
        agree(checks, "Var X1", limit.varX1(), second.value().varX1(), second.error().varX1());
        agree(checks, "Var X2", limit.varX2(), second.value().varX2(), second.error().varX2());
        agree(checks, "Cov(X1, X2)", limit.covX1X2(), second.value().covX1X2(), second.error().covX1X2());
        agree(checks, "P(X2 > 2)", limit.tailX2()[2], second.value().tailX2()[2], second.error().tailX2()[2]);
        identity(checks, "limit: E X1 = -beta", -beta, limit.meanX1(), error.meanX1());
        identity(checks, "limit: Var X1 = 1 - beta E X2/2", 1 - beta * limit.meanX2() / 2, limit.varX1(), error.varX1());
        identity(checks, "limit: Cov = beta E X2/2", beta * limit.meanX2() / 2, limit.covX1X2(), error.covX1X2());
        identity(checks, "limit: E[dU/dt] = E X2", limit.meanX2(), limit.localTimeRate(), error.localTimeRate());
        double step = context.pick(0.01, 0.005);
        HalfinWhittEuler.Moments euler = HalfinWhittEuler.stationary(beta, step, context.pick(1e5, 1e6), 40,
                context.seed() + 17);
        // Euler's weak error O(step): 2 step bounds its coefficient (about 1 at beta = 1)
        simulated(checks, "Euler (step " + step + "): E X2", limit.meanX2(), euler.meanX2(), 2 * step);
        simulated(checks, "Euler (step " + step + "): Var X1", limit.varX1(), euler.varX1(), 2 * step);
        for (HalfinWhittStudy.SimulatedRow s : r.simulated()) {
            HalfinWhittStudy.PrelimitRow p = r.prelimit().stream().filter(q -> q.n() == s.n()).findFirst().orElseThrow();
            if (s.n() < 400 || p.pQ3Positive() > MAX_P_Q3) {
                continue; // the capacity-2 chain is not the infinite-buffer system there
            }
            simulated(checks, "N = " + s.n() + ": E X2, exact chain vs simulated", p.statistics().meanX2(), s.meanX2(), 0);
            simulated(checks, "N = " + s.n() + ": Var X1, exact chain vs simulated", p.statistics().varX1(), s.varX1(), 0);
        }
        checks.add(Check.of("slope of log|E X2^N - E X2| vs log N (N >= 1600)", -0.5, r.rate().slope(),
                r.rate().slope(), r.rate().slope(), 0, 0.05));
        HalfinWhittStudy.rateFigure(r, title(), context.figure(id()));
        HalfinWhittStudy.tailFigure(r, "JSQ Halfin-Whitt, beta = " + beta + ": stationary tails",
                context.figure(id() + "-tails"));
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "limit: E X2 = %.8f, Var X1 = %.8f, Var X2 = %.8f, Cov = %.8f "
                + "(error estimates %.1e, %.1e)%n", limit.meanX2(), limit.varX1(), limit.varX2(), limit.covX1X2(),
                error.meanX2(), error.varX1()));
        table.append("     N      E X2^N   sqrt(N)(E X2^N - E X2)   P(Q3>0)    simulated E X2 [95% CI]\n");
        for (int i = 0; i < r.prelimit().size(); i++) {
            HalfinWhittStudy.PrelimitRow p = r.prelimit().get(i);
            String sim = i < r.simulated().size() ? String.format(Locale.ROOT, "%.4f [%.4f, %.4f]",
                    r.simulated().get(i).meanX2().mean(), r.simulated().get(i).meanX2().ci95Low(),
                    r.simulated().get(i).meanX2().ci95High()) : "-";
            table.append(String.format(Locale.ROOT, "%6d  %.8f  %22.4f   %.2e   %s%n", p.n(), p.statistics().meanX2(),
                    Math.sqrt(p.n()) * p.errorX2(), p.pQ3Positive(), sim));
        }
        table.append(String.format(Locale.ROOT, "rate: slope %.4f; E X2^N - E X2 ~ c1/sqrt(N) + c2/N, c1 = %.4f, c2 = %.3f%n",
                r.rate().slope(), r.rate().c1(), r.rate().c2()));
        String description = "The diffusion limit dX1 = sqrt(2) dW - (beta + X1 - X2) dt - dU, dX2 = dU - X2 dt "
                + "(Eschenfeldt-Gamarnik) by Kushner lattices solved exactly and extrapolated in h, against: the "
                + "exact N-server chains extrapolated in N^(-1/2) (tolerance 1e-5), the identities of the basic "
                + "adjoint relation (tolerance 1e-6), an Euler simulation with exact reflection (3 CI half-widths + "
                + "2 step, its O(step) bias), the simulated N-server JSQ system against the exact chain for N >= 400 "
                + "where P(Q3 > 0) < 1e-6 (3 CI half-widths; the chain has at most two jobs per server), and the rate: slope in [-0.55, -0.45] over "
                + "N >= 1600. Quick mode simulates N <= 1600.\n\n```\n" + table + "```";
        return new ScenarioOutcome(id(), title(), description, checks, Optional.of(context.figure(id())),
                (System.nanoTime() - start) * 1e-9);
    }

    private static void agree(List<Check> checks, String what, double lattice, double prelimit, double error) {
        checks.add(Check.of(what + ": lattice (h -> 0) vs exact chains (N -> infinity)", lattice, prelimit,
                prelimit - error, prelimit + error, 0, 1e-5));
    }

    private static void identity(List<Check> checks, String what, double exact, double value, double error) {
        checks.add(Check.of(what, exact, value, value - error, value + error, 0, 1e-6));
    }

    private static void simulated(List<Check> checks, String what, double exact, Estimate e, double slack) {
        checks.add(Check.of(what, exact, e.mean(), e.ci95Low(), e.ci95High(), 3 * e.halfWidth(), slack));
    }
}
