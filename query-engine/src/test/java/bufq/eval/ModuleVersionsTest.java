package bufq.eval;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The {@code modules} entity's {@code jax_version} and {@code jaxlib_version}: what a profile capture's
 * {@code /host:metadata} plane records (its stats {@code jax_version} and {@code jaxlib_version}, both
 * {@code 0.10.2} in the checkout's copy of the capture, as {@code strings} shows), null for a text dump.
 */
class ModuleVersionsTest {
    static Path root() { return Path.of(System.getProperty("bufq.root", ".")); }

    @Test
    void aProfileGivesEachOfItsModulesTheVersionsItRecords() throws Exception {
        // The checkout's copy, so a bare clone runs this too.
        List<HloModule> all = DumpLoader.load(List.of(Corpus.copy().resolve("jax-0.10.2-proto/profile/profile.xplane.pb")));
        assertEquals(7, all.size());
        for (HloModule m : all) assertEquals(List.of("0.10.2", "0.10.2"), Arrays.asList(m.info().jaxVersion(), m.info().jaxlibVersion()), m.handle());
        Table t = Query.compile("modules show handle, jax_version, jaxlib_version", Catalog.standard())
                .run(new EvalContext(all.get(0), null, ModuleRow.of(all)));
        assertEquals(7, t.rows().size());
        for (List<Object> r : t.rows()) assertEquals(List.of("0.10.2", "0.10.2"), r.subList(1, 3), r.toString());
        // A module under another handle keeps them.
        assertEquals("0.10.2", all.get(0).withHandle("other").info().jaxlibVersion());
    }

    @Test
    void aTextDumpRecordsNone() throws Exception {
        List<HloModule> text = DumpLoader.load(List.of(root().resolve("examples/jax-mlp")));
        assertEquals(Arrays.asList(null, null), Arrays.asList(text.get(0).info().jaxVersion(), text.get(0).info().jaxlibVersion()));
        Table t = Query.compile("modules show jax_version, jaxlib_version", Catalog.standard())
                .run(new EvalContext(text.get(0), null, ModuleRow.of(text)));
        assertEquals(Arrays.asList(null, null), t.rows().get(0));
    }
}
