package org.mflb.core.refined;

import java.util.List;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/** Hides every capability of a model but its plain rates, to exercise the finite-difference path. */
final class PlainModel implements PopulationModel {

    private final PopulationModel delegate;

    PlainModel(PopulationModel delegate) {
        this.delegate = delegate;
    }

    @Override
    public int getDimension() {
        return delegate.getDimension();
    }

    @Override
    public List<Transition> transitions() {
        return delegate.transitions();
    }

    @Override
    public void rates(double t, double[] x, double[] beta) {
        delegate.rates(t, x, beta);
    }

    @Override
    public ArrivalRate arrivalRate() {
        return delegate.arrivalRate();
    }
}
