package org.mflb.fluid.loss;

import java.util.Optional;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.distribution.Erlang;
import org.mflb.core.distribution.Gamma;
import org.mflb.core.distribution.PhaseType;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.fixedpoint.FixedPoint;
import org.mflb.core.fixedpoint.FixedPointSolver;
import org.mflb.core.refined.RefinedMeanField;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.fluid.SmoothRouting;

/**
 * Sensitivity of the loss-pool fluctuations to the service law ({@code docs/models.md §8}): the
 * population model on jobs per phase per pool ({@link PhaseTypeLossModel}) at its fixed point,
 * which is insensitive (the product form over the exponential occupancy, polished by Newton's
 * method, residual reported), with the refined mean field's {@code W} and {@code V} of its
 * coordinates mapped to the tail vector {@code x = L y}:
 * <pre>
 *   W_x = L W_y Lᵀ,   V_x = L V_y,   R_B = h′(x*_C) V_C + ½ h″(x*_C) W_CC + g(x*_C)  (= −Σ V_i/λ),
 *   τ = diag L [(−A)⁻¹ W_y + W_y (−A)⁻ᵀ] Lᵀ,
 * </pre>
 * {@code τ_i} being the asymptotic variance of time averages: over a window of length {@code T},
 * {@code Var((1/T) ∫ x^N_i dt) ≈ τ_i / (N T)}, so a run needs
 * {@code T ≈ (1.96)² τ_i / (N δ²)} for a 95% half-width {@code δ}. It scales nearly like
 * {@code (1 + c²)/2} with the squared coefficient of variation {@code c²} of the service (exactly
 * for {@code C = 1}), while {@code W} moves by well under 1%, and not at all for {@code d = 1} or
 * {@code C = 1}.
 *
 * <p>Only phase-type laws have this model: exponential, Erlang, gamma with integer shape
 * {@code 1/c²}, H2 and general {@code ph}. Deterministic, log-normal and the other laws are
 * available through the simulator only. Immutable.
 */
public final class ServiceSensitivity {

    private final PhaseTypeLossModel model;
    private final double[] y;
    private final double residual;
    private final double productFormDistance;
    private final double[] x;
    private final DMatrixRMaj w;
    private final double[] v;
    private final double[] timeAverageVariance;
    private final double blocking;
    private final double blockingCorrection;

    private ServiceSensitivity(PhaseTypeLossModel model, LossPoolLimit exponential) {
        this.model = model;
        double[] product = model.productForm(exponential.fixedPoint());
        FixedPoint fp = new FixedPointSolver(new FixedPointSolver.Settings(1e-14, 50, 0.0, 0)).solve(model, product);
        this.y = fp.state();
        this.residual = fp.residual();
        double distance = 0;
        for (int s = 0; s < y.length; s++) {
            distance = Math.max(distance, Math.abs(y[s] - product[s]));
        }
        this.productFormDistance = distance;
        SteadyStateExpansion expansion = new RefinedMeanField(1).steadyState(model, y);
        DMatrixRMaj l = model.tailMap();
        this.x = model.tail(y);
        this.w = congruence(l, expansion.covarianceTerm());
        DMatrixRMaj vy = new DMatrixRMaj(y.length, 1, true, expansion.firstOrderTerm());
        DMatrixRMaj vx = new DMatrixRMaj(l.numRows, 1);
        CommonOps_DDRM.mult(l, vy, vx);
        this.v = vx.getData();
        DMatrixRMaj a = new DMatrixRMaj(y.length, y.length);
        model.jacobian(0, y, a);
        this.timeAverageVariance = TimeAverages.asymptoticVariance(a, expansion.covarianceTerm(), l);
        SmoothRouting policy = model.policy();
        SmoothRouting limit = policy.limit();
        int c = x.length - 1;
        this.blocking = limit.selection(x[c]);
        this.blockingCorrection = limit.selectionDerivative(1, x[c]) * v[c]
                + 0.5 * limit.selectionDerivative(2, x[c]) * w.get(c, c) + policy.sizeCorrectionDerivative(1, 0, x[c]);
    }

