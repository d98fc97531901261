package org.mflb.pde;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.distribution.ServiceDistributions;
import org.mflb.core.ode.TimeGrid;

/**
 * The qualitative finding of [AR] (§7; docs/models.md §5): for SQ(2), more variable service gives
 * smaller {@code x_ℓ} at small t (a better transient), while its equilibrium tail is much heavier.
 * Laws of mean 1 in increasing variability: log-normal SCV 1, log-normal SCV 4, Weibull shape 0.5
 * (SCV 5). PDE only.
 */
class PaperFindingTest {

    /** Ten times the transient error of the default step (about 1e-4, see the convergence tests). */
    static final double MARGIN = 1e-3;
    static final String[] BY_VARIABILITY = {"lognormal:scv=1", "lognormal:scv=4", "weibull:shape=0.5"};

    @Test
    void moreVariableServiceIsBetterEarlyAndWorseInEquilibrium() {
        TimeGrid grid = TimeGrid.of(1, 2, 3, 4);
        double[][][] early = new double[BY_VARIABILITY.length][][];
        double[][] equilibrium = new double[BY_VARIABILITY.length][];
        for (int m = 0; m < BY_VARIABILITY.length; m++) {
            HydrodynamicPde pde = HydrodynamicPde.of(2, 0.9, ServiceDistributions.parse(BY_VARIABILITY[m]));
            PdeTransient tr = pde.transientFrom(PdeInitialState.empty(), TimeGrid.of(0, 1, 2, 3, 4));
            early[m] = new double[grid.size()][];
            for (int k = 0; k < grid.size(); k++) {
                early[m][k] = tr.tail(k + 1);
            }
            equilibrium[m] = pde.equilibrium().tail();
        }
        for (int m = 1; m < BY_VARIABILITY.length; m++) {
            for (int k = 0; k < grid.size(); k++) {
                for (int l = 1; l <= 2; l++) {
                    assertTrue(early[m][k][l] < early[m - 1][k][l] - MARGIN, BY_VARIABILITY[m] + " at t = "
                            + grid.time(k) + ", x_" + l + ": " + early[m][k][l] + " vs " + early[m - 1][k][l]);
                }
            }
            for (int l = 2; l <= 6; l++) {
                assertTrue(equilibrium[m][l] > equilibrium[m - 1][l] + MARGIN, BY_VARIABILITY[m] + " equilibrium x_"
                        + l + ": " + equilibrium[m][l] + " vs " + equilibrium[m - 1][l]);
            }
        }
        // "much heavier": x_6 grows by more than 100 from SCV 1 to SCV 4 (1.0e-3 to 0.18)
        assertTrue(equilibrium[1][6] > 100 * equilibrium[0][6], equilibrium[1][6] + " vs " + equilibrium[0][6]);
        System.out.printf("x_2(t=2): %.4f %.4f %.4f; equilibrium x_6: %.3e %.3e %.3e%n", early[0][1][2], early[1][1][2],
                early[2][1][2], equilibrium[0][6], equilibrium[1][6], equilibrium[2][6]);
    }
}
