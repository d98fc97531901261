package org.mflb.fluid;

/**
 * Random routing: every arrival joins a uniformly chosen server, {@code h(y) = y}. Each server is
 * then an independent M/M/1 queue (M/M/∞ pool, Erlang loss pool) for every {@code N}.
 */
public final class RandomRouting implements SmoothRouting {

    /** The single instance. */
    public static final RandomRouting INSTANCE = new RandomRouting();

    private RandomRouting() {
    }

    @Override
    public double selection(double y) {
        return y;
    }

    @Override
    public double selectionDerivative(int order, double y) {
        return order == 0 ? y : order == 1 ? 1.0 : 0.0;
    }

    @Override
    public int d() {
        return 1;
    }

    @Override
    public String name() {
        return "random";
    }
}
