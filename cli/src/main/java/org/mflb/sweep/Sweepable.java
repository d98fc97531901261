package org.mflb.sweep;

/**
 * Implemented by the picocli converter of an option whose values are neither numbers nor names of
 * an enum type, to tell a sweep how a list of them is written ({@code --service exp,lognormal:scv=4}:
 * {@link SweepValues.Kind#LAW}). {@link SweepGrid} reads the kind of the other options from their type.
 */
public interface Sweepable {

    /** @return what the option's values are */
    SweepValues.Kind sweepKind();
}
