package org.mflb.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ejml.data.DMatrixRMaj;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.fluid.FluidModel;
import org.mflb.fluid.SmoothRouting;
import org.mflb.fluid.loss.BlockingApproximations;
import org.mflb.fluid.loss.ExactLossChain;
import org.mflb.fluid.loss.LossPoolLimit;
import org.mflb.fluid.loss.ServiceSensitivity;
import picocli.CommandLine.Option;

/**
 * {@code fixed-point --system loss [--beta B] [--service SPEC] [--exact]} ({@code --service} is a model
 * option, {@link ModelOptions}): the fluctuations of loss
 * pools under random routing or SQ(d) and their blocking probability for finite N
 * ({@code docs/models.md §8}). JSON gains {@code ouMean} (the OU mean {@code m = −β d(x*)/dλ},
 * indexed like {@code tail}), {@code covariance} ({@code W}, levels 1..C; from the phase-type model
 * with {@code --service}), {@code spectralGap} (of the exponential model's {@code A}), {@code blockingCorrection} ({@code R_B}),
 * {@code timeAverageVariance} ({@code τ_i}, levels 1..C), {@code beta}, {@code errorOrders}; with
 * {@code --refined N,...} {@code blockingApproximations} [{@code N}, {@code lambdaN},
 * {@code meanField}, {@code ouMean}, {@code meanFieldAtLambdaN}, {@code refined}, {@code twoTerm}],
 * and with {@code --exact} also {@code exact} [{@code N}, {@code blocking}, {@code states}].
 */
public final class LossOptions {

    @Option(names = "--beta", paramLabel = "B", defaultValue = "0",
            description = "Loss pools: arrivals at N lambda_N, lambda_N = lambda - B/sqrt(N), for the blocking"
                    + " approximations of --refined (default: ${DEFAULT-VALUE}: lambda_N = lambda for every N).")
    double beta;

    @Option(names = "--exact", description = "Loss pools with --refined: the exact blocking of the N-pool chain"
            + " (exponential service) for each N, refused when its C(N+C, C) states exceed "
            + ExactLossChain.MAX_STATES + ".")
    boolean exact;

    /** @return whether any loss-pool option was given */
    boolean given() {
        return beta != 0 || exact;
    }

    /**
     * Validates the options against the model and computes the report (before any long work the
     * sizes of the exact chains are checked).
     *
     * @param service the text of {@code --service}, or null
     * @param law its service law, or null without {@code --service} (exponential)
     * @param fluid the fluid model (its system must be loss pools for any option here)
     * @param sizes the N of --refined, or null
     * @param err where the progress of large exact chains is reported
     * @return the report, or null when the system is not loss pools
     */
    Report report(String service, ServiceDistribution law, FluidModel fluid, int[] sizes, PrintWriter err) {
        if (!fluid.system().isLossy()) {
            if (given()) {
                throw MflbException.invalid(exact ? "exact" : "beta", exact ? "given" : beta, "used only with --system loss");
            }
            return null;
        }
        org.mflb.core.Require.finite("beta", beta);
        if (exact && sizes == null) {
            throw MflbException.invalid("exact", "given", "used with --refined N,... (the N of the exact chains)");
        }
        if (exact && law != null && law.asPhaseType().map(ph -> ph.phases() > 1).orElse(true)) {
            throw MflbException.invalid("exact", "with --service " + service,
                    "used with exponential service only (the exact chain counts jobs, not phases)");
        }
        int capacity = fluid.system().capacity();
        SmoothRouting policy = (SmoothRouting) fluid.policy();
        double lambda = fluid.arrivalRate().at(0);
        if (sizes != null) {
            for (int n : sizes) {
                if (!(lambda - beta / Math.sqrt(n) > 0)) {
                    throw MflbException.invalid("beta", beta, "< lambda sqrt(N) = " + lambda * Math.sqrt(n)
                            + " (lambda_N = lambda - beta/sqrt(N) must be positive at N = " + n + ")");
                }
                if (exact && policy.dependsOnSize() && policy.d() > n) {
                    throw MflbException.invalid("d", policy.d(), "<= N = " + n + " for the exact chain with distinct pools");
                }
                if (exact) {
                    double states = ExactLossChain.stateCount(n, capacity);
                    if (states > ExactLossChain.MAX_STATES) {
                        throw MflbException.invalid("exact", String.format(java.util.Locale.ROOT,
                                "N = %d, C = %d (%.0f states)", n, capacity, states),
                                "a chain of at most " + ExactLossChain.MAX_STATES + " states C(N+C, C): smaller N");
                    }
                }
            }
        }
        ServiceSensitivity sensitivity = law == null ? null : ServiceSensitivity.of(capacity, policy, lambda, law);
        LossPoolLimit limit = LossPoolLimit.of(capacity, policy, lambda);
        List<BlockingApproximations> approximations = new ArrayList<>();
        List<ExactLossChain> chains = new ArrayList<>();
        if (sizes != null) {
            for (int n : sizes) {
                BlockingApproximations b = BlockingApproximations.at(limit, beta, n);
                if (sensitivity != null) {
                    // R_B of the service law: the fixed point (so the mean field terms) is insensitive.
                    double rb = ServiceSensitivity.of(capacity, policy, b.lambdaN(), law).blockingCorrection();
                    b = new BlockingApproximations(n, b.lambdaN(), b.meanField(), b.ouMean(), b.meanFieldAtLambdaN(),
                            b.meanFieldAtLambdaN() + rb / n, b.twoTerm() + (sensitivity.blockingCorrection()
                                    - limit.blockingCorrection()) / n);
                }
                approximations.add(b);
                if (exact) {
                    double states = ExactLossChain.stateCount(n, capacity);
                    if (states > 20_000) {
                        err.println(String.format(java.util.Locale.ROOT,
                                "mflb: exact chain N = %d (%.0f states, about %.0f s)...", n, states, states / 7000));
                        err.flush();
                    }
                    chains.add(ExactLossChain.of(capacity, policy.d(), policy.dependsOnSize(), n, b.lambdaN()));
                }
            }
        }
        return new Report(limit, sensitivity, beta, law, approximations, chains);
    }

