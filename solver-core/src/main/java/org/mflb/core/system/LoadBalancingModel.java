package org.mflb.core.system;

import java.util.Objects;

import org.mflb.core.MflbException;
import org.mflb.core.distribution.Exponential;
import org.mflb.core.distribution.ServiceDistribution;
import org.mflb.core.model.ArrivalRate;

/**
 * A load-balancing system of {@code N} servers or pools, described once for every layer: the servers
 * ({@link ServerSystem}: single-server FIFO queues, infinite-server pools, or loss pools of capacity
 * {@code C}), the dispatching {@link Policy}, the arrival rate per server {@code λ(t)} (arrivals form a
 * Poisson process of rate {@code N·λ(t)}), the service-time law, and the servers' speeds
 * ({@link ServerClasses}: one class of speed 1 unless given; classes of different speeds for
 * single-server queues under random, SQ(d) and SED(d), docs/models.md §10). The fluid models, the PDE and the
 * simulator are all built from this value, so that the model a user states is the model each of them
 * computes with; the size {@code N} is not part of it (the fluid limit has none; a simulation's run
 * control gives it).
 *
 * <p>Immutable and validated at construction: the policy must be defined for the system (SQ(d) with
 * memory in queues, the threshold policies in pools); errors name the parameter ({@code policy},
 * {@code lambda}, ...) and its valid range, never a command-line flag.
 *
 * @param system the servers
 * @param policy the dispatching policy
 * @param arrivalRate {@code λ(t)} per server, constant or a profile
 * @param service the service-time law of one job at a server of speed 1 ({@link Exponential} of rate 1
 *        by default); a server of speed {@code s} takes {@code 1/s} of it
 * @param classes the server classes: fractions and speeds
 */
public record LoadBalancingModel(ServerSystem system, Policy policy, ArrivalRate arrivalRate,
        ServiceDistribution service, ServerClasses classes) {

    /** Validates the parts and that the policy is defined for the system. */
    public LoadBalancingModel {
        if (system == null) {
            throw MflbException.invalid("system", null, "one of supermarket, pools, loss");
        }
        if (policy == null) {
            throw MflbException.invalid("policy", null, "a dispatching policy");
        }
        if (arrivalRate == null) {
            throw MflbException.invalid("lambda", null, "a rate > 0 or a rate profile");
        }
        if (arrivalRate.isConstant()) {
            double lambda = arrivalRate.at(0);
            if (!(lambda > 0) || Double.isInfinite(lambda)) {
                throw MflbException.invalid("lambda", lambda, "a finite number > 0");
            }
        }
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(classes, "classes");
        policy.requireSupportedBy(system);
        if (!classes.isUnitSpeed()) {
            if (system.kind() != ServerSystem.Kind.SUPERMARKET) {
                throw MflbException.invalid("classes", classes.spec(), "given with system supermarket only");
            }
            if (!policy.supportsServerClasses()) {
                throw MflbException.invalid("classes", classes.spec(), "given with policy random, sqd or sed only");
            }
        }
    }

    /**
     * A model whose servers all have speed 1.
     *
     * @param system the servers
     * @param policy the dispatching policy
     * @param arrivalRate {@code λ(t)} per server
     * @param service the service-time law
     */
    public LoadBalancingModel(ServerSystem system, Policy policy, ArrivalRate arrivalRate, ServiceDistribution service) {
        this(system, policy, arrivalRate, service, ServerClasses.homogeneous());
    }

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param lambda constant arrival rate per server
     * @return the model with exponential service of rate 1
     */
    public static LoadBalancingModel of(ServerSystem system, Policy policy, double lambda) {
        return of(system, policy, ArrivalRate.constant(lambda));
    }

    /**
     * @param system the servers
     * @param policy the dispatching policy
     * @param arrivalRate {@code λ(t)} per server
     * @return the model with exponential service of rate 1
     */
    public static LoadBalancingModel of(ServerSystem system, Policy policy, ArrivalRate arrivalRate) {
        return new LoadBalancingModel(system, policy, arrivalRate, Exponential.unit());
    }

    /** @return this model with another service-time law */
    public LoadBalancingModel withService(ServiceDistribution law) {
        return new LoadBalancingModel(system, policy, arrivalRate, law, classes);
    }

    /** @return this model with another arrival rate */
    public LoadBalancingModel withArrivalRate(ArrivalRate rate) {
        return new LoadBalancingModel(system, policy, rate, service, classes);
    }

    /** @return this model with another policy */
    public LoadBalancingModel withPolicy(Policy other) {
        return new LoadBalancingModel(system, other, arrivalRate, service, classes);
    }

    /** @return this model with other server classes */
    public LoadBalancingModel withClasses(ServerClasses other) {
        return new LoadBalancingModel(system, policy, arrivalRate, service, other);
    }

    /** @return whether the servers have different speeds or come in several classes (not one class of speed 1) */
    public boolean hasClasses() {
        return !classes.isUnitSpeed();
    }

    /**
     * @return whether the service times are exponential of mean 1: the law the ODE fluid models (tail
     *         vectors, server classes) are written for
     */
    public boolean unitExponentialService() {
        return exponentialService() && service.mean() == 1.0;
    }

    /** @return whether the service times are exponential (the law of the ODE fluid models) */
    public boolean exponentialService() {
        return service instanceof Exponential;
    }
}
