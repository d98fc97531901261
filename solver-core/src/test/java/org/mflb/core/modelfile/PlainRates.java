package org.mflb.core.modelfile;

import java.util.List;

import org.mflb.core.model.ArrivalRate;
import org.mflb.core.model.PopulationModel;
import org.mflb.core.model.Transition;

/** A model seen through its plain rates only, so that derivative sources cannot use its exact derivatives. */
final class PlainRates implements PopulationModel {

    private final PopulationModel model;

    PlainRates(PopulationModel model) {
        this.model = model;
    }

    @Override
    public int getDimension() {
        return model.getDimension();
    }

    @Override
    public List<Transition> transitions() {
        return model.transitions();
    }

    @Override
    public void rates(double t, double[] x, double[] beta) {
        model.rates(t, x, beta);
    }

    @Override
    public ArrivalRate arrivalRate() {
        return model.arrivalRate();
    }
}
