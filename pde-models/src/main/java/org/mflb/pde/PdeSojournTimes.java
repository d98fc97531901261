package org.mflb.pde;

import java.util.List;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.sojourn.Percentiles;

/**
 * The waiting- and response-time laws of the hydrodynamic PDE (docs/models.md §7) at one time (the
 * equilibrium, or a job arriving at a time of a transient): an arrival that joins a server with
 * {@code k ≥ 1} jobs whose job in service has age {@code a} waits the residual at age {@code a}
 * plus {@code k − 1} full services; the laws follow from the age profiles {@code ν_k(t, a)} by grid
 * convolution ({@link SojournGrid}, second order in the grid step {@code δ}: {@link #DEFAULT_STEP},
 * or {@code end/}{@link #DEFAULT_NODES} for a longer reach, at most {@link #MAX_STEP}). The grid
 * reaches far enough that {@code P(W > end)} is below a tenth of {@code 1 − p} for the largest
 * percentile {@code p} asked for (it is widened until it does, within {@link #MAX_NODES} nodes; a
 * quantile beyond the grid's end is then an error naming the percentiles). Immutable.
 */
public final class PdeSojournTimes {

    /** Default (finest) grid step of the convolution, in units of the mean service time. */
    public static final double DEFAULT_STEP = 0.01;
    /** Nodes of the grid beyond which the step grows with the grid's reach (second order: error ∝ step²). */
    public static final int DEFAULT_NODES = 1 << 14;
    /** Coarsest grid step (in mean service times): the body of the law stays resolved to about 1e-3. */
    public static final double MAX_STEP = 0.05;
    /** Largest number of grid nodes. */
    static final int MAX_NODES = 1 << 18;

    private final GridLaw waiting;
    private final GridLaw response;
    private final double atom;

    PdeSojournTimes(GridLaw waiting, GridLaw response, double atom) {
        this.waiting = waiting;
        this.response = response;
        this.atom = atom;
    }

    /** @return the waiting time's law (atom {@code 1 − x_1^d} at 0) */
    public GridLaw waiting() {
        return waiting;
    }

    /** @return the response time's law {@code W + S} */
    public GridLaw response() {
        return response;
    }

    /** @return {@code P(W = 0)}: the share of arrivals that find an idle server */
    public double idleShare() {
        return atom;
    }

    /** @return {@code E[T] = E[W] + E[S]} */
    public double meanResponseTime() {
        return response.mean();
    }

    /** @return the response-time quantiles */
    public List<Percentiles.Quantile> responseQuantiles(Percentiles p) {
        return p.quantiles(response);
    }

    /** @return the waiting-time quantiles */
    public List<Percentiles.Quantile> waitingQuantiles(Percentiles p) {
        return p.quantiles(waiting);
    }

    /** A step that puts the atom of a deterministic service (at its mean) on a node. */
    static double alignedStep(ServiceDistribution service, double step) {
        double m = service.mean();
        return m / Math.ceil(m / step);
    }

    static PdeSojournTimes ofEquilibrium(HydrodynamicPde pde, PdeEquilibrium eq, double step, double tailTarget) {
        ServiceDistribution service = pde.service();
        double end = initialReach(service, eq.meanWait(), tailTarget);
        double[] tail = eq.tail();
        double atom = 1.0 - Math.pow(tail[1], pde.d());
        for (int attempt = 0; ; attempt++) {
            double delta = alignedStep(service, Math.min(MAX_STEP, Math.max(step, end / DEFAULT_NODES)));
            int nodes = (int) Math.min(MAX_NODES, Math.ceil(end / delta) + 1);
            int ageCells = (int) Math.min(nodes, Math.ceil(eq.ageTruncation() / delta));
            SojournGrid kernel = new SojournGrid(service, delta, nodes, Math.max(1, ageCells));
            SojournGrid.Accumulator grid = kernel.start();
            int d = pde.d();
            pde.stationarySolver().listen((k, xk, xk1, age, phiK, phiK1) -> {
                double c = chooseRatio(d, xk, xk1);
                double[] beta = new double[kernel.ageCells()];
                int i = 0;
                for (int j = 0; j < beta.length; j++) {
                    double a = (j + 0.5) * delta;
                    while (i + 2 < age.length && age[i + 1] < a) {
                        i++;
                    }
                    beta[j] = interpolate(age, phiK, phiK1, i, a);
                }
                double aEnd = kernel.ageCells() * delta;
                int iEnd = age.length - 2;
                while (iEnd > 0 && age[iEnd] > aEnd) {
                    iEnd--;
                }
                double betaTail = interpolate(age, phiK, phiK1, iEnd, aEnd);
                grid.addLevel(c, beta, betaTail, null, 0.0);
            }).solve();
            GridLaw waiting = grid.waiting(atom, eq.meanWait());
            if (waiting.survival(waiting.end()) <= tailTarget || attempt >= 8 || nodes >= MAX_NODES) {
                return new PdeSojournTimes(waiting, grid.response(atom, eq.meanWait()), atom);
            }
            end = widerReach(waiting, tailTarget);
        }
    }

    /**
     * A first reach of the grid: a dozen mean response times, more (up to 64) where the stationary
     * excess of the service, {@code I(w)/E[S]} (which the residuals of old jobs follow), is still above
     * the target; the grid is widened from the computed tail if that is not enough.
     */
    static double initialReach(ServiceDistribution service, double meanWait, double tailTarget) {
        double base = Math.max(8 * service.mean(), 12 * (meanWait + service.mean()));
        double end = base;
        for (int i = 0; i < 40 && end < 64.0 / 12 * base; i++) {
            double s = service.survival(end);
            double excess = s > 0 ? s * service.meanResidualLife(end) / service.mean() : 0.0;
            if (!(excess > tailTarget)) {
                break;
            }
            end *= 1.5;
        }
        return end;
    }

    /** The reach at which a log-linear continuation of the tail from {@code end/2} to {@code end} meets the target. */
    static double widerReach(GridLaw waiting, double tailTarget) {
        double end = waiting.end();
        double far = waiting.survival(end);
        double half = waiting.survival(0.5 * end);
        double wider = 2 * end;
        if (far > 0 && half > far) {
            double slope = Math.log(half / far) / (0.5 * end);
            wider = end + 1.25 * Math.log(far / tailTarget) / slope;
        }
        return Math.min(4 * end, Math.max(1.25 * end, wider));
    }

    /** {@code ψ = φ_k − φ_{k+1}} at age {@code a}, linear in cell {@code i} (constant beyond the grid). */
    private static double interpolate(double[] age, double[] phiK, double[] phiK1, int i, double a) {
        double a0 = age[i];
        double a1 = age[i + 1];
        double w = a1 > a0 ? Math.min(1.0, Math.max(0.0, (a - a0) / (a1 - a0))) : 0.0;
        double v0 = phiK[i] - phiK1[i];
        double v1 = phiK[i + 1] - phiK1[i + 1];
        return Math.max(0.0, v0 + w * (v1 - v0));
    }

    /** {@code (u^d − v^d)/(u − v)} by Horner. */
    static double chooseRatio(int d, double u, double v) {
        double s = 1;
        double vi = 1;
        for (int i = 1; i < d; i++) {
            vi *= v;
            s = s * u + vi;
        }
        return s;
    }
}
