package org.mflb.core.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class ServiceDistributionsTest {

    @Test
    void commandLineSyntaxRoundTrips() {
        String[] specs = {"exp", "det", "erlang:k=2", "gamma:scv=0.5", "h2:scv=4", "lognormal:scv=4",
            "weibull:shape=0.5", "pareto:shape=2.5", "exp:mean=2", "erlang:k=3,mean=0.5", "det:mean=1.5",
            "gamma:scv=0.1,mean=3", "ph:alpha=[1,0],T=[[-2,2],[0,-2]]", "ph:alpha=[0.25,0.75],T=[[-1.5,0.5],[0,-0.5]],mean=1.8333333333333333"};
        for (String s : specs) {
            ServiceDistribution d = ServiceDistributions.parse(s);
            assertEquals(s, d.spec());
            assertEquals(d, ServiceDistributions.parse(d.spec()));
        }
    }

    @Test
    void phaseTypeLawsHaveMeanOneUnlessTheirMeanIsGiven() {
        // PH(α, T) with E[S] = 1.8333…: the syntax rescales T to mean 1, as for every other law
        ServiceDistribution ph = ServiceDistributions.parse("ph:alpha=[0.25,0.75],T=[[-1.5,0.5],[0,-0.5]]");
        assertEquals(1.0, ph.mean(), 1e-14);
        assertEquals(2.0, ServiceDistributions.parse("ph:alpha=[0.25,0.75],T=[[-1.5,0.5],[0,-0.5]],mean=2").mean(), 1e-14);
    }

    @Test
    void parsesEachLawWithItsParameters() {
        assertEquals(Exponential.unit(), ServiceDistributions.parse("exp"));
        assertEquals(Exponential.ofMean(0.5), ServiceDistributions.parse("exp:rate=2"));
        assertEquals(Deterministic.unit(), ServiceDistributions.parse("det"));
        assertEquals(Erlang.of(2), ServiceDistributions.parse("erlang:k=2"));
        assertEquals(Gamma.ofScv(0.5), ServiceDistributions.parse("gamma:scv=0.5"));
        assertEquals(HyperExponential.balancedMeans(4), ServiceDistributions.parse("h2:scv=4"));
        assertEquals(LogNormal.ofScv(4), ServiceDistributions.parse("lognormal:scv=4"));
        assertEquals(Weibull.ofShape(0.5), ServiceDistributions.parse("weibull:shape=0.5"));
        assertEquals(Pareto.ofShape(2.5), ServiceDistributions.parse("pareto:shape=2.5"));
        assertEquals(Erlang.of(3, 2.0), ServiceDistributions.parse(" erlang: k = 3 , mean = 2 "));
        assertEquals(Erlang.of(2), ServiceDistributions.parse("erlang:k=2.0"));
        PhaseType ph = (PhaseType) ServiceDistributions.parse("ph:alpha=[1,0],T=[[-2,2],[0,-2]],mean=2");
        assertEquals(2.0, ph.mean(), 1e-15);
        assertEquals(-1.0, ph.subGenerator()[0][0], 1e-15);
        assertInstanceOf(Erlang.class, ServiceDistributions.parse("erlang:k=4"));
    }

    @Test
    void badInputNamesTheParameterAndItsRange() {
        MflbException e = invalid("pareto:shape=1.0", "pareto shape");
        assertEquals("pareto shape = 1.0 is invalid: must be > 1 (mean must be finite)", e.getMessage());
        invalid("pareto:shape=0.5", "pareto shape");
        assertTrue(invalid("gamma:scv=-1", "gamma scv").getMessage().contains("> 0"));
        assertTrue(invalid("lognormal:scv=-4", "lognormal scv").getMessage().contains("> 0"));
        assertTrue(invalid("h2:scv=0.5", "h2 scv").getMessage().contains(">= 1"));
        assertTrue(invalid("erlang:k=0", "erlang k").getMessage().contains("integer >= 1"));
        assertTrue(invalid("erlang:k=2.5", "erlang k").getMessage().contains("integer >= 1"));
        invalid("weibull:shape=0", "weibull shape");
        invalid("weibull:shape=NaN", "weibull shape");
        invalid("gamma:scv=Infinity", "gamma scv");
        invalid("exp:mean=-1", "exp mean");
        invalid("exp:rate=0", "exp rate");
        invalid("det:mean=0", "det mean");
        invalid("lognormal:scv=4,mean=0", "lognormal mean");
        assertTrue(invalid("gamma:scv=abc", "gamma scv").getMessage().contains("a number"));
        assertTrue(invalid("gamma:scv=1d", "gamma scv").getMessage().contains("a number"));
        // unknown law: the message lists the valid ones
        MflbException unknown = invalid("normal:scv=1", "service");
        for (String name : ServiceDistributions.names()) {
            assertTrue(unknown.getMessage().contains(name), unknown.getMessage());
        }
        invalid("", "service");
        invalid("erlang:", "service");
        assertTrue(invalid("erlang:n=2", "erlang n").getMessage().contains("valid are k, mean"));
        assertTrue(invalid("gamma", "gamma scv").getMessage().contains("needs parameter scv"));
        invalid("erlang:k=2,k=3", "erlang k");
        invalid("erlang:k", "erlang");
        invalid("exp:rate=2,mean=0.5", "exp rate");
        invalid("ph:alpha=[1],T=[[1]]", "ph T[0][0]");
        invalid("ph:alpha=1,T=[[-1]]", "ph alpha");
        invalid("ph:alpha=[],T=[[-1]]", "ph alpha");
        invalid("ph:alpha=[1],T=[[-x]]", "ph T[0][0]");
    }

    private static MflbException invalid(String spec, String parameter) {
        MflbException e = assertThrows(MflbException.class, () -> ServiceDistributions.parse(spec), spec);
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind(), spec);
        assertEquals(parameter, e.parameter(), spec + ": " + e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one-line message");
        return e;
    }

    @Test
    void numbersPrintInTheirShortestExactForm() {
        assertEquals("4", ServiceDistributions.format(4.0));
        assertEquals("0.5", ServiceDistributions.format(0.5));
        assertEquals("-2", ServiceDistributions.format(-2.0));
        assertEquals(0.1 + 0.2, Double.parseDouble(ServiceDistributions.format(0.1 + 0.2)));
        assertEquals(1e20, Double.parseDouble(ServiceDistributions.format(1e20)));
    }
}
