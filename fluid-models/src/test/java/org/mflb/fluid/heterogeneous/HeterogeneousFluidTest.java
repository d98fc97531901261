package org.mflb.fluid.heterogeneous;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.refined.SteadyStateExpansion;
import org.mflb.core.system.ServerClasses;

/**
 * Servers in classes of speeds against docs/models.md §10: its reference values (residual below
 * 1e-15 there; asserted to 1e-10), the closed forms (random = M/M/1 per class, equal speeds =
 * homogeneous SQ(d), SED = SQ(d) then), the balance identities, the stability boundary and growth
 * rates, and the refined 1/N coefficient.
 */
class HeterogeneousFluidTest {

    private static final ServerClasses TWO = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {1.5, 0.5});
    private static final ServerClasses SKEWED = ServerClasses.of(new double[] {0.2, 0.8}, new double[] {3, 0.5});
    private static final ServerClasses THREE = ServerClasses.of(new double[] {0.25, 0.25, 0.5}, new double[] {2, 1, 0.5});

    private static ClassFixedPoint fixedPoint(ServerClasses classes, ClassRule rule, int d, double lambda) {
        return new HeterogeneousFluid(classes, rule, d, false, lambda).fixedPoint();
    }

    @Test
    void referenceValuesOfDocsModels() {
        ClassFixedPoint sq2 = fixedPoint(TWO, ClassRule.SHORTEST_QUEUE, 2, 0.9);
        assertEquals(5.228788909972735, sq2.meanQueueLength(), 1e-10);
        assertEquals(2.976536453437147, sq2.meanQueueLength(0), 1e-10);
        assertEquals(7.481041366508324, sq2.meanQueueLength(1), 1e-10);
        assertEquals(0.99967366, sq2.tail(1)[1], 5e-9);
        assertTrue(sq2.residual() < 1e-13, "residual " + sq2.residual());
        assertEquals(3.306772263112758, fixedPoint(TWO, ClassRule.SHORTEST_EXPECTED_DELAY, 2, 0.9).meanQueueLength(), 1e-10);
        assertEquals(3.326736243519316, fixedPoint(SKEWED, ClassRule.SHORTEST_QUEUE, 2, 0.6).meanQueueLength(), 1e-10);
        assertEquals(3.149378034279997, fixedPoint(THREE, ClassRule.SHORTEST_QUEUE, 3, 0.9).meanQueueLength(), 1e-10);
    }

    @Test
    void randomRoutingIsAnMM1QueuePerClass() {
        ClassFixedPoint random = fixedPoint(TWO, ClassRule.RANDOM, 1, 0.45);
        for (int c = 0; c < 2; c++) {
            double r = 0.45 / TWO.speed(c);
            double[] u = random.tail(c);
            for (int i = 0; i < u.length; i++) {
                assertEquals(Math.pow(r, i), u[i], 1e-13, "u_{" + c + "," + i + "}");
            }
            assertEquals(r / (1 - r), random.meanQueueLength(c), 1e-12);
            assertEquals(1 / (TWO.speed(c) - 0.45), random.meanResponseTime(c), 1e-11);
        }
    }

    @Test
    void responseTimeLawsAgreeWithLittlesLawAndMM1() {
        ClassResponseTime random = fixedPoint(TWO, ClassRule.RANDOM, 1, 0.45).responseTime();
        for (int c = 0; c < 2; c++) {
            double rate = TWO.speed(c) - 0.45;
            assertEquals(0.5, random.classShare(c), 1e-13);
            for (double t : new double[] {0.1, 1, 5, 20}) {
                assertEquals(Math.exp(-rate * t), random.ofClass(c).survival(t), 1e-12, "class " + c + ", t = " + t);
            }
            assertEquals(Math.log(100) / rate, random.ofClass(c).quantile(0.99), 1e-9);
        }
        for (ClassRule rule : new ClassRule[] {ClassRule.SHORTEST_QUEUE, ClassRule.SHORTEST_EXPECTED_DELAY}) {
            ClassFixedPoint fp = fixedPoint(THREE, rule, 2, 0.8);
            ClassResponseTime law = fp.responseTime();
            assertEquals(fp.meanResponseTime(), law.mean(), 1e-11, rule.id());
            for (int c = 0; c < 3; c++) {
                assertEquals(fp.meanResponseTime(c), law.ofClass(c).mean(), 1e-11, rule.id() + " class " + c);
                assertEquals(fp.arrivalShare(c), law.classShare(c), 1e-12);
            }
        }
    }

    @Test
    void equalSpeedsAreTheHomogeneousModelForSqdAndSed() {
        ServerClasses equal = ServerClasses.of(new double[] {0.4, 0.6}, new double[] {1, 1});
        for (ClassRule rule : new ClassRule[] {ClassRule.SHORTEST_QUEUE, ClassRule.SHORTEST_EXPECTED_DELAY}) {
            ClassFixedPoint fp = fixedPoint(equal, rule, 2, 0.9);
            for (int c = 0; c < 2; c++) {
                double[] u = fp.tail(c);
                for (int i = 0; i < u.length; i++) {
                    assertEquals(Math.pow(0.9, Math.pow(2, i) - 1), u[i], 1e-13, rule + " u_{" + c + "," + i + "}");
                }
            }
        }
        // all speeds c at load lambda: the homogeneous model at lambda / c (stable although lambda > 1)
        ServerClasses fast = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {2, 2});
        ClassFixedPoint fp = fixedPoint(fast, ClassRule.SHORTEST_QUEUE, 2, 1.8);
        assertEquals(fixedPoint(ServerClasses.homogeneous(), ClassRule.SHORTEST_QUEUE, 2, 0.9).meanQueueLength(),
                fp.meanQueueLength(), 1e-12);
    }

    @Test
    void throughputAndFluxIdentities() {
        for (ServerClasses classes : new ServerClasses[] {TWO, THREE}) {
            for (int d = 2; d <= 3; d++) {
                ClassFixedPoint fp = fixedPoint(classes, ClassRule.SHORTEST_QUEUE, d, 0.8);
                HeterogeneousModel m = fp.model();
                double[] y = fp.state();
                double previousLevel = 1; // S_0
                for (int i = 1; i <= m.levels(); i++) {
                    double flux = 0;
                    double level = 0;
                    for (int c = 0; c < classes.count(); c++) {
                        flux += classes.speed(c) * y[m.index(c, i)];
                        level += y[m.index(c, i)];
                    }
                    assertEquals(0.8 * Math.pow(previousLevel, d), flux, 1e-14, "flux identity at level " + i);
                    previousLevel = level;
                }
                double throughput = 0;
                for (int c = 0; c < classes.count(); c++) {
                    throughput += fp.arrivalShare(c);
                }
                assertEquals(1.0, throughput, 1e-13);
            }
        }
        ClassFixedPoint sed = fixedPoint(THREE, ClassRule.SHORTEST_EXPECTED_DELAY, 2, 0.8);
        double throughput = 0;
        for (int c = 0; c < 3; c++) {
            throughput += THREE.speed(c) * sed.state()[sed.model().index(c, 1)];
        }
        assertEquals(0.8, throughput, 1e-13);
    }

    @Test
    void stabilityBoundaryIsLambdaStar() {
        assertEquals(0.625, ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 2, false, 0.6).lambdaStar(), 1e-15);
        assertEquals(0.625, ClassStability.of(SKEWED, ClassRule.SHORTEST_EXPECTED_DELAY, 2, false, 0.6).lambdaStar(), 1e-15);
        assertEquals(0.78125, ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 3, false, 0.6).lambdaStar(), 1e-15);
        assertEquals(0.5, ClassStability.of(SKEWED, ClassRule.RANDOM, 1, false, 0.4).lambdaStar(), 1e-15);
        ClassStability three = ClassStability.of(THREE, ClassRule.SHORTEST_QUEUE, 2, false, 0.9);
        assertEquals(8.0 / 9, three.lambdaStar(), 1e-15);
        // rho = 0.9 < 1 and the slowest class alone is fine: a checker of either kind is wrong here
        assertFalse(three.stable());
        assertArrayEquals(new int[] {2, 3}, three.overloadedClasses());
        assertEquals(1.0, ClassStability.of(TWO, ClassRule.SHORTEST_QUEUE, 2, false, 0.9).lambdaStar(), 1e-15);
        // speed-weighted sampling: stable for every lambda < C
        assertEquals(SKEWED.capacity(), ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 2, true, 0.9).lambdaStar(), 1e-15);
        MflbException e = assertThrows(MflbException.class,
                () -> new HeterogeneousFluid(THREE, ClassRule.SHORTEST_QUEUE, 2, false, 0.9).fixedPoint());
        assertEquals(ErrorKind.UNSTABLE, e.kind());
        assertTrue(e.getMessage().contains("classes 2, 3 receive more than their capacity"), e.getMessage());
    }

    @Test
    void meanQueueDivergesLogarithmicallyAtLambdaStar() {
        // docs/models.md §10: a = (1/4, 1/4, 1/2), s = (2, 1, 0.5), SQ(2), lambda* = 8/9; the slow classes' bulk
        // moves up one level per factor ~3 of lambda* - lambda (values printed there to 4 significant digits)
        double[] distance = {0.03, 0.01, 0.003, 0.001};
        double[] expected = {6.878, 10.390, 14.159, 17.408};
        for (int j = 0; j < distance.length; j++) {
            ClassFixedPoint fp = fixedPoint(THREE, ClassRule.SHORTEST_QUEUE, 2, 8.0 / 9 - distance[j]);
            assertEquals(expected[j], fp.meanQueueLength(), 6e-4, "lambda* - lambda = " + distance[j]);
            assertTrue(fp.residual() < 1e-12, "residual " + fp.residual());
        }
    }

    @Test
    void growthRatesBeyondLambdaStar() {
        assertArrayEquals(new double[] {0, 0.06}, ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 2, false, 0.7).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.06}, ClassStability.of(SKEWED, ClassRule.SHORTEST_EXPECTED_DELAY, 2, false, 0.7).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.076}, ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 3, false, 0.9).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.004}, ClassStability.of(SKEWED, ClassRule.SHORTEST_QUEUE, 2, false, 0.63).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.0458333333333333, 0.0458333333333333},
                ClassStability.of(THREE, ClassRule.SHORTEST_QUEUE, 2, false, 0.95).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.06875, 0.034375},
                ClassStability.of(THREE, ClassRule.SHORTEST_EXPECTED_DELAY, 2, false, 0.95).growthRates(), 1e-14);
        assertArrayEquals(new double[] {0, 0.2}, ClassStability.of(TWO, ClassRule.RANDOM, 1, false, 0.7).growthRates(), 1e-14);
    }

    @Test
    void speedWeightedSamplingIsStableBelowCapacityAndHomogeneousForEqualSpeeds() {
        // beyond lambda* = 0.625 of uniform sampling, below C = 1
        HeterogeneousFluid weighted = new HeterogeneousFluid(SKEWED, ClassRule.SHORTEST_QUEUE, 2, true, 0.9);
        ClassFixedPoint fp = weighted.fixedPoint();
        double throughput = 0;
        for (int c = 0; c < 2; c++) {
            throughput += fp.arrivalShare(c);
        }
        assertEquals(1.0, throughput, 1e-12);
        assertTrue(fp.residual() < 1e-12);
        // and close to C, where uniform sampling is far beyond its lambda*
        ClassFixedPoint nearCapacity = new HeterogeneousFluid(SKEWED, ClassRule.SHORTEST_QUEUE, 2, true, 0.99).fixedPoint();
        assertTrue(nearCapacity.residual() < 1e-12 && Double.isFinite(nearCapacity.meanQueueLength()));
        // speed-weighted random routing: a class-k server receives lambda s_k / C, an M/M/1 queue of load lambda/C
        ClassFixedPoint random = new HeterogeneousFluid(SKEWED, ClassRule.RANDOM, 1, true, 0.9).fixedPoint();
        for (int c = 0; c < 2; c++) {
            assertEquals(0.9 / (1 - 0.9), random.meanQueueLength(c), 1e-11, "class " + c);
            assertEquals(1 / (SKEWED.speed(c) * (1 - 0.9)), random.meanResponseTime(c), 1e-10, "M/M/1 response, class " + c);
        }
        ServerClasses equal = ServerClasses.of(new double[] {0.3, 0.7}, new double[] {1, 1});
        for (ClassRule rule : ClassRule.values()) {
            int d = rule == ClassRule.RANDOM ? 1 : 2;
            assertEquals(fixedPoint(equal, rule, d, 0.85).meanQueueLength(),
                    new HeterogeneousFluid(equal, rule, d, true, 0.85).fixedPoint().meanQueueLength(), 1e-12, rule.id());
        }
    }

    @Test
    void sedTiesAcrossClassesSplitUniformly() {
        // (2+1)/1.5 = (0+1)/0.5 = 2: one bucket; a division-based order would split it by rounding
        assertEquals(0, TWO.compareValues(0, 2, 1, 0));
        ServerClasses decimal = ServerClasses.of(new double[] {0.5, 0.5}, new double[] {0.3, 0.9});
        assertEquals(0, decimal.compareValues(1, 2, 0, 0)); // 3/0.9 = 1/0.3 exactly, not in binary division
    }

    @Test
    void refinedFirstOrderCoefficients() {
        assertEquals(9.221321, v(TWO, ClassRule.SHORTEST_QUEUE, 2, 0.9), 5e-6);
        assertEquals(1.818854, v(TWO, ClassRule.SHORTEST_QUEUE, 2, 0.7), 5e-6);
        assertEquals(7.406687, v(TWO, ClassRule.SHORTEST_EXPECTED_DELAY, 2, 0.9), 5e-6);
        assertEquals(5.20836, v(TWO, ClassRule.SHORTEST_QUEUE, 3, 0.9), 5e-5);
        assertEquals(11.424261, v(SKEWED, ClassRule.SHORTEST_QUEUE, 2, 0.6), 5e-6);
        assertEquals(6.501327, v(THREE, ClassRule.SHORTEST_QUEUE, 3, 0.9), 5e-6);
        // equal speeds split into classes: the homogeneous SQ(2) coefficient
        assertEquals(3.986426987176, v(ServerClasses.of(new double[] {0.4, 0.6}, new double[] {1, 1}),
                ClassRule.SHORTEST_QUEUE, 2, 0.9), 1e-10);
        assertEquals(0.0, v(TWO, ClassRule.RANDOM, 1, 0.4), 1e-10);
    }

    private static double v(ServerClasses classes, ClassRule rule, int d, double lambda) {
        SteadyStateExpansion e = new HeterogeneousFluid(classes, rule, d, false, lambda).refined(1);
        double sum = 0;
        for (double vi : e.firstOrderTerm()) {
            sum += vi;
        }
        return sum;
    }
}
