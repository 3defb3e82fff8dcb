package bufq.dump.file;

import bufq.dump.file.FileKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What file names say: kind, module prefix, number, program name and backend word. */
class DumpNamesTest {
    @ParameterizedTest
    @CsvSource(delimiter = ';', nullValues = "null", value = {
            // file name; kind; number; program; backend
            "module_0012.jit_mlp.cpu_after_optimizations-buffer-assignment.txt; BUFFER_ASSIGNMENT; 12; jit_mlp; cpu",
            "module_0012.jit_mlp.cpu_after_optimizations-buffer-assignment-values.txt; VALUES; 12; jit_mlp; cpu",
            "module_0012.jit_mlp.cpu_after_optimizations-live-range.txt.gz; LIVE_RANGE; 12; jit_mlp; cpu",
            "module_0231.jit__batched_chol.sm_8.0_gpu_after_optimizations-memory-usage-report.txt; MEMORY_REPORT; 231; jit__batched_chol; gpu",
            "module_0007.jit_step.gfx90a_gpu_after_optimizations-buffer-assignment.txt; BUFFER_ASSIGNMENT; 7; jit_step; gpu",
            "module_0031.jit_reference_attention.cl_772339112.after_optimizations-buffer-assignment.txt; BUFFER_ASSIGNMENT; 31; jit_reference_attention; null",
            "carlesoctav_fme__xla_dump-module_0003.jit__threefry_seed.cpu-buffer-assignment.txt; BUFFER_ASSIGNMENT; 3; jit__threefry_seed; cpu",
            "patrick-toulme_justabyte__tcp-hlo_module_0051.jit_mini_attention-memory-usage-report.txt; MEMORY_REPORT; 51; jit_mini_attention; null",
            "run_module_7-notes.txt; OTHER; 7; null; null",
            "000_58de9a4b501a9eb8.txt; OTHER; -1; null; null",
    })
    void namesSayWhatTheyHold(String file, FileKind kind, int number, String program, String backend) {
        assertEquals(kind, FileKind.of(file));
        String stem = FileKind.prefix(file);
        assertEquals(number, DumpNames.number(stem));
        assertEquals(program, DumpNames.program(stem));
        assertEquals(backend, DumpNames.backend(stem));
    }
}
