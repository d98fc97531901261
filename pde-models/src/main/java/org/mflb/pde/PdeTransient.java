package org.mflb.pde;

import org.mflb.core.ode.TimeGrid;

/**
 * A transient of the hydrodynamic PDE on a time grid: tail vectors, mean queue lengths, mean
 * virtual waiting times, and the discretisation figures (age step, levels and the masses they cut off).
 */
public final class PdeTransient {

    private final TimeGrid grid;
    private final double[][] tails;
    private final double[] waits;
    private final double ageStep;
    private final boolean richardson;
    private final double levelCutOff;
    private final double agedMass;
    private final PdeSojournTimes[] sojourns;
    private final double errorEstimate;

    PdeTransient(TimeGrid grid, double[][] tails, double[] waits, double ageStep, boolean richardson,
            double levelCutOff, double agedMass, PdeSojournTimes[] sojourns, double errorEstimate) {
        this.sojourns = sojourns;
        this.errorEstimate = errorEstimate;
        this.grid = grid;
        this.tails = tails;
        this.waits = waits;
        this.ageStep = ageStep;
        this.richardson = richardson;
        this.levelCutOff = levelCutOff;
        this.agedMass = agedMass;
    }

    /** @return the output times */
    public TimeGrid grid() {
        return grid;
    }

    /** @return {@code (1, x_1, ..., x_L)} at grid time {@code k} (a copy) */
    public double[] tail(int k) {
        return tails[k].clone();
    }

    /** @return levels kept {@code L} */
    public int levels() {
        return tails[0].length - 1;
    }

    /** @return mean jobs per server at grid time {@code k} */
    public double meanQueueLength(int k) {
        double s = 0;
        for (int i = 1; i < tails[k].length; i++) {
            s += tails[k][i];
        }
        return s;
    }

    /** @return mean virtual waiting time at grid time {@code k} (docs/models.md §5) */
    public double meanWait(int k) {
        return waits[k];
    }

    /** @return whether the sojourn-time laws were computed ({@link HydrodynamicPde#withSojournTimes}) */
    public boolean hasSojournTimes() {
        return sojourns != null;
    }

    /**
     * @param k grid index
     * @return the waiting- and response-time laws of a job arriving at grid time {@code k}
     *         (docs/models.md §7; from the fine grid when Richardson-extrapolated)
     * @throws IllegalStateException if they were not asked for
     */
    public PdeSojournTimes sojournTimes(int k) {
        if (sojourns == null) {
            throw new IllegalStateException("sojourn times not computed: use HydrodynamicPde.withSojournTimes");
        }
        return sojourns[k];
    }

    /**
     * @return the estimated largest error of the tail vector over the grid, {@code C h²} from the two
     *         probe grids of {@link HydrodynamicPde#withTolerance}; NaN when the step was fixed
     */
    public double errorEstimate() {
        return errorEstimate;
    }

    /** @return the age (= time) step of the (coarse) grid */
    public double ageStep() {
        return ageStep;
    }

    /**
     * @return whether the values are Richardson extrapolations {@code (4 u_{h/2} − u_h)/3} over
     *         {@code h} and {@code h/2} (which may undershoot by O(h³) where the tail is tiny)
     */
    public boolean richardson() {
        return richardson;
    }

    /** @return the largest {@code x_L} over the run: the mass the level truncation may cut off */
    public double levelCutOffMass() {
        return levelCutOff;
    }

    /**
     * @return the largest mass in the aged last age cell over the run (whose jobs complete at the
     *         rate {@code 1/m(A)}); 0 when the age grid covers every age reached
     */
    public double agedMass() {
        return agedMass;
    }
}
