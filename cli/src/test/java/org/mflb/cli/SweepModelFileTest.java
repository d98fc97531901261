package org.mflb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** A sweep over a model file's parameter: {@code --param s=5:9:1} on the shipped bike-sharing model. */
class SweepModelFileTest {

    /**
     * The bike-sharing fixed point is in detailed balance, λ x_i = μ r x_{i−1} with r = s − Σ i x_i
     * the bikes being ridden: x_i ∝ ρ^i with ρ = μ r / λ, so every ratio x_i / x_{i−1} is ρ and the
     * bikes are conserved, ρ λ/μ + Σ i x_i = s (λ = μ = 1, K = 10), for each swept s.
     */
    @Test
    void bikeSharingOverTheBikesPerStation() throws Exception {
        CliTest.Run r = CliTest.run("sweep", "fixed-point", "--model", "bike-sharing", "--param", "s=5:9:1",
                "--format", "json", "--quiet");
        assertEquals(0, r.code(), r.err());
        JsonNode points = new ObjectMapper().readTree(r.out()).get("points");
        assertEquals(5, points.size());
        for (int p = 0; p < 5; p++) {
            int s = 5 + p;
            assertEquals(s, points.get(p).get("params").get("s").asInt());
            JsonNode x = points.get(p).get("result").get("state");
            assertEquals(s, points.get(p).get("result").get("parameters").get("s").asDouble(), 0.0);
            double rho = x.get(1).asDouble() / x.get(0).asDouble();
            double mass = 0;
            double bikes = 0;
            for (int i = 0; i < x.size(); i++) {
                mass += x.get(i).asDouble();
                bikes += i * x.get(i).asDouble();
                if (i > 0) {
                    assertEquals(rho, x.get(i).asDouble() / x.get(i - 1).asDouble(), 1e-10, "s = " + s + ", i = " + i);
                }
            }
            assertEquals(1, mass, 1e-12);
            assertEquals(s, rho + bikes, 1e-10, "bikes conserved, s = " + s);
        }
    }
}
