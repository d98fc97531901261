package org.mflb.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

class ArrivalProfilesTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void readsHeaderCommentsAndBlankLines() throws IOException {
        Path p = write("peak.csv", "# morning peak\n\nt,lambda\n0,0.5   # start\n 10 , 0.95\n\n20,0.5\n");
        PiecewiseLinearRate r = ArrivalProfiles.read(p);
        assertArrayEquals(new double[] {0, 10, 20}, r.times());
        assertArrayEquals(new double[] {0.5, 0.95, 0.5}, r.rates());
        assertEquals(0.725, r.at(5), 1e-15);
        // no header, CRLF line ends
        PiecewiseLinearRate r2 = ArrivalProfiles.read(write("plain.csv", "0,1\r\n1e1,2.5\r\n"));
        assertEquals(2.5, r2.at(100));
    }

    @Test
    void errorsNameTheFileAndLine() throws IOException {
        assertError(ErrorKind.INPUT, "bad.csv line 3", write("bad.csv", "t,lambda\n0,1\n5;2\n"));
        assertError(ErrorKind.INPUT, "bad2.csv line 2", write("bad2.csv", "0,1\nfive,2\n"));
        assertError(ErrorKind.INPUT, "bad3.csv line 1", write("bad3.csv", "0,1,2\n"));
        assertError(ErrorKind.INVALID_PARAMETER, "neg.csv line 2", write("neg.csv", "0,1\n1,-0.5\n"));
        assertError(ErrorKind.INVALID_PARAMETER, "nan.csv line 1", write("nan.csv", "0,NaN\n"));
        assertError(ErrorKind.INVALID_PARAMETER, "inf.csv line 2", write("inf.csv", "0,1\n1,Infinity\n"));
        assertError(ErrorKind.INVALID_PARAMETER, "dup.csv line 3", write("dup.csv", "t,l\n1,1\n1,2\n"));
        assertError(ErrorKind.INVALID_PARAMETER, "unsorted.csv line 3", write("unsorted.csv", "0,1\n5,1\n4,1\n"));
        assertError(ErrorKind.INPUT, "empty.csv", write("empty.csv", "# nothing\n\nt,lambda\n"));
        assertError(ErrorKind.INPUT, "missing.csv", dir.resolve("missing.csv"));
    }

    private static void assertError(ErrorKind kind, String where, Path p) {
        MflbException e = assertThrows(MflbException.class, () -> ArrivalProfiles.read(p));
        assertEquals(kind, e.kind(), e.getMessage());
        assertTrue(e.getMessage().contains(where), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }
}
