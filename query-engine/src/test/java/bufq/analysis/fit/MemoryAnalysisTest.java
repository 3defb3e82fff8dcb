package bufq.analysis.fit;

import bufq.model.ProgramSizes;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The figures bufq reads from a dump's allocations equal what JAX's {@code compiled.memory_analysis()}
 * reported for the same programs ({@code memory_analysis.json} beside each real out-of-memory case).
 */
class MemoryAnalysisTest {
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/oom-cpu/pair");

    @Test
    void theRepoCopyOfThePairCaseMatchesMemoryAnalysis() throws Exception {
        assertEquals(2, check(FIXTURE));
    }

    @Test
    void everyCorpusProgramMatchesMemoryAnalysis() throws Exception {
        Path root = Corpus.require("oom-cpu");
        int programs = 0;
        try (Stream<Path> s = Files.list(root)) {
            for (Path c : s.filter(p -> Files.isRegularFile(p.resolve("memory_analysis.json"))).sorted().toList())
                programs += check(c);
        }
        assertEquals(3, programs, "programs with a memory_analysis() in the corpus");
    }

    @Test
    void needsAddsTheTempThatJaxsPeakLeavesOutOnCpu() throws Exception {
        HloModule m = byName(DumpLoader.load(List.of(FIXTURE.resolve("dump"))), "module_0008.jit__lambda");
        ProgramSizes z = ProgramSizes.of(m);
        // 96,000 B in, 96,000 B out, a 4 B constant, 4,608,000,000 B of preallocated temp.
        assertEquals(4_608_192_004L, z.needsBytes());
        assertEquals(4L, z.constantBytes());
        assertEquals(-1L, z.codeBytes());
        // JAX's peak_memory_in_bytes (192,004) is what needs leaves when the temp is left out.
        assertEquals(192_004L, z.needsBytes() - z.tempBytes());
    }

    /** Checks every program of one case; returns how many it checked. */
    static int check(Path caseDir) throws Exception {
        Map<String, Map<String, Long>> expected = parse(Files.readString(caseDir.resolve("memory_analysis.json")));
        assertFalse(expected.isEmpty(), caseDir + ": no programs in memory_analysis.json");
        List<HloModule> modules = DumpLoader.load(List.of(caseDir.resolve("dump")));
        for (var e : expected.entrySet()) {
            ProgramSizes z = ProgramSizes.of(byName(modules, e.getKey()));
            String where = caseDir.getFileName() + "/" + e.getKey() + ": ";
            assertEquals(e.getValue().get("argument_size_in_bytes"), z.argumentBytes(), where + "argument");
            assertEquals(e.getValue().get("output_size_in_bytes"), z.outputBytes(), where + "output");
            assertEquals(e.getValue().get("alias_size_in_bytes"), z.aliasBytes(), where + "alias");
            assertEquals(e.getValue().get("temp_size_in_bytes"), z.tempBytes(), where + "temp");
        }
        return expected.size();
    }

    static HloModule byName(List<HloModule> modules, String dumpName) {
        HloModule found = modules.stream().filter(m -> m.info().files().stream()
                .anyMatch(f -> Path.of(f).getFileName().toString().startsWith(dumpName + "."))).findFirst().orElse(null);
        assertNotNull(found, "no module of files " + dumpName + ".*");
        return found;
    }

    /** {"module_0004.jit__lambda": {"argument_size_in_bytes": 2097152, ...}, ...}: flat enough for two patterns. */
    static Map<String, Map<String, Long>> parse(String json) {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        Matcher program = Pattern.compile("\"([^\"]+)\"\\s*:\\s*\\{([^}]*)}").matcher(json);
        while (program.find()) {
            Map<String, Long> fields = new LinkedHashMap<>();
            Matcher f = Pattern.compile("\"(\\w+)\"\\s*:\\s*(-?\\d+)").matcher(program.group(2));
            while (f.find()) fields.put(f.group(1), Long.parseLong(f.group(2)));
            out.put(program.group(1), fields);
        }
        return out;
    }
}
