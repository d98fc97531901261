package org.mflb.validation;

/**
 * One entry of the validation catalogue: a model's prediction and the simulated truth on the same
 * scenario, compared against a stated tolerance.
 */
public interface ValidationScenario {

    /** @return short identifier (letters, digits, dashes), also the figure's file name */
    String id();

    /** @return one-line title for the report */
    String title();

    /**
     * Runs the scenario.
     *
     * @param context where to write figures, the effort level, the seed
     * @return what was found
     */
    ScenarioOutcome run(ValidationContext context);

    /**
     * @param id short identifier
     * @param title one-line title
     * @param body what the scenario does
     * @return a scenario of the given identity running {@code body}
     */
    static ValidationScenario of(String id, String title,
            java.util.function.Function<ValidationContext, ScenarioOutcome> body) {
        return new ValidationScenario() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public String title() {
                return title;
            }

            @Override
            public ScenarioOutcome run(ValidationContext context) {
                return body.apply(context);
            }
        };
    }
}