    /**
     * @param capacity pool capacity {@code C ≥ 1}
     * @param policy random routing or SQ(d)
     * @param lambda per-pool load {@code λ > 0}
     * @param service a phase-type service law of mean 1 (see the class comment)
     * @return the sensitivity analysis
     */
    public static ServiceSensitivity of(int capacity, SmoothRouting policy, double lambda, ServiceDistribution service) {
        PhaseTypeLossModel model = PhaseTypeLossModel.of(capacity, policy, lambda, phaseType(service));
        return new ServiceSensitivity(model, LossPoolLimit.of(capacity, policy, lambda));
    }

    /**
     * @param service a service law
     * @return its phase-type representation: its own, or Erlang-k for a gamma law of integer shape k
     * @throws MflbException (parameter {@code service}) for a law that is not phase-type
     */
    public static PhaseType phaseType(ServiceDistribution service) {
        Optional<PhaseType> ph = service.asPhaseType();
        if (ph.isPresent()) {
            return ph.get();
        }
        if (service instanceof Gamma g) {
            long k = Math.round(g.shape());
            if (k >= 1 && Math.abs(g.shape() - k) <= 1e-9 * k) {
                return Erlang.of((int) k, g.mean()).asPhaseType().orElseThrow();
            }
        }
        throw new MflbException(ErrorKind.INVALID_PARAMETER, "service", "service " + service.spec()
                + " is not phase-type: the phase model takes exp, erlang:k=K, gamma:scv=1/K (integer K), h2:scv=C2"
                + " or ph:...; deterministic, log-normal and the other laws go through the simulator only"
                + " (simulate, diffusion, validate)");
    }

    /** @return the population model */
    public PhaseTypeLossModel model() {
        return model;
    }

    /** @return the fixed point {@code y*} of the detailed model */
    public double[] detailedFixedPoint() {
        return y.clone();
    }

    /** @return {@code ‖F(y*)‖∞} after Newton's polish */
    public double residual() {
        return residual;
    }

    /** @return {@code max_s |y*_s − product form_s|}: rounding-level when the fixed point is insensitive */
    public double productFormDistance() {
        return productFormDistance;
    }

    /** @return the tail vector {@code x*} (equal to the exponential one: insensitivity) */
    public double[] fixedPoint() {
        return x.clone();
    }

    /** @return {@code W_x = L W_y Lᵀ}, the limit of {@code N·Cov} of the tail vector */
    public DMatrixRMaj covariance() {
        return w.copy();
    }

    /** @return {@code V_x = L V_y}, the 1/N term of the tail vector's mean */
    public double[] refinedTerm() {
        return v.clone();
    }

    /** @return the mean-field blocking {@code h(x*_C)} */
    public double blocking() {
        return blocking;
    }

    /** @return {@code R_B} of this service law */
    public double blockingCorrection() {
        return blockingCorrection;
    }

    /** @return {@code −Σ V_i/λ}: {@code R_B} by Little's law */
    public double blockingCorrectionByLittle() {
        double sum = 0;
        for (double vi : v) {
            sum += vi;
        }
        return -sum / model.lambda();
    }

    /** @return {@code τ_i}, the asymptotic variance of time averages of {@code x_i} (times {@code N T}) */
    public double[] timeAverageVariance() {
        return timeAverageVariance.clone();
    }

    private static DMatrixRMaj congruence(DMatrixRMaj l, DMatrixRMaj m) {
        DMatrixRMaj lm = new DMatrixRMaj(l.numRows, m.numCols);
        CommonOps_DDRM.mult(l, m, lm);
        DMatrixRMaj r = new DMatrixRMaj(l.numRows, l.numRows);
        CommonOps_DDRM.multTransB(lm, l, r);
        return r;
    }
}
