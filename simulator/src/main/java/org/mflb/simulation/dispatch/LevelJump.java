package org.mflb.simulation.dispatch;

/**
 * A jump of a policy's internal level (e.g. the threshold ℓ of the self-learning policy) at time
 * {@code t} from {@code from} to {@code to}.
 *
 * @param t time of the jump
 * @param from level before
 * @param to level after
 */
public record LevelJump(double t, int from, int to) {
}