    /** What fixed-point prints for loss pools. */
    record Report(LossPoolLimit limit, ServiceSensitivity sensitivity, double beta, ServiceDistribution law,
            List<BlockingApproximations> approximations, List<ExactLossChain> chains) {

        private DMatrixRMaj covariance() {
            return sensitivity != null ? sensitivity.covariance() : limit.covariance();
        }

        private double blockingCorrection() {
            return sensitivity != null ? sensitivity.blockingCorrection() : limit.blockingCorrection();
        }

        private double[] timeAverageVariance() {
            return sensitivity != null ? sensitivity.timeAverageVariance() : limit.timeAverageVariance();
        }

        /** Adds the keys of the class comment. */
        void addJson(ObjectNode json) {
            json.put("beta", beta);
            json.put("service", law == null ? "exp" : law.spec());
            double[] m = limit.ouMean(beta);
            double[] indexed = new double[m.length + 1];
            System.arraycopy(m, 0, indexed, 1, m.length);
            json.set("ouMean", Printer.array(indexed));
            json.set("covariance", Printer.matrix(covariance()));
            Printer.put(json, "spectralGap", limit.spectralGap());
            Printer.put(json, "blockingCorrection", blockingCorrection());
            json.set("timeAverageVariance", Printer.array(timeAverageVariance()));
            if (sensitivity != null) {
                Printer.put(json, "productFormDistance", sensitivity.productFormDistance());
            }
            ObjectNode orders = json.putObject("errorOrders");
            for (BlockingApproximations.Kind k : BlockingApproximations.Kind.values()) {
                orders.put(k.key(), k.errorOrder());
            }
            if (!approximations.isEmpty()) {
                ArrayNode list = json.putArray("blockingApproximations");
                for (BlockingApproximations b : approximations) {
                    ObjectNode e = list.addObject();
                    e.put("N", b.n());
                    Printer.put(e, "lambdaN", b.lambdaN());
                    for (BlockingApproximations.Kind k : BlockingApproximations.Kind.values()) {
                        Printer.put(e, k.key(), b.get(k));
                    }
                }
            }
            if (!chains.isEmpty()) {
                ArrayNode list = json.putArray("exact");
                for (ExactLossChain c : chains) {
                    ObjectNode e = list.addObject();
                    e.put("N", c.n());
                    Printer.put(e, "blocking", c.blocking());
                    e.put("states", c.states());
                }
            }
        }

        /** Prints the OU limit and the approximations under a fixed-point table. */
        void printTable(PrintWriter out) {
            out.println();
            out.println("Fluctuations (Ornstein-Uhlenbeck limit, beta = " + Printer.number(beta) + ", service "
                    + (law == null ? "exp" : law.spec()) + "): spectral gap " + Printer.number(limit.spectralGap())
                    + (law == null ? "" : " (of exponential service: with other laws x alone is not Markov)")
                    + ", blocking 1/N term R_B " + Printer.number(blockingCorrection()));
            DMatrixRMaj w = covariance();
            double[] m = limit.ouMean(beta);
            double[] tau = timeAverageVariance();
            Printer.Table table = new Printer.Table("i", "OU mean m_i", "W_ii = lim N Var(x_i)", "time-average variance tau_i");
            for (int i = 0; i < m.length; i++) {
                table.row(Integer.toString(i + 1), Printer.number(m[i]), Printer.number(w.get(i, i)),
                        Printer.number(tau[i]));
            }
            table.print(out);
            out.println("  (Var of a time average over T: tau_i/(N T); the OU mean m is insensitive to the service law)");
            if (approximations.isEmpty()) {
                return;
            }
            out.println();
            out.println("Blocking probability for N pools, lambda_N = lambda - beta/sqrt(N) (error orders:"
                    + " mean field O(N^-1/2) if beta != 0 else O(1/N); OU mean O(1/N); mean field at lambda_N O(1/N);"
                    + " refined O(1/N^2); two-term O(N^-3/2))");
            List<String> header = new ArrayList<>(List.of("N", "lambda_N", "mean field", "OU mean", "MF at lambda_N",
                    "refined", "two-term"));
            if (!chains.isEmpty()) {
                header.add("exact");
            }
            Printer.Table approx = new Printer.Table(header.toArray(new String[0]));
            for (int k = 0; k < approximations.size(); k++) {
                BlockingApproximations b = approximations.get(k);
                List<String> row = new ArrayList<>(List.of(Integer.toString(b.n()), Printer.number(b.lambdaN()),
                        Printer.number(b.meanField()), Printer.number(b.ouMean()), Printer.number(b.meanFieldAtLambdaN()),
                        Printer.number(b.refined()), Printer.number(b.twoTerm())));
                if (!chains.isEmpty()) {
                    row.add(Printer.number(chains.get(k).blocking()));
                }
                approx.row(row.toArray(new String[0]));
            }
            approx.print(out);
        }
    }
}
