package org.mflb.core.modelfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;
import org.mflb.core.refined.RefinedMeanField;

/** Every error of the format's list names file, line, column and what was expected, on one line. */
class ModelFileErrorsTest {

    private static final String SIR_HEAD = "param a = 1\nvar S, I, R\n";

    private static MflbException error(String source, Map<String, Double> overrides) {
        MflbException e = assertThrows(MflbException.class, () -> ModelFile.parse("m.model", source, overrides));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e;
    }

    private static MflbException error(String source) {
        return error(source, Map.of());
    }

    @Test
    void undeclaredName() {
        MflbException e = error(SIR_HEAD + "S -> I ; a*S*Q\n");
        assertEquals(ErrorKind.INPUT, e.kind());
        assertEquals("m.model:3:14: undeclared name 'Q' (expected a parameter, variable, constant, let or loop index"
                + " declared before this line)", e.getMessage());
    }

    @Test
    void indexOutsideItsFamily() {
        MflbException e = error("param K = 3\nvar x[1..K]\nfor i in 1..K:  -> x[i] ; x[i-1]\n");
        assertEquals("m.model:3:27: index 0 is outside the family x[1..3] (expected an index in 1..3)", e.getMessage());
        e = error("param K = 3\nvar x[1..K]\ninit x[4] = 1\n");
        assertEquals("m.model:3:6: index 4 is outside the family x[1..3] (expected an index in 1..3)", e.getMessage());
    }

    @Test
    void nonIntegerBound() {
        MflbException e = error("param K = 3\nvar x[1..K/2]\n");
        assertEquals("m.model:2:10: upper bound of x is 1.5, not an integer (expected an integer expression of"
                + " parameters)", e.getMessage());
        e = error("param K = 3\nvar x[1..K]\nfor i in 1..K:  -> x[i] ; 1\n", Map.of("K", 2.5));
        assertTrue(e.getMessage().startsWith("m.model:2:10: upper bound of x is 2.5, not an integer"), e.getMessage());
    }

    @Test
    void negativeOrNonFiniteRate() {
        MflbException e = error(SIR_HEAD + "S -> I ; a*S - I\ninit S = 0.1, I = 0.9\n");
        assertEquals("m.model:3:1: the rate of S -> I is negative (-0.8) at the initial state (S = 0.1, I = 0.9)"
                + " (expected a finite, non-negative rate)", e.getMessage());
        e = error(SIR_HEAD + "S -> I ; log(S)\ninit I = 1\n");
        assertTrue(e.getMessage().startsWith("m.model:3:1: the rate of S -> I is infinite"), e.getMessage());
        ModelFile ok = ModelFile.parse("m.model", SIR_HEAD + "S -> I ; S - I\ninit S = 1\n", Map.of());
        e = assertThrows(MflbException.class, () -> ok.checkRates(new double[] {0.2, 0.5, 0.3}, "the fixed point"));
        assertEquals("m.model:3:1: the rate of S -> I is negative (-0.3) at the fixed point (S = 0.2, I = 0.5)"
                + " (expected a finite, non-negative rate)", e.getMessage());
    }

    @Test
    void duplicateName() {
        MflbException e = error("param a = 1\nvar S, a\n");
        assertEquals("m.model:2:8: duplicate name 'a' (already declared at m.model:1:7) (expected a new name)",
                e.getMessage());
        e = error("param K = 2\nvar x[1..K]\nconst x[2] = 0\n");
        assertEquals("m.model:3:7: duplicate name x[2]: it is a variable (expected an index outside x[1..2])",
                e.getMessage());
        e = error(SIR_HEAD + "init S = 1, S = 0\n");
        assertEquals("m.model:3:13: duplicate initial value for S (expected each coordinate set once)", e.getMessage());
    }

    @Test
    void overrideOfAnUnknownParameter() {
        MflbException e = error(SIR_HEAD + "S -> I ; a*S\ninit S = 1\n", Map.of("b", 2.0));
        assertEquals(ErrorKind.INVALID_PARAMETER, e.kind());
        assertEquals("m.model: param b=2: unknown parameter 'b' (expected one of a)", e.getMessage());
    }

