/**
 * The validation catalogue, the main job of mflb ({@code mflb validate}): every model mflb computes,
 * against the simulated system, with a stated tolerance. The {@link Catalogue} lists the
 * {@link ValidationScenario}s (quick and full sizes); each puts a model's predictions next to the
 * simulator's estimates as {@link Check}s (predicted, simulated, 95% interval, tolerance, typically a few
 * half-widths plus the model's known finite-{@code N} bias) and returns a {@link ScenarioOutcome};
 * {@link Validation} runs them and {@link ReportWriter} writes {@code report.md} and {@code summary.json}.
 * The scenarios cover SQ(d) and random routing in queues, pools and loss pools (docs/models.md §1–2, with
 * {@link ClosedForms} such as Erlang-B), the non-smooth and threshold policies (§3, [GABL]), SQ(d) with
 * memory (§1a, [AD]), the refined mean field and the linear-noise covariance (§4, [GVH, GBT]), the
 * diffusion limits of the threshold policy and JSQ ({@link ThresholdDiffusion}, {@link ReflectedLimit};
 * §4), the hydrodynamic PDE (§5, [AR]), response-time laws (§7), loss pools' blocking and fluctuations
 * (§8, [VM]), JSQ in the Halfin–Whitt regime ({@link HalfinWhittStudy}, with an independent Euler
 * simulation of the reflected diffusion, {@link HalfinWhittEuler}; §9, [EG, Bra]) and model files
 * ({@link ModelFileScenarios}). {@link SimulationOf} builds the simulated counterpart of a fluid model:
 * only parameters cross over, the simulator never sees a model's rates.
 *
 * <p><b>Dependencies:</b> solver-core, fluid-models, pde-models and the simulator, Jackson (for
 * {@code summary.json}) and {@code org.mflb.validation.plot}: this is where the models and the simulator
 * meet. It must not depend on the command line ({@code org.mflb.cli}) or the sweeps
 * ({@code org.mflb.sweep}), which are built on it: the catalogue is a Java API, and none of its messages
 * names a command-line flag.
 */
package org.mflb.validation;
