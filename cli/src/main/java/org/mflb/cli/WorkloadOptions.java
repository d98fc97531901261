package org.mflb.cli;

import org.mflb.core.MflbException;
import org.mflb.core.system.Policy;
import org.mflb.pde.workload.LeastLoaded;

import picocli.CommandLine.Option;

/**
 * {@code --tolerance}: the requested relative accuracy of the LL(d) equilibrium ({@code fixed-point}
 * and {@code compare} with {@code --policy ll}, docs/models.md §11.2): the error-controlled march of
 * the workload equation halves its step until {@code E[R]} and the asked quantiles change by less
 * than it.
 */
public final class WorkloadOptions {

    @Option(names = "--tolerance", paramLabel = "EPS",
            description = "--policy ll: relative accuracy of E[R] and of the response-time quantiles of the workload"
                    + " equilibrium, in [1e-12, 0.1] (default: 1e-6; the error estimate reached is in the output).")
    Double tolerance;

    /** @return the requested tolerance, refusing it for a policy other than ll */
    double tolerance(Policy policy) {
        if (tolerance != null && !(policy instanceof Policy.LeastLoaded)) {
            throw MflbException.invalid("tolerance", tolerance, "used only with --policy ll (the accuracy of the"
                    + " workload equilibrium)");
        }
        return tolerance == null ? LeastLoaded.DEFAULT_TOLERANCE : tolerance;
    }
}
