package org.mflb.validation;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;
import org.mflb.pde.HydrodynamicPde;
import org.mflb.pde.PdeInitialState;
import org.mflb.pde.PdeTransient;

/**
 * The hydrodynamic PDE of SQ(d) with general service ([AR]) against the simulated system with
 * the same service law, along a transient from empty queues.
 */
public final class PdeVersusSimulation implements ValidationScenario {

    private final String id;
    private final String service;

    /**
     * @param id scenario id
     * @param service service law specification, e.g. {@code lognormal:scv=4}
     */
    public PdeVersusSimulation(String id, String service) {
        this.id = id;
        this.service = service;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String title() {
        return "Hydrodynamic PDE, SQ(2), lambda = 0.9, " + service + " service";
    }

    @Override
    public ScenarioOutcome run(ValidationContext context) {
        long start = System.nanoTime();
        int servers = context.pick(2000, PdeScenarios.SERVERS);
        double tEnd = context.pick(40.0, PdeScenarios.T_END);
        double dt = context.pick(4.0, PdeScenarios.DT);
        PdeScenarios.TransientComparison c = PdeScenarios.transientComparison(service, 2, PdeScenarios.LAMBDA, servers,
                context.pick(10, PdeScenarios.REPLICATIONS), tEnd, dt, context.seed() ^ id.hashCode(),
                context.threads());
        // Statistical error, the O(1/N) bias of the finite system and the PDE's discretisation error.
        Comparisons.Tolerance tolerance = new Comparisons.Tolerance(3,
                PdeScenarios.BIAS_CONSTANT / servers + PdeScenarios.PDE_ERROR);
        List<Check> checks = Comparisons.transientTails("", c.times(), c.pde(), c.simulation(), tolerance);
        double[] lineTimes = Comparisons.fineTimes(tEnd, 200);
        PdeTransient fine = HydrodynamicPde.of(2, PdeScenarios.LAMBDA, ServiceDistributions.parse(service))
                .transientFrom(PdeInitialState.empty(), TimeGrid.of(lineTimes));
        double[][] line = new double[lineTimes.length][];
        for (int k = 0; k < lineTimes.length; k++) {
            line[k] = fine.tail(k);
        }
        Comparisons.transientFigure(title() + " (N = " + servers + ")", lineTimes, line, c.simulation(), 6)
                .save(context.figure(id));
        String description = String.format(Locale.ROOT,
                "The age-structured PDE (second-order upwind scheme along characteristics, default step) against "
                        + "the simulated N = %d servers with %s service (SQ(2) sampling with replacement, from empty, "
                        + "%d replications, %,d events). PDE: %.2f s; simulation: %.1f s. Tolerance per check: %s "
                        + "(statistical error + %.0f/N finite-size bias + the PDE's 5e-4 discretisation error).",
                servers, service, c.simulation().scenario().run().replications(), c.simulation().events(), c.pdeSeconds(),
                c.simulationSeconds(), tolerance, PdeScenarios.BIAS_CONSTANT);
        return new ScenarioOutcome(id, title(), description, checks, Optional.of(context.figure(id)),
                (System.nanoTime() - start) * 1e-9);
    }
}