    @Test
    void syntaxErrors() {
        assertEquals("m.model:3:7: unexpected 'R' (expected '->' between the left and right sides of a transition)",
                error(SIR_HEAD + "S + I R -> R ; 1\n").getMessage());
        assertEquals("m.model:1:6: unexpected 'a' (expected a statement (model, param, var, const, let, init, for) or a"
                + " transition LEFT -> RIGHT ; RATE)", error("parm a = 1\n").getMessage());
        assertEquals("m.model:3:7: unexpected end of line (expected ';' and the transition's rate)",
                error(SIR_HEAD + "S -> I\n").getMessage());
        assertEquals("m.model:3:10: unknown function 'sin' (expected one of exp, log, sqrt, abs, min, max, pow, sum)",
                error(SIR_HEAD + "S -> I ; sin(S)\n").getMessage());
        assertEquals("m.model:1:11: unexpected character '$' (expected a name, a number, an operator or a comment)",
                error("param a = $\n").getMessage());
        assertEquals("m.model:2:3: multiplicity 1.5 is not a positive integer (expected a positive integer such as 2"
                + " in '2 X')", error("var S\n  1.5 S -> ; 1\n").getMessage());
    }

    @Test
    void derivativeAtAKinkIsReportedWhenRequested() {
        ModelFile m = ModelFile.parse("m.model", "var S, I\nS -> I ; min(S, 0.5)\nI -> S ; I\ninit S = 1\n", Map.of());
        // At the fixed point S = I = 0.5 the rate of S -> I sits on the kink of min.
        MflbException e = assertThrows(MflbException.class,
                () -> new RefinedMeanField(1).steadyState(m.model(), new double[] {0.5, 0.5}));
        assertEquals("m.model:2:10: min is not differentiable here: its arguments are equal (0.5), and the analysis"
                + " needs its derivatives (expected a state away from the kink, or a smooth rate)", e.getMessage());
    }

    @Test
    void theFormatsGrammar() {
        // Continuation lines, comments, multiplicities, conditions with and/or/not, right-associative ^
        // and -x^2 = -(x^2), const names that contribute nothing, indexed lets.
        ModelFile m = ModelFile.parse("g.model", String.join("\n",
                "# comment", "model \"grammar\"", "param n = 3, q = 2^3^0 - -1^2  # 2^(3^0) - (-(1^2)) = 3",
                "var y[1..n], z", "const src = 1", "let w[i in 1..n] = i*z", "",
                "for i in 1..n, j in 1..n, i < j and not (j == 3 or i == 2):  2 y[i] + src -> \\",
                "    y[j] ; w[i] * y[i] + q", "z -> y[1] ; z", "init y[1] = 0.5, z = 0.5"), Map.of());
        assertEquals("grammar", m.name());
        assertEquals(java.util.List.of("y[1]", "y[2]", "y[3]", "z"), m.names());
        assertEquals(Map.of("n", 3.0, "q", 3.0), m.parameters());
        assertEquals(2, m.transitionCount()); // (1,2) only, and z -> y[1]
        assertEquals("2 y[1] + src -> y[2]", m.label(0));
        assertEquals(java.util.List.of(-2, 1), java.util.Arrays.stream(m.jumpChanges(0)).boxed().toList());
        double[] x = {0.5, 0, 0, 0.5};
        assertEquals(1 * 0.5 * 0.5 + 3, m.rates().evaluate(0, x, new double[m.rates().stackDepth()]), 1e-15);
    }

    /** Definitions in terms of themselves: one line at the reference, never a stack overflow or a null. */
    @Test
    void circularDefinitionsAreNamed() {
        assertEquals("m.model:2:9: 'a' is defined in terms of itself (expected a definition that uses only names"
                + " defined before it)", error("var A, B\nlet a = a + 1\nA -> B ; A\n").getMessage());
        assertEquals("m.model:1:11: 'p' is defined in terms of itself (expected a definition that uses only names"
                + " defined before it)", error("param p = p + 1\nvar A, B\nA -> B ; A\n").getMessage());
        assertTrue(error("var x[1..x]\n").getMessage().startsWith("m.model:1:10: 'x' is defined in terms of itself"));
        assertTrue(error("var A, B\nlet a = b + 1\nlet b = a\nA -> B ; a*A\n").getMessage()
                .startsWith("m.model:3:9: 'a' is defined in terms of itself (through b)"));
    }

