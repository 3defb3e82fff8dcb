package bufq.analysis.sharding;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads the sharding of an SPMD module from its optimized HLO text ({@code *after_optimizations.txt},
 * or {@code .txt.gz}): the header's {@code num_partitions} and {@code replica_count}, and each ENTRY
 * parameter's {@code sharding=} and {@code op_name}. Only those lines are kept; the rest streams past.
 */
final class HloTextShardings {
    private HloTextShardings() {}

    /** {@code %param.8 = f32[256,2048]{1,0} parameter(13), ...}; the {@code %} is optional (newer XLA prints none). */
    private static final Pattern PARAMETER = Pattern.compile("^\\s*(?:ROOT\\s+)?%?([\\w.\\-]+)\\s*=\\s*(.*?)\\s+parameter\\((\\d+)\\)");
    private static final Pattern OP_NAME = Pattern.compile("op_name=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** What the text states: {@code num_partitions}, {@code replica_count} and the entry parameters by name. */
    record Read(long partitions, long replicas, Map<String, ShardedParameter> parameters) {}

    /** A module's sharding as the file at {@code file} states it. */
    static Read read(Path file, String shown) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = shown.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            return read(r, shown, false);
        }
    }

    /** As {@link #read(Path, String)} with the header line alone: no parameters (listing modules reads no more). */
    static Read header(Path file, String shown) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = shown.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            return read(r, shown, true);
        }
    }

    /** As above, from text already open. */
    static Read read(BufferedReader r, String shown) throws IOException {
        return read(r, shown, false);
    }

    private static Read read(BufferedReader r, String shown, boolean headerOnly) throws IOException {
        String line;
        long partitions = 1, replicas = 1;
        boolean header = false, entry = false;
        Map<String, ShardedParameter> params = new LinkedHashMap<>();
        while ((line = r.readLine()) != null) {
            if (!header && line.startsWith("HloModule ")) {
                header = true;
                partitions = intAttribute(line, "num_partitions=", 1);
                replicas = intAttribute(line, "replica_count=", 1);
                if (headerOnly) break;
                continue;
            }
            if (line.startsWith("ENTRY ")) {
                entry = true;
                continue;
            }
            if (!entry) continue;
            if (line.startsWith("}")) break;   // the end of the entry computation
            if (!line.contains("parameter(")) continue;
            Matcher m = PARAMETER.matcher(line);
            if (!m.find()) continue;
            String sharding = braced(line, "sharding=");
            Matcher op = OP_NAME.matcher(line);
            String opName = op.find() ? op.group(1).replace("\\'", "'").replace("\\\"", "\"") : null;
            params.put(m.group(1), new ShardedParameter(m.group(1), Integer.parseInt(m.group(3)), m.group(2),
                    sharding == null ? null : HloSharding.parse(sharding), opName));
        }
        if (!header) throw new IOException(shown + ": not HLO text (expected a first line 'HloModule NAME, ...')");
        return new Read(partitions, replicas, params);
    }

    /** {@code num_partitions=4} of the header, else {@code absent}. */
    private static long intAttribute(String line, String key, long absent) {
        int k = line.indexOf(key);
        if (k < 0) return absent;
        int e = k + key.length();
        while (e < line.length() && Character.isDigit(line.charAt(e))) e++;
        return e == k + key.length() ? absent : Long.parseLong(line.substring(k + key.length(), e));
    }

    /** The balanced {@code {...}} after {@code key} on the line (a tuple's nested braces kept), or null. */
    static String braced(String line, String key) {
        int k = line.indexOf(key);
        if (k < 0) return null;
        int s = k + key.length();
        if (s >= line.length() || line.charAt(s) != '{') return null;
        int depth = 0;
        for (int i = s; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return line.substring(s, i + 1);
        }
        return null;
    }
}
