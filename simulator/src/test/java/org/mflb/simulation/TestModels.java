package org.mflb.simulation;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.system.LoadBalancingModel;
import org.mflb.core.system.Policy;
import org.mflb.core.system.ServerSystem;

/** The models of the simulator's tests, one line each: a system, a policy and an arrival rate (exponential service). */
public final class TestModels {

    private TestModels() {
    }

    /** @return {@code policy} over single-server queues at the constant rate {@code lambda} */
    public static LoadBalancingModel queues(Policy policy, double lambda) {
        return LoadBalancingModel.of(ServerSystem.singleServerQueues(), policy, lambda);
    }

    /** @return {@code policy} over single-server queues at the rate {@code rate} */
    public static LoadBalancingModel queues(Policy policy, ArrivalRate rate) {
        return LoadBalancingModel.of(ServerSystem.singleServerQueues(), policy, rate);
    }

    /** @return {@code policy} over infinite-server pools at the constant rate {@code lambda} */
    public static LoadBalancingModel pools(Policy policy, double lambda) {
        return LoadBalancingModel.of(ServerSystem.infiniteServerPools(), policy, lambda);
    }

    /** @return {@code policy} over infinite-server pools at the rate {@code rate} */
    public static LoadBalancingModel pools(Policy policy, ArrivalRate rate) {
        return LoadBalancingModel.of(ServerSystem.infiniteServerPools(), policy, rate);
    }

    /** @return {@code policy} over loss pools of capacity {@code capacity} at the constant rate {@code lambda} */
    public static LoadBalancingModel loss(int capacity, Policy policy, double lambda) {
        return LoadBalancingModel.of(ServerSystem.lossPools(capacity), policy, lambda);
    }

    /** @return {@code policy} over loss pools of capacity {@code capacity} at the rate {@code rate} */
    public static LoadBalancingModel loss(int capacity, Policy policy, ArrivalRate rate) {
        return LoadBalancingModel.of(ServerSystem.lossPools(capacity), policy, rate);
    }
}
