package org.mflb.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.mflb.core.MflbException;
import org.mflb.simulation.engine.ReplicationStreams;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The grid read from a command's own option model: numeric options, names, laws and --param NAME=VALUE. */
class SweepGridTest {

    /** Names of an enum type. */
    enum Shape { round, square }

    /** A converter that tells the sweep its option takes service laws. */
    static final class Laws implements CommandLine.ITypeConverter<String>, Sweepable {
        @Override
        public String convert(String value) {
            return value;
        }

        @Override
        public SweepValues.Kind sweepKind() {
            return SweepValues.Kind.LAW;
        }
    }

    /** A command with the kinds of options a sweep meets: numbers, text, a flag, a list, KEY=VALUE pairs. */
    @Command(name = "simulate")
    static final class Model {
        @Option(names = "--lambda") Double lambda;
        @Option(names = "--n") int n;
        @Option(names = "--init") String init;
        @Option(names = "--refined", split = ",") int[] sizes;
        @Option(names = "--quick") boolean quick;
        @Option(names = "--param") Map<String, String> params;
        @Option(names = "--seed", defaultValue = "1") long seed;
        @Option(names = "--format") String format;
        @Option(names = "--shape") Shape shape;
        @Option(names = "--service", converter = Laws.class) String service;
    }

    private static CommandSpec spec() {
        return new CommandLine(new Model()).getCommandSpec();
    }

    @Test
    void numericOptionsAndParametersAreSweptInNestedLoopOrder() {
        SweepGrid grid = SweepGrid.of("simulate", List.of("--model", "bike.mflb", "--param", "s=5:9:1", "--n=10,20",
                "--init", "tail:1,0.5", "--refined", "10,100", "--quick", "--param", "K=10"), spec());
        assertEquals(List.of("s", "n"), grid.columns());
        assertEquals(10, grid.size());
        SweepPoint p = grid.point(3); // s = 6, n = 20: the first swept option varies slowest
        assertEquals(Map.of("s", "6", "n", "20"), p.params());
        assertEquals(List.of("simulate", "--model", "bike.mflb", "--param", "s=6", "--n=20", "--init", "tail:1,0.5",
                "--refined", "10,100", "--quick", "--param", "K=10",
                "--seed", Long.toString(ReplicationStreams.pointSeed(1, 3)), "--format", "json"), p.args());
    }

    @Test
    void namesOfAnEnumAndLawsAreSweptTextIsNot() {
        SweepGrid grid = SweepGrid.of("simulate", List.of("--shape", "round,square", "--init", "tail:1,0.5",
                "--service=exp,lognormal:scv=4,mean=2", "--lambda", "0.5"), spec());
        assertEquals(List.of("shape", "service"), grid.columns());
        assertEquals(4, grid.size());
        assertEquals(Map.of("shape", "square", "service", "lognormal:scv=4,mean=2"), grid.point(3).params());
        assertEquals(List.of("simulate", "--shape", "square", "--init", "tail:1,0.5", "--service=lognormal:scv=4,mean=2",
                "--lambda", "0.5", "--seed", Long.toString(ReplicationStreams.pointSeed(1, 3)), "--format", "json"),
                grid.point(3).args());
        assertEquals(1, SweepGrid.of("simulate", List.of("--service", "lognormal:scv=4,mean=2"), spec()).size());
    }

    @Test
    void theGivenSeedIsTheBaseOfThePointSeeds() {
        SweepGrid grid = SweepGrid.of("simulate", List.of("--seed", "42", "--lambda", "0.5,0.6"), spec());
        assertEquals(List.of("simulate", "--seed", Long.toString(ReplicationStreams.pointSeed(42, 1)), "--lambda", "0.6",
                "--format", "json"), grid.point(1).args());
        MflbException e = assertThrows(MflbException.class,
                () -> SweepGrid.of("simulate", List.of("--seed", "x", "--lambda", "0.5,0.6"), spec()).points());
        assertEquals("seed = x is invalid: must be an integer", e.getMessage());
    }

    @Test
    void unsweepableCommandsAndHugeGridsAreRefused() {
        assertTrue(assertThrows(MflbException.class, () -> SweepGrid.of("validate", List.of(), spec()))
                .getMessage().startsWith("COMMAND = validate is invalid"));
        MflbException e = assertThrows(MflbException.class, () -> SweepGrid.of("simulate",
                List.of("--lambda", "0:1:0.0001", "--n", "1:100:1"), spec()));
        assertTrue(e.getMessage().startsWith("the grid has more than 100000 points (10001 lambda x 100 n)"), e.getMessage());
    }
}
