package org.mflb.core.modelfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.mflb.core.ErrorKind;
import org.mflb.core.MflbException;

/**
 * The example model files shipped with mflb, found by name ({@code --model sir}), and the lookup
 * that turns a {@code --model FILE|NAME} argument into a {@link ModelFile}.
 */
public final class ShippedModels {

    /**
     * One shipped model.
     *
     * @param name the name {@code --model} accepts
     * @param description one line on what it is
     */
    public record Entry(String name, String description) {
        /** @return the file's text */
        public String source() {
            String resource = "models/" + name + ".model";
            try (InputStream in = ShippedModels.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("missing resource " + resource);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read resource " + resource, e);
            }
        }
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry("sir", "SIR epidemic with reinfection (rmf_tool's BasicExample_SIR)"),
            new Entry("sqd", "SQ(d) supermarket model, single-server queues, tails truncated at K"),
            new Entry("cache", "RANDOM cache replacement, n items of Zipf(alpha) popularity, cache of M items"),
            new Entry("bike-sharing", "homogeneous bike-sharing system, stations of capacity K, s bikes per station"),
            new Entry("seirs", "SEIRS epidemic with waning immunity and infection from outside"),
            new Entry("sqd-pools", "power-of-d routing over loss servers with C slots each"));

    private ShippedModels() {
    }

    /** @return the shipped models, in a fixed order */
    public static List<Entry> list() {
        return ENTRIES;
    }

    /**
     * Loads {@code fileOrName}: a model file if such a file exists, else the shipped model of that name.
     *
     * @param fileOrName a path or a shipped model's name
     * @param overrides parameter overrides
     * @return the model
     */
    public static ModelFile load(String fileOrName, Map<String, Double> overrides) {
        Path path = Path.of(fileOrName);
        boolean shipped = ENTRIES.stream().anyMatch(e -> e.name().equals(fileOrName));
        if (Files.isRegularFile(path) || Files.exists(path) && !shipped) {
            return ModelFile.read(path, overrides); // a directory or an unreadable file: ModelFile says which
        }
        for (Entry e : ENTRIES) {
            if (e.name().equals(fileOrName)) {
                return ModelFile.parse(e.name() + ".model", e.source(), overrides);
            }
        }
        StringBuilder names = new StringBuilder();
        for (Entry e : ENTRIES) {
            names.append(names.length() == 0 ? "" : ", ").append(e.name());
        }
        throw new MflbException(ErrorKind.INPUT, "model", "model = " + fileOrName
                + ": no such file and no shipped model of that name (expected a model file or one of: " + names + ")");
    }
}
