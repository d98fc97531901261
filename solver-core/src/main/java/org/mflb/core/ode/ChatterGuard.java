package org.mflb.core.ode;

/**
 * Tells a piecewise-smooth solver when its switches no longer move time forward (chattering, a
 * Zeno-like loop of switches), without capping their number: a run over a long horizon may switch
 * any number of times. It counts as chattering when more than 50 switches fall at one instant, or
 * 1000 switches within {@code 1e-9·max(1, |t|)} of time.
 */
public final class ChatterGuard {

    private static final int AT_ONE_TIME = 50;
    private static final int BURST = 1000;
    private static final double BURST_SPAN = 1e-9;

    private final double[] recent = new double[BURST];
    private long count;
    private int atSameTime;
    private double last = Double.NaN;

    /**
     * Notes a switch.
     *
     * @param t the time of the switch (not decreasing from one call to the next)
     * @return whether the switches chatter
     */
    public boolean chattering(double t) {
        atSameTime = t == last ? atSameTime + 1 : 0;
        last = t;
        int slot = (int) (count % BURST);
        boolean burst = count >= BURST && t - recent[slot] <= BURST_SPAN * Math.max(1, Math.abs(t));
        recent[slot] = t;
        count++;
        return atSameTime > AT_ONE_TIME || burst;
    }
}