    /** Long chains are read and evaluated by loops; nesting beyond the stated limit is refused at its place. */
    @Test
    void longChainsParseAndDeepNestingIsRefused() {
        int terms = 200_000;
        String sum = String.join(" + ", java.util.Collections.nCopies(terms, "A"));
        ModelFile m = ModelFile.parse("m.model", "var A, B\nA -> B ; " + sum + "\nB -> A ; B\ninit A = 1\n", Map.of());
        double[] x = {0.25, 0.75};
        assertEquals(terms * 0.25, m.rates().evaluate(0, x, new double[m.rates().stackDepth()]), 0.0);
        assertEquals(terms * 0.25, m.expression(0).evaluate(x), 0.0);
        String minus = String.join(" - ", java.util.Collections.nCopies(terms, "A"));
        ModelFile d = ModelFile.parse("m.model", "var A, B\nA -> B ; 1e6 + " + minus + "\nB -> A ; B\n", Map.of());
        assertEquals(1e6 + 0.25 - (terms - 1) * 0.25, d.rates().evaluate(0, x, new double[d.rates().stackDepth()]), 1e-6);
        // a sum of 200 000 terms is a left-deep tree as deep: compiled without recursion
        ModelFile s = ModelFile.parse("m.model", "var A, B\nA -> B ; sum(k in 1..200000, A/200000)\nB -> A ; B\n",
                Map.of());
        assertEquals(0.25, s.rates().evaluate(0, x, new double[s.rates().stackDepth()]), 1e-12);

        int limit = Parser.MAX_NESTING;
        String ok = "(".repeat(limit) + "A" + ")".repeat(limit);
        ModelFile.parse("m.model", "var A, B\nA -> B ; " + ok + "\n", Map.of());
        String deep = "(".repeat(20_000) + "A" + ")".repeat(20_000);
        assertEquals("m.model:2:" + (9 + limit + 1) + ": expression nested deeper than " + limit + " levels (expected at"
                + " most " + limit + " nested parentheses, function calls, indices, signs and powers)",
                error("var A, B\nA -> B ; " + deep + "\n").getMessage());
        assertTrue(error("var A, B\nA -> B ; " + "-".repeat(20_000) + "A\n").getMessage()
                .contains("nested deeper than " + limit));
        assertTrue(error("var A, B\nA -> B ; A" + "^A".repeat(20_000) + "\n").getMessage()
                .contains("nested deeper than " + limit));
        assertTrue(error("var A, B\nfor i in 1..2, " + "not ".repeat(20_000) + "i == 1: A -> B ; A\n").getMessage()
                .contains("nested deeper than " + limit));
        // lets built on lets: scalar lets are expanded once each (any chain); families through families are bounded
        StringBuilder chain = new StringBuilder("var A, B\nlet l0 = A\n");
        for (int i = 1; i <= 3000; i++) {
            chain.append("let l").append(i).append(" = 1 * (l").append(i - 1).append(")\n");
        }
        ModelFile scalars = ModelFile.parse("m.model", chain + "A -> B ; l3000\n", Map.of());
        assertEquals(0.25, scalars.rates().evaluate(0, x, new double[scalars.rates().stackDepth()]), 0.0);
        StringBuilder families = new StringBuilder("var A, B\nlet f0[i in 1..1] = A\n");
        for (int i = 1; i <= 3000; i++) {
            families.append("let f").append(i).append("[i in 1..1] = 1 * (f").append(i - 1).append("[i])\n");
        }
        assertTrue(error(families + "A -> B ; f3000[1]\n").getMessage()
                .contains("nested deeper than " + Loader.MAX_EXPANSION_DEPTH), "let families");
    }

    /** Files that are not model files: one line saying what they are. */
    @Test
    void directoriesAndBinaryFilesAreNamed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        MflbException e = assertThrows(MflbException.class, () -> ShippedModels.load(dir.toString(), Map.of()));
        assertEquals("cannot read model file " + dir + ": it is a directory (expected a model file)", e.getMessage());
        java.nio.file.Path binary = java.nio.file.Files.write(dir.resolve("b.model"), new byte[] {(byte) 0xCA, (byte) 0xFE,
            (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 61});
        e = assertThrows(MflbException.class, () -> ShippedModels.load(binary.toString(), Map.of()));
        assertTrue(e.getMessage().endsWith("it is not a UTF-8 text model file (it has bytes that are not UTF-8, as"
                + " binary files do)"), e.getMessage());
        java.nio.file.Path nul = java.nio.file.Files.write(dir.resolve("n.model"), new byte[] {'v', 'a', 'r', 0});
        e = assertThrows(MflbException.class, () -> ShippedModels.load(nul.toString(), Map.of()));
        assertTrue(e.getMessage().contains("NUL characters"), e.getMessage());
        java.nio.file.Path bom = java.nio.file.Files.writeString(dir.resolve("bom.model"),
                "\uFEFFvar A, B\nA -> B ; A\ninit A = 1\n");
        assertEquals(2, ShippedModels.load(bom.toString(), Map.of()).dimension());
    }
}
